"""Gradients of the host-computed (numpy/LAPACK) decompositions against real PyTorch: linalg.svd / torch.svd
(singular vectors too), linalg.qr, linalg.eigh / torch.symeig, linalg.pinv / pinverse, linalg.lstsq (solution),
linalg.eig / eigvals, linalg.householder_product. These used to raise NotImplementedError on backward.

Losses on singular vectors / eigenvectors are gauge invariant (the reconstruction U diag(S) Vh, squares of the
entries), as their gradient is only defined for such losses; the matrices are random and well conditioned with
distinct singular values/eigenvalues. Each op is also checked by mindtorch's own gradcheck (float64), and the
backward is recorded, so create_graph=True gives torch's second derivatives."""
import warnings

import numpy as np
import pytest
from _compare import assert_same, assert_same_error

import mindtorch.torch as torch

RNG = np.random.default_rng(0)
SHAPES = {"square": (3, 3), "tall": (5, 3), "wide": (3, 5), "batched": (2, 4, 3)}
TOL = dict(rtol=1e-7, atol=1e-9)  # float64


def _weighted_loss(lib, outs, seed=1):
    """A fixed random weighting of every output (real views of complex ones)."""
    rs = np.random.default_rng(seed)
    loss = 0
    for o in outs:
        if o.is_complex():
            o = lib.stack((o.real, o.imag), -1)
        loss = loss + (o * lib.tensor(rs.standard_normal(tuple(o.shape)), dtype=o.dtype)).sum()
    return loss


def _run(lib, fn, arrays, dtype="float64", second=False):
    """fn(lib, *leaves) -> outputs; (outputs, the leaves' gradients of the weighted loss[, the gradients of the
    squared norm of those gradients, differentiated with create_graph=True])."""
    xs = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True) for a in arrays]
    outs = fn(lib, *xs)
    outs = tuple(outs) if isinstance(outs, (tuple, list)) else (outs,)
    grads = lib.autograd.grad(_weighted_loss(lib, outs), xs, create_graph=second)
    res = [o.detach() for o in outs] + [g.detach() for g in grads]
    if second:
        res += list(lib.autograd.grad(sum((g * g).sum() for g in grads), xs))
    return res


def _compare(reftorch, fn, arrays, dtype="float64", second=False, **tol):
    mine, ref = _run(torch, fn, arrays, dtype, second), _run(reftorch, fn, arrays, dtype, second)
    assert_same(mine, ref, **(tol or TOL))


def _arrays(*shapes):
    return [RNG.standard_normal(s) for s in shapes]


# ----------------------------------------------------------------------------------------------------- svd
def _svd_invariants(lib, x, full_matrices=False):
    U, S, Vh = lib.linalg.svd(x, full_matrices=full_matrices)
    U, Vh = U[..., :S.shape[-1]], Vh[..., :S.shape[-1], :]  # (the rest of a full U/Vh: any basis)
    return U @ (S.unsqueeze(-1) * Vh), S, U * U, Vh * Vh


def _torch_svd_invariants(lib, x, some=True):
    U, S, V = lib.svd(x, some=some)
    U, V = U[..., :S.shape[-1]], V[..., :S.shape[-1]]
    return U * U, S, V * V, (U * S.unsqueeze(-2)) @ V.mT


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("full_matrices", [False, True], ids=["reduced", "full"])
def test_linalg_svd_grads(reftorch, shape, full_matrices):
    # full_matrices=True: the extra columns of U / rows of Vh get no gradient (torch narrows them away)
    _compare(reftorch, lambda t, x: _svd_invariants(t, x, full_matrices), _arrays(shape))


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("some", [True, False])
def test_torch_svd_grads(reftorch, shape, some):
    _compare(reftorch, lambda t, x: _torch_svd_invariants(t, x, some), _arrays(shape))


def test_svd_float32_grads(reftorch):
    _compare(reftorch, _svd_invariants, _arrays((2, 4, 3)), "float32", rtol=1e-4, atol=1e-5)


def test_svd_separate_outputs(reftorch):
    # only U, only Vh, only S: the unused outputs' terms are left out (as torch's undefined gradients)
    for pick in (lambda U, S, Vh: U * U, lambda U, S, Vh: Vh * Vh, lambda U, S, Vh: S):
        _compare(reftorch, lambda t, x: pick(*t.linalg.svd(x, full_matrices=False)), _arrays((4, 3)))


