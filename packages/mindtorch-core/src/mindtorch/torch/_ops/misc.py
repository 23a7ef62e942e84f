"""Sorting, selection, counting and products: sort, argsort, topk, kthvalue, msort, unique,
unique_consecutive, bincount, histc, cdist, corrcoef, cov, diff, einsum, tensordot, cross, outer/ger, inner,
dot, vdot, mm, bmm, matmul, mv, addmm, addmv, addbmm, baddbmm, chain_matmul, kron, trace.

Products are built from `mint.matmul` / broadcasting multiplies (differentiable; MindSpore 2.10 has no CPU
kernel for mint.mm/outer/dot/mv/addmm/baddbmm/einsum). unique/bincount/histc/kthvalue are computed on the host
with numpy (integer/count outputs: no autograd needed; kthvalue values carry no autograd).
"""
from __future__ import annotations

import builtins
import itertools
from typing import Any, Optional, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms
from .. import return_types as RT
from ..autograd.function import Function
from . import _expand, _onednn
from ._args import scalar_arg, wrap_dim
from ._host import _host_op, zeros_vjp
from ._registry import kernel, register, shapes_broadcast_error
from .shape import _select

_MsTensor = ms.Tensor


def _shape(x: Any) -> tuple:
    return tuple(_MsTensor.shape.fget(x))


def _np(t: Any) -> np.ndarray:
    return (t.astype(D.float32) if t.dtype == D.bfloat16 else t).asnumpy()


def _to_ms(arr: Any, dtype: Any) -> Any:
    from .creation import np_to_ms

    return np_to_ms(arr, dtype)


# -------------------------------------------------------------------------------------------- sorting
@register("sort")
def sort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    """(values, indices) sorted along dim; always stable (a valid choice for stable=False too)."""
    n = len(_shape(input))
    if n == 0:
        return RT.sort(input, _MsTensor(np.zeros((), np.int64)))
    d = wrap_dim(dim, n)
    arr = _np(input)
    if descending:
        # a stable ascending sort of the reversed array, read backwards: ties keep their order and NaN (sorted
        # last by numpy) comes first, as in torch; negating instead would wrap unsigned ints and keep NaN last
        size = arr.shape[d]
        idx = np.flip(size - 1 - np.argsort(np.flip(arr, d), axis=d, kind="stable"), d)
    else:
        idx = np.argsort(arr, axis=d, kind="stable")
    it = _MsTensor(idx.astype(np.int64))
    return RT.sort(mint.gather(input, d, it), it)


@register("argsort")
def argsort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    return sort(input, dim, descending)[1]


@register("msort")
def msort(input: Any) -> Any:
    return sort(input, 0)[0]


