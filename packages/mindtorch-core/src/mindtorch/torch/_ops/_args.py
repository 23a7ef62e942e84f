"""Argument normalisation shared by the op families (torch's conventions -> MindSpore's)."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import mindspore as ms
import numpy as np

from .. import _dtype as D

_MsTensor = ms.Tensor


def as_tensor_arg(x: Any, like: Optional[Any] = None) -> Any:
    """A MindSpore tensor from an op argument: tensors pass through, numpy arrays and Python numbers convert
    (numbers take torch's scalar dtype rules relative to `like`)."""
    if isinstance(x, _MsTensor):
        return x
    if isinstance(x, np.ndarray):
        return _MsTensor(x)
    if isinstance(x, (bool, int, float, complex)):
        d = D.scalar_dtype(x) if like is None else D.result_type_of([like.dtype], [x])
        return _MsTensor(x, dtype=d)
    raise TypeError(f"expected Tensor, number or numpy array, got {type(x).__name__}")


def dim_arg(dim: Any = None, axis: Any = None) -> Any:
    """torch accepts `dim` and numpy's `axis`."""
    return axis if dim is None else dim


def keepdim_arg(keepdim: Optional[bool] = None, keepdims: Optional[bool] = None) -> bool:
    return bool(keepdims) if keepdim is None else bool(keepdim)


def shape_args(size: Sequence[Any]) -> Tuple[int, ...]:
    """`f(2, 3)`, `f((2, 3))`, `f([2, 3])`, `f(torch.Size([2, 3]))` -> (2, 3)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    return tuple(int(s) for s in size)


def wrap_dim(dim: int, ndim: int, op: str = "") -> int:
    """Normalise a possibly negative dim, with torch's IndexError on out of range."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def dtype_arg(dtype: Union[None, Any]) -> Any:
    return D.to_dtype(dtype)
