"""torch.distributions.VonMises(loc, concentration): a circular distribution on [-pi, pi)."""
from __future__ import annotations

import math
from typing import Any, List, Optional

import mindtorch.torch as torch

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property


def _eval_poly(y: Any, coef: List[float]) -> Any:
    coef = list(coef)
    result = coef.pop()
    while coef:
        result = coef.pop() + y * result
    return result


# Abramowitz & Stegun 9.8.1-9.8.4 polynomial approximations of I0 and I1 (torch's coefficients)
_I0_COEF_SMALL = [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2]
_I0_COEF_LARGE = [0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1, 0.2635537e-1,
                  -0.1647633e-1, 0.392377e-2]
_I1_COEF_SMALL = [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3]
_I1_COEF_LARGE = [0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1,
                  -0.2895312e-1, 0.1787654e-1, -0.420059e-2]
_COEF_SMALL = [_I0_COEF_SMALL, _I1_COEF_SMALL]
_COEF_LARGE = [_I0_COEF_LARGE, _I1_COEF_LARGE]


def _log_modified_bessel_fn(x: Any, order: int = 0) -> Any:
    """log(I_order(x)) for x > 0, order 0 or 1."""
    if order not in (0, 1):
        raise ValueError(f"order must be 0 or 1, got {order}")
    y = (x / 3.75) ** 2
    small = _eval_poly(y, _COEF_SMALL[order])
    if order == 1:
        small = x.abs() * small
    small = small.log()
    y = 3.75 / x
    large = x - 0.5 * x.log() + _eval_poly(y, _COEF_LARGE[order]).log()
    return torch.where(x < 3.75, small, large)


def _rejection_sample(loc: Any, concentration: Any, proposal_r: Any, x: Any) -> Any:
    """Best & Fisher's (1979) wrapped-Cauchy rejection sampler: redraw until every entry is accepted."""
    done = torch.zeros(x.shape, dtype=torch.bool)
    while not bool(done.all()):
        u = torch.rand((3,) + tuple(x.shape), dtype=loc.dtype)
        u1, u2, u3 = u[0], u[1], u[2]
        z = torch.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if bool(accept.any()):
            x = torch.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """Von Mises (circular normal) with mean direction `loc` (radians) and `concentration` (> 0); sampling is by
    rejection in float64 and not reparameterized."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc: Any, concentration: Any, validate_args: Optional[bool] = None) -> None:
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, torch.Size(), validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "VonMises":
        new = super().expand(batch_shape, _instance)
        for name in ("_loc", "_concentration", "_proposal_r", "variance"):
            new.__dict__.pop(name, None)  # lazily recomputed for the new batch shape
        return new

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * torch.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)

    @lazy_property
    def _loc(self) -> Any:
        return self.loc.to(torch.double)

    @lazy_property
    def _concentration(self) -> Any:
        return self.concentration.to(torch.double)

    @lazy_property
    def _proposal_r(self) -> Any:
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa ** 2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        _proposal_r = (1 + rho ** 2) / (2 * rho)
        _proposal_r_taylor = 1 / kappa + kappa  # the closed form loses all precision for tiny kappa
        return torch.where(kappa < 1e-5, _proposal_r_taylor, _proposal_r)

    def sample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            x = torch.zeros(shape, dtype=self._loc.dtype)
            return _rejection_sample(self._loc, self._concentration, self._proposal_r, x).to(self.loc.dtype)

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def mode(self) -> Any:
        return self.loc

    @lazy_property
    def variance(self) -> Any:  # type: ignore[override]
        """Circular variance 1 - I1(k) / I0(k)."""
        return 1 - (_log_modified_bessel_fn(self.concentration, order=1)
                    - _log_modified_bessel_fn(self.concentration, order=0)).exp()
