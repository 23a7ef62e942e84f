"""torch.quasirandom: the Sobol quasi-random sequence engine of torch 1.12.

Backed by scipy's Sobol generator (scipy ships with MindSpore), which uses the same Joe-Kuo direction numbers
(up to 21201 dimensions) as torch: unscrambled sequences are identical to torch's. Scrambled sequences
(`scramble=True`) are valid Owen-scrambled Sobol points, but not the same numbers as torch's (a different random
generator draws the scrambling).
"""
from __future__ import annotations

import warnings
from typing import Any, Optional

import numpy as np

__all__ = ["SobolEngine"]


class SobolEngine:
    """Draws points of the (optionally scrambled) Sobol sequence in [0, 1)^dimension."""

    MAXBIT = 30
    MAXDIM = 21201

    def __init__(self, dimension: int, scramble: bool = False, seed: Optional[int] = None) -> None:
        if dimension > self.MAXDIM or dimension < 1:
            raise ValueError("Supported range of dimensionality for SobolEngine is "
                             f"[1, {self.MAXDIM}]")
        self.seed = seed
        self.scramble = scramble
        self.dimension = dimension
        self.reset()

    def reset(self) -> "SobolEngine":
        """Back to the first point (the scrambling, if any, is kept)."""
        from scipy.stats import qmc

        if not hasattr(self, "_engine"):
            seed = self.seed
            if self.scramble and seed is None:
                from ._random import numpy_generator

                seed = int(numpy_generator(None).integers(0, 2 ** 63 - 1))
            self._engine = qmc.Sobol(self.dimension, scramble=self.scramble, seed=seed)
        else:
            self._engine.reset()
        self.num_generated = 0
        return self

    def _draw(self, n: int) -> np.ndarray:
        with warnings.catch_warnings():  # scipy warns about non-power-of-2 counts; torch does not
            warnings.simplefilter("ignore")
            pts = self._engine.random(n)
        self.num_generated += n
        return pts

    def draw(self, n: int = 1, out: Any = None, dtype: Any = None) -> Any:
        """The next `n` points, a (n, dimension) tensor of `dtype` (float32 by default)."""
        from . import _dtype as D
        from ._ops._registry import FUNCTIONS

        dt = D.to_dtype(dtype) if dtype is not None else D.float32
        res = FUNCTIONS["tensor"](self._draw(int(n)), dtype=dt)
        if out is not None:
            out.resize_as_(res).copy_(res)
            return out
        return res

    def draw_base2(self, m: int, out: Any = None, dtype: Any = None) -> Any:
        """The next 2**m points; the total drawn must stay a power of 2 (the sequence's balance properties)."""
        n = 2 ** m
        total_n = self.num_generated + n
        if not (total_n & (total_n - 1) == 0):
            raise ValueError("The balance properties of Sobol' points require n to be a power of 2. "
                             f"{self.num_generated} points have been previously generated, then: n="
                             f"{self.num_generated}+2**{m}={total_n}. If you still want to do this, please use "
                             "'SobolEngine.draw()' instead.")
        return self.draw(n=n, out=out, dtype=dtype)

    def fast_forward(self, n: int) -> "SobolEngine":
        """Skip the next `n` points."""
        self._engine.fast_forward(int(n))
        self.num_generated += int(n)
        return self

    def __repr__(self) -> str:
        fmt = [f"dimension={self.dimension}"]
        if self.scramble:
            fmt += ["scramble=True"]
        if self.seed is not None:
            fmt += [f"seed={self.seed}"]
        return self.__class__.__name__ + "(" + ", ".join(fmt) + ")"
