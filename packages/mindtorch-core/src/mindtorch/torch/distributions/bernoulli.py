"""torch.distributions.Bernoulli(probs=None, logits=None)."""
from __future__ import annotations

import numbers
from typing import Any, Optional

import mindtorch.torch as torch
import mindtorch.torch.nn.functional as F

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, lazy_property, logits_to_probs, probs_to_logits


class Bernoulli(ExponentialFamily):
    """1 with probability `probs` (or sigmoid(`logits`)), else 0; exactly one of the two must be given.
    batch_shape is the parameter's shape (() for a number)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Optional[bool] = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        if probs is not None:
            self.probs = param
        else:
            self.logits = param
        self._param = param
        batch_shape = torch.Size() if isinstance(given, numbers.Number) else param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def _new(self, *args: Any, **kwargs: Any) -> Any:
        return self._param.new(*args, **kwargs)

    @lazy_property
    def logits(self) -> Any:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Any:
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def mean(self) -> Any:
        return self.probs

    @property
    def mode(self) -> Any:
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        return torch.where(self.probs == 0.5, torch.full_like(mode, float("nan")), mode)

    @property
    def variance(self) -> Any:
        return self.probs * (1 - self.probs)

    @property
    def param_shape(self) -> Any:
        return self._param.size()

    def expand(self, batch_shape: Any, _instance: Any = None) -> "Bernoulli":
        new = super().expand(batch_shape, _instance)
        new._param = new.__dict__.get("probs", new.__dict__.get("logits"))
        return new

    def sample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Any:
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    @property
    def _natural_params(self) -> Any:
        return (torch.log(self.probs / (1 - self.probs)),)

    def _log_normalizer(self, x: Any) -> Any:
        return torch.log1p(torch.exp(x))

    @property
    def _mean_carrier_measure(self) -> float:
        return 0

    def enumerate_support(self, expand: bool = True) -> Any:
        values = torch.arange(2, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