@register("topk")
def topk(input: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """(values, indices) of the k largest (or smallest) along dim."""
    if input.dtype == D.bool:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    n = len(_shape(input))
    d = wrap_dim(dim, n) if n else 0
    size = _shape(input)[d] if n else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if n == 0:
        return RT.topk(input, _MsTensor(np.zeros((), np.int64)))
    vals, idx = sort(input, d, descending=largest)
    sl = (slice(None),) * d + (slice(0, k),)
    i = _MsTensor.__getitem__(idx, sl)
    return RT.topk(mint.gather(input, d, i), i)


@register("kthvalue")
def kthvalue(input: Any, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """(values, indices) of the k-th smallest element along dim."""
    if input.dtype == D.bool:
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    n = len(_shape(input))
    d = wrap_dim(dim, n) if n else 0
    size = _shape(input)[d] if n else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if n == 0:
        return RT.kthvalue(input, _MsTensor(np.zeros((), np.int64)))
    idx = np.take(np.argsort(_np(input), axis=d, kind="stable"), [k - 1], axis=d)
    it = _MsTensor(idx.astype(np.int64))
    vals = mint.gather(input, d, it)
    if not keepdim:
        vals, it = mint.squeeze(vals, d), mint.squeeze(it, d)
    return RT.kthvalue(vals, it)


# ------------------------------------------------------------------------------------------- unique
@register("unique")
def unique(input: Any, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: Optional[int] = None) -> Any:
    """Unique elements (always sorted, as torch's CPU kernel), optional inverse indices and counts."""
    arr = _np(input)
    if dim is None:
        # equal_nan=False: torch keeps every NaN as its own value (NaN != NaN), numpy merges them by default
        vals, inv, cnt = np.unique(arr, return_inverse=True, return_counts=True, equal_nan=False)
        inv = inv.reshape(arr.shape)
    else:
        d = wrap_dim(dim, arr.ndim)
        if arr.size == 0 and arr.shape[d]:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
        if arr.size == 0:  # (numpy cannot reshape an empty array to (0, -1))
            vals, inv, cnt = arr, np.zeros(0, np.int64), np.zeros(0, np.int64)
        else:
            vals, inv, cnt = np.unique(arr, return_inverse=True, return_counts=True, axis=d)
        inv = inv.reshape(-1)
    out = [_to_ms(vals, input.dtype)]
    if return_inverse:
        out.append(_MsTensor(inv.astype(np.int64)))
    if return_counts:
        out.append(_MsTensor(cnt.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


@register("unique_consecutive")
def unique_consecutive(input: Any, return_inverse: bool = False, return_counts: bool = False,
                       dim: Optional[int] = None) -> Any:
    """Collapse runs of equal consecutive elements (flattened, or slices along dim)."""
    arr = _np(input)
    if dim is None:
        flat = arr.reshape(-1)
        if flat.size == 0:
            keep = np.zeros(0, bool)
        else:
            keep = np.concatenate([[True], flat[1:] != flat[:-1]])
        vals = flat[keep]
        inv = (np.cumsum(keep) - 1).reshape(arr.shape)
        cnt = np.diff(np.append(np.nonzero(keep)[0], flat.size))
    else:
        d = wrap_dim(dim, arr.ndim)
        if arr.size == 0 and arr.shape[d]:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
        moved = np.moveaxis(arr, d, 0).reshape(arr.shape[d], int(np.prod(np.delete(arr.shape, d))))
        keep = np.concatenate([[True], np.any(moved[1:] != moved[:-1], axis=1)]) if moved.shape[0] else \
            np.zeros(0, bool)
        vals = np.compress(keep, arr, axis=d)
        inv = np.cumsum(keep) - 1
        cnt = np.diff(np.append(np.nonzero(keep)[0], moved.shape[0]))
    out = [_to_ms(vals, input.dtype)]
    if return_inverse:
        out.append(_MsTensor(inv.astype(np.int64)))
    if return_counts:
        out.append(_MsTensor(cnt.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


@register("bincount")
def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Any:
    """Counts of each value of a 1-D non-negative int tensor (int64; weights' dtype... double as torch)."""
    if len(_shape(input)) != 1 or input.dtype not in D.all_int_type:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    a = input.asnumpy()
    if a.size and a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None or a.size == 0:  # torch: an empty input gives int64 zeros even with weights
        return _MsTensor(np.bincount(a, minlength=minlength).astype(np.int64))
    res = np.bincount(a, weights=_np(weights).astype(np.float64), minlength=minlength)
    # torch: float weights keep float32? -> torch returns double for non-float weights, weights' dtype otherwise
    wd = weights.dtype if weights.dtype in (D.float32, D.float64, D.float16) else D.float64
    return _to_ms(res, wd)


@register("histc")
def histc(input: Any, bins: int = 100, min: float = 0, max: float = 0, *, out: Any = None) -> Any:  # noqa: A002
    """Histogram with `bins` equal bins over [min, max] (data range when both are 0); input's dtype."""
    if input.dtype not in D.all_float_type:
        raise RuntimeError(f"\"histogram_cpu\" not implemented for '{D.scalar_name(input.dtype)}'")
    a = _np(input).astype(np.float64).ravel()
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    a = a[(a >= lo) & (a <= hi)]
    res, _ = np.histogram(a, bins=int(bins), range=(lo, hi))
    return _to_ms(res, input.dtype)


# --------------------------------------------------------------------------------------- statistics
@register("cdist", method=False)
def cdist(x1: Any, x2: Any, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Any:
    """Pairwise p-norm distances between the rows of x1 (..., P, M) and x2 (..., R, M) -> (..., P, R)."""
    if _shape(x1)[-1] != _shape(x2)[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {_shape(x1)[-1]} X2: "
                           f"{_shape(x2)[-1]}")
    b1, b2 = _shape(x1)[:-2], _shape(x2)[:-2]
    if b1 != b2:  # torch broadcasts the batch dims; MindSpore's Cdist kernel wants them equal
        err = shapes_broadcast_error(b1, b2)
        if err is not None:
            raise err
        batch = tuple(np.broadcast_shapes(b1, b2))
        x1 = mint.broadcast_to(x1, batch + _shape(x1)[-2:])
        x2 = mint.broadcast_to(x2, batch + _shape(x2)[-2:])
    return ops.cdist(x1, x2, float(p))


@register("cov")
def cov(input: Any, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Any:
    """Covariance of the rows (variables) over the columns (observations)."""
    if fweights is not None or aweights is not None:
        arr = np.cov(_np(input), ddof=correction, fweights=None if fweights is None else fweights.asnumpy(),
                     aweights=None if aweights is None else _np(aweights))
        return _to_ms(arr, input.dtype)
    x = input if len(_shape(input)) == 2 else mint.reshape(input, (1, -1))
    nobs = _shape(x)[1]
    xc = mint.sub(x, mint.mean(x, 1, True))
    res = mint.div(mint.matmul(xc, ops.conj(mint.transpose(xc, 0, 1)) if x.dtype in D.all_complex_type
                               else mint.transpose(xc, 0, 1)), max(nobs - correction, 0))
    return mint.reshape(res, ()) if len(_shape(input)) < 2 else res


@register("corrcoef")
def corrcoef(input: Any) -> Any:
    c = cov(input)
    if not _shape(c):
        return mint.div(c, c)
    d = mint.sqrt(_MsTensor.diagonal(c, 0, 0, 1))
    return mint.clamp(mint.div(mint.div(c, mint.unsqueeze(d, 1)), mint.unsqueeze(d, 0)), -1, 1)


@register("diff")
def diff(input: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """n-th forward difference along dim (bool: xor)."""
    if not _shape(input):
        raise RuntimeError("diff expects input to be at least one-dimensional")
    d = wrap_dim(dim, len(_shape(input)))
    x = input
    if prepend is not None or append is not None:
        parts = ([prepend] if prepend is not None else []) + [x] + ([append] if append is not None else [])
        x = mint.cat(parts, d)
    for _ in range(n):
        size = _shape(x)[d]
        if size == 0:
            break
        a, b = mint.narrow(x, d, 1, size - 1), mint.narrow(x, d, 0, size - 1)
        x = mint.logical_xor(a, b) if x.dtype == D.bool else mint.sub(a, b)
    return x


# ----------------------------------------------------------------------------------------- products
_MM = ops.MatMul()
_BMM = ops.BatchMatMul()


# On CPU, float32 products run oneDNN's matmul (`_onednn.matmul`, the libdnnl MindSpore ships) as one autograd node:
# it reads transposed and sliced views in place (attention's q @ k.transpose(-2, -1) on views of one qkv
# projection: 0.5 ms, where MindSpore's Contiguous copies and BatchMatMul took ~8 ms) and fuses a Linear's bias
# (MindSpore: a broadcasting add, 10-25x slower than a same-shape one, see _expand.py). Under create_graph the
# backward's products are recorded (`matmul_kernel` again: oneDNN nodes on CPU), so double backward works.
def _mT(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


def _np_matmul(a: np.ndarray, b: np.ndarray, bias: Optional[np.ndarray] = None) -> np.ndarray:
    """oneDNN a @ b for arrays of rank >= 2 (ranks padded with leading 1s, batch dims broadcast)."""
    r = max(a.ndim, b.ndim)
    a = a.reshape((1,) * (r - a.ndim) + a.shape) if a.ndim < r else a
    b = b.reshape((1,) * (r - b.ndim) + b.shape) if b.ndim < r else b
    if r > 2 and b.shape[:-2] == (1,) * (r - 2) and a.flags.c_contiguous:  # (*, M, K) @ (K, N): one 2-d product
        out = _onednn.matmul(a.reshape(-1, a.shape[-1]), b.reshape(b.shape[-2:]), bias)
        return out.reshape(a.shape[:-1] + (b.shape[-1],))
    return _onednn.matmul(a, b, bias)


def _onednn_matmul_value(a: Any, b: Any, bias: Any, trans_b: bool) -> Any:
    bn = _ms.host_view(b)
    out = _np_matmul(_ms.host_view(a), _mT(bn) if trans_b else bn, None if bias is None else _ms.host_view(bias))
    return _MsTensor.from_numpy(out)


class _OneDnnMatmul(Function):
    """a (*, M, K) @ b (*, K, N) (or b^T for b (N, K) when trans_b, a Linear's weight) [+ bias (N,)] with oneDNN,
    as one autograd node; batch dims broadcast as in torch.matmul."""

    @staticmethod
    def forward(ctx: Any, a: Any, b: Any, bias: Any, trans_b: bool) -> Any:
        ctx.save_for_backward(a, b)
        ctx.trans_b = trans_b
        return _onednn_matmul_value(a, b, bias, trans_b)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        a, b = ctx.saved_tensors
        need_a, need_b, need_bias = ctx.needs_input_grad[:3]
        sa, sb, tb = _shape(a), _shape(b), ctx.trans_b
        if _ms.is_recording():  # create_graph: the same products, recorded
            bt = ops.swapaxes(b, -1, -2)
            da = _expand.sum_to_recorded(matmul_kernel(g, b if tb else bt), sa) if need_a else None
            db = None
            if need_b:
                db = matmul_kernel(ops.swapaxes(g, -1, -2), a) if tb else matmul_kernel(ops.swapaxes(a, -1, -2), g)
                db = _expand.sum_to_recorded(db, sb)
            dbias = ops.sum(g, tuple(range(g.ndim - 1))) if need_bias else None
            return da, db, dbias, None
        gn, an, bn = np.ascontiguousarray(_MsTensor.asnumpy(g)), _ms.host_view(a), _ms.host_view(b)
        da = db = dbias = None
        if need_a:
            da = _MsTensor.from_numpy(_expand._sum_to_np(_np_matmul(gn, bn if tb else _mT(bn)), sa))
        if need_b:
            if tb:  # dW = g^T @ a over all leading dims: (N, M) @ (M, K)
                dw = _np_matmul(_mT(gn.reshape(-1, gn.shape[-1])), an.reshape(-1, an.shape[-1]))
            else:
                dw = _expand._sum_to_np(_np_matmul(_mT(an), gn), sb)
            db = _MsTensor.from_numpy(np.ascontiguousarray(dw))
        if need_bias:
            dbias = _MsTensor.from_numpy(gn.reshape(-1, gn.shape[-1]).sum(0))
        return da, db, dbias, None


def onednn_matmul_ok(a: Any, b: Any) -> bool:
    """oneDNN's product applies: CPU float32 operands of rank >= 2 (non-empty) with the library loaded."""
    if not (_ms.HOST_MEMORY and a.dtype == D.float32 and b.dtype == D.float32 and a.ndim >= 2 and b.ndim >= 2
            and 0 not in _shape(a) and 0 not in _shape(b) and _onednn.available()):
        return False
    try:  # batch dims that do not broadcast: the general path raises the error (callers check the inner dims)
        np.broadcast_shapes(_shape(a)[:-2], _shape(b)[:-2])
    except ValueError:
        return False
    return True


def onednn_matmul(a: Any, b: Any, bias: Any = None, trans_b: bool = False) -> Any:
    """a @ b (b^T when trans_b) [+ bias] with oneDNN, recorded as `_OneDnnMatmul` when an operand needs a grad."""
    if _ms.records_grad(a, b, bias):
        return _OneDnnMatmul.apply(a, b, bias, trans_b)
    return _onednn_matmul_value(a, b, bias, trans_b)


def matmul_kernel(a: Any, b: Any) -> Any:
    """torch.matmul's shape rules (1-D promotion, broadcast batch dims) on MindSpore's MatMul/BatchMatMul.

    Why not `mint.matmul`: measured on MindSpore 2.10, the backward of its MatMulExt/BatchMatMulExt nodes records
    no history under create_graph=True, so every second-order term through a product of two tensors that require
    grad was silently lost (`grad(grad((x @ x.T).sum(), x, create_graph=True)[0].sum(), x)`, a WGAN-GP penalty
    through attention); MatMul/BatchMatMul record it. Other dtypes and mismatched shapes (for mint's errors) keep
    mint.matmul. a, b: (*, n, k) @ (*, k, m) -> broadcast(*) + (n, m), 1-D operands as torch promotes them.
    """
    sa, sb = _shape(a), _shape(b)
    if (a.dtype != b.dtype or a.dtype not in (D.float32, D.float64) or not sa or not sb
            or sa[-1] != (sb[0] if len(sb) == 1 else sb[-2]) or sa[-1] == 0):
        return _matmul_other(a, b, sa, sb)
    if len(sa) == 1 and len(sb) == 1:  # a dot product: Mul saves a and b themselves (in-place checks see them)
        return mint.sum(mint.mul(a, b))
    if onednn_matmul_ok(a, b):
        return onednn_matmul(a, b)
    a2 = ops.reshape(a, (1,) + sa) if len(sa) == 1 else a
    b2 = ops.reshape(b, sb + (1,)) if len(sb) == 1 else b
    s2a, s2b = _shape(a2), _shape(b2)
    if len(s2b) == 2:  # (*, n, k) @ (k, m): one 2-D product over the folded batch
        out = _MM(ops.reshape(a2, (-1, s2a[-1])) if len(s2a) > 2 else a2, b2)
        out = ops.reshape(out, s2a[:-1] + (s2b[-1],)) if len(s2a) > 2 else out
    else:
        try:
            batch = tuple(np.broadcast_shapes(s2a[:-2], s2b[:-2]))
        except ValueError:
            return mint.matmul(a, b)
        n = int(np.prod(batch))
        a3 = ops.reshape(ops.broadcast_to(a2, batch + s2a[-2:]), (n,) + s2a[-2:])
        b3 = ops.reshape(ops.broadcast_to(b2, batch + s2b[-2:]), (n,) + s2b[-2:])
        out = ops.reshape(_BMM(a3, b3), batch + (s2a[-2], s2b[-1]))
    if len(sa) == 1:
        out = ops.squeeze(out, -2)
    if len(sb) == 1:
        out = ops.squeeze(out, -1)
    return out


def _matmul_other(a: Any, b: Any, sa: tuple, sb: tuple) -> Any:
    """matmul_kernel's other cases: an empty inner dim (zeros: MindSpore's MatMul/BatchMatMul then return
    uninitialised memory), bool (torch has no kernel), other dtypes and mismatched shapes (mint.matmul's errors)."""
    if a.dtype == b.dtype and sa and sb and sa[-1] == (sb[0] if len(sb) == 1 else sb[-2]):
        if sa[-1] == 0:
            return _empty_product(a, b, sa, sb)
        if a.dtype == D.bool:  # the name of torch's kernel for these shapes
            name = ("dot" if len(sb) == 1 else "addmm_impl_cpu_") if len(sa) == 1 else \
                "addmv_impl_cpu" if len(sb) == 1 else "addmm_impl_cpu_" if len(sb) == 2 else "bmm"
            raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")
    return mint.matmul(a, b)


def _empty_product(a: Any, b: Any, sa: tuple, sb: tuple) -> Any:
    """a @ b with an inner dim of 0 (torch's matmul shapes): zeros; under autograd one node whose gradients are
    zeros of the inputs' (empty) shapes."""
    try:
        batch = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
    except ValueError:  # batch dims that do not broadcast: mint's error
        return mint.matmul(a, b)
    shape = batch + sa[-2:-1] + sb[-1:] if len(sb) > 1 else batch + sa[-2:-1]
    return _host_op(lambda x, y: ops.zeros(shape, a.dtype), zeros_vjp, a, b)


def _check_same_dtype(a: Any, b: Any, op: str) -> None:
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {D.scalar_name(a.dtype)} but found {D.scalar_name(b.dtype)}")


@register("matmul")
def matmul(input: Any, other: Any, *, out: Any = None) -> Any:
    """torch.matmul: 1-D/2-D/batched with broadcasting."""
    _check_same_dtype(input, other, "matmul")
    if not _shape(input) or not _shape(other):
        raise RuntimeError("both arguments to matmul need to be at least 1D, but they are "
                           f"{len(_shape(input))}D and {len(_shape(other))}D")
    sa, sb = _shape(input), _shape(other)
    if len(sa) == 2 and len(sb) == 2 and sa[1] != sb[0]:  # torch's 2-d message (addmm's)
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")
    if len(sa) >= 2 and len(sb) >= 2 and (len(sa) > 2 or len(sb) > 2):
        err = shapes_broadcast_error(sa[:-2], sb[:-2])
        if err is not None:
            raise err
        batch = int(np.prod(np.broadcast_shapes(sa[:-2], sb[:-2]), dtype=np.int64))
        if sa[-1] != sb[-2]:  # torch folds the batch dims and reports bmm's check
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, {sa[-1]}] "
                               f"but got: [{batch}, {sb[-2]}].")
    return matmul_kernel(input, other)


@register("mm")
def mm(input: Any, mat2: Any, *, out: Any = None) -> Any:
    """(n, m) @ (m, p) -> (n, p)."""
    if len(_shape(input)) != 2:
        raise RuntimeError("self must be a matrix")
    if len(_shape(mat2)) != 2:
        raise RuntimeError("mat2 must be a matrix")
    if _shape(input)[1] != _shape(mat2)[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shape(input)[0]}x{_shape(input)[1]} and "
                           f"{_shape(mat2)[0]}x{_shape(mat2)[1]})")
    _check_same_dtype(input, mat2, "mm")
    return matmul_kernel(input, mat2)


@register("bmm")
def bmm(input: Any, mat2: Any, *, out: Any = None) -> Any:
    """(b, n, m) @ (b, m, p) -> (b, n, p)."""
    if len(_shape(input)) != 3 or len(_shape(mat2)) != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if len(_shape(input)) != 3 else "batch2 must be a 3D tensor")
    if _shape(input)[0] != _shape(mat2)[0] or _shape(input)[2] != _shape(mat2)[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{_shape(input)[0]}, "
                           f"{_shape(input)[2]}] but got: [{_shape(mat2)[0]}, {_shape(mat2)[1]}].")
    _check_same_dtype(input, mat2, "bmm")
    return mint.bmm(input, mat2) if input.dtype == D.float16 and _shape(input)[2] else matmul_kernel(input, mat2)


@register("mv")
def mv(input: Any, vec: Any, *, out: Any = None) -> Any:
    if len(_shape(input)) != 2 or len(_shape(vec)) != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {len(_shape(input))}, {len(_shape(vec))}")
    if _shape(input)[1] != _shape(vec)[0]:
        raise RuntimeError(f"size mismatch, got input ({_shape(input)[0]}), mat ({_shape(input)[0]}x"
                           f"{_shape(input)[1]}), vec ({_shape(vec)[0]})")
    return matmul_kernel(input, vec)


@register("dot")
def dot(input: Any, other: Any, *, out: Any = None) -> Any:
    """Inner product of two 1-D tensors of equal size."""
    if len(_shape(input)) != 1 or len(_shape(other)) != 1:
        raise RuntimeError(f"1D tensors expected, but got {len(_shape(input))}D and {len(_shape(other))}D tensors")
    if input.dtype != other.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {D.scalar_name(input.dtype)} "
                           f"and {D.scalar_name(other.dtype)}")
    if _shape(input) != _shape(other):
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{_shape(input)[0]}] and src "
                           f"[{_shape(other)[0]}] to have the same number of elements, but got {_shape(input)[0]} and "
                           f"{_shape(other)[0]} elements respectively")
    if input.dtype == D.bool:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    if not _shape(input)[0]:  # (MindSpore's sum of nothing is uninitialised memory)
        return _empty_product(input, other, _shape(input), _shape(other))
    return mint.sum(mint.mul(input, other), dtype=input.dtype)


@register("vdot")
def vdot(input: Any, other: Any, *, out: Any = None) -> Any:
    a = ops.conj(input) if input.dtype in D.all_complex_type else input
    return dot(a, other)


@register("inner")
def inner(input: Any, other: Any, *, out: Any = None) -> Any:
    """Sum over the last dims: input (*a, k) and other (*b, k) -> (*a, *b)."""
    sa, sb = _shape(input), _shape(other)
    if not sa or not sb:
        return mint.mul(input, other)
    if sa[-1] != sb[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(sa)} and {list(sb)}")
    k = sa[-1]  # (explicit sizes, not -1: undetermined for k = 0)
    flat = matmul_kernel(mint.reshape(input, (_size_of(sa, range(len(sa) - 1)), k)),
                         mint.transpose(mint.reshape(other, (_size_of(sb, range(len(sb) - 1)), k)), 0, 1))
    return mint.reshape(flat, sa[:-1] + sb[:-1])


@register("outer", aliases=("ger",))
def outer(input: Any, vec2: Any, *, out: Any = None) -> Any:
    """(n,) x (m,) -> (n, m)."""
    return mint.mul(mint.reshape(input, (-1, 1)), mint.reshape(vec2, (1, -1)))


def _beta_alpha(res: Any, base: Any, beta: Any, alpha: Any) -> Any:
    if alpha != 1:
        res = mint.mul(res, scalar_arg(alpha, res))
    if beta == 0:  # torch ignores input entirely (nan/inf in it do not propagate)
        return res
    b = base if beta == 1 else mint.mul(base, scalar_arg(beta, base))
    return mint.add(b, res)


@register("addmm", inplace=True)
def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Any:
    """beta * input + alpha * (mat1 @ mat2)."""
    return _beta_alpha(mm(mat1, mat2), input, beta, alpha)


@register("addmv", inplace=True)
def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Any:
    return _beta_alpha(mv(mat, vec), input, beta, alpha)


@register("addbmm", inplace=True)
def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Any:
    return _beta_alpha(mint.sum(bmm(batch1, batch2), 0), input, beta, alpha)


@register("baddbmm", inplace=True)
def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Any:
    return _beta_alpha(bmm(batch1, batch2), input, beta, alpha)


@register("addr", inplace=True)
def addr(input: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Any:
    return _beta_alpha(outer(vec1, vec2), input, beta, alpha)


@register("chain_matmul", method=False)
def chain_matmul(*matrices: Any, out: Any = None) -> Any:
    res = matrices[0]
    for m in matrices[1:]:
        res = mm(res, m)
    return res


@register("kron")
def kron(input: Any, other: Any, *, out: Any = None) -> Any:
    """Kronecker product (broadcasting multiply of interleaved dims, then reshape)."""
    a, b = input, other
    n = max(len(_shape(a)), len(_shape(b)))
    sa = (1,) * (n - len(_shape(a))) + _shape(a)
    sb = (1,) * (n - len(_shape(b))) + _shape(b)
    a = mint.reshape(a, tuple(v for s in sa for v in (s, 1)))
    b = mint.reshape(b, tuple(v for s in sb for v in (1, s)))
    return mint.reshape(mint.mul(a, b), tuple(x * y for x, y in zip(sa, sb)))


@register("trace")
def trace(input: Any) -> Any:
    """Sum of the main diagonal of a 2-D tensor (ints sum to int64 as in torch)."""
    if len(_shape(input)) != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(len(_shape(input))))
    d = _MsTensor.diagonal(input, 0, 0, 1)
    dt = D.int64 if input.dtype in D.all_int_type or input.dtype == D.bool else input.dtype
    return mint.sum(d, dtype=dt)


@register("cross")
def cross(input: Any, other: Any, dim: Optional[int] = None, *, out: Any = None) -> Any:
    """3-vector cross product along `dim` (default: first dim of size 3, as torch 1.12's torch.cross)."""
    shp = tuple(np.broadcast_shapes(_shape(input), _shape(other)))
    if dim is None:
        dim = next((i for i, s in enumerate(shp) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    d = wrap_dim(dim, len(shp))
    if shp[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {_shape(input)[d]} and "
                           f"{_shape(other)[d]}")
    a, b = mint.broadcast_to(input, shp), mint.broadcast_to(other, shp)

    def c(x: Any, i: int) -> Any:
        return _select(x, d, i)  # narrow + squeeze: MindSpore's select view has no working backward on CPU

    parts = [mint.sub(mint.mul(c(a, 1), c(b, 2)), mint.mul(c(a, 2), c(b, 1))),
             mint.sub(mint.mul(c(a, 2), c(b, 0)), mint.mul(c(a, 0), c(b, 2))),
             mint.sub(mint.mul(c(a, 0), c(b, 1)), mint.mul(c(a, 1), c(b, 0)))]
    return ops.stack(parts, d)


@register("tensordot", method=False)
def tensordot(a: Any, b: Any, dims: Any = 2, out: Any = None) -> Any:
    """Contract the last `dims` dims of a with the first of b (or explicit dim lists)."""
    na, nb = len(_shape(a)), len(_shape(b))
    if isinstance(dims, _MsTensor):
        dims = dims.asnumpy().tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        da, db = list(range(na - dims, na)), list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
    da = [wrap_dim(x, na) for x in da]
    db = [wrap_dim(x, nb) for x in db]
    for x, y in zip(da, db):
        if _shape(a)[x] != _shape(b)[y]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {_shape(a)[x]} in dim {x} "
                               f"and second has size {_shape(b)[y]} in dim {y}")
    fa = [i for i in range(na) if i not in da]
    fb = [i for i in range(nb) if i not in db]
    # explicit sizes, not -1: a size of 0 leaves -1 undetermined
    at = mint.reshape(mint.permute(a, tuple(fa + da)) if na else a, (_size_of(_shape(a), fa), _size_of(_shape(a), da)))
    bt = mint.reshape(mint.permute(b, tuple(db + fb)) if nb else b, (_size_of(_shape(b), db), _size_of(_shape(b), fb)))
    res = matmul_kernel(at, bt)
    return mint.reshape(res, tuple(_shape(a)[i] for i in fa) + tuple(_shape(b)[i] for i in fb))


_SUBSCRIPT_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _sublist_equation(args: Tuple[Any, ...]) -> Tuple[str, Tuple[Any, ...]]:
    """torch's sublist form (operands each followed by a list of subscripts in [0, 52), Ellipsis allowed, and an
    optional output list) as an equation string and the operands."""
    def term(sub: Any) -> str:
        out = []
        for v in sub:
            if v is Ellipsis:
                out.append("...")
            elif isinstance(v, int) and 0 <= v < 52:
                out.append(_SUBSCRIPT_LETTERS[v])
            else:
                raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return "".join(out)

    operands = args[0:len(args) - len(args) % 2:2]
    terms = [term(sub) for sub in args[1::2]]
    eq = ",".join(terms)
    if len(args) % 2:
        eq += "->" + term(args[-1])
    return eq, tuple(operands)


@register("einsum", method=False)
def einsum(equation: str, *operands: Any) -> Any:
    """Einstein summation as torch 1.12 computes it (ATen's Linear.cpp): the operands are aligned to one order of
    labels (the output's, then the contracted ones) and combined left to right. A contracted label that no later
    operand has is summed out with `sum` (integers and bools become int64, as in torch); the others are multiplied
    and contracted with the next operand by `mul`, `dot` or bmm, in the operands' dtype (uint8 wraps around; mixed
    dtypes and bool raise torch's errors). Supports '...' and the implicit output; differentiable."""
    if not isinstance(equation, str):  # the sublist form: einsum(op0, [0, 1], op1, [1, 2], [0, 2])
        equation, operands = _sublist_equation((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    eq = equation.replace(" ", "")
    lhs, _, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the equation")
    # expand '...' into unused letters
    ell_n = 0
    for t, op in zip(terms, operands):
        if "..." in t:
            ell_n = max(ell_n, len(_shape(op)) - (len(t) - 3))
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in eq][:ell_n]
    new_terms = []
    for t, op in zip(terms, operands):
        if "..." in t:
            k = len(_shape(op)) - (len(t) - 3)
            t = t.replace("...", "".join(spare[ell_n - k:]))
        if len(t) != len(_shape(op)):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(t)}) does not match the "
                               f"number of dimensions ({len(_shape(op))}) for operand {len(new_terms)}")
        new_terms.append(t)
    if "->" in eq:
        out = rhs.replace("...", "".join(spare))
    else:
        counts: dict = {}
        for t in new_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        # torch's label order (1.10 on): A-Z before a-z, as sorted() has it
        out = "".join(spare) + "".join(sorted(c for c, v in counts.items() if v == 1 and c not in spare))
    # the label order: the output's, then the contracted ones (an ellipsis' first, then torch's label order)
    used = {c for t in new_terms for c in t}
    for i, c in enumerate(out):
        if c not in used or c in out[:i]:
            raise RuntimeError(f"einsum(): output subscript {c}" + (" appears more than once in the output" if c in used
                               else " does not appear in the equation for any input operand"))
    letters = list(out) + [c for c in spare if c not in out] + sorted(used - set(out) - set(spare))
    aligned = []
    for n, (t, op) in enumerate(zip(new_terms, operands)):
        x = op
        # repeated letters in one term: take the diagonal
        while len(set(t)) != len(t):
            c = next(c for c in t if t.count(c) > 1)
            i, j = t.index(c), t.index(c, t.index(c) + 1)
            if _shape(x)[i] != _shape(x)[j]:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {n} but the sizes don't match, "
                                   f"{_shape(x)[j]} != {_shape(x)[i]}")
            x = _moveaxis_last_to(_MsTensor.diagonal(x, 0, i, j), i)
            t = t[:j] + t[j + 1:]
        perm = sorted(range(len(t)), key=lambda i: letters.index(t[i]))
        x = mint.permute(x, tuple(perm)) if len(t) > 1 else x
        ts = [t[i] for i in perm]
        aligned.append(mint.reshape(x, tuple(_shape(x)[ts.index(c)] if c in ts else 1 for c in letters)))
    shapes = [_shape(x) for x in aligned]
    # per label: its size and the last operand where it is not 1 (0 if only the first's), torch's dim_last_op
    sizes, last = [], []
    for d in range(len(letters)):
        size, k = shapes[0][d], 0
        for i in range(1, len(shapes)):
            s = shapes[i][d]
            if s != size and size != 1 and s != 1:
                raise RuntimeError("einsum(): operands do not broadcast with remapped shapes [original->remapped]:" +
                                   "".join(f" {list(_shape(o))}->{list(r)}" for o, r in zip(operands, shapes)))
            if s != 1:
                size, k = s, i
        sizes.append(size)
        last.append(k)
    n_out = len(out)
    if 0 in sizes:
        # torch 1.12's shortcut: zeros of the output's shape in the first operand's dtype (its result had no autograd
        # history; here the gradients are zeros, as torch 2.x's)
        shape, dt = tuple(sizes[:n_out]), operands[0].dtype
        return _host_op(lambda *xs: ops.zeros(shape, dt), zeros_vjp, *operands)
    sum_ = kernel("sum")
    result = aligned[0]
    dim = n_out  # the position of label d in `result` (contracted labels leave it)
    for d in range(n_out, len(letters)):
        if last[d] == 0:
            result = mint.squeeze(result, dim) if _shape(result)[dim] == 1 else sum_(result, dim)
        else:
            dim += 1
    for i in range(1, len(aligned)):
        operand, sum_dims, dim = aligned[i], [], n_out
        for d in range(n_out, len(letters)):
            if last[d] < i:  # contracted before: size 1 here
                operand = mint.squeeze(operand, dim)
            elif last[d] == i and _shape(result)[dim] == 1:  # not in the result: summed out of this operand alone
                operand, result = sum_(operand, dim), mint.squeeze(result, dim)
            else:
                if last[d] == i:
                    sum_dims.append(dim)
                dim += 1
        if not sum_dims:
            result = kernel("mul")(result, operand)
        elif len(sum_dims) == len(_shape(result)):
            result = dot(mint.reshape(result, (-1,)), mint.reshape(operand, (-1,)))
        else:
            result = _sumproduct_pair(result, operand, sum_dims)
    return result


def _sumproduct_pair(left: Any, right: Any, sum_dims: list) -> Any:
    """(left * right).sum(sum_dims) for operands of one rank (size-1 dims broadcast) as one bmm, as torch's
    sumproduct_pair: dims in both and the output (batch), in one and the output, and the contracted ones."""
    sum_ = kernel("sum")
    lro, lo, ro = [], [], []
    sum_size = 1
    for i in range(len(_shape(left))):
        sl, sr = _shape(left)[i] > 1, _shape(right)[i] > 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= _shape(left)[i]
            elif sl:  # in one operand only: summed right away
                left = sum_(left, i, True)
            elif sr:
                right = sum_(right, i, True)
        elif sl and sr:
            lro.append(i)
        elif sl:
            lo.append(i)
        else:
            ro.append(i)
    ls, rs = _shape(left), _shape(right)
    out_order = lro + lo + sum_dims + ro
    left = mint.reshape(mint.permute(left, tuple(out_order)), (_size_of(ls, lro), _size_of(ls, lo), sum_size))
    right = mint.reshape(mint.permute(right, tuple(lro + sum_dims + ro + lo)),
                         (_size_of(rs, lro), sum_size, _size_of(rs, ro)))
    res = mint.reshape(bmm(left, right), tuple([ls[d] for d in lro + lo] + [1] * len(sum_dims) + [rs[d] for d in ro]))
    res = mint.permute(res, tuple(out_order.index(i) for i in range(len(out_order))))
    return mint.reshape(res, tuple(s for i, s in enumerate(_shape(res)) if i not in sum_dims))


def _size_of(shape: tuple, dims: list) -> int:
    """The number of elements of `shape` over `dims` (1 for none)."""
    return int(np.prod([shape[d] for d in dims], dtype=np.int64))


def _moveaxis_last_to(x: Any, i: int) -> Any:
    n = len(_shape(x))
    perm = list(range(n - 1))
    perm.insert(i, n - 1)
    return mint.permute(x, tuple(perm))


# ------------------------------------------------------------------------------- conversions (methods)
_TYPE_NAMES = {
    "torch.FloatTensor": D.float32, "torch.DoubleTensor": D.float64, "torch.HalfTensor": D.float16,
    "torch.BFloat16Tensor": D.bfloat16, "torch.LongTensor": D.int64, "torch.IntTensor": D.int32,
    "torch.ShortTensor": D.int16, "torch.CharTensor": D.int8, "torch.ByteTensor": D.uint8,
    "torch.BoolTensor": D.bool, "torch.ComplexFloatTensor": D.complex64, "torch.ComplexDoubleTensor": D.complex128,
}


def type_name(dtype: Any, device_type: str = "cpu") -> str:
    """'torch.FloatTensor' for float32 (torch.cuda.FloatTensor on cuda)."""
    prefix = "torch." if device_type == "cpu" else f"torch.{device_type}."
    return f"{prefix}{D.scalar_name(dtype)}Tensor"


def _cast(x: Any, dtype: Any, copy: bool = False) -> Any:
    if dtype is None or dtype == x.dtype:
        return _clone_alias(x, copy)
    # ops.cast, not x.astype: MindSpore's astype calls self.to(), which is this very method on our Tensor.
    return ops.cast(x, dtype)


def _clone_alias(x: Any, copy: bool) -> Any:
    from .shape import clone

    return clone(x) if copy else x


def _with_device(res: Any, dev: Any) -> Any:
    """Record the device on the result (DESIGN.md §2): data does not move. A same-dtype `.to('cuda')` returns
    a view alias (torch returns a new tensor there), so the original keeps reporting its own device."""
    if dev is None:
        return res
    from .._device import as_device, current_device

    dev = as_device(dev)
    cur = res.__dict__.get("_device") if hasattr(res, "__dict__") else None
    cur = cur or current_device()
    if dev.type == cur.type and (dev.index == cur.index or dev.index is None):
        return res
    res = _MsTensor.view(res, _shape(res))
    res.__class__ = _registry_tensor()
    if dev.type == "cuda" and dev.index is None:
        from .._device import device as _dev

        dev = _dev("cuda", 0)
    res._device = dev
    return res


def _registry_tensor() -> Any:
    from . import _registry

    return _registry.Tensor


@register("to", function=False)
def to(self: Any, *args: Any, dtype: Any = None, device: Any = None, non_blocking: bool = False,
       copy: bool = False, memory_format: Any = None) -> Any:
    """to(dtype) / to(device) / to(device, dtype) / to(tensor) / to(other=..): dtype conversions are real,
    the device is recorded (one process = one MindSpore device target)."""
    from .._device import device as _devcls

    for a in args:
        if isinstance(a, D.dtype):
            dtype = a
        elif isinstance(a, (str, _devcls, int)) and not isinstance(a, bool):
            device = a
        elif isinstance(a, _MsTensor):
            dtype = a.dtype
            device = getattr(a, "device", None)
        elif isinstance(a, bool):
            continue  # positional non_blocking: accepted, nothing is asynchronous to the caller here
        elif a is None:
            continue  # to(None) / to(None, dtype): torch's positional device is Optional (`x.to(args.device)`)
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    res = _cast(self, D.to_dtype(dtype), copy)
    return _with_device(res, device)


@register("type", function=False)
def type_(self: Any, dtype: Any = None, non_blocking: bool = False, **kwargs: Any) -> Any:
    """type() -> 'torch.FloatTensor'; type(dtype or 'torch.LongTensor') -> converted tensor."""
    dev = getattr(self, "device", None)
    if dtype is None:
        return type_name(self.dtype, dev.type if dev is not None else "cpu")
    if isinstance(dtype, str):
        key = dtype.replace("torch.cuda.", "torch.")
        if key not in _TYPE_NAMES:
            raise ValueError(f"invalid type: '{dtype}'")
        res = _cast(self, _TYPE_NAMES[key])
        return _with_device(res, "cuda") if dtype.startswith("torch.cuda.") else res
    if isinstance(dtype, type):
        name = getattr(dtype, "_torch_type_name", None) or f"torch.{dtype.__name__}"
        return _cast(self, _TYPE_NAMES.get(name, D.float32))
    return _cast(self, D.to_dtype(dtype))


def _conv(name: str, dtype: Any) -> None:
    def conv(self: Any, memory_format: Any = None) -> Any:
        return _cast(self, dtype)

    conv.__name__ = name
    conv.__doc__ = f"self.to({D.torch_name(dtype)})"
    register(name, function=False)(conv)


for _n, _d in (("float", D.float32), ("double", D.float64), ("half", D.float16), ("bfloat16", D.bfloat16),
               ("int", D.int32), ("long", D.int64), ("short", D.int16), ("char", D.int8), ("byte", D.uint8),
               ("bool", D.bool), ("cfloat", D.complex64), ("cdouble", D.complex128)):
    _conv(_n, _d)


@register("type_as", function=False)
def type_as(self: Any, other: Any) -> Any:
    return _cast(self, other.dtype)


@register("cuda", function=False)
def cuda(self: Any, device: Any = None, non_blocking: bool = False, memory_format: Any = None) -> Any:
    """Accepted and recorded (DESIGN.md §2): reports cuda:N, data stays on this process's device target."""
    from .._device import device as _dev

    return _with_device(self, _dev("cuda", device if isinstance(device, int) else 0) if not isinstance(
        device, (str, _dev)) else device)


@register("cpu", function=False)
def cpu(self: Any, memory_format: Any = None) -> Any:
    return _with_device(self, "cpu")


# ------------------------------------------------------------------------------ torch-level utilities
@register("is_tensor", method=False)
def is_tensor(obj: Any) -> bool:
    return isinstance(obj, _MsTensor)


_STORAGE_PROBE = ms.Tensor([0.0])  # a tensor whose untyped storage's class is_storage recognises


@register("is_storage", method=False)
def is_storage(obj: Any) -> bool:
    """A typed storage (torch.FloatStorage(...)) or a tensor's untyped storage (`t.untyped_storage()`)."""
    from ..storage import TypedStorage

    return isinstance(obj, (TypedStorage, type(ms.Tensor.untyped_storage(_STORAGE_PROBE))))


@register("numel", method=False)
def numel(input: Any) -> int:
    n = 1
    for s in _shape(input):
        n *= s
    return n


@register("is_floating_point", method=False)
def is_floating_point(input: Any) -> bool:
    return input.dtype in D.all_float_type


@register("is_complex", method=False)
def is_complex(input: Any) -> bool:
    return input.dtype in D.all_complex_type


@register("is_nonzero")
def is_nonzero(input: Any) -> bool:
    if numel(input) != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous" if numel(input) else
                           "Boolean value of Tensor with no values is ambiguous")
    return bool(input.asnumpy().reshape(()))


