"""torch.distributions.Dirichlet(concentration)."""
from __future__ import annotations

from typing import Any, Optional

import mindtorch.torch as torch

from . import constraints
from ._samplers import standard_gamma
from .exp_family import ExponentialFamily


class Dirichlet(ExponentialFamily):
    """Dirichlet over the probability simplex with `concentration` (> 0) of shape (..., K): batch_shape is
    `concentration.shape[:-1]`, event_shape is (K,).

    rsample normalises independent Gamma(concentration_k, 1) draws, whose gradients are the implicit
    reparameterization gradients of the gammas: an exact reparameterization (an unbiased pathwise gradient).
    torch differentiates the same samples through the marginal Beta CDFs instead, so per-sample gradients
    differ from torch's while their expectation is the same."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Any, validate_args: Optional[bool] = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args=validate_args)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        gammas = standard_gamma(self.concentration.expand(shape))
        x = gammas / gammas.sum(-1, keepdim=True)
        # as torch: keep every coordinate in [tiny, 1 - eps] (the gradient passes through the clamp unchanged)
        finfo = torch.finfo(x.dtype)
        return x + (x.detach().clamp(min=finfo.tiny, max=1 - finfo.eps) - x.detach())

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        return (torch.xlogy(self.concentration - 1.0, value).sum(-1) + torch.lgamma(self.concentration.sum(-1))
                - torch.lgamma(self.concentration).sum(-1))

    @property
    def mean(self) -> Any:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Any:
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        # when every a_k < 1 the formula is 0/0; torch then puts the mode at the argmax of that all-NaN row,
        # i.e. the first vertex of the simplex
        mask = (self.concentration < 1).all(-1)
        first_vertex = torch.nn.functional.one_hot(torch.zeros(tuple(mask.shape), dtype=torch.long),
                                                   self.concentration.shape[-1]).to(mode.dtype)
        return torch.where(mask.unsqueeze(-1), first_vertex, mode)

    @property
    def variance(self) -> Any:
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    @property
    def _natural_params(self) -> Any:
        return (self.concentration,)

    def _log_normalizer(self, x: Any) -> Any:
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))

    def entropy(self) -> Any:
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (torch.lgamma(self.concentration).sum(-1) - torch.lgamma(a0) - (k - a0) * torch.digamma(a0)
                - ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1))
