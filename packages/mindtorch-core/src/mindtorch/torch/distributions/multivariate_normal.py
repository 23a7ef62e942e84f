"""torch.distributions.MultivariateNormal(loc, covariance_matrix=None, precision_matrix=None, scale_tril=None)."""
from __future__ import annotations

import math
from typing import Any, Optional

import mindtorch.torch as torch

from . import _linalg, constraints
from .distribution import Distribution
from .utils import _standard_normal, lazy_property


class MultivariateNormal(Distribution):
    """Gaussian over vectors of size n with mean `loc` (..., n) and exactly one of `covariance_matrix`,
    `precision_matrix` (symmetric positive-definite, (..., n, n)) or `scale_tril` (lower-triangular with a
    positive diagonal, (..., n, n)); batch_shape is the broadcast of their batch dims, event_shape is (n,).

    Everything is computed from the lower Cholesky factor of the covariance, as torch does."""

    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc: Any, covariance_matrix: Any = None, precision_matrix: Any = None,
                 scale_tril: Any = None, validate_args: Optional[bool] = None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        for name, matrix in (("scale_tril", scale_tril), ("covariance_matrix", covariance_matrix),
                             ("precision_matrix", precision_matrix)):
            if matrix is None:
                continue
            if matrix.dim() < 2:
                what = "scale_tril matrix" if name == "scale_tril" else name  # torch's wording differs just there
                raise ValueError(f"{what} must be at least two-dimensional, with optional leading batch dimensions")
            batch_shape = torch.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
            setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        self._unbroadcasted_scale_tril = _linalg.scale_tril_of(scale_tril, covariance_matrix, precision_matrix)

    @lazy_property
    def scale_tril(self) -> Any:
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.mT).expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self) -> Any:
        return _linalg.cholesky_inverse(self._unbroadcasted_scale_tril).expand(
            self._batch_shape + self._event_shape + self._event_shape)

    @property
    def mean(self) -> Any:
        return self.loc

    @property
    def mode(self) -> Any:
        return self.loc

    @property
    def variance(self) -> Any:
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype)
        return self.loc + _linalg.batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        M = _linalg.batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - half_log_det

    def entropy(self) -> Any:
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
