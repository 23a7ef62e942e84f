"""torch.distributions.FisherSnedecor(df1, df2)."""
from __future__ import annotations

import numbers
from typing import Any, Optional

import mindtorch.torch as torch

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import broadcast_all


def _nan_where(mask: Any, value: Any) -> Any:
    return torch.where(mask, torch.full_like(value, float("nan")), value)


class FisherSnedecor(Distribution):
    """F-distribution with `df1`, `df2` (> 0) degrees of freedom: (X1 / df1) / (X2 / df2) for chi-squared X1, X2
    (rsample through two Gamma rsamples)."""

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1: Any, df2: Any, validate_args: Optional[bool] = None) -> None:
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        numbers_only = isinstance(df1, numbers.Number) and isinstance(df2, numbers.Number)
        super().__init__(torch.Size() if numbers_only else self.df1.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "FisherSnedecor":
        new = super().expand(batch_shape, _instance)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Any:
        return _nan_where(self.df2 <= 2, self.df2 / (self.df2 - 2))

    @property
    def mode(self) -> Any:
        return _nan_where(self.df1 <= 2, (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2))

    @property
    def variance(self) -> Any:
        df2 = self.df2
        var = 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))
        return _nan_where(df2 <= 4, var)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        # X1 ~ Gamma(df1 / 2, df1) = Chi2(df1) / df1, likewise X2, so X1 / X2 ~ F(df1, df2)
        X1 = self._gamma1.rsample(sample_shape).view(shape)
        X2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = torch.finfo(X2.dtype).tiny
        X2 = X2.clamp(min=tiny)
        return (X1 / X2).clamp(min=tiny)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        ct1 = self.df1 * 0.5
        ct2 = self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * torch.log(value)
        t3 = (ct1 + ct2) * torch.log1p(ct3 * value)
        return t1 + t2 - t3
