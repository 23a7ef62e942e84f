"""Shape and view ops: view, reshape, permute, transpose, squeeze, expand, cat, stack, split, flip, tril, ...

Views share storage exactly as in torch (MindSpore 2.10's PyNative view kernels: view, reshape of contiguous
input, transpose/permute, narrow/select, split/chunk/unbind, expand, diagonal, unsqueeze/squeeze, flatten of
contiguous input); writes through a view are seen by the base and vice versa (tests/test_ops_shape.py).
Ops that torch returns as copies (cat, stack, flip, roll, repeat, tril, ...) return new tensors.
"""
from __future__ import annotations

import builtins
from typing import Any, List, Optional, Sequence, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms
from ._args import shape_args, wrap_dim
from ._host import _host_op
from ._registry import TENSOR_TYPES, register

_MsTensor = ms.Tensor
_TENSOR_TYPES = TENSOR_TYPES  # (the live set: a set lookup before the slower isinstance, see _registry)


def _shape(x: Any) -> tuple:
    return tuple(_MsTensor.shape.fget(x))


def _ints(dims: Sequence[Any]) -> tuple:
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = dims[0]
    return tuple(int(d) for d in dims)


def _infer_shape(shape: tuple, numel: int, op: str) -> tuple:
    """Resolve one -1 and check the element count with torch's message."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def _numel(x: Any) -> int:
    n = 1
    for s in _shape(x):
        n *= s
    return n


# ------------------------------------------------------------------------------------------ views
@register("view", function=False)
def view(input: Any, *shape: Any, dtype: Any = None) -> Any:
    """A view with a new shape (shares storage; needs compatible strides as in torch).

    `view(dtype)` reinterprets the bytes (contiguous tensors, as torch requires for differing sizes); the
    result shares memory with `input` through the host buffer."""
    if dtype is None and len(shape) == 1 and isinstance(shape[0], D.dtype):
        dtype = shape[0]
    if dtype is not None:
        return _view_dtype(input, dtype)
    shp = _infer_shape(shape_args(shape), _numel(input), "view")
    if not _MsTensor.is_contiguous(input) and shp != _shape(input):
        # torch allows a view of a non-contiguous tensor only when the strides are compatible; numpy's
        # no-copy reshape rule is the same, so ask it on a zero-size-in-memory stand-in.
        probe = np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), _shape(input), _MsTensor.stride(input))
        try:
            probe.view().shape = shp
        except AttributeError:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.") from None
        return mint.reshape(input, shp)
    return _MsTensor.view(input, shp)


def _view_dtype(input: Any, dtype: Any) -> Any:
    d = D.to_dtype(dtype)
    if d == input.dtype:
        return _MsTensor.view(input, _shape(input))
    if d == D.bfloat16 or input.dtype == D.bfloat16:
        raise NotImplementedError("Tensor.view(dtype) with bfloat16 is not supported by mindtorch yet (no numpy "
                                  "bfloat16); use .to(dtype) for a value conversion")
    if not _MsTensor.is_contiguous(input) or _MsTensor.storage_offset(input):
        raise NotImplementedError("Tensor.view(dtype) of a non-contiguous or offset view is not supported by "
                                  "mindtorch yet; call .contiguous() first")
    a, b = D._ITEMSIZE[input.dtype], D._ITEMSIZE[d]
    shp = _shape(input)
    if a != b and (not shp or (shp[-1] * a) % b):
        raise RuntimeError(f"self.size(-1) must be divisible by {b // a if b > a else 1} to view "
                           f"{D.scalar_name(input.dtype)} as {D.scalar_name(d)} (different element sizes), but got "
                           f"{shp[-1] if shp else 1}")
    arr = input.asnumpy().view(D.to_numpy_dtype(d))  # asnumpy() is a writable view of the tensor's memory
    return ms.from_numpy(arr)


@register("view_as", function=False)
def view_as(input: Any, other: Any) -> Any:
    return view(input, _shape(other))


@register("reshape")
def reshape(input: Any, *shape: Any) -> Any:
    """A view when strides allow it, else a copy (as torch)."""
    shp = _infer_shape(shape_args(shape), _numel(input), "reshape")
    return mint.reshape(input, shp)


@register("reshape_as", function=False)
def reshape_as(input: Any, other: Any) -> Any:
    return reshape(input, _shape(other))


@register("permute")
def permute(input: Any, *dims: Any) -> Any:
    n = len(_shape(input))
    dims = _ints(dims)
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal to "
                           f"len(dims) = {len(dims)}")
    dims = tuple(wrap_dim(d, n) for d in dims)
    if len(set(dims)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return mint.permute(input, dims)


@register("transpose", aliases=("swapaxes", "swapdims"))
def transpose(input: Any, dim0: int, dim1: int) -> Any:
    n = len(_shape(input))
    if n == 0:
        wrap_dim(dim0, 0), wrap_dim(dim1, 0)
        return _MsTensor.view(input, ())
    return mint.transpose(input, wrap_dim(dim0, n), wrap_dim(dim1, n))


@register("movedim", aliases=("moveaxis",))
def movedim(input: Any, source: Any, destination: Any) -> Any:
    n = len(_shape(input))
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the "
                           f"same number of dims as destination ({dst} dims)")
    src = [wrap_dim(d, n) for d in src]
    dst = [wrap_dim(d, n) for d in dst]
    if n == 0:  # a 0-d tensor: dims 0 / -1 are valid and nothing moves
        return input
    order = [d for d in range(n) if d not in src]
    perm = [-1] * n
    for s, d in zip(src, dst):
        perm[d] = s
    it = iter(order)
    perm = [p if p >= 0 else next(it) for p in perm]
    return mint.permute(input, tuple(perm)) if n else input


@register("t")
def t(input: Any) -> Any:
    """Transpose of a <= 2-D tensor (0-D and 1-D are returned as is, as views)."""
    n = len(_shape(input))
    if n > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {n}D")
    return mint.transpose(input, 0, 1) if n == 2 else _MsTensor.view(input, _shape(input))


@register("adjoint")
def adjoint(input: Any) -> Any:
    res = mint.transpose(input, -2, -1)
    return ops.conj(res) if input.dtype in D.all_complex_type else res


@register("contiguous", function=False)
def contiguous(input: Any, memory_format: Any = None) -> Any:
    """self when already contiguous, else a contiguous copy."""
    if _MsTensor.is_contiguous(input):
        return input
    if _ms.HOST_MEMORY and input.dtype != D.bfloat16:
        # numpy's copy of the strided view: MindSpore's CPU Contiguous kernel copies element by element (~4 ms for
        # attention's (32, 64, 4, 32) transpose, numpy ~0.3 ms); the copy's gradient is the output's, unchanged
        return _host_op(_contiguous_np, _identity_vjp, input)
    return _MsTensor.contiguous(input)


def _contiguous_np(x: Any) -> Any:
    return _MsTensor.from_numpy(np.ascontiguousarray(_ms.host_view(x)))


def _identity_vjp(inputs: Any, out: Any, grad: Any) -> Any:
    return (grad,)


@register("clone")
def clone(input: Any, *, memory_format: Any = None) -> Any:
    """A copy with its own storage (recorded by autograd). MindSpore has no CPU Clone kernel: copy through a
    contiguous identity op."""
    if input.dtype == D.bool:
        return mint.logical_and(input, True) if _shape(input) else _MsTensor(input.asnumpy().copy())
    if not _shape(input):  # legacy Mul promotes a 0-d int tensor times a Python int to int64; mint's keeps it
        return mint.mul(input, 1) if input.dtype not in D.all_complex_type else ops.add(input, 0)
    return ops.mul(input, 1) if input.dtype not in D.all_complex_type else ops.add(input, 0)


# ------------------------------------------------------------------------------------- add/remove dims
@register("squeeze")
def squeeze(input: Any, dim: Any = None) -> Any:
    """Remove size-1 dims (all, one, or a tuple of dims); a view."""
    shp = _shape(input)
    n = len(shp)
    if dim is None:
        new = tuple(s for s in shp if s != 1)
    else:
        dims = {wrap_dim(d, n) for d in ((dim,) if isinstance(dim, int) else dim)} if n else set()
        new = tuple(s for i, s in enumerate(shp) if not (i in dims and s == 1))
    return _MsTensor.view(input, new) if _MsTensor.is_contiguous(input) else mint.reshape(input, new)


@register("unsqueeze")
def unsqueeze(input: Any, dim: int) -> Any:
    return mint.unsqueeze(input, wrap_dim(dim, len(_shape(input)) + 1))


@register("flatten")
def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    shp = _shape(input)
    n = len(shp)
    if n == 0:
        return mint.reshape(input, (1,))
    s, e = wrap_dim(start_dim, n), wrap_dim(end_dim, n)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    m = 1
    for v in shp[s:e + 1]:
        m *= v
    return mint.reshape(input, shp[:s] + (m,) + shp[e + 1:])


@register("unflatten")
def unflatten(input: Any, dim: int, sizes: Any) -> Any:
    shp = _shape(input)
    d = wrap_dim(dim, len(shp))
    sizes = _infer_shape(tuple(int(s) for s in sizes), shp[d], "unflatten")
    return mint.reshape(input, shp[:d] + sizes + shp[d + 1:])


@register("expand", function=False)
def expand(input: Any, *sizes: Any) -> Any:
    """A broadcast view (stride 0 on expanded dims); -1 keeps a size."""
    sizes = shape_args(sizes)
    shp = _shape(input)
    if len(sizes) < len(shp):
        raise RuntimeError(f"expand(torch.FloatTensor{{{list(shp)}}}, size=[{len(sizes)}]): the number of sizes "
                           f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in the "
                           f"tensor ({len(shp)})")
    lead = len(sizes) - len(shp)
    new = []
    for i, s in enumerate(sizes):
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                                   "non-existing dimension 0")
            new.append(s)
            continue
        cur = shp[i - lead]
        if s == -1:
            s = cur
        elif cur != 1 and s != cur:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(shp)}")
        new.append(s)
    return mint.broadcast_to(input, tuple(new)) if tuple(new) != shp else _MsTensor.view(input, shp)


@register("expand_as", function=False)
def expand_as(input: Any, other: Any) -> Any:
    return expand(input, _shape(other))


@register("broadcast_to")
def broadcast_to(input: Any, size: Any) -> Any:
    return expand(input, tuple(size))


@register("repeat", function=False)
def repeat(input: Any, *sizes: Any) -> Any:
    sizes = shape_args(sizes)
    if len(sizes) < len(_shape(input)):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                           "tensor")
    return _tile(input, tuple(int(s) for s in sizes))


def _tile(input: Any, reps: Tuple[int, ...]) -> Any:
    """input repeated reps[i] times along dim i (len(reps) >= input.ndim; leading dims added). MindSpore's Tile
    refuses an empty input ("fast stride can not be equal to 0"; YOLOv5's build_targets repeats a (0, 7) target
    tensor whenever a level matches nothing): an empty result is a reshape of the empty input, which keeps autograd."""
    shape = (1,) * (len(reps) - len(_shape(input))) + _shape(input)
    out = tuple(s * r for s, r in zip(shape, reps))
    if 0 in out:
        if 0 in shape:
            return mint.reshape(input, out)
        return mint.reshape(mint.narrow(mint.reshape(input, (-1,)), 0, 0, 0), out)
    return ops.tile(input, reps)


@register("tile")
def tile(input: Any, dims: Any) -> Any:
    dims = tuple(int(d) for d in dims)
    n = len(_shape(input))
    if len(dims) < n:
        dims = (1,) * (n - len(dims)) + dims
    return _tile(input, dims)


@register("repeat_interleave")
def repeat_interleave(input: Any, repeats: Any = None, dim: Optional[int] = None, *,
                      output_size: Optional[int] = None) -> Any:
    """Repeat elements; `repeats` int or 1-D tensor; flattens when dim is None. torch.repeat_interleave(repeats)
    (tensor only) gives the index pattern."""
    if repeats is None:  # torch.repeat_interleave(repeats_tensor)
        reps = input.asnumpy()
        return _MsTensor(np.repeat(np.arange(reps.shape[0], dtype=np.int64), reps))
    if dim is None:
        input = mint.reshape(input, (-1,))
        dim = 0
    n = len(_shape(input))
    dim = wrap_dim(dim, n)
    size = _shape(input)[dim]
    reps = repeats.asnumpy() if isinstance(repeats, _MsTensor) else np.asarray(int(repeats))
    if reps.ndim == 1 and reps.shape[0] not in (1, size):
        raise RuntimeError("repeats must have the same size as input along dim")
    if np.any(reps < 0):
        raise RuntimeError("repeats can not be negative")
    idx = np.repeat(np.arange(size, dtype=np.int64), reps if reps.ndim else int(reps))
    return ops.gather(input, _MsTensor(idx.astype(np.int32)), dim)


# ------------------------------------------------------------------------------------------- joining
def _tensor_list(tensors: Sequence[Any]) -> List[Any]:
    """The tensors of a TensorList argument, with torch's TypeError for anything else in it (a numpy array too)."""
    tensors = list(tensors)
    for i, x in enumerate(tensors):
        if type(x) not in _TENSOR_TYPES and not isinstance(x, _MsTensor):
            from .._tensor import torch_type_name

            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {torch_type_name(x)}")
    return tensors