@register("result_type", method=False)
def result_type(tensor1: Any, tensor2: Any) -> Any:
    """torch.result_type of two tensors/numbers (dimensioned > 0-d > Python scalars)."""
    dims, zero, scalars = [], [], []
    for t in (tensor1, tensor2):
        if isinstance(t, _MsTensor):
            (dims if _shape(t) else zero).append(t.dtype)
        else:
            scalars.append(t)
    return D.result_type_of(dims, scalars, zero)


@register("can_cast", method=False)
def can_cast(from_: Any, to: Any) -> bool:
    return D.can_cast(from_, to)


@register("is_same_size")
def is_same_size(input: Any, other: Any) -> bool:
    return _shape(input) == _shape(other)


@register("is_conj")
def is_conj(input: Any) -> bool:
    """mindtorch never uses lazy conjugation: conj() materialises."""
    return False


@register("is_neg")
def is_neg(input: Any) -> bool:
    return False


@register("resolve_conj")
def resolve_conj(input: Any) -> Any:
    return input


@register("resolve_neg")
def resolve_neg(input: Any) -> Any:
    return input


# ---------------------------------------------------------------------------------- smaller torch functions
@register("signbit")
def signbit(input: Any) -> Any:
    """True where the sign bit is set (negative numbers and -0.0)."""
    d = input.dtype
    if d is D.bool or d in (D.uint8, D.uint16, D.uint32, D.uint64):
        return ops.zeros(tuple(input.shape), ms.bool_)
    neg = mint.lt(input, 0)
    if d in D.all_float_type:  # -0.0: equal to 0, but 1 / -0.0 is -inf
        neg = mint.logical_or(neg, mint.logical_and(mint.eq(input, 0), mint.lt(mint.reciprocal(input), 0)))
    return neg


