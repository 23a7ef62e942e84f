"""torch.distributions.LKJCholesky(dim, concentration=1.0)."""
from __future__ import annotations

import math
from typing import Any, Optional

import mindtorch.torch as torch

from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all


class LKJCholesky(Distribution):
    """LKJ distribution over Cholesky factors L (dim x dim) of correlation matrices, with density proportional
    to det(L L^T)^(concentration - 1); sampled by the onion method (Lewandowski, Kurowicka, Joe 2009)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration: Any = 1.0, validate_args: Optional[bool] = None) -> None:
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = torch.Size((dim, dim))
        # row i of L gets a squared norm y_i ~ Beta(i / 2, concentration + (dim - 2 - i) / 2) off the diagonal
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = torch.cat([torch.zeros((1,), dtype=offset.dtype), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "LKJCholesky":
        new = super().expand(batch_shape, _instance)
        new._beta = self._beta.expand(torch.Size(batch_shape) + (self.dim,))
        return new

    def sample(self, sample_shape: Any = ()) -> Any:
        with torch.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u_normal = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
            u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
            # the first row is all zeros (0/0 above): it has no off-diagonal part
            first_row = (torch.arange(self.dim) == 0).to(y.dtype).unsqueeze(-1)
            u_hypersphere = torch.where(first_row.bool(), torch.zeros_like(u_hypersphere), u_hypersphere)
            w = torch.sqrt(y) * u_hypersphere
            eps = torch.finfo(w.dtype).tiny  # clamp for stability: the diagonal makes each row unit-norm
            diag_elems = torch.clamp(1 - torch.sum(w ** 2, dim=-1), min=eps).sqrt()
            return w + torch.diag_embed(diag_elems)

    def log_prob(self, value: Any) -> Any:
        # p(L) is proportional to prod_i L_ii^(2 (concentration - 1) + dim - i) (the determinant times the
        # Jacobian of L -> L L^T), normalised as in LKJ (2009), p. 1999
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1).to(self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = torch.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        # the paper's pi constant is D (D - 1) / 4 log(pi), multigammaln's is (D - 1)(D - 2) / 4 log(pi)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalize_term = pi_constant + numerator - denominator
        return unnormalized_log_pdf - normalize_term
