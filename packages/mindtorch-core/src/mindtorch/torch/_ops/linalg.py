"""Linear algebra: torch.linalg.* (table keys `linalg_<name>`, torch's own native names; exposed as
`torch.linalg.<name>` by torch/linalg.py) and the top-level aliases (torch.inverse, det, logdet, slogdet, svd,
qr, cholesky, pinverse, matrix_power, norm, dist).

Norms and matrix_power are built from MindSpore ops (differentiable). Decompositions and solvers (inv, det,
slogdet, svd, qr, eigh, solve, cholesky, pinv, lstsq, matrix_rank) are computed on the host with numpy
(LAPACK), batched over leading dims: correct on CPU, but autograd does NOT flow through them.
"""
from __future__ import annotations

from typing import Any, Optional

import mindspore as ms
import numpy as np
from mindspore import mint

from .. import _dtype as D
from .. import return_types as RT
from ._args import wrap_dim
from ._registry import register

_MsTensor = ms.Tensor

linalg_svd_t = RT._make("linalg_svd", ("U", "S", "Vh"))
linalg_qr_t = RT._make("linalg_qr", ("Q", "R"))
linalg_eigh_t = RT._make("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_slogdet_t = RT._make("linalg_slogdet", ("sign", "logabsdet"))
linalg_lstsq_t = RT._make("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


def _shape(x: Any) -> tuple:
    return tuple(_MsTensor.shape.fget(x))


def _float_np(t: Any, op: str) -> np.ndarray:
    if t.dtype not in (D.float32, D.float64, D.complex64, D.complex128):
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got "
                           f"{D.scalar_name(t.dtype)}")
    return t.asnumpy()


def _square(t: Any, op: str) -> None:
    s = _shape(t)
    if len(s) < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if s[-1] != s[-2]:
        raise RuntimeError(f"{op}: A must be batches of square matrices, but they are {s[-2]} by {s[-1]} matrices")


def _out(arr: Any, like: Any) -> Any:
    from .creation import np_to_ms

    arr = np.asarray(arr)
    if np.iscomplexobj(arr):
        d = D.complex128 if like.dtype in (D.float64, D.complex128) else D.complex64
    elif arr.dtype.kind in "iu":
        d = D.int64
    elif arr.dtype == np.bool_:
        d = D.bool
    else:
        d = like.dtype if like.dtype in (D.float32, D.float64) else (
            D.float64 if like.dtype == D.complex128 else D.float32)
    return np_to_ms(arr, d)


def _linalg_err(op: str, e: Exception) -> RuntimeError:
    return RuntimeError(f"{op}: {e}")


# ------------------------------------------------------------------------------------------------ norms
def _vector_norm(x: Any, ord: Any, dim: Any, keepdim: bool, dtype: Any) -> Any:
    if dtype is not None:
        x = x.astype(D.to_dtype(dtype))
    if x.dtype not in D.all_float_type and x.dtype not in D.all_complex_type:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{D.scalar_name(x.dtype)}")
    a = mint.abs(x)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is None:
        dims = tuple(range(len(_shape(x))))
    else:
        dims = tuple(wrap_dim(d, len(_shape(x))) for d in dim)
    if not dims:
        a = mint.reshape(a, (-1,))
        dims = (0,) if not keepdim else dims
    ord = float(ord)
    if ord == float("inf"):
        return mint.amax(a, dims, keepdim)
    if ord == float("-inf"):
        return mint.amin(a, dims, keepdim)
    if ord == 0:
        return mint.sum(mint.ne(a, 0).astype(a.dtype), dims, keepdim)
    if ord == 1:
        return mint.sum(a, dims, keepdim)
    if ord == 2:
        return mint.sqrt(mint.sum(mint.mul(a, a), dims, keepdim))
    return mint.pow(mint.sum(mint.pow(a, ord), dims, keepdim), 1.0 / ord)


@register("linalg_vector_norm", method=False, function=False, namespaces=("linalg",))
def linalg_vector_norm(x: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None,
                       out: Any = None) -> Any:
    """Vector p-norm over `dim` (all elements when None); differentiable."""
    return _vector_norm(x, ord, dim, keepdim, dtype)


@register("linalg_matrix_norm", method=False, function=False, namespaces=("linalg",))
def linalg_matrix_norm(A: Any, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *,
                       dtype: Any = None, out: Any = None) -> Any:
    """'fro' (differentiable), 'nuc', 1, -1, 2, -2, inf, -inf over the two dims `dim`."""
    n = len(_shape(A))
    if n < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    d0, d1 = (wrap_dim(d, n) for d in dim)
    if ord == "fro":
        return _vector_norm(A, 2, (d0, d1), keepdim, dtype)
    a = mint.abs(A if dtype is None else A.astype(D.to_dtype(dtype)))
    if ord in (1, -1):
        s = mint.sum(a, d0, True)
        r = mint.amax(s, (d1,), True) if ord == 1 else mint.amin(s, (d1,), True)
    elif ord in (float("inf"), float("-inf")):
        s = mint.sum(a, d1, True)
        r = mint.amax(s, (d0,), True) if ord > 0 else mint.amin(s, (d0,), True)
    elif ord in ("nuc", 2, -2):
        m = np.moveaxis(_float_np(A, "linalg.matrix_norm"), (d0, d1), (-2, -1))
        sv = np.linalg.svd(m, compute_uv=False)
        v = sv.sum(-1) if ord == "nuc" else (sv.max(-1) if ord == 2 else sv.min(-1))
        r = _out(np.expand_dims(np.expand_dims(v, -1), -1), A)
        r = mint.permute(r, tuple(np.argsort([i for i in range(n) if i not in (d0, d1)] + [d0, d1])))
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if not keepdim:
        r = mint.squeeze(mint.squeeze(r, max(d0, d1)), min(d0, d1))
    return r


@register("linalg_norm", method=False, function=False, namespaces=("linalg",))
def linalg_norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None,
                out: Any = None) -> Any:
    """Vector norm (1-D / dim int) or matrix norm (2-D / dim pair); 2-norm of the flattened input by default."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        return _vector_norm(A, 2, dim, keepdim, dtype)
    if dim is not None and len(dim) == 2 or dim is None and len(_shape(A)) == 2:
        return linalg_matrix_norm(A, ord, dim or (-2, -1), keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dim}")
    return _vector_norm(A, ord, dim, keepdim, dtype)


@register("norm")
def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None,
         out: Any = None) -> Any:
    """torch.norm (1.12): p='fro'/number -> vector norm over dim (all elements when None), 'nuc' -> nuclear."""
    if p == "nuc":
        return linalg_matrix_norm(input, "nuc", dim or (-2, -1), keepdim, dtype=dtype)
    if p == "fro":
        p = 2
    if isinstance(dim, int):
        dim = (dim,)
    return _vector_norm(input, p, dim, keepdim, dtype)


@register("dist")
def dist(input: Any, other: Any, p: float = 2) -> Any:
    return _vector_norm(mint.sub(input, other), p, None, False, None)


@register("linalg_cross", method=False, function=False, namespaces=("linalg",))
def linalg_cross(input: Any, other: Any, *, dim: int = -1, out: Any = None) -> Any:
    from .misc import cross

    return cross(input, other, dim)


@register("matrix_power", namespaces=())
def matrix_power(input: Any, n: int) -> Any:
    """A^n by repeated squaring with matmul (differentiable for n >= 0; n < 0 inverts on the host first)."""
    _square(input, "linalg.matrix_power")
    if n < 0:
        input, n = linalg_inv(input), -n
    if n == 0:
        eye = np.broadcast_to(np.eye(_shape(input)[-1]), _shape(input))
        return _out(eye.astype(D.to_numpy_dtype(input.dtype)), input)
    result, base = None, input
    while n:
        if n & 1:
            result = base if result is None else mint.matmul(result, base)
        n >>= 1
        if n:
            base = mint.matmul(base, base)
    return result


@register("linalg_matrix_power", method=False, function=False, namespaces=("linalg",))
def linalg_matrix_power(A: Any, n: int, *, out: Any = None) -> Any:
    return matrix_power(A, n)


# ------------------------------------------------------------------------------- host (numpy) routines
@register("linalg_inv", method=False, function=False, namespaces=("linalg",))
def linalg_inv(A: Any, *, out: Any = None) -> Any:
    """Inverse of (batches of) square matrices (numpy: no autograd)."""
    _square(A, "linalg.inv")
    try:
        return _out(np.linalg.inv(_float_np(A, "linalg.inv")), A)
    except np.linalg.LinAlgError as e:
        raise RuntimeError("linalg.inv: The diagonal element 1 is zero, the inversion could not be completed "
                           "because the input matrix is singular.") from e


@register("inverse")
def inverse(input: Any, *, out: Any = None) -> Any:
    return linalg_inv(input)


@register("linalg_det", method=False, function=False, namespaces=("linalg",))
def linalg_det(A: Any, *, out: Any = None) -> Any:
    """Determinant (numpy: no autograd)."""
    _square(A, "linalg.det")
    return _out(np.linalg.det(_float_np(A, "linalg.det")), A)


@register("det")
def det(input: Any) -> Any:
    return linalg_det(input)


@register("logdet")
def logdet(input: Any) -> Any:
    """log(det) (nan for negative determinants, as torch)."""
    _square(input, "logdet")
    s, l = np.linalg.slogdet(_float_np(input, "logdet"))
    return _out(np.where(s < 0, np.nan, l), input)


@register("linalg_slogdet", method=False, function=False, namespaces=("linalg",))
def linalg_slogdet(A: Any, *, out: Any = None) -> Any:
    _square(A, "linalg.slogdet")
    s, l = np.linalg.slogdet(_float_np(A, "linalg.slogdet"))
    return linalg_slogdet_t(_out(s, A), _out(l, A))


@register("slogdet")
def slogdet(input: Any) -> Any:
    s, l = linalg_slogdet(input)
    return RT.slogdet(s, l)


@register("linalg_svd", method=False, function=False, namespaces=("linalg",))
def linalg_svd(A: Any, full_matrices: bool = True, *, driver: Any = None, out: Any = None) -> Any:
    """A = U diag(S) Vh (numpy: no autograd)."""
    u, s, vh = np.linalg.svd(_float_np(A, "linalg.svd"), full_matrices=full_matrices)
    return linalg_svd_t(_out(u, A), _out(s, A), _out(vh, A))


@register("linalg_svdvals", method=False, function=False, namespaces=("linalg",))
def linalg_svdvals(A: Any, *, driver: Any = None, out: Any = None) -> Any:
    return _out(np.linalg.svd(_float_np(A, "linalg.svdvals"), compute_uv=False), A)


@register("svd")
def svd(input: Any, some: bool = True, compute_uv: bool = True, *, out: Any = None) -> Any:
    """torch.svd: (U, S, V) with V (not Vh); reduced unless some=False."""
    u, s, vh = np.linalg.svd(_float_np(input, "svd"), full_matrices=not some)
    v = np.conj(np.swapaxes(vh, -1, -2))
    if not compute_uv:
        u, v = np.zeros_like(u), np.zeros_like(v)
    return RT.svd(_out(u, input), _out(s, input), _out(v, input))


@register("linalg_qr", method=False, function=False, namespaces=("linalg",))
def linalg_qr(A: Any, mode: str = "reduced", *, out: Any = None) -> Any:
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
                           "'r', or 'complete'")
    a = _float_np(A, "linalg.qr")
    if mode == "r":
        r = np.linalg.qr(a, mode="r")
        return linalg_qr_t(_out(np.zeros((0,), a.dtype), A), _out(r, A))
    q, r = np.linalg.qr(a, mode=mode)
    return linalg_qr_t(_out(q, A), _out(r, A))


@register("qr")
def qr(input: Any, some: bool = True, *, out: Any = None) -> Any:
    q, r = linalg_qr(input, "reduced" if some else "complete")
    return RT.qr(q, r)


@register("linalg_eigh", method=False, function=False, namespaces=("linalg",))
def linalg_eigh(A: Any, UPLO: str = "L", *, out: Any = None) -> Any:
    _square(A, "linalg.eigh")
    w, v = np.linalg.eigh(_float_np(A, "linalg.eigh"), UPLO=UPLO)
    return linalg_eigh_t(_out(w, A), _out(v, A))


@register("linalg_eigvalsh", method=False, function=False, namespaces=("linalg",))
def linalg_eigvalsh(A: Any, UPLO: str = "L", *, out: Any = None) -> Any:
    _square(A, "linalg.eigvalsh")
    return _out(np.linalg.eigvalsh(_float_np(A, "linalg.eigvalsh"), UPLO=UPLO), A)


@register("linalg_solve", method=False, function=False, namespaces=("linalg",))
def linalg_solve(A: Any, B: Any, *, left: bool = True, out: Any = None) -> Any:
    """X with A X = B (B a vector or batch of matrices); numpy: no autograd."""
    _square(A, "linalg.solve")
    a, b = _float_np(A, "linalg.solve"), _float_np(B, "linalg.solve")
    if not left:
        a, b = np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)
    try:
        vec = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
        x = np.linalg.solve(a, b[..., None])[..., 0] if vec else np.linalg.solve(a, b)
    except np.linalg.LinAlgError as e:
        raise RuntimeError("linalg.solve: The solver failed because the input matrix is singular.") from e
    return _out(x if left else np.swapaxes(x, -1, -2), A)


@register("linalg_cholesky", method=False, function=False, namespaces=("linalg",))
def linalg_cholesky(A: Any, *, upper: bool = False, out: Any = None) -> Any:
    _square(A, "linalg.cholesky")
    try:
        L = np.linalg.cholesky(_float_np(A, "linalg.cholesky"))
    except np.linalg.LinAlgError as e:
        raise RuntimeError("linalg.cholesky: The factorization could not be completed because the input is not "
                           "positive-definite.") from e
    return _out(np.conj(np.swapaxes(L, -1, -2)) if upper else L, A)


@register("cholesky")
def cholesky(input: Any, upper: bool = False, *, out: Any = None) -> Any:
    return linalg_cholesky(input, upper=upper)


@register("linalg_pinv", method=False, function=False, namespaces=("linalg",))
def linalg_pinv(A: Any, rcond: Optional[float] = None, hermitian: bool = False, *, atol: Any = None,
                rtol: Any = None, out: Any = None) -> Any:
    r = rtol if rtol is not None else (rcond if rcond is not None else 1e-15)
    return _out(np.linalg.pinv(_float_np(A, "linalg.pinv"), rcond=r, hermitian=hermitian), A)


@register("pinverse")
def pinverse(input: Any, rcond: float = 1e-15) -> Any:
    return linalg_pinv(input, rcond)


@register("linalg_matrix_rank", method=False, function=False, namespaces=("linalg",))
def linalg_matrix_rank(A: Any, tol: Any = None, hermitian: bool = False, *, atol: Any = None, rtol: Any = None,
                       out: Any = None) -> Any:
    a = _float_np(A, "linalg.matrix_rank")
    t = atol if atol is not None else tol
    return _MsTensor(np.asarray(np.linalg.matrix_rank(a, tol=t, hermitian=hermitian), dtype=np.int64))


@register("linalg_lstsq", method=False, function=False, namespaces=("linalg",))
def linalg_lstsq(A: Any, B: Any, rcond: Optional[float] = None, *, driver: Optional[str] = None) -> Any:
    """Least squares solution of A X = B (batched; torch's CPU default driver 'gelsy': residuals empty)."""
    a, b = _float_np(A, "linalg.lstsq"), _float_np(B, "linalg.lstsq")
    vec = b.ndim == a.ndim - 1
    if vec:
        b = b[..., None]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    aa = np.broadcast_to(a, batch + a.shape[-2:]).reshape(-1, *a.shape[-2:])
    bb = np.broadcast_to(b, batch + b.shape[-2:]).reshape(-1, *b.shape[-2:])
    sols, ranks = [], []
    for x, y in zip(aa, bb):
        s, _, rk, _ = np.linalg.lstsq(x, y, rcond=rcond)
        sols.append(s)
        ranks.append(rk)
    sol = np.stack(sols).reshape(batch + sols[0].shape) if sols else np.zeros(batch + (a.shape[-1], b.shape[-1]))
    if vec:
        sol = sol[..., 0]
    empty = np.zeros((0,), dtype=a.dtype)
    return linalg_lstsq_t(_out(sol, A), _out(empty, A), _MsTensor(np.asarray(ranks, np.int64).reshape(batch)),
                          _out(empty, A))