@register("ldexp", inplace=True)
def ldexp(input: Any, other: Any) -> Any:
    """input * 2 ** other, as torch computes it: mul(input, pow(2.0, other)) with torch's type promotion (an int
    input times a float power is float; a float64 0-d `other` makes an integer input float64)."""
    e = other if isinstance(other, _MsTensor) else _MsTensor(other)
    pd = e.dtype if e.dtype in D.all_float_type + D.all_complex_type else D.get_default_dtype()
    return kernel("mul")(input, mint.pow(_MsTensor(2.0, pd), e.astype(pd)))


@register("frexp")
def frexp(input: Any) -> Any:
    """(mantissa, exponent) with input = mantissa * 2 ** exponent and 0.5 <= |mantissa| < 1 (0, inf and NaN keep
    exponent 0). Values are numpy's exact frexp; the mantissa is also input * 2 ** -exponent on the device, so it
    stays differentiable (torch's grad: grad / 2 ** exponent)."""
    if input.dtype not in D.all_float_type:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mant, exp = np.frexp(_np(input))
    exp = exp.astype(np.int32)
    npd = np.float32 if input.dtype == D.bfloat16 else D.to_numpy_dtype(input.dtype)
    # two exact power-of-two factors: 2 ** -exp alone overflows float32 for subnormal inputs (exp down to -148)
    half = exp // 2
    scaled = input
    for e in (half, exp - half):
        scaled = mint.mul(scaled, _MsTensor(np.ldexp(1.0, -e).astype(npd)).astype(input.dtype))
    # CPU kernels may run with denormals-are-zero, turning a subnormal input's product into 0: a constant
    # correction (0 wherever the device product is exact) makes the value numpy's while the gradient stays
    fix = np.where(np.isfinite(mant), mant.astype(npd) - _np(scaled).astype(npd), 0).astype(npd)
    if fix.any():
        scaled = mint.add(scaled, _MsTensor(fix).astype(input.dtype))
    return RT.frexp(scaled, _MsTensor(exp))


