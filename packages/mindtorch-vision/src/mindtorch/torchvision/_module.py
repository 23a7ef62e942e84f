"""The base class of vision's transforms and modules: `mindtorch.torch.nn.Module` once core provides it.

torchvision's transforms subclass `torch.nn.Module` (so they nest in `nn.Sequential`). Until core's nn lands,
a minimal stand-in with the same calling convention (`__call__` -> `forward`) is used.
"""
from __future__ import annotations

import importlib
from typing import Any


class _PlainModule:
    """`__call__` runs `forward`; `train`/`eval` toggle `training` (transforms hold no parameters)."""

    def __init__(self) -> None:
        self.training = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.forward is not defined: subclasses must implement it")

    def train(self, mode: bool = True) -> "_PlainModule":
        self.training = mode
        return self

    def eval(self) -> "_PlainModule":
        return self.train(False)


def _module_base() -> type:
    try:
        nn = importlib.import_module("mindtorch.torch.nn")
    except ImportError:
        return _PlainModule
    base = getattr(nn, "Module", None)
    return base if isinstance(base, type) else _PlainModule


class Module(_module_base()):  # type: ignore[misc]
    """Vision's module base; `str()` is the torchvision `repr` (MindSpore's Cell defines its own `__str__`)."""

    def __str__(self) -> str:
        return self.__repr__()
