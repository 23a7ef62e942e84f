"""Reductions: sum, mean, std, max, median, norm, cumsum, ... (dim/axis and keepdim/keepdims aliases, dtype=).

`dim` may be an int, a tuple/list of ints or None (all dims); negative dims wrap; 0-d tensors accept dim 0/-1.
Results with indices are `torch.return_types` named tuples. Kernels measured on MindSpore 2.10 CPU: mint has
no std/var/argmax/argmin/median/logsumexp/count_nonzero/cumsum/cummin/vector_norm kernels; legacy `ops` or
compositions of mint ops are used for those.
"""
from __future__ import annotations

import builtins
import math
from typing import Any, Optional, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms, return_types
from ..autograd.function import Function
from . import _expand, _registry
from ._args import scalar_arg, wrap_dim
from ._host import _host_op, zeros_vjp
from ._registry import kernel, register

_MsTensor = ms.Tensor
# ops.cast, not Tensor.astype: MindSpore's astype calls self.to(), which our Tensor overrides with torch's.
_cast = ops.cast
_shape = _MsTensor.shape.fget  # a plain tuple; Tensor.shape builds a torch.Size (~5 us, measured)
# Sets of dtype ids: MindSpore dtypes are singletons and their __eq__/__hash__ cost ~2-4 us (measured).
_FLOATS = frozenset(map(id, D.all_float_type + D.all_complex_type))
_COMPLEX = frozenset(map(id, D.all_complex_type))
_INT_OR_BOOL = frozenset(map(id, D.all_int_type + (D.bool,)))


def _dims(dim: Any, ndim: int) -> Optional[Tuple[int, ...]]:
    """Normalised tuple of reduced dims, or None for a full reduction."""
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        if len(dim) == 0:
            return None
        out = tuple(wrap_dim(int(d), ndim) for d in dim)
        if len(set(out)) != len(out):
            raise RuntimeError(f"dim {out[0]} appears multiple times in the list of dims")
        return out
    return (wrap_dim(int(dim), ndim),)


def _reduce(kernel: Any, x: Any, dims: Optional[Tuple[int, ...]], keepdim: bool) -> Any:
    """Apply a MindSpore reduction `kernel(x, axis, keepdim)`; 0-d inputs are their own reduction."""
    if x.ndim == 0:
        return kernel(mint.reshape(x, (1,)), 0, False)
    if dims is None:
        return kernel(x, tuple(range(x.ndim)), keepdim)
    return kernel(x, dims, keepdim)


def _reduced_shape(shape: Any, dims: Optional[Tuple[int, ...]], keepdim: bool) -> Tuple[int, ...]:
    ax = range(len(shape)) if dims is None else dims
    return tuple(1 if j in ax else n for j, n in enumerate(shape) if keepdim or j not in ax)


def _count(x: Any, dims: Optional[Tuple[int, ...]]) -> int:
    shape = _shape(x)
    if dims is None:
        n = 1
        for s in shape:
            n *= s
        return n
    n = 1
    for d in dims:
        n *= shape[d] if shape else 1
    return n


_SUM_EXT, _MEAN_EXT = _ms.pyboost("sum_ext"), _ms.pyboost("mean_ext")  # mint.sum/mean minus their frames


def _empty_reduced(x: Any, value: Any) -> Any:
    """The reduction of an empty tensor (0 for sum, NaN for mean, 1 for prod: a constant) connected to the input as
    in torch, so `x.sum().backward()` works on an empty x that requires grad; the gradient is x's (empty) zeros."""
    return _host_op(lambda _: value, zeros_vjp, x)


