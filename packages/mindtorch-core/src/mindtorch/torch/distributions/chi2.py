"""torch.distributions.Chi2(df)."""
from __future__ import annotations

from typing import Any, Optional

from . import constraints
from .gamma import Gamma


class Chi2(Gamma):
    """Chi-squared with `df` (> 0) degrees of freedom: Gamma(concentration=df / 2, rate=1 / 2)."""

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df: Any, validate_args: Optional[bool] = None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "Chi2":
        return super().expand(batch_shape, self._get_checked_instance(Chi2, _instance))

    @property
    def df(self) -> Any:
        return self.concentration * 2
