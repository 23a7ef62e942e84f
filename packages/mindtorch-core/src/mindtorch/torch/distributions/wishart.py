"""torch.distributions.Wishart(df, covariance_matrix=None, precision_matrix=None, scale_tril=None) (torch 1.12)."""
from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, Dict, Optional

import mindtorch.torch as torch

from . import _linalg, constraints
from .chi2 import Chi2
from .exp_family import ExponentialFamily
from .utils import lazy_property

_log_2 = math.log(2)


def _mvdigamma(x: Any, p: int) -> Any:
    """Multivariate digamma of order p: the sum of digamma(x - i / 2) for i < p."""
    if not bool(x.gt((p - 1) / 2).all()):
        raise AssertionError("Wrong domain for multivariate digamma function.")
    return torch.digamma(x.unsqueeze(-1) - torch.arange(p, dtype=x.dtype).div(2).expand(x.shape + (-1,))).sum(-1)


class Wishart(ExponentialFamily):
    """Wishart over symmetric positive-definite p x p matrices with `df` (> p - 1) degrees of freedom and scale
    given by exactly one of `covariance_matrix`, `precision_matrix` (symmetric positive-definite) or
    `scale_tril` (its lower Cholesky factor); batch_shape is the broadcast of df's shape and the matrix's batch
    dims, event_shape is (p, p).

    As torch, everything is computed from the lower Cholesky factor of the scale; rsample is the Bartlett
    decomposition (differentiable w.r.t. df through the chi-squared draws and w.r.t. the scale)."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self) -> Dict[str, constraints.Constraint]:  # type: ignore[override]
        # df's bound depends on the matrix size (torch 1.12 wrote it into the class dict in __init__; a property
        # gives each instance the same constraints without one instance changing another's)
        return {"covariance_matrix": constraints.positive_definite,
                "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky,
                "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df: Any, covariance_matrix: Any = None, precision_matrix: Any = None, scale_tril: Any = None,
                 validate_args: Optional[bool] = None) -> None:
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:  # torch names scale_tril whichever matrix was given
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading batch dimensions")
        if isinstance(df, numbers.Number):
            batch_shape = torch.Size(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype)
        else:
            batch_shape = torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if bool(self.df.le(event_shape[-1] - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}.")
        if scale_tril is not None:
            self.scale_tril = param.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(batch_shape + (-1, -1))
        else:
            self.precision_matrix = param.expand(batch_shape + (-1, -1))
        if bool(self.df.lt(event_shape[-1]).any()):
            warnings.warn("Low df values detected. Singular samples are highly likely to occur for ndim - 1 < df < "
                          "ndim.")
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._unbroadcasted_scale_tril = _linalg.scale_tril_of(scale_tril, covariance_matrix, precision_matrix)
        self._dist_chi2 = self._bartlett_chi2()

    def _bartlett_chi2(self) -> Chi2:
        """The chi-squared draws of the Bartlett factor's diagonal: df - i degrees of freedom for row i."""
        p = self._event_shape[-1]
        offsets = torch.arange(p, dtype=self._unbroadcasted_scale_tril.dtype).expand(self._batch_shape + (-1,))
        return Chi2(self.df.unsqueeze(-1) - offsets)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "Wishart":
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = torch.Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(cov_shape))
        super(Wishart, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        new._dist_chi2 = new._bartlett_chi2()
        return new

    @lazy_property
    def scale_tril(self) -> Any:
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        return (L @ L.mT).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self) -> Any:
        L = self._unbroadcasted_scale_tril
        identity = torch.eye(self._event_shape[-1], dtype=L.dtype)
        return torch.cholesky_solve(identity, L).expand(self._batch_shape + self._event_shape)

    def _df_matrix(self) -> Any:
        """df with two trailing unit dims, to scale a batch of matrices."""
        return self.df.view(self._batch_shape + (1, 1))

    @property
    def mean(self) -> Any:
        return self._df_matrix() * self.covariance_matrix

    @property
    def mode(self) -> Any:
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor = torch.where(factor <= 0, torch.full_like(factor, math.nan), factor)  # no mode for df <= p + 1
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self) -> Any:
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        return self._df_matrix() * (V.pow(2) + diag_V.unsqueeze(-1) * diag_V.unsqueeze(-2))

    def _bartlett_sampling(self, sample_shape: Any) -> Any:
        # A = (L T)(L T)^T with T lower-triangular: sqrt(chi2(df - i)) on the diagonal (kept >= eps), N(0, 1) below
        chi = self._dist_chi2.rsample(sample_shape).sqrt()
        chi = chi.clamp(min=torch.finfo(chi.dtype).eps)
        below = torch.randn(tuple(self._extended_shape(sample_shape)), dtype=chi.dtype).tril(-1)
        chol = self._unbroadcasted_scale_tril @ (torch.diag_embed(chi) + below)
        return chol @ chol.mT

    def _singular(self, sample: Any, sample_shape: Any) -> Any:
        """Per sample index, whether any matrix of its batch is not positive-definite (shape sample_shape)."""
        bad = ~self.support.check(sample)
        return bad.reshape(tuple(sample_shape) + (-1,)).any(-1)

    def rsample(self, sample_shape: Any = (), max_try_correction: Optional[int] = None) -> Any:
        """A Bartlett sample can come out numerically singular: those sample indices are redrawn, up to
        `max_try_correction` (default 10) times, with torch's warning; singular samples may remain after that.

        torch (2.13, and 1.12 as recalled) tests `support.check(sample)` un-negated at first, so it warns
        "Singular sample detected." on every call and redraws every sample once; here only singular ones are
        (the sampled distribution is the same)."""
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = torch.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        is_singular = self._singular(sample, sample_shape)
        if bool(is_singular.any()):
            warnings.warn("Singular sample detected.")
            redraw_shape = sample_shape + (1,) * (len(self._batch_shape) + 2)
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(sample_shape)
                sample = torch.where(is_singular.reshape(redraw_shape), sample_new, sample)
                is_singular = is_singular & self._singular(sample_new, sample_shape)
                if not bool(is_singular.any()):
                    break
        return sample

    def log_prob(self, value: Any) -> Any:
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        # torch.linalg.slogdet / cholesky_solve record torch's gradients (w.r.t. every entry of scale_tril too)
        return (-nu * (p * _log_2 / 2 + L.diagonal(dim1=-2, dim2=-1).log().sum(-1))
                - torch.mvlgamma(nu / 2, p=p)
                + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
                - torch.cholesky_solve(value, L).diagonal(dim1=-2, dim2=-1).sum(-1) / 2)

    def entropy(self) -> Any:
        nu = self.df
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        return ((p + 1) * (p * _log_2 / 2 + L.diagonal(dim1=-2, dim2=-1).log().sum(-1))
                + torch.mvlgamma(nu / 2, p=p)
                - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
                + nu * p / 2)

    @property
    def _natural_params(self) -> Any:
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x: Any, y: Any) -> Any:
        p = self._event_shape[-1]
        return ((y + (p + 1) / 2) * (-torch.linalg.slogdet(-2 * x).logabsdet + _log_2 * p)
                + torch.mvlgamma(y + (p + 1) / 2, p=p))