@register("sum")
def sum(input: Any, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Any:
    """Sum over `dim` (all elements when None); ints and bools sum to int64 as in torch. (numpy's axis=/keepdims=
    are renamed by the dispatcher, as for every op.)"""
    if dim is None and dtype is None and not keepdim and id(input.dtype) in _FLOATS and 0 not in _shape(input):
        return _SUM_EXT([input, None, False, None])  # the common `x.sum()`: no argument work
    d = D.to_dtype(dtype)
    if d is None and id(input.dtype) in _INT_OR_BOOL:
        d = D.int64
    x = input if d is None or input.dtype is d else _cast(input, d)
    dims = _dims(dim, input.ndim)
    k = builtins.bool(keepdim)
    if x.ndim and 0 in _shape(x):  # MindSpore's sum of nothing returns uninitialised memory
        return _empty_reduced(x, ops.zeros(_reduced_shape(_shape(x), dims, k), x.dtype))
    return _reduce(mint.sum, x, dims, k)


@register("nansum")
def nansum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """sum treating NaN as zero."""
    x = input
    if id(input.dtype) in _FLOATS:
        x = mint.where(mint.isnan(x), ops.zeros_like(x), x)
    return kernel("sum")(x, dim, keepdim, dtype=dtype)  # (this target's sum: exact int64 on CPU)


@register("mean")
def mean(input: Any, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Any:
    """Arithmetic mean; like torch, integer inputs need an explicit floating `dtype=`."""
    if dim is None and dtype is None and not keepdim and id(input.dtype) in _FLOATS and 0 not in _shape(input):
        return _MEAN_EXT([input, None, False, None])  # the common `x.mean()`
    d = D.to_dtype(dtype)
    x = input if d is None else _cast(input, d)
    if id(x.dtype) not in _FLOATS:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            f"Got: {D.scalar_name(x.dtype)}")
    dims = _dims(dim, input.ndim)
    k = builtins.bool(keepdim)
    if x.ndim and _count(x, dims) == 0:
        return _empty_reduced(x, ops.fill(x.dtype, _reduced_shape(_shape(x), dims, k), float("nan")))  # torch: nan
    return _reduce(mint.mean, x, dims, k)


# ------------------------------------------------------------------------------------- CPU: sum/mean on the host
# MindSpore 2.10's CPU reductions are 10-30x slower than numpy's on large float tensors (measured: a full sum of
# (64, 3, 64, 64) 4.6 ms vs 0.3 ms; (32, 128, 768) over dims (0, 1) 24 ms vs 0.7 ms; (128, 64, 32, 32) over
# (0, 2, 3) 28 ms vs 2.3 ms), and so is their backward (a broadcast, see _expand). On CPU a large float32/float64
# sum or mean is `_expand.sum_to` (numpy's pairwise sum as an autograd node whose backward is the host expand,
# and the reverse for double backward); small ones keep MindSpore's kernel.
_HOST_REDUCE_FLOATS = frozenset(map(id, (D.float32, D.float64)))
_HOST_REDUCE_MIN = _expand.MIN_NUMEL  # the host node's break-even size, as for broadcasts


def _host_sum(x: Any, dims: Optional[Tuple[int, ...]], keepdim: builtins.bool) -> Any:
    shape = _shape(x)
    out = _expand.sum_to(x, _reduced_shape(shape, dims, True))
    return out if keepdim else mint.reshape(out, _reduced_shape(shape, dims, False))


def _np_reduce(input: Any, dim: Any, keepdim: Any, how: str) -> Any:
    """A float32/float64 sum or mean that autograd does not record: numpy's (pairwise, as MindSpore's host path),
    which with the host round trip costs less than MindSpore's ~22 us kernel call (`(pred == y).float().sum()`)."""
    dims = _dims(dim, input.ndim)  # (validates dim, for a 0-d input too: its reduction is itself)
    a = _MsTensor.asnumpy(input)
    dims = None if a.ndim == 0 else dims
    with _ms.quiet_fp():  # inf - inf is nan, without a warning, as in torch
        r = getattr(a, how)(axis=dims, keepdims=builtins.bool(keepdim))
    return _MsTensor.from_numpy(np.asarray(r, a.dtype))


@register("sum", target="CPU")
def _sum_cpu(input: Any, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Any:
    if dtype is None and id(input.dtype) in _INT_OR_BOOL:
        # torch sums integers in int64, exactly; MindSpore's CPU kernel goes through float64 (2**60 + 1 lost its
        # last bits). Integers carry no gradient: numpy's int64 sum.
        dims = _dims(dim, input.ndim)
        a = _ms.host_view(input)
        r = a.sum(axis=None if a.ndim == 0 else dims, keepdims=builtins.bool(keepdim), dtype=np.int64)
        return _MsTensor.from_numpy(np.array(r, dtype=np.int64))  # (0-d for a full sum: not ascontiguousarray)
    if dtype is None and id(input.dtype) in _HOST_REDUCE_FLOATS:
        if not _ms.records_grad(input):
            return _np_reduce(input, dim, keepdim, "sum")
        n = _expand.numel(input)
        if n >= _HOST_REDUCE_MIN:
            return _host_sum(input, _dims(dim, input.ndim), builtins.bool(keepdim))
        if dim is None and n and not keepdim:  # a small recorded `x.sum()` (a loss): straight to the kernel
            return _SUM_EXT([input, None, False, None])
    return sum(input, dim, keepdim, dtype=dtype)


@register("mean", target="CPU")
def _mean_cpu(input: Any, dim: Any = None, keepdim: builtins.bool = False, *, dtype: Any = None) -> Any:
    if dtype is None and id(input.dtype) in _HOST_REDUCE_FLOATS:
        n = _expand.numel(input)
        if not _ms.records_grad(input):
            if n:  # (torch: mean of nothing is nan, with a warning)
                return _np_reduce(input, dim, keepdim, "mean")
        elif n >= _HOST_REDUCE_MIN:
            dims = _dims(dim, input.ndim)
            return mint.div(_host_sum(input, dims, builtins.bool(keepdim)), _count(input, dims))
        elif dim is None and n and not keepdim:
            return _MEAN_EXT([input, None, False, None])
    return mean(input, dim, keepdim, dtype=dtype)


@register("nanmean")
def nanmean(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """mean over the non-NaN elements."""
    d = D.to_dtype(dtype)
    x = input if d is None else _cast(input, d)
    if id(x.dtype) not in _FLOATS:
        raise RuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got " + D.scalar_name(x.dtype))
    valid = mint.logical_not(mint.isnan(x))
    total = nansum(x, dim, keepdim)
    cnt = sum(valid, dim, keepdim).astype(x.dtype)
    return mint.div(total, cnt)


@register("prod")
def prod(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """Product over one dim (or all elements); ints and bools multiply in int64 as in torch."""
    d = D.to_dtype(dtype)
    if d is None and id(input.dtype) in _INT_OR_BOOL:
        d = D.int64
    x = input if d is None or input.dtype is d else _cast(input, d)
    if x.ndim and 0 in _shape(x):  # the empty product is 1 (MindSpore returns garbage)
        dims = None if dim is None else (wrap_dim(dim, x.ndim),)
        return _empty_reduced(x, ops.ones(_reduced_shape(_shape(x), dims, keepdim and dim is not None), x.dtype))
    if dim is None:
        r = _prod_dim(mint.reshape(x, (-1,)), 0, False)
        return mint.reshape(r, (1,) * x.ndim) if keepdim else r
    if x.ndim == 0:
        wrap_dim(dim, 0)
        return x
    return _prod_dim(x, wrap_dim(dim, x.ndim), builtins.bool(keepdim))


def _conj(x: Any) -> Any:
    return ops.conj(x) if id(x.dtype) in _COMPLEX else x


def _prod_dim(x: Any, d: int, keepdim: builtins.bool) -> Any:
    return _Prod.apply(x, d, keepdim) if _ms.records_grad(x) else mint.prod(x, d, keepdim)


class _Prod(Function):
    """prod over dim d with torch's prod_backward, built from recorded ops (through _Prod and _CumProd again) so
    create_graph=True differentiates it again: MindSpore 2.10's ProdExt backward has no derivative of its own."""

    @staticmethod
    def forward(ctx: Any, x: Any, d: int, keepdim: builtins.bool) -> Any:
        out = mint.prod(x, d, keepdim)
        ctx.d, ctx.keepdim = d, keepdim
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, out = ctx.saved_tensors
        d = ctx.d
        if not ctx.keepdim:
            grad, out = mint.unsqueeze(grad, d), mint.unsqueeze(out, d)
        if not builtins.bool(mint.any(mint.eq(x, 0))):  # (a host sync, as torch's own zero check)
            return mint.mul(grad, _conj(mint.div(out, x))), None, None
        return mint.mul(grad, _conj(_prod_of_others(x, d))), None, None


def _prod_of_others(x: Any, d: int) -> Any:
    """prod_{j != k} x_j along d for every k, without a division (torch's prod_safe_zeros_backward): the
    exclusive cumprod from the left times the exclusive cumprod from the right."""
    n = _shape(x)[d]
    if n == 1:
        return ops.ones_like(x)
    one = ops.ones(tuple(1 if j == d else s for j, s in enumerate(_shape(x))), x.dtype)
    left = _cumprod(mint.cat((one, mint.narrow(x, d, 0, n - 1)), d), d)
    right = _cumprod(mint.cat((one, mint.flip(mint.narrow(x, d, 1, n - 1), (d,))), d), d)
    return mint.mul(left, mint.flip(right, (d,)))


# ------------------------------------------------------------------------------------------ std / var
def _var_args(dim: Any, unbiased: Any, correction: Any) -> Tuple[Any, float]:
    if isinstance(dim, builtins.bool):  # std(x, False): the legacy (input, unbiased) overload
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, float(correction)


def _var_mean(input: Any, dim: Any, unbiased: Any, keepdim: bool, correction: Any) -> Tuple[Any, Any]:
    dim, corr = _var_args(dim, unbiased, correction)
    if id(input.dtype) not in _FLOATS:
        raise RuntimeError(f"std and var only support floating point and complex dtypes, got "
                           f"{D.scalar_name(input.dtype)}")
    dims = _dims(dim, input.ndim)
    if id(input.dtype) in _COMPLEX:
        # |dev|^2 = re(dev)^2 + im(dev)^2: the variance is real, the sum of its parts' (MindSpore's complex Mul and
        # MeanExt have no gradient; its Real/Imag kernels refuse an empty input); the mean stays complex
        if _count(input, None):
            re, im = ops.real(input), ops.imag(input)
        else:
            re = im = ops.zeros(_shape(input), D.float64 if input.dtype is D.complex128 else D.float32)
        var = mint.add(_var_mean(re, dims, None, keepdim, corr)[0], _var_mean(im, dims, None, keepdim, corr)[0])
        return var, mean(input, dims, keepdim)
    x = input if input.ndim else mint.reshape(input, (1,))
    ax = tuple(range(x.ndim)) if dims is None else dims
    m = mint.mean(x, ax, True)
    dev = mint.sub(x, m)
    ss = mint.sum(mint.mul(dev, dev), ax, keepdim and input.ndim > 0)
    n = _count(x, ax)
    var = mint.div(ss, builtins.max(n - corr, 0.0))
    if n == 0:  # no elements: torch's NaN (MindSpore's CPU 0 / 0 over an empty sum gave inf, its mean -inf)
        var, m = mint.add(ss, math.nan), mint.add(m, math.nan)
    mean_out = m if keepdim and input.ndim else mint.reshape(m, _shape(var))
    return var, mean_out


@register("var")
def var(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Any:
    """Variance with Bessel's correction by default (`unbiased=False` or `correction=0` for the population one)."""
    return _var_mean(input, dim, unbiased, keepdim, correction)[0]


@register("std")
def std(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Any:
    """Standard deviation: sqrt(var) (gradient 0 for a constant slice, as torch's)."""
    return _root(_var_mean(input, dim, unbiased, keepdim, correction)[0], 2.0)


@register("var_mean", method=False)
def var_mean(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> Tuple[Any, Any]:
    """(var, mean) as a plain tuple, as torch returns it."""
    return _var_mean(input, dim, unbiased, keepdim, correction)


@register("std_mean", method=False)
def std_mean(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> Tuple[Any, Any]:
    v, m = _var_mean(input, dim, unbiased, keepdim, correction)
    return _root(v, 2.0), m


# ------------------------------------------------------------------------------------- max / min family
def _orderable(x: Any) -> Any:
    """MindSpore has no bool kernels for max/min/argmax/cummax: compare bools as uint8."""
    return _cast(x, D.uint8) if x.dtype is D.bool else x


def _empty_check(x: Any, name: str) -> None:
    if x.ndim and 0 in _shape(x):
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")


def _empty_reduction(x: Any, dims: Tuple[int, ...], keepdim: builtins.bool, name: str, dtype: Any = None) -> Any:
    """The result of reducing an input with no elements over `dims` (ints already wrapped), or None when x has
    elements: torch's IndexError when a reduced dim is empty (max/min/argmax/... have no identity), else the
    correctly shaped empty tensor (MindSpore's CPU MaxDim/ArgMax kernels refuse any empty input)."""
    shp = _shape(x)
    if 0 not in shp:
        return None
    for d in dims:
        if shp[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return ops.zeros(_reduced_shape(shp, dims, keepdim), dtype if dtype is not None else x.dtype)


_REAL_FLOATS = frozenset(map(id, D.all_float_type))


def _nan_wins(x: Any, values: Any, dims: Optional[Tuple[int, ...]], keepdim: builtins.bool,
              indices: Any = None) -> Any:
    """torch's max/min/amax/amin/argmax/argmin treat NaN as the extreme: the result is NaN and the index the first
    NaN's. MindSpore's CPU reductions skip a NaN unless it comes first in the reduced slice, so reductions over
    real floats patch the slices holding a NaN. dims: the reduced dims (None: all; indices need one dim or all,
    the flat position). Returns values, or (values, indices) when indices is given (values may be None:
    argmax/argmin)."""
    if id(x.dtype) not in _REAL_FLOATS:
        return values if indices is None else (values, indices)
    nan = mint.isnan(x)
    # any() over several dims: mint.any takes one dim only, amax of the 0/1 mask takes a tuple
    has = _reduce(mint.amax, nan.astype(ms.uint8), dims, keepdim).astype(D.bool)
    if values is not None:
        values = mint.where(has, ms.Tensor(float("nan"), values.dtype), values)
    if indices is None:
        return values
    mask = nan.astype(ms.float32)
    first = ops.argmax(mint.reshape(mask, (-1,)), 0) if dims is None else ops.argmax(mask, dims[0], keepdim)
    return values, mint.where(has, first.astype(indices.dtype), indices)


def _maxmin(name: str, full: Any, with_dim: Any, pointwise: str, rt: type) -> Any:
    def impl(input: Any, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        if isinstance(dim, _MsTensor):  # max(a, b): the elementwise overload
            from .pointwise import maximum, minimum
            return (maximum if pointwise == "maximum" else minimum)(input, dim)
        x = _orderable(input)
        if dim is None:
            _empty_check(input, name)
            r = _nan_wins(x, full(x), None, False)
            return _cast(r, input.dtype) if r.dtype is not input.dtype else r
        d = wrap_dim(dim, input.ndim)
        if input.ndim == 0:
            return rt(input, ms.Tensor(0, dtype=D.int64))
        empty = _empty_reduction(input, (d,), keepdim, name)
        if empty is not None:
            return rt(empty, _cast(empty, D.int64))
        v, i = with_dim(x, d, keepdim)
        v, i = _nan_wins(x, v, (d,), keepdim, i)
        return rt(_cast(v, input.dtype) if v.dtype is not input.dtype else v, i)
    impl.__name__ = name
    impl.__doc__ = (f"torch.{name}(input) -> 0-d; torch.{name}(input, dim, keepdim=False) -> "
                    f"torch.return_types.{name}(values, indices); torch.{name}(input, other) -> {pointwise}.")
    return impl


register("max")(_maxmin("max", mint.max, lambda x, d, k: mint.max(x, d, k), "maximum", return_types.max))
register("min")(_maxmin("min", mint.min, lambda x, d, k: mint.min(x, d, k), "minimum", return_types.min))


def _amaxmin(name: str, kernel: Any) -> Any:
    def impl(input: Any, dim: Any = (), keepdim: builtins.bool = False) -> Any:
        dims = _dims(dim, input.ndim)
        if dims is None:
            _empty_check(input, name)
        else:
            empty = _empty_reduction(input, dims, keepdim, name)
            if empty is not None:
                return empty
        x = _orderable(input)
        r = _nan_wins(x, _reduce(kernel, x, dims, keepdim), dims, keepdim)
        return _cast(r, input.dtype) if r.dtype is not input.dtype else r
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, dim=(), keepdim=False): reduce over dims (all when empty)."
    return impl


register("amax")(_amaxmin("amax", mint.amax))
register("amin")(_amaxmin("amin", mint.amin))


@register("aminmax")
def aminmax(input: Any, *, dim: Optional[int] = None, keepdim: builtins.bool = False) -> Any:
    """torch.return_types.aminmax(min, max)."""
    d = () if dim is None else dim
    if dim is None and keepdim and input.ndim:
        lo = mint.reshape(_amaxmin("amin", mint.amin)(input), (1,) * input.ndim)
        hi = mint.reshape(_amaxmin("amax", mint.amax)(input), (1,) * input.ndim)
        return return_types.aminmax(lo, hi)
    return return_types.aminmax(_amaxmin("amin", mint.amin)(input, d, keepdim),
                                _amaxmin("amax", mint.amax)(input, d, keepdim))


def _argmaxmin(name: str, kernel: Any) -> Any:
    def impl(input: Any, dim: Optional[int] = None, keepdim: builtins.bool = False) -> Any:
        if input.dtype is D.bool:
            raise RuntimeError(f"{name}(): does not support bool input")
        x = input
        if dim is None:
            if input.ndim and 0 in _shape(input):
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            r = _nan_wins(x, None, None, False, kernel(mint.reshape(x, (-1,)), 0).astype(D.int64))[1]
            return mint.reshape(r, (1,) * input.ndim) if keepdim else r
        d = wrap_dim(dim, input.ndim)
        if input.ndim == 0:
            return ms.Tensor(0, dtype=D.int64)
        empty = _empty_reduction(input, (d,), keepdim, name, D.int64)
        if empty is not None:
            return empty
        r = _nan_wins(x, None, (d,), False, kernel(x, d).astype(D.int64))[1]
        return mint.unsqueeze(r, d) if keepdim else r
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, dim=None, keepdim=False): int64 indices (first occurrence)."
    return impl


register("argmax")(_argmaxmin("argmax", lambda x, d: ops.argmax(x, d)))
register("argmin")(_argmaxmin("argmin", lambda x, d: ops.argmin(x, d)))


# ------------------------------------------------------------------------------------ median / mode
def _median(input: Any, dim: Any, keepdim: builtins.bool, ignore_nan: builtins.bool, name: str) -> Any:
    if input.dtype is D.bool:
        raise RuntimeError(f"\"{name}_out\" not implemented for 'Bool'")
    x = input
    rt = getattr(return_types, name)
    if dim is None:
        if x.ndim and 0 in _shape(x):  # torch: NaN cast to the input's dtype (int64: its minimum, as numpy casts)
            npd = np.float32 if x.dtype is D.bfloat16 else D.to_numpy_dtype(x.dtype)
            with _ms.quiet_fp():
                return _MsTensor(np.array(np.nan).astype(npd), x.dtype)
        v = mint.reshape(_median_dim(mint.reshape(x, (-1,)), 0, ignore_nan)[0], ())
        return _EvenlySplit.apply(x, ops.stop_gradient(v)) if _ms.records_grad(x) else v
    d = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return rt(x, ms.Tensor(0, dtype=D.int64))
    empty = _empty_reduction(x, (d,), keepdim, "median")  # (torch's nanmedian names median in its error too)
    if empty is not None:
        return rt(empty, _cast(empty, D.int64))
    v, i = _median_dim(x, d, ignore_nan)
    if keepdim:
        v, i = mint.unsqueeze(v, d), mint.unsqueeze(i, d)
    return rt(v, i)


class _EvenlySplit(Function):
    """`value`, a 0-d reduction of x equal to some of its elements (median/nanmedian without dim), with torch's
    evenly_distribute_backward: the gradient split evenly over the elements equal to it (over the NaNs when it is
    NaN), not all of it on the one element the sort picked."""

    @staticmethod
    def forward(ctx: Any, x: Any, value: Any) -> Any:
        ctx.save_for_backward(x, value)
        return mint.add(value, 0)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, value = ctx.saved_tensors
        hit = _cast(mint.isnan(x) if builtins.bool(mint.isnan(value)) else mint.eq(x, value), grad.dtype)
        return mint.mul(hit, mint.div(grad, mint.sum(hit))), None


def _sort(x: Any, d: int) -> Tuple[Any, Any]:
    """(values, indices) of x sorted along d. MindSpore's Sort kernel rounds float64 values to float32 (measured:
    sorted values off by 1e-7, and values closer than float32's resolution can come out misordered), so float64
    takes the numpy-ordered torch.sort implementation (a gather, differentiable)."""
    if x.dtype is D.float64:
        from .misc import sort

        return tuple(sort(x, d))
    return ops.sort(x, axis=d)


def _median_dim(x: Any, d: int, ignore_nan: builtins.bool) -> Tuple[Any, Any]:
    """Lower median along d: sort, take element (n-1)//2 (of the non-NaN ones for nanmedian). MindSpore's sort
    does not order NaN reliably, so NaNs are sorted as +inf; a row with NaN gives (NaN, index of its first NaN)
    for median, as torch does."""
    n = _shape(x)[d]
    keep = tuple(s if j != d else 1 for j, s in enumerate(_shape(x)))
    if id(x.dtype) in _FLOATS:
        nan = mint.isnan(x)
        y = mint.where(nan, _MsTensor(float("inf"), dtype=x.dtype), x)
        sv, si = _sort(y, d)
        nnan = mint.sum(_cast(nan, D.int64), d, True)
        if ignore_nan:
            cnt = mint.sub(_MsTensor(n, dtype=D.int64), nnan)
            k = mint.clamp(mint.floor_divide(mint.sub(cnt, 1), _MsTensor(2, dtype=D.int64)), 0, None)
        else:
            k = ops.fill(D.int64, keep, (n - 1) // 2)
    else:
        sv, si = ops.sort(x, axis=d)
        k = ops.fill(D.int64, keep, (n - 1) // 2)
    v = mint.squeeze(ops.gather_elements(sv, d, k), d)
    i = mint.squeeze(ops.gather_elements(_cast(si, D.int64), d, k), d)
    if id(x.dtype) in _FLOATS:
        has_nan = mint.squeeze(mint.gt(nnan, 0), d)
        nan_value = _MsTensor(float("nan"), dtype=x.dtype)
        if ignore_nan:  # all-NaN rows
            v = mint.where(mint.squeeze(mint.eq(nnan, n), d), nan_value, v)
        else:
            first_nan = _cast(ops.argmax(_cast(nan, D.int32), d), D.int64)
            v = mint.where(has_nan, nan_value, v)
            i = mint.where(has_nan, first_nan, i)
    return v, i


@register("median")
def median(input: Any, dim: Optional[int] = None, keepdim: builtins.bool = False) -> Any:
    """Lower median (torch's convention); with dim -> torch.return_types.median(values, indices)."""
    return _median(input, dim, keepdim, False, "median")


@register("nanmedian")
def nanmedian(input: Any, dim: Optional[int] = None, keepdim: builtins.bool = False) -> Any:
    """median ignoring NaN."""
    return _median(input, dim, keepdim, True, "nanmedian")


@register("mode")
def mode(input: Any, dim: int = -1, keepdim: builtins.bool = False) -> Any:
    """Most frequent value along dim (the smallest on ties) and the index of its last occurrence, as torch's CPU
    kernel gives. Computed in numpy: MindSpore 2.10 has no mode kernel (the result carries no gradient)."""
    arr = input.asnumpy()
    d = wrap_dim(dim, arr.ndim)
    empty = _empty_reduction(input, (d,), builtins.bool(keepdim), "mode") if arr.ndim else None
    if empty is not None:
        return return_types.mode(empty, _cast(empty, D.int64))
    a = arr.reshape(1) if arr.ndim == 0 else arr
    moved = np.moveaxis(a, d, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    vals = np.empty(flat.shape[0], dtype=arr.dtype)
    idx = np.empty(flat.shape[0], dtype=np.int64)
    for r, row in enumerate(flat):
        # NaN != NaN: each NaN counts once, so a row wins with NaN only when it holds nothing else (torch's CPU
        # kernel sorts the row, where NaN's order is unspecified; np.unique would merge the NaNs into one value)
        real = row[~np.isnan(row)] if arr.dtype.kind == "f" else row
        if real.size == 0:
            vals[r], idx[r] = row[0], 0
            continue
        u, c = np.unique(real, return_counts=True)
        best = u[np.argmax(c)]
        vals[r] = best
        idx[r] = np.nonzero(row == best)[0][-1]
    out_shape = moved.shape[:-1]
    vals, idx = vals.reshape(out_shape), idx.reshape(out_shape)
    if keepdim and arr.ndim:
        vals, idx = np.expand_dims(vals, d), np.expand_dims(idx, d)
    index = _MsTensor(idx)
    if input.ndim and input._requires_grad:  # the values gathered at the indices: torch's gradient
        g = index if keepdim else mint.unsqueeze(index, d)
        picked = mint.gather(input, d, g)
        return return_types.mode(picked if keepdim else mint.squeeze(picked, d), index)
    return return_types.mode(_MsTensor(vals, dtype=input.dtype), index)


# -------------------------------------------------------------------------------------- logsumexp / norm
@register("logsumexp")
def logsumexp(input: Any, dim: Any, keepdim: builtins.bool = False) -> Any:
    """log(sum(exp(x))) along dim, stably (max subtracted; infinite maxima handled as torch does)."""
    x = input if id(input.dtype) in _FLOATS else _cast(input, D.get_default_dtype())
    dims = _dims(dim, x.ndim)
    if x.ndim == 0:
        return x
    ax = tuple(range(x.ndim)) if dims is None else dims
    if 0 in _shape(x):  # log of an empty sum: -inf (MindSpore's CPU sum over an empty input is not 0)
        return ops.fill(x.dtype, _reduced_shape(_shape(x), ax, keepdim), -math.inf)
    m = mint.amax(x, ax, True)
    m = mint.where(ops.isinf(m), ops.zeros_like(m), m)
    s = mint.log(mint.sum(kernel("exp")(mint.sub(x, m)), ax, True))
    r = mint.add(s, m)
    return r if keepdim else mint.reshape(r, tuple(n for j, n in enumerate(_shape(x)) if j not in ax))


@register("norm")
def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: builtins.bool = False, dtype: Any = None) -> Any:
    """Vector/matrix norms: p='fro' (2-norm of the flattened dims), 'nuc', inf, -inf, 0, any number."""
    d = D.to_dtype(dtype)
    x = _cast(input, d) if d is not None else input
    if id(x.dtype) not in _FLOATS:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{D.scalar_name(x.dtype)}")
    if p is None:
        p = "fro"
    dims = _dims(dim, x.ndim)
    if p == "nuc":
        ax = dims if dims is not None else (0, 1)
        y = x if ax == (x.ndim - 2, x.ndim - 1) else mint.permute(
            x, tuple(j for j in range(x.ndim) if j not in ax) + ax)
        s = ops.svd(y, compute_uv=False)
        r = mint.sum(s, -1)
        if keepdim:
            for a in sorted(ax):
                r = mint.unsqueeze(r, a)
        return r
    if x.dtype in D.all_complex_type:
        from .pointwise import complex_abs
        x = complex_abs(x)
    ax = tuple(range(x.ndim)) if dims is None else dims
    if x.ndim == 0:
        return mint.ne(x, 0).astype(x.dtype) if p == 0 else mint.abs(x)
    if 0 in _shape(x):  # no elements: 0 for every p except +-inf over an empty dim (torch raises there)
        p_inf = p != "fro" and abs(float(p)) == math.inf
        if p_inf and any(_shape(x)[j] == 0 for j in ax):
            raise RuntimeError(f"linalg.vector_norm cannot compute the {p} norm on an empty tensor because the "
                               "operation does not have an identity")
        return ops.zeros(_reduced_shape(_shape(x), ax, keepdim), x.dtype)
    a = mint.abs(x)
    if p == "fro" or p == 2:
        return _root(mint.sum(mint.mul(a, a), ax, keepdim), 2.0)
    p = float(p)
    if p == math.inf:  # this table's amax/amin: NaN-propagating (MindSpore's CPU kernels drop NaN)
        return _registry.kernel("amax")(a, ax, keepdim)
    if p == -math.inf:
        return _registry.kernel("amin")(a, ax, keepdim)
    if p == 0:
        return mint.sum(mint.ne(a, 0).astype(x.dtype), ax, keepdim)
    if p == 1:
        return mint.sum(a, ax, keepdim)
    if p < 1 and _ms.records_grad(a):
        # d a^p = p a^(p-1) is inf at a zero (p < 1), times abs's 0 there NaN, poisoning the whole slice through
        # the sum; torch's gradient at a zero entry is 0 (and for p < 0 the slice's norm is 0, flat): the zeros'
        # power 0^p (0, or inf for p < 0) is filled in as a constant, as _root masks its own
        zero = mint.eq(a, 0)
        one, at_zero = _MsTensor(1.0, a.dtype), _MsTensor(0.0 if p > 0 else math.inf, a.dtype)
        powed = ops.masked_fill(mint.pow(ops.masked_fill(a, zero, one), scalar_arg(p, a)), zero, at_zero)
        return _root(mint.sum(powed, ax, keepdim), p)
    return _root(mint.sum(mint.pow(a, scalar_arg(p, a)), ax, keepdim), p)


def _root(s: Any, p: float) -> Any:
    """s ** (1/p) (sqrt for p = 2) of a non-negative s whose gradient is 0 where s == 0, as torch's norm and std
    backward mask it (`masked_fill_(norm == 0, 0)`): the kernel's own derivative is inf there, and times the inner
    derivative (0 at a zero input) gave NaN, which then poisoned every parameter (F.normalize of a zero row)."""
    root = mint.sqrt if p == 2.0 else (lambda v: mint.pow(v, scalar_arg(1.0 / p, v)))
    if not _ms.records_grad(s):
        return root(s)
    zero = mint.eq(s, 0)
    # (0-d fill values of s's dtype: with a Python float MindSpore's MaskedFill rounds float64 input to float32)
    one, nil = _MsTensor(1.0, s.dtype), _MsTensor(0.0, s.dtype)
    return ops.masked_fill(root(ops.masked_fill(s, zero, one)), zero, nil)


# --------------------------------------------------------------------------------------------- all / any
def _allany(name: str, kernel: Any) -> Any:
    def impl(input: Any, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        dims = _dims(dim, input.ndim)
        r = _reduce(kernel, input, dims, keepdim)
        return _cast(r, D.uint8) if input.dtype is D.uint8 else r  # torch keeps uint8 for uint8 input
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, dim=None, keepdim=False): bool (uint8 for uint8 input)."
    return impl


register("all")(_allany("all", mint.all))
register("any")(_allany("any", lambda x, ax, k: mint.logical_not(mint.all(mint.logical_not(x), ax, k))))


@register("count_nonzero")
def count_nonzero(input: Any, dim: Any = None) -> Any:
    """int64 count of non-zero elements over dim (int or tuple; all when None)."""
    return sum(mint.ne(input, 0), dim)


# ----------------------------------------------------------------------------------------- cumulative
def _cum_dtype(input: Any, dtype: Any) -> Any:
    d = D.to_dtype(dtype)
    if d is None and id(input.dtype) in _INT_OR_BOOL:
        d = D.int64
    return input if d is None or input.dtype is d else _cast(input, d)


@register("cumsum", inplace=True)
def cumsum(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """Cumulative sum along dim; ints/bools accumulate in int64."""
    x = _cum_dtype(input, dtype)
    d = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return x
    if 0 in _shape(x):  # MindSpore's CPU CumSum kernel fails on an empty input
        return ops.zeros(_shape(x), x.dtype)
    return ops.cumsum(x, d)


@register("cumprod", inplace=True)
def cumprod(input: Any, dim: int, *, dtype: Any = None) -> Any:
    """Cumulative product along dim; ints/bools accumulate in int64."""
    x = _cum_dtype(input, dtype)
    d = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return x
    return _cumprod(x, d)


def _cumprod(x: Any, d: int) -> Any:
    return _CumProd.apply(x, d) if _ms.records_grad(x) else mint.cumprod(x, d)


class _CumProd(Function):
    """cumprod along d with torch's cumprod_backward: MindSpore's backward divides by the input, NaN at a zero.
    Built from recorded ops (through _CumProd again), so create_graph=True differentiates it again."""

    @staticmethod
    def forward(ctx: Any, x: Any, d: int) -> Any:
        out = mint.cumprod(x, d)
        ctx.d = d
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        x, out = ctx.saved_tensors
        return _cumprod_backward(grad, x, out, ctx.d), None


def _rev_cumsum(x: Any, d: int) -> Any:
    """sum_{j >= k} x_j along d."""
    return mint.flip(ops.cumsum(mint.flip(x, (d,)), d), (d,))


def _cumprod_backward(grad: Any, x: Any, out: Any, d: int) -> Any:
    """d cumprod: grad_k = sum_{j >= k} grad_j prod_{i <= j, i != k} x_i (conjugated for complex x), torch's
    cumprod_backward. Without a zero: reversed_cumsum(grad * out) / x. With zeros, per slice with first zero z:
    k < z as before; k >= z: (1 at z, else x_z) times the same gradient of the cumprod with x_z taken as 1 (`rest`).
    Plain backward stops there (past z that is x_z * ... = 0); under create_graph `rest`'s gradient recurses
    (one level per zero of a slice) so the formula is exact around x, and its derivative the second derivative
    (torch's O(n^2) loop there)."""
    if _shape(x)[d] == 1:
        return grad
    zero = mint.eq(x, 0)
    if not builtins.bool(mint.any(zero)):  # (a host sync, as torch's own zero check)
        return mint.div(_rev_cumsum(mint.mul(grad, _conj(out)), d), _conj(x))
    count = ops.cumsum(_cast(zero, D.int32), d)
    ahead = mint.eq(count, 0)
    first = mint.logical_and(zero, mint.eq(count, 1))
    nil, one = ops.zeros_like(x), ops.ones_like(x)
    rest = mint.where(first, one, x)
    rest_out = _cumprod(rest, d)
    w = mint.mul(grad, _conj(out))
    if not _ms.is_recording():  # torch masks the products past the first zero (0, or NaN after an inf)
        w = mint.where(ahead, w, nil)
    g = mint.where(ahead, mint.div(_rev_cumsum(w, d), _conj(mint.where(ahead, x, one))), nil)
    if not _ms.is_recording():
        return mint.add(g, mint.where(first, _rev_cumsum(mint.mul(grad, _conj(rest_out)), d), nil))
    x_z = mint.sum(mint.where(first, x, nil), d, True)
    scale = mint.where(ahead, nil, mint.where(first, one, _conj(x_z)))
    return mint.add(g, mint.mul(scale, _cumprod_backward(grad, rest, rest_out, d)))


def _cumext(name: str, kernel: Any, rt: type) -> Any:
    def impl(input: Any, dim: int) -> Any:
        d = wrap_dim(dim, input.ndim)
        if input.ndim == 0:
            return rt(input, ms.Tensor(0, dtype=D.int64))
        if 0 in _shape(input):
            return rt(input, ops.zeros_like(input).astype(D.int64))
        _, i = kernel(ops.stop_gradient(_orderable(input)), d)
        i = _cast(i, D.int64)
        # values gathered at the indices: differentiable through Gather (the backward of MindSpore's cummax/cummin
        # has no CPU kernel, "Kernel select failed"), exactly the input's elements, as torch's values are
        return rt(mint.gather(input, d, i), i)
    impl.__name__ = name
    impl.__doc__ = f"torch.{name}(input, dim) -> torch.return_types.{name}(values, indices)."
    return impl


register("cummax")(_cumext("cummax", lambda x, d: mint.cummax(x, d), return_types.cummax))
register("cummin")(_cumext("cummin", lambda x, d: ops.cummin(x, d), return_types.cummin))


@register("logcumsumexp")
def logcumsumexp(input: Any, dim: int) -> Any:
    """log(cumsum(exp(x))) along dim, stably."""
    if id(input.dtype) not in _FLOATS:  # torch has no integer/bool kernel (1.12 as 2.x)
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{D.scalar_name(input.dtype)}'")
    x = input
    d = wrap_dim(dim, x.ndim)
    if x.ndim == 0 or 0 in _shape(x):  # MindSpore's CPU CumSum kernel fails on an empty input
        return mint.add(x, 0)
    if x.dtype is D.float16 or x.dtype is D.bfloat16:  # (no half kernels: computed in float32, as torch's CPU)
        return ops.logcumsumexp(_cast(x, D.float32), d).astype(x.dtype)
    r = ops.logcumsumexp(x, d)
    # MindSpore's kernel forgets a NaN once a larger value follows it; in torch a NaN poisons the rest of the scan
    seen_nan = mint.gt(ops.cumsum(_cast(mint.isnan(x), D.int32), d), 0)
    return mint.where(seen_nan, ops.stop_gradient(mint.mul(r, math.nan)), r)


# ---------------------------------------------------------------------------------------------- quantile
_QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input: Any, q: Any, dim: Any, keepdim: builtins.bool, interpolation: str, ignore_nan: builtins.bool,
              name: str) -> Any:
    """Sort, then interpolate between the two order statistics around q * (n - 1) (n: the slice's non-NaN count
    for nanquantile). Built from sort/gather/lerp so the result is differentiable."""
    if input.dtype not in (D.float32, D.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if interpolation not in _QUANTILE_MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    scalar_q = not isinstance(q, ms.Tensor)
    qv = np.asarray(q if scalar_q else q.asnumpy(), dtype=np.float64)
    if qv.ndim > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if not scalar_q and q.dtype != input.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if ((qv < 0) | (qv > 1)).any():
        if scalar_q:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    if 0 in _shape(input):
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    scalar_q = scalar_q or qv.ndim == 0
    x = ops.reshape(input, (-1,)) if dim is None else input
    d = -1 if dim is None else wrap_dim(dim, max(input.ndim, 1))
    if x.ndim == 0:
        x = ops.reshape(x, (1,))
    x = ops.moveaxis(x, d, -1)
    n = _shape(x)[-1]
    nan = ops.isnan(x)
    # NaNs sort last as +inf; only the first k (non-NaN) order statistics are addressed
    srt = _sort(ops.where(nan, ops.full_like(x, float("inf")), x), -1)[0]
    qs = ms.Tensor(qv.reshape(-1), x.dtype)
    if ignore_nan:
        k = ops.sum(ops.logical_not(nan).astype(x.dtype), -1, keepdim=True)
    else:
        k = ops.full(_shape(x)[:-1] + (1,), float(n), dtype=x.dtype)
    pos = ops.maximum(k - 1, ops.zeros_like(k)) * qs  # (..., Q)
    lo = ops.floor(pos)
    hi = ops.ceil(pos)
    if interpolation == "nearest":
        lo = hi = ops.round(pos)  # round half to even, as torch
    elif interpolation == "lower":
        hi = lo
    elif interpolation == "higher":
        lo = hi
    v_lo = ops.gather_elements(srt, -1, ops.clamp(lo, 0, n - 1).astype(ms.int64))
    v_hi = ops.gather_elements(srt, -1, ops.clamp(hi, 0, n - 1).astype(ms.int64))
    if interpolation == "midpoint":
        out = v_lo + (v_hi - v_lo) * 0.5
    elif interpolation == "linear":
        out = v_lo + (v_hi - v_lo) * (pos - lo)
    else:
        out = v_lo
    bad = ops.equal(k, 0) if ignore_nan else ops.any(nan, -1, keep_dims=True)
    out = ops.where(ops.broadcast_to(bad, _shape(out)), ops.full_like(out, float("nan")), out)
    out = ops.moveaxis(out, -1, 0)  # (Q, ...)
    if keepdim:
        lead = (1,) * input.ndim if dim is None else _shape(input)[:d] + (1,) + _shape(input)[d + 1:]
        out = ops.reshape(out, (_shape(out)[0],) + tuple(lead))
    return out[0] if scalar_q else out


@register("quantile")
def quantile(input: Any, q: Any, dim: Optional[int] = None, keepdim: builtins.bool = False, *,
             interpolation: str = "linear") -> Any:
    """q-th quantiles of input (flattened, or along dim); a 1-D q puts its dim first in the result."""
    return _quantile(input, q, dim, keepdim, interpolation, False, "quantile")


@register("nanquantile")
def nanquantile(input: Any, q: Any, dim: Optional[int] = None, keepdim: builtins.bool = False, *,
                interpolation: str = "linear") -> Any:
    """quantile ignoring NaN (NaN only where a slice has no other value)."""
    return _quantile(input, q, dim, keepdim, interpolation, True, "nanquantile")
