"""Comparison, logical and bitwise ops: eq/ne/lt/..., isclose/allclose, isnan/isinf/..., logical_*, bitwise_*,
where.

Comparisons promote their operands as torch does (int tensor vs 1.5 compares in float) and return bool.
MindSpore 2.10 CPU facts: mint.bitwise_or/xor and mint.bitwise_not have no kernel (legacy ops / `invert` work),
isinf/isposinf/isneginf have no integer kernels (ints are never infinite, so those are answered directly).
"""
from __future__ import annotations

import builtins
from typing import Any, Callable, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from ._registry import register
from .pointwise import _abs, _shape_error, not_implemented, promote

_MsTensor = ms.Tensor
# ops.cast, not Tensor.astype: MindSpore's astype calls self.to(), which our Tensor overrides with torch's.
_cast = ops.cast
# Sets of dtype ids: MindSpore dtypes are singletons and their __eq__/__hash__ cost ~2-4 us (measured).
_FLOATS = frozenset(map(id, D.all_float_type + D.all_complex_type))


def _compare(name: str, kernel: Callable, aliases: Tuple[str, ...] = ()) -> None:
    def impl(input: Any, other: Any) -> Any:
        if type(input) is type(other) and isinstance(input, _MsTensor) and input.dtype is other.dtype:
            return kernel(input, other)  # shape errors: the registry turns MindSpore's into torch's RuntimeError
        a, b, _ = promote(input, other, True)
        return _shape_error(kernel, a, b)
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, other): elementwise comparison with broadcasting -> bool tensor."
    register(name, inplace=True, aliases=aliases)(impl)


_compare("eq", mint.eq)
_compare("ne", mint.ne, ("not_equal",))
_compare("lt", mint.lt, ("less",))
_compare("le", mint.le, ("less_equal",))
_compare("gt", mint.gt, ("greater",))
_compare("ge", mint.ge, ("greater_equal",))


@register("equal")
def equal(input: Any, other: Any) -> builtins.bool:
    """True when both tensors have the same shape and elements (a Python bool)."""
    if tuple(input.shape) != tuple(other.shape):
        return False
    if input.numel() == 0:
        return True
    a, b, _ = promote(input, other)
    return builtins.bool(mint.all(mint.eq(a, b)).asnumpy())


@register("isin", method=False)
def isin(elements: Any, test_elements: Any, *, assume_unique: builtins.bool = False,
         invert: builtins.bool = False) -> Any:
    """Bool tensor of elements' shape: whether each element is in test_elements (either may be a scalar)."""
    if not isinstance(elements, _MsTensor) and not isinstance(test_elements, _MsTensor):
        raise TypeError("isin() received an invalid combination of arguments: expected a Tensor")
    # a host-side set lookup (np.isin): a bool result, no gradient to carry
    to_np = lambda v: v.asnumpy() if isinstance(v, _MsTensor) else np.asarray(v)  # noqa: E731
    out = np.isin(to_np(elements), to_np(test_elements), assume_unique=assume_unique, invert=invert)
    return _MsTensor(np.asarray(out, dtype=np.bool_))


def _parts(x: Any) -> Any:
    return (ops.real(x), ops.imag(x)) if x.dtype in D.all_complex_type else None


def _isfinite(x: Any) -> Any:
    p = _parts(x)
    return mint.isfinite(x) if p is None else mint.logical_and(mint.isfinite(p[0]), mint.isfinite(p[1]))


def _isnan(x: Any) -> Any:
    p = _parts(x)
    return mint.isnan(x) if p is None else mint.logical_or(mint.isnan(p[0]), mint.isnan(p[1]))


@register("isclose")
def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: builtins.bool = False) -> Any:
    """|input - other| <= atol + rtol * |other| elementwise (infinities equal when identical)."""
    if isinstance(other, _MsTensor) and input.dtype is not other.dtype:
        raise RuntimeError(f"{D.scalar_name(input.dtype)} did not match {D.scalar_name(other.dtype)}")
    a, b, d = promote(input, other)
    if d is D.bool:
        return mint.eq(a, b)
    eq = mint.eq(a, b)
    if id(d) not in _FLOATS:
        a, b = _cast(a, D.float64), _cast(b, D.float64)
    diff = _abs(mint.sub(a, b))
    close = mint.le(diff, mint.add(mint.mul(_abs(b), rtol), atol))
    finite = mint.logical_and(_isfinite(a), _isfinite(b))
    res = mint.logical_or(eq, mint.logical_and(close, finite))
    if equal_nan:
        res = mint.logical_or(res, mint.logical_and(_isnan(a), _isnan(b)))
    return res


