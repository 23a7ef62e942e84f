"""Indexing: `Tensor.__getitem__`/`__setitem__` with torch's semantics, gather/scatter, index_*, masked_*,
nonzero, take, put, searchsorted, bucketize (and the in-place twins).

Basic indexing (ints, slices with steps, None, Ellipsis) returns views that share storage; advanced
indexing (bool masks, integer tensors/lists/numpy arrays, mixed with slices, numpy's broadcasting and
placement rules, which are torch's) returns copies. `__setitem__` writes in place, through views.
A few ops without a MindSpore CPU kernel are computed on the host with numpy (scatter_reduce, index_reduce,
put, index_put with accumulate, searchsorted/bucketize); the differentiable ones are one autograd node each whose
backward is torch's derivative in MindSpore ops (recorded under create_graph). scatter with reduce='multiply' has
no derivative, as in torch 1.12.
"""
from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms
from ..autograd.function import Function
from . import _registry
from ._args import check_scalar_fits, scalar_overflow_error, wrap_dim
from ._host import _host_op, _no_vjp
from ._registry import bump_version, register

_MsTensor = ms.Tensor
_BASIC = (int, slice, type(None), type(Ellipsis))


def _shape(x: Any) -> tuple:
    return tuple(_MsTensor.shape.fget(x))


def _np(t: Any) -> np.ndarray:
    return (t.astype(D.float32) if t.dtype == D.bfloat16 else t).asnumpy()


def _to_ms(arr: np.ndarray, dtype: Any) -> Any:
    from .creation import np_to_ms

    return np_to_ms(arr, dtype)


def _norm_item(i: Any) -> Any:
    """One index element -> what MindSpore's getitem handles with torch's meaning."""
    if isinstance(i, bool) or isinstance(i, (int, slice, type(None), type(Ellipsis))):
        return i
    if isinstance(i, _MsTensor):
        d = i.dtype
        if (d is D.int64 or d is D.int32) and not _shape(i):
            # torch applies a 0-d integer tensor index as an integer select (applySlicing: `tensor.item()`), so
            # x[tags[1], tags[0]] is a view whose backward is a plain slice (MindSpore's gather-by-0-d-tensors
            # backward fails in ScatterNd)
            return int(i.item())
        if d is D.int64 or d is D.int32 or d is D.bool:
            # int32: torch >= 2.0 (1.12 accepted long, byte and bool only); accepting more never changes a value
            return i
        if d is D.uint8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                          "instead.", UserWarning, stacklevel=4)
            return i.astype(D.bool)  # a byte tensor index is a mask, as in torch
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if isinstance(i, np.integer):
        return int(i)
    if isinstance(i, np.bool_):
        return bool(i)
    if isinstance(i, np.ndarray):
        if i.dtype == np.bool_:
            return _MsTensor(i)
        if np.issubdtype(i.dtype, np.integer):
            return _MsTensor(i.astype(np.int64))
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if isinstance(i, range):  # a sequence like a list (nn tutorial's `input[range(n), target]`)
        i = list(i)
    if isinstance(i, (list, tuple)):
        arr = np.array([x.item() if isinstance(x, _MsTensor) else x for x in i]) if i else np.zeros(0, np.int64)
        if arr.dtype == np.bool_:
            return _MsTensor(arr)
        if arr.dtype.kind not in "iu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return _MsTensor(arr.astype(np.int64))
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                     "indices (got " + type(i).__name__ + ")")


def _sequence_as_tuple(index: Any) -> bool:
    """torch's treatSequenceAsTuple (python_variable_indexing.cpp, 1.12 as 2.x): a list index of fewer than 32
    items holding a tensor, a sequence, a slice, `...` or None means x[tuple(index)] (x[[[0, 1], [1, 0]]] is
    x[[0, 1], [1, 0]]), numpy's legacy rule; a list of plain numbers is one integer index."""
    return len(index) < 32 and any(
        isinstance(i, (_MsTensor, list, tuple, np.ndarray, slice)) or i is None or i is Ellipsis for i in index)


def _norm_index(index: Any, shape: tuple) -> Any:
    """Normalise the index and check integer bounds with torch's IndexError message."""
    if type(index) is list and _sequence_as_tuple(index):
        index = tuple(index)
    items = index if isinstance(index, tuple) else (index,)
    items = tuple(_norm_item(i) for i in items)
    # bounds of plain ints (MindSpore's message lacks the dimension)
    consumed = [i for i in items if i is not None and i is not Ellipsis and not isinstance(i, bool)]
    n_dims = sum(len(_shape(i)) if isinstance(i, _MsTensor) and i.dtype == D.bool else 1 for i in consumed)
    if n_dims > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    dim = 0
    for pos, i in enumerate(items):
        if i is Ellipsis:
            dim = len(shape) - sum(
                (len(_shape(j)) if isinstance(j, _MsTensor) and j.dtype == D.bool else 1)
                for j in items[pos + 1:] if j is not None and j is not Ellipsis and not isinstance(j, bool))
            continue
        if i is None or isinstance(i, bool):
            continue
        if isinstance(i, int):
            size = shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
        elif isinstance(i, _MsTensor):
            if i.dtype == D.bool:
                ms_ = _shape(i)
                if ms_ != shape[dim:dim + len(ms_)]:
                    raise IndexError(f"The shape of the mask {list(ms_)} at index {dim} does not match the shape of "
                                     f"the indexed tensor {list(shape)} at index {dim}")
                dim += len(ms_)
                continue
            if _shape(i) and 0 in _shape(i):
                pass
            elif shape[dim] == 0 or _out_of_range(i, shape[dim]):
                raise IndexError(f"index {_bad_index(i, shape[dim])} is out of bounds for dimension {dim} with "
                                 f"size {shape[dim]}")
        dim += 1
    tensors = [i for i in items if isinstance(i, _MsTensor)]
    if len(tensors) > 1:
        _check_broadcastable(tensors)
    return items if isinstance(index, tuple) else items[0]


