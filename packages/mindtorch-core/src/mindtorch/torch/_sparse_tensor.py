"""Sparse COO tensors (torch.sparse_coo): `SparseCOOTensor`, a Tensor whose data is its DENSE value.

MindSpore's own COOTensor is not a `mindspore.Tensor`, so it cannot pass through the op table. A sparse tensor here
is a `Tensor` subclass instead: its storage holds the dense value (duplicate entries summed), built from `values`
by a differentiable scatter-add, so

- every op that does not know about sparsity (`torch.mm(A, X)`, `A @ X`, `A.sum()`, ...) computes torch's numbers,
  and returns a plain dense Tensor;
- gradients reach the `values` a sparse tensor was built from (GAT-style attention on edges:
  `torch.sparse.mm(torch.sparse_coo_tensor(i, v), X).sum().backward()` fills `v.grad` as torch does).

Next to the data it keeps torch's COO parts as given: `_indices()` (sparse_dim x nnz, int64), `_values()`
(nnz x dense dims) and the coalesced flag. The sparse-aware methods (coalesce, transpose, +, *, to/type, ...)
work on those parts and return sparse tensors, as torch does. Limits: memory is that of the dense value (a
graph of n nodes costs an n x n matrix); an op outside this module returns a dense tensor where torch returns a
sparse one (the values are the same); in-place ops other than add_/sub_/mul_/div_/neg_/zero_ raise
NotImplementedError rather than leave the parts out of date. torch.save refuses a sparse tensor (naming the way
out: save its indices, values and size).
"""
from __future__ import annotations

import copy
from typing import Any, List, Optional, Sequence, Tuple

import mindspore as ms
import numpy as np

from . import _dtype as D
from ._ops import _registry
from ._ops._args import shape_args, wrap_dim
from ._tensor import Tensor, from_numpy_array

_MsTensor = ms.Tensor
_wrap = _registry.wrap


def _op(name: str) -> Any:
    """The op table's dispatcher for torch function `name` (the dense implementation)."""
    return _registry._DISPATCHERS[name]


def _host(t: Any) -> np.ndarray:
    return _MsTensor.asnumpy(t)


def _index_tensor(idx: np.ndarray) -> Tensor:
    return from_numpy_array(np.ascontiguousarray(idx, dtype=np.int64))


