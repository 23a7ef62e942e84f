"""torch.optim.Rprop (etas, step_sizes): torch 1.12's `_single_tensor_rprop`."""
from __future__ import annotations

from typing import Any, Dict, Iterable, Tuple

from mindspore import mint, ops

from ._math import full_like, mul, zeros_like
from .optimizer import _T, Optimizer, assign_, newer_option

__all__ = ["Rprop"]


class Rprop(Optimizer):
    _int_scalars = ("step",)  # torch 1.12 counts Rprop's steps in a Python int (a tensor from torch 2.0)
    _setstate_defaults = {"foreach": None}

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, etas: Tuple[float, float] = (0.5, 1.2),
                 step_sizes: Tuple[float, float] = (1e-6, 50), foreach: Any = None, *, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach)
        newer_option(defaults, "maximize", maximize, False)  # torch >= 1.13
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if not state:
            state.update(step=0, prev=_T(zeros_like(p)), step_size=_T(full_like(grad, group["lr"])))
        if group.get("maximize", False):
            grad = mul(grad, -1)
        etaminus, etaplus = group["etas"]
        smin, smax = group["step_sizes"]
        state["step"] += 1
        s = mint.sign(mul(grad, state["prev"]))
        one = ops.ones_like(s)
        factor = mint.where(s > 0, one * etaplus, mint.where(s < 0, one * etaminus, one))
        step_size = state["step_size"] = _T(mint.clamp(mul(state["step_size"], factor), smin, smax))
        grad = mint.where(s < 0, zeros_like(grad), grad)
        assign_(p, mint.sub(p, mul(mint.sign(grad), step_size)))
        state["prev"] = _T(grad)
