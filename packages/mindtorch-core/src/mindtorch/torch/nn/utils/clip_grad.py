"""torch.nn.utils.clip_grad: clip_grad_norm_ / clip_grad_value_.

Two forms:

- torch's: `clip_grad_norm_(model.parameters(), max_norm)` scales every parameter's `.grad` in place and returns
  the total norm (a 0-d Tensor).
- the functional training loop of the user manual: `grads` returned by `mindspore.value_and_grad` are plain
  gradient tensors, not parameters. Given a *tuple* of tensors none of which is a Parameter or carries a
  `.grad`, both functions return the tuple of clipped gradients instead (only the gradients, like
  `mindspore.ops.clip_by_global_norm`), so `grads = clip_grad_norm_(grads, max_norm)` works in place of
  `ops.clip_by_global_norm(grads, max_norm)`.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, List, Tuple, Union

import mindspore as ms
from mindspore import ops

from ..._ops import _registry
from ..._tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"]

_tensor_or_tensors = Union[Any, Iterable[Any]]


def _wrap(t: Any) -> Tensor:
    if type(t) is ms.Tensor:
        t.__class__ = Tensor
    return t


def _is_grads_tuple(parameters: Any) -> bool:
    """The functional form: a tuple of gradient tensors (value_and_grad's output), not parameters."""
    if not isinstance(parameters, tuple) or not parameters:
        return False
    for g in parameters:
        if not isinstance(g, ms.Tensor) or isinstance(g, ms.Parameter):
            return False
        if getattr(g, "_requires_grad", False) or _grad_of(g) is not None:
            return False
    return True


def _grad_of(p: Any) -> Any:
    try:
        return p.grad
    except (AttributeError, RuntimeError):
        return None


def _total_norm(grads: List[Any], norm_type: float) -> Any:
    flat = [g.reshape(-1).astype(ms.float32) if g.dtype != ms.float64 else g.reshape(-1) for g in grads]
    if norm_type == math.inf:
        norms = [ops.max(ops.abs(g))[0] if g.shape[0] else ms.Tensor(0.0, g.dtype) for g in flat]
        total = norms[0] if len(norms) == 1 else ops.max(ops.stack(norms))[0]
    else:
        norms = [ops.norm(g, norm_type) for g in flat]
        total = ops.norm(ops.stack(norms), norm_type)
    return total


def _clip_coef(total_norm: Any, max_norm: float) -> Any:
    """torch's clamp(max_norm / (total_norm + 1e-6), max=1). The scalars go in as 0-d tensors of the norm's dtype:
    MindSpore rounds Python scalars to float32, which cost float64 models ~1e-8 relative (measured)."""
    d = total_norm.dtype
    return ops.clamp(ops.div(ms.Tensor(max_norm, d), ops.add(total_norm, ms.Tensor(1e-6, d))), max=1.0)


def _clamp_value(g: Any, clip_value: float) -> Any:
    """g clamped to [-clip_value, clip_value], the bounds in g's dtype (not rounded to float32 first)."""
    return ops.clamp(g, ms.Tensor(-clip_value, g.dtype), ms.Tensor(clip_value, g.dtype))


def _write(dst: Any, value: Any) -> None:
    from ..._grad_mode import no_grad

    with no_grad():
        _registry.write_back(dst, value)


def clip_grad_norm_(parameters: _tensor_or_tensors, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False) -> Any:
    r"""Clip the gradient norm of an iterable of parameters (the norm over all gradients together, as if
    concatenated into one vector); gradients are modified in place. Returns the total norm (0-d Tensor).

    Functional form: given a tuple of gradient tensors (from `mindspore.value_and_grad`), returns the tuple of
    clipped gradients (see the module docstring).
    """
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if _is_grads_tuple(parameters):
        grads = list(parameters)
        total_norm = _total_norm(grads, norm_type)
        _check_finite(total_norm, norm_type, error_if_nonfinite)
        coef = _clip_coef(total_norm, max_norm)
        return tuple(_wrap((g * coef.astype(g.dtype))) for g in grads)

    if isinstance(parameters, ms.Tensor):
        parameters = [parameters]
    params = [p for p in parameters if _grad_of(p) is not None]
    if len(params) == 0:
        return _wrap(ms.Tensor(0.0, ms.float32))
    grads = [_grad_of(p) for p in params]
    total_norm = _total_norm(grads, norm_type)
    _check_finite(total_norm, norm_type, error_if_nonfinite)
    coef = _clip_coef(total_norm, max_norm)
    for p, g in zip(params, grads):
        new = g * coef.astype(g.dtype)
        _set_grad(p, g, new)
    return _wrap(total_norm)


def _set_grad(p: Any, g: Any, new: Any) -> None:
    """In place into the existing grad tensor (torch's `grad.mul_`); falls back to re-assigning `.grad`."""
    try:
        _write(g, new)
        if _grad_of(p) is g:
            return
    except (RuntimeError, TypeError, ValueError):
        pass
    p.grad = _wrap(new)


def _check_finite(total_norm: Any, norm_type: float, error_if_nonfinite: bool) -> None:
    if error_if_nonfinite and not bool(ops.isfinite(total_norm)):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`")


def clip_grad_norm(parameters: _tensor_or_tensors, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False) -> Any:
    """Deprecated alias of :func:`clip_grad_norm_`."""
    import warnings

    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_.",
                  stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters: _tensor_or_tensors, clip_value: float) -> Union[None, Tuple[Any, ...]]:
    r"""Clamp every gradient to [-clip_value, clip_value] in place (returns None, like torch).

    Functional form: given a tuple of gradient tensors, returns the tuple of clipped gradients.
    """
    clip_value = float(clip_value)
    if _is_grads_tuple(parameters):
        return tuple(_wrap(_clamp_value(g, clip_value)) for g in parameters)
    if isinstance(parameters, ms.Tensor):
        parameters = [parameters]
    for p in parameters:
        g = _grad_of(p)
        if g is not None:
            _set_grad(p, g, _clamp_value(g, clip_value))
    return None