def _check_broadcastable(tensors: list) -> None:
    """torch's IndexError for index tensors whose shapes do not broadcast (a mask counts as its nonzero indices:
    one sync per mask, only when several index tensors are combined)."""
    shapes = [[int(t.asnumpy().sum())] if t.dtype == D.bool else list(_shape(t))
              for t in tensors]
    try:
        np.broadcast_shapes(*map(tuple, shapes))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(s) for s in shapes)) from None


def _out_of_range(idx: Any, size: int, low: Optional[int] = None) -> bool:
    """Whether an index tensor holds a value outside [low, size) (low -size by default: negative indices count
    from the end)."""
    a = idx.asnumpy()
    return bool(a.size) and (a.min() < (-size if low is None else low) or a.max() >= size)


def _bad_index(idx: Any, size: int, low: Optional[int] = None) -> int:
    """The first value of the index tensor outside [low, size) (see `_out_of_range`)."""
    a = idx.asnumpy().ravel()
    return int(a[(a < (-size if low is None else low)) | (a >= size)][0])


def _has_empty_index(items: Any) -> bool:
    """An empty index tensor or a `False` index (x[False] has a new dim of size 0): an empty result."""
    items = items if isinstance(items, tuple) else (items,)
    return any((isinstance(i, _MsTensor) and 0 in _shape(i)) or i is False for i in items)


def _split_int_selects(items: Any) -> Optional[tuple]:
    """torch applies integer indices as `select` before advanced indexing (python_variable_indexing.cpp's
    applySlicing), so they take no part in numpy's placement rule for advanced-index dimensions: x[0, :, [1, 2]]
    is x[0][:, [1, 2]], shape (3, 2) for x of shape (2, 3, 4), where numpy gives (2, 3). For an index with both
    ints and index tensors: (basic index with the ints, the rest to apply to its result); None otherwise."""
    if type(items) is not tuple or not any(type(i) is int for i in items) or not any(
            isinstance(i, _MsTensor) for i in items) or any(type(i) is bool for i in items):
        return None
    first, rest = [], []
    for i in items:
        if type(i) is int:
            first.append(i)
        elif isinstance(i, _MsTensor):
            n = len(_shape(i)) if i.dtype == D.bool else 1
            first.extend([slice(None)] * n)
            rest.append(i)
        elif i is None:
            first.append(None)
            rest.append(slice(None))  # the new dim exists in the first step's result
        else:
            first.append(i)
            rest.append(i if i is Ellipsis else slice(None))
    return tuple(first), tuple(rest)


def _numpy_index(items: Any) -> Any:
    items = items if isinstance(items, tuple) else (items,)
    return tuple(i.asnumpy() if isinstance(i, _MsTensor) else i for i in items)


@register("__getitem__", function=False)
def getitem(self: Any, index: Any) -> Any:
    """self[index] with torch semantics; basic indexing returns views."""
    if type(index) is int:
        shape = _shape(self)
        if not shape:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        if not -shape[0] <= index < shape[0]:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {shape[0]}")
        return _MsTensor.__getitem__(self, index)
    if type(index) is slice:
        if index.step is not None and index.step != 1:
            _check_step(index.step)
        return _MsTensor.__getitem__(self, index)
    items = _norm_index(index, _shape(self))
    if _has_empty_index(items):
        # MindSpore refuses empty index tensors: compute the (empty) result shape with numpy.
        res = np.zeros(_shape(self), dtype=np.int8)[_numpy_index(items)]
        return _to_ms(np.zeros(res.shape), self.dtype)
    split = _split_int_selects(items)
    if split is not None:
        return getitem(getitem(self, split[0]), split[1])
    if type(items) is tuple:
        stepped = False
        for i in items:
            if type(i) is slice and i.step is not None and i.step != 1:
                _check_step(i.step)
                stepped = True
        if stepped and _ms.is_recording():
            return _stepped_getitem(self, items)
    return _MsTensor.__getitem__(self, items)


def _check_step(step: Any) -> None:
    if step <= 0:  # MindSpore would reverse (negative) or fail with its own message (0)
        raise ValueError("slice step cannot be zero" if step == 0 else "step must be greater than zero")


