"""torch.nn.modules.padding: Constant/Zero/Reflection/Replication/Circular padding layers."""
from __future__ import annotations

from typing import Any, Sequence

from ..._tensor import Tensor
from .. import functional as F
from .module import Module
from .utils import _ntuple, _pair, _quadruple

__all__ = [
    "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d", "ReflectionPad2d",
    "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
    "CircularPad2d", "CircularPad3d",
]

_sextuple = _ntuple(6, "_sextuple")


class _PadBase(Module):
    """`padding` in F.pad order: (left, right[, top, bottom[, front, back]])."""

    __constants__ = ["padding"]
    _mode = "constant"
    _n = 1

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding: Sequence[int] = {1: _pair, 2: _quadruple, 3: _sextuple}[self._n](padding)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(Module):
    __constants__ = ["padding", "value"]
    _n = 1

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__()
        self.padding = {1: _pair, 2: _quadruple, 3: _sextuple}[self._n](padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """(N, C, W) / (C, W): pad the last dim with `value`."""

    _n = 1


class ConstantPad2d(_ConstantPadNd):
    _n = 2


class ConstantPad3d(_ConstantPadNd):
    _n = 3


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_PadBase):
    _mode, _n = "reflect", 1


class ReflectionPad2d(_PadBase):
    _mode, _n = "reflect", 2


class ReflectionPad3d(_PadBase):
    _mode, _n = "reflect", 3


class ReplicationPad1d(_PadBase):
    _mode, _n = "replicate", 1


class ReplicationPad2d(_PadBase):
    _mode, _n = "replicate", 2


class ReplicationPad3d(_PadBase):
    _mode, _n = "replicate", 3


class CircularPad1d(_PadBase):
    _mode, _n = "circular", 1


class CircularPad2d(_PadBase):
    _mode, _n = "circular", 2


class CircularPad3d(_PadBase):
    _mode, _n = "circular", 3