def _promote_all(tensors: Sequence[Any]) -> List[Any]:
    d = None
    for x in tensors:
        d = x.dtype if d is None else D.promote_types(d, x.dtype)
    return [x if x.dtype == d else x.astype(d) for x in tensors]


@register("cat", method=False, aliases=("concat", "concatenate"))
def cat(tensors: Sequence[Any], dim: int = 0, *, axis: Optional[int] = None, out: Any = None) -> Any:
    """Concatenate along `dim` with torch's dtype promotion; legacy empty 1-D tensors are skipped as in torch."""
    if axis is not None:
        dim = axis
    tensors = _tensor_list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    tensors = _promote_all(tensors)
    keep = [x for x in tensors if _shape(x) != (0,)] or tensors[:1]
    n = len(_shape(keep[0]))
    if n == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = wrap_dim(dim, n)
    for i, x in enumerate(keep):
        s = _shape(x)
        if len(s) != n or any(a != b for j, (a, b) in enumerate(zip(s, _shape(keep[0]))) if j != d):
            raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                               f"{_shape(keep[0])[1 if d == 0 and n > 1 else 0] if n > 1 else ''} but got size "
                               f"{s[1 if d == 0 and n > 1 else 0] if len(s) > 1 else ''} for tensor number {i} in "
                               "the list.")
    if len(keep) == 1:
        return clone(keep[0])
    return mint.cat(keep, d)


