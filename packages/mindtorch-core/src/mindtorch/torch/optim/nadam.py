"""torch.optim.NAdam (momentum_decay): torch 1.12's `_single_tensor_nadam`.

Two details of 1.12 are kept on purpose: `mu_product` lives in a float32 0-d tensor (so it is rounded to float32
after every multiply, computed here with numpy float32 scalars), and the look-ahead product is
`mu_product * mu * mu_next` (torch >= 1.13 fixed it to `mu_product * mu_next`), so trajectories equal 1.12's.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Tuple

import numpy as np

from ._math import add, addcdiv, addcmul, div, lerp_, mul, sqrt, zeros_like
from .adam import _check
from .optimizer import _T, Optimizer, assign_, step_tensor

__all__ = ["NAdam"]


class NAdam(Optimizer):
    _tensor_scalars = ("step", "mu_product")
    _setstate_defaults = {"foreach": None}

    def __init__(self, params: Iterable[Any], lr: float = 2e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3, foreach: Any = None,
                 *, differentiable: bool = False) -> None:
        _check(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        foreach=foreach)
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=step_tensor(0.0), mu_product=step_tensor(1.0), exp_avg=_T(zeros_like(p)),
                         exp_avg_sq=_T(zeros_like(p)))
        beta1, beta2 = group["betas"]
        lr, md = group["lr"], group["momentum_decay"]
        step = self._next_step(p, state)
        bias_correction2 = 1 - beta2 ** step
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        mu = beta1 * (1. - 0.5 * (0.96 ** (step * md)))
        mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * md)))
        f32 = np.float32
        mu_product_t = self._scalar(p, state, "mu_product")
        mu_product = f32(f32(mu_product_t.get()) * f32(mu))  # float32 tensor *= Python float
        mu_product_t.set(state, "mu_product", float(mu_product))
        mu_product_next = float(f32(f32(mu_product * f32(mu)) * f32(mu_next)))  # 1.12's formula (see above)
        mu_product = float(mu_product)
        exp_avg = state["exp_avg"] = _T(lerp_(state["exp_avg"], grad, beta1))
        exp_avg_sq = state["exp_avg_sq"] = _T(addcmul(mul(state["exp_avg_sq"], beta2), grad, grad, 1 - beta2))
        denom = add(sqrt(div(exp_avg_sq, bias_correction2)), group["eps"])
        new = addcdiv(p, grad, denom, value=-lr * (1. - mu) / (1. - mu_product))
        assign_(p, addcdiv(new, exp_avg, denom, value=-lr * mu_next / (1. - mu_product_next)))
