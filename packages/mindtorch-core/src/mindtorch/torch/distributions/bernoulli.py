"""torch.distributions.Bernoulli(probs=None, logits=None)."""
from __future__ import annotations

from typing import Any, Optional

import mindtorch.torch as torch
import mindtorch.torch.nn.functional as F

from .distribution import Distribution
from .utils import broadcast_all, logits_to_probs, probs_to_logits


class Bernoulli(Distribution):
    """1 with probability `probs` (or sigmoid(`logits`)), else 0; exactly one of the two must be given."""

    arg_constraints = {"probs": ("unit_interval", 0.0), "logits": ("real", 0.0)}
    _derived = {"probs": lambda d: logits_to_probs(d.__dict__["logits"], is_binary=True),
                "logits": lambda d: probs_to_logits(d.__dict__["probs"], is_binary=True)}

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Optional[bool] = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        if probs is not None:
            self.probs = param
        else:
            self.logits = param
        super().__init__(param.size(), validate_args=validate_args)

    @property
    def mean(self) -> Any:
        return self.probs

    @property
    def variance(self) -> Any:
        return self.probs * (1 - self.probs)

    @property
    def param_shape(self) -> Any:
        return self.__dict__.get("probs", self.__dict__.get("logits")).size()

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