def _stepped_getitem(self: Any, items: tuple) -> Any:
    """Basic indexing with step > 1 slices, built so that its backward works on CPU.

    MindSpore 2.10's CPU StridedSliceGrad fails ("input memory out of bounds") for a step > 1 on any dim but the
    first when an earlier dim has size > 1 (`x[:, ::2]`, Swin's `x[..., 0::2, 0::2, :]`); a step on dim 0 is
    fine. So: index with every stepped slice narrowed to step 1, then apply each step on dim 0 between two
    transposes. Every stage is a view, so the result still shares storage like torch's. Only used while autograd
    records (the plain path keeps the single StridedSlice).
    """
    if any(not isinstance(i, _BASIC) or isinstance(i, bool) for i in items):
        return _MsTensor.__getitem__(self, items)  # advanced indexing: MindSpore gathers (no StridedSliceGrad)
    shape = _shape(self)
    consumed = sum(1 for i in items if i is not None and i is not Ellipsis)
    new_items, steps, out_dim, dim = [], [], 0, 0
    for i in items:
        if i is None:
            new_items.append(i)
            out_dim += 1
        elif i is Ellipsis:
            new_items.append(i)
            skip = len(shape) - consumed
            out_dim += skip
            dim += skip
        elif isinstance(i, int):
            new_items.append(i)
            dim += 1
        else:
            start, stop, step = i.indices(shape[dim])
            k = len(range(start, stop, step))
            if step != 1 and k > 1:
                new_items.append(slice(start, start + (k - 1) * step + 1))
                steps.append((out_dim, step))
            else:
                new_items.append(slice(start, start + k) if k else slice(0, 0))
            out_dim += 1
            dim += 1
    y = _MsTensor.__getitem__(self, tuple(new_items))
    for d, step in steps:
        if d == 0:
            y = _MsTensor.__getitem__(y, slice(None, None, step))
        else:
            y = mint.transpose(_MsTensor.__getitem__(mint.transpose(y, 0, d), slice(None, None, step)), 0, d)
    return y


def _expand_ellipsis(items: Any, ndim: int) -> Any:
    """Replace `...` by explicit full slices: MindSpore 2.10's setitem with an Ellipsis does not write through
    view()/transpose/narrow views (DESIGN.md §2), with slices it does."""
    tup = items if isinstance(items, tuple) else (items,)
    if not any(i is Ellipsis for i in tup):
        return items
    if ndim == 0:
        return items
    pos = next(k for k, i in enumerate(tup) if i is Ellipsis)
    used = sum(len(_shape(i)) if isinstance(i, _MsTensor) and i.dtype == D.bool else 1
               for i in tup if i is not None and i is not Ellipsis and not isinstance(i, bool))
    out = tup[:pos] + (slice(None),) * max(ndim - used, 0) + tuple(i for i in tup[pos + 1:] if i is not Ellipsis)
    return out if out else slice(None)


@register("__setitem__", function=False)
def setitem(self: Any, index: Any, value: Any) -> None:
    """self[index] = value, in place (writes through views), value cast to self's dtype and broadcast."""
    if isinstance(value, _MsTensor):
        if value.dtype != self.dtype:
            value = value.astype(self.dtype)
        vshape = _shape(value)
        if vshape and vshape[0] == 1:
            # torch strips the value's leading size-1 dims before broadcasting it into the slot
            # (TensorIndexing.h slicePrefix1sSize): z[1] = t.view(1, L) fills a row of length L
            k = next((n for n, s in enumerate(vshape) if s != 1), len(vshape))
            value = mint.reshape(value, vshape[k:])
    elif isinstance(value, (bool, int, float, np.generic)):
        # numpy scalars of every kind are taken as numbers (torch refuses np.float32 / np.bool_ with a TypeError; a
        # deliberate leniency here, tested in test_ops_indexing: `x[i] = arr[j]` of a float32 array works)
        value = value.item() if isinstance(value, np.generic) else value
        if not isinstance(value, bool) and isinstance(value, (int, float)):
            check_scalar_fits(value, self.dtype)
    elif isinstance(value, complex):
        if self.dtype not in D.all_complex_type:  # torch's Scalar conversion refuses a complex for a real dtype
            raise scalar_overflow_error(self.dtype)
        value = _MsTensor(value, dtype=self.dtype)
    else:
        # torch's valueToTensor takes a tensor or a number only: a list, tuple or numpy array raises (1.12 as 2.x)
        kind = type(value)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"can't assign a {name} to a torch.{D.scalar_name(self.dtype)}Tensor")
    if not (type(index) is int or type(index) is slice):
        index = _norm_index(index, _shape(self))
        split = _split_int_selects(index)
        if split is not None:  # torch's order: the int selects first (a view), then the advanced index into it
            return setitem(getitem(self, split[0]), split[1], value)
        index = _expand_ellipsis(index, len(_shape(self)))
        if _has_empty_index(index):
            return None
    elif type(index) is int:
        shape = _shape(self)
        if not shape or not -shape[0] <= index < shape[0]:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {shape[0] if shape else 0}")
    if _is_advanced(index) and _shape(self):
        # MindSpore 2.10 applies mask/integer-array setitem functionally: on a view it never reaches the base.
        # Apply it to a private copy, then write the whole result back through a slice (which does).
        from .shape import clone

        tmp = clone(self)
        _MsTensor.__setitem__(tmp, index, value)
        _ms.setitem(self, slice(None), tmp)
    else:
        _ms.setitem(self, index, value)  # writes through view()/transpose views too (see _ms.setitem)
    bump_version(self)
    return None


def _is_advanced(index: Any) -> bool:
    items = index if isinstance(index, tuple) else (index,)
    return any(isinstance(i, _MsTensor) for i in items)


# --------------------------------------------------------------------------------------- gather/scatter
def _check_index(index: Any, op: str) -> None:
    if index.dtype != D.int64:
        raise RuntimeError(f"{op}(): Expected dtype int64 for index")


