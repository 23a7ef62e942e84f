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


_FLOAT64 = D.float64
_REAL_NUMBER_TYPES = (float, int, np.integer, np.floating)


def scalar_arg(v: Any, like: Any) -> Any:
    """A Python number `v` as the scalar operand of a MindSpore op whose tensor operand is `like`, at torch's
    precision. MindSpore 2.10 rounds a Python float given to an op (`ops.mul(x, 0.3)`, `ops.clamp(x, lo, hi)`,
    `ops.pow(x, 2.5)`...) to float32 even when `x` is float64 (results off by ~1e-8 relative, where torch keeps
    the full double), so for a float64 `like` the number becomes a 0-d float64 tensor. Every other dtype gets `v`
    back untouched: the tensor-scalar kernels are exact and faster there, and the check costs no op."""
    if like.dtype is _FLOAT64 and isinstance(v, _REAL_NUMBER_TYPES) and type(v) is not bool:  # np.float64 too
        return _MsTensor(float(v), dtype=_FLOAT64)
    return v
