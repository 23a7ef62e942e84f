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
from ._registry import register

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