def _zero_dim_index_on_vector(input: Any, index: Any) -> bool:
    """torch's gather/scatter count a 0-d tensor as 1-d (ensure_nonempty_dim): `torch.zeros(10).scatter_(0,
    torch.tensor(y), value=1)` (the transforms tutorial's one-hot target) takes a 0-d index on a vector."""
    return not _shape(index) and len(_shape(input)) <= 1


def _as_vector(t: Any) -> Any:
    return mint.reshape(t, (1,)) if isinstance(t, _MsTensor) and not _shape(t) else t


@register("gather")
def gather(input: Any, dim: int, index: Any, *, sparse_grad: bool = False, out: Any = None) -> Any:
    """out[i][j] = input[index[i][j]][j] (dim=0) etc.; index int64, same ndim as input."""
    _check_index(index, "gather")
    if _zero_dim_index_on_vector(input, index):
        _check_gather_range(index, 0, _shape(_as_vector(input))[0])
        wrap_dim(dim, 1)
        return mint.reshape(mint.gather(_as_vector(input), 0, _as_vector(index)), ())
    n = len(_shape(input))
    if len(_shape(index)) != n and n:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    d = wrap_dim(dim, n)
    _check_gather_range(index, d, _shape(input)[d] if n else 1)
    return gather_d(input, d, index)


def _check_gather_range(index: Any, dim: int, size: int) -> None:
    """torch's bounds check of gather's index, [0, size) (MindSpore's GatherD takes [-size, size): a -1 silently
    read the last element, e.g. Categorical.log_prob(-1) with validation off)."""
    if _out_of_range(index, size, low=0):
        raise RuntimeError(f"index {_bad_index(index, size, low=0)} is out of bounds for dimension {dim} with size "
                           f"{size}")


def gather_d(input: Any, dim: int, index: Any) -> Any:
    """MindSpore's GatherD (`dim` non-negative). While autograd records, one node whose backward is a scatter-add
    of recorded ops (`_GatherD`): MindSpore's own GatherD backward has no derivative, so a gradient penalty or a
    second derivative through gather, take_along_dim, nll_loss or cross_entropy raised."""
    if input._requires_grad and _ms.is_recording():
        return _GatherD.apply(input, dim, index)
    return mint.gather(input, dim, index)


class _GatherD(Function):
    @staticmethod
    def forward(ctx: Any, input: Any, dim: int, index: Any) -> Any:
        ctx.dim, ctx.index, ctx.shape = dim, index, _shape(input)
        return mint.gather(input, dim, index)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Tuple[Any, None, None]:
        # recorded under create_graph (its derivative w.r.t. g is a gather again)
        zeros = ops.zeros(ctx.shape, g.dtype)
        return ops.tensor_scatter_elements(zeros, ctx.index, g, ctx.dim, "add"), None, None


def _src_tensor(input: Any, index: Any, src: Any, name: str = "scatter") -> Any:
    if isinstance(src, _MsTensor):
        if src.dtype != input.dtype:  # (a Python number is cast; a tensor must match, as in torch)
            raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
        return src
    return _MsTensor(np.full(_shape(index), src, dtype=D.to_numpy_dtype(input.dtype)))


def _scatter_np(input: Any, dim: int, index: Any, src: Any, ufunc: Any) -> Any:
    out = _np(input).copy()
    idx = index.asnumpy()
    s = _np(src)[tuple(slice(0, k) for k in idx.shape)] if _shape(src) else np.broadcast_to(_np(src), idx.shape)
    grid = list(np.indices(idx.shape, sparse=True))
    grid[dim] = idx
    if ufunc is None:
        out[tuple(grid)] = s
    else:
        ufunc.at(out, tuple(grid), s)
    return _to_ms(out, input.dtype)


@register("scatter", inplace=True)
def scatter(input: Any, dim: int, index: Any, src: Any = None, value: Any = None, *, reduce: Optional[str] = None,
            out: Any = None) -> Any:
    """Write `src` (tensor) or `value` (scalar) into `input` at `index` along `dim`; reduce 'add'/'multiply'."""
    _check_index(index, "scatter")
    if src is None:
        src = value
    if _zero_dim_index_on_vector(input, index):
        wrap_dim(dim, 1)
        res = scatter(_as_vector(input), 0, _as_vector(index), _as_vector(src), reduce=reduce)
        return mint.reshape(res, _shape(input))
    n = len(_shape(input))
    if len(_shape(index)) != n:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    dim = wrap_dim(dim, n)
    srct = _leading_part(_src_tensor(input, index, src), index)
    if reduce is None:
        # not mint.scatter: MindSpore 2.10's CPU Scatter kernel keeps state across calls - after any 3-D scatter a
        # later 2-D one skipped every other row (silently wrong values, for the rest of the process)
        return ops.tensor_scatter_elements(input, index, srct, dim, "none")
    if reduce == "add":
        return ops.tensor_scatter_elements(input, index, srct, dim, "add")
    if reduce == "multiply":  # (torch 1.12 has no derivative for scatter with reduce either: backward raises)
        res = _scatter_np(input, dim, index, srct, np.multiply)
        return _host_op(lambda *_: res, _no_vjp("scatter with reduce='multiply'"), input, srct)
    raise RuntimeError(f"reduce argument must be either add or multiply. Got {reduce}")


def _leading_part(src: Any, index: Any) -> Any:
    """src[:index.size(0), :index.size(1), ...]: the part of src that scatter/scatter_add read (torch allows a
    larger src), by slicing, so autograd records it."""
    if _shape(src) == _shape(index):
        return src
    return _MsTensor.__getitem__(src, tuple(slice(0, k) for k in _shape(index)))


