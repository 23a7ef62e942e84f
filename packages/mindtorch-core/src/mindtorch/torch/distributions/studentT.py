"""torch.distributions.StudentT(df, loc=0.0, scale=1.0)."""
from __future__ import annotations

import math
from typing import Any, Optional

import mindtorch.torch as torch

from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all


class StudentT(Distribution):
    """Student's t with `df` (> 0) degrees of freedom, location `loc` and scale `scale` (> 0).

    rsample is loc + scale * X / sqrt(Z / df) with X ~ N(0, 1), Z ~ Chi2(df) (differentiable w.r.t. df too)."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: Optional[bool] = None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "StudentT":
        new = super().expand(batch_shape, _instance)
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Any:
        return torch.where(self.df <= 1, torch.full_like(self.loc, float("nan")), self.loc)

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def variance(self) -> Any:
        finite = self.scale.pow(2) * self.df / (self.df - 2)
        m = torch.where(self.df > 2, finite, torch.full_like(self.df, float("inf")))
        return torch.where(self.df <= 1, torch.full_like(self.df, float("nan")), m)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        X = _standard_normal(shape, dtype=self.df.dtype)
        Z = self._chi2.rsample(sample_shape)
        Y = X * torch.rsqrt(Z / self.df)
        return self.loc + self.scale * Y

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        Z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + torch.lgamma(0.5 * self.df)
             - torch.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * torch.log1p(y ** 2.0 / self.df) - Z

    def entropy(self) -> Any:
        lbeta = torch.lgamma(0.5 * self.df) + math.lgamma(0.5) - torch.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1)
                * (torch.digamma(0.5 * (self.df + 1)) - torch.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
