"""torch.nn.utils.parametrizations: ready-made parametrizations (torch 1.12), built on `parametrize`.

`orthogonal` (matrix_exp / cayley / householder maps, with or without trivialization) and `spectral_norm` (the
parametrization version: state_dict keys `parametrizations.weight.original` and `parametrizations.weight.0._u` /
`._v`).
"""
from __future__ import annotations

from enum import Enum, auto
from typing import Any, Optional, TypeVar

import mindspore as ms

from ... import _grad_mode
from ..._ops.random import randn
from ..functional import normalize
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm"]

T_module = TypeVar("T_module", bound=Module)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _torch() -> Any:
    import mindtorch.torch as torch  # (the torch namespace: this module is imported while it is being built)

    return torch


def _is_orthogonal(Q: Any) -> bool:
    torch = _torch()
    n, k = Q.size(-2), Q.size(-1)
    eye = torch.eye(k, dtype=Q.dtype)
    return bool(torch.allclose(Q.mH @ Q, eye, atol=10.0 * n * torch.finfo(Q.dtype).eps))


def _make_orthogonal(A: Any) -> Any:
    """The Q factor of a tall A = QR with diag(R) real and non-negative."""
    torch = _torch()
    X, tau = torch.geqrf(A)
    Q = torch.linalg.householder_product(X, tau)
    # the diagonal of X is R's: Q's columns take its signs, so that diag(R) >= 0
    return Q * X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _Orthogonal(Module):
    """Q(X): an orthogonal (unitary) matrix, or batch of them, of X's shape. matrix_exp / cayley map the
    skew-symmetric part of X's lower triangle; householder takes X's strict lower triangle as reflectors. With
    trivialization, Q = base @ Q(X) where `base` (a buffer) is the orthogonal matrix last assigned."""

    def __init__(self, weight: Any, orthogonal_map: _OrthMaps, *, use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Any) -> Any:
        torch = _torch()
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        # X is tall (n >= k) here
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()  # n k - k (k - 1) / 2 parameters
            if n != k:  # embedded into a square matrix
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH  # skew-symmetric (skew-hermitian)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = torch.matrix_exp(A)
            else:  # the Cayley retraction (I + A/2)(I - A/2)^-1
                eye = torch.eye(n, dtype=A.dtype)
                Q = torch.linalg.solve(torch.add(eye, A, alpha=-0.5), torch.add(eye, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = torch.linalg.householder_product(A, tau)
            # X's diagonal holds 1s and -1s (see right_inverse); neither differentiated nor updated through
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        base = self.__dict__["_buffers"].get("base")  # (set by right_inverse when the parametrization is made)
        if base is not None:
            Q = base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q: Any) -> Any:
        torch = _torch()
        with torch.no_grad():
            if Q.shape != self.shape:
                raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                                 f"Got a tensor of shape {Q.shape}.")
            Q_init = Q
            n, k = Q.size(-2), Q.size(-1)
            transpose = n < k
            if transpose:
                Q = Q.mT
                n, k = k, n
            if "base" not in self.__dict__["_buffers"]:
                if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                    raise NotImplementedError("It is not possible to assign to the matrix exponential or the Cayley "
                                              "parametrizations when use_trivialization=False.")
                # householder: Q's reflectors from a QR decomposition, with diag(R) > 0 (a reflection LAPACK did
                # not use, tau == 0, keeps -1)
                A, tau = torch.geqrf(Q)
                diag = A.diagonal(dim1=-2, dim2=-1)
                signs = torch.where(tau == 0.0, -diag.sign(), diag.sign())
                eye = torch.eye(n, k, dtype=A.dtype)
                A = A * (1 - eye) + eye * signs.unsqueeze(-2)
                return A.mT if transpose else A
            if n == k:
                Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
            else:  # completed into a full n x n orthogonal matrix
                N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype)
                Q = _make_orthogonal(torch.cat([Q, N], dim=-1))
            self.base = Q
            # -Id: householder(zeros) is then the identity, and Q(X) starts at `base`
            neg_id = torch.zeros_like(Q_init)
            eye = torch.eye(neg_id.size(-2), neg_id.size(-1), dtype=neg_id.dtype)
            return neg_id - eye.expand_as(neg_id)


def orthogonal(module: Module, name: str = "weight", orthogonal_map: Optional[str] = None, *,
               use_trivialization: bool = True) -> Module:
    r"""Apply an orthogonal (unitary) parametrization to a matrix or batch of matrices `module.<name>`: the
    weight is :math:`Q` with :math:`Q^H Q = I` (tall) or :math:`Q Q^H = I` (wide) at every access.

    Args:
        module: the module holding the tensor.
        name: name of the weight. Default: ``'weight'``.
        orthogonal_map: ``"matrix_exp"``, ``"cayley"`` or ``"householder"``. Default: ``"matrix_exp"`` for a
            square or complex matrix, ``"householder"`` otherwise.
        use_trivialization: keep the last assigned orthogonal matrix as ``base`` and map around it (the
            dynamic trivialization). Default: ``True``.

    Returns:
        The module, with the parametrization registered on `name`.
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, ms.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex()
                          else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    parametrize.register_parametrization(module, name, _Orthogonal(weight, orth_enum,
                                                                    use_trivialization=use_trivialization),
                                         unsafe=True)
    return module


class _SpectralNorm(Module):
    """`weight / sigma(weight)`, sigma estimated by power iteration on the buffers `_u`, `_v` (training mode
    only); a 1-D weight is simply normalized."""

    def __init__(self, weight: Any, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # For ndim == 1 we do not need to approximate anything (see forward).
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            self.register_buffer("_u", normalize(randn(h, dtype=weight.dtype), dim=0, eps=self.eps))
            self.register_buffer("_v", normalize(randn(w, dtype=weight.dtype), dim=0, eps=self.eps))
            # Start from good approximations of the singular vectors (15 iterations, as torch).
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Any) -> Any:
        assert weight.ndim > 1
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Any, n_power_iterations: int) -> None:
        """Refine `_u`, `_v` in place (outside autograd): u = normalize(W v), v = normalize(W^T u)."""
        with _grad_mode.no_grad():
            u, v = self._u, self._v
            for _ in range(n_power_iterations):
                u = normalize(weight_mat.mv(v), dim=0, eps=self.eps)
                v = normalize(weight_mat.t().mv(u), dim=0, eps=self.eps)
            # torch writes with `out=` into the buffers: same objects, new values.
            self._u.copy_(u)
            self._v.copy_(v)

    def forward(self, weight: Any) -> Any:
        if weight.ndim == 1:
            # Faster and more exact path, no need to approximate anything.
            return normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # Copies: the buffers change in place on the next training call, after autograd saved them.
        u = self._u.clone()
        v = self._v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value: Any) -> Any:
        # Assigning to the parametrized weight sets `original` to the value itself (sigma is re-estimated).
        return value


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: Optional[int] = None) -> T_module:
    r"""Apply spectral normalization to `module.<name>` as a parametrization:

    .. math:: \mathbf{W}_{SN} = \dfrac{\mathbf{W}}{\sigma(\mathbf{W})}

    Args:
        module: the module holding the tensor.
        name: name of the weight parameter. Default: ``'weight'``.
        n_power_iterations: power-iteration steps per training forward. Default: ``1``.
        eps: epsilon for numerical stability of the norms. Default: ``1e-12``.
        dim: the output dimension; ``None`` means 1 for ConvTranspose{1,2,3}d and 0 otherwise.

    Returns:
        The module, with the parametrization registered on `name`.
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, ms.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
