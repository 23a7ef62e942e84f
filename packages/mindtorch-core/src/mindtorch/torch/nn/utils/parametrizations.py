"""torch.nn.utils.parametrizations: ready-made parametrizations (torch 1.12), built on `parametrize`.

Here: `spectral_norm` (the parametrization version: state_dict keys `parametrizations.weight.original` and
`parametrizations.weight.0._u` / `._v`). `orthogonal` is not provided yet.
"""
from __future__ import annotations

from typing import Any, Optional, TypeVar

import mindspore as ms

from ... import _grad_mode
from ..._ops.random import randn
from ..functional import normalize
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize

__all__ = ["spectral_norm"]

T_module = TypeVar("T_module", bound=Module)


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