@register("stack", method=False)
def stack(tensors: Sequence[Any], dim: int = 0, *, out: Any = None) -> Any:
    tensors = _promote_all(_tensor_list(tensors))
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    s0 = _shape(tensors[0])
    for i, x in enumerate(tensors):
        if _shape(x) != s0:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(s0)} at entry 0 and "
                               f"{list(_shape(x))} at entry {i}")
    d = wrap_dim(dim, len(s0) + 1)
    return ops.stack(tensors, d)


@register("hstack", method=False)
def hstack(tensors: Sequence[Any], *, out: Any = None) -> Any:
    ts = atleast_1d(*tensors) if len(tensors) > 1 else [atleast_1d(tensors[0])]
    return cat(ts, 0 if len(_shape(ts[0])) == 1 else 1)


@register("vstack", method=False, aliases=("row_stack",))
def vstack(tensors: Sequence[Any], *, out: Any = None) -> Any:
    ts = [atleast_2d(x) for x in tensors]
    return cat(ts, 0)


@register("dstack", method=False)
def dstack(tensors: Sequence[Any], *, out: Any = None) -> Any:
    return cat([atleast_3d(x) for x in tensors], 2)


@register("column_stack", method=False)
def column_stack(tensors: Sequence[Any], *, out: Any = None) -> Any:
    ts = [mint.reshape(x, (-1, 1)) if len(_shape(x)) <= 1 else x for x in tensors]
    return cat(ts, 1)


