"""Differentiable small-matrix linear algebra for MultivariateNormal, LowRankMultivariateNormal, Wishart and KL.

mindtorch's `torch.linalg` runs on the host with numpy (its gradients are recorded host ops), and MindSpore 2.10
has no CPU kernel for the Cholesky gradient; so the Cholesky factorisation and triangular solves used by the
distributions are written here with differentiable elementwise ops, one row/column per step (event sizes of
distributions are small, so the O(n) loop of batched ops is cheap and gives exact gradients of any order).
"""
from __future__ import annotations

from typing import Any

import mindtorch.torch as torch


def cholesky(A: Any) -> Any:
    """Lower Cholesky factor L of symmetric positive-definite `A` (..., n, n), with A = L @ L.mT.

    Raises torch's error when a leading minor is not positive-definite."""
    # torch's Cholesky reads only the lower triangle (an asymmetric A gives the factor of the matrix mirrored from
    # it) and its backward returns a symmetric gradient: the value comes from the mirrored lower triangle, the
    # gradient flows through the symmetric part (the two are equal for symmetric A)
    sym = 0.5 * (A + A.mT)
    A = sym + (A.tril() + A.tril(-1).mT - sym).detach()
    n = A.shape[-1]
    rows = torch.arange(n)
    cols = []
    for j in range(n):
        a = A[..., :, j]
        if cols:
            prev = torch.stack(cols, -1)  # (..., n, j): the columns computed so far
            a = a - (prev * prev[..., j:j + 1, :]).sum(-1)
        pivot = a[..., j:j + 1]
        if not bool((pivot > 0).all()):
            raise RuntimeError("linalg.cholesky: The factorization could not be completed because the input is not "
                               f"positive-definite (the leading minor of order {j + 1} is not positive-definite).")
        cols.append(a / pivot.sqrt() * (rows >= j).to(A.dtype))  # rows above the diagonal are zero
    return torch.stack(cols, -1)


def solve_lower(L: Any, B: Any) -> Any:
    """X with L @ X = B for lower-triangular `L` (..., n, n) and `B` (..., n, m), by forward substitution
    (batch dims broadcast)."""
    n = L.shape[-1]
    xs = []
    for i in range(n):
        b = B[..., i, :]
        if xs:
            b = b - (L[..., i, :i].unsqueeze(-1) * torch.stack(xs, -2)).sum(-2)
        xs.append(b / L[..., i, i:i + 1])
    return torch.stack(xs, -2)


def batch_mv(bmat: Any, bvec: Any) -> Any:
    """Batched matrix-vector product with broadcast batch dims: (..., n, m) x (..., m) -> (..., n)."""
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def batch_mahalanobis(bL: Any, bx: Any) -> Any:
    """Squared Mahalanobis distance x^T (L L^T)^-1 x for lower-triangular `bL` (..., n, n) and `bx` (..., n)."""
    return solve_lower(bL, bx.unsqueeze(-1)).squeeze(-1).pow(2).sum(-1)


def eye_like(L: Any) -> Any:
    n = L.shape[-1]
    return torch.eye(n, dtype=L.dtype).expand(tuple(L.shape[:-2]) + (n, n))


def cholesky_inverse(L: Any) -> Any:
    """(L @ L.mT)^-1 from its lower Cholesky factor."""
    L_inv = solve_lower(L, eye_like(L))
    return L_inv.mT @ L_inv


def precision_to_scale_tril(P: Any) -> Any:
    """Lower Cholesky factor of P^-1 without inverting P (torch's flip trick: the reversed Cholesky factor of
    the flipped P is the inverse transpose of the wanted factor)."""
    Lf = cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    return solve_lower(L_inv, eye_like(L_inv))


def scale_tril_of(scale_tril: Any, covariance_matrix: Any, precision_matrix: Any) -> Any:
    """The lower Cholesky factor of the covariance given by whichever of the three parametrisations is not None
    (MultivariateNormal's and Wishart's `_unbroadcasted_scale_tril`)."""
    if scale_tril is not None:
        return scale_tril
    if covariance_matrix is not None:
        return cholesky(covariance_matrix)
    return precision_to_scale_tril(precision_matrix)