def test_repeated_singular_values_and_eigenvalues_only_values_used(reftorch):
    # the vectors' terms divide by value gaps (0 here): unused, they must not turn the gradient into nan
    eye = [np.eye(3)]
    _compare(reftorch, lambda t, x: t.linalg.svd(x)[1], eye)
    _compare(reftorch, lambda t, x: t.svd(x)[1], eye)
    _compare(reftorch, lambda t, x: t.linalg.eigh(x)[0], eye)


def test_svd_forward_unchanged():
    # values straight from LAPACK (numpy): the packed node must not change them (nor S of a full SVD)
    a = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    x = torch.tensor(a, requires_grad=True)
    for full in (True, False):
        U, S, Vh = torch.linalg.svd(x, full_matrices=full)
        u, s, vh = np.linalg.svd(a, full_matrices=full)
        for mine, ref in ((U, u), (S, s), (Vh, vh)):
            assert mine.dtype == torch.float32 and mine.is_contiguous()
            np.testing.assert_array_equal(mine.detach().numpy(), ref)
        U, S, V = torch.svd(x, some=not full)
        np.testing.assert_array_equal(V.detach().numpy(), np.swapaxes(vh, -1, -2))


def test_svd_compute_uv_false(reftorch):
    # U (m, m) and V (n, n) zeros without a gradient whatever `some`; S differentiable
    a = RNG.standard_normal((2, 4, 3))
    for some in (True, False):
        res = []
        for lib in (torch, reftorch):
            x = lib.tensor(a, requires_grad=True)
            U, S, V = lib.svd(x, some=some, compute_uv=False)
            assert not U.requires_grad and not V.requires_grad and S.requires_grad
            (S * lib.arange(1.0, 4.0, dtype=lib.float64)).sum().backward()
            res.append((U, S.detach(), V, x.grad))
        assert_same(*res, **TOL)


def test_complex_singular_vectors_still_refuse():
    x = torch.tensor(RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3)), requires_grad=True)
    with pytest.raises(NotImplementedError, match="complex"):
        (torch.linalg.svd(x)[0].abs() ** 2).sum().backward()


# ------------------------------------------------------------------------------------------------------ qr
QR_CASES = {"square": ((3, 3), "reduced"), "tall": ((5, 3), "reduced"), "wide": ((3, 5), "reduced"),
            "batched_tall": ((2, 4, 3), "reduced"), "batched_wide": ((2, 2, 4), "reduced"),
            "complete_square": ((3, 3), "complete"), "complete_wide": ((2, 3, 5), "complete")}


@pytest.mark.parametrize("shape,mode", QR_CASES.values(), ids=QR_CASES.keys())
def test_qr_grads(reftorch, shape, mode):
    # LAPACK's Householder QR: the same signs as torch, so Q and R themselves are compared
    _compare(reftorch, lambda t, x: tuple(t.linalg.qr(x, mode)), _arrays(shape))


def test_qr_separate_outputs_and_torch_qr(reftorch):
    _compare(reftorch, lambda t, x: t.linalg.qr(x)[0], _arrays((4, 3)))
    _compare(reftorch, lambda t, x: t.linalg.qr(x)[1], _arrays((3, 4)))
    _compare(reftorch, lambda t, x: tuple(t.qr(x, some=True)), _arrays((2, 4, 3)))


def test_qr_backward_refusals(reftorch):
    # torch refuses on backward: mode='r' (no Q), mode='complete' of a tall matrix
    a = RNG.standard_normal((4, 3))
    for mode in ("r", "complete"):
        def call(t, mode=mode):
            t.linalg.qr(t.tensor(a, requires_grad=True), mode)[1].sum().backward()
        assert_same_error(RuntimeError, call, reftorch)


# ---------------------------------------------------------------------------------------------------- eigh
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)], ids=["single", "batched"])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_grads(reftorch, shape, uplo):
    def fn(t, x):
        w, v = t.linalg.eigh(x + x.mT, UPLO=uplo)
        return w, v * v, v[..., :1, :] * v  # sign-invariant products (within each eigenvector)
    _compare(reftorch, fn, _arrays(shape))


def test_eigh_float32_grads(reftorch):
    def fn(t, x):
        w, v = t.linalg.eigh(x + x.mT)
        return w, v * v
    _compare(reftorch, fn, _arrays((2, 3, 3)), "float32", rtol=1e-4, atol=1e-5)