# ------------------------------------------------------------------------------------------ splitting
@register("split", aliases=("unsafe_split",))
def split(tensor: Any, split_size_or_sections: Any, dim: int = 0) -> Any:
    """Views of `split_size` chunks (last smaller) or of the given section sizes."""
    n = len(_shape(tensor))
    d = wrap_dim(dim, n)
    size = _shape(tensor)[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        secs = [int(s) for s in split_size_or_sections]
        if builtins.sum(secs) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                               f"at dimension {d}), but got split_sizes={secs}")
    else:
        step = int(split_size_or_sections)
        if step <= 0 and size:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
        secs = [builtins.min(step, size - i) for i in range(0, size, step)] if size else [0]
    out, start = [], 0
    for s in secs:
        out.append(mint.narrow(tensor, d, start, s))
        start += s
    return tuple(out)


@register("split_with_sizes", aliases=("unsafe_split_with_sizes",))
def split_with_sizes(input: Any, split_sizes: Sequence[int], dim: int = 0) -> Any:
    """`split` with a list of section sizes (they must sum to the size of `dim`)."""
    return split(input, list(split_sizes), dim)


@register("tensor_split")
def tensor_split(input: Any, indices_or_sections: Any, dim: int = 0) -> Any:
    n = len(_shape(input))
    if n == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = wrap_dim(dim, n)
    size = _shape(input)[d]
    ios = indices_or_sections
    if isinstance(ios, _MsTensor):
        ios = ios.asnumpy().tolist()
    if isinstance(ios, int):
        if ios <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {ios}")
        q, r = divmod(size, ios)
        bounds, start = [], 0
        for i in range(ios):
            start += q + (1 if i < r else 0)
            bounds.append(start)
        bounds = bounds[:-1]
    else:
        bounds = [int(i) for i in ios]
    out, prev = [], 0
    for b in bounds + [size]:
        b = builtins.min(builtins.max(b if b >= 0 else b + size, 0), size)
        lo = builtins.min(prev, b)
        out.append(mint.narrow(input, d, lo, b - lo))
        prev = builtins.max(prev, b)
    return tuple(out)


