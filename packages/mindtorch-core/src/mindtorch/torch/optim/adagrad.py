"""torch.optim.Adagrad (lr_decay, weight_decay, initial_accumulator_value): torch 1.12's `_single_tensor_adagrad`."""
from __future__ import annotations

from typing import Any, Dict, Iterable

from ._math import add, addcdiv, full_like, mul, sqrt
from .optimizer import _T, Optimizer, assign_, step_tensor

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    _tensor_scalars = ("step",)
    _setstate_defaults = {"foreach": None, "maximize": False}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: Any = None, *,
                 maximize: bool = False, differentiable: bool = False) -> None:
        for name, v in (("learning rate", lr), ("lr_decay value", lr_decay), ("weight_decay value", weight_decay),
                        ("initial_accumulator_value value", initial_accumulator_value), ("epsilon value", eps)):
            if not 0.0 <= v:
                raise ValueError(f"Invalid {name}: {v}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)
        # torch creates the state at construction time
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = {"step": step_tensor(0.0), "sum": _T(full_like(p, group["initial_accumulator_value"]))}

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=step_tensor(0.0), sum=_T(full_like(p, group["initial_accumulator_value"])))
        if group["maximize"]:
            grad = mul(grad, -1)
        step = self._next_step(p, state)
        if group["weight_decay"] != 0:
            grad = add(grad, p, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        s = state["sum"] = _T(add(state["sum"], mul(grad, grad)))
        std = add(sqrt(s), group["eps"])
        assign_(p, addcdiv(p, grad, std, value=-clr))
