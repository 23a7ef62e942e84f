"""torch.optim.ASGD (averaged SGD): torch 1.12's `_single_tensor_asgd`; eta and mu are kept rounded to
float32 as torch keeps them in float32 tensors."""
from __future__ import annotations

from typing import Any, Dict, Iterable

import numpy as np

from ._math import add, mul, zeros_like
from .optimizer import _T, Optimizer, assign_, newer_option

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
            state.update(step=0.0, eta=float(np.float32(group["lr"])), mu=1.0, ax=_T(zeros_like(p)))
        if group.get("maximize", False):
            grad = mul(grad, -1)
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        step = state["step"] = state["step"] + 1
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        eta, mu = float(state["eta"]), float(state["mu"])
        new = add(mul(p, 1 - lambd * eta), grad, alpha=-eta)
        assign_(p, new)
        if mu != 1:
            state["ax"] = _T(add(state["ax"], mul(add(p, state["ax"], alpha=-1), mu)))
        else:
            state["ax"] = _T(p + 0)
        state["eta"] = float(np.float32(lr / ((1 + lambd * lr * step) ** alpha)))
        state["mu"] = float(np.float32(1 / max(1, step - t0)))
