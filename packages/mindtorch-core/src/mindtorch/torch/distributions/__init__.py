"""torch.distributions: Normal, Uniform, Bernoulli, Categorical and `kl_divergence` between them, built on
mindtorch ops (log_prob, entropy and rsample are differentiable; sampling follows torch.manual_seed).

The rest of torch 1.12's distributions (Beta, Gamma, Dirichlet, MultivariateNormal, transforms, ...) raise
NotImplementedError naming them."""
from __future__ import annotations

from typing import Any

from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Normal", "Uniform", "kl_divergence", "register_kl"]


def __getattr__(name: str) -> Any:
    from .._unsupported import unsupported

    raise unsupported("distributions", name)