@register("chunk", aliases=("unsafe_chunk",))
def chunk(input: Any, chunks: int, dim: int = 0) -> Any:
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    d = wrap_dim(dim, len(_shape(input)))
    size = _shape(input)[d]
    step = -(-size // chunks) if size else 1
    return split(input, step, d)


@register("unbind")
def unbind(input: Any, dim: int = 0) -> Any:
    n = len(_shape(input))
    if n == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, n)
    return tuple(_select(input, d, i) for i in range(_shape(input)[d]))


def _select(input: Any, d: int, i: int) -> Any:
    """The view `input[..., i, ...]` at dim d, built as narrow + squeeze (both views): the backward of MindSpore's
    own select view (SelectExtView) fails on CPU ("InplaceCopy, an unexpected kernel has been launched")."""
    return mint.squeeze(mint.narrow(input, d, i, 1), d)


@register("narrow")
def narrow(input: Any, dim: int, start: Any, length: int) -> Any:
    n = len(_shape(input))
    if n == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, n)
    size = _shape(input)[d]
    start = int(start)
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size or length < 0:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return mint.narrow(input, d, start, int(length))


@register("select")
def select(input: Any, dim: int, index: int) -> Any:
    n = len(_shape(input))
    if n == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, n)
    size = _shape(input)[d]
    index = int(index)
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(_shape(input))} at "
                         f"dimension {d}")
    return _select(input, d, index % size)


# ----------------------------------------------------------------------------------- reorder elements
@register("flip")
def flip(input: Any, *dims: Any) -> Any:
    n = len(_shape(input))
    dims = tuple(wrap_dim(d, n) for d in _ints(dims))
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {next(d for d in dims if dims.count(d) > 1)} appears multiple times in the list "
                           "of dims")
    # an empty input: MindSpore 2.10's CPU ReverseV2 kernel divides by its zero size (SIGFPE, intermittently)
    if not dims or n == 0 or 0 in _shape(input):
        return clone(input)
    return mint.flip(input, dims)


@register("fliplr")
def fliplr(input: Any) -> Any:
    if len(_shape(input)) < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


@register("flipud")
def flipud(input: Any) -> Any:
    if len(_shape(input)) < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


@register("roll")
def roll(input: Any, shifts: Any, dims: Any = None) -> Any:
    """Circular shift, built from narrow + cat (MindSpore has no CPU Roll kernel); differentiable."""
    if dims is None:
        flat = mint.reshape(input, (-1,))
        return mint.reshape(roll(flat, shifts, 0), _shape(input))
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    n = len(_shape(input))
    out = input
    for s, d in zip(shifts, dims):
        d = wrap_dim(d, n)
        size = _shape(out)[d]
        if size == 0:
            continue
        s %= size
        if s:
            out = mint.cat([_dim_slice(out, d, size - s, size), _dim_slice(out, d, 0, size - s)], d)
    return out if out is not input else clone(input)