def _size_str(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def _flat_keys(idx: np.ndarray, sizes: Sequence[int]) -> np.ndarray:
    """Row-major linear index of each column of `idx` (sparse_dim x nnz): its order is the lexicographic order of
    the index tuples, as torch's coalesce sorts them."""
    if idx.shape[0] == 0:
        return np.zeros(idx.shape[1], np.int64)
    return np.ravel_multi_index(tuple(idx), tuple(sizes)).astype(np.int64, copy=False)


def _segment_sum(values: Any, segments: np.ndarray, n: int) -> Tensor:
    """Rows of `values` summed per segment id (differentiable w.r.t. values)."""
    if n == 0:  # (the kernel refuses 0 segments)
        return _op("zeros")((0,) + tuple(values.shape[1:]), dtype=values.dtype)
    if values.dtype == D.bool:  # no bool kernel: sum as int, any nonzero -> True
        return _segment_sum(values.int(), segments, n).bool()
    return _wrap(ms.ops.unsorted_segment_sum(values, _MsTensor(segments.astype(np.int64)), n))


def _gather_rows(values: Any, rows: np.ndarray) -> Tensor:
    return _op("index_select")(values, 0, _index_tensor(rows))


class SparseCOOTensor(Tensor):
    """A torch.sparse_coo tensor (see the module docstring). Made by `torch.sparse_coo_tensor`,
    `Tensor.to_sparse()`, the legacy `torch.sparse.FloatTensor(indices, values, size)` and the sparse ops; its
    `type()` is 'torch.sparse.FloatTensor' and `layout` is torch.sparse_coo."""

    # ------------------------------------------------------------------------------------ metadata
    @property
    def is_sparse(self) -> bool:
        return True

    @property
    def layout(self) -> Any:
        from ._settings import sparse_coo

        return sparse_coo

    def _nnz(self) -> int:
        return int(self.__dict__["_sp_indices"].shape[1])

    def sparse_dim(self) -> int:
        return int(self.__dict__["_sp_indices"].shape[0])

    def dense_dim(self) -> int:
        return self.dim() - self.sparse_dim()

    def is_coalesced(self) -> bool:
        return bool(self.__dict__["_sp_coalesced"])

    def _indices(self) -> Tensor:
        return self.__dict__["_sp_indices"]

    def _values(self) -> Tensor:
        """The values as stored, outside autograd (torch's `_values()` does not track gradients)."""
        return _with_device_of(self.__dict__["_sp_values"].detach(), self)

    def indices(self) -> Tensor:
        if not self.is_coalesced():
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self.__dict__["_sp_indices"]

    def values(self) -> Tensor:
        """The values of a coalesced tensor, differentiable (gradients reach what they were computed from)."""
        if not self.is_coalesced():
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
        return self.__dict__["_sp_values"]

    def type(self, dtype: Any = None, non_blocking: bool = False, **kwargs: Any) -> Any:  # type: ignore[override]
        if dtype is None:
            return "torch.sparse." + D.scalar_name(self.dtype) + "Tensor"
        return self._map_values(lambda v: v.type(dtype, non_blocking, **kwargs))

    # ------------------------------------------------------------------------------ conversions
    def coalesce(self) -> "SparseCOOTensor":
        """Duplicates summed, indices sorted (a new tensor; self when already coalesced, as torch)."""
        if self.is_coalesced():
            return self
        idx, values = _host(self._indices()), self.__dict__["_sp_values"]
        if idx.shape[1] < 2:
            return make_sparse(idx.copy(), values.clone(), self.shape, True, self)
        uniq, first, inverse = np.unique(_flat_keys(idx, self.shape[:idx.shape[0]]), return_index=True,
                                         return_inverse=True)
        values = _segment_sum(values, inverse.reshape(-1), len(uniq))
        return make_sparse(idx[:, first], values, self.shape, True, self)

    def to_dense(self, dtype: Any = None) -> Tensor:
        """The dense tensor (a copy; differentiable w.r.t. the values)."""
        if dtype is not None:
            raise RuntimeError("dtype argument is not supported by sparse_to_dense")
        if self.dtype == D.float16:  # torch 1.12's CPU kernel (2.x added it)
            raise RuntimeError("to_dense() not supported for float16 on CPU")
        return Tensor.clone(self)

    def to_sparse(self, sparse_dim: Optional[int] = None) -> "SparseCOOTensor":
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError("to_sparse: conversion from Sparse to Sparse with sparse_dim argument "
                               "!=self.sparse_dim() is not supported")
        return self

    def detach(self) -> "SparseCOOTensor":
        # the dense data aliased outside the graph (no rebuild), with detached values
        out = ms.ops.stop_gradient(self)
        return _attach(out, self._indices(), self.__dict__["_sp_values"].detach(), self.is_coalesced(), self)

    @property
    def data(self) -> "SparseCOOTensor":  # type: ignore[override]
        return self.detach()

    @data.setter
    def data(self, value: Any) -> None:
        raise NotImplementedError("assigning .data of a sparse tensor is not supported by mindtorch")

    @property
    def grad(self) -> Any:  # type: ignore[override]
        """A leaf's gradient, sparse on the leaf's coalesced pattern (as torch's sparse.mm, to_dense and
        sparse.sum give it; torch.mm(sparse_leaf, dense) gives torch a dense gradient, here masked too)."""
        g = Tensor.grad.fget(self)
        if g is None or not self._is_leaf or isinstance(g, SparseCOOTensor):
            return g
        return _mask(g, _coalesced_indices(self))

    @grad.setter
    def grad(self, value: Any) -> None:
        Tensor.grad.fset(self, value)

    def requires_grad_(self, requires_grad: bool = True) -> "SparseCOOTensor":
        """On a leaf, the gradient accumulates on the dense data: the values are then tied to it (their own value
        plus a zero term carrying the data's gradient, shared among duplicates), so ops working on the values
        (coalesce, torch.sparse.sum/softmax, +, *) reach the leaf's gradient too."""
        Tensor.requires_grad_(self, requires_grad)
        if self._is_leaf:
            values = self.__dict__["_sp_values"].detach()
            if requires_grad:
                idx, sd = _host(self._indices()), self.sparse_dim()
                keys = _flat_keys(idx, self.shape[:sd])
                at = _gather_rows(Tensor.reshape(self, (-1,) + tuple(self.shape[sd:])), keys)
                if not self.is_coalesced():  # duplicates: each holds its share of the position's gradient
                    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
                    share = (1.0 / counts[inverse.reshape(-1)]).reshape((-1,) + (1,) * (self.dim() - sd))
                    at = at * from_numpy_array(share).to(self.dtype)
                values = values + (at - at.detach())
            self.__dict__["_sp_values"] = _with_device_of(values, self)
        return self

    def clone(self, *, memory_format: Any = None) -> "SparseCOOTensor":
        return make_sparse(_host(self._indices()), self.__dict__["_sp_values"].clone(), self.shape,
                           self.is_coalesced(), self)

    def _map_values(self, fn: Any, coalesce: bool = False) -> "SparseCOOTensor":
        """`fn` applied to the values, indices kept: linear maps (casts, scaling, neg, moving) on the values as
        stored, the others (abs, sqrt, pow, ...) on the coalesced values, as torch."""
        src = self.coalesce() if coalesce else self
        values = src.__dict__["_sp_values"]
        new = fn(values)
        if new is values:
            return src
        return make_sparse(_host(src._indices()), new, src.shape, src.is_coalesced(), new)

    def to(self, *args: Any, **kwargs: Any) -> "SparseCOOTensor":  # type: ignore[override]
        return self._map_values(lambda v: v.to(*args, **kwargs))

    def cuda(self, device: Any = None, non_blocking: bool = False, memory_format: Any = None) -> "SparseCOOTensor":
        return self._map_values(lambda v: v.cuda(device, non_blocking))

    def cpu(self, memory_format: Any = None) -> "SparseCOOTensor":
        return self._map_values(lambda v: v.cpu())

    def type_as(self, other: Any) -> "SparseCOOTensor":
        return self._map_values(lambda v: v.type_as(other))

    # -------------------------------------------------------------------------------- shape
    def transpose(self, dim0: int, dim1: int) -> Any:  # type: ignore[override]
        """Two sparse dims: their index rows swapped (a sparse tensor, marked uncoalesced as torch); two dense
        dims: the values transposed; one of each: the dense tensor transposed."""
        n, sd = self.dim(), self.sparse_dim()
        d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
        size = list(self.shape)
        size[d0], size[d1] = size[d1], size[d0]
        if d0 < sd and d1 < sd:
            idx = _host(self._indices()).copy()
            idx[[d0, d1]] = idx[[d1, d0]]
            return make_sparse(idx, self.__dict__["_sp_values"], size, d0 == d1 and self.is_coalesced(), self)
        if d0 >= sd and d1 >= sd:
            values = self.__dict__["_sp_values"].transpose(d0 - sd + 1, d1 - sd + 1)
            return make_sparse(_host(self._indices()), values, size, self.is_coalesced(), self)
        return Tensor.transpose(self, d0, d1)

    swapaxes = swapdims = transpose

    def t(self) -> Any:  # type: ignore[override]
        return self if self.dim() < 2 else self.transpose(0, 1)

    # ---------------------------------------------------------------------------- arithmetic
    def add(self, other: Any, *, alpha: Any = 1) -> "SparseCOOTensor":  # type: ignore[override]
        if not isinstance(other, SparseCOOTensor):
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
        return _add_sparse(self, other, alpha)

    __add__ = add

    def __radd__(self, other: Any) -> Any:
        # Python tries a subclass's reflected operator first: dense + sparse is torch's add(dense, sparse), dense
        if isinstance(other, _MsTensor):
            return Tensor.__add__(other, self)
        return self.add(other)

    def sub(self, other: Any, *, alpha: Any = 1) -> "SparseCOOTensor":  # type: ignore[override]
        if not isinstance(other, SparseCOOTensor):
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
        return _add_sparse(self, other, -alpha)

    __sub__ = subtract = sub

    def mul(self, other: Any) -> Any:  # type: ignore[override]
        """By a number or 0-d tensor: the values scaled; by a sparse tensor: the product on the common pattern;
        by a dense tensor of the same shape: the values times its entries at the indices."""
        if isinstance(other, SparseCOOTensor):
            return _mul_sparse(self, other)
        if not isinstance(other, _MsTensor) or other.ndim == 0:
            return self._map_values(lambda v: v * other)
        if tuple(other.shape) == tuple(self.shape):
            at = _op("index_select")(other.reshape((-1,) + tuple(self.shape[self.sparse_dim():])), 0,
                                     _index_tensor(_flat_keys(_host(self._indices()), self.shape[:self.sparse_dim()])))
            return self._map_values(lambda v: v * at)
        return Tensor.mul(self, other)

    __mul__ = __rmul__ = multiply = mul

    def div(self, other: Any, *, rounding_mode: Optional[str] = None) -> "SparseCOOTensor":  # type: ignore[override]
        if isinstance(other, _MsTensor) and other.ndim != 0:
            raise RuntimeError("Sparse division requires a scalar or zero-dim dense tensor divisor (got shape "
                               f"{_size_str(other.shape)} for divisor)")
        return self._map_values(lambda v: v.div(other, rounding_mode=rounding_mode), rounding_mode is not None)

    __truediv__ = divide = true_divide = div

    def neg(self) -> "SparseCOOTensor":  # type: ignore[override]
        return self._map_values(lambda v: v.neg())

    __neg__ = negative = neg

    def pow(self, exponent: Any) -> Any:  # type: ignore[override]
        if isinstance(exponent, _MsTensor) and exponent.ndim != 0:
            return Tensor.pow(self, exponent)
        return self._map_values(lambda v: v.pow(exponent), True)

    __pow__ = pow

    def mm(self, mat2: Any) -> Any:  # type: ignore[override]
        return spmm(self, mat2)

    def matmul(self, other: Any) -> Any:  # type: ignore[override]
        return spmm(self, other) if isinstance(other, SparseCOOTensor) else Tensor.matmul(self, other)

    __matmul__ = matmul

    # ------------------------------------------------------------------------------ in place
    def _assign(self, new: "SparseCOOTensor") -> "SparseCOOTensor":
        """Make self the sparse tensor `new` in place (cast to self's dtype): the dense data is written back
        (torch's in-place rules, autograd included), the parts are replaced."""
        if new.dtype != self.dtype:
            if not D.can_cast(new.dtype, self.dtype):
                raise RuntimeError(f"result type {D.scalar_name(new.dtype)} can't be cast to the desired output "
                                   f"type {D.scalar_name(self.dtype)}")
            new = new.to(self.dtype)
        _registry.write_back(self, new)
        self.__dict__.update(_sp_indices=new._indices(), _sp_values=new.__dict__["_sp_values"],
                             _sp_coalesced=new.is_coalesced())
        return self

    def add_(self, other: Any, *, alpha: Any = 1) -> "SparseCOOTensor":  # type: ignore[override]
        return self._assign(self.add(other, alpha=alpha))

    def sub_(self, other: Any, *, alpha: Any = 1) -> "SparseCOOTensor":  # type: ignore[override]
        return self._assign(self.sub(other, alpha=alpha))

    def mul_(self, other: Any) -> "SparseCOOTensor":  # type: ignore[override]
        res = self.mul(other)
        if not isinstance(res, SparseCOOTensor):
            raise RuntimeError("mul_: a sparse tensor can only be multiplied in place by a number, a 0-d tensor, a "
                               "sparse tensor or a dense tensor of its shape")
        return self._assign(res)

    def div_(self, other: Any, *, rounding_mode: Optional[str] = None) -> "SparseCOOTensor":  # type: ignore[override]
        return self._assign(self.div(other, rounding_mode=rounding_mode))

    def neg_(self) -> "SparseCOOTensor":  # type: ignore[override]
        return self._assign(self.neg())

    def zero_(self) -> "SparseCOOTensor":  # type: ignore[override]
        """No specified entries left (nnz 0), as torch."""
        sd = self.sparse_dim()
        values = _op("zeros")((0,) + tuple(self.shape[sd:]), dtype=self.dtype)
        return self._assign(make_sparse(np.zeros((sd, 0), np.int64), values, self.shape, True))

    __iadd__, __isub__, __imul__, __itruediv__ = add_, sub_, mul_, div_

    # ------------------------------------------------------------------------------ python protocols
    def __repr__(self) -> str:
        return sparse_repr(self)

    __str__ = __repr__

    def __reduce_ex__(self, proto: int):
        # plain pickling (deepcopy fallbacks, multiprocessing): rebuilt from numpy copies of the parts
        return (_rebuild_sparse, (_host(self._indices()), _host(self._values()), tuple(self.shape),
                                  self.is_coalesced(), self.requires_grad))

    def __deepcopy__(self, memo: dict) -> "SparseCOOTensor":
        if not self._is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment")
        if id(self) in memo:
            return memo[id(self)]
        new = make_sparse(_host(self._indices()), self._values().clone(), self.shape, self.is_coalesced(), self)
        if self.requires_grad:
            new.requires_grad_(True)
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if not key.startswith(("_mt_", "_sp_")) and key != "_device":
                new.__dict__[key] = copy.deepcopy(value, memo)
        return new


def _unsupported_inplace(name: str) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"torch.Tensor.{name} on a sparse COO tensor is not supported by mindtorch (only "
                                  "add_, sub_, mul_, div_, neg_ and zero_ are)")

    method.__name__ = name
    return method


