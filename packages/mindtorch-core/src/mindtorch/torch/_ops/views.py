"""torch's view constructors that MindSpore has no view kernel for: `Tensor.unfold` (sliding windows),
`as_strided`, `view_as_real`, `view_as_complex`.

Deviation from torch: these return COPIES (built with gather / concat / Complex, all differentiable), not views:
writing into the result does not change the input. Values, shapes, dtypes and gradients are torch's.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from ._args import wrap_dim
from ._registry import register

_MsTensor = ms.Tensor
_COMPLEX_OF = {id(D.float32): D.complex64, id(D.float64): D.complex128}


def _shape(x: Any) -> tuple:
    return tuple(_MsTensor.shape.fget(x))


@register("unfold", function=False)
def unfold(input: Any, dimension: int, size: int, step: int) -> Any:
    """Tensor.unfold: all windows of `size` elements, `step` apart, along `dimension`.

    (..., n, ...) -> (..., (n - size) // step + 1, ..., size): `dimension` holds the window index, a new last
    dim the window's elements. Built with one gather over precomputed indices (differentiable).
    """
    shape = _shape(input)
    if not shape:  # torch treats a 0-d tensor as one element along dim 0
        dimension = wrap_dim(dimension, 0)
        if size > 1:
            raise RuntimeError(f"maximum size for tensor at dimension 0 is 1 but size is {size}")
        if step <= 0:
            raise RuntimeError(f"step is {step} but must be > 0")
        return mint.reshape(input, (1,) * size) if size else mint.reshape(input, (1,))[0:0]
    d = wrap_dim(dimension, len(shape))
    n = shape[d]
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    count = (n - size) // step + 1
    idx = (np.arange(count)[:, None] * step + np.arange(size)[None, :]).reshape(-1)
    if idx.size == 0:  # size == 0: empty windows (MindSpore's gather refuses an empty index)
        return mint.zeros(shape[:d] + (count,) + shape[d + 1:] + (0,), dtype=input.dtype)
    out = ops.gather(input, _MsTensor(idx.astype(np.int64)), d)  # (..., count*size, ...)
    out = mint.reshape(out, shape[:d] + (count, size) + shape[d + 1:])
    if d + 1 == len(shape):
        return out
    perm = tuple(range(d + 1)) + tuple(range(d + 2, len(shape) + 1)) + (d + 1,)
    return mint.permute(out, perm)


@register("as_strided", method=True)
def as_strided(input: Any, size: Sequence[int], stride: Sequence[int], storage_offset: Optional[int] = None) -> Any:
    """The elements at `storage_offset + sum(i_k * stride[k])` for every index i of shape `size`.

    Supported for contiguous inputs, the storage being the input's own elements in row-major order (torch
    indexes the underlying storage, which is the same thing for a contiguous tensor with offset 0). A
    non-contiguous input, or an offset/extent that reaches outside the input's own elements (into a base
    tensor's storage), raises NotImplementedError: call `.contiguous()` first or index the base tensor.
    Differentiable (one gather); returns a copy, not a view.
    """
    size = tuple(int(s) for s in size)
    stride = tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape ({len(stride)} vs {len(size)})")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got strides: "
                           f"{list(stride)}")
    own = int(_MsTensor.storage_offset(input))
    offset = own if storage_offset is None else int(storage_offset)
    numel = int(np.prod(_shape(input), dtype=np.int64))
    if not bool(_MsTensor.is_contiguous(input)):
        raise NotImplementedError("torch.as_strided on a non-contiguous tensor is not supported by mindtorch "
                                  "(MindSpore exposes no raw storage): call .contiguous() first")
    if any(s == 0 for s in size):
        return mint.zeros(size, dtype=input.dtype)
    grids = np.meshgrid(*[np.arange(s, dtype=np.int64) for s in size], indexing="ij")
    flat = offset + sum(g * st for g, st in zip(grids, stride)) if size else np.array(offset, np.int64)
    flat = np.asarray(flat, np.int64) - own  # positions among the input's own elements
    lo, hi = int(flat.min()), int(flat.max())
    if lo < 0 or hi >= numel:
        if own == 0 and lo >= 0:  # the input is (taken as) the whole storage: torch's error
            item = D._ITEMSIZE[input.dtype]
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
                               f"and itemsize {item} requiring a storage size of {(hi + 1) * item} are out of "
                               f"bounds for storage of size {numel * item}")
        raise NotImplementedError("torch.as_strided reaching outside the tensor's own elements (into its base's "
                                  "storage) is not supported by mindtorch: call as_strided on the base tensor")
    out = ops.gather(mint.reshape(input, (-1,)), _MsTensor(flat.reshape(-1)), 0)
    return mint.reshape(out, size)


@register("view_as_real", method=False)
def view_as_real(input: Any) -> Any:
    """complex (...) -> real (..., 2) holding (real, imag); complex64 -> float32, complex128 -> float64."""
    if input.dtype not in D.all_complex_type:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    # ops.view_as_real calls `input.real()`, a property on our Tensor: build it from the primitives instead.
    return ops.stack((ops.real(input), ops.imag(input)), -1)


@register("view_as_complex", method=False)
def view_as_complex(input: Any) -> Any:
    """real (..., 2) -> complex (...): float32 -> complex64, float64 -> complex128."""
    c = _COMPLEX_OF.get(id(input.dtype))
    if c is None:
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a tensor "
                           f"of scalar type: {D.scalar_name(input.dtype)}")
    shape = _shape(input)
    if not shape or shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    # ops.unstack, not mint.select: select's backward hits a CPU InplaceCopy kernel error (measured on 2.10)
    re, im = ops.unstack(input, -1)
    return ops.Complex()(re, im)