@register("allclose")
def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: builtins.bool = False) -> builtins.bool:
    """isclose(...).all() as a Python bool."""
    return builtins.bool(mint.all(isclose(input, other, rtol, atol, equal_nan)).asnumpy())


# ------------------------------------------------------------------------------------------ classification
def _classify(name: str, float_kernel: Callable, int_value: builtins.bool) -> None:
    def impl(input: Any) -> Any:
        if id(input.dtype) in _FLOATS:
            return float_kernel(input)
        return ops.ones_like(input, dtype=D.bool) if int_value else ops.zeros_like(input, dtype=D.bool)
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input) -> bool tensor of the same shape."
    register(name)(impl)


_classify("isnan", _isnan, False)
def _isinf(x: Any) -> Any:
    if x.dtype in D.all_complex_type:  # torch: either part infinite (MindSpore's IsInf has no complex kernel)
        return mint.logical_or(ops.isinf(ops.real(x)), ops.isinf(ops.imag(x)))
    return ops.isinf(x)


_classify("isinf", _isinf, False)
_classify("isfinite", _isfinite, True)
def _signed_inf(name: str, compare: Callable) -> Callable:
    def kernel(x: Any) -> Any:
        if x.dtype in D.all_complex_type:
            raise RuntimeError(f"{name} does not support complex inputs.")
        return mint.logical_and(ops.isinf(x), compare(x, 0))
    return kernel


_classify("isposinf", _signed_inf("isposinf", mint.gt), False)
_classify("isneginf", _signed_inf("isneginf", mint.lt), False)


@register("isreal")
def isreal(input: Any) -> Any:
    if input.dtype in D.all_complex_type:
        return mint.eq(ops.imag(input), 0)
    return ops.ones_like(input, dtype=D.bool)


# ---------------------------------------------------------------------------------------------- logical
def _logical(name: str, kernel: Callable) -> None:
    def impl(input: Any, other: Any) -> Any:
        if not isinstance(other, _MsTensor):
            raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
        return _shape_error(kernel, input, other)
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, other) -> bool tensor (non-zero is True)."
    register(name, inplace=True)(impl)


_logical("logical_and", mint.logical_and)
_logical("logical_or", mint.logical_or)
_logical("logical_xor", mint.logical_xor)


@register("logical_not", inplace=True)
def logical_not(input: Any) -> Any:
    return mint.logical_not(input)


# ---------------------------------------------------------------------------------------------- bitwise
def _bitwise(name: str, kernel: Callable) -> None:
    def impl(input: Any, other: Any) -> Any:
        a, b, d = promote(input, other)
        if id(d) in _FLOATS:
            raise not_implemented(f"{name}_cpu", d)
        if d is D.bool and name.endswith("shift"):
            raise not_implemented(("lshift" if "left" in name else "rshift") + "_cpu", d)
        return _shape_error(kernel, a, b)
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, other): integer/bool tensors, broadcast."
    register(name, inplace=True)(impl)


_bitwise("bitwise_and", ops.bitwise_and)
_bitwise("bitwise_or", ops.bitwise_or)
_bitwise("bitwise_xor", ops.bitwise_xor)
def _left_shift(a: Any, b: Any) -> Any:
    """a << b; a shift by a negative amount or by the bit width or more gives 0 as in torch (MindSpore's kernel takes
    the amount modulo the width: int32 `2 << 40` gave 512)."""
    r = ops.bitwise_left_shift(a, b)
    outside = mint.logical_or(mint.lt(b, 0), mint.ge(b, a.dtype.itemsize * 8))
    return mint.where(outside, ops.zeros_like(r), r)


_bitwise("bitwise_left_shift", _left_shift)
_bitwise("bitwise_right_shift", ops.bitwise_right_shift)


@register("bitwise_not", inplace=True)
def bitwise_not(input: Any) -> Any:
    d = input.dtype
    if id(d) in _FLOATS:
        raise not_implemented("bitwise_not_cpu", d)
    if d is D.bool:
        return mint.logical_not(input)
    return ops.invert(input)


# ------------------------------------------------------------------------------------------------- where
@register("where")
def where(condition: Any, input: Any = None, other: Any = None) -> Any:
    """where(cond, x, y): x where cond else y (promoted, broadcast); where(cond): the nonzero index tuple."""
    if input is None and other is None:
        idx = ops.nonzero(condition if condition.ndim else mint.reshape(condition, (1,)))
        return tuple(idx[:, j] for j in range(idx.shape[1])) if condition.ndim else (idx[:, 0],)
    if condition.dtype is not D.bool:
        if condition.dtype is not D.uint8:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{D.scalar_name(condition.dtype)}")
        condition = _cast(condition, D.bool)
    a, b, _ = promote(input, other)
    return _shape_error(mint.where, condition, a, b)
