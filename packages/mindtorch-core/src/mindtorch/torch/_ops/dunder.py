"""Tensor's Python operator protocol (`a + b`, `a += b`, `a == b`, `~a`, `a @ b`, ...), as op-table entries.

Each operator is a method-only entry reusing the torch op's implementation, so `a + b`, `torch.add(a, b)` and
`a.add(b)` share one code path. In-place operators (`a += b`) are true in place: the value is written back into
`a` through the registry's `write_back` (same object, every view sees it), never rebinding `a` to a new tensor.
`__eq__` returns a tensor (torch semantics); hashing stays by identity (`Tensor.__hash__`).
"""
from __future__ import annotations

from typing import Any, Callable

import mindspore as ms
import numpy as np

from .. import _dtype as D
from . import comparison as C
from . import pointwise as P
from ._registry import TABLE, register
from .misc import matmul as _torch_matmul

_MsTensor = ms.Tensor
_OPERAND = (_MsTensor, bool, int, float, complex, np.ndarray, np.generic)


def _impl(name: str) -> Callable:
    """The default implementation registered for torch op `name`."""
    return TABLE[name].impls["default"]


def _reflected(fn: Callable) -> Callable:
    def impl(self: Any, other: Any) -> Any:
        return fn(other, self)
    return impl


def _matmul(input: Any, other: Any) -> Any:
    # `a @ b` promotes mixed float dtypes where torch.matmul raises: MindSpore's auto_mixed_precision (the manual's
    # amp route, §3.1) casts a model's parameters to float16 but not the tensors user code builds inside forward,
    # so `x @ self.w.T` meets float32 and float16 operands. Other mixes (int @ float) and torch.matmul itself keep
    # torch's same-dtype error.
    if input.dtype != other.dtype and input.is_floating_point() and other.is_floating_point():
        input, other, _ = P.promote(input, other)
    return _torch_matmul(input, other)


def _pos(input: Any) -> Any:
    if input.dtype is ms.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def _comparison(fn: Callable) -> Callable:
    def impl(self: Any, other: Any) -> Any:
        if not isinstance(other, _OPERAND):  # `t == None`, `t == "a"`: Python's fallback (identity / TypeError)
            return NotImplemented
        return fn(self, other)
    return impl


# (name, out-of-place implementation, reflected form, in-place form)
_BINARY = (
    ("add", P.add, True, True),
    ("sub", P.sub, True, True),
    ("mul", P.mul, True, True),
    ("truediv", P.div, True, True),
    ("floordiv", P.floor_divide, True, True),
    ("mod", _impl("remainder"), True, True),
    ("pow", P.pow, True, True),
    ("matmul", _matmul, True, True),
    ("and", _impl("bitwise_and"), True, True),
    ("or", _impl("bitwise_or"), True, True),
    ("xor", _impl("bitwise_xor"), True, True),
    ("lshift", _impl("bitwise_left_shift"), True, True),
    ("rshift", _impl("bitwise_right_shift"), True, True),
)


def _rtruediv(self: Any, other: Any) -> Any:
    # `other / t` is `t.reciprocal() * other` in torch (torch/_tensor.py `__rdiv__`), which rounds differently from
    # a true division: e.g. 56 / tensor([30.625]) is 1.8285713 in float32, not 1.8285714 (keypoint heatmap
    # indices of torchvision's Keypoint R-CNN floor such products)
    return P.mul(_impl("reciprocal")(self), other)


# reflected and in-place forms whose implementation is not derived from the out-of-place one: `other / t` (above);
# `//=` (torch 1.12 warns once per C++ call site, the in-place one its own)
_REFLECTED_IMPL = {"truediv": _rtruediv}
_INPLACE_IMPL = {"floordiv": P.floor_divide_}

for _name, _fn, _r, _i in _BINARY:
    register(f"__{_name}__", function=False)(_fn)
    if _r:
        register(f"__r{_name}__", function=False)(_REFLECTED_IMPL.get(_name) or _reflected(_fn))
    if _i:
        register(f"__i{_name}__", function=False, writes_self=True)(_INPLACE_IMPL.get(_name, _fn))

for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    register(f"__{_name}__", function=False)(_comparison(_impl(_name)))

register("__neg__", function=False)(_impl("neg"))
register("__pos__", function=False)(_pos)
register("__abs__", function=False)(_impl("abs"))
def _invert(input: Any) -> Any:
    if input.dtype not in D.all_int_type and input.dtype is not D.bool:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return C.bitwise_not(input)


register("__invert__", function=False)(_invert)
