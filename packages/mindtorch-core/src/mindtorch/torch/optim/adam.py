"""torch.optim.Adam (amsgrad, weight_decay, maximize): torch 1.12's `_single_tensor_adam`."""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, Tuple

from ._math import add, addcdiv, div, lerp_, maximum, mul, sqrt, zeros_like
from .optimizer import _T, Optimizer, assign_, step_tensor

__all__ = ["Adam"]


def _check(lr: float, eps: float, betas: Tuple[float, float], weight_decay: float) -> None:
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    _decoupled = False  # AdamW: weight decay applied to the parameter, not added to the gradient
    _tensor_scalars = ("step",)
    _setstate_defaults = {"amsgrad": False, "maximize": False, "foreach": None, "capturable": False}

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *, foreach: Any = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False,
                 fused: Any = None) -> None:
        _check(lr, eps, betas, weight_decay)
        # torch 1.12's key order (Adam: maximize, foreach; AdamW: foreach, maximize); `differentiable` and `fused`
        # (torch >= 1.13/2.0) are accepted and ignored: the single-tensor update is what they compute.
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad)
        if self._decoupled:
            defaults.update(foreach=foreach, maximize=maximize)
        else:
            defaults.update(maximize=maximize, foreach=foreach)
        defaults["capturable"] = capturable
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state["step"] = step_tensor(0.0)
            state["exp_avg"] = _T(zeros_like(p))
            state["exp_avg_sq"] = _T(zeros_like(p))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _T(zeros_like(p))
        if group["maximize"]:
            grad = mul(grad, -1)
        beta1, beta2 = group["betas"]
        lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
        step = self._next_step(p, state)
        param = p
        if wd != 0:
            if self._decoupled:
                param = mul(p, 1 - lr * wd)
            else:
                grad = add(grad, p, alpha=wd)
        exp_avg = state["exp_avg"] = _T(lerp_(state["exp_avg"], grad, beta1))
        exp_avg_sq = state["exp_avg_sq"] = _T(add(mul(state["exp_avg_sq"], beta2), mul(mul(grad, 1 - beta2), grad)))
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        if group["amsgrad"]:
            mx = state["max_exp_avg_sq"] = _T(maximum(state["max_exp_avg_sq"], exp_avg_sq))
            denom = add(div(sqrt(mx), math.sqrt(bias_correction2)), eps)
        else:
            denom = add(div(sqrt(exp_avg_sq), math.sqrt(bias_correction2)), eps)
        step_size = lr / bias_correction1
        assign_(p, addcdiv(param, exp_avg, denom, value=-step_size))
