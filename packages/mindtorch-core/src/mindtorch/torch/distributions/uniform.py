"""torch.distributions.Uniform(low, high): the half-open interval [low, high)."""
from __future__ import annotations

from typing import Any, Optional

import mindtorch.torch as torch

from .distribution import Distribution
from .utils import broadcast_all


class Uniform(Distribution):
    """Uniform on [low, high) (low < high), broadcast to one batch shape."""

    arg_constraints = {"low": ("real", 0.0), "high": ("real", 0.0)}
    has_rsample = True

    def __init__(self, low: Any, high: Any, validate_args: Optional[bool] = None) -> None:
        self.low, self.high = broadcast_all(low, high)
        super().__init__(self.low.size(), validate_args=validate_args)
        if self._validate_args and not bool(torch.lt(self.low, self.high).all()):
            raise ValueError("Uniform is not defined when low>= high")

    @property
    def mean(self) -> Any:
        return (self.high + self.low) / 2

    @property
    def stddev(self) -> Any:
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self) -> Any:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: Any = ()) -> Any:
        rand = torch.rand(self._extended_shape(sample_shape), dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
            if not bool(((value >= self.low) & (value < self.high)).all()):
                raise ValueError("Expected value argument to be within the support (Interval) of the distribution "
                                 f"{self!r}, but found invalid values:\n{value}")
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def cdf(self, value: Any) -> Any:
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value: Any) -> Any:
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Any:
        return torch.log(self.high - self.low)
