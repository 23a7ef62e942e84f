"""torch.optim.SGD (momentum, dampening, nesterov, weight_decay, maximize): torch 1.12's `_single_tensor_sgd`."""
from __future__ import annotations

from typing import Any, Dict, Iterable

from ._math import add, mul
from .optimizer import _T, Optimizer, assign_, required

__all__ = ["SGD"]


class SGD(Optimizer):
    _setstate_defaults = {"nesterov": False, "maximize": False, "foreach": None}

    def __init__(self, params: Iterable[Any], lr: Any = required, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: Any = None, differentiable: bool = False) -> None:
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach)
        super().__init__(params, defaults)

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        # torch 1.12: `maximize` flips only the final update (param += lr * d_p), after weight decay and momentum
        # were computed from the un-negated gradient; torch >= 1.13 negates the gradient first. The two differ
        # when weight_decay != 0, and their momentum buffers have opposite signs.
        d_p = grad
        wd = group["weight_decay"]
        if wd != 0:
            d_p = add(d_p, p, alpha=wd)
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = d_p + 0 if d_p is grad else d_p  # torch clones d_p
            elif group["dampening"] == 0:
                # torch's buf.mul_(momentum).add_(d_p) as ONE kernel (d_p + momentum * buf): one elementwise pass
                # per parameter less (issue 8); equal up to the rounding of a fused multiply-add.
                buf = add(d_p, buf, alpha=momentum)
            else:
                buf = add(mul(buf, momentum), d_p, alpha=1 - group["dampening"])
            state["momentum_buffer"] = _T(buf)
            d_p = add(d_p, buf, alpha=momentum) if group["nesterov"] else buf
        else:
            state["momentum_buffer"] = None  # torch 1.12 records "no buffer" for every stepped parameter
        assign_(p, add(p, d_p, alpha=group["lr"] if group["maximize"] else -group["lr"]))