def test_symeig_grads_follow_112(reftorch):
    # torch.symeig (removed in torch 2) reads the upper triangle by default, as linalg.eigh(UPLO='U'); 1.12
    # differentiates it only with eigenvectors=True: the eigenvalues alone raise on backward (linalg.eigvalsh is
    # the differentiable way)
    def invariants(w, v):
        return w, v * v, v[..., :1, :] * v

    a = RNG.standard_normal((2, 3, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = _run(torch, lambda t, x: invariants(*t.symeig(x, eigenvectors=True)), [a])
        w = torch.symeig(torch.tensor(a, requires_grad=True))[0]
        assert w.requires_grad
        with pytest.raises(RuntimeError, match=r"torch.symeig\(A, eigenvectors=False\) is not differentiable"):
            w.sum().backward()
    assert_same(mine, _run(reftorch, lambda t, x: invariants(*t.linalg.eigh(x, UPLO="U")), [a]), **TOL)


def test_full_matrices_extra_vectors_get_no_gradient(reftorch):
    # as torch: the columns of U (rows of Vh) beyond min(m, n) are any basis of the complement
    for shape in ((4, 2), (2, 4)):
        grads = []
        for lib in (torch, reftorch):
            x = lib.tensor(RNG.standard_normal(shape) if lib is torch else grads[0][1], requires_grad=True)
            U, S, Vh = lib.linalg.svd(x, full_matrices=True)
            (U[..., 2:].sum() + Vh[..., 2:, :].sum() + (U[..., :2] ** 2 * 2).sum() + S.sum()).backward()
            grads.append((x.grad, x.detach().numpy()))
        assert_same(grads[0][0], grads[1][0], **TOL)


# ---------------------------------------------------------------------------------------------------- pinv
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_pinv_grads(reftorch, shape):
    _compare(reftorch, lambda t, x: t.linalg.pinv(x), _arrays(shape))


def test_pinv_hermitian_and_pinverse_grads(reftorch):
    spd = [RNG.standard_normal((3, 3)) + 3 * np.eye(3)]
    _compare(reftorch, lambda t, x: t.linalg.pinv(x @ x.mT, hermitian=True), spd)
    _compare(reftorch, lambda t, x: t.pinverse(x), _arrays((4, 2)))


def test_pinv_complex_grads(reftorch):
    a = RNG.standard_normal((4, 3)) + 1j * RNG.standard_normal((4, 3))
    _compare(reftorch, lambda t, x: t.linalg.pinv(x), [a], "complex128")


# --------------------------------------------------------------------------------------------------- lstsq
LSTSQ_CASES = {"tall": ((5, 3), (5, 2)), "square": ((3, 3), (3, 2)), "wide": ((2, 4), (2, 3)),
               "broadcast": ((2, 5, 3), (1, 5, 2)), "vector": ((2, 5, 3), (2, 5))}


@pytest.mark.parametrize("sa,sb", LSTSQ_CASES.values(), ids=LSTSQ_CASES.keys())
def test_lstsq_solution_grads(reftorch, sa, sb):
    # gradients in A and B (through pinv, as torch); batch dims broadcast and are summed back
    _compare(reftorch, lambda t, a, b: t.linalg.lstsq(a, b).solution, _arrays(sa, sb))


# ------------------------------------------------------------------------------------------ eig / eigvals
def test_eigvals_grads(reftorch):
    _compare(reftorch, lambda t, x: t.linalg.eigvals(x), _arrays((2, 4, 4)))
    a = _arrays((3, 3))
    _compare(reftorch, lambda t, x: t.linalg.eigvals(x), a, "float32", rtol=1e-4, atol=1e-5)


def test_eig_grads(reftorch):
    def fn(t, x):
        w, v = t.linalg.eig(x)
        return w, v.real ** 2 + v.imag ** 2  # |v|^2: invariant under v -> v e^{i phi}
    _compare(reftorch, fn, _arrays((2, 4, 4)))
    a = RNG.standard_normal((2, 3, 3)) + 1j * RNG.standard_normal((2, 3, 3))
    _compare(reftorch, fn, [a], "complex128")


def test_eigvals_forward_unchanged_when_recorded():
    a = RNG.standard_normal((4, 4))
    w = torch.linalg.eigvals(torch.tensor(a, requires_grad=True))
    np.testing.assert_array_equal(w.detach().numpy(), np.linalg.eigvals(a))


def test_eig_phase_dependent_loss_raises(reftorch):
    a = np.array([[0.0, -1.0, 0.5], [1.0, 0.0, 0.2], [0.3, 0.1, 2.0]])  # a complex pair of eigenvalues

    def call(t):
        t.linalg.eig(t.tensor(a, requires_grad=True))[1].real.sum().backward()
    assert_same_error(RuntimeError, call, reftorch)


# ------------------------------------------------------------------------------------- householder_product
@pytest.mark.parametrize("shape,k", [((4, 3), 3), ((5, 3), 2), ((3, 3), 3), ((2, 4, 2), 2)],
                         ids=["tall", "fewer_reflectors", "square", "batched"])
def test_householder_product_grads(reftorch, shape, k):
    _compare(reftorch, lambda t, a, tau: t.linalg.householder_product(a, tau),
             _arrays(shape, shape[:-2] + (k,)))


def test_householder_product_from_geqrf(reftorch):
    # the reflectors of a QR factorization (geqrf itself is not differentiable, in torch either)
    h, tau = (v.numpy() for v in reftorch.geqrf(reftorch.tensor(RNG.standard_normal((4, 3)))))
    _compare(reftorch, lambda t, a, tau: t.linalg.householder_product(a, tau), [h, tau])


# ----------------------------------------------------------------------------------- second order, gradcheck
SECOND = {
    "svd": (lambda t, x: _svd_invariants(t, x), [(4, 3)]),
    "svd_wide": (lambda t, x: _svd_invariants(t, x), [(2, 4)]),
    "qr_tall": (lambda t, x: tuple(t.linalg.qr(x)), [(4, 3)]),
    "qr_wide": (lambda t, x: tuple(t.linalg.qr(x)), [(2, 4)]),
    "eigh": (lambda t, x: tuple(t.linalg.eigh(x + x.mT)), [(3, 3)]),
    "pinv": (lambda t, x: t.linalg.pinv(x), [(4, 3)]),
    "lstsq": (lambda t, a, b: t.linalg.lstsq(a, b).solution, [(5, 3), (5, 2)]),
    "householder_product": (lambda t, a, tau: t.linalg.householder_product(a, tau), [(4, 3), (2,)]),
}


@pytest.mark.parametrize("name", SECOND)
def test_create_graph_second_derivatives(reftorch, name):
    fn, shapes = SECOND[name]
    _compare(reftorch, fn, _arrays(*shapes), second=True, rtol=1e-6, atol=1e-8)


GRADCHECK = {
    "linalg_svd": (lambda x: _svd_invariants(torch, x), [(3, 2)]),
    "linalg_svd_full": (lambda x: _svd_invariants(torch, x, True), [(2, 3)]),
    "torch_svd": (lambda x: _torch_svd_invariants(torch, x), [(3, 2)]),
    "qr": (lambda x: tuple(torch.linalg.qr(x)), [(3, 2)]),
    "qr_wide": (lambda x: tuple(torch.linalg.qr(x)), [(2, 3)]),
    "eigh": (lambda x: (lambda w, v: (w, v * v))(*torch.linalg.eigh(x + x.mT)), [(3, 3)]),
    "pinv": (lambda x: torch.linalg.pinv(x), [(3, 2)]),
    "pinverse": (lambda x: torch.pinverse(x), [(2, 3)]),
    "lstsq": (lambda a, b: torch.linalg.lstsq(a, b).solution, [(3, 2), (3, 2)]),
    "eigvals": (lambda x: torch.view_as_real(torch.linalg.eigvals(x)), [(3, 3)]),
    "eig": (lambda x: (lambda w, v: (w.real, w.imag, v.real ** 2 + v.imag ** 2))(*torch.linalg.eig(x)),
            [(3, 3)]),
    "householder_product": (lambda a, tau: torch.linalg.householder_product(a, tau), [(3, 2), (2,)]),
}


@pytest.mark.parametrize("name", GRADCHECK)
def test_gradcheck(name):
    fn, shapes = GRADCHECK[name]
    rs = np.random.default_rng(3)
    xs = [torch.tensor(rs.standard_normal(s) + (np.eye(*s) if len(s) == 2 else 0), requires_grad=True)
          for s in shapes]
    assert torch.autograd.gradcheck(fn, xs, eps=1e-6, atol=1e-5, rtol=1e-4)
