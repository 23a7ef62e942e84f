"""torch.optim.ASGD (averaged SGD): torch 1.12's `_single_tensor_asgd`; step, eta and mu are float32 0-d
tensors updated in place, as in torch."""
from __future__ import annotations

from typing import Any, Dict, Iterable

from ._math import add, mul, zeros_like
from .optimizer import _T, Optimizer, assign_, newer_option, step_tensor

__all__ = ["ASGD"]


class ASGD(Optimizer):
    _tensor_scalars = ("step", "eta", "mu")  # float32 0-d tensors in torch 1.12
    _setstate_defaults = {"foreach": None}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach)
        newer_option(defaults, "maximize", maximize, False)  # torch >= 1.13
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=step_tensor(0.0), eta=step_tensor(group["lr"]), mu=step_tensor(1.0), ax=_T(zeros_like(p)))
        if group.get("maximize", False):
            grad = mul(grad, -1)
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        step = self._next_step(p, state)
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        eta_t, mu_t = self._scalar(p, state, "eta"), self._scalar(p, state, "mu")
        eta, mu = eta_t.get(), mu_t.get()
        new = add(mul(p, 1 - lambd * eta), grad, alpha=-eta)
        assign_(p, new)
        if mu != 1:
            state["ax"] = _T(add(state["ax"], mul(add(p, state["ax"], alpha=-1), mu)))
        else:
            state["ax"] = _T(p + 0)
        eta_t.set(state, "eta", lr / ((1 + lambd * lr * step) ** alpha))  # 1.12: eta.copy_(torch.tensor(...))
        mu_t.set(state, "mu", 1 / max(1, step - t0))