# Every other in-place method of the op table would write the dense data and leave indices/values stale: refused.
for _name, _entry in _registry.TABLE.items():
    if _entry.method and (_entry.inplace_of is not None or _name == "__setitem__") and _name not in vars(
            SparseCOOTensor):
        setattr(SparseCOOTensor, _name, _unsupported_inplace(_name))

# Element-wise functions with f(0) = 0 keep the sparsity (torch's sparse kernels): applied to the coalesced values.
for _name in ("abs", "absolute", "sqrt", "sin", "tan", "tanh", "asin", "arcsin", "atan", "arctan", "sinh", "asinh",
              "arcsinh", "atanh", "arctanh", "expm1", "log1p", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac",
              "square", "relu", "erf", "erfinv", "deg2rad", "rad2deg", "nan_to_num"):
    setattr(SparseCOOTensor, _name, (lambda n: lambda self, *a, **k: self._map_values(
        lambda v: getattr(v, n)(*a, **k), True))(_name))
SparseCOOTensor.__abs__ = SparseCOOTensor.abs
# dtype conversions: the values cast as stored (torch keeps the coalesced flag)
for _name in ("float", "double", "half", "bfloat16", "int", "long", "short", "char", "byte", "bool", "cfloat",
              "cdouble"):
    setattr(SparseCOOTensor, _name, (lambda n: lambda self, *a, **k: self._map_values(
        lambda v: getattr(v, n)(*a, **k)))(_name))


