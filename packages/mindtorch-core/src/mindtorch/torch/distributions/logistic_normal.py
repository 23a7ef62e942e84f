"""torch.distributions.LogisticNormal(loc, scale)."""
from __future__ import annotations

from typing import Any, Optional

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import StickBreakingTransform


class LogisticNormal(TransformedDistribution):
    """Stick-breaking image of Normal(`loc`, `scale`) (last dim of size K-1) on the K-simplex:
    log(X / (1 - X.cumsum(-1)))[..., :-1] ~ Normal(loc, scale)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Optional[bool] = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "LogisticNormal":
        return super().expand(batch_shape, self._get_checked_instance(LogisticNormal, _instance))

    @property
    def loc(self) -> Any:
        return self.base_dist.base_dist.loc

    @property
    def scale(self) -> Any:
        return self.base_dist.base_dist.scale
