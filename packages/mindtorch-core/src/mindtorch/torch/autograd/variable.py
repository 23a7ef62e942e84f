"""torch.autograd.Variable: since torch 0.4 a Variable IS a Tensor; `Variable(x)` returns a tensor."""
from __future__ import annotations

from typing import Any


class _VariableMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        from .._tensor import Tensor

        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """`Variable(data, requires_grad=False)` -> `data` as a mindtorch Tensor (the same storage), with
    requires_grad set when asked; `isinstance(t, Variable)` is True for every tensor, as in torch."""

    def __new__(cls, data: Any = None, requires_grad: bool = False, volatile: bool = False) -> Any:
        from .._tensor import Tensor

        if data is None:
            data = Tensor()
        if not isinstance(data, Tensor):
            import mindspore as ms

            if type(data) is ms.Tensor:
                data.__class__ = Tensor  # zero-copy re-class (DESIGN.md §2)
            else:
                raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad:
            data.requires_grad_()
        return data