# ------------------------------------------------------------------------------------------ construction
def _with_device_of(t: Any, like: Any) -> Any:
    """`t` recording the device `like` records (DESIGN.md §2: the device is bookkeeping), so a sparse tensor and its
    values move together (`cpu()`, `to('cuda')`)."""
    dev = like.__dict__.get("_device") if isinstance(like, _MsTensor) else None
    if dev is not None:
        t.__dict__["_device"] = dev
    return t


def _attach(dense: Any, indices: Any, values: Any, coalesced: bool, like: Any = None) -> SparseCOOTensor:
    """Re-class the fresh tensor `dense` (the dense value) as the sparse tensor with these parts."""
    dense.__class__ = SparseCOOTensor
    d = dense.__dict__
    d["_sp_indices"], d["_sp_values"], d["_sp_coalesced"] = indices, _with_device_of(values, like), bool(coalesced)
    return _with_device_of(dense, like)


def make_sparse(indices: Any, values: Any, size: Sequence[int], coalesced: bool, like: Any = None
                ) -> SparseCOOTensor:
    """The sparse tensor of `indices` (sparse_dim x nnz; numpy or int64 tensor, checked by the caller), `values`
    (nnz x dense dims) and `size`. Its dense data is `values` scatter-added into zeros (differentiable);
    `like` gives the recorded device."""
    idx = indices if isinstance(indices, np.ndarray) else _host(indices)
    idx_t = indices if isinstance(indices, Tensor) else _index_tensor(idx)
    if not isinstance(values, Tensor):
        values = _wrap(values)
    size = tuple(int(s) for s in size)
    sd, nnz = idx.shape
    if sd == 0:  # a 0-d sparse tensor: its value is the sum of its values
        dense = values.sum(0) if nnz else _op("zeros")(size, dtype=values.dtype)
    elif nnz == 0 or 0 in size:
        dense = _op("zeros")(size, dtype=values.dtype)
    else:
        half = values.dtype in (D.float16, D.bfloat16)  # no CPU ScatterNd kernel: scattered in float32
        dense = _wrap(ms.ops.scatter_nd(_MsTensor(np.ascontiguousarray(idx.T, np.int64)),
                                        values.float() if half else values, size))
        dense = dense.to(values.dtype) if half else dense
    return _attach(dense, idx_t, values, coalesced, like)


