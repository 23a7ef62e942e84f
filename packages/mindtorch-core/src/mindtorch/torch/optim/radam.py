"""torch.optim.RAdam (rectified Adam): torch 1.12's `_single_tensor_radam`."""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, Tuple

from ._math import add, addcmul, div, lerp_, mul, sqrt, zeros_like
from .adam import _check
from .optimizer import _T, Optimizer, assign_, step_tensor

__all__ = ["RAdam"]


class RAdam(Optimizer):
    _tensor_scalars = ("step",)
    _setstate_defaults = {"foreach": None}

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: Any = None, *,
                 differentiable: bool = False) -> None:
        _check(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach)
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=step_tensor(0.0), exp_avg=_T(zeros_like(p)), exp_avg_sq=_T(zeros_like(p)))
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        step = self._next_step(p, state)
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        exp_avg = state["exp_avg"] = _T(lerp_(state["exp_avg"], grad, beta1))
        exp_avg_sq = state["exp_avg_sq"] = _T(addcmul(mul(state["exp_avg_sq"], beta2), grad, grad, 1 - beta2))
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        corrected = div(exp_avg, bias_correction1)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.:
            rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive_lr = div(math.sqrt(bias_correction2), add(sqrt(exp_avg_sq), group["eps"]))
            assign_(p, add(p, mul(mul(mul(corrected, lr), adaptive_lr), rect), alpha=-1.0))
        else:
            assign_(p, add(p, mul(corrected, lr), alpha=-1.0))