@register("scatter_add", inplace=True)
def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Any:
    """input with src added at index along dim (duplicates accumulate)."""
    _check_index(index, "scatter_add")
    if _zero_dim_index_on_vector(input, index):
        wrap_dim(dim, 1)
        return mint.reshape(scatter_add(_as_vector(input), 0, _as_vector(index), _as_vector(src)), _shape(input))
    n = len(_shape(input))
    dim = wrap_dim(dim, n)
    srct = _leading_part(_src_tensor(input, index, src, "scatter_add"), index)
    return ops.tensor_scatter_elements(input, index, srct, dim, "add")


_REDUCE_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}
_REDUCE_IDENTITY = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}


@register("scatter_reduce", inplace=True)
def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, *, include_self: bool = True) -> Any:
    """reduce in 'sum', 'prod', 'mean', 'amax', 'amin'. Computed on the host (MindSpore 2.10 has no CPU kernel for
    the product/extrema along a dim); while autograd records, one node whose backward is torch 1.12's
    scatter_reduce_backward in MindSpore ops (`_scatter_reduce_backward`), so both input and src get gradients."""
    _check_index(index, "scatter_reduce")
    ufunc = _REDUCE_UFUNCS.get(reduce)
    if ufunc is None:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if not isinstance(src, _MsTensor):
        raise TypeError(f"scatter_reduce(): argument 'src' (position 3) must be Tensor, not {type(src).__name__}")
    dim = wrap_dim(dim, len(_shape(input)))
    srct = _leading_part(_src_tensor(input, index, src), index)
    idx = index.asnumpy()
    grid = list(np.indices(idx.shape, sparse=True))
    grid[dim] = idx
    g = tuple(grid)

    def compute(x: Any, s: Any) -> Any:
        base = _np(x).astype(np.float64)
        touched = np.zeros(base.shape, bool)
        touched[g] = True
        out = base.copy()
        if not include_self:
            out[touched] = _REDUCE_IDENTITY[reduce]
        ufunc.at(out, g, _np(s).astype(np.float64))
        if reduce == "mean":
            cnt = np.zeros(base.shape) + (1 if include_self else 0)
            np.add.at(cnt, g, 1)
            out = np.where(touched, out / np.maximum(cnt, 1), base)
            if x.dtype in D.all_int_type:
                out = np.floor(out)
        return _to_ms(out, x.dtype)

    def vjp(inputs: Any, out: Any, grad: Any) -> Any:
        return _scatter_reduce_backward(grad, inputs[0], dim, idx, inputs[1], reduce, include_self, out)

    return _host_op(compute, _bf16_in_float32(vjp), input, srct)


def _bf16_in_float32(vjp: Any) -> Any:
    """`vjp` computing a bfloat16 gradient in float32: MindSpore 2.10 has no CPU bfloat16 GatherD, Equal or
    TensorScatterElements kernel."""
    def up(t: Any) -> Any:
        return ops.cast(t, D.float32) if t.dtype == D.bfloat16 else t

    def wrapped(inputs: Any, out: Any, grad: Any) -> Any:
        if grad.dtype != D.bfloat16:
            return vjp(inputs, out, grad)
        return tuple(ops.cast(g, D.bfloat16) for g in vjp(tuple(map(up, inputs)), up(out), up(grad)))
    return wrapped


def _scatter_reduce_backward(grad: Any, self: Any, dim: int, idx: np.ndarray, src: Any, reduce: str,
                             include_self: bool, result: Any) -> Tuple[Any, Any]:
    """torch 1.12's scatter_reduce_backward (FunctionsManual.cpp), term for term, in MindSpore ops (recorded under
    create_graph; gathers through `gather_d` for a derivative of their own). `src` is the part the op read."""
    if not idx.size:
        return grad, ops.zeros(idx.shape, grad.dtype)
    index = _MsTensor(np.ascontiguousarray(idx, np.int64))
    dt = grad.dtype

    def gather(t: Any) -> Any:
        return gather_d(t, dim, index)

    def scatter_add(base: Any, t: Any) -> Any:
        return ops.tensor_scatter_elements(base, index, t, dim, "add")

    if reduce == "sum":
        grad_self, grad_src = grad, gather(grad)
    elif reduce == "mean":
        n = ops.ones(_shape(grad), dt) if include_self else ops.zeros(_shape(grad), dt)
        n = mint.clamp(scatter_add(n, ops.ones(idx.shape, dt)), 1, None)  # (no element: N = 1)
        grad_self, grad_src = mint.div(grad, n), mint.div(gather(grad), gather(n))
    elif reduce in ("amax", "amin"):
        # the gradient split evenly among the elements equal to the result; an excluded self (include_self=False)
        # equal to the result still counts in the split, as in torch (1.12 as 2.x)
        self_is_result = ops.cast(mint.eq(self, result), dt)
        src_is_result = ops.cast(mint.eq(src, gather(result)), dt)
        grad_distributed = mint.div(grad, scatter_add(self_is_result, src_is_result))
        grad_self = mint.mul(self_is_result, grad_distributed)
        grad_src = mint.mul(src_is_result, gather(grad_distributed))
    else:  # prod, with the products of the other factors taken without dividing by a zero factor
        one = ops.ones((), dt)
        masked_self = mint.where(mint.eq(self, 0), one, self)
        masked_self_result = scatter_reduce(masked_self, dim, index, src, reduce, include_self=include_self)
        grad_self = mint.div(mint.mul(grad, masked_self_result), masked_self)
        src_zero = mint.eq(src, 0)
        src_num_zeros = gather(scatter_add(ops.zeros(_shape(self), dt), ops.cast(src_zero, dt)))
        src_single_zero = mint.logical_and(src_zero, mint.eq(src_num_zeros, 1))
        masked_src_result = scatter_reduce(self, dim, index, mint.where(src_single_zero, one, src), reduce,
                                           include_self=include_self)
        grad_src = mint.where(src_single_zero, gather(mint.mul(grad, masked_src_result)),
                              mint.div(gather(mint.mul(grad, result)), mint.where(src_zero, one, src)))
        if _ms.records_grad(grad_src) and bool(mint.gt(src_num_zeros, 1).any()):
            # torch's DelayedError: this gradient is not differentiable again (several zeros meet in one product)
            grad_src = _host_op(_clone_ms, _raise_vjp("scatter_reduce(): Double backward is unsupported for src "
                                                      "when >1 zeros in src are scattered to the same position in "
                                                      "self"), grad_src)
    if not include_self:
        grad_self = ops.tensor_scatter_elements(grad_self, index, ops.zeros(idx.shape, dt), dim, "none")
    return grad_self, grad_src