def _rebuild_sparse(indices: np.ndarray, values: np.ndarray, size: tuple, coalesced: bool,
                    requires_grad: bool) -> SparseCOOTensor:
    out = make_sparse(indices, from_numpy_array(values), size, coalesced)
    return out.requires_grad_(True) if requires_grad else out


def _coalesced_indices(x: SparseCOOTensor) -> np.ndarray:
    idx = _host(x._indices())
    if x.is_coalesced():
        return idx
    _, first = np.unique(_flat_keys(idx, x.shape[:idx.shape[0]]), return_index=True)
    return idx[:, first]


def _mask(dense: Any, idx: np.ndarray) -> SparseCOOTensor:
    """The entries of `dense` at the index columns `idx` (sorted and unique) as a coalesced sparse tensor."""
    sd = idx.shape[0]
    shape = tuple(dense.shape)
    flat = dense.reshape((-1,) + shape[sd:])
    values = _op("index_select")(flat, 0, _index_tensor(_flat_keys(idx, shape[:sd])))
    return make_sparse(idx, values, shape, True, dense)


def _as_tensor(data: Any, dtype: Any = None) -> Tensor:
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype == dtype else data.to(dtype)
    return _op("tensor")(data, dtype=dtype)


def sparse_coo_tensor(indices: Any, values: Any, size: Any = None, *, dtype: Any = None, device: Any = None,
                      requires_grad: bool = False) -> SparseCOOTensor:
    """torch.sparse_coo_tensor: indices (sparse_dim x nnz, cast to int64), values (nnz x dense dims), size (the
    indices' maxima + 1 and the values' dense dims when None). Checks and messages as torch 1.12 (which validates
    the indices against `size` on every call; the tensor is not coalesced, even with fewer than 2 entries - 2.x
    marks those coalesced)."""
    indices = _as_tensor(indices)
    if indices.dtype != D.int64:
        indices = indices.to(D.int64)
    indices = indices.detach()
    values = _as_tensor(values, D.to_dtype(dtype))
    if values.ndim == 0:
        values = values.reshape(1)
    if indices.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {_size_str(indices.shape)}")
    idx = _host(indices)
    sd, nnz = idx.shape
    dense_shape = tuple(values.shape[1:])
    mins, maxs = (idx.min(1), idx.max(1)) if nnz else (np.zeros(sd, np.int64), np.full(sd, -1, np.int64))
    if size is None:
        for d in range(sd):
            if mins[d] < 0:
                raise RuntimeError(f"found negative index {mins[d]} for dim {d}")
        size = tuple(int(m) + 1 for m in maxs) + dense_shape
    else:
        size = shape_args((size,))
        if len(size) != sd + len(dense_shape):
            raise RuntimeError(f"number of dimensions must be sparse_dim ({sd}) + dense_dim ({len(dense_shape)}), "
                               f"but got {len(size)}")
        for d in range(sd if nnz else 0):
            if mins[d] < 0:
                raise RuntimeError(f"found negative index {mins[d]} for dim {d}")
            if maxs[d] >= size[d]:
                raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {size[d]} but found index "
                                   f"{maxs[d]}")
    if values.shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {nnz}, nnz from values: "
                           f"{values.shape[0]}")
    if dense_shape != tuple(size[sd:]):
        raise RuntimeError(f"values has incorrect size, expected {_size_str((nnz,) + tuple(size[sd:]))}, got "
                           f"{_size_str(values.shape)}")
    out = make_sparse(indices, values, size, False, values)
    if device is not None:
        out = out.to(device)
    return out.requires_grad_(True) if requires_grad else out


