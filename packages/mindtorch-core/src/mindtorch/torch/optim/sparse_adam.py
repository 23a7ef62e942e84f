"""torch.optim.SparseAdam: not available on MindSpore.

SparseAdam only makes sense with sparse gradients (`nn.Embedding(..., sparse=True)`), and MindSpore has no
sparse gradients: every gradient mindtorch produces is dense. The class exists so that code naming it imports,
and constructing it says what to use instead.
"""
from __future__ import annotations

from typing import Any, Iterable, Tuple

from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """torch.optim.SparseAdam (lazy Adam for sparse gradients): constructing it raises NotImplementedError,
    since MindSpore computes only dense gradients. Use `torch.optim.Adam` (with `nn.Embedding(sparse=False)`),
    which gives the same updates for the rows that received gradient, and also decays the moments of the others.
    """

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        raise NotImplementedError(
            "torch.optim.SparseAdam is not supported by mindtorch: MindSpore has no sparse gradients (every "
            "gradient is dense). Use torch.optim.Adam instead, with nn.Embedding(..., sparse=False).")
