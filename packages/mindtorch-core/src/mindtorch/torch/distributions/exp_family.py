"""torch.distributions.ExponentialFamily: distributions with density h(x) exp(<theta, t(x)> - F(theta))."""
from __future__ import annotations

from typing import Any, Tuple

import mindtorch.torch as torch

from .distribution import Distribution


class ExponentialFamily(Distribution):
    """Base of exponential-family distributions: subclasses give their natural parameters theta
    (`_natural_params`), the log-normaliser F (`_log_normalizer`) and E[log h(x)] (`_mean_carrier_measure`).
    From them, `entropy()` and the KL between two members of one family follow as Bregman divergences
    of F, with gradients of F taken by autograd."""

    @property
    def _natural_params(self) -> Tuple[Any, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Any) -> Any:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        """H = F(theta) - <theta, grad F(theta)> - E[log h(x)]."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        with torch.enable_grad():
            lg_normal = self._log_normalizer(*nparams)
            gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for nparam, g in zip(nparams, gradients):
            result = result - (nparam * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