def _clone_ms(t: Any) -> Any:
    return ops.add(t, 0)


def _raise_vjp(message: str) -> Any:
    """A `vjp` that raises torch's RuntimeError: the node's input is not differentiable through it."""
    def vjp(inputs: Any, out: Any, grad: Any) -> Any:
        raise RuntimeError(message)
    return vjp


# ------------------------------------------------------------------------------------------- index_*
def _index_dim_tuple(dim: int, index: Any) -> tuple:
    return (slice(None),) * dim + (index,)


@register("index_select")
def index_select(input: Any, dim: int, index: Any, *, out: Any = None) -> Any:
    if index.dtype not in (D.int64, D.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if len(_shape(index)) > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    n = len(_shape(input))
    return ops.gather(input, mint.reshape(index, (-1,)), wrap_dim(dim, n) if n else 0)


@register("index_add", inplace=True)
def index_add(input: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
    """input with alpha * source added at `index` rows along dim (duplicates accumulate)."""
    dim = wrap_dim(dim, len(_shape(input)))
    src = source if alpha == 1 else mint.mul(source, alpha)
    d = input.dtype
    if d not in (D.int64, D.bool):
        return mint.index_add(input, dim, index.astype(D.int32), src.astype(d))
    # MindSpore 2.10's CPU IndexAdd has no int64 or bool kernel: the same sum as this table's scatter_add, with
    # the index spread along `dim` (bool adds as logical or, as torch's)
    work = D.int64 if d is D.int64 else D.uint8
    out = _registry.kernel("scatter_add")(ops.cast(input, work), dim, _spread_index(index, dim, src),
                                          ops.cast(src, work))
    return out if d is work else mint.ne(out, 0)


def _spread_index(index: Any, dim: int, source: Any) -> Any:
    """The 1-D `index` of the index_* ops as the scatter_* ops take it: int64, laid along `dim` and broadcast over
    source's shape (index_add(input, dim, index, source) is scatter_add(input, dim, spread, source))."""
    shape = [1] * max(len(_shape(source)), 1)
    shape[dim] = -1
    return mint.broadcast_to(mint.reshape(ops.cast(index, D.int64), tuple(shape)), tuple(_shape(source)) or (1,))


@register("index_copy", inplace=True)
def index_copy(input: Any, dim: int, index: Any, source: Any) -> Any:
    from .shape import clone

    dim = wrap_dim(dim, len(_shape(input)))
    res = clone(input)
    _MsTensor.__setitem__(res, _index_dim_tuple(dim, index), source.astype(input.dtype))
    return res


@register("index_fill", inplace=True)
def index_fill(input: Any, dim: int, index: Any, value: Any) -> Any:
    from .shape import clone

    dim = wrap_dim(dim, len(_shape(input)))
    res = clone(input)
    if isinstance(value, _MsTensor):
        value = value.astype(input.dtype)
    _MsTensor.__setitem__(res, _index_dim_tuple(dim, index), value)
    return res


@register("index_put", inplace=True)
def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Any:
    """input with `values` put at the advanced index `indices` (a tuple of index tensors)."""
    from .shape import clone

    items = _norm_index(tuple(indices), _shape(input))
    if accumulate:  # duplicates add up: numpy's add.at, one node whose backward is torch's (grad, grad[indices])
        vals = values if isinstance(values, _MsTensor) else _MsTensor(values, input.dtype)

        def compute(x: Any, v: Any) -> Any:
            out = _np(x).copy()
            np.add.at(out, _numpy_index(items), _np(v).astype(out.dtype))
            return _to_ms(out, x.dtype)

        def vjp(inputs: Any, output: Any, grad: Any) -> Any:
            x, v = inputs
            gv = _MsTensor.__getitem__(grad, items) if v._requires_grad else None
            if gv is not None and _shape(gv) != _shape(v):
                from ._expand import sum_to
                gv = sum_to(gv, _shape(v))
            return grad, gv

        return _host_op(compute, vjp, input, vals)
    res = clone(input)
    _MsTensor.__setitem__(res, items, values.astype(input.dtype) if isinstance(values, _MsTensor) else values)
    return res


# -------------------------------------------------------------------------------------------- masked_*
@register("masked_fill", inplace=True)
def masked_fill(input: Any, mask: Any, value: Any) -> Any:
    """Elements where `mask` (bool, broadcast) is True set to `value` (a number or 0-d tensor)."""
    if mask.dtype != D.bool:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{D.torch_name(mask.dtype)[6:]}")
    if isinstance(value, _MsTensor):
        if _shape(value):
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{len(_shape(value))} dimension(s).")
        v = value.astype(input.dtype)
    else:
        if input.dtype in D.all_int_type and isinstance(value, float) and not value.is_integer():
            v = _MsTensor(int(value), dtype=input.dtype)
        else:
            v = _MsTensor(value, dtype=input.dtype)
    if _ms.HOST_MEMORY and id(input.dtype) in _HOST_NP and not _ms.records_grad(value):
        return _masked_fill_host(input, mask, v)
    return mint.where(mask, v, input)


# On CPU the fill is numpy's `where`: MindSpore's broadcasting Select kernel took ~7 ms for attention scores
# (32, 4, 64, 64) under a (1, 1, 64, 64) causal mask, numpy ~0.5 ms. With autograd, one host node whose gradient is
# the output gradient with the filled positions zeroed (recorded MindSpore ops under create_graph).
_HOST_NP = frozenset(map(id, (D.float16, D.float32, D.float64, D.int8, D.int16, D.int32, D.int64, D.uint8, D.bool)))


def _masked_fill_host(input: Any, mask: Any, v: Any) -> Any:
    shape = tuple(np.broadcast_shapes(_shape(input), _shape(mask)))
    if shape != _shape(input):  # torch refuses to broadcast `input` itself in place; out of place it broadcasts
        input = ops.broadcast_to(input, shape)
    m = _ms.host_view(mask)

    def compute(x: Any) -> Any:
        return _MsTensor.from_numpy(np.where(m, _MsTensor.asnumpy(v), _ms.host_view(x)))

    def vjp(inputs: Any, out: Any, g: Any) -> Any:
        if _ms.is_recording():
            return (mint.where(mask, ops.zeros_like(g), g),)
        gn = _ms.host_view(g)
        return (_MsTensor.from_numpy(np.where(m, gn.dtype.type(0), gn)),)

    return _host_op(compute, vjp, input)


@register("masked_scatter", inplace=True)
def masked_scatter(input: Any, mask: Any, source: Any) -> Any:
    """Copy `source` elements (in order) into positions where mask is True. The positions are found on the host;
    the values move with a gather from `source` and a select, so both input and source get torch's gradients."""
    shape = np.broadcast_shapes(_shape(input), _shape(mask))
    m = np.broadcast_to(mask.asnumpy(), shape)
    k = int(m.sum())
    n = int(np.prod(_shape(source)))
    if n < k:
        raise RuntimeError("masked_scatter: expected source to have at least as many elements as ones in mask")
    # element j of the output takes source[rank of j among the True positions] where mask is True
    order = np.clip(np.cumsum(m.reshape(-1)) - 1, 0, max(n - 1, 0)).astype(np.int64)
    taken = mint.reshape(ops.gather(mint.reshape(source, (-1,)), _MsTensor(order), 0), shape) if n else \
        ops.zeros(shape, input.dtype)
    return ops.select(_MsTensor(np.ascontiguousarray(m)), taken.astype(input.dtype),
                      mint.broadcast_to(input, shape))


@register("masked_select")
def masked_select(input: Any, mask: Any, *, out: Any = None) -> Any:
    if mask.dtype != D.bool:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return mint.masked_select(input, mask)


# ----------------------------------------------------------------------------------------- nonzero etc
@register("nonzero")
def nonzero(input: Any, *, out: Any = None, as_tuple: bool = False) -> Any:
    """(n, ndim) int64 indices of non-zero elements, or a tuple of ndim 1-D index tensors."""
    idx = np.argwhere(_np(input)) if _shape(input) else np.argwhere(np.atleast_1d(_np(input)))[:, :0]
    if not _shape(input):
        idx = np.zeros((int(bool(_np(input))), 0), dtype=np.int64)
    if as_tuple:
        if not _shape(input):
            return (_MsTensor(np.zeros(idx.shape[0], dtype=np.int64)),)
        return tuple(_MsTensor(np.ascontiguousarray(idx[:, k]).astype(np.int64)) for k in range(idx.shape[1]))
    return _MsTensor(idx.astype(np.int64))


@register("argwhere")
def argwhere(input: Any) -> Any:
    return nonzero(input)


@register("take")
def take(input: Any, index: Any) -> Any:
    """input treated as 1-D, indexed by `index` (result has index's shape)."""
    flat = mint.reshape(input, (-1,))
    n = _shape(flat)[0]
    if _out_of_range(index, n):
        raise IndexError(f"out of range: tried to access index {_bad_index(index, n)} on a tensor of {n} elements.")
    idx = mint.reshape(index, (-1,))
    idx = mint.where(idx < 0, idx + n, idx)
    return mint.reshape(ops.gather(flat, idx, 0), _shape(index))


@register("take_along_dim")
def take_along_dim(input: Any, indices: Any, dim: Optional[int] = None, *, out: Any = None) -> Any:
    if dim is None:
        return ops.gather(mint.reshape(input, (-1,)), mint.reshape(indices, (-1,)), 0)
    n = len(_shape(input))
    dim = wrap_dim(dim, n)
    si, sx = list(_shape(indices)), list(_shape(input))
    bi, bx = si.copy(), sx.copy()
    bi[dim], bx[dim] = 1, 1
    b = list(np.broadcast_shapes(tuple(bi), tuple(bx)))
    ti, tx = b.copy(), b.copy()
    ti[dim], tx[dim] = si[dim], sx[dim]
    return gather_d(mint.broadcast_to(input, tuple(tx)), dim, mint.broadcast_to(indices, tuple(ti)))


@register("put", inplace=True)
def put(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:
    """input (as 1-D) with source put at index (negative indices count from the end). Computed on the host; while
    autograd records, one node with torch's derivatives: input gets the gradient with the written positions zeroed
    (all of it when accumulating), source the gradient taken at index."""
    if index.dtype != D.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {D.scalar_name(index.dtype)}")
    if source.dtype != input.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{D.scalar_name(input.dtype)} and source.dtype = {D.scalar_name(source.dtype)}")
    idx = index.asnumpy().ravel()
    k, n = idx.size, _numel(input)
    if _numel(source) != k:
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {_numel(source)}, index.numel() = {k}")
    if k and not n:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    if k and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"out of range: tried to access index {_bad_index(index, n)} on a tensor of {n} elements.")
    idx = np.where(idx < 0, idx + n, idx)

    def compute(x: Any, s: Any) -> Any:
        out = _np(x).copy().ravel()
        if accumulate:
            np.add.at(out, idx, _np(s).ravel())
        else:
            out[idx] = _np(s).ravel()
        return _to_ms(out.reshape(_shape(x)), x.dtype)

    def vjp(inputs: Any, out: Any, grad: Any) -> Any:
        if not k:
            return grad, ops.zeros(_shape(source), grad.dtype)
        flat, it = mint.reshape(grad, (-1,)), _MsTensor(idx)
        grad_self = grad if accumulate else mint.reshape(
            ops.tensor_scatter_elements(flat, it, ops.zeros((k,), grad.dtype), 0, "none"), _shape(grad))
        return grad_self, mint.reshape(gather_d(flat, 0, it), _shape(source))

    return _host_op(compute, _bf16_in_float32(vjp), input, source)


def _numel(t: Any) -> int:
    return int(np.prod(_shape(t)))


@register("searchsorted", method=False)
def searchsorted(sorted_sequence: Any, input: Any, *, out_int32: bool = False, right: bool = False,
                 side: Optional[str] = None, sorter: Any = None, out: Any = None) -> Any:
    """Insertion indices of `input` into the last dim of `sorted_sequence` (rows searched independently)."""
    if side is not None:
        right = side == "right"
    sd = "right" if right else "left"
    seq = _np(sorted_sequence)
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter.asnumpy(), -1)
    vals = _np(input) if isinstance(input, _MsTensor) else np.asarray(input)
    if seq.ndim == 1:
        res = np.searchsorted(seq, vals, side=sd)
    else:
        if seq.shape[:-1] != vals.shape[:-1]:
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                               "dimensions of boundaries tensor and input value tensor must match")
        flat_s = seq.reshape(-1, seq.shape[-1])
        flat_v = vals.reshape(-1, vals.shape[-1])
        res = np.stack([np.searchsorted(s, v, side=sd) for s, v in zip(flat_s, flat_v)]).reshape(vals.shape)
    return _to_ms(np.asarray(res), D.int32 if out_int32 else D.int64)


