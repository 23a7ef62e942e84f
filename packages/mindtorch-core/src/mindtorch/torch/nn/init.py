"""torch.nn.init: in-place initialisers for parameters and tensors.

Every function fills the tensor it is given (the same object changes, views write through to their base) under
no_grad and returns it. Random values are drawn from torch's global generator (`torch.manual_seed`, numpy PCG64
streams in `torch/_random.py`): reproducible under a seed, same distributions as torch (not bit-identical
streams). The formulas (gains, fans, bounds) are torch 1.12's.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Optional

import numpy as np

from .. import _dtype as D
from .. import _random
from .._ops import _registry
from .._tensor import from_numpy_array

__all__ = [
    "calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_", "dirac_",
    "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_",
    "uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
    "kaiming_normal", "orthogonal", "sparse",
]


# ------------------------------------------------------------------------------------------------ helpers
def _shape(tensor: Any) -> tuple:
    return tuple(tensor.shape)


def _write(tensor: Any, arr: np.ndarray) -> Any:
    """Write numpy values into `tensor` in place (through the registry's write-back: views write through),
    outside autograd; returns `tensor`."""
    from .._grad_mode import no_grad

    if tensor.dtype == D.bfloat16:
        value = from_numpy_array(np.ascontiguousarray(arr, dtype=np.float32), D.bfloat16)
    else:
        value = from_numpy_array(np.ascontiguousarray(arr, dtype=D.to_numpy_dtype(tensor.dtype)))
    with no_grad():
        _registry.write_back(tensor, value)
    return tensor


def _rng(generator: Any = None) -> np.random.Generator:
    return _random.numpy_generator(generator)


def _float_np_dtype(tensor: Any) -> Any:
    return np.float32 if tensor.dtype == D.bfloat16 else D.to_numpy_dtype(tensor.dtype)


def calculate_gain(nonlinearity: str, param: Optional[float] = None) -> float:
    r"""The recommended gain for a nonlinearity (torch's table: linear/conv/sigmoid 1, tanh 5/3, relu sqrt(2),
    leaky_relu sqrt(2 / (1 + negative_slope^2)), selu 3/4)."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Any) -> tuple:
    shape = _shape(tensor)
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = shape[1]
    num_output_fmaps = shape[0]
    receptive_field_size = 1
    for s in shape[2:]:
        receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor: Any, mode: str) -> int:
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


# --------------------------------------------------------------------------------------- initialisers
def uniform_(tensor: Any, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Any:
    """Fill with values drawn from U(a, b)."""
    arr = _rng(generator).uniform(a, b, size=_shape(tensor)).astype(_float_np_dtype(tensor))
    return _write(tensor, arr)


def normal_(tensor: Any, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Any:
    """Fill with values drawn from N(mean, std^2)."""
    arr = _rng(generator).normal(mean, std, size=_shape(tensor)).astype(_float_np_dtype(tensor))
    return _write(tensor, arr)


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor: Any, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator: Any = None) -> Any:
    """Fill with N(mean, std^2) truncated to [a, b] (torch's inverse-CDF method)."""
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    from scipy.special import erfinv

    lo = _norm_cdf((a - mean) / std)
    hi = _norm_cdf((b - mean) / std)
    u = _rng(generator).uniform(2 * lo - 1, 2 * hi - 1, size=_shape(tensor))
    arr = erfinv(u) * (std * math.sqrt(2.0)) + mean
    arr = np.clip(arr, a, b).astype(_float_np_dtype(tensor))
    return _write(tensor, arr)


def constant_(tensor: Any, val: float) -> Any:
    """Fill with the value `val`."""
    dt = _float_np_dtype(tensor) if tensor.dtype != D.bool else np.bool_
    return _write(tensor, np.full(_shape(tensor), val, dtype=dt))


def ones_(tensor: Any) -> Any:
    """Fill with 1."""
    return constant_(tensor, 1)


def zeros_(tensor: Any) -> Any:
    """Fill with 0."""
    return constant_(tensor, 0)


def eye_(tensor: Any) -> Any:
    """Fill a 2-D tensor with the identity matrix."""
    shape = _shape(tensor)
    if len(shape) != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(shape[0], shape[1], dtype=_float_np_dtype(tensor)))


def dirac_(tensor: Any, groups: int = 1) -> Any:
    """Fill a {3,4,5}-D tensor with the Dirac delta (identity convolution), per group."""
    sizes = _shape(tensor)
    dimensions = len(sizes)
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    arr = np.zeros(sizes, dtype=_float_np_dtype(tensor))
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min_dim):
            arr[(g * out_chans_per_grp + d, d) + centre] = 1
    return _write(tensor, arr)


def xavier_uniform_(tensor: Any, gain: float = 1.0, generator: Any = None) -> Any:
    """Glorot uniform: U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Any, gain: float = 1.0, generator: Any = None) -> Any:
    """Glorot normal: N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor: Any, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: Any = None) -> Any:
    """He uniform: U(-bound, bound), bound = gain * sqrt(3 / fan_mode)."""
    if 0 in _shape(tensor):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Any, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: Any = None) -> Any:
    """He normal: N(0, std^2), std = gain / sqrt(fan_mode)."""
    if 0 in _shape(tensor):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor: Any, gain: float = 1, generator: Any = None) -> Any:
    """Fill with a (semi-)orthogonal matrix (QR of a normal matrix, sign-corrected), scaled by `gain`;
    dimensions after the first are flattened."""
    shape = _shape(tensor)
    if len(shape) < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    numel = int(np.prod(shape))
    if numel == 0:
        return tensor
    rows = shape[0]
    cols = numel // rows
    flattened = _rng(generator).normal(0.0, 1.0, size=(rows, cols))
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _write(tensor, (q * gain).reshape(shape).astype(_float_np_dtype(tensor)))


def sparse_(tensor: Any, sparsity: float, std: float = 0.01, generator: Any = None) -> Any:
    """Fill a 2-D tensor from N(0, std^2) with a fraction `sparsity` of each column set to zero."""
    shape = _shape(tensor)
    if len(shape) != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = shape
    num_zeros = int(math.ceil(sparsity * rows))
    rng = _rng(generator)
    arr = rng.normal(0.0, std, size=shape)
    for col_idx in range(cols):
        zero_indices = rng.permutation(rows)[:num_zeros]
        arr[zero_indices, col_idx] = 0
    return _write(tensor, arr.astype(_float_np_dtype(tensor)))


# -------------------------------------------------------------------- deprecated non-underscore aliases
def _make_deprecate(meth: Any) -> Any:
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"nn.init.{old_name} is now deprecated in favor of nn.init.{new_name}.", stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__doc__ = f"""{old_name}(...)

    .. warning::
        This method is now deprecated in favor of :func:`torch.nn.init.{new_name}`.

    See :func:`~torch.nn.init.{new_name}` for details."""
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
