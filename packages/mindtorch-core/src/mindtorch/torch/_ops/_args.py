"""Argument normalisation shared by the op families (torch's conventions -> MindSpore's)."""
from __future__ import annotations

import math
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


# torch's C++ name of each dtype in its "value cannot be converted" error (c10::Scalar::to<T>)
_CONVERT_NAME = {D.int8: "int8_t", D.uint8: "uint8_t", D.int16: "int16_t", D.int32: "int", D.int64: "int64_t",
                 D.float32: "float"}
# the numbers each checked dtype takes (uint8: -255..255, which wrap as a cast does)
_RANGE = {D.int8: (-128, 127), D.uint8: (-255, 255), D.int16: (-2 ** 15, 2 ** 15 - 1),
          D.int32: (-2 ** 31, 2 ** 31 - 1), D.int64: (-2 ** 63, 2 ** 63 - 1),
          D.float32: (-3.4028234663852886e38, 3.4028234663852886e38)}


def check_scalar_fits(value: Any, d: Any) -> None:
    """torch's overflow check when a Python number is converted to dtype d as a Scalar (c10 checked_convert: setitem,
    clamp's bounds): `int8_t[0] = 300` raises; uint8 takes -255..255, wrapping as a cast does; float16/float64,
    and inf/NaN into float32, are not checked. (Arithmetic with a Python number wraps it silently instead.)"""
    bounds = _RANGE.get(d)
    if bounds is None:
        return
    lo, hi = bounds
    if lo <= value <= hi or (d is D.float32 and not math.isfinite(value)):  # float32 stores inf and NaN
        return
    raise scalar_overflow_error(d)  # out of range, or NaN/inf into an integer dtype


def scalar_overflow_error(d: Any) -> RuntimeError:
    name = _CONVERT_NAME.get(d, D.cpp_name(d))
    return RuntimeError(f"value cannot be converted to type {name} without overflow")