def to_sparse(self: Any, sparse_dim: Optional[int] = None) -> SparseCOOTensor:
    """Tensor.to_sparse([sparse_dim]): the nonzero entries (with sparse_dim < dim: the index tuples of the first
    sparse_dim dims whose trailing block has a nonzero), coalesced; differentiable w.r.t. self."""
    if isinstance(self, SparseCOOTensor):
        return SparseCOOTensor.to_sparse(self, sparse_dim)
    n = self.ndim
    sd = n if sparse_dim is None else int(sparse_dim)
    if not (sd > 0 or n == 0):
        raise RuntimeError("sparse_dim must be >0 if dimensionality > 0")
    if sd > n:
        raise RuntimeError("sparse_dim must be less than or equal to self.dim()")
    arr = _host(self.float() if self.dtype == D.bfloat16 else self)
    if n == 0:
        idx = np.zeros((0, 1 if arr != 0 else 0), np.int64)
        values = self.reshape(1)[:idx.shape[1]]
        return make_sparse(idx, values, (), True, self)
    nonzero = arr.reshape(arr.shape[:sd] + (-1,)) != 0
    idx = np.stack(np.nonzero(nonzero.any(-1) if sd < n else nonzero.reshape(arr.shape))).astype(np.int64)
    return _mask(self, idx)


def to_dense(self: Any, dtype: Any = None) -> Any:
    """Tensor.to_dense(): a dense tensor is returned as it is (torch 1.12: `to_dense` accepts strided tensors)."""
    return self if dtype is None else self.to(dtype)


def _dense_only(name: str) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        # torch 1.12 has no dense kernel for these (2.x raises RuntimeError "... expected sparse coordinate tensor
        # layout but got Strided" for some)
        raise NotImplementedError(f"Could not run 'aten::{name}' with arguments from the 'CPU' backend. "
                                  f"'aten::{name}' is only available for sparse tensors.")

    method.__name__ = name
    return method


def sparse_mask(self: Any, mask: Any) -> SparseCOOTensor:
    """Tensor.sparse_mask(mask): self's entries at the (coalesced) mask's indices, as a sparse tensor."""
    if not isinstance(mask, SparseCOOTensor):
        raise RuntimeError("sparse_mask: mask must be a sparse COO tensor")
    if not mask.is_coalesced():
        raise RuntimeError("sparse_mask: mask is uncoalesced")
    if tuple(mask.shape) != tuple(self.shape):
        raise RuntimeError(f"sparse_mask: operands have incompatible sizes; self has size {_size_str(self.shape)} "
                           f"but mask has size {_size_str(mask.shape)}")
    return _mask(self, _host(mask._indices()))