def _dim_slice(x: Any, d: int, start: int, stop: int) -> Any:
    """x[..., start:stop, ...] along dim d as a StridedSlice copy. Not mint.narrow: measured on MindSpore 2.10,
    cat of two NarrowViews of one tensor has a wrong second derivative (create_graph=True), the copy a right one."""
    shp = _shape(x)
    begin = tuple(start if i == d else 0 for i in range(len(shp)))
    end = tuple(stop if i == d else n for i, n in enumerate(shp))
    return ops.strided_slice(x, begin, end, (1,) * len(shp))


@register("rot90")
def rot90(input: Any, k: int = 1, dims: Sequence[int] = (0, 1)) -> Any:
    n = len(_shape(input))
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = wrap_dim(dims[0], n), wrap_dim(dims[1], n)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k %= 4
    if k == 1:
        return mint.transpose(flip(input, (d1,)), d0, d1)
    if k == 2:
        return flip(input, (d0, d1))
    if k == 3:
        return flip(mint.transpose(input, d0, d1), (d1,))
    return clone(input)


# ------------------------------------------------------------------------------------------ triangles
def _tri(input: Any, diagonal: int, lower: bool, name: str) -> Any:
    shp = _shape(input)
    if len(shp) < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    r, c = shp[-2:]
    mask = np.tri(r, c, diagonal, dtype=bool) if lower else ~np.tri(r, c, diagonal - 1, dtype=bool)
    zero = _MsTensor(np.zeros((), dtype=D.to_numpy_dtype(input.dtype)) if input.dtype != D.bfloat16 else 0.0,
                     dtype=input.dtype)
    return mint.where(_MsTensor(mask), input, zero)


@register("tril", inplace=True)
def tril(input: Any, diagonal: int = 0) -> Any:
    """Lower triangle (elements above `diagonal` zeroed), batched over leading dims."""
    return _tri(input, diagonal, True, "tril")


@register("triu", inplace=True)
def triu(input: Any, diagonal: int = 0) -> Any:
    """Upper triangle (elements below `diagonal` zeroed), batched over leading dims."""
    return _tri(input, diagonal, False, "triu")


# ---------------------------------------------------------------------------------------- diagonals
@register("diagonal")
def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """A view of the diagonal (moved to the last dim)."""
    n = len(_shape(input))
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _MsTensor.diagonal(input, offset, d1, d2)


@register("diag_embed")
def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    return ops.diag_embed(input, offset, dim1, dim2)


@register("diag")
def diag(input: Any, diagonal: int = 0) -> Any:
    """1-D -> a square matrix with `input` on the `diagonal`; 2-D -> a copy of that diagonal."""
    n = len(_shape(input))
    if n == 1:
        if input.dtype == D.bool:  # MindSpore's DiagEmbed has no bool kernel
            return mint.ne(ops.diag_embed(ops.cast(input, D.uint8), diagonal), 0)
        return ops.diag_embed(input, diagonal)
    if n == 2:
        return clone(_MsTensor.diagonal(input, diagonal, 0, 1))
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{n}D")


@register("diagflat")
def diagflat(input: Any, offset: int = 0) -> Any:
    return diag(mint.reshape(input, (-1,)), offset)


# --------------------------------------------------------------------------------------- atleast / grids
def _atleast(tensors: tuple, nd: int) -> Any:
    def one(x: Any) -> Any:
        s = _shape(x)
        if len(s) >= nd:
            return x
        if nd == 3 and len(s) == 2:
            return mint.reshape(x, s + (1,))
        if nd == 3 and len(s) == 1:
            return mint.reshape(x, (1,) + s + (1,))
        return mint.reshape(x, (1,) * (nd - len(s)) + s)

    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(one(x) for x in tensors[0])
    if len(tensors) == 1:
        return one(tensors[0])
    return tuple(one(x) for x in tensors)


@register("atleast_1d", method=False)
def atleast_1d(*tensors: Any) -> Any:
    return _atleast(tensors, 1)


@register("atleast_2d", method=False)
def atleast_2d(*tensors: Any) -> Any:
    return _atleast(tensors, 2)


@register("atleast_3d", method=False)
def atleast_3d(*tensors: Any) -> Any:
    return _atleast(tensors, 3)


