"""torch.sparse: products, reductions and softmax of sparse COO tensors, and the legacy sparse constructors.

The tensors are `SparseCOOTensor`s (see _sparse_tensor.py): their data is the dense value, so `mm`/`addmm` are the
dense products (differentiable w.r.t. the values and the dense operand); `sum`, `softmax` and `log_softmax` work
on the coalesced values and return sparse tensors as torch does.
"""
from __future__ import annotations

from typing import Any, Sequence

import mindspore as ms
import numpy as np

from . import _dtype as D
from ._legacy_tensor_types import TYPE_DTYPES
from ._ops._args import shape_args, wrap_dim
from ._sparse_tensor import (
    SparseCOOTensor,
    _flat_keys,
    _gather_rows,
    _host,
    _op,
    _segment_sum,
    make_sparse,
    sparse_coo_tensor,
    spmm,
)
from ._tensor import from_numpy_array

__all__ = ["addmm", "mm", "sum", "softmax", "log_softmax"]


def mm(mat1: Any, mat2: Any) -> Any:
    """sparse @ dense -> dense; sparse @ sparse -> sparse (coalesced). Gradients reach both operands."""
    return spmm(mat1, mat2)


def addmm(mat: Any, mat1: Any, mat2: Any, *, beta: float = 1.0, alpha: float = 1.0) -> Any:
    """beta * mat + alpha * (mat1 @ mat2), mat1 sparse, mat and mat2 dense: a dense tensor."""
    return _op("addmm")(mat, mat1, mat2, beta=beta, alpha=alpha)


def _require_sparse(input: Any, op: str) -> SparseCOOTensor:
    if not isinstance(input, SparseCOOTensor):
        raise NotImplementedError(f"Could not run 'aten::{op}' with arguments from the 'CPU' backend. "
                                  f"'aten::{op}' is only available for sparse tensors.")
    return input


def sum(input: Any, dim: Any = None, dtype: Any = None) -> Any:  # noqa: A001 - torch's name
    """Sum of the specified entries: over everything (a 0-d dense tensor), or over `dim` (an int or a sequence):
    a sparse tensor of the remaining dims (coalesced), or a dense tensor when every sparse dim is reduced."""
    x = _require_sparse(input, "_sparse_sum")
    values = x.__dict__["_sp_values"]
    if dtype is not None:
        values = values.to(dtype)
    if dim is None:
        return values.sum()
    n, sd = x.dim(), x.sparse_dim()
    dims = sorted({wrap_dim(d, n) for d in (dim if isinstance(dim, Sequence) else (dim,))})
    dense_dims = [d - sd + 1 for d in dims if d >= sd]
    if dense_dims:  # the dtype is kept (torch sums the values block-wise)
        values = values.sum(dense_dims, dtype=values.dtype)
    kept = [d for d in range(sd) if d not in dims]
    if not kept:
        return values.sum(0, dtype=values.dtype)
    idx = _host(x._indices())[kept]
    uniq, first, inverse = np.unique(_flat_keys(idx, [x.shape[d] for d in kept]), return_index=True,
                                     return_inverse=True)
    size = [x.shape[d] for d in kept] + [x.shape[d] for d in range(sd, n) if d not in dims]
    return make_sparse(idx[:, first], _segment_sum(values, inverse.reshape(-1), len(uniq)), size, True, x)


def _softmax(input: Any, dim: int, dtype: Any, log: bool) -> SparseCOOTensor:
    """Softmax over the specified entries along `dim` (unspecified entries count as -inf, not 0), on the coalesced
    tensor: a sparse tensor with its pattern."""
    name = "log_softmax" if log else "softmax"
    x = _require_sparse(input, f"_sparse_{name}")
    if dtype is not None:
        x = x.to(dtype)
    if x.dtype not in D.all_float_type:
        raise NotImplementedError(f'"{name}" not implemented for \'{D.scalar_name(x.dtype)}\'')
    x = x.coalesce()
    n, sd = x.dim(), x.sparse_dim()
    dim = wrap_dim(dim, n)
    values = x.__dict__["_sp_values"]
    idx = _host(x._indices())
    if dim >= sd:  # along a dense dim: each entry's block on its own
        return make_sparse(idx, _op(name)(values, dim - sd + 1), x.shape, True, x)
    rest = [d for d in range(sd) if d != dim]
    uniq, inverse = np.unique(_flat_keys(idx[rest], [x.shape[d] for d in rest]), return_inverse=True)
    inverse = inverse.reshape(-1)
    # the per-group maximum, a constant shift (softmax does not depend on it): computed on the host
    host = _host(values.float() if values.dtype == D.bfloat16 else values)
    top = np.full((len(uniq),) + host.shape[1:], -np.inf, host.dtype)
    np.maximum.at(top, inverse, host)
    shifted = values - from_numpy_array(top[inverse]).to(values.dtype)
    total = _gather_rows(_segment_sum(shifted.exp(), inverse, len(uniq)), inverse)
    out = shifted - total.log() if log else shifted.exp() / total
    return make_sparse(idx, out, x.shape, True, x)


def softmax(input: Any, dim: int, dtype: Any = None) -> SparseCOOTensor:
    return _softmax(input, dim, dtype, False)


def log_softmax(input: Any, dim: int, dtype: Any = None) -> SparseCOOTensor:
    return _softmax(input, dim, dtype, True)


# --------------------------------------------------------------------------------- legacy constructors
class _SparseTypeMeta(type):
    """torch.sparse.FloatTensor & co: `(indices, values[, size])` builds a sparse tensor (the values keep their
    dtype, as torch), `(*sizes)` an empty one; isinstance checks layout and dtype."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, SparseCOOTensor) and obj.dtype == cls._dtype

    def __call__(cls, *args: Any, device: Any = None) -> SparseCOOTensor:
        if args and isinstance(args[0], ms.Tensor):
            if len(args) not in (2, 3):
                raise TypeError(f"{cls.__name__}(): expected (indices, values) or (indices, values, size)")
            if args[0].dtype != D.int64:
                raise RuntimeError("indices must be an int64 tensor")
            return sparse_coo_tensor(*args, device=device)
        size = shape_args(args) if args else (0,)
        values = _op("zeros")((0,), dtype=cls._dtype)
        out = make_sparse(np.zeros((len(size), 0), np.int64), values, size, False)
        return out if device is None else out.to(device)


def _make(name: str, dtype: Any) -> type:
    return _SparseTypeMeta(name, (), {"_dtype": dtype, "__module__": "torch.sparse", "dtype": dtype,
                                      "is_sparse": True})


FloatTensor, DoubleTensor, HalfTensor, BFloat16Tensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, \
    BoolTensor = (_make(name, dtype) for name, dtype in TYPE_DTYPES.items())


def __getattr__(name: str) -> Any:
    from ._unsupported import unsupported

    raise unsupported("sparse", name)
