"""Small fused-op helpers shared by the optimizers (numpy on CPU, MindSpore `mint` kernels elsewhere).

Named after the torch in-place calls they replace in torch/optim/_functional.py; each returns a new tensor
(the optimizers rebind their state to it and write parameters back with `assign_`).
"""
from __future__ import annotations

from typing import Any, Union

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _ms

_Operand = Union[Any, float]

# CPU: the optimizers' elementwise arithmetic runs in numpy. MindSpore 2.10's CPU kernels with a scalar operand
# cost ~4 ms per 2.4M float32 elements (mul, div; add with alpha), numpy ~1 ms, and an AdamW step over a small
# transformer's parameters took ~0.7 s in MindSpore kernels. Optimizer updates run outside autograd, so host
# results wrapped zero-copy are equivalent; bfloat16 (no numpy dtype) and other targets keep the mint kernels.
_HOST_DTYPES = frozenset(map(id, (ms.float32, ms.float64, ms.float16)))
_asnumpy = ms.Tensor.asnumpy


def _on_host(*vals: Any) -> bool:
    return _ms.HOST_MEMORY and all(id(v.dtype) in _HOST_DTYPES for v in vals if isinstance(v, ms.Tensor))


def _np(v: _Operand) -> Any:
    return _asnumpy(v) if isinstance(v, ms.Tensor) else v


def _out(a: Any) -> Any:
    return ms.Tensor.from_numpy(np.ascontiguousarray(a))  # 0-d results of numpy ops are scalars: made arrays


def _scalar(t: Any, x: _Operand) -> _Operand:
    """`x` as an operand of a kernel whose other operand is tensor `t`. MindSpore 2.10 rounds a Python scalar (and
    mint.add's `alpha`) to float32 (measured: float64 `x * 0.3` is off by 3e-8 relative), so float64 tensors (e.g.
    after `model.double()`) get it as a 0-d float64 tensor; float32 ones keep the faster tensor-scalar kernel."""
    if t.dtype is ms.float64 and not isinstance(x, ms.Tensor):
        return ms.Tensor(x, dtype=ms.float64)
    return x


def sqrt(t: Any) -> Any:
    return _out(np.sqrt(_asnumpy(t))) if _on_host(t) else mint.sqrt(t)


def maximum(a: Any, b: Any) -> Any:
    return _out(np.maximum(_asnumpy(a), _asnumpy(b))) if _on_host(a, b) else mint.maximum(a, b)


def add(t: Any, x: _Operand, alpha: float = 1) -> Any:
    """t + alpha * x (t a tensor)."""
    if _on_host(t, x):
        a, b = _asnumpy(t), _np(x)
        return _out(a + b if alpha == 1 else a + alpha * b)
    if alpha != 1 and t.dtype is ms.float64:
        return mint.add(t, mint.mul(_scalar(t, x), _scalar(t, alpha)))
    return mint.add(t, _scalar(t, x), alpha=alpha)


def mul(t: Any, x: _Operand) -> Any:
    """t * x (t a tensor)."""
    if _on_host(t, x):
        return _out(_asnumpy(t) * _np(x))
    return mint.mul(t, _scalar(t, x))


def div(a: _Operand, b: _Operand) -> Any:
    """a / b, either one may be a Python number (RAdam divides a number by a tensor)."""
    if _on_host(a, b):
        return _out(np.true_divide(_np(a), _np(b)))
    if isinstance(a, ms.Tensor):
        return mint.div(a, _scalar(a, b))
    return mint.div(_scalar(b, a), b)


def lerp_(buf: Any, x: Any, keep: float) -> Any:
    """buf.mul_(keep).add_(x, alpha=1 - keep)."""
    return add(mul(buf, keep), x, alpha=1 - keep)


def addcmul(t: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    """t + value * a * b (torch's addcmul: the scalar multiplies first)."""
    if _on_host(t, a, b):
        return _out(_asnumpy(t) + (_asnumpy(a) * value if value != 1 else _asnumpy(a)) * _asnumpy(b))
    return mint.add(t, mint.mul(mul(a, value), b)) if value != 1 else mint.add(t, mint.mul(a, b))


def addcdiv(t: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    """t + value * a / b."""
    if _on_host(t, a, b):
        q = _asnumpy(a) / _asnumpy(b)
        return _out(_asnumpy(t) + (q * value if value != 1 else q))
    return mint.add(t, mul(mint.div(a, b), value)) if value != 1 else mint.add(t, mint.div(a, b))


def zeros_like(t: Any) -> Any:
    if _on_host(t):
        return ms.Tensor.from_numpy(np.zeros(tuple(ms.Tensor.shape.fget(t)), ms.dtype_to_nptype(t.dtype)))
    return ops.zeros_like(t)


def full_like(t: Any, value: float) -> Any:
    if _on_host(t):
        return ms.Tensor.from_numpy(np.full(tuple(ms.Tensor.shape.fget(t)), value, ms.dtype_to_nptype(t.dtype)))
    return ops.fill(t.dtype, tuple(t.shape), value)
