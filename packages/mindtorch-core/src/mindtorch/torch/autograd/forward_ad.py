"""torch.autograd.forward_ad (dual numbers, torch 1.11+): MindSpore 2.10's PyNative tape is reverse-mode only.

Every entry point raises NotImplementedError naming the way out: Jacobian-vector products come from
`torch.autograd.functional.jvp` (double-vjp on the reverse tape, same values).
"""
from __future__ import annotations

from typing import Any

__all__ = ["dual_level", "make_dual", "unpack_dual", "enter_dual_level", "exit_dual_level"]

_WAY_OUT = ("is not supported by mindtorch (MindSpore's PyNative autograd is reverse-mode only): use "
            "torch.autograd.functional.jvp(func, inputs, v) for Jacobian-vector products")


def _refuse(name: str) -> Any:
    raise NotImplementedError(f"torch.autograd.forward_ad.{name} {_WAY_OUT}")


def make_dual(tensor: Any, tangent: Any, *, level: Any = None) -> Any:
    _refuse("make_dual")


def unpack_dual(tensor: Any, *, level: Any = None) -> Any:
    _refuse("unpack_dual")


def enter_dual_level() -> Any:
    _refuse("enter_dual_level")


def exit_dual_level(*, level: Any = None) -> Any:
    _refuse("exit_dual_level")


class dual_level:
    """`with forward_ad.dual_level():` refused on entry (see the module docstring)."""

    def __enter__(self) -> Any:
        _refuse("dual_level")

    def __exit__(self, *exc: Any) -> None:
        return None
