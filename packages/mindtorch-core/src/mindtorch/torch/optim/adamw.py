"""torch.optim.AdamW: Adam with decoupled weight decay (`param *= 1 - lr * weight_decay` first)."""
from __future__ import annotations

from typing import Any, Iterable, Tuple

from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    _decoupled = True

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach: Any = None, capturable: bool = False, differentiable: bool = False,
                 fused: Any = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable)
