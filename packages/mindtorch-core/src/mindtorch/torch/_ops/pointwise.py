"""Pointwise math: add, sub, mul, div, exp, ... (torch.* and Tensor.*, with in-place twins).

Type promotion follows torch (`_dtype.result_type_of`): it is computed only when the operands' dtypes differ
or a Python scalar is involved, so the common same-dtype call goes straight to the kernel. Where
`mindspore.mint` has no CPU kernel (measured on MindSpore 2.10: exp2, log2, log10, asin, acos, atan, asinh,
acosh, atan2, frac, logaddexp, bitwise_or/xor, ...) the legacy `mindspore.ops` op is used instead.
"""
from __future__ import annotations

import math
import types
import warnings
from typing import Any, Callable, Optional, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms
from ..autograd.function import Function
from . import _expand, _onednn, _registry
from ._args import check_scalar_fits, scalar_arg, wrap_dim
from ._host import _host_op
from ._registry import kernel, register

_MsTensor = ms.Tensor
# ops.cast, not Tensor.astype: MindSpore's astype calls self.to(), which our Tensor overrides with torch's.
_cast = ops.cast
# Sets of dtype ids: MindSpore dtypes are singletons and their __eq__/__hash__ cost ~2-4 us (measured).
_FLOATS = frozenset(map(id, D.all_float_type + D.all_complex_type))
_INTS = frozenset(map(id, D.all_int_type))
_REAL_FLOATS = frozenset(map(id, D.all_float_type))
# Float dtypes whose mint tensor-scalar kernels may take a Python float/int directly. Not float64: MindSpore 2.10
# rounds the Python scalar to float32 first (measured: float64 `x * 0.3` off by 3e-8 relative, `x == 0.7234...`
# False where torch says True), so a float64 operand gets the scalar as a 0-d float64 tensor instead.
_SCALAR_KERNEL_FLOATS = frozenset(map(id, (D.float16, D.bfloat16, D.float32)))
_NUMBER = (bool, int, float, complex)
# The tensor classes the fast paths accept by a set lookup: `isinstance(x, ms.Tensor)` goes through ABCMeta's
# __instancecheck__ for a subclass instance (~0.13 us, measured); other subclasses (nn.Parameter) take isinstance.
_TENSOR_TYPES = _registry.TENSOR_TYPES


# ------------------------------------------------------------------------------------------- promotion
def result_dtype(a: Any, b: Any) -> Any:
    """torch's result dtype of a binary op between tensors and/or Python scalars."""
    ta, tb = isinstance(a, _MsTensor), isinstance(b, _MsTensor)
    if ta and tb:
        da, db = a.dtype, b.dtype
        if da is db:
            return da
        za, zb = a.ndim == 0, b.ndim == 0
        if za == zb:
            return D.promote_types(da, db)
        return D.result_type_of([db], [], [da]) if za else D.result_type_of([da], [], [db])
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _array_result_dtype(a, b)
    if ta:
        return D.result_type_of([a.dtype], [b])
    if tb:
        return D.result_type_of([b.dtype], [a])
    return D.result_type_of([], [a, b])


def _array_result_dtype(a: Any, b: Any) -> Any:
    """result_dtype with a numpy array taken as the tensor torch.from_numpy makes of it (its own dtype; a 0-d array as
    a 0-d tensor), not as a Python scalar: an int32 tensor and an int32 array stay int32, a float64 or complex array
    is not rounded to the tensor's dtype."""
    dims, zero_dims, scalars = [], [], []
    for x in (a, b):
        if isinstance(x, (_MsTensor, np.ndarray)):
            d = x.dtype if isinstance(x, _MsTensor) else D.from_numpy_dtype(x.dtype)
            (zero_dims if x.ndim == 0 else dims).append(d)
        else:
            scalars.append(x)
    return D.result_type_of(dims, scalars, zero_dims)


def _as(x: Any, d: Any) -> Any:
    """`x` as a MindSpore tensor of dtype d (Python scalars become 0-d tensors)."""
    if isinstance(x, _MsTensor):
        return x if x.dtype is d else _cast(x, d)
    if isinstance(x, np.ndarray):
        return _cast(_MsTensor(x), d)
    if x is None:  # MindSpore would make an uninitialised "lazy" tensor of shape [-2]
        raise TypeError("expected a Tensor or a number, not NoneType")
    return _MsTensor(x, dtype=d)


def promote(a: Any, b: Any, scalar_ok: bool = False) -> Tuple[Any, Any, Any]:
    """(a, b, dtype) with both operands cast to torch's result dtype.

    scalar_ok: the caller's kernel takes a Python scalar `b` (mint's tensor-scalar kernels): a float tensor with
    an int/float scalar, or an int tensor with an int scalar, already gets torch's dtype there (measured), so the
    scalar is passed through untouched (no 0-d tensor is built); float64 excepted (`_SCALAR_KERNEL_FLOATS`).
    """
    ta = type(a)
    tb = type(b)
    if ta is tb and (ta in _TENSOR_TYPES or isinstance(a, _MsTensor)):  # fast path
        da = a.dtype
        if da is b.dtype:
            return a, b, da
    elif scalar_ok and (tb is float or tb is int):
        da = getattr(a, "dtype", None)
        if id(da) in _SCALAR_KERNEL_FLOATS or (tb is int and id(da) in _INTS and _fits_every_int(b, da)):
            return a, b, da
    d = result_dtype(a, b)
    return _as(a, d), _as(b, d), d


# the values of each integer dtype (by dtype id)
_INT_RANGE = {id(d): (int(np.iinfo(D.to_numpy_dtype(d)).min), int(np.iinfo(D.to_numpy_dtype(d)).max))
              for d in D.all_int_type}


def _fits_every_int(v: int, d: Any) -> bool:
    """Whether int scalar `v` is representable in integer dtype `d` as it is: then the tensor-scalar kernel may take
    it. Otherwise torch casts it to `d` with wraparound (`uint8_t.fmod(-1)` divides by 255), which the kernels do
    not, so the scalar goes through promotion (a 0-d tensor of `d`)."""
    lo, hi = _INT_RANGE[id(d)]
    return lo <= v <= hi


def _float_dtype(d: Any) -> Any:
    """Ops that always produce floats (sqrt, exp, true division...) turn ints/bools into the default dtype."""
    return d if id(d) in _FLOATS else D.get_default_dtype()


def to_float(x: Any) -> Any:
    if not isinstance(x, _MsTensor):
        x = _MsTensor(x, dtype=D.get_default_dtype() if not isinstance(x, complex) else D.complex64)
    d = x.dtype
    return x if id(d) in _FLOATS else _cast(x, D.get_default_dtype())


def not_implemented(kernel_name: str, d: Any) -> NotImplementedError:
    """torch's error for a dtype a kernel does not support (a RuntimeError subclass, as in torch)."""
    return NotImplementedError(f"\"{kernel_name}\" not implemented for '{D.scalar_name(d)}'")


def _check_int_divisor(b: Any, d: Any) -> None:
    """Integer division by zero: torch raises (one sync, only for integer dtypes)."""
    if id(d) in _FLOATS:
        return
    if not isinstance(b, _MsTensor):
        zero = b == 0
    else:
        zero = bool(mint.any(mint.eq(b, 0)).asnumpy())
    if zero:
        raise RuntimeError("ZeroDivisionError")


def _shape_error(fn: Callable, *args: Any) -> Any:
    """Run fn, turning MindSpore's broadcast ValueError into torch's RuntimeError (torch's message)."""
    try:
        return fn(*args)
    except ValueError as e:
        raise _registry.broadcast_error(*args) or RuntimeError(str(e).splitlines()[0]) from None


def _binary(kernel: Callable, scalar_ok: bool = False) -> Callable:
    def impl(input: Any, other: Any) -> Any:
        a, b, _ = promote(input, other, scalar_ok)
        try:
            return kernel(a, b)
        except ValueError as e:
            raise _registry.broadcast_error(a, b) or RuntimeError(str(e).splitlines()[0]) from None
    return impl