@register("positive")
def positive(input: Any) -> Any:
    """input itself (torch returns self); torch refuses bool tensors."""
    if input.dtype is D.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@register("detach", method=False)
def detach(input: Any) -> Any:
    """torch.detach(x): x.detach() (same storage, no autograd history)."""
    return input.detach()


@register("is_signed", method=False)
def is_signed(input: Any) -> bool:
    return input.dtype in D.all_signed_type


def _trapezoid(y: Any, x: Any, dx: Any, dim: int) -> Any:
    d = wrap_dim(dim, y.ndim)
    n = tuple(y.shape)[d]
    if n == 0:
        return ops.sum(y, d)
    hi, lo = ops.narrow(y, d, 1, n - 1), ops.narrow(y, d, 0, n - 1)
    mid = mint.add(hi, lo)
    if x is None:
        return mint.mul(ops.sum(mid, d), scalar_arg((1.0 if dx is None else dx) / 2.0, mid))
    return mint.div(ops.sum(mint.mul(mid, _spacing(x, y.ndim, d, dim, n)), d), 2.0)


def _spacing(x: Any, ndim: int, d: int, dim: int, n: int) -> Any:
    """x[1:] - x[:-1] along the integration dim, shaped to broadcast against y (ndim dims, dim d): a 1-D x along
    that dim, or an x of y's shape (trapezoid, cumulative_trapezoid)."""
    if x.ndim == 1:
        shape = [1] * ndim
        shape[d] = n - 1
        return ops.reshape(mint.sub(ops.narrow(x, 0, 1, n - 1), ops.narrow(x, 0, 0, n - 1)), tuple(shape))
    xd = wrap_dim(dim, x.ndim)
    return mint.sub(ops.narrow(x, xd, 1, n - 1), ops.narrow(x, xd, 0, n - 1))


