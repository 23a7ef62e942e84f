"""Shape ops: view, reshape, ... (views share storage as in torch)."""
from __future__ import annotations

from typing import Any

import mindspore as ms
from mindspore import mint

from ._args import shape_args
from ._registry import register

_MsTensor = ms.Tensor


@register("view", function=False)
def view(input: Any, *shape: Any) -> Any:
    """A view with a new shape (shares storage). `view(dtype)` is not supported yet."""
    return _MsTensor.view(input, shape_args(shape))


@register("reshape")
def reshape(input: Any, *shape: Any) -> Any:
    return mint.reshape(input, shape_args(shape))
