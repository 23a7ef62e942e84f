"""Creation ops: tensor, zeros, ones, full, arange, ... (torch.* functions, some Tensor.new_* methods)."""
from __future__ import annotations

from typing import Any

import mindspore as ms
import numpy as np
from mindspore import ops

from .. import _dtype as D
from ._args import shape_args
from ._registry import register


def _finish(t: Any, requires_grad: bool) -> Any:
    if requires_grad:
        t.requires_grad_()
    return t


@register("zeros", method=False)
def zeros(*size: Any, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None,
          requires_grad: bool = False) -> Any:
    """torch.zeros(*size, dtype=None): a tensor of zeros (default dtype)."""
    d = D.to_dtype(dtype) or D.get_default_dtype()
    return _finish(ops.zeros(shape_args(size), d), requires_grad)


@register("ones", method=False)
def ones(*size: Any, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None,
         requires_grad: bool = False) -> Any:
    """torch.ones(*size, dtype=None): a tensor of ones (default dtype)."""
    d = D.to_dtype(dtype) or D.get_default_dtype()
    return _finish(ops.ones(shape_args(size), d), requires_grad)


@register("from_numpy", method=False)
def from_numpy(ndarray: np.ndarray) -> Any:
    """torch.from_numpy: zero-copy, shares memory with the array."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    D.from_numpy_dtype(ndarray.dtype)  # torch's error for unsupported dtypes
    if not ndarray.flags["C_CONTIGUOUS"]:
        ndarray = np.ascontiguousarray(ndarray)
    return ms.from_numpy(ndarray) if ndarray.ndim else ms.Tensor(ndarray)
