"""torch.distributions.Gamma(concentration, rate)."""
from __future__ import annotations

import numbers
from typing import Any, Optional

import mindtorch.torch as torch

from . import constraints
from ._samplers import standard_gamma
from .exp_family import ExponentialFamily
from .utils import broadcast_all


class Gamma(ExponentialFamily):
    """Gamma with shape `concentration` (> 0) and inverse scale `rate` (> 0), on x >= 0.

    rsample is differentiable w.r.t. both parameters: w.r.t. `rate` through the scaling, w.r.t.
    `concentration` by torch's implicit reparameterization gradient."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration: Any, rate: Any, validate_args: Optional[bool] = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        numbers_only = isinstance(concentration, numbers.Number) and isinstance(rate, numbers.Number)
        super().__init__(torch.Size() if numbers_only else self.concentration.size(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        return self.concentration / self.rate

    @property
    def mode(self) -> Any:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Any:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        # keep samples >= tiny (torch clamps the data in place): the gradient passes through unchanged
        tiny = torch.finfo(value.dtype).tiny
        return value + (value.detach().clamp(min=tiny) - value.detach())

    def log_prob(self, value: Any) -> Any:
        value = torch.as_tensor(value, dtype=self.rate.dtype)
        if self._validate_args:
            self._validate_sample(value)
        return (torch.xlogy(self.concentration, self.rate) + torch.xlogy(self.concentration - 1, value)
                - self.rate * value - torch.lgamma(self.concentration))

    @property
    def _natural_params(self) -> Any:
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        return torch.lgamma(x + 1) + (x + 1) * torch.log(-y.reciprocal())

    @property
    def _mean_carrier_measure(self) -> float:
        return 0

    def entropy(self) -> Any:
        return (self.concentration - torch.log(self.rate) + torch.lgamma(self.concentration)
                + (1.0 - self.concentration) * torch.digamma(self.concentration))
