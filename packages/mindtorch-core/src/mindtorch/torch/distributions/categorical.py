"""torch.distributions.Categorical(probs=None, logits=None): one of K classes, indexed 0..K-1."""
from __future__ import annotations

from typing import Any, Optional

import mindtorch.torch as torch

from .distribution import Distribution
from .utils import logits_to_probs, probs_to_logits


class Categorical(Distribution):
    """Class probabilities along the last dim of `probs` (normalised to sum 1) or `logits` (unnormalised log
    probabilities); batch_shape is everything before it."""

    arg_constraints = {"probs": ("simplex", 0.0), "logits": ("real", 0.0)}
    _derived = {"probs": lambda d: logits_to_probs(d.__dict__["logits"]),
                "logits": lambda d: probs_to_logits(d.__dict__["probs"])}

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Optional[bool] = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        param = self.__dict__.get("probs", self.__dict__.get("logits"))
        self._num_events = param.size()[-1]
        batch = param.size()[:-1] if param.dim() > 1 else torch.Size()
        super().__init__(batch, validate_args=validate_args)

    @property
    def param_shape(self) -> Any:
        return self.__dict__.get("probs", self.__dict__.get("logits")).size()

    @property
    def mean(self) -> Any:
        return torch.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def variance(self) -> Any:
        return torch.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = ()) -> Any:
        sample_shape = torch.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        with torch.no_grad():
            samples_2d = torch.multinomial(probs_2d, max(sample_shape.numel(), 1), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
            if not bool(((value >= 0) & (value < self._num_events)).all()):
                raise ValueError("Expected value argument to be within the support (IntegerInterval(lower_bound=0, "
                                 f"upper_bound={self._num_events - 1})) of the distribution {self!r}, but found "
                                 f"invalid values:\n{value}")
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self) -> Any:
        logits = torch.clamp(self.logits, min=torch.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Any:
        values = torch.arange(self._num_events, dtype=torch.long)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