@register("meshgrid", method=False)
def meshgrid(*tensors: Any, indexing: Optional[str] = None) -> Any:
    """Grids from 1-D tensors; indexing 'ij' (torch 1.12's default) or 'xy'. Results are expanded views."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    indexing = indexing or "ij"
    if indexing not in ("ij", "xy"):
        raise ValueError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    sizes = [_numel(t) for t in tensors]
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(tensors):
        pos = i
        if swap and i < 2:
            pos = 1 - i
        shp = [1] * len(tensors)
        shp[pos] = sizes[pos]
        out.append(mint.broadcast_to(mint.reshape(t, tuple(shp)), tuple(sizes)))
    return tuple(out)


def _broadcast_shapes(*shapes: Any) -> tuple:
    res: list = []
    for s in shapes:
        s = (int(s),) if isinstance(s, int) else tuple(s)
        if len(s) > len(res):
            res = [1] * (len(s) - len(res)) + res
        for i, v in enumerate(s):
            j = len(res) - len(s) + i
            if res[j] == 1:
                res[j] = v
            elif v != 1 and v != res[j]:
                raise RuntimeError(f"shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                   f"between arg 0 and arg {shapes.index(s) if s in shapes else 1}.")
    return tuple(res)


def broadcast_shapes(*shapes: Any) -> Any:
    """torch.broadcast_shapes -> torch.Size (plain function: no tensors involved)."""
    from .._tensor import Size

    return Size(_broadcast_shapes(*shapes))


@register("broadcast_tensors", method=False)
def broadcast_tensors(*tensors: Any) -> Any:
    shp = _broadcast_shapes(*[_shape(t) for t in tensors])
    return tuple(expand(t, shp) for t in tensors)


# ---------------------------------------------------------------------------------- more torch 1.12 ops
@register("ravel")
def ravel(input: Any) -> Any:
    """Flattened (a view when contiguous)."""
    return mint.reshape(input, (-1,))


def _nsplit(input: Any, ios: Any, dim: int, name: str) -> Any:
    if isinstance(ios, int) and _shape(input)[dim] % ios:
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                           f"{_shape(input)[dim]} is not divisible by the split_size {ios}!")
    return tensor_split(input, ios, dim)


@register("hsplit")
def hsplit(input: Any, indices_or_sections: Any) -> Any:
    if not _shape(input):
        raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 "
                           "dimensions!")
    return _nsplit(input, indices_or_sections, 1 if len(_shape(input)) > 1 else 0, "hsplit")


@register("vsplit")
def vsplit(input: Any, indices_or_sections: Any) -> Any:
    if len(_shape(input)) < 2:
        raise RuntimeError(f"torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with "
                           f"{len(_shape(input))} dimensions!")
    return _nsplit(input, indices_or_sections, 0, "vsplit")


@register("dsplit")
def dsplit(input: Any, indices_or_sections: Any) -> Any:
    if len(_shape(input)) < 3:
        raise RuntimeError(f"torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with "
                           f"{len(_shape(input))} dimensions!")
    return _nsplit(input, indices_or_sections, 2, "dsplit")


@register("block_diag", method=False)
def block_diag(*tensors: Any) -> Any:
    """Block-diagonal matrix from 0-, 1- or 2-D tensors (zero padding via cat: differentiable)."""
    mats = [mint.reshape(t, (1, -1)) if len(_shape(t)) < 2 else t for t in tensors]
    mats = _promote_all(mats)
    if not mats:
        return _MsTensor(np.zeros((1, 0), np.float32))
    total = builtins.sum(_shape(m)[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        r, c = _shape(m)
        parts = []
        if left:
            parts.append(mint.zeros((r, left), dtype=m.dtype))
        parts.append(m)
        if total - left - c:
            parts.append(mint.zeros((r, total - left - c), dtype=m.dtype))
        rows.append(mint.cat(parts, 1) if len(parts) > 1 else m)
        left += c
    return mint.cat(rows, 0) if len(rows) > 1 else clone(rows[0])


@register("cartesian_prod", method=False)
def cartesian_prod(*tensors: Any) -> Any:
    if len(tensors) == 1:
        return clone(tensors[0])
    grids = meshgrid(*tensors, indexing="ij")
    return ops.stack([mint.reshape(g, (-1,)) for g in grids], 1)


def _check_slot(src: Any, slot: tuple) -> None:
    """torch's *_scatter ops take src shaped exactly like the slot it fills (no broadcasting)."""
    if _shape(src) != slot:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(_shape(src))}, "
                           f"slice size = {list(slot)}")


