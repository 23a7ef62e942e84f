"""Tensor's Python operator protocol (`a + b`, `a += b`, `a == b`, `~a`, `a @ b`, ...), as op-table entries.

Each operator is a method-only entry reusing the torch op's implementation, so `a + b`, `torch.add(a, b)` and
`a.add(b)` share one code path. In-place operators (`a += b`) are true in place: the value is written back into
`a` through the registry's `write_back` (same object, every view sees it), never rebinding `a` to a new tensor.
`__eq__` returns a tensor (torch semantics); hashing stays by identity (`Tensor.__hash__`).

An operator computes only with the operands torch's argument parser takes (`_OPERAND`); for any other it returns
NotImplemented, so Python gives the other operand its turn, as with torch: `[0] * t` repeats the list (through
`t.__index__`), `t + None` or `t * [0, 1]` raise Python's own TypeError, and a numpy array computes `t + a` itself
with its ufunc - `Tensor.__array__` in, `Tensor.__array_wrap__` out - so the result is a Tensor with numpy's dtype
(float32 tensor + float64 array -> float64, int32 + int32 array -> int32, bool results -> uint8), while `a + t`,
`t < a` raise TypeError (numpy defers to the tensor's `__array_priority__`, whose reflected operator refuses).
"""
from __future__ import annotations

from typing import Any, Callable

import mindspore as ms
import numpy as np

from .. import _dtype as D
from . import comparison as C
from . import pointwise as P
from ._registry import _DISPATCHERS, METHODS, TABLE, register
from .misc import matmul as _torch_matmul

_MsTensor = ms.Tensor
# torch's operands: tensors, Python numbers and numpy scalars (np.float64 is a float, np.float32 is not). Decimal,
# Fraction, sequences, strings, None and numpy arrays are not.
_OPERAND = (_MsTensor, int, float, complex, np.number, np.bool_)
# what torch's `Tensor.numpy()` says when numpy's ufunc reads a tensor that requires grad (`t * ndarray`)
_NUMPY_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."


def _impl(name: str) -> Callable:
    """The default implementation registered for torch op `name`."""
    return TABLE[name].impls["default"]


def _operand_types(operands: tuple) -> set:
    """The operand classes seen so far, filled by `_is_operand`: one set lookup per operator call. (isinstance costs
    ~0.3 us for a Parameter or a numpy scalar, through MindSpore's ABCMeta; the tensor or number of a small op
    takes ~15 us in all.)"""
    return {float, int, bool} if operands is _OPERAND else set()


def _is_operand(x: Any, operands: tuple, known: set) -> bool:
    if isinstance(x, operands):
        known.add(type(x))
        return True
    return False


def _not_an_operand(self: Any, other: Any) -> Any:
    """A forward or in-place operator's answer to an operand it does not take: NotImplemented, or torch's error where
    numpy would read a tensor that requires grad."""
    if isinstance(other, np.ndarray) and self.requires_grad:
        raise RuntimeError(_NUMPY_REQUIRES_GRAD)
    return NotImplemented


def _operator(dispatch: Callable, operands: tuple = _OPERAND) -> Callable:
    """The Tensor method of a forward or in-place operator: the entry's dispatcher for torch's operands, else
    NotImplemented (Python's turn, see the module doc; an in-place write never starts). Not the entry's
    implementation: the CPU broadcast form (`_expand`) and the in-place dispatcher stay the entry's own."""
    known = _operand_types(operands)

    def op(self: Any, other: Any) -> Any:
        if type(other) in known or _is_operand(other, operands, known):
            return dispatch(self, other)
        return _not_an_operand(self, other)
    op.__name__ = op.__qualname__ = dispatch.__name__
    op.__doc__ = dispatch.__doc__
    return op


def _reflected(fn: Callable, operands: tuple = _OPERAND) -> Callable:
    """`other OP t` as fn(other, t); NotImplemented for an operand torch refuses (the check is in the
    implementation: the dispatcher returns NotImplemented as it is)."""
    known = _operand_types(operands)

    def impl(self: Any, other: Any) -> Any:
        if type(other) in known or _is_operand(other, operands, known):
            return fn(other, self)
        return NotImplemented
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