@register("cumulative_trapezoid", method=False)
def cumulative_trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: int = -1) -> Any:
    """Running trapezoidal integral along dim: one element fewer than y there (differentiable)."""
    if x is not None and not isinstance(x, _MsTensor):  # torch: the spacing is keyword-only (dx=)
        raise TypeError(f"cumulative_trapezoid() received an invalid combination of arguments - got (Tensor, "
                        f"{type(x).__name__}), but expected (Tensor y, Tensor x, *, int dim) or (Tensor y, *, "
                        "Number dx, int dim)")
    d = wrap_dim(dim, y.ndim)
    n = tuple(y.shape)[d]
    if n == 0:
        return y
    mid = mint.add(ops.narrow(y, d, 1, n - 1), ops.narrow(y, d, 0, n - 1))
    if x is None:
        areas = mint.mul(mid, scalar_arg((1.0 if dx is None else dx) / 2.0, mid))
    else:
        areas = mint.div(mint.mul(mid, _spacing(x, y.ndim, d, dim, n)), 2.0)
    return kernel("cumsum")(areas, d)  # this target's cumsum (mint.cumsum has no CPU kernel)


@register("histogram")
def histogram(input: Any, bins: Any, *, range: Any = None, weight: Any = None,  # noqa: A002 - torch's name
              density: bool = False) -> Any:
    """(hist, bin_edges): counts (or weighted sums / densities) of input's elements in `bins` equal-width bins over
    `range` (default: min..max) or between the given edges; float, input's dtype (host numpy, no autograd, as
    torch's histogram has none)."""
    if input.dtype not in (D.float32, D.float64):
        raise RuntimeError(f"torch.histogram: input tensor and bins tensors should have the same dtype, but got "
                           f"input {D.scalar_name(input.dtype)}")
    arr = _np(input).ravel()
    edges = _np(bins) if isinstance(bins, _MsTensor) else int(bins)
    w = None if weight is None else _np(weight).ravel()
    hist, bin_edges = np.histogram(arr, bins=edges, range=range, weights=w, density=density)
    return RT.histogram(_to_ms(hist.astype(arr.dtype), input.dtype), _to_ms(bin_edges.astype(arr.dtype), input.dtype))