def _scatter_into(input: Any, index: tuple, src: Any) -> Any:
    """A copy of input with `src` written at `index`: a setitem into a fresh clone, not into a view, so autograd
    records it (input's gradient is the output's with the slot zeroed, src's is the slot's)."""
    if input.dtype == D.bfloat16:
        # MindSpore 2.10 has no CPU bfloat16 TensorScatterUpdate, and the dispatcher's float32 retry after the
        # failed kernel loses the gradient: copy in float32 (exact) up front
        return ops.cast(_scatter_into(ops.cast(input, D.float32), index, ops.cast(src, D.float32)), D.bfloat16)
    res = clone(input)
    _MsTensor.__setitem__(res, index, src if src.dtype == input.dtype else ops.cast(src, input.dtype))
    return res


@register("select_scatter")
def select_scatter(input: Any, src: Any, dim: int, index: int) -> Any:
    _check_slot(src, _shape(select(input, dim, index)))  # (torch's IndexError for an index out of range)
    return _scatter_into(input, (slice(None),) * wrap_dim(dim, len(_shape(input))) + (int(index),), src)


@register("slice_scatter")
def slice_scatter(input: Any, src: Any, dim: int = 0, start: Optional[int] = None, end: Optional[int] = None,
                  step: int = 1) -> Any:
    d = wrap_dim(dim, len(_shape(input)))
    slot = list(_shape(input))
    slot[d] = len(range(*slice(start, end, step).indices(slot[d])))
    _check_slot(src, tuple(slot))
    return _scatter_into(input, (slice(None),) * d + (slice(start, end, step),), src)


@register("diagonal_scatter")
def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """input with its diagonal (offset, dim1, dim2) replaced by src, shaped like that diagonal (the other dims, then
    the diagonal's). Written into a diagonal view of a clone; while autograd records, through integer index arrays
    at dim1 and dim2 instead: MindSpore 2.10 loses a recorded write into a Diagonal view (_ms.setitem refuses it),
    and the index-array write, differentiable w.r.t. input and src, is about twice as slow."""
    shp = _shape(input)
    n = len(shp)
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    k = builtins.max(0, builtins.min(shp[d1], shp[d2] - offset) if offset >= 0 else
                     builtins.min(shp[d1] + offset, shp[d2]))
    _check_slot(src, tuple(s for i, s in enumerate(shp) if i not in (d1, d2)) + (k,))
    if not k:
        return clone(input)
    if not _ms.records_grad(input, src):
        res = clone(input)
        _ms.setitem(_MsTensor.diagonal(res, offset, d1, d2), slice(None),
                    src if src.dtype == input.dtype else ops.cast(src, input.dtype))
        return res
    steps = np.arange(k, dtype=np.int64)
    index = [slice(None)] * n
    index[d1] = _MsTensor(steps + builtins.max(-offset, 0))
    index[d2] = _MsTensor(steps + builtins.max(offset, 0))
    # numpy's (and MindSpore's) place for the indexed dim: where the two index arrays are when adjacent, else first
    at = builtins.min(d1, d2) if abs(d1 - d2) == 1 else 0
    if at != n - 2:
        src = mint.permute(src, tuple(range(at)) + (n - 2,) + tuple(range(at, n - 2)))
    return _scatter_into(input, tuple(index), src)


# ------------------------------------------------------------------------- in-place shape changes (x.t_())
def _restride_inplace(name: str) -> None:
    """`Tensor.<name>_`: x takes the shape of `x.<name>(...)` as the same object, keeping its storage (the view
    shares it, so x's other views and its base still see writes through x). torch refuses it on a leaf that
    requires grad; on a non-leaf the view op is recorded and gradients flow through it."""
    from ._registry import METHODS, bump_version

    view = METHODS[name]

    def impl(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self._requires_grad and self._is_leaf and _ms.is_recording():
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        _ms.rebind(self, view(self, *args, **kwargs))
        bump_version(self)
        return self

    impl.__name__ = impl.__qualname__ = name + "_"
    impl.__doc__ = f"In-place `{name}`: changes this tensor's shape/strides, not its data."
    register(name + "_", function=False)(impl)  # a Tensor method only, as in torch


for _name in ("squeeze", "unsqueeze", "t", "transpose", "swapaxes", "swapdims"):
    _restride_inplace(_name)
