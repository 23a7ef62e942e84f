"""Reductions: sum, mean, ... (dim/axis and keepdim/keepdims aliases, dtype=)."""
from __future__ import annotations

from typing import Any, Optional

from mindspore import mint

from .. import _dtype as D
from ._args import dim_arg, keepdim_arg
from ._registry import register


@register("sum")
def sum(input: Any, dim: Any = None, keepdim: Optional[bool] = None, *, dtype: Any = None, axis: Any = None,
        keepdims: Optional[bool] = None) -> Any:
    """Sum over `dim` (all elements when None); ints and bools sum to int64 as in torch."""
    d = D.to_dtype(dtype)
    if d is None and (input.dtype in D.all_int_type or input.dtype == D.bool):
        d = D.int64
    dim = dim_arg(dim, axis)
    if isinstance(dim, list):
        dim = tuple(dim)
    return mint.sum(input, dim, keepdim_arg(keepdim, keepdims), dtype=d)
