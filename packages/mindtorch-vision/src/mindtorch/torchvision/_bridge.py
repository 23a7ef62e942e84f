"""Tensor <-> numpy bridge for vision's data-side code.

Transforms, io and ops are data-side code: they compute in numpy (exact, fast on CPU, independent of which core
ops have kernels) and hand results back as mindtorch tensors. Only `mindtorch.torch` public API and MindSpore's
public `Tensor.asnumpy` are used.
"""
from __future__ import annotations

from typing import Any

import mindspore as ms
import numpy as np

import mindtorch.torch as torch

_INT_MAX = {
    np.dtype(np.uint8): 255,
    np.dtype(np.int8): 127,
    np.dtype(np.int16): 32767,
    np.dtype(np.int32): 2147483647,
    np.dtype(np.int64): 9223372036854775807,
}


def is_tensor(x: Any) -> bool:
    """True for mindtorch (and plain MindSpore) tensors."""
    return isinstance(x, ms.Tensor)


def records_grad(*xs: Any) -> bool:
    """Whether autograd records an op on `xs`: one is a tensor that requires grad (an input being attacked or
    learned, boxes in an IoU loss). Those take torch ops instead of the numpy kernels (transforms: normalize,
    resize, crop, hflip, vflip; ops: the IoU family, box_area/convert, clip_boxes_to_image), so the gradient
    flows as through torchvision's torch ops."""
    return torch.is_grad_enabled() and any(is_tensor(x) and bool(x.requires_grad) for x in xs)


def to_numpy(t: Any) -> np.ndarray:
    """A numpy view/copy of tensor `t` (do not mutate the result: copy first)."""
    if isinstance(t, np.ndarray):
        return t
    return np.asarray(ms.Tensor.asnumpy(t))


def from_numpy(arr: np.ndarray) -> Any:
    """A mindtorch tensor holding `arr` (made contiguous; 0-d arrays supported)."""
    arr = np.asarray(arr)
    if arr.dtype == np.float16 or arr.dtype.kind in "biuf":
        return torch.from_numpy(np.ascontiguousarray(arr))
    raise TypeError(f"cannot convert a numpy array of dtype {arr.dtype} to a tensor")


def np_dtype(t: Any) -> np.dtype:
    """The numpy dtype a tensor's data has."""
    return to_numpy(t).dtype


def is_float(dtype: np.dtype) -> bool:
    return np.dtype(dtype).kind == "f"


def max_value(dtype: np.dtype) -> float:
    """torchvision's `_max_value`: 1.0 for floats, the type's max for integers."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return 1.0
    if dtype.kind == "b":
        return 1
    return _INT_MAX[dtype]


_NP_DTYPES: dict = {}


def torch_to_np_dtype(dtype: Any) -> np.dtype:
    """numpy dtype of a mindtorch dtype (torch.float32 -> float32 ...), cached per dtype."""
    key = str(dtype)
    if key not in _NP_DTYPES:
        _NP_DTYPES[key] = to_numpy(torch.zeros(1, dtype=dtype)).dtype
    return _NP_DTYPES[key]


def write_back(dst: Any, arr: np.ndarray) -> Any:
    """Write `arr` into tensor `dst` in place (through views) and return `dst`."""
    dst[:] = from_numpy(np.ascontiguousarray(arr.astype(np_dtype(dst), copy=False)))
    return dst