# ------------------------------------------------------------------------------------------ arithmetic
def _merge_positions(ka: List[int], kb: List[int]) -> Tuple[np.ndarray, np.ndarray, int]:
    """Where each entry of a and of b lands in a + b: torch's merge of the two index lists (add_out_sparse_contiguous),
    which sums equal neighbours; on coalesced inputs that is the sorted union."""
    na, nb = len(ka), len(kb)
    pa, pb = np.empty(na, np.int64), np.empty(nb, np.int64)
    i = j = r = 0
    while i < na or j < nb:
        if i >= na:
            cmp = -1
        elif j >= nb:
            cmp = 1
        else:
            cmp = (ka[i] < kb[j]) - (ka[i] > kb[j])
        if cmp >= 0:
            pa[i] = r
            i += 1
        if cmp <= 0:
            pb[j] = r
            j += 1
        r += 1
    return pa, pb, r


def _add_sparse(a: SparseCOOTensor, b: SparseCOOTensor, alpha: Any) -> SparseCOOTensor:
    if tuple(a.shape) != tuple(b.shape):
        raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but {_size_str(a.shape)} != "
                           f"{_size_str(b.shape)}")
    dtype = D.promote_types(a.dtype, b.dtype)
    va, vb = a.__dict__["_sp_values"].to(dtype), b.__dict__["_sp_values"].to(dtype)
    if alpha != 1:
        vb = vb * alpha
    if b._nnz() == 0:
        return make_sparse(_host(a._indices()), va.clone(), a.shape, a.is_coalesced(), a)
    if a._nnz() == 0:
        return make_sparse(_host(b._indices()), vb if alpha != 1 else vb.clone(), b.shape, b.is_coalesced(), b)
    if a.sparse_dim() != b.sparse_dim():
        raise RuntimeError(f"add: expected 'self' and 'other' to have same density, but 'self' has {a.sparse_dim()} "
                           f"sparse dimensions while 'other' has {b.sparse_dim()} sparse dimensions")
    ia, ib = _host(a._indices()), _host(b._indices())
    sizes = a.shape[:ia.shape[0]]
    pa, pb, n = _merge_positions(_flat_keys(ia, sizes).tolist(), _flat_keys(ib, sizes).tolist())
    idx = np.empty((ia.shape[0], n), np.int64)
    idx[:, pa], idx[:, pb] = ia, ib
    values = _segment_sum(_op("cat")([va, vb]), np.concatenate([pa, pb]), n)
    return make_sparse(idx, values, a.shape, a.is_coalesced() and b.is_coalesced(), a)


def _mul_sparse(a: SparseCOOTensor, b: SparseCOOTensor) -> SparseCOOTensor:
    """Element-wise product of two sparse tensors: the entries on their common (coalesced) pattern."""
    if tuple(a.shape) != tuple(b.shape):
        raise RuntimeError(f"mul operands have incompatible sizes: {_size_str(a.shape)} and {_size_str(b.shape)}")
    a, b = a.coalesce(), b.coalesce()
    ia, ib = _host(a._indices()), _host(b._indices())
    sizes = a.shape[:ia.shape[0]]
    _, pa, pb = np.intersect1d(_flat_keys(ia, sizes), _flat_keys(ib, sizes), assume_unique=True, return_indices=True)
    values = _gather_rows(a.__dict__["_sp_values"], pa) * _gather_rows(b.__dict__["_sp_values"], pb)
    return make_sparse(ia[:, pa], values, a.shape, True, a)


# -------------------------------------------------------------------------------------- matrix products
def _check_sparse_matrix(x: Any, name: str) -> SparseCOOTensor:
    if not isinstance(x, SparseCOOTensor):
        if name == "hspmm":  # a dispatch error in torch (no dense kernel)
            raise NotImplementedError("Could not run 'aten::hspmm' with arguments from the 'CPU' backend. "
                                      "'aten::hspmm' is only available for sparse tensors.")
        raise RuntimeError(f"tensor.{name}(...) can only be called on sparse tensors")
    return x


def spmm(input: Any, mat2: Any) -> Any:
    """torch.spmm / torch.sparse.mm: sparse @ dense -> dense (differentiable w.r.t. both); sparse @ sparse ->
    sparse, coalesced, on the structural pattern of the product."""
    if not (isinstance(input, SparseCOOTensor) and isinstance(mat2, SparseCOOTensor)):
        return Tensor.mm(input, mat2)
    product = Tensor.mm(input, mat2)
    pa = np.zeros(tuple(input.shape), np.float32)
    pb = np.zeros(tuple(mat2.shape), np.float32)
    pa[tuple(_host(input._indices()))] = 1
    pb[tuple(_host(mat2._indices()))] = 1
    return _mask(product, np.stack(np.nonzero(pa @ pb)).astype(np.int64))