@register("trapezoid", method=False)
def trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: int = -1) -> Any:
    """Trapezoidal rule along dim: sample points `x` (1-D, or like y) or a constant spacing `dx` (default 1)."""
    if isinstance(x, (int, float)):  # torch.trapezoid(y, 0.5): a positional spacing
        x, dx = None, x
    return _trapezoid(y, x, dx, dim)


@register("trapz", method=False)
def trapz(y: Any, x: Any = None, *, dx: Any = None, dim: int = -1) -> Any:
    """torch.trapz: the older spelling of trapezoid."""
    return trapezoid(y, x, dx=dx, dim=dim)


@register("combinations", method=False)
def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Any:
    """r-length combinations of a 1-D tensor's elements, as rows (itertools.combinations order)."""
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return ops.zeros((0,), input.dtype)
    n = tuple(input.shape)[0]
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(pick(range(n), r)), np.int64).reshape(-1, r)
    if idx.shape[0] == 0:
        return ops.zeros((0, r), input.dtype)
    return ops.reshape(ops.gather(input, _MsTensor(idx.reshape(-1)), 0), idx.shape)


@register("vander", method=False)
def vander(x: Any, N: Optional[int] = None, increasing: bool = False) -> Any:
    """Vandermonde matrix of a 1-D x: columns x ** (N-1), ..., x ** 0 (or increasing powers)."""
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = tuple(x.shape)[0] if N is None else int(N)
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dt = D.int64 if x.dtype is D.bool or x.dtype in D.all_int_type else x.dtype
    if n == 0:
        return ops.zeros((tuple(x.shape)[0], 0), dt)
    powers = np.arange(n) if increasing else np.arange(n)[::-1].copy()
    base = ops.reshape(x.astype(dt), (-1, 1))
    return mint.pow(base, _MsTensor(powers.astype(np.int64 if dt in D.all_int_type else D.to_numpy_dtype(dt))))


@register("renorm", inplace=True)
def renorm(input: Any, p: float, dim: int, maxnorm: float) -> Any:
    """Each sub-tensor along `dim` whose p-norm exceeds maxnorm is scaled to norm maxnorm."""
    if input.dtype not in D.all_float_type:
        raise RuntimeError(f"renorm: expected a floating point tensor, got {D.torch_name(input.dtype)}")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    d = wrap_dim(dim, input.ndim)
    others = tuple(i for i in range(input.ndim) if i != d)
    p, maxnorm = float(p), scalar_arg(float(maxnorm), input)
    norms = mint.pow(ops.sum(mint.pow(mint.abs(input), scalar_arg(p, input)), others, keepdim=True),
                     scalar_arg(1.0 / p, input))
    factor = mint.where(mint.gt(norms, maxnorm), mint.div(maxnorm, mint.add(norms, scalar_arg(1e-7, norms))),
                        ops.ones_like(norms))
    return mint.mul(input, factor)


# ------------------------------------------------------------------------------------- 1.12 API gaps
histogramdd_t = RT._make("histogramdd", ("hist", "bin_edges"))


@register("fill", method=False)
def fill(input: Any, value: Any) -> Any:
    """A new tensor shaped and typed like `input`, every element `value` (a number or a 0-d tensor)."""
    if isinstance(value, ms.Tensor):
        if value.ndim:
            raise RuntimeError(f"fill only supports 0-dimension value tensor but got tensor with {value.ndim} "
                               "dimensions.")
        value = value.asnumpy().item()
    return ops.fill(input.dtype, tuple(input.shape), value) if input.dtype != ms.bool_ else ops.full(
        tuple(input.shape), bool(value), dtype=ms.bool_)


def _slice_along(x: Any, dim: int, start: int, stop: Any) -> Any:
    idx = [slice(None)] * x.ndim
    idx[dim] = slice(start, stop)
    return x[tuple(idx)]


