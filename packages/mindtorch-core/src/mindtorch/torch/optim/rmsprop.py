"""torch.optim.RMSprop (centered, momentum, weight_decay): torch 1.12's `_single_tensor_rmsprop`."""
from __future__ import annotations

from typing import Any, Dict, Iterable

from ._math import add, addcdiv, addcmul, div, lerp_, mul, sqrt, zeros_like
from .optimizer import _T, Optimizer, assign_, newer_option

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    _int_scalars = ("step",)  # torch 1.12 counts RMSprop's steps in a Python int (a tensor from torch 2.0)
    _setstate_defaults = {"momentum": 0, "centered": False, "foreach": None}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, foreach: Any = None, *,
                 maximize: bool = False, differentiable: bool = False) -> None:
        for name, v in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                        ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not 0.0 <= v:
                raise ValueError(f"Invalid {name}: {v}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, foreach=foreach)
        newer_option(defaults, "maximize", maximize, False)  # torch >= 1.13
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state["step"] = 0  # torch 1.12: a Python int
            state["square_avg"] = _T(zeros_like(p))
            if group["momentum"] > 0:
                state["momentum_buffer"] = _T(zeros_like(p))
            if group["centered"]:
                state["grad_avg"] = _T(zeros_like(p))
        if group.get("maximize", False):
            grad = mul(grad, -1)
        state["step"] += 1
        alpha, eps, lr = group["alpha"], group["eps"], group["lr"]
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        square_avg = state["square_avg"] = _T(addcmul(mul(state["square_avg"], alpha), grad, grad, 1 - alpha))
        if group["centered"]:
            grad_avg = state["grad_avg"] = _T(lerp_(state["grad_avg"], grad, alpha))
            avg = add(sqrt(addcmul(square_avg, grad_avg, grad_avg, -1)), eps)
        else:
            avg = add(sqrt(square_avg), eps)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"] = _T(add(mul(state["momentum_buffer"], group["momentum"]), div(grad, avg)))
            assign_(p, add(p, buf, alpha=-lr))
        else:
            assign_(p, addcdiv(p, grad, avg, value=-lr))
