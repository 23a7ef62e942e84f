"""torch.nn.functional: the op table's "nn.functional" namespace plus the few functions that are pure
composition of other torch functions (and the F-style wrappers whose signatures differ from torch.*)."""
from __future__ import annotations

import math  # noqa: F401  (torch 1.12's F has these module names too; code copied from it uses them)
import warnings  # noqa: F401
from typing import Any, Callable, Optional  # noqa: F401

from .. import _ops  # noqa: F401  (fills the op table)
from .._ops import _registry
from .._ops import nn_ops as _nn_ops
from ..overrides import (  # noqa: F401  (torch 1.12's F imports them; library code calls F.has_torch_function)
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)

globals().update(_registry.namespace("nn.functional"))

from .. import _tensor as _tensor_mod  # noqa: E402
from . import grad  # noqa: E402,F401  (torch 1.12's F imports torch.nn.grad as `grad`)

Tensor = _tensor_mod.Tensor
DType = int  # torch 1.12: `DType = int` (the type of dtype arguments in F's TorchScript signatures)
GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}
TYPE_CHECKING = False


class _BroadcastingListCls:
    """torch._jit_internal's BroadcastingList2[int] & co: TorchScript annotations; subscripting gives None in
    eager Python, as in torch."""

    def __getitem__(self, types: Any) -> None:
        return None


BroadcastingList1 = BroadcastingList2 = BroadcastingList3 = _BroadcastingListCls()


def boolean_dispatch(arg_name: str, arg_index: int, default: bool, if_true: Callable, if_false: Callable,
                     module_name: Optional[str] = None, func_name: Optional[str] = None) -> Callable:
    """torch's helper for F functions whose return type depends on a bool argument (max_pool2d's
    return_indices): call `if_true` or `if_false` by the value of that argument (by keyword or position)."""
    def fn(*args: Any, **kwargs: Any) -> Any:
        flag = default
        if arg_name in kwargs:
            flag = kwargs[arg_name]
        elif arg_index < len(args):
            flag = args[arg_index]
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)

    fn.__doc__ = if_true.__doc__ or if_false.__doc__
    if module_name is not None:
        fn.__module__ = module_name
    if func_name is not None:
        fn.__name__ = func_name
    return fn


def assert_int_or_pair(arg: Any, arg_name: str, message: str) -> None:
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)

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


