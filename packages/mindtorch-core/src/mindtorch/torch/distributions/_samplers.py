"""Samplers torch.distributions needs beyond the public random ops: gamma variates with torch's implicit
reparameterization gradient (`standard_gamma`, what torch calls `torch._standard_gamma`) and binomial counts.

Numbers are drawn from mindtorch's RNG (`torch.manual_seed` / the global generator), like every random op.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import mindtorch.torch as torch
from mindtorch.torch._random import numpy_generator

# torch's bivariate rational approximation of d(sample)/d(alpha) for moderate alpha (ATen Distributions.h)
_COEF_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
     -1.5247877e-07),
)


def standard_gamma_grad(alpha: Any, x: Any) -> Any:
    """d x / d alpha for x ~ Gamma(alpha, 1) at fixed CDF value (implicit reparameterization), elementwise.

    A port of torch's `standard_gamma_grad_one`: a Taylor series for x < 0.8, Rice's saddle-point expansion
    for alpha > 8, a rational approximation otherwise. Computed in float64, returned in alpha's dtype."""
    a, x64 = alpha.detach().double(), x.detach().double()
    # Taylor series of the CDF and of its alpha-derivative, for small x
    numer = torch.ones_like(a)
    denom = a
    series1, series2 = numer / denom, numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x64 / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x64.pow(a)
    gamma_pdf = x64.pow(a - 1) * torch.exp(-x64)
    gamma_cdf = pow_x_alpha * series1
    gamma_cdf_alpha = (torch.log(x64) - torch.digamma(a)) * gamma_cdf - pow_x_alpha * series2
    small_x = -gamma_cdf_alpha / gamma_pdf
    small_x = torch.where(torch.isnan(small_x), torch.zeros_like(small_x), small_x)
    # saddle-point expansion for large alpha (a separate form near the mode, where the general one is 0/0)
    numer_1 = 1 + 24 * a * (1 + 12 * a)
    numer_2 = 1440 * (a * a) + 6 * x64 * (53 - 120 * x64) - 65 * x64 * x64 / a + a * (107 + 3600 * x64)
    near_mode = numer_1 * numer_2 / (1244160 * (a * a) * (a * a))
    d = torch.sqrt(8 * a)
    term2 = d / (a - x64)
    term3 = (x64 - a - a * torch.log(x64 / a)).pow(-1.5)
    term23 = torch.where(x64 < a, term2 - term3, term2 + term3)
    term1 = torch.log(x64 / a) * term23 - torch.sqrt(2 / a) * (a + x64) / ((a - x64) * (a - x64))
    stirling = 1 + 1 / (12 * a) * (1 + 1 / (24 * a))
    large_alpha = -stirling * (x64 * term1) / d
    large_alpha = torch.where((0.9 * a <= x64) & (x64 <= 1.1 * a), near_mode, large_alpha)
    # rational approximation elsewhere
    u, v = torch.log(x64 / a), torch.log(a)
    cv = [_COEF_UV[0][i] + u * (_COEF_UV[1][i] + u * _COEF_UV[2][i]) for i in range(8)]
    p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
    q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
    rational = torch.exp(p / q)
    out = torch.where(x64 < 0.8, small_x, torch.where(a > 8, large_alpha, rational))
    return out.to(alpha.dtype)


class _StandardGamma(torch.autograd.Function):
    """Gamma(alpha, 1) samples whose gradient w.r.t. alpha is the implicit reparameterization gradient."""

    @staticmethod
    def forward(ctx: Any, alpha: Any) -> Any:
        arr = numpy_generator().standard_gamma(alpha.detach().double().numpy())
        # torch never returns an exact 0 (it clamps at the smallest normal number): log(x) stays finite
        x = torch.from_numpy(np.asarray(arr, np.float64)).to(alpha.dtype).clamp(min=torch.finfo(alpha.dtype).tiny)
        ctx.save_for_backward(alpha, x)
        return x

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        alpha, x = ctx.saved_tensors
        return grad * standard_gamma_grad(alpha, x)


def standard_gamma(alpha: Any) -> Any:
    """Samples of Gamma(alpha, rate=1), shape of `alpha`, differentiable w.r.t. `alpha` (torch._standard_gamma)."""
    return _StandardGamma.apply(alpha)


def binomial(count: Any, prob: Any) -> Any:
    """Binomial(count, prob) counts (torch.binomial), same shape/dtype as `prob`; not differentiable."""
    n = count.detach().double().numpy().astype(np.int64)
    arr = numpy_generator().binomial(n, prob.detach().double().numpy())
    return torch.from_numpy(np.asarray(arr, np.float64)).to(prob.dtype)
