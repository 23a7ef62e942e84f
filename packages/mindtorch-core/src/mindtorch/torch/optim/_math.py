"""Small fused-op helpers shared by the optimizers (MindSpore `mint` kernels; all exist on CPU).

Named after the torch in-place calls they replace in torch/optim/_functional.py; each returns a new tensor
(the optimizers rebind their state to it and write parameters back with `assign_`).
"""
from __future__ import annotations

from typing import Any

from mindspore import mint, ops

add = mint.add
mul = mint.mul
div = mint.div
sqrt = mint.sqrt
maximum = mint.maximum


def lerp_(buf: Any, x: Any, keep: float) -> Any:
    """buf.mul_(keep).add_(x, alpha=1 - keep)."""
    return mint.add(mint.mul(buf, keep), x, alpha=1 - keep)


def addcmul(t: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    """t + value * a * b (torch's addcmul: the scalar multiplies first)."""
    return mint.add(t, mint.mul(mint.mul(a, value), b)) if value != 1 else mint.add(t, mint.mul(a, b))


def addcdiv(t: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    """t + value * a / b."""
    return mint.add(t, mint.mul(mint.div(a, b), value)) if value != 1 else mint.add(t, mint.div(a, b))


def zeros_like(t: Any) -> Any:
    return ops.zeros_like(t)


def full_like(t: Any, value: float) -> Any:
    return ops.fill(t.dtype, tuple(t.shape), value)
