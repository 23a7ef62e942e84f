"""Stochastic depth (Huang et al. 2016): drop whole residual branches at random while training."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _rng
from .._bridge import from_numpy, np_dtype
from .._module import Module


def stochastic_depth(input: Any, p: float, mode: str, training: bool = True) -> Any:
    """Zero `input` per sample ('row') or entirely ('batch') with probability p, scaling survivors by 1/(1-p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"drop probability has to be between 0 and 1, but got {p}")
    if mode not in ["batch", "row"]:
        raise ValueError(f"mode has to be either 'batch' or 'row', but got {mode}")
    if not training or p == 0.0:
        return input
    survival_rate = 1.0 - p
    shape = tuple(input.shape)
    size = [shape[0]] + [1] * (len(shape) - 1) if mode == "row" else [1] * len(shape)
    # Bernoulli(survival_rate) noise from the torch stream, then the scaling torchvision applies
    noise = (_rng.rand(int(np.prod(size))) < survival_rate).astype(np_dtype(input)).reshape(size)
    if survival_rate > 0.0:
        noise = noise / noise.dtype.type(survival_rate)
    return input * from_numpy(noise.astype(np_dtype(input)))


class StochasticDepth(Module):
    """Module form of stochastic_depth (active in training mode only)."""

    def __init__(self, p: float, mode: str) -> None:
        super().__init__()
        self.p = p
        self.mode = mode

    def forward(self, input: Any) -> Any:
        return stochastic_depth(input, self.p, self.mode, self.training)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p}, mode={self.mode})"
