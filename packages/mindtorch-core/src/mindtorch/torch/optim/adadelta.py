"""torch.optim.Adadelta (rho, eps, weight_decay): torch 1.12's `_single_tensor_adadelta`."""
from __future__ import annotations

from typing import Any, Dict, Iterable

from ._math import add, addcmul, div, mul, sqrt, zeros_like
from .optimizer import _T, Optimizer, assign_

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    _int_scalars = ("step",)  # torch 1.12 counts Adadelta's steps in a Python int (a tensor from torch 2.0)
    _setstate_defaults = {"foreach": None, "maximize": False}

    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach)
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=0, square_avg=_T(zeros_like(p)), acc_delta=_T(zeros_like(p)))
        if group["maximize"]:
            grad = mul(grad, -1)
        state["step"] += 1
        rho, eps = group["rho"], group["eps"]
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        square_avg = state["square_avg"] = _T(addcmul(mul(state["square_avg"], rho), grad, grad, 1 - rho))
        std = sqrt(add(square_avg, eps))
        delta = mul(div(sqrt(add(state["acc_delta"], eps)), std), grad)
        state["acc_delta"] = _T(addcmul(mul(state["acc_delta"], rho), delta, delta, 1 - rho))
        assign_(p, add(p, delta, alpha=-group["lr"]))