@register("bucketize", method=False)
def bucketize(input: Any, boundaries: Any, *, out_int32: bool = False, right: bool = False, out: Any = None) -> Any:
    """Bucket indices of `input` in the 1-D `boundaries`."""
    if len(_shape(boundaries)) != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({len(_shape(boundaries))})")
    vals = _np(input) if isinstance(input, _MsTensor) else np.asarray(input)
    res = np.searchsorted(_np(boundaries), vals, side="right" if right else "left")
    return _to_ms(np.asarray(res), D.int32 if out_int32 else D.int64)


@register("index_reduce", inplace=True)
def index_reduce(input: Any, dim: int, index: Any, source: Any, reduce: str, *, include_self: bool = True) -> Any:
    """torch 1.12 (beta): reduce the slices source.select(dim, i) into input.select(dim, index[i]) with 'prod',
    'mean', 'amax' or 'amin' (include_self: the input's value takes part). This is scatter_reduce with `index`
    broadcast along `dim`, and so are its gradients (torch's index_reduce_backward is scatter_reduce's with
    index_add/index_select for scatter_add/gather)."""
    from .._settings import warn_once

    warn_once("index_reduce", "index_reduce() is in beta and the API may change at any time.", stacklevel=4)
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    nd = len(_shape(input))
    dim = wrap_dim(dim, max(nd, 1))
    if int(np.prod(_shape(index))) != (_shape(source)[dim] if len(_shape(source)) else 1):
        raise IndexError("index_reduce_(): Number of indices should be equal to source.size(dim)")
    if source.dtype != input.dtype:
        raise RuntimeError(f"index_reduce_(): self ({D.scalar_name(input.dtype)}) and source "
                           f"({D.scalar_name(source.dtype)}) must have the same scalar type")
    return scatter_reduce(input, dim, _spread_index(index, dim, source), source, reduce, include_self=include_self)