# -------------------------------------------------------------------------------------------- arithmetic
@register("add", inplace=True)
def add(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """input + alpha * other (broadcast), with torch's type promotion."""
    if alpha != 1 or alpha is True:  # True == 1, but a bool alpha is refused for non-bool results
        other = _alpha_scaled(input, other, alpha)
    ti, to = type(input), type(other)
    # fast paths (inlined: every Python call here is a measurable share of a small op): two tensors of one class
    # and dtype, or a float tensor and a float/int scalar (mint's tensor-scalar kernel keeps torch's dtype)
    if ti is to and ti in _TENSOR_TYPES:
        d = input.dtype
        if d is other.dtype:
            try:
                # same-dtype floats: the `Add` kernel (~14 us a call on CPU) rather than mint's `AddExt` (~25 us,
                # it also takes alpha); both are MindSpore's native kernel on every target
                return _ADD([input, other]) if id(d) in _REAL_FLOATS else mint.add(input, other)
            except ValueError as e:
                raise _registry.broadcast_error(input, other) or RuntimeError(str(e).splitlines()[0]) from None
    elif (to is float or to is int) and ti in _TENSOR_TYPES and id(input.dtype) in _SCALAR_KERNEL_FLOATS:
        return mint.add(input, other)
    a, b, d = promote(input, other, True)
    if d is D.bool:
        return mint.logical_or(a, b)
    return _shape_error(mint.add, a, b)


# MindSpore's C++ entries of the hottest kernels (`_ms.pyboost`: what ops.add / mint.mul reach, minus their frames)
_ADD, _SUB, _MUL, _MULS, _RELU = (_ms.pyboost(n) for n in ("add", "sub", "mul", "muls", "relu"))


def _alpha_scaled(input: Any, other: Any, alpha: Any) -> Any:
    """alpha * other in the op's result dtype, after torch's alpha_check (BinaryOps.h, 1.12 as 2.x): a bool alpha
    only for a bool result, a float alpha not for integer results. (bool: `a + alpha * b` is a logical or.)"""
    d = result_dtype(input, other)
    if isinstance(alpha, (bool, np.bool_)) and d is not D.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if id(d) not in _FLOATS and isinstance(alpha, (float, np.floating)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    o = _as(other, d)
    if d is D.bool:
        return o if alpha else mint.logical_and(o, False)
    return mint.mul(o, scalar_arg(alpha, o) if not isinstance(alpha, _MsTensor) else _as(alpha, d))


@register("sub", inplace=True, aliases=("subtract",))
def sub(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """input - alpha * other."""
    if alpha != 1 or alpha is True:
        _sub_check(input, other)
        other = _alpha_scaled(input, other, alpha)
    ti = type(input)
    if ti is type(other) and ti in _TENSOR_TYPES:
        d = input.dtype
        if d is other.dtype and id(d) in _REAL_FLOATS:  # as in `add`: `Sub` rather than `SubExt`
            try:
                return _SUB([input, other])
            except ValueError as e:
                raise _registry.broadcast_error(input, other) or RuntimeError(str(e).splitlines()[0]) from None
    _sub_check(input, other)
    a, b, d = promote(input, other, True)
    return _shape_error(mint.sub, a, b)


def _is_bool_operand(x: Any) -> bool:
    """A bool tensor or a Python/numpy bool (torch wraps a scalar operand into a 0-d tensor of its own dtype)."""
    return x.dtype is D.bool if isinstance(x, _MsTensor) else isinstance(x, (bool, np.bool_))


def _sub_check(input: Any, other: Any) -> None:
    """torch's sub_check: subtraction refuses any bool operand (also `int_tensor - True`)."""
    ba, bb = _is_bool_operand(input), _is_bool_operand(other)
    if ba and bb:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if ba or bb:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


@register("rsub")
def rsub(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """other - alpha * input."""
    return sub(other, input, alpha=alpha)


# MindSpore 2.10's CPU Mul selects its kernel on every call from a list of ~40 dtype signatures it rebuilds each
# time: ~70 us for a few values, where Add takes ~27 us and numpy's multiply with the host round trip ~20 us. On
# CPU a float32/float64 product that autograd does not record (metrics, eval loops, `loss.item() * n`) is numpy's
# (IEEE-exact: the same values); recorded ones keep MindSpore's node.
_HOST_MUL_DTYPES = frozenset(map(id, (D.float32, D.float64)))


def _binary_np(ufunc: Any, a: Any, b: Any) -> Any:
    """ufunc(a, b) on the host for a float tensor `a` and a tensor or Python number `b` (cast to a's dtype, as torch
    casts a CPU scalar): a fresh, aligned result; inf/nan without a warning, as in torch."""
    an = _MsTensor.asnumpy(a)
    bn = _MsTensor.asnumpy(b) if isinstance(b, _MsTensor) else an.dtype.type(b)
    try:
        with _ms.quiet_fp():
            return _MsTensor.from_numpy(np.asarray(ufunc(an, bn)))
    except ValueError:
        raise _registry.broadcast_error(a, b) from None


@register("mul", inplace=True, aliases=("multiply",))
def mul(input: Any, other: Any) -> Any:
    ti, to = type(input), type(other)
    if ti is to and ti in _TENSOR_TYPES:  # fast paths, as in `add`
        d = input.dtype
        if d is other.dtype:
            if _ms.HOST_MEMORY and id(d) in _HOST_MUL_DTYPES and not _ms.records_grad(input, other):
                return _binary_np(np.multiply, input, other)
            try:
                return _MUL([input, other])
            except ValueError as e:
                raise _registry.broadcast_error(input, other) or RuntimeError(str(e).splitlines()[0]) from None
    elif (to is float or to is int) and ti in _TENSOR_TYPES:
        d = input.dtype
        if _ms.HOST_MEMORY and id(d) in _HOST_MUL_DTYPES and not _ms.records_grad(input):
            # (float64 also gets the scalar exactly: MindSpore rounds it to float32)
            return _binary_np(np.multiply, input, other)
        if id(d) in _SCALAR_KERNEL_FLOATS:
            return _MULS([input, other])
    a, b, d = promote(input, other, True)
    if d is D.bool:
        return mint.logical_and(a, b)
    return _shape_error(mint.mul, a, b)


@register("div", inplace=True, aliases=("divide",))
def div(input: Any, other: Any, *, rounding_mode: Optional[str] = None) -> Any:
    """True division (ints -> default float dtype), or 'trunc'/'floor' rounding keeping the input dtype."""
    d = result_dtype(input, other)
    if rounding_mode is None:
        fd = _float_dtype(d)  # cast before converting scalars: uint8 / -1 divides by -1.0, not by 255
        return _true_div(_as(input, fd), _as(other, fd))
    a, b = _as(input, d), _as(other, d)
    if d is D.bool:
        raise not_implemented("div_floor_cpu" if rounding_mode == "floor" else "div_trunc_cpu", d)
    if rounding_mode in ("trunc", "floor"):
        _check_int_divisor(b, d)
    if rounding_mode == "trunc":
        if id(d) in _FLOATS:
            return mint.trunc(_true_div(a, b))
        return _shape_error(_int_trunc_div, a, b)
    if rounding_mode == "floor":
        return _shape_error(mint.floor_divide if id(d) in _FLOATS else _int_floor_div, a, b)
    raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")


# MindSpore 2.10's CPU Div kernel is 15-25x slower than numpy's division (1M float32 values: 11 ms vs 0.6 ms, by a
# tensor or by a scalar; attention's `/ sqrt(d)`, normalisations, `x / 255`), and ~60 us for a handful of values
# where numpy takes ~20 us. On CPU, true division of float tensors of one shape (or by a 0-d tensor, which a
# Python scalar becomes) is numpy's, IEEE-exact as torch's: always without autograd, and as one autograd node from
# `_HOST_DIV_MIN` elements on (below it the node's Python backward, ~0.3 ms, costs more than the kernel saves).
_HOST_DIV_MIN = _expand.MIN_NUMEL


def _true_div(a: Any, b: Any) -> Any:
    """a / b for tensors of one dtype (broadcasting), through numpy on CPU where that is faster (see above)."""
    if (_ms.HOST_MEMORY and id(a.dtype) in _HOST_EXACT_DTYPES and a.dtype is b.dtype
            and (b.ndim == 0 or _expand._shape_of(a) == _expand._shape_of(b))):
        if not _ms.records_grad(a, b):
            return _div_np(a, b)
        if _expand.numel(a) >= _HOST_DIV_MIN:
            return _host_op(_div_np, _div_vjp, a, b)
    return _shape_error(mint.div, a, b)


def _div_np(a: Any, b: Any) -> Any:
    return _binary_np(np.divide, a, b)


def _div_vjp(inputs: Tuple[Any, Any], out: Any, grad: Any) -> Tuple[Any, Any]:
    """torch's derivatives of a / b: grad / b and -grad * ((a / b) / b) (summed to b's shape for a 0-d b);
    recorded MindSpore ops under create_graph."""
    a, b = inputs
    if _ms.is_recording():
        gb = mint.neg(mint.mul(grad, mint.div(mint.div(a, b), b)))
        return mint.div(grad, b), (mint.sum(gb) if b.ndim == 0 else gb)
    g, an, bn = _MsTensor.asnumpy(grad), _MsTensor.asnumpy(a), _MsTensor.asnumpy(b)
    with _ms.quiet_fp():
        gb = np.negative(g * ((an / bn) / bn))
        ga = g / bn
    if b.ndim == 0:
        gb = np.asarray(gb.sum(dtype=np.float32 if gb.dtype == np.float16 else gb.dtype).astype(gb.dtype))
    return _MsTensor.from_numpy(np.ascontiguousarray(ga)), _MsTensor.from_numpy(np.ascontiguousarray(gb))


@register("true_divide", inplace=True)
def true_divide(input: Any, other: Any) -> Any:
    return div(input, other)


# torch 1.12's floor_divide (and `//`, `//=`, which call it) ROUNDS TOWARD ZERO, despite its name, and warns once
# per call site of the C++ TORCH_WARN_ONCE: one for floor_divide, one for floor_divide_out (floor_divide_ and out=)
# (aten/src/ATen/native/BinaryOps.cpp, v1.12.1). torch 1.13 changed it to floor; we follow 1.12, the reference.
FLOOR_DIVIDE_WARNING = (
    "floor_divide is deprecated, and will be removed in a future version of pytorch. It currently rounds toward 0 "
    "(like the 'trunc' function NOT 'floor'). This results in incorrect rounding for negative values.\n"
    "To keep the current behavior, use torch.div(a, b, rounding_mode='trunc'), or for actual floor division, use "
    "torch.div(a, b, rounding_mode='floor').")
# which of the two call sites already warned (tests reset it)
floor_divide_warned = {"floor_divide": False, "floor_divide_": False}


def _warn_floor_divide(site: str) -> None:
    if not floor_divide_warned[site]:
        floor_divide_warned[site] = True
        warnings.warn(FLOOR_DIVIDE_WARNING, UserWarning, stacklevel=4)


@register("floor_divide")
def floor_divide(input: Any, other: Any) -> Any:
    """torch 1.12's floor_divide: truncating division (`torch.div(..., rounding_mode='trunc')`), with its
    once-per-process deprecation warning. (torch >= 1.13 floors; `div(rounding_mode='floor')` floors here too.)"""
    _warn_floor_divide("floor_divide")
    return div(input, other, rounding_mode="trunc")


@register("floor_divide_", function=False, writes_self=True)
def floor_divide_(input: Any, other: Any) -> Any:
    """In-place floor_divide (1.12: truncating), warning once on its own (torch's floor_divide_out site)."""
    _warn_floor_divide("floor_divide_")
    return div(input, other, rounding_mode="trunc")


# Integer division in integer arithmetic. MindSpore's integer kernels compute through floating point: 'trunc'
# division and int32 fmod in float32 (wrong beyond 2**24: 33554435 // 3 gave 11184812), int64 floor division and
# remainder in float64 (wrong beyond 2**53). On CPU numpy's exact integer ufuncs (integers carry no gradient);
# elsewhere trunc is built from the device's floor division: one more where the division is inexact and the signs
# differ.
def _np_trunc_div(x: np.ndarray, y: Any) -> np.ndarray:
    q = np.floor_divide(x, y)
    return q + ((x - q * y != 0) & ((x < 0) != (np.asarray(y) < 0))).astype(q.dtype)


def _exact_int_op(np_fn: Any, ms_fn: Callable) -> Callable:
    def k(a: Any, b: Any) -> Any:
        if _ms.HOST_MEMORY:
            return _binary_np(np_fn, a, b)
        return ms_fn(a, b if isinstance(b, _MsTensor) else _MsTensor(b, a.dtype))
    return k


def _ms_trunc_div(a: Any, b: Any) -> Any:
    q = mint.floor_divide(a, b)
    inexact = mint.ne(mint.sub(a, mint.mul(q, b)), 0)
    return mint.add(q, mint.logical_and(inexact, mint.ne(mint.lt(a, 0), mint.lt(b, 0))).astype(q.dtype))


_int_trunc_div = _exact_int_op(_np_trunc_div, _ms_trunc_div)
_int_floor_div = _exact_int_op(np.floor_divide, mint.floor_divide)
_int_fmod = _exact_int_op(np.fmod, lambda a, b: mint.sub(a, mint.mul(_ms_trunc_div(a, b), b)))
_int_remainder = _exact_int_op(np.remainder, mint.remainder)


def _int_safe_mod(name: str, kernel: Callable, int_kernel: Callable) -> Callable:
    def k(a: Any, b: Any) -> Any:
        d = a.dtype
        if d is D.bool:
            raise not_implemented(f"{name}_cpu", d)
        if id(d) in _REAL_FLOATS:
            # a zero result has the dividend's sign in torch (fmod(-3., 1.5) = -0.0; remainder adds the divisor to
            # non-zero results only); MindSpore 2.10's CPU kernels return +0.0. Not while a gradient is wanted: the
            # sign-carrying branch (a * 0) would zero the gradient at those points, where torch's is 1.
            r = kernel(a, b)
            if a._requires_grad or getattr(b, "_requires_grad", False):
                return r
            return mint.where(mint.eq(r, 0), mint.mul(a, 0), r)
        _check_int_divisor(b, d)
        return int_kernel(a, b)
    return k


register("remainder", inplace=True)(_binary(_int_safe_mod("remainder", mint.remainder, _int_remainder), True))
register("fmod", inplace=True)(_binary(_int_safe_mod("fmod", mint.fmod, _int_fmod), True))


@register("pow", inplace=True)
def pow(input: Any, exponent: Any) -> Any:
    """input ** exponent; `torch.pow(2, t)` (scalar base) also works."""
    a, b, d = promote(input, exponent, True)
    if d is D.bool:
        if isinstance(exponent, _MsTensor):
            raise not_implemented("pow", d)
        return a if exponent else mint.logical_or(a, mint.logical_not(a))  # b ** True = b, b ** False = True
    if id(d) in _INTS:
        if not isinstance(exponent, _MsTensor) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return _shape_error(_int_pow, a, b)
    if not isinstance(b, _MsTensor) and d in D.all_float_type:
        if b == 0:  # x ** 0 = 1 with torch's gradient 0 (MindSpore's 0 * x ** -1 is NaN at x = 0)
            return _zero_grad(ops.ones_like)(a)
        # mint's PowTensorScalar has no second-order gradient on MindSpore 2.10 ("invalid 'exponent' type:
        # Float64" under create_graph); the legacy Pow kernel differentiates twice.
        return _shape_error(ops.pow, a, b)
    if _ms.records_grad(a) and isinstance(b, _MsTensor):
        # torch masks the base's gradient where the exponent is 0; MindSpore's b * a ** (b - 1) is NaN at a = 0
        # there. The masked positions take a detached base: the same values, and `where` routes the gradient
        # (a select, no product) so the NaN never reaches `a`. Only while autograd records the base.
        a = _shape_error(mint.where, mint.eq(b, 0), ops.stop_gradient(a), a)
    return _shape_error(mint.pow, a, b)


def _int_pow(base: Any, exp: Any) -> Any:
    """Integer power as torch computes it: exact, wrapping around on overflow like repeated multiplication
    (MindSpore 2.10's integer Pow goes through floating point: 3 ** 40 gave INT64_MIN, uint8 250 ** 2 gave 0), and
    for negative exponents (tensor exponents only) 1 ** -n = 1, (-1) ** -n = +-1, anything else 0. Square and
    multiply over the exponent's bits: log2(max exponent) steps (one sync to read the largest exponent)."""
    if not isinstance(exp, _MsTensor):
        e = int(exp)
        result = None
        while e:
            if e & 1:
                result = base if result is None else mint.mul(result, base)
            e >>= 1
            if e:
                base = mint.mul(base, base)
        return ops.ones_like(base) if result is None else result
    shape = np.broadcast_shapes(tuple(base.shape), tuple(exp.shape))
    base, exp = mint.broadcast_to(base, shape), mint.broadcast_to(exp, shape)
    two = _MsTensor(2, dtype=exp.dtype)
    signed = base.dtype is not D.uint8
    e = mint.clamp(exp, 0, None) if signed else exp
    result = ops.ones_like(base)
    top = int(mint.max(e).asnumpy()) if e.size else 0
    sq = base
    while top:
        result = mint.where(mint.eq(mint.remainder(e, two), 1), mint.mul(result, sq), result)
        top >>= 1
        if top:
            sq = mint.mul(sq, sq)
            e = mint.floor_divide(e, two)
    if signed:
        one = ops.ones_like(result)
        zero = ops.zeros_like(result)
        minus_one = mint.where(mint.eq(mint.remainder(exp, two), 1), mint.neg(one), one)
        at_neg = mint.where(mint.eq(base, one), one, mint.where(mint.eq(base, mint.neg(one)), minus_one, zero))
        result = mint.where(mint.lt(exp, 0), at_neg, result)
    return result


@register("float_power", inplace=True)
def float_power(input: Any, exponent: Any) -> Any:
    """pow computed in double (complex128 for complex inputs)."""
    cplx = any(isinstance(x, complex) or (isinstance(x, _MsTensor) and x.dtype in D.all_complex_type)
               for x in (input, exponent))
    d = D.complex128 if cplx else D.float64
    return _shape_error(mint.pow, _as(input, d), _as(exponent, d))


def _unary(name: str, kernel: Callable, floating: bool = True, inplace: bool = True, aliases: Tuple = (),
           namespaces: Tuple = (), refuse: Tuple = (), kernel_name: str = "", target: str = "default") -> None:
    """Register a one-tensor op; `floating` ops turn int/bool inputs into the default float dtype first;
    dtypes in `refuse` raise torch's "not implemented" error for `kernel_name`."""
    if refuse:
        bad = frozenset(refuse)

        def impl(input: Any) -> Any:
            d = input.dtype
            if d in bad:
                raise not_implemented(kernel_name or f"{name}_cpu", d)
            return kernel(input)
    elif floating:
        def impl(input: Any) -> Any:
            d = input.dtype
            return kernel(input if id(d) in _FLOATS else _cast(input, D.get_default_dtype()))
    elif isinstance(kernel, types.FunctionType) and kernel.__module__ == __name__:
        # one of this module's kernels, registered as itself (a fresh function object over the same code, so the
        # name/doc set below stay its own): no wrapper frame on every call of relu/neg/...
        impl = types.FunctionType(kernel.__code__, kernel.__globals__, name, kernel.__defaults__, kernel.__closure__)
    else:
        def impl(input: Any) -> Any:
            return kernel(input)
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}: elementwise, same shape as input."
    register(name, target=target, inplace=inplace, aliases=aliases, namespaces=namespaces)(impl)


def _no_bool(name: str, kernel: Callable) -> Callable:
    def k(x: Any) -> Any:
        if x.dtype is D.bool:
            raise RuntimeError(f"{name}: the `{name}` operator, on a bool tensor is not supported.")
        return kernel(x)
    return k


def _neg(x: Any) -> Any:
    if x.dtype is D.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    return mint.neg(x)


def _sign(x: Any) -> Any:
    d = x.dtype
    if d is D.bool:
        return x
    if d is D.uint8:
        return mint.gt(x, 0).astype(d)
    if d is D.int8 or d is D.int16:  # MindSpore's Sign has no int8/int16 kernel: exact in int32
        return _cast(mint.sign(_cast(x, D.int32)), d)
    return mint.sign(x)


def _square(x: Any) -> Any:
    d = x.dtype
    if d is D.bool:
        return mint.mul(_cast(x, D.int64), _cast(x, D.int64))  # torch: bool.square() -> int64
    return mint.mul(x, x)


_TRUE = _MsTensor(True)


def _zero_grad(kernel: Callable) -> Callable:
    """`kernel` whose result stays connected to a grad-requiring input with a zero gradient, as torch's (MindSpore
    2.10's tape leaves sign/ceil/round outputs unconnected: x.grad stayed None where torch gives zeros). The
    `where` runs only while autograd records a float input that requires grad."""
    def k(x: Any) -> Any:
        r = kernel(x)
        if getattr(x, "_requires_grad", False) and id(x.dtype) in _FLOATS and _ms.is_recording():
            return mint.where(_TRUE, ops.stop_gradient(r), x)  # d/dx = 0 everywhere
        return r
    return k


def _via_float32(kernel: Callable) -> Callable:
    """`kernel` computed in float32 for a bfloat16 input and rounded back: MindSpore 2.10 has no bfloat16 CPU kernel
    for these ops (or exp2 returns float32); torch's bfloat16 kernels compute in float too, so the values are its."""
    def k(x: Any) -> Any:
        if x.dtype is D.bfloat16:
            return _cast(kernel(_cast(x, D.float32)), D.bfloat16)
        return kernel(x)
    return k


def _round_int_safe(kernel: Callable) -> Callable:
    def k(x: Any) -> Any:
        return x if id(x.dtype) not in _FLOATS else kernel(x)
    return k


def complex_abs(x: Any) -> Any:
    """|z| as a real tensor (mint.abs keeps the complex dtype on CPU, measured)."""
    return ops.hypot(ops.real(x), ops.imag(x))


def _abs(x: Any) -> Any:
    d = x.dtype
    if d is D.uint8:
        return x
    if d is D.complex64 or d is D.complex128:
        return complex_abs(x)
    return mint.abs(x)


_unary("abs", _abs, floating=False, aliases=("absolute",), refuse=(D.bool,))
_unary("neg", _neg, floating=False, aliases=("negative",))
_unary("sign", _zero_grad(_sign), floating=False)
_unary("sgn", _zero_grad(_sign), floating=False)
_unary("square", _square, floating=False)


def _lgamma(x: Any) -> Any:
    """lgamma with torch's gradient g * digamma(x) from this target's digamma (the accurate one on CPU): MindSpore's
    Lgamma backward uses its own digamma, ~1e-7 off relative in float64 (grad at 0.3: -3.502523899, torch
    -3.502524222). bfloat16 through float32 (no kernel)."""
    if x.dtype is D.bfloat16:
        return _cast(_lgamma(_cast(x, D.float32)), D.bfloat16)
    return _host_op(ops.lgamma, _lgamma_vjp, x)


def _lgamma_vjp(inputs: Tuple[Any], out: Any, grad: Any) -> Tuple[Any]:
    return (mint.mul(grad, _registry.kernel("digamma")(inputs[0])),)


def _relu(x: Any) -> Any:
    if x.dtype is D.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    return ops.relu(x)


_unary("relu", _relu, floating=False, namespaces=("nn.functional",))
for _n, _k in (("sqrt", mint.sqrt), ("rsqrt", mint.rsqrt), ("exp", mint.exp), ("exp2", _via_float32(ops.exp2)),
               ("expm1", mint.expm1), ("log", mint.log), ("log2", ops.log2), ("log10", ops.log10),
               ("log1p", mint.log1p), ("sin", mint.sin), ("cos", mint.cos), ("tan", mint.tan),
               ("asin", ops.asin), ("acos", ops.acos), ("atan", ops.atan), ("sinh", mint.sinh),
               ("cosh", mint.cosh), ("asinh", ops.asinh), ("acosh", ops.acosh), ("atanh", mint.atanh),
               ("erf", mint.erf), ("erfc", mint.erfc), ("erfinv", mint.erfinv),
               ("reciprocal", mint.reciprocal), ("sinc", mint.sinc), ("i0", _via_float32(ops.i0)),
               ("lgamma", _lgamma), ("digamma", ops.digamma), ("deg2rad", _via_float32(ops.deg2rad)),
               ("rad2deg", _via_float32(ops.rad2deg))):
    _unary(_n, _k, aliases={"asin": ("arcsin",), "acos": ("arccos",), "atan": ("arctan",), "asinh": ("arcsinh",),
                            "acosh": ("arccosh",), "atanh": ("arctanh",)}.get(_n, ()))
_unary("tanh", mint.tanh, namespaces=("nn.functional",))


# MindSpore 2.10's float CPU kernels for exp and tanh are fast approximations: exp is 2e-5 off relative (half of all
# float32 values fail torch.testing.assert_close against torch), tanh up to 1e-4 absolute near |x| ~ 5 and leaves
# [-1, 1] (tanh(5) = 1.0000097, so the 1 - tanh(x)**2 of its backward turns negative); log is 4e-6 off absolute
# near 1, and log1p/expm1 are computed as log(1 + x) / exp(x) - 1 (float32 log1p(1e-10) == 0). numpy's are accurate
# to a few ulp, as torch's are, and through the host memory CPU tensors live in they are also faster (exp of 4K
# float32 values 19 us vs 41 us, of 1M 0.68 vs 0.85 ms; float64 tanh ~50x). So on CPU these ops compute their
# values with numpy. While autograd records, MindSpore's kernel still runs, for its autograd node, and numpy then
# overwrites that kernel's fresh output in place: the node's backward reads the output (exp: g * y, tanh:
# g * (1 - y**2), expm1: g * (y + 1)) or only the input (log, log1p), so values and gradients are torch's, with
# no Python autograd node per call (LSTM cells call tanh at every time step).
_HOST_EXACT_DTYPES = frozenset(map(id, (D.float16, D.float32, D.float64)))


def _host_exact(np_fn: Any, ms_fn: Any) -> Callable:
    def impl(x: Any) -> Any:
        if id(x.dtype) not in _HOST_EXACT_DTYPES:  # bfloat16 (no numpy dtype), complex: MindSpore's kernel
            return ms_fn(x)
        if _ms.records_grad(x):
            y = ms_fn(x)
            with _ms.quiet_fp():
                # into a fresh array, then copied: MindSpore's buffers are 16-byte aligned, and numpy's SIMD loops
                # fall back to scalar code for such an output (exp of 1M values: 6.3 ms instead of 0.3 ms)
                v = np_fn(_MsTensor.asnumpy(x))
            np.copyto(_MsTensor.asnumpy(y), v)  # y is a fresh output: its array is its storage
            return y
        a = _MsTensor.asnumpy(x)
        out = np.empty(a.shape, a.dtype)
        with _ms.quiet_fp():  # torch returns inf/nan without a warning
            np_fn(a, out=out)
        return _MsTensor.from_numpy(out)

    impl.__name__ = np_fn.__name__
    return impl


def _accurate_digamma(x: Any) -> Any:
    """digamma in float64 (MindSpore's CPU kernel is off by ~1e-5 relative, float64 included): the reflection
    psi(x) = psi(1 - x) - pi / tan(pi x) below 0.5, the recurrence psi(y) = psi(y + n) - sum 1/(y + k) up to
    y + n >= 10, and the asymptotic series there (error < 1e-15). psi(0) = -inf, psi(-n) = nan, as torch.
    Constants are float64 tensors: MindSpore rounds Python scalars to float32 (pi would lose 1e-7)."""
    d = x.dtype
    if id(d) not in _REAL_FLOATS:
        return ops.digamma(x)

    def c(v: float) -> Any:
        return _MsTensor(v, D.float64)

    x64 = _cast(x, D.float64)
    frac = mint.sub(x64, mint.trunc(x64))
    pole = mint.logical_and(mint.le(x64, c(0.0)), mint.eq(frac, c(0.0)))
    reflect = mint.logical_and(mint.lt(x64, c(0.5)), mint.logical_not(pole))
    y = mint.where(reflect, mint.sub(c(1.0), x64), mint.where(pole, c(1.0), x64))  # poles: a harmless stand-in
    n = mint.clamp(mint.ceil(mint.sub(c(10.0), y)), 0.0, 10.0)
    ks = _MsTensor(np.arange(10, dtype=np.float64))
    ye, ne = mint.unsqueeze(y, -1), mint.unsqueeze(n, -1)
    shift = mint.sum(mint.where(mint.lt(ks, ne), mint.reciprocal(mint.add(ye, ks)), ops.zeros_like(ye)), -1)
    z = mint.add(y, n)
    r2 = mint.reciprocal(mint.mul(z, z))
    poly = c(0.0)
    for coef in (-691.0 / 32760, 1.0 / 132, -1.0 / 240, 1.0 / 252, -1.0 / 120, 1.0 / 12):  # B_2k / 2k
        poly = mint.mul(mint.add(poly, c(coef)), r2)
    psi = mint.sub(mint.sub(mint.sub(mint.log(z), mint.div(c(0.5), z)), poly), shift)
    # pi / tan(pi x) on the fractional part (tan of a large argument loses its digits); 0.25 elsewhere keeps the
    # unused branch finite, so its gradient is no 0 * inf
    f = mint.where(reflect, frac, c(0.25))
    psi = mint.where(reflect, mint.sub(psi, mint.div(c(math.pi), mint.tan(mint.mul(f, c(math.pi))))), psi)
    # torch: psi(+0) = -inf, psi(-0) = +inf (copysign(inf, -x)), psi(-n) = nan
    zero_pole = mint.where(_registry.kernel("signbit")(x64), c(math.inf), c(-math.inf))
    psi = mint.where(pole, mint.where(mint.eq(x64, c(0.0)), zero_pole, c(math.nan)), psi)
    return _cast(psi, d) if d is not D.float64 else psi


_unary("digamma", _accurate_digamma, target="CPU")
# Giles' single-precision erfinv ("Approximating the erfinv function", GPU Computing Gems, 2011), evaluated in
# float64: within 2.2e-7 relative of torch's float32 erfinv (measured); float64 adds two Newton steps on erf, as
# torch's calc_erfinv does. MindSpore's CPU erfinv is ~2e-2 off relative near |x| = 1.
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                   -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                0.00943887047, 1.00167406, 2.83297682)


def _np_erfinv(a: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
    x = a.astype(np.float64)
    w = -np.log((1.0 - x) * (1.0 + x))  # inf at +-1, nan beyond
    central, tail = w - 2.5, np.sqrt(w) - 3.0
    p, q = np.full_like(x, _ERFINV_CENTRAL[0]), np.full_like(x, _ERFINV_TAIL[0])
    for c1, c2 in zip(_ERFINV_CENTRAL[1:], _ERFINV_TAIL[1:]):
        p, q = c1 + p * central, c2 + q * tail
    y = np.asarray(np.where(w < 5.0, p, q) * x)  # (0-d arithmetic gives numpy scalars: kept as arrays)
    if a.dtype == np.float64:
        for _ in range(2):
            err = _MsTensor.asnumpy(mint.erf(_MsTensor.from_numpy(y))) - x  # MindSpore's float64 erf is exact
            step = err / (2.0 / math.sqrt(math.pi) * np.exp(-y * y))
            y = np.asarray(np.where(np.isfinite(step), y - step, y))
    y = np.asarray(np.where(np.abs(x) == 1.0, np.copysign(np.inf, x), y))
    if out is None:
        return y.astype(a.dtype)
    np.copyto(out, y, casting="unsafe")
    return out


_unary("erfinv", _host_exact(_np_erfinv, mint.erfinv), target="CPU")
def _relu_cpu(x: Any) -> Any:
    """relu on CPU. MindSpore's CPU ReLU kernel turns NaN into 0 where torch keeps NaN (a diverged batch then gave a
    finite loss instead of torch's nan). Without autograd numpy's maximum (faster: ~15 us vs ~22 us for a few
    values, 83 vs 212 us for 256K); with it MindSpore's node after one host pass that finds no NaN in the common
    case, and a recorded `where` when it does (torch's output and gradient at NaN).
    relu(-0.0) is +0.0 either way (torch's clamp_min gives -0.0, an equal value)."""
    if id(x.dtype) not in _HOST_EXACT_DTYPES:
        return _relu(x)
    if not (x._requires_grad and _ms.is_recording()):  # (np.maximum keeps NaN; np.where(x < 0, 0, x): 18x slower)
        a = _ms.host_view(x)
        out = np.empty(a.shape, a.dtype)
        np.maximum(a, a.dtype.type(0), out=out)
        return _MsTensor.from_numpy(out)
    if _ms.may_hold_nan(x):
        # torch's backward passes the gradient where the output is not <= 0: at NaN too (and not at 0)
        return mint.where(mint.logical_or(mint.gt(x, 0), mint.isnan(x)), x, ops.zeros_like(x))
    return _RELU([x])


_unary("relu", _relu_cpu, floating=False, namespaces=("nn.functional",), target="CPU")
_unary("exp", _host_exact(np.exp, mint.exp), target="CPU")
_unary("log", _host_exact(np.log, mint.log), target="CPU")
_unary("log1p", _host_exact(np.log1p, mint.log1p), target="CPU")
_unary("expm1", _host_exact(np.expm1, mint.expm1), target="CPU")
_unary("tanh", _host_exact(np.tanh, mint.tanh), namespaces=("nn.functional",), target="CPU")
_unary("sigmoid", mint.sigmoid, namespaces=("nn.functional",))
_unary("ceil", _zero_grad(_round_int_safe(mint.ceil)), floating=False, refuse=(D.bool,), kernel_name="ceil_vml_cpu")
_unary("floor", _round_int_safe(mint.floor), floating=False, refuse=(D.bool,), kernel_name="floor_vml_cpu")
_unary("trunc", _round_int_safe(mint.trunc), floating=False, aliases=("fix",), refuse=(D.bool,),
       kernel_name="trunc_vml_cpu")
_unary("frac", lambda x: mint.sub(x, mint.trunc(x)), floating=False, refuse=(D.bool, *D.all_int_type))


_ROUND_KERNEL = _via_float32(mint.round)
_ROUND = _zero_grad(_ROUND_KERNEL)


@register("round", inplace=True)
def round(input: Any, *, decimals: Optional[int] = None) -> Any:
    """Round half to even; `decimals` scales by 10**decimals first, as torch does. Integer inputs are returned
    as they are, except with `decimals=` given (even 0: torch's round.decimals overload has no integer kernel)."""
    if input.dtype is D.bool or (decimals is not None and id(input.dtype) not in _FLOATS):
        raise not_implemented("round_vml_cpu", input.dtype)
    if id(input.dtype) not in _FLOATS:
        return input
    if not decimals:
        return _ROUND(input)
    # the scale as a tensor of input's dtype: MindSpore rounds a Python scalar to float32 for a float64 tensor
    # (round(-10., decimals=1) gave -9.99999985). torch divides by 10**-decimals for negative decimals (0.1 is
    # inexact: float32 3e10+5 gave 30000003072, torch 30000001024). Each step in input's dtype, as torch 1.12's
    # kernel (bfloat16 rounds the scaled value to bfloat16 first; torch 2.x computes it in float).
    if decimals > 0:
        s = _MsTensor(10.0 ** decimals, dtype=input.dtype)
        return _zero_grad(lambda x: mint.div(_ROUND_KERNEL(mint.mul(x, s)), s))(input)
    s = _MsTensor(10.0 ** -decimals, dtype=input.dtype)
    return _zero_grad(lambda x: mint.mul(_ROUND_KERNEL(mint.div(x, s)), s))(input)


@register("logit", inplace=True)
def logit(input: Any, eps: Optional[float] = None) -> Any:
    x = to_float(input)
    if eps is not None:
        x = clamp(x, eps, 1.0 - eps)  # this table's clamp: MindSpore's CPU clamp turns NaN into the bound
    return mint.log(mint.div(x, mint.sub(1.0, x)))


@register("polygamma", inplace=True)
def polygamma(n: Any, input: Any) -> Any:
    """torch.polygamma(n, input) and Tensor.polygamma(n) (the method passes self first: both orders work)."""
    if isinstance(n, _MsTensor):
        n, input = input, n
    x = to_float(input)
    if n == 0:  # this target's digamma (the accurate one on CPU)
        return _registry.kernel("digamma")(x)
    return ops.polygamma(_MsTensor(n, dtype=D.int64), x)


@register("mvlgamma", inplace=True)
def mvlgamma(input: Any, p: int) -> Any:
    """Multivariate log-gamma of dimension p: sum_j lgamma(x - j/2) + p(p-1)/4 log(pi)."""
    x = to_float(input)
    if 0 not in x.shape and bool(mint.any(mint.le(x, (p - 1) / 2.0))):  # (MindSpore's any() of an empty input is True)
        raise RuntimeError(f"All elements must be greater than (p-1)/2 = {(p - 1) / 2}")
    j = _MsTensor(np.arange(p, dtype=np.float64) / 2.0, dtype=x.dtype)
    terms = _lgamma(mint.sub(mint.unsqueeze(x, -1), j))
    total = mint.sum(terms, -1)
    return mint.add(total, scalar_arg(p * (p - 1) / 4.0 * math.log(math.pi), total))


# ------------------------------------------------------------------------------------- binary float ops
def _tensor_only(name: str, other: Any) -> None:
    _tensor_arg(name, "other", 2, other)


def _tensor_arg(name: str, arg: str, pos: int, v: Any) -> None:
    """torch's argument parser error for a non-tensor where only a Tensor overload exists."""
    if not isinstance(v, _MsTensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not {type(v).__name__}")


def _float_binary(name: str, kernel: Callable, inplace: bool = True, aliases: Tuple = (), tensor_only: bool = False,
                  float_only: bool = False) -> None:
    def impl(input: Any, other: Any) -> Any:
        if tensor_only:
            _tensor_only(name, other)
        d = result_dtype(input, other)
        if float_only and id(d) not in _FLOATS:
            raise not_implemented(f"{name}_cpu", d)
        fd = _float_dtype(d)
        return _shape_error(kernel, _as(input, fd), _as(other, fd))
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, other): elementwise with broadcasting, float result."
    register(name, inplace=inplace, aliases=aliases)(impl)


def _hypot(a: Any, b: Any) -> Any:
    """hypot with torch's gradients g * a / out, g * b / out in the input's dtype: MindSpore's Hypot backward has
    float32 precision in float64 (d/da hypot(3, 1e-3): 0.99999994039, torch 0.99999994444)."""
    if not _ms.records_grad(a, b):
        return _hypot_value(a, b)
    sa, sb = _expand._shape_of(a), _expand._shape_of(b)
    if sa != sb:  # the node's gradients have the output's shape: broadcast first (its backward sums them back)
        shape = tuple(np.broadcast_shapes(sa, sb))
        a, b = mint.broadcast_to(a, shape), mint.broadcast_to(b, shape)
    return _host_op(_hypot_value, _hypot_vjp, a, b)


def _hypot_value(a: Any, b: Any) -> Any:
    if a.dtype is D.float32 or a.dtype is D.float64:
        return ops.hypot(a, b)
    return _cast(ops.hypot(_cast(a, D.float32), _cast(b, D.float32)), a.dtype)  # no float16/bfloat16 kernel


def _hypot_vjp(inputs: Tuple[Any, Any], out: Any, grad: Any) -> Tuple[Any, Any]:
    a, b = inputs
    if _ms.is_recording():  # create_graph: the output recomputed as a recorded function of a and b
        out = _hypot(a, b)
    return mint.div(mint.mul(grad, a), out), mint.div(mint.mul(grad, b), out)


def _nextafter(a: Any, b: Any) -> Any:
    """torch.nextafter on the host (no gradient, as in torch). MindSpore's NextAfter returns float32 input
    unchanged (it steps in float64), does not broadcast (a 0-d `a` gave uninitialised values) and has no
    float16/bfloat16 kernel. numpy's nextafter, with y where x == y as C's (numpy's float16 loop returns x:
    nextafter(0., -0.) lost the sign); bfloat16 steps the bits (its next float32 is a different number)."""
    if a.dtype is D.bfloat16:
        x, y = np.broadcast_arrays(_MsTensor.asnumpy(_cast(a, D.float32)), _MsTensor.asnumpy(_cast(b, D.float32)))
        return _cast(_MsTensor.from_numpy(_np_nextafter_bfloat16(x, y)), D.bfloat16)
    x, y = _MsTensor.asnumpy(a), _MsTensor.asnumpy(b)
    with _ms.quiet_fp():
        return _MsTensor.from_numpy(np.array(np.where(x == y, y, np.nextafter(x, y)), order="C"))


def _np_nextafter_bfloat16(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """nextafter(x, y) for bfloat16 values held (exactly) in float32 arrays of one shape: a bfloat16 is the upper
    16 bits of its float32, so the neighbour is one step of 2**16 in the sign-magnitude bits, away from or toward
    zero; from zero the smallest subnormal with y's sign; y where x == y, NaN where either is NaN."""
    bits = np.array(x, np.float32, order="C").view(np.uint32).astype(np.int64)
    stepped = np.where((y > x) == (x > 0), bits + 0x10000, bits - 0x10000)
    from_zero = np.where(np.signbit(y), 0x80010000, 0x10000)
    out = np.where(x == 0, from_zero, stepped).astype(np.uint32).view(np.float32)
    out = np.where(np.isnan(x) | np.isnan(y), np.float32(np.nan), np.where(x == y, y, out))
    return np.array(out, np.float32, order="C")


def _xlogy_value(a: Any, b: Any) -> Any:
    r = mint.mul(a, mint.log(b))
    return mint.where(mint.eq(a, 0), mint.where(mint.isnan(b), b, ops.zeros_like(r)), r)


class _XLogY(Function):
    """xlogy with torch's derivatives: d/da = log(b), 0 where a == 0 and b <= 0; d/db = a / b. (The where-based
    value alone gave d/da = 0 at a == 0: Gamma(1, r), Beta(1, 1), Dirichlet(ones), Chi2(2) log_prob lost the
    concentration's gradient.) The backward is recorded ops: double backward works."""

    @staticmethod
    def forward(ctx: Any, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return _xlogy_value(a, b)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Tuple[Any, Any]:
        a, b = ctx.saved_tensors
        ga = gb = None
        if ctx.needs_input_grad[0]:
            dead = mint.logical_and(mint.eq(a, 0), mint.le(b, 0))
            ga = _expand.sum_to_recorded(mint.where(dead, ops.zeros_like(g), mint.mul(g, mint.log(b))), tuple(a.shape))
        if ctx.needs_input_grad[1]:
            gb = _expand.sum_to_recorded(mint.div(mint.mul(g, a), b), tuple(b.shape))
        return ga, gb


def _xlogy(a: Any, b: Any) -> Any:
    if _ms.records_grad(a, b):
        return _XLogY.apply(a, b)
    return _xlogy_value(a, b)


_float_binary("atan2", ops.atan2, aliases=("arctan2",), tensor_only=True)
_float_binary("hypot", _hypot, tensor_only=True, float_only=True)
_float_binary("logaddexp", ops.logaddexp, inplace=False, tensor_only=True, float_only=True)
_float_binary("logaddexp2", ops.logaddexp2, inplace=False, tensor_only=True, float_only=True)
_float_binary("xlogy", _xlogy)
def _copysign(a: Any, b: Any) -> Any:
    """|a| with the sign bit of b. MindSpore 2.10's CPU copysign reads -0.0 as positive (copysign(1, -0.0) gave 1;
    torch gives -1): the sign comes from this target's signbit, which sees -0.0."""
    mag = mint.abs(a)
    return mint.where(_registry.kernel("signbit")(b), mint.neg(mag), mag)


_float_binary("copysign", _copysign)
_float_binary("nextafter", _nextafter, tensor_only=True, float_only=True)


def _minmax_kernel(kernel: Callable, nan_ignoring: bool) -> Callable:
    def k(a: Any, b: Any) -> Any:
        if a.dtype is D.bool:
            return kernel(_cast(a, D.uint8), _cast(b, D.uint8)).astype(D.bool)
        if id(a.dtype) not in _FLOATS:
            return kernel(a, b)
        if nan_ignoring:  # fmax/fmin: a NaN loses against a number; a tie gives `a` the whole gradient (torch)
            keep_a = mint.ge(a, b) if kernel is mint.maximum else mint.le(a, b)
            return mint.where(mint.logical_or(keep_a, mint.isnan(b)), a, b)
        # MindSpore's CPU kernel is `a > b ? a : b`: a NaN in `b` wins but one in `a` is lost; in torch NaN wins
        return mint.where(mint.isnan(a), a, kernel(a, b))
    return k


def _tensor_binary(name: str, kernel: Callable) -> Callable:
    """A binary op whose `other` must be a tensor (torch has no Scalar overload)."""
    inner = _binary(kernel)

    def impl(input: Any, other: Any) -> Any:
        _tensor_only(name, other)
        return inner(input, other)
    impl.__name__ = name
    return impl


maximum = register("maximum")(_tensor_binary("maximum", _minmax_kernel(mint.maximum, False)))
minimum = register("minimum")(_tensor_binary("minimum", _minmax_kernel(mint.minimum, False)))
register("fmax")(_tensor_binary("fmax", _minmax_kernel(mint.maximum, True)))
register("fmin")(_tensor_binary("fmin", _minmax_kernel(mint.minimum, True)))


@register("heaviside", inplace=True)
def heaviside(input: Any, values: Any) -> Any:
    """0 where input < 0, values where input == 0, 1 where input > 0."""
    if isinstance(values, _MsTensor) and input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes")
    values = _as(values, input.dtype)
    pos = mint.gt(input, 0).astype(input.dtype)
    return _shape_error(mint.where, mint.eq(input, 0), values, pos)


def _int_binary(name: str, kernel: Callable, allow_bool: bool = False) -> None:
    def impl(input: Any, other: Any) -> Any:
        _tensor_only(name, other)
        a, b, d = promote(input, other)
        if id(d) in _FLOATS or (d is D.bool and not allow_bool):
            raise not_implemented(f"{name}_cpu", d)
        if d in (D.uint8, D.int8, D.int16):  # MindSpore's CPU gcd/lcm kernels take int32/int64 only
            return _cast(_shape_error(kernel, _cast(a, D.int32), _cast(b, D.int32)), d)
        return _shape_error(kernel, a, b)
    impl.__name__ = name
    register(name, inplace=True)(impl)


_int_binary("gcd", ops.gcd)
_int_binary("lcm", ops.lcm)


# ------------------------------------------------------------------------------------------- clamp & co
def _bound(x: Any, d: Any) -> Any:
    return x if x is None else _as(x, d)


@register("clamp", inplace=True, aliases=("clip",))
def clamp(input: Any, min: Any = None, max: Any = None) -> Any:
    """Elementwise min(max(input, min), max); min/max may be tensors or numbers, one of them None."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    d = input.dtype
    for v in (min, max):
        if v is not None:
            d = D.promote_types(d, result_dtype(input, v)) if not isinstance(v, _MsTensor) else \
                D.promote_types(d, v.dtype)
    for v in (min, max):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            check_scalar_fits(v, d)  # torch converts a number bound to the op's dtype, checked (int8 clamp(max=300))
    x = _as(input, d)
    # mint.clamp, not maximum/minimum: its gradient is torch's (1 where input equals a bound; maximum splits ties
    # 0.5/0.5). Its CPU kernel maps NaN to the bound, where torch keeps NaN (with gradient 0).
    r = mint.clamp(x, None if min is None else _as(min, d), None if max is None else _as(max, d))
    if id(d) in _FLOATS:
        r = mint.where(mint.isnan(x), ops.stop_gradient(x), r)
    return r


@register("clamp_min", inplace=True)
def clamp_min(input: Any, min: Any) -> Any:
    return clamp(input, min, None)


@register("clamp_max", inplace=True)
def clamp_max(input: Any, max: Any) -> Any:
    return clamp(input, None, max)


@register("lerp", inplace=True)
def lerp(input: Any, end: Any, weight: Any) -> Any:
    """input + weight * (end - input); torch requires end (and a tensor weight) of input's own floating dtype."""
    _tensor_arg("lerp", "end", 2, end)
    d = input.dtype
    tensor_weight = isinstance(weight, _MsTensor)
    for arg, v in (("end", end), ("weight", weight if tensor_weight else None)):
        if v is not None and v.dtype is not d:
            raise RuntimeError(f"expected dtype {D.cpp_name(d)} for `{arg}` but got dtype {D.cpp_name(v.dtype)}")
    if id(d) not in _FLOATS:
        raise not_implemented("lerp_kernel_tensor" if tensor_weight else "lerp_kernel_scalar", d)
    w = weight if tensor_weight else _as(weight, d)
    return _shape_error(lambda a, b: mint.add(a, mint.mul(w, mint.sub(b, a))), input, end)


def _ternary_promote(name: str, input: Any, tensor1: Any, tensor2: Any) -> Tuple[Any, Any, Any, Any]:
    """(input, tensor1, tensor2, dtype) cast to their common dtype (torch's build_ternary_op: 0-d tensors count
    less than dimensioned ones); torch has no bool kernel for these ops."""
    _tensor_arg(name, "tensor1", 2, tensor1)
    _tensor_arg(name, "tensor2", 3, tensor2)
    d = input.dtype
    if d is not tensor1.dtype or d is not tensor2.dtype:  # the common case (optimizer updates) skips promotion
        ts = (input, tensor1, tensor2)
        d = D.result_type_of([t.dtype for t in ts if t.ndim], (), [t.dtype for t in ts if not t.ndim])
    if d is D.bool:
        raise not_implemented(f"{name}_cpu_out", d)
    return _as(input, d), _as(tensor1, d), _as(tensor2, d), d


def _plus_scaled(input: Any, r: Any, value: Any, d: Any) -> Any:
    """input + value * r, `value` taken in dtype d (torch converts the Scalar to the op's dtype)."""
    if value != 1:
        if id(d) in _FLOATS:
            r = mint.mul(r, scalar_arg(value, r) if not isinstance(value, _MsTensor) else _as(value, d))
        else:
            r = mint.mul(r, _as(int(value), d))
    return _shape_error(mint.add, input, r)


@register("addcmul", inplace=True)
def addcmul(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """input + value * tensor1 * tensor2, all three promoted to their common dtype first (no uint8 wraparound in
    `tensor1 * tensor2` when input is wider)."""
    a, b, c, d = _ternary_promote("addcmul", input, tensor1, tensor2)
    return _plus_scaled(a, _shape_error(mint.mul, b, c), value, d)


@register("addcdiv", inplace=True)
def addcdiv(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """input + value * tensor1 / tensor2 in the common dtype of the three (integer tensor1 and tensor2 raise)."""
    if id(tensor1.dtype) not in _FLOATS and id(tensor2.dtype) not in _FLOATS:
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future release addcdiv "
                           "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
                           "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                           "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
                           "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
                           "for all dtypes.")
    a, b, c, d = _ternary_promote("addcdiv", input, tensor1, tensor2)
    return _plus_scaled(a, _shape_error(mint.div, b, c), value, d)


@register("nan_to_num", inplace=True)
def nan_to_num(input: Any, nan: float = 0.0, posinf: Optional[float] = None, neginf: Optional[float] = None) -> Any:
    """NaN -> nan, +inf -> posinf (dtype max by default), -inf -> neginf (dtype min)."""
    d = input.dtype
    if id(d) not in _FLOATS:
        return input
    if d is D.complex64 or d is D.complex128:  # torch: the real and imaginary parts separately (no IsInf kernel)
        return _COMPLEX(*(nan_to_num(part(input), nan, posinf, neginf) for part in (ops.real, ops.imag)))
    fi = D.finfo(d)
    posinf = fi.max if posinf is None else posinf
    neginf = fi.min if neginf is None else neginf
    x = mint.where(mint.isnan(input), _MsTensor(nan, dtype=d), input)
    x = mint.where(mint.logical_and(ops.isinf(x), mint.gt(x, 0)), _MsTensor(posinf, dtype=d), x)
    return mint.where(mint.logical_and(ops.isinf(x), mint.lt(x, 0)), _MsTensor(neginf, dtype=d), x)


# ------------------------------------------------------------------------------------------- complex
_COMPLEX = ops.Complex()


# Tensor.real / Tensor.imag are properties in torch (defined in _tensor.py on these functions): no methods.
@register("real", inplace=False, method=False)
def real(input: Any) -> Any:
    return ops.real(input) if input.dtype in D.all_complex_type else input


@register("imag", inplace=False, method=False)
def imag(input: Any) -> Any:
    if input.dtype not in D.all_complex_type:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return ops.imag(input)


@register("angle")
def angle(input: Any) -> Any:
    """Argument of complex numbers; for reals: pi where negative, 0 elsewhere (NaN stays NaN)."""
    if input.dtype in D.all_complex_type:
        return ops.angle(input)
    x = to_float(input)
    r = mint.where(mint.lt(x, 0), _MsTensor(math.pi, dtype=x.dtype), ops.zeros_like(x))
    return mint.where(mint.isnan(x), x, r)


@register("conj")
def conj(input: Any) -> Any:
    return ops.conj(input) if input.dtype in D.all_complex_type else input


# ------------------------------------------------------------------------------------- softmax family
def _softmax_dtype(input: Any, dtype: Any) -> Any:
    d = D.to_dtype(dtype)
    if d is not None:
        return _cast(input, d)
    return to_float(input) if id(input.dtype) not in _FLOATS else input


# On CPU, float32 softmax and log_softmax are oneDNN's (`_onednn.softmax_forward`): one pass instead of MindSpore's
# LogSoftmax + Exp (7.5 ms for attention scores (32, 4, 64, 64), oneDNN ~1 ms), torch's values (a fully masked
# row of -inf gives torch's NaN row; MindSpore's own Softmax kernel corrupts the rows next to it). Backward: oneDNN's
# for softmax, numpy's torch formula for log_softmax (g - exp(y) * sum(g)); under create_graph the same formulas
# from recorded ops.
def _onednn_softmax_ok(x: Any) -> bool:
    return _ms.HOST_MEMORY and x.dtype is D.float32 and x.ndim > 0 and 0 not in _expand._shape_of(x) \
        and _onednn.available()


def _as_3d(shape: Tuple[int, ...], dim: int) -> Tuple[int, int, int]:
    """(outer, n, inner) of `shape` around axis `dim`."""
    return (int(np.prod(shape[:dim], dtype=np.int64)), shape[dim], int(np.prod(shape[dim + 1:], dtype=np.int64)))


class _OneDnnSoftmax(Function):
    """softmax (log=True: log_softmax) of x along `dim` with oneDNN, as one autograd node."""

    @staticmethod
    def forward(ctx: Any, x: Any, dim: int, log: bool) -> Any:
        y = _onednn_softmax_value(x, dim, log)
        ctx.save_for_backward(x)
        ctx.y, ctx.dim, ctx.log = _MsTensor.asnumpy(y), dim, log
        return y

    @staticmethod
    def backward(ctx: Any, g: Any) -> Tuple[Any, None, None]:
        (x,) = ctx.saved_tensors
        dim, log = ctx.dim, ctx.log
        if _ms.is_recording():  # create_graph: torch's formulas on a recorded forward
            y = _onednn_softmax(x, dim, log)
            if log:
                return mint.sub(g, mint.mul(kernel("exp")(y), mint.sum(g, dim, True))), None, None
            return mint.mul(y, mint.sub(g, mint.sum(mint.mul(g, y), dim, True))), None, None
        gn, y = _MsTensor.asnumpy(g), ctx.y
        if log:
            with _ms.quiet_fp():
                dx = gn - np.exp(y) * gn.sum(axis=dim, keepdims=True, dtype=np.float32)
        else:
            shp = _as_3d(y.shape, dim)
            dx = _onednn.softmax_backward(y.reshape(shp), np.ascontiguousarray(gn).reshape(shp), False).reshape(
                y.shape)
        return _MsTensor.from_numpy(np.ascontiguousarray(dx, np.float32)), None, None


def _onednn_softmax_value(x: Any, dim: int, log: bool) -> Any:
    a = np.ascontiguousarray(_ms.host_view(x))
    y = _onednn.softmax_forward(a.reshape(_as_3d(a.shape, dim)), log).reshape(a.shape)
    if not math.isfinite(_ms.host_self_dot(a)):  # some |x| is inf or NaN (or x.x overflowed): one more pass to tell
        # torch subtracts the row's max: a row holding NaN or +inf is NaN throughout; oneDNN's max skips NaN and
        # its result for +inf rows differs
        m = a.max(axis=dim, keepdims=True)
        bad = np.isnan(m) | (m == np.inf)
        if bad.any():
            y = np.where(bad, np.float32(np.nan), y)
    return _MsTensor.from_numpy(np.ascontiguousarray(y))


def _onednn_softmax(x: Any, dim: int, log: bool) -> Any:
    dim = wrap_dim(int(dim), x.ndim)
    if _ms.records_grad(x):
        return _OneDnnSoftmax.apply(x, dim, log)
    return _onednn_softmax_value(x, dim, log)


def _log_softmax_kernel(x: Any, dim: int) -> Any:
    """log_softmax along dim. MindSpore 2.10's CPU LogSoftmax computes float64 with float32 accuracy (3e-6
    off, measured), so float64 takes the stable formula x - max - log(sum(exp(x - max)))."""
    if _onednn_softmax_ok(x):
        return _onednn_softmax(x, dim, True)
    if x.dtype is not ms.float64:
        out = ops.log_softmax(x, dim)
        if x._requires_grad and _ms.is_recording():
            # MindSpore's LogSoftmax backward cannot be differentiated: create_graph rebuilds it from out
            from ..autograd import remember_for_double_backward

            remember_for_double_backward(out, dim)
        return out
    s = mint.sub(x, ops.stop_gradient(mint.amax(x, dim, True)))
    return mint.sub(s, mint.log(mint.sum(kernel("exp")(s), dim, True)))


@register("softmax", namespaces=("nn.functional",))
def softmax(input: Any, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """softmax along `dim` (dtype= casts the input first, as torch does)."""
    x = _softmax_dtype(input, dtype)
    if dim is None:
        dim = 0 if x.ndim in (0, 1, 3) else 1  # torch's legacy implicit-dim rule
    if x.ndim == 0:
        return ops.ones_like(x)
    if _onednn_softmax_ok(x):
        return _onednn_softmax(x, dim, False)
    # exp(log_softmax), not ops.softmax: MindSpore 2.10's CPU Softmax kernel (and mint's) corrupts the rows next
    # to a row that is all -inf (a fully masked attention row), e.g. softmax([[-inf, -inf], [0, 1]]) gave
    # [[0, 0], [nan, 0.73]] (measured); its LogSoftmax kernel is right and gives torch's NaN row.
    logp = _log_softmax_kernel(x, dim)
    out = kernel("exp")(logp)
    if "_mt_double_backward" in logp.__dict__:
        out.__dict__["_mt_log_softmax"] = logp  # lives as long as the softmax (see remember_for_double_backward)
    return out


@register("log_softmax", namespaces=("nn.functional",))
def log_softmax(input: Any, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """log(softmax(x)) computed stably as x - logsumexp(x) along `dim`."""
    x = _softmax_dtype(input, dtype)
    if dim is None:
        dim = 0 if x.ndim in (0, 1, 3) else 1
    if x.ndim == 0:
        return ops.zeros_like(x)
    return _log_softmax_kernel(x, dim)
