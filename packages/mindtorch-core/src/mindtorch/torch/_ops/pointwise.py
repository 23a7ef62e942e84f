"""Pointwise math: add, sub, mul, div, ... (torch.* and Tensor.*, with in-place twins)."""
from __future__ import annotations

from typing import Any

from mindspore import mint

from ._registry import register


@register("add", inplace=True)
def add(input: Any, other: Any, *, alpha: Any = 1) -> Any:
    """input + alpha * other, with torch's type promotion."""
    if alpha != 1:
        other = mint.mul(other, alpha)
    return mint.add(input, other)


@register("mul", inplace=True, aliases=("multiply",))
def mul(input: Any, other: Any) -> Any:
    return mint.mul(input, other)
