"""Helpers of torch.distributions.utils: broadcasting parameters, probs <-> logits, lazy properties, summing
event dims."""
from __future__ import annotations

import numbers
from functools import update_wrapper
from typing import Any, Callable, Tuple

import mindtorch.torch as torch

euler_constant = 0.57721566490153286060  # Euler-Mascheroni constant


def broadcast_all(*values: Any) -> Tuple[Any, ...]:
    """Tensors and numbers -> tensors of one broadcast shape (numbers take the first float tensor's dtype, else
    the default float dtype)."""
    if not all(isinstance(v, (torch.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    like = next((v for v in values if isinstance(v, torch.Tensor)), None)
    dtype = like.dtype if like is not None and like.is_floating_point() else torch.get_default_dtype()
    tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=dtype) for v in values]
    return tuple(torch.broadcast_tensors(*tensors))


def _standard_normal(shape: Any, dtype: Any) -> Any:
    """N(0, 1) noise of `shape` from mindtorch's RNG (follows torch.manual_seed)."""
    return torch.randn(tuple(shape), dtype=dtype)


def _sum_rightmost(value: Any, dim: int) -> Any:
    """Sum out the `dim` rightmost dims of `value` (a no-op for dim == 0)."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:value.dim() - dim]) + (-1,)).sum(-1)


def clamp_probs(probs: Any) -> Any:
    """Clamp into [eps, 1 - eps] so that log(p) and log1p(-p) stay finite."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Any:
    ps = clamp_probs(probs)
    return torch.log(ps) - torch.log1p(-ps) if is_binary else torch.log(ps)


def logits_to_probs(logits: Any, is_binary: bool = False) -> Any:
    if is_binary:
        return torch.sigmoid(logits)
    # exp and normalise explicitly: MindSpore's CPU softmax kernel is off by a few ulp (rows sum to 1 +- 3e-6),
    # which fails torch's simplex check (tolerance 1e-6) on probabilities derived from logits
    e = (logits - logits.max(-1, keepdim=True)[0]).exp()
    return e / e.sum(-1, keepdim=True)


class lazy_property:
    """A property computed on first access and then cached in the instance's __dict__ (torch's
    `lazy_property`): used for the parameter that was not given (probs from logits, covariance from scale_tril)
    so that argument validation only checks the given form."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance: Any, obj_type: Any = None) -> Any:
        if instance is None:
            return self
        with torch.enable_grad():  # the cached value must stay differentiable even if first read under no_grad
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def _tril_flat_indices(n: int, diag: int) -> list:
    """Row-major flat indices (i * n + j) of the entries with j <= i + diag of an n x n matrix."""
    return [i * n + j for i in range(n) for j in range(n) if j < i + diag + 1]


def tril_matrix_to_vec(mat: Any, diag: int = 0) -> Any:
    """The lower-triangular entries (j <= i + diag) of the last two dims, in row order: (..., n, n) -> (..., N)."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    flat = mat.reshape(tuple(mat.shape[:-2]) + (n * n,))
    return flat.index_select(-1, torch.tensor(_tril_flat_indices(n, diag), dtype=torch.long))


def vec_to_tril_matrix(vec: Any, diag: int = 0) -> Any:
    """Inverse of `tril_matrix_to_vec`: (..., N) -> (..., n, n) with zeros above the `diag` diagonal."""
    # positive root of n^2 + (1 + 2 diag) n - |diag| (diag + 1) - 2 N = 0
    n_real = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n_real) - n_real > torch.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as the lower "
                         "triangular part of a square D x D matrix.")
    n = round(n_real)
    # gather from [0, vec...]: position 0 feeds every entry outside the triangle (differentiable, no scatter)
    source = [0] * (n * n)
    for k, flat in enumerate(_tril_flat_indices(n, diag)):
        source[flat] = k + 1
    padded = torch.cat([torch.zeros(tuple(vec.shape[:-1]) + (1,), dtype=vec.dtype), vec], -1)
    mat = padded.index_select(-1, torch.tensor(source, dtype=torch.long))
    return mat.reshape(tuple(vec.shape[:-1]) + (n, n))
