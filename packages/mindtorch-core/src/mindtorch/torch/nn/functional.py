"""torch.nn.functional: the op table's "nn.functional" namespace plus the few functions that are pure
composition of other torch functions (and the F-style wrappers whose signatures differ from torch.*)."""
from __future__ import annotations

from typing import Any, Optional

from .. import _ops  # noqa: F401  (fills the op table)
from .._ops import _registry
from .._ops import nn_ops as _nn_ops

globals().update(_registry.namespace("nn.functional"))

_F = _registry.FUNCTIONS
_D = _registry._DISPATCHERS


# The pointwise family owns torch.relu/sigmoid/tanh/softmax/log_softmax; F adds torch's F-only arguments.
_relu = _F["relu"]
_sigmoid = _F["sigmoid"]
_tanh = _F["tanh"]
_softmax = _F["softmax"]
_log_softmax = _F["log_softmax"]


def relu(input: Any, inplace: bool = False) -> Any:
    """max(x, 0)."""
    out = _relu(input)
    return _registry.write_back(input, out) if inplace else out


def relu_(input: Any) -> Any:
    return _registry.write_back(input, _relu(input))


def sigmoid(input: Any) -> Any:
    """1 / (1 + exp(-x))."""
    return _sigmoid(input)


def tanh(input: Any) -> Any:
    return _tanh(input)


def softmax(input: Any, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """exp(x) / sum(exp(x)) along dim (computed in `dtype` when given)."""
    if dim is None:
        dim = _nn_ops._softmax_dim("softmax", input.ndim)
    return _softmax(input, dim, dtype=dtype)


def log_softmax(input: Any, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """log(softmax(x)) along dim, computed stably (in `dtype` when given)."""
    if dim is None:
        dim = _nn_ops._softmax_dim("log_softmax", input.ndim)
    return _log_softmax(input, dim, dtype=dtype)


# F.unfold / F.fold: table keys im2col / col2im, because Tensor.unfold is a different op.
unfold = _D["im2col"]
fold = _D["col2im"]


def upsample(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: Optional[bool] = None) -> Any:
    """Deprecated alias of interpolate."""
    return interpolate(input, size, scale_factor, mode, align_corners)  # noqa: F821 (from the namespace)


def upsample_nearest(input: Any, size: Any = None, scale_factor: Any = None) -> Any:
    return interpolate(input, size, scale_factor, mode="nearest")  # noqa: F821


def upsample_bilinear(input: Any, size: Any = None, scale_factor: Any = None) -> Any:
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)  # noqa: F821


def adaptive_max_pool1d_with_indices(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    return adaptive_max_pool1d(input, output_size, True)  # noqa: F821 (from the namespace)


def adaptive_max_pool2d_with_indices(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    return adaptive_max_pool2d(input, output_size, True)  # noqa: F821


def adaptive_max_pool3d_with_indices(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    return adaptive_max_pool3d(input, output_size, True)  # noqa: F821


def conv_tbc(input: Any, weight: Any, bias: Any, pad: int = 0) -> Any:
    """Time-batch-channel convolution: input (T, B, C_in), weight (k, C_in, C_out), bias (C_out,) -> (T', B, C_out)."""
    x = input.permute(1, 2, 0)  # (B, C_in, T)
    w = weight.permute(2, 1, 0)  # (C_out, C_in, k)
    return conv1d(x, w, bias, 1, pad).permute(2, 0, 1)  # noqa: F821


def _fractional_max_pool(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("torch.nn.functional.fractional_max_pool2d/3d is not supported by mindtorch; use "
                              "max_pool2d/3d or adaptive_max_pool2d/3d instead")


fractional_max_pool2d = fractional_max_pool2d_with_indices = _fractional_max_pool
fractional_max_pool3d = fractional_max_pool3d_with_indices = _fractional_max_pool
