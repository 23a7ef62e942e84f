"""Products, sorting/selection, linalg and fft against real PyTorch."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

rng = np.random.default_rng(0)
M = rng.standard_normal((3, 4)).astype(np.float32)
S = (lambda a: a @ a.T + 3 * np.eye(3))(rng.standard_normal((3, 3))).astype(np.float32)  # SPD
B = rng.standard_normal((2, 3, 3)).astype(np.float32)
V = rng.standard_normal(4).astype(np.float32)
D = np.array([[3, 1, 2, 1], [0, 5, 5, 2], [1, 1, 0, 9]], dtype=np.float32)  # ties for stable sort


def T(t, a):
    return t.tensor(a)


PRODUCTS = {
    "matmul": lambda t: t.matmul(T(t, M), T(t, M).T), "matmul_1d": lambda t: T(t, M) @ T(t, V),
    "matmul_batched": lambda t: t.matmul(T(t, B), T(t, S)), "matmul_vec_mat": lambda t: t.matmul(T(t, V), T(t, M).T),
    "mm": lambda t: t.mm(T(t, M).T, T(t, M)), "bmm": lambda t: t.bmm(T(t, B), T(t, B)),
    "bmm_f64": lambda t: t.bmm(T(t, B).double(), T(t, B).double()), "mv": lambda t: t.mv(T(t, M), T(t, V)),
    "dot": lambda t: t.dot(T(t, V), T(t, V)), "dot_int": lambda t: t.dot(t.tensor([1, 2]), t.tensor([3, 4])),
    "vdot": lambda t: t.vdot(T(t, V), T(t, V)), "inner": lambda t: t.inner(T(t, M), T(t, M)),
    "inner_1d": lambda t: t.inner(T(t, V), T(t, V)), "outer": lambda t: t.outer(T(t, V), T(t, V[:2])),
    "ger": lambda t: t.ger(T(t, V), T(t, V)), "addmm": lambda t: t.addmm(T(t, S), T(t, M), T(t, M).T, beta=0.5,
                                                                           alpha=2),
    "addmm_beta0": lambda t: t.addmm(T(t, S), T(t, M), T(t, M).T, beta=0),
    "addmv": lambda t: t.addmv(T(t, V[:3]), T(t, M), T(t, V)), "addbmm": lambda t: t.addbmm(T(t, S), T(t, B),
                                                                                             T(t, B)),
    "baddbmm": lambda t: t.baddbmm(T(t, B), T(t, B), T(t, B), alpha=0.5), "addr": lambda t: t.addr(
        T(t, M), T(t, V[:3]), T(t, V)), "chain_matmul": lambda t: t.chain_matmul(T(t, S), T(t, S), T(t, M)),
    "kron": lambda t: t.kron(T(t, S), T(t, M[:2, :2])), "kron_1d": lambda t: t.kron(T(t, V), T(t, V[:2])),
    "trace": lambda t: t.trace(T(t, M)), "trace_int": lambda t: t.trace(t.tensor([[1, 2], [3, 4]])),
    "cross": lambda t: t.cross(T(t, S), T(t, S).T, dim=1), "cross_default": lambda t: t.cross(T(t, S), T(t, S) + 1),
    "tensordot": lambda t: t.tensordot(T(t, B), T(t, S), dims=1), "tensordot2": lambda t: t.tensordot(
        T(t, B), T(t, B), dims=([1, 2], [2, 1])), "tensordot0": lambda t: t.tensordot(T(t, V), T(t, V), 0),
    "einsum_mm": lambda t: t.einsum("ij,jk->ik", T(t, M), T(t, M).T), "einsum_batch": lambda t: t.einsum(
        "bij,bjk->bik", T(t, B), T(t, B)), "einsum_trace": lambda t: t.einsum("ii", T(t, S)),
    "einsum_diag": lambda t: t.einsum("ii->i", T(t, S)), "einsum_outer": lambda t: t.einsum("i,j->ij", T(t, V),
                                                                                          T(t, V)),
    "einsum_ellipsis": lambda t: t.einsum("...ij,...jk", T(t, B), T(t, B)), "einsum_implicit": lambda t: t.einsum(
        "ij,kj", T(t, M), T(t, M)), "einsum_sum": lambda t: t.einsum("ij->", T(t, M)), "einsum_list": lambda t:
    t.einsum("bij->bji", [T(t, B)]), "einsum_attention": lambda t: t.einsum("bhqd,bhkd->bhqk", T(t, B)[None],
                                                                            T(t, B)[None]),
    "cdist": lambda t: t.cdist(T(t, M), T(t, M[:2])), "cdist_p1": lambda t: t.cdist(T(t, M), T(t, M), p=1),
    "cov": lambda t: t.cov(T(t, M)), "cov_1d": lambda t: t.cov(T(t, V)), "cov_corr0": lambda t: t.cov(
        T(t, M), correction=0), "corrcoef": lambda t: t.corrcoef(T(t, M)), "diff": lambda t: t.diff(T(t, M)),
    "diff_n2": lambda t: t.diff(T(t, M), n=2, dim=0), "diff_prepend": lambda t: t.diff(
        T(t, V), prepend=T(t, V[:1]), append=T(t, V[:2])), "diff_bool": lambda t: t.diff(T(t, V) > 0),
}

SELECT = {
    "sort": lambda t: t.sort(T(t, D)), "sort_desc": lambda t: t.sort(T(t, D), dim=0, descending=True),
    "sort_stable": lambda t: t.sort(T(t, D), stable=True), "sort_method": lambda t: T(t, D).sort(-1, True),
    "argsort": lambda t: t.argsort(T(t, D), stable=True) if hasattr(t, "argsort") else None,
    "argsort_desc": lambda t: T(t, D).argsort(0, descending=True), "msort": lambda t: t.msort(T(t, D)),
    "sort_int": lambda t: t.sort(t.tensor([3, 1, 2, 1])), "topk": lambda t: t.topk(T(t, M), 2),
    "topk_small": lambda t: T(t, M).topk(1, dim=0, largest=False), "topk_values": lambda t: t.topk(T(t, V), 3)[0],
    "kthvalue": lambda t: t.kthvalue(T(t, M), 2), "kthvalue_keep": lambda t: T(t, M).kthvalue(1, 0, True),
    "unique": lambda t: t.unique(T(t, D)), "unique_all": lambda t: t.unique(T(t, D), return_inverse=True,
                                                                            return_counts=True),
    "unique_dim": lambda t: t.unique(t.tensor([[1, 2], [1, 2], [0, 1]]), dim=0, return_inverse=True),
    "unique_consecutive": lambda t: t.unique_consecutive(t.tensor([1, 1, 2, 2, 3, 1, 1]), return_inverse=True,
                                                         return_counts=True),
    "unique_consecutive_dim": lambda t: t.unique_consecutive(t.tensor([[1, 1], [1, 1], [2, 3]]), dim=0),
    "bincount": lambda t: t.bincount(t.tensor([0, 3, 3, 1])), "bincount_w": lambda t: t.bincount(
        t.tensor([0, 2, 2]), weights=t.tensor([0.5, 1.0, 2.0]), minlength=5),
    "histc": lambda t: t.histc(T(t, M), bins=5), "histc_range": lambda t: t.histc(T(t, D), 4, 0, 8),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_products(reftorch, name):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(PRODUCTS[name](torch), PRODUCTS[name](reftorch), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(SELECT))
def test_selection(reftorch, name):
    m, r = SELECT[name](torch), SELECT[name](reftorch)
    assert_same(m, r)
    if isinstance(r, tuple) and hasattr(r, "indices"):  # named tuples: same names
        assert type(m).__name__ == type(r).__name__
        assert_same((m.values, m.indices), (r.values, r.indices))


LINALG = {
    "norm": lambda t: t.linalg.norm(T(t, M)), "norm_ord1": lambda t: t.linalg.norm(T(t, V), 1),
    "norm_fro_dim": lambda t: t.linalg.norm(T(t, B), "fro", dim=(1, 2)), "norm_nuc": lambda t: t.linalg.norm(
        T(t, M), "nuc"), "norm_inf_mat": lambda t: t.linalg.norm(T(t, M), float("inf")),
    "vector_norm": lambda t: t.linalg.vector_norm(T(t, B), 3, dim=-1, keepdim=True),
    "vector_norm_inf": lambda t: t.linalg.vector_norm(T(t, M), float("inf")), "vector_norm_0": lambda t:
    t.linalg.vector_norm(T(t, D), 0), "matrix_norm": lambda t: t.linalg.matrix_norm(T(t, B)),
    "matrix_norm_1": lambda t: t.linalg.matrix_norm(T(t, B), 1), "matrix_norm_2": lambda t: t.linalg.matrix_norm(
        T(t, B), 2), "matrix_norm_m2_keep": lambda t: t.linalg.matrix_norm(T(t, B), -2, keepdim=True),
    "torch_norm": lambda t: t.norm(T(t, M)), "torch_norm_dim": lambda t: T(t, M).norm(dim=1),
    "torch_norm_p1": lambda t: t.norm(T(t, M), p=1, dim=0, keepdim=True), "dist": lambda t: t.dist(T(t, V),
                                                                                                   T(t, V) + 1),
    "inv": lambda t: t.linalg.inv(T(t, S)), "inverse": lambda t: t.inverse(T(t, B)), "det": lambda t: t.linalg.det(
        T(t, B)), "torch_det": lambda t: T(t, S).det(), "logdet": lambda t: t.logdet(T(t, S)),
    "slogdet": lambda t: t.linalg.slogdet(T(t, B)), "torch_slogdet": lambda t: t.slogdet(T(t, S)),
    "svdvals": lambda t: t.linalg.svdvals(T(t, M)), "eigvalsh": lambda t: t.linalg.eigvalsh(T(t, S)),
    "solve": lambda t: t.linalg.solve(T(t, S), T(t, M[:, :2])), "solve_vec": lambda t: t.linalg.solve(
        T(t, S), T(t, V[:3])), "cholesky": lambda t: t.linalg.cholesky(T(t, S)), "torch_cholesky_upper":
    lambda t: t.cholesky(T(t, S), upper=True), "pinv": lambda t: t.linalg.pinv(T(t, M)), "pinverse": lambda t:
    t.pinverse(T(t, M)), "matrix_rank": lambda t: t.linalg.matrix_rank(T(t, M)), "matrix_power": lambda t:
    t.linalg.matrix_power(T(t, S), 3), "matrix_power0": lambda t: t.matrix_power(T(t, B), 0),
    "matrix_power_neg": lambda t: t.linalg.matrix_power(T(t, S), -2), "linalg_cross": lambda t: t.linalg.cross(
        T(t, S), T(t, S).T), "lstsq": lambda t: t.linalg.lstsq(T(t, M).T, T(t, V)[:, None]).solution,
    "f64_inv": lambda t: t.linalg.inv(T(t, S).double()),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg(reftorch, name):
    assert_same(LINALG[name](torch), LINALG[name](reftorch), rtol=2e-4, atol=2e-4)


def test_decompositions_reconstruct(reftorch):
    a = torch.tensor(M)
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ vh.numpy(), M, atol=1e-5)
    assert type(torch.linalg.svd(a)).__name__ == type(reftorch.linalg.svd(reftorch.tensor(M))).__name__
    U, S_, Vv = torch.svd(a)
    np.testing.assert_allclose((U.numpy() * S_.numpy()) @ Vv.numpy().T, M, atol=1e-5)
    q, r = torch.linalg.qr(a)
    rq, rr = reftorch.linalg.qr(reftorch.tensor(M))
    assert tuple(q.shape) == tuple(rq.shape) and tuple(r.shape) == tuple(rr.shape)
    np.testing.assert_allclose(q.numpy() @ r.numpy(), M, atol=1e-5)
    w, v = torch.linalg.eigh(torch.tensor(S))
    np.testing.assert_allclose(v.numpy() @ np.diag(w.numpy()) @ v.numpy().T, S, atol=1e-4)
    ref = reftorch.linalg.eigh(reftorch.tensor(S))
    mine = torch.linalg.eigh(torch.tensor(S))
    assert_same((mine.eigenvalues, mine.eigenvectors.abs()), (ref.eigenvalues, ref.eigenvectors.abs()), atol=1e-4)


def test_norms_are_differentiable():
    x = torch.tensor(M, requires_grad=True)
    y = torch.linalg.vector_norm(x)
    assert y.requires_grad


def test_singular_errors_are_runtime_errors():
    # torch 1.12 raises RuntimeError here (torch.linalg.LinAlgError, a RuntimeError subclass, came in 1.13).
    with pytest.raises(RuntimeError, match="singular"):
        torch.linalg.inv(torch.zeros(2, 2))
    with pytest.raises(RuntimeError, match="positive-definite"):
        torch.linalg.cholesky(-torch.eye(2))


LINALG_ERRS = {
    "inv_nonsquare": lambda t: t.linalg.inv(T(t, M)), "mm_shape": lambda t: t.mm(T(t, M), T(t, M)),
    "mm_dtype": lambda t: t.mm(T(t, S), T(t, S).double()), "dot_2d": lambda t: t.dot(T(t, M), T(t, M)),
    "bmm_2d": lambda t: t.bmm(T(t, M), T(t, M)), "matmul_0d": lambda t: t.matmul(t.tensor(1.0), t.tensor(2.0)),
    "det_int": lambda t: t.linalg.det(t.ones(2, 2, dtype=t.int64)), "topk_k": lambda t: t.topk(T(t, V), 9),
    "kthvalue_k": lambda t: t.kthvalue(T(t, V), 0), "bincount_neg": lambda t: t.bincount(t.tensor([-1])),
    "cross_no3": lambda t: t.cross(T(t, M), T(t, M), dim=1), "einsum_ops": lambda t: t.einsum("ij,jk", T(t, M)),
}


@pytest.mark.parametrize("name", sorted(LINALG_ERRS))
def test_errors(reftorch, name):
    with pytest.raises(Exception) as e:
        LINALG_ERRS[name](reftorch)
    with pytest.raises(e.type):
        LINALG_ERRS[name](torch)


X = rng.standard_normal((4, 6)).astype(np.float32)
FFT = {
    "fft": lambda t: t.fft.fft(T(t, X)), "fft_n": lambda t: t.fft.fft(T(t, X), n=8, dim=0, norm="ortho"),
    "ifft": lambda t: t.fft.ifft(T(t, X)), "rfft": lambda t: t.fft.rfft(T(t, X)), "irfft": lambda t: t.fft.irfft(
        t.fft.rfft(T(t, X))), "fft2": lambda t: t.fft.fft2(T(t, X)), "ifft2": lambda t: t.fft.ifft2(T(t, X)),
    "fftn": lambda t: t.fft.fftn(T(t, X), norm="forward"), "ifftn": lambda t: t.fft.ifftn(T(t, X)),
    "rfft2": lambda t: t.fft.rfft2(T(t, X)), "irfftn": lambda t: t.fft.irfftn(t.fft.rfftn(T(t, X))),
    "fft_f64": lambda t: t.fft.fft(T(t, X).double()), "fft_int": lambda t: t.fft.fft(t.tensor([1, 2, 3])),
    "hfft": lambda t: t.fft.hfft(t.fft.rfft(T(t, X))), "ihfft": lambda t: t.fft.ihfft(T(t, X)),
    "fftfreq": lambda t: t.fft.fftfreq(5), "rfftfreq": lambda t: t.fft.rfftfreq(6, d=0.5),
    "fftshift": lambda t: t.fft.fftshift(T(t, X)), "ifftshift": lambda t: t.fft.ifftshift(T(t, X), dim=1),
}


@pytest.mark.parametrize("name", sorted(FFT))
def test_fft(reftorch, name):
    ref = FFT[name](reftorch)
    assert_same(FFT[name](torch), ref.resolve_conj(), rtol=1e-4, atol=1e-4)
