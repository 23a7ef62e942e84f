"""Small fused-op helpers shared by the optimizers (MindSpore `mint` kernels; all exist on CPU).

Named after the torch in-place calls they replace in torch/optim/_functional.py; each returns a new tensor
(the optimizers rebind their state to it and write parameters back with `assign_`).
"""
from __future__ import annotations

from typing import Any, Union

import mindspore as ms
from mindspore import mint, ops

sqrt = mint.sqrt
maximum = mint.maximum
_Operand = Union[Any, float]


def _scalar(t: Any, x: _Operand) -> _Operand:
    """`x` as an operand of a kernel whose other operand is tensor `t`. MindSpore 2.10 rounds a Python scalar (and
    mint.add's `alpha`) to float32 (measured: float64 `x * 0.3` is off by 3e-8 relative), so float64 tensors (e.g.
    after `model.double()`) get it as a 0-d float64 tensor; float32 ones keep the faster tensor-scalar kernel."""
    if t.dtype is ms.float64 and not isinstance(x, ms.Tensor):
        return ms.Tensor(x, dtype=ms.float64)
    return x


def add(t: Any, x: _Operand, alpha: float = 1) -> Any:
    """t + alpha * x (t a tensor)."""
    if alpha != 1 and t.dtype is ms.float64:
        return mint.add(t, mint.mul(_scalar(t, x), _scalar(t, alpha)))
    return mint.add(t, _scalar(t, x), alpha=alpha)


def mul(t: Any, x: _Operand) -> Any:
    """t * x (t a tensor)."""
    return mint.mul(t, _scalar(t, x))


def div(a: _Operand, b: _Operand) -> Any:
    """a / b, either one may be a Python number (RAdam divides a number by a tensor)."""
    if isinstance(a, ms.Tensor):
        return mint.div(a, _scalar(a, b))
    return mint.div(_scalar(b, a), b)


def lerp_(buf: Any, x: Any, keep: float) -> Any:
    """buf.mul_(keep).add_(x, alpha=1 - keep)."""
    return add(mul(buf, keep), x, alpha=1 - keep)


def addcmul(t: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    """t + value * a * b (torch's addcmul: the scalar multiplies first)."""
    return mint.add(t, mint.mul(mul(a, value), b)) if value != 1 else mint.add(t, mint.mul(a, b))


def addcdiv(t: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    """t + value * a / b."""
    return mint.add(t, mul(mint.div(a, b), value)) if value != 1 else mint.add(t, mint.div(a, b))


def zeros_like(t: Any) -> Any:
    return ops.zeros_like(t)


def full_like(t: Any, value: float) -> Any:
    return ops.fill(t.dtype, tuple(t.shape), value)