def _gradient_dim(f: Any, dim: int, h: Any, edge_order: int) -> Any:
    """numpy.gradient's second-order central differences along `dim` (uniform step h: a number; or coordinates h:
    a 1-D tensor), first/second-order one-sided differences at the edges."""
    n = f.shape[dim]
    if n < edge_order + 1:
        raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    s = lambda a, b: _slice_along(f, dim, a, b)  # noqa: E731
    shape = [1] * f.ndim
    shape[dim] = -1
    if not isinstance(h, ms.Tensor):
        h = float(h)
        interior = ops.div(ops.sub(s(2, None), s(0, -2)), 2.0 * h)
        if edge_order == 1:
            first = ops.div(ops.sub(s(1, 2), s(0, 1)), h)
            last = ops.div(ops.sub(s(n - 1, n), s(n - 2, n - 1)), h)
        else:
            first = ops.div(ops.add(ops.add(ops.mul(s(0, 1), -1.5), ops.mul(s(1, 2), 2.0)), ops.mul(s(2, 3), -0.5)), h)
            last = ops.div(ops.add(ops.add(ops.mul(s(n - 3, n - 2), 0.5), ops.mul(s(n - 2, n - 1), -2.0)),
                                   ops.mul(s(n - 1, n), 1.5)), h)
        return ops.cat((first, interior, last), dim)
    x = ops.cast(h, f.dtype)
    dx = ops.sub(x[1:], x[:-1])
    dx1, dx2 = ops.reshape(dx[:-1], tuple(shape)), ops.reshape(dx[1:], tuple(shape))
    a = ops.div(ops.neg(dx2), ops.mul(dx1, ops.add(dx1, dx2)))
    b = ops.div(ops.sub(dx2, dx1), ops.mul(dx1, dx2))
    c = ops.div(dx1, ops.mul(dx2, ops.add(dx1, dx2)))
    interior = ops.add(ops.add(ops.mul(a, s(0, -2)), ops.mul(b, s(1, -1))), ops.mul(c, s(2, None)))
    d = [float(v) for v in dx.asnumpy()]
    if edge_order == 1:
        first = ops.div(ops.sub(s(1, 2), s(0, 1)), d[0])
        last = ops.div(ops.sub(s(n - 1, n), s(n - 2, n - 1)), d[-1])
    else:
        d1, d2 = d[0], d[1]
        a0, b0, c0 = -(2. * d1 + d2) / (d1 * (d1 + d2)), (d1 + d2) / (d1 * d2), -d1 / (d2 * (d1 + d2))
        first = ops.add(ops.add(ops.mul(s(0, 1), a0), ops.mul(s(1, 2), b0)), ops.mul(s(2, 3), c0))
        d1, d2 = d[-2], d[-1]
        a1, b1, c1 = d2 / (d1 * (d1 + d2)), -(d2 + d1) / (d1 * d2), (2. * d2 + d1) / (d2 * (d1 + d2))
        last = ops.add(ops.add(ops.mul(s(n - 3, n - 2), a1), ops.mul(s(n - 2, n - 1), b1)), ops.mul(s(n - 1, n), c1))
    return ops.cat((first, interior, last), dim)


@register("gradient", method=False)
def gradient(input: Any, *, spacing: Any = 1, dim: Any = None, edge_order: int = 1) -> Any:
    """Tuple of the derivative estimates of `input` along each of `dim` (all dims by default), as numpy.gradient:
    spacing a number (one step for every dim), a list of numbers (one per dim) or a list of 1-D coordinate
    tensors. Integer input gives floating results. Differentiable."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(range(input.ndim)) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    dims = [wrap_dim(d, input.ndim) for d in dims]
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                               f"arguments to have the same length, but got a spacing argument of length "
                               f"{len(spacing)} and a dim argument of length {len(dims)}.")
        steps = list(spacing)
    else:
        steps = [spacing] * len(dims)
    f = input if input.dtype in D.all_float_type or input.dtype in D.all_complex_type else ops.cast(
        input, D.get_default_dtype())
    return tuple(_gradient_dim(f, d, h.asnumpy().item() if isinstance(h, ms.Tensor) and h.ndim == 0 else h,
                               edge_order) for d, h in zip(dims, steps))


@register("histogramdd", method=False)
def histogramdd(input: Any, bins: Any = 10, range: Any = None, weight: Any = None, density: bool = False,
                out: Any = None) -> Any:
    """Histogram of the points input (..., D) in D dims -> (hist (b_1, ..., b_D), bin_edges: D 1-D tensors);
    bins an int, D ints or D edge tensors (host numpy, no autograd)."""
    x = input.asnumpy()
    d = x.shape[-1]
    pts = x.reshape(-1, d).astype(np.float64)
    if isinstance(bins, ms.Tensor):
        bins = bins.asnumpy().tolist()
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], ms.Tensor):
        bins = [b.asnumpy().astype(np.float64) for b in bins]
    rng = None
    if range is not None:
        rng = [(float(range[2 * i]), float(range[2 * i + 1])) for i in builtins.range(d)]
    w = weight.asnumpy().reshape(-1).astype(np.float64) if weight is not None else None
    hist, edges = np.histogramdd(pts, bins=bins, range=rng, weights=w, density=density)
    dt = input.dtype
    from .creation import np_to_ms

    return histogramdd_t(np_to_ms(hist, dt), tuple(np_to_ms(e, dt) for e in edges))


@register("get_device", method=False)
def get_device(input: Any) -> int:
    """-1 for a CPU tensor (torch's answer); the device index on an accelerator target."""
    return input.get_device()


@register("is_inference")
def is_inference(input: Any) -> bool:
    """Whether `input` was created in inference mode. mindtorch's inference_mode is no_grad (its tensors are
    ordinary tensors that may be used in autograd later), so no tensor is an inference tensor: False."""
    return False


@register("is_distributed")
def is_distributed(input: Any) -> bool:
    """torch 1.12's legacy query: always False for a dense tensor."""
    return False


@register("conj_physical", inplace=True)
def conj_physical(input: Any) -> Any:
    """The conjugate, materialised (a copy for real input: torch returns the input itself there)."""
    if input.dtype in D.all_complex_type:
        return ops.conj(input)
    return input


@register("narrow_copy")
def narrow_copy(input: Any, dim: int, start: int, length: int) -> Any:
    """narrow(...) as a new tensor with its own storage."""
    view = kernel("narrow")(input, dim, start, length)
    return ops.add(view, 0) if input.dtype != ms.bool_ else ops.logical_and(view, True)


# Tensor-only queries of torch 1.12 for dense tensors
@register("dense_dim", function=False)
def dense_dim(input: Any) -> int:
    """Number of dense dims: every dim of a dense (strided) tensor."""
    return input.ndim


@register("sparse_dim", function=False)
def sparse_dim(input: Any) -> int:
    """Number of sparse dims: 0 for a dense tensor."""
    return 0


@register("is_set_to", function=False)
def is_set_to(input: Any, tensor: Any) -> bool:
    """True when both tensors view the same storage with the same offset, sizes and strides."""
    if input is tensor:
        return True
    same = (tuple(input.shape) == tuple(tensor.shape) and input.dtype == tensor.dtype
            and tuple(input.stride()) == tuple(tensor.stride()) and input.storage_offset() == tensor.storage_offset())
    return same and ms.Tensor.untyped_storage(input).data_ptr() == ms.Tensor.untyped_storage(tensor).data_ptr()


@register("storage_type", function=False)
def storage_type(input: Any) -> type:
    """The legacy storage class of the tensor's dtype (torch.FloatStorage for float32, ...)."""
    from ..storage import legacy_class

    return legacy_class(input.dtype)


@register("as_subclass", function=False)
def as_subclass(input: Any, cls: type) -> Any:
    """The same data (shared, with the autograd history) viewed as an instance of the Tensor subclass `cls`."""
    from .._tensor import Tensor

    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"as_subclass: expected a subclass of torch.Tensor, got {cls!r}")
    out = ms.ops.reshape(input, tuple(input.shape))  # a view: shares storage and the graph
    out.__class__ = cls
    return out


@register("detach_", method=False)
def detach_(input: Any) -> Any:
    """torch.detach_(x): x.detach_()."""
    return input.detach_()
