"""In-place methods that have no out-of-place twin: zero_, fill_, copy_, fill_diagonal_, apply_, map_.

Each implementation returns the new value of `self` in self's dtype and shape; the registry's write-back
(`writes_self=True`) stores it through every kind of view and returns self. Casting here is torch's
unchecked cast (`int_tensor.fill_(2.7)` stores 2, `copy_` converts any dtype), unlike the result-type check
that guards ordinary in-place ops.
"""
from __future__ import annotations

from typing import Any

import mindspore as ms
import numpy as np
from mindspore import ops

from .. import _dtype as D
from ._registry import bump_version, register

_MsTensor = ms.Tensor


def _shape(t: Any) -> tuple:
    return tuple(_MsTensor.shape.fget(t))


@register("zero_", function=False, writes_self=True)
def zero_(self: Any) -> Any:
    """Fill self with zeros."""
    return ops.zeros(_shape(self), self.dtype)


@register("fill_", function=False, writes_self=True)
def fill_(self: Any, value: Any) -> Any:
    """Fill self with `value` (a Python number or a 0-d tensor), cast to self's dtype."""
    if isinstance(value, _MsTensor):
        if value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                               "dimensions.")
        value = value.asnumpy().item()
    if self.dtype in D.all_int_type or self.dtype == D.bool:
        value = int(value) if self.dtype != D.bool else bool(value)
    return ops.fill(self.dtype, _shape(self), value)


@register("copy_", function=False, writes_self=True)
def copy_(self: Any, src: Any, non_blocking: bool = False) -> Any:
    """Copy `src` (broadcast to self's shape, converted to self's dtype) into self."""
    if not isinstance(src, _MsTensor):
        src = _MsTensor(np.asarray(src))
    if src.dtype != self.dtype:
        src = ops.cast(src, self.dtype)
    return src


@register("fill_diagonal_", function=False, writes_self=True)
def fill_diagonal_(self: Any, fill_value: Any, wrap: bool = False) -> Any:
    """Fill the main diagonal (all dims equal for ndim > 2); `wrap` restarts it every n+1 rows of a tall
    matrix, as torch does."""
    shape = _shape(self)
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    mask = np.zeros(shape, dtype=bool)
    if len(shape) == 2:
        rows, cols = shape
        n = min(rows, cols)
        idx = np.arange(n)
        mask[idx, idx] = True
        if wrap and rows > cols + 1:
            start = cols + 1
            while start < rows:
                k = min(cols, rows - start)
                mask[start + np.arange(k), np.arange(k)] = True
                start += cols + 1
    else:
        idx = np.arange(shape[0])
        mask[(idx,) * len(shape)] = True
    filled = ops.fill(self.dtype, shape, fill_value)
    return ops.select(_MsTensor(mask), filled, self)


def _host_elementwise(self: Any, fn: Any, *others: Any) -> Any:
    """fn applied to every element of self (and the matching elements of `others`, broadcast to self's shape) in
    Python, as torch's CPU-only apply_/map_ do; the results are cast back to self's dtype."""
    if self.dtype == D.bfloat16:
        raise TypeError("apply_/map_ do not support bfloat16 tensors")
    arr = self.asnumpy()
    args = [np.broadcast_to(np.asarray(o.asnumpy() if isinstance(o, _MsTensor) else o), arr.shape) for o in others]
    out = np.empty_like(arr)
    for idx in np.ndindex(arr.shape):
        out[idx] = fn(arr[idx].item(), *(a[idx].item() for a in args))
    return _MsTensor(out)


@register("apply_", function=False, writes_self=True)
def apply_(self: Any, callable: Any) -> Any:  # noqa: A002 - torch's parameter name
    """Replace each element x with callable(x) (a Python function, run on the host; slow, as in torch)."""
    return _host_elementwise(self, callable)


@register("map_", function=False, writes_self=True)
def map_(self: Any, tensor: Any, callable: Any) -> Any:  # noqa: A002
    """Replace each element x of self with callable(x, y), y the element of `tensor` (broadcast to self)."""
    return _host_elementwise(self, callable, tensor)


@register("map2_", function=False, writes_self=True)
def map2_(self: Any, x: Any, y: Any, callable: Any) -> Any:  # noqa: A002
    """Replace each element s of self with callable(s, x, y), x and y the elements of `x` and `y` (broadcast)."""
    return _host_elementwise(self, callable, x, y)


def _resize(self: Any, shape: tuple) -> Any:
    """Give self `shape` in place (the same Python object), keeping the first elements in row-major order."""
    from .. import _ms
    from ._args import shape_args

    shape = tuple(int(s) for s in shape_args(shape))
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    if getattr(self, "_requires_grad", False):
        raise RuntimeError("cannot resize variables that require grad")
    if tuple(self.shape) == shape:
        return self
    n = int(np.prod(shape)) if shape else 1
    flat = ms.ops.reshape(self, (-1,))
    have = int(flat.shape[0])
    if n <= have:
        data = flat[:n] if n else ms.ops.zeros((0,), self.dtype)
    else:  # torch leaves the new elements uninitialised; here they are zero
        data = ms.ops.cat((flat, ms.ops.zeros((n - have,), self.dtype))) if have else ms.ops.zeros((n,), self.dtype)
    _ms.rebind(self, ms.ops.reshape(ms.ops.add(data, 0) if data.dtype != ms.bool_ else data.copy(), shape))
    bump_version(self)
    return self


@register("resize_", function=False)
def resize_(self: Any, *sizes: Any, memory_format: Any = None) -> Any:
    """Resize self to `sizes` in place, keeping its first elements (row-major); new elements are zero (torch:
    uninitialised). Limit: self gets new storage, so views taken before the resize no longer alias it (in torch
    a shrink keeps the storage); tensors that require grad are refused, as in torch."""
    return _resize(self, sizes)


@register("resize_as_")
def resize_as_(self: Any, the_template: Any, *, memory_format: Any = None) -> Any:
    """resize_(the_template.shape)."""
    return _resize(self, tuple(the_template.shape))


def _same_numel_resize(self: Any, shape: tuple, name: str) -> Any:
    import warnings

    from ._args import shape_args

    warnings.warn(f"non-inplace {name} is deprecated", stacklevel=4)
    shape = tuple(int(s) for s in shape_args(shape))
    n = int(np.prod(shape)) if shape else 1
    have = int(np.prod(tuple(self.shape))) if self.ndim else 1
    if n != have:
        raise RuntimeError(f"requested resize to {'x'.join(map(str, shape))} ({n} elements in total), but the given "
                           f"tensor has a size of {'x'.join(map(str, self.shape))} ({have} elements). autograd's "
                           "resize can only change the shape of a given tensor, while preserving the number of "
                           "elements. ")
    return ops.reshape(self, shape)


@register("resize", function=False)
def resize(self: Any, *sizes: Any) -> Any:
    """Deprecated non-inplace resize (torch's autograd Resize): self reshaped to `sizes`, which must keep the number
    of elements (MindSpore's own Tensor.resize pads or truncates like numpy; torch refuses)."""
    return _same_numel_resize(self, sizes, "resize")


@register("resize_as", function=False)
def resize_as(self: Any, tensor: Any) -> Any:
    """Deprecated non-inplace resize_as: resize(tensor.shape)."""
    return _same_numel_resize(self, tuple(tensor.shape), "resize_as")