def hspmm(mat1: Any, mat2: Any) -> SparseCOOTensor:
    """torch.hspmm: sparse @ dense as a hybrid sparse tensor (1 sparse dim): the rows of mat1 with entries."""
    _check_sparse_matrix(mat1, "hspmm")
    rows = np.unique(_host(mat1._indices())[0])
    values = _gather_rows(Tensor.mm(mat1, mat2), rows)
    return make_sparse(rows.reshape(1, -1), values, (mat1.shape[0], mat2.shape[1]), False, mat1)


def sspaddmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> SparseCOOTensor:
    """torch.sspaddmm: beta * input + alpha * (mat1 @ mat2), sparse: input's entries followed by every column of
    each row of mat1 that has entries (uncoalesced)."""
    _check_sparse_matrix(input, "sspaddmm")
    _check_sparse_matrix(mat1, "sspaddmm")
    rows = np.unique(_host(mat1._indices())[0])
    cols = mat2.shape[1]
    product = _gather_rows(Tensor.mm(mat1, mat2), rows).reshape(-1) * alpha
    idx = np.stack([np.repeat(rows, cols), np.tile(np.arange(cols), len(rows))]).astype(np.int64)
    values = _op("cat")([input.__dict__["_sp_values"] * beta, product.to(input.dtype)])
    return make_sparse(np.concatenate([_host(input._indices()), idx], 1), values, input.shape, False, input)


def smm(input: Any, mat2: Any) -> SparseCOOTensor:
    """torch.smm: sparse @ dense as a sparse tensor (every column of each row of input that has entries)."""
    _check_sparse_matrix(input, "sspaddmm")
    empty = make_sparse(np.zeros((2, 0), np.int64), _op("zeros")((0,), dtype=input.dtype),
                        (input.shape[0], mat2.shape[1]), False, input)
    return sspaddmm(empty, input, mat2, beta=0, alpha=1)


# ------------------------------------------------------------------------------------------- printing
def sparse_repr(t: SparseCOOTensor) -> str:
    """torch's repr of a sparse COO tensor: tensor(indices=..., values=..., size=..., nnz=..., layout=...)."""
    from ._tensor_str import _add_suffixes, _grad_fn_name, _tensor_str

    prefix, indent = "tensor(", len("tensor(")
    default = D.get_default_dtype()
    has_default_dtype = t.dtype in (default, D.complex128 if default == D.float64 else D.complex64, D.int64, D.bool)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    suffixes += [f"size={tuple(t.shape)}", f"nnz={t._nnz()}"]
    if not has_default_dtype:
        suffixes.append("dtype=" + D.torch_name(t.dtype))
    parts = []
    for name, part in (("indices", t._indices()), ("values", t._values())):
        head = f"{name}=tensor("
        arr = part.__array__()
        body = _tensor_str(arr, indent + len(head), part.dtype in D.all_float_type, part.dtype in D.all_complex_type)
        if arr.size == 0:
            body += ", size=" + str(tuple(arr.shape))
        parts.append(head + body + ")")
    suffixes.append("layout=torch.sparse_coo")
    gname = _grad_fn_name(t)
    if gname is not None:
        suffixes.append(f"grad_fn=<{gname}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    # torch starts the suffixes of a sparse tensor on a new line (force_newline)
    body = prefix + parts[0] + ",\n" + " " * indent + parts[1] + ",\n" + " " * indent + suffixes[0]
    return _add_suffixes(body, suffixes[1:], indent)


# ------------------------------------------------------------------------------------------ Tensor methods
def install_sparse_methods(cls: type) -> None:
    """Attach the sparse methods of dense tensors to the Tensor class (before the op table's methods and the
    stubs for missing APIs are installed): conversions, and torch 1.12's errors for the sparse-only queries.
    SparseCOOTensor overrides the sparse-only ones."""
    cls.to_sparse = to_sparse
    cls.to_dense = to_dense
    cls.sparse_mask = sparse_mask
    cls.smm = smm
    cls.sspaddmm = sspaddmm
    cls.is_sparse_csr = property(lambda self: False, doc="False: mindtorch has no CSR tensors.")
    for name in ("coalesce", "is_coalesced", "indices", "values", "_indices", "_values", "_nnz"):
        setattr(cls, name, _dense_only(name))


# torch 1.12's older names: dsmm (sparse @ dense -> dense), hsmm (sparse @ dense -> hybrid sparse)
dsmm = spmm
hsmm = hspmm