def _comparison(fn: Callable, operands: tuple = _OPERAND) -> Callable:
    def impl(self: Any, other: Any) -> Any:
        if not isinstance(other, operands):  # `t == None`, `t < "a"`: Python's fallback (identity / TypeError)
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
    ("matmul", _matmul, True, False),  # no `@=` in torch: Python rebinds `t = t @ m` (another shape, often)
    ("and", _impl("bitwise_and"), True, True),
    ("or", _impl("bitwise_or"), True, True),
    ("xor", _impl("bitwise_xor"), True, True),
    ("lshift", _impl("bitwise_left_shift"), True, True),
    ("rshift", _impl("bitwise_right_shift"), True, True),
)


def _rtruediv(other: Any, self: Any) -> Any:
    # `other / t` is `t.reciprocal() * other` in torch (torch/_tensor.py `__rdiv__`), which rounds differently from
    # a true division: e.g. 56 / tensor([30.625]) is 1.8285713 in float32, not 1.8285714 (keypoint heatmap
    # indices of torchvision's Keypoint R-CNN floor such products)
    return P.mul(_impl("reciprocal")(self), other)


_FLOORDIV_OPERANDS = _operand_types(_OPERAND)


def _floordiv(input: Any, other: Any) -> Any:
    """`t // x`: torch 1.12's floor_divide, with `_operator`'s operand check made here, and floor_divide's body (its
    once-per-process warning, a truncating division) inlined: the warning's stack level counts the frames up to the
    caller, whose line it must show - a method wrapper or a call to P.floor_divide would be one frame too many."""
    if type(other) in _FLOORDIV_OPERANDS or _is_operand(other, _OPERAND, _FLOORDIV_OPERANDS):
        P._warn_floor_divide("floor_divide")
        return P.div(input, other, rounding_mode="trunc")
    return _not_an_operand(input, other)


# forward, reflected and in-place forms whose implementation is not the out-of-place torch op's: `t // x` and
# `other / t` (above); `//=` (torch 1.12 warns once per C++ call site, the in-place one its own)
_FORWARD_IMPL = {"floordiv": _floordiv}
_REFLECTED_IMPL = {"truediv": _rtruediv}
_INPLACE_IMPL = {"floordiv": P.floor_divide_}
# `t @ 2` is Python's TypeError in torch: matmul takes tensors only
_OPERANDS = {"matmul": (_MsTensor,)}

for _name, _fn, _r, _i in _BINARY:
    _operands = _OPERANDS.get(_name, _OPERAND)
    if _name in _FORWARD_IMPL:  # (it checks its operand itself)
        register(f"__{_name}__", function=False)(_FORWARD_IMPL[_name])
    else:  # the method checks the operand, the entry keeps the torch op's implementation (see `_operator`)
        register(f"__{_name}__", function=False)(_fn)
        METHODS[f"__{_name}__"] = _operator(_DISPATCHERS[f"__{_name}__"], _operands)
    if _r:
        register(f"__r{_name}__", function=False)(_reflected(_REFLECTED_IMPL.get(_name, _fn), _operands))
    if _i:
        register(f"__i{_name}__", function=False, writes_self=True)(_INPLACE_IMPL.get(_name, _fn))
        METHODS[f"__i{_name}__"] = _operator(_DISPATCHERS[f"__i{_name}__"])

# `t == a` with a numpy array compares elementwise (torch >= 2.0's `__eq__` reads the array; 1.12 answered False,
# Python's identity fallback, an accident torch fixed); `!=`, `<`, ... refuse it in 1.12 and 2.x alike
register("__eq__", function=False)(_comparison(_impl("eq"), (*_OPERAND, np.ndarray)))
for _name in ("ne", "lt", "le", "gt", "ge"):
    register(f"__{_name}__", function=False)(_comparison(_impl(_name)))

register("__neg__", function=False)(_impl("neg"))
register("__pos__", function=False)(_pos)
register("__abs__", function=False)(_impl("abs"))
def _invert(input: Any) -> Any:
    if input.dtype not in D.all_int_type and input.dtype is not D.bool:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return C.bitwise_not(input)


register("__invert__", function=False)(_invert)
