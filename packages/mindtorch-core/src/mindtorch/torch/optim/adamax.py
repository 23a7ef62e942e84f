"""torch.optim.Adamax (infinity-norm Adam): torch 1.12's `_single_tensor_adamax`."""
from __future__ import annotations

from typing import Any, Dict, Iterable, Tuple

from mindspore import mint

from ._math import add, addcdiv, lerp_, maximum, mul, zeros_like
from .adam import _check
from .optimizer import _T, Optimizer, assign_, step_tensor

__all__ = ["Adamax"]


class Adamax(Optimizer):
    _tensor_scalars = ("step",)
    _setstate_defaults = {"foreach": None, "maximize": False}

    def __init__(self, params: Iterable[Any], lr: float = 2e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=step_tensor(0.0), exp_avg=_T(zeros_like(p)), exp_inf=_T(zeros_like(p)))
        if group["maximize"]:
            grad = mul(grad, -1)
        beta1, beta2 = group["betas"]
        step = self._next_step(p, state)
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        exp_avg = state["exp_avg"] = _T(lerp_(state["exp_avg"], grad, beta1))
        exp_inf = state["exp_inf"] = _T(maximum(mul(state["exp_inf"], beta2), add(mint.abs(grad), group["eps"])))
        clr = group["lr"] / (1 - beta1 ** step)
        assign_(p, addcdiv(p, exp_avg, exp_inf, value=-clr))
