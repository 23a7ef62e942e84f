"""torch.linalg / torch.special / torch.fft additions (inv_ex ... lu ... matrix_exp, i0e ... zeta, hfftn ...):
values, dtypes, batching/broadcasting, errors and gradients compared with real PyTorch (the `reftorch` fixture).

Where torch 1.12 and the reference torch (2.13) differ, the test follows 1.12 and says so."""
import warnings

import numpy as np
import pytest
from _compare import assert_same, dtype_name, to_np

import mindtorch.torch as torch

RNG = np.random.default_rng(0)
A = RNG.normal(size=(2, 3, 3)) + 2 * np.eye(3)          # batched, well conditioned
B = RNG.normal(size=(2, 3, 2))
SPD = A @ A.transpose(0, 2, 1) + np.eye(3)
SING = np.array([[1.0, 2.0], [2.0, 4.0]])
BSING = np.stack([np.eye(2), SING])                        # batch element 1 singular (zero pivot U[2,2])


def _same(mine, ref, tol):
    """assert_same, with complex results compared as (real, imag)."""
    if isinstance(ref, (tuple, list)):
        assert len(mine) == len(ref)
        for m, r in zip(mine, ref):
            _same(m, r, tol)
        return
    if "complex" in str(ref.dtype):
        assert dtype_name(mine.dtype) == dtype_name(ref.dtype)
        m, r = to_np(mine), to_np(ref)
        assert m.shape == r.shape
        np.testing.assert_allclose(m.real, r.real, rtol=tol, atol=tol)
        np.testing.assert_allclose(m.imag, r.imag, rtol=tol, atol=tol)
        return
    assert_same(mine, ref, rtol=tol, atol=tol)


def _run_both(reftorch, fn, arrays, dtype):
    outs = []
    for T in (torch, reftorch):
        xs = [T.tensor(a.astype(dtype)) for a in arrays]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch 2.13's deprecation notes for torch.lu / lu_solve / triangular_solve
            outs.append(fn(T, *xs))
    return outs


LINALG_CASES = {
    "inv": (lambda T, a: T.linalg.inv(a), [A]),
    "inverse": (lambda T, a: T.inverse(a), [A]),
    "inv_ex": (lambda T, a: T.linalg.inv_ex(a), [A]),
    "solve_ex": (lambda T, a, b: T.linalg.solve_ex(a, b), [A, B]),
    "solve_broadcast": (lambda T, a, b: T.linalg.solve(a, b), [A[0], B]),
    "solve_vector": (lambda T, a, b: T.linalg.solve(a, b), [A, B[..., 0]]),
    "solve_right": (lambda T, a, b: T.linalg.solve(a, b, left=False), [A, B.transpose(0, 2, 1)]),
    "cholesky_ex": (lambda T, a: T.linalg.cholesky_ex(a), [SPD]),
    "cholesky_upper": (lambda T, a: T.linalg.cholesky(a, upper=True), [SPD]),
    "solve_triangular_upper": (lambda T, a, b: T.linalg.solve_triangular(a, b, upper=True), [A, B]),
    "solve_triangular_unit_bcast": (
        lambda T, a, b: T.linalg.solve_triangular(a, b, upper=False, unitriangular=True), [A[0], B]),
    "solve_triangular_right": (
        lambda T, a, b: T.linalg.solve_triangular(a, b, upper=False, left=False), [A, B.transpose(0, 2, 1)]),
    "triangular_solve": (lambda T, b, a: T.triangular_solve(b, a, upper=False, transpose=True), [B, A]),
    "Tensor.triangular_solve": (lambda T, b, a: b.triangular_solve(a), [B, A]),
    "lu_factor": (lambda T, a: T.linalg.lu_factor(a), [A]),
    "lu_factor_ex": (lambda T, a: T.linalg.lu_factor_ex(a), [A]),
    "lu": (lambda T, a: T.linalg.lu(a), [A]),
    "lu_wide": (lambda T, b: T.linalg.lu(b), [B.transpose(0, 2, 1)]),
    "lu_tall": (lambda T, b: T.linalg.lu(b), [B]),
    "torch.lu": (lambda T, a: T.lu(a, get_infos=True), [A]),
    "Tensor.lu": (lambda T, a: a.lu(), [A]),
    "lu_unpack": (lambda T, a: T.lu_unpack(*T.linalg.lu_factor(a)), [A]),
    "lu_solve": (lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b), [A, B]),
    "lu_solve_adjoint": (lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b, adjoint=True), [A, B]),
    "lu_solve_right": (
        lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b, left=False), [A, B.transpose(0, 2, 1)]),
    "torch.lu_solve": (lambda T, a, b: T.lu_solve(b, *T.lu(a)), [A, B]),
    "Tensor.lu_solve": (lambda T, a, b: b.lu_solve(*T.linalg.lu_factor(a)), [A, B]),
    "cholesky_solve": (lambda T, b, a: T.cholesky_solve(b, T.linalg.cholesky(a)), [B, SPD]),
    "cholesky_solve_upper": (lambda T, b, a: b.cholesky_solve(T.linalg.cholesky(a, upper=True), True), [B, SPD]),
    "cholesky_inverse": (lambda T, a: T.cholesky_inverse(T.linalg.cholesky(a[0])), [SPD]),
    "matrix_exp": (lambda T, a: T.linalg.matrix_exp(a), [A]),
    "matrix_exp_scaled": (lambda T, a: T.matrix_exp(a * 6), [A]),       # norm > theta13: squaring steps
    "Tensor.matrix_exp": (lambda T, a: a.matrix_exp(), [A[0]]),
    "eigvals": (lambda T, a: T.linalg.eigvals(a), [A]),
    "eigvals_complex": (lambda T, a: T.linalg.eigvals(a), [np.array([[0.0, -1.0], [1.0, 0.0]])]),
    "cond": (lambda T, b: T.linalg.cond(b), [B]),
    "cond_-2": (lambda T, b: T.linalg.cond(b, -2), [B]),
    "cond_1": (lambda T, a: T.linalg.cond(a, 1), [A]),
    "cond_fro": (lambda T, a: T.linalg.cond(a, "fro"), [A]),
    "cond_nuc": (lambda T, a: T.linalg.cond(a, "nuc"), [A]),
    "cond_-inf": (lambda T, a: T.linalg.cond(a, float("-inf")), [A]),
    "cond_singular": (lambda T, a: T.linalg.cond(a, float("inf")), [BSING]),
    "tensorinv": (lambda T, a: T.linalg.tensorinv(a, ind=2), [np.eye(24).reshape(4, 6, 8, 3) + 0.1]),
    "tensorsolve": (lambda T, a, b: T.linalg.tensorsolve(a, b), [np.eye(6).reshape(2, 3, 6) * 2 + 0.1,
                                                               np.arange(6.0).reshape(2, 3)]),
    "tensorsolve_dims": (lambda T, a, b: T.linalg.tensorsolve(a, b, dims=(0,)), [
        np.eye(6).reshape(6, 2, 3) * 2 + 0.1, np.arange(6.0).reshape(2, 3)]),
    "multi_dot": (lambda T, v, a, b, m: T.linalg.multi_dot([v, a, b, m]), [B[0, :, 0], A[0], A[1], B[1]]),
    "multi_dot_vectors": (lambda T, v, a, w: T.linalg.multi_dot([v, a, w]), [B[0, :, 0], A[0], B[1, :, 0]]),
    "vecdot": (lambda T, a, b: T.linalg.vecdot(a, b, dim=-2), [A, B[..., :1]]),
    "vander": (lambda T, x: T.linalg.vander(x), [B[..., 0]]),
    "vander_N": (lambda T, x: T.linalg.vander(x, N=5), [B[0, :, 0]]),
    "diagonal": (lambda T, a: T.linalg.diagonal(a, offset=1), [A]),
    "matmul": (lambda T, a, b: T.linalg.matmul(a, b), [A, B]),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(LINALG_CASES))
def test_linalg_values_match_torch(reftorch, name, dtype):
    fn, arrays = LINALG_CASES[name]
    mine, ref = _run_both(reftorch, fn, arrays, dtype)
    _same(mine, ref, 1e-9 if dtype == np.float64 else 3e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_eig_matches_torch(reftorch, dtype):
    """Complex eigenpairs (complex64 from float32, complex128 from float64); eigenvectors are unit-norm and
    unique up to a phase per column, which LAPACK's single and double precision paths may choose differently."""
    tol = 1e-9 if dtype == np.float64 else 3e-4
    (w, v), (rw, rv) = _run_both(reftorch, lambda T, a: T.linalg.eig(a), [A], dtype)
    _same(w, rw, tol)
    assert dtype_name(v.dtype) == dtype_name(rv.dtype) and tuple(v.shape) == tuple(rv.shape)
    v, rv = to_np(v), to_np(rv)
    phase = (np.conj(rv) * v).sum(-2, keepdims=True)          # <rv_j, v_j>: unit modulus when equal up to phase
    np.testing.assert_allclose(np.abs(phase), 1.0, atol=tol)
    np.testing.assert_allclose(v, rv * phase, atol=tol)


def test_linalg_integer_results_match_torch(reftorch):
    """vander of an integer tensor stays integer; info/pivots are int32 as torch."""
    for T in (torch, reftorch):
        v = T.linalg.vander(T.tensor([1, 2, 3]))
        assert dtype_name(v.dtype) == "int64" and v.tolist() == [[1, 1, 1], [1, 2, 4], [1, 3, 9]]
    mine, ref = _run_both(reftorch, lambda T, a: T.linalg.lu_factor_ex(a), [BSING], np.float64)
    _same(mine, ref, 1e-12)  # info == [0, 2], pivots [[1, 2], [2, 2]] (int32), LU with a zero pivot


GRAD_CASES = {
    "inv": (lambda T, a: T.linalg.inv(a), [A]),
    "inv_ex": (lambda T, a: T.linalg.inv_ex(a).inverse, [A]),
    "solve": (lambda T, a, b: T.linalg.solve(a, b), [A, B]),
    "solve_broadcast": (lambda T, a, b: T.linalg.solve(a, b), [A[0], B]),
    "solve_right": (lambda T, a, b: T.linalg.solve_ex(a, b, left=False).result, [A, B.transpose(0, 2, 1)]),
    "cholesky": (lambda T, a: T.linalg.cholesky(a), [SPD]),
    "cholesky_ex_upper": (lambda T, a: T.linalg.cholesky_ex(a, upper=True).L, [SPD]),
    "solve_triangular": (lambda T, a, b: T.linalg.solve_triangular(a, b, upper=True), [A, B]),
    "solve_triangular_unit_right": (lambda T, a, b: T.linalg.solve_triangular(
        a, b, upper=False, unitriangular=True, left=False), [A, B.transpose(0, 2, 1)]),
    "triangular_solve": (lambda T, b, a: T.triangular_solve(b, a, upper=False, transpose=True).solution, [B, A]),
    "lu_factor": (lambda T, a: T.linalg.lu_factor(a).LU, [A]),
    "lu": (lambda T, a: T.linalg.lu(a)[1:], [A]),
    "lu_solve": (lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b), [A, B]),
    "lu_solve_adjoint": (lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b, adjoint=True), [A, B]),
    "cholesky_solve": (lambda T, b, a: T.cholesky_solve(b, T.linalg.cholesky(a)), [B, SPD]),
    "cholesky_inverse": (lambda T, a: T.cholesky_inverse(T.linalg.cholesky(a)), [SPD[0]]),
    "matrix_exp": (lambda T, a: T.linalg.matrix_exp(a), [A]),
    "matrix_exp_scaled": (lambda T, a: T.matrix_exp(a * 4), [A]),
    "tensorinv": (lambda T, a: T.linalg.tensorinv(a, ind=1), [A[0].reshape(3, 3, 1)]),
    "tensorsolve": (lambda T, a, b: T.linalg.tensorsolve(a, b), [A[0].reshape(3, 3, 1), B[0, :, 0]]),
    "multi_dot": (lambda T, v, a, m: T.linalg.multi_dot([v, a, m]), [B[0, :, 0], A[0], B[1]]),
    "vander_at_zero": (lambda T, x: T.linalg.vander(x), [np.array([0.0, 1.5, -2.0])]),
    "vecdot": (lambda T, a, b: T.linalg.vecdot(a, b, dim=-2), [A, B[..., :1]]),
    # cond(A, 1) has no torch reference: torch 2.13's own backward fails ("modified by an inplace operation").
}


def _grads(T, fn, arrays):
    xs = [T.tensor(a, dtype=T.float64, requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(T, *xs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    loss = sum((o * T.tensor(np.random.default_rng(i).normal(size=tuple(o.shape)))).sum() for i, o in enumerate(outs))
    return T.autograd.grad(loss, xs)


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_linalg_gradients_match_torch(reftorch, name):
    fn, arrays = GRAD_CASES[name]
    for g, r in zip(_grads(torch, fn, arrays), _grads(reftorch, fn, arrays)):
        assert_same(g, r, rtol=1e-7, atol=1e-8)


def _raises_like(reftorch, fn, exc, match, ref_match=None):
    """fn(torch) raises `exc` matching `match`; real torch raises the same kind (ref_match: its own message
    where torch 2.13's wording differs from 1.12's)."""
    with pytest.raises(exc, match=match):
        fn(torch)
    ref_exc = {torch.linalg.LinAlgError: reftorch.linalg.LinAlgError}.get(exc, exc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ref_exc, match=ref_match or match):
            fn(reftorch)


def test_linalg_errors_on_singular_and_non_pd_input(reftorch):
    LE = torch.linalg.LinAlgError
    assert issubclass(LE, RuntimeError)
    t = (lambda T, a: T.tensor(a))
    msg = r"linalg.inv: \(Batch element 1\): The diagonal element 2 is zero, the inversion could not be completed"
    _raises_like(reftorch, lambda T: T.linalg.inv(t(T, BSING)), LE, msg)
    _raises_like(reftorch, lambda T: T.linalg.inv_ex(t(T, BSING), check_errors=True), LE, r"linalg.inv_ex: \(Batch")
    _raises_like(reftorch, lambda T: T.inverse(t(T, SING)), LE, "linalg.inv: The diagonal element 2 is zero")
    # torch 1.12: "linalg.solve: The diagonal element 2 is zero, the solve could not be completed ..." (2.13 words
    # it "torch.linalg.solve: The solver failed because the input matrix is singular.")
    _raises_like(reftorch, lambda T: T.linalg.solve(t(T, SING), T.ones(2, dtype=T.float64)), LE,
                 "linalg.solve: The diagonal element 2 is zero, the solve could not be completed",
                 "input matrix is singular")
    npd = np.stack([np.eye(3), np.diag([1.0, 1.0, -1.0])])
    _raises_like(reftorch, lambda T: T.linalg.cholesky(t(T, npd)), LE,
                 r"linalg.cholesky: \(Batch element 1\): .* not positive-definite \(the leading minor of order 3")
    _raises_like(reftorch, lambda T: T.cholesky(t(T, npd[1])), LE, "^cholesky: .*leading minor of order 3")
    _raises_like(reftorch, lambda T: T.linalg.lu_factor(t(T, SING)), RuntimeError,
                 r"torch.linalg.lu_factor: U\[2,2\] is zero and using it on lu_solve")
    for T in (torch, reftorch):  # the _ex variants report instead of raising
        assert T.linalg.inv_ex(t(T, BSING)).info.tolist() == [0, 2]
        assert T.linalg.solve_ex(t(T, BSING), T.ones(2, 2, dtype=T.float64)).info.tolist() == [0, 2]
        info = T.linalg.cholesky_ex(t(T, npd)).info
        assert info.tolist() == [0, 3] and dtype_name(info.dtype) == "int32"
        assert T.lu(t(T, BSING), get_infos=True)[2].tolist() == [0, 2]


@pytest.mark.parametrize("call, exc, match", [
    (lambda T: T.linalg.inv(T.ones(2, 3)), RuntimeError, "A must be batches of square matrices, but they are 2 by 3"),
    (lambda T: T.linalg.inv_ex(T.ones(2, 2, dtype=T.int64)), RuntimeError, "Expected a floating point or complex"),
    (lambda T: T.linalg.solve(T.ones(2, 2, dtype=T.float64), T.ones(2)), RuntimeError, "the same dtype"),
    (lambda T: T.linalg.solve(T.eye(2), T.ones(3, 1)), RuntimeError, "Incompatible shapes of A and B"),
    (lambda T: T.linalg.solve_triangular(T.ones(2, 3), T.ones(2, 2), upper=True), RuntimeError, "square matrices"),
    (lambda T: T.linalg.solve_triangular(T.eye(2), T.ones(3, 2), upper=True), RuntimeError,
     r"Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x2\)"),
    (lambda T: T.linalg.lu_factor(T.eye(2), pivot=False), RuntimeError, "LU without pivoting is not implemented"),
    (lambda T: T.linalg.matrix_exp(T.ones(2, 3)), RuntimeError, "square matrices"),
    (lambda T: T.matrix_exp(T.ones(2, 2, dtype=T.int64)), RuntimeError, "Expected a floating point"),
    (lambda T: T.linalg.cond(T.eye(2), 3), RuntimeError, "linalg.cond got an invalid norm type: 3"),
    (lambda T: T.linalg.tensorinv(T.ones(2, 3, 4), ind=1), RuntimeError, "prod\\(self.shape\\[ind:\\]\\)"),
    (lambda T: T.linalg.tensorinv(T.eye(2), ind=0), RuntimeError, "strictly positive integer for 'ind'"),
    (lambda T: T.linalg.multi_dot([T.eye(2)]), RuntimeError, "expected at least 2 tensors but got 1"),
    (lambda T: T.linalg.multi_dot([T.eye(2), T.ones(2, 2, 2), T.eye(2)]), RuntimeError, "tensor 1 must be 2D"),
    (lambda T: T.linalg.multi_dot([T.ones(2, 3), T.eye(2)]), RuntimeError,
     r"tensors 0 and 1 with shapes \[2, 3\] and \[2, 2\] cannot be multiplied"),
    (lambda T: T.linalg.multi_dot([T.eye(2), T.eye(2, dtype=T.float64)]), RuntimeError,
     "tensor 0 is float and tensor 1 double"),
    (lambda T: T.linalg.vander(T.ones(3), N=1), RuntimeError, "N must be greater than 1"),
    (lambda T: T.linalg.vecdot(T.ones(3), T.ones(3, dtype=T.float64)), RuntimeError, "the same dtype"),
    (lambda T: T.igamma(T.tensor([1, 2]), T.tensor([1, 2])), NotImplementedError, "\"igamma_cpu\" not implemented"),
    (lambda T: T.fft.ihfftn(T.ones(2, 2, dtype=T.complex64)), RuntimeError, "Only supports floating-point dtypes"),
])
def test_bad_input_errors_match_torch(reftorch, call, exc, match):
    _raises_like(reftorch, call, exc, match)


# ---------------------------------------------------------------------------------------------- special
XS = np.concatenate([np.linspace(-30.0, 60.0, 181), [-5.0, -1.0, -0.5, 0.0, 1e-3, 0.5, 4.99, 5.0, 5.01, 1e4]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["i0e", "i1", "i1e", "bessel_j0", "bessel_j1", "erfcx", "log_ndtr"])
def test_special_unary_values_match_torch(reftorch, name, dtype):
    mine, ref = _run_both(reftorch, lambda T, x: getattr(T.special, name)(x), [XS], dtype)
    # bessel_j0/j1: MindSpore's kernels are accurate to ~4e-7 absolute (float32 level) in float64 too
    atol = 5e-7 if name.startswith("bessel") else (1e-12 if dtype == np.float64 else 1e-30)
    assert_same(mine, ref, rtol=1e-12 if dtype == np.float64 else 4e-6, atol=atol)


def test_special_integer_input_promotes_like_torch(reftorch):
    for name in ("i1", "erfcx", "log_ndtr", "bessel_j0"):
        mine, ref = _run_both(reftorch, lambda T, x: getattr(T.special, name)(x), [np.array([1, 2])], np.int64)
        assert_same(mine, ref, rtol=1e-6)
    mine, ref = _run_both(reftorch, lambda T, x, q: T.special.zeta(x, q), [np.array([2, 3]), np.array([1, 2])],
                          np.int64)
    assert_same(mine, ref, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_incomplete_gamma_and_zeta_match_torch(reftorch, dtype):
    a = np.array([[0.5, 1.0, 2.0, 10.0, 30.0]])
    x = np.array([[0.1], [1.0], [3.0], [50.0]])               # broadcasts to (4, 5)
    # MindSpore's Igamma/Igammac/Zeta kernels are accurate to ~1e-6 relative in float64 too (float32 level)
    tol = 1e-6 if dtype == np.float64 else 2e-6
    for fn in (lambda T, a, x: T.igamma(a, x), lambda T, a, x: T.igammac(a, x),
               lambda T, a, x: T.special.gammainc(a, x), lambda T, a, x: T.special.gammaincc(a, x),
               lambda T, a, x: a.igamma(x), lambda T, a, x: T.special.zeta(a + 1.5, x)):
        mine, ref = _run_both(reftorch, fn, [a, x], dtype)
        assert_same(mine, ref, rtol=tol, atol=tol)
    # Python numbers on either side, mixed dtypes promote
    def scalar_sides(T):
        return T.special.zeta(2.0, T.tensor([1.0, 2.0])), T.special.zeta(T.tensor([2.0, 3.0]), 1.0)

    assert_same(scalar_sides(torch), scalar_sides(reftorch))
    mine = torch.igamma(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
    assert dtype_name(mine.dtype) == "float64"


def test_igamma_inplace_forms(reftorch):
    res = []
    for T in (torch, reftorch):
        x, y = T.tensor([1.0, 2.0, 3.0]), T.tensor([0.5, 2.5, 1.0])
        r = x.igamma_(y)
        assert r is x
        z = T.tensor([1.0, 2.0, 3.0])
        z.igammac_(y)
        res.append((x, z))
    assert_same(res[0], res[1])


@pytest.mark.parametrize("name", ["i0e", "i1", "i1e", "erfcx", "log_ndtr"])
def test_special_unary_gradients_match_torch(reftorch, name):
    x = np.array([-12.0, -3.0, -0.5, 0.5, 1.5, 3.0, 7.0, 30.0])
    fn = lambda T, t: getattr(T.special, name)(t)  # noqa: E731
    for g, r in zip(_grads(torch, fn, [x]), _grads(reftorch, fn, [x])):
        assert_same(g, r, rtol=1e-10, atol=1e-12)


def test_binary_special_gradients_follow_torch(reftorch):
    """Only `other` is differentiable for igamma/igammac/zeta (torch has no derivative for `input`)."""
    a, x = np.array([0.5, 1.5, 3.0]), np.array([0.7, 2.0, 4.0])
    for op in ("igamma", "igammac"):
        outs = []
        for T in (torch, reftorch):
            xt = T.tensor(x, requires_grad=True)
            outs.append(T.autograd.grad(getattr(T, op)(T.tensor(a), xt).sum(), xt)[0])
        assert_same(*outs, rtol=1e-6, atol=1e-12)
        for T in (torch, reftorch):
            at = T.tensor(a, requires_grad=True)
            with pytest.raises(NotImplementedError, match=f"the derivative for '{op}: input' is not implemented"):
                getattr(T, op)(at, T.tensor(x)).sum().backward()
    outs = []
    for T in (torch, reftorch):
        q = T.tensor(x, requires_grad=True)
        outs.append(T.autograd.grad(T.special.zeta(T.tensor(a) + 1.5, q).sum(), q)[0])
    assert_same(*outs, rtol=1e-6, atol=1e-12)
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented"):
        torch.special.zeta(torch.tensor(a + 1.5, requires_grad=True), torch.tensor(x)).sum().backward()


# -------------------------------------------------------------------------------------------------- fft
Z = RNG.normal(size=(3, 4, 5)) + 1j * RNG.normal(size=(3, 4, 5))


@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize("name, real_input, kwargs", [
    ("hfft2", False, {}), ("hfftn", False, {}), ("hfftn", False, {"s": (4, 6), "norm": "ortho"}),
    ("hfftn", False, {"dim": (0, 2), "norm": "forward"}), ("ihfft2", True, {}), ("ihfftn", True, {}),
    ("ihfftn", True, {"s": (3, 6), "dim": (0, 1), "norm": "ortho"}), ("ihfft2", True, {"norm": "forward"}),
])
def test_hermitian_fft_matches_torch(reftorch, name, real_input, kwargs, precision):
    dtype = (np.float32 if real_input else np.complex64) if precision == "single" else (
        np.float64 if real_input else np.complex128)
    data = Z.real if real_input else Z
    mine, ref = _run_both(reftorch, lambda T, x: getattr(T.fft, name)(x, **kwargs), [data], dtype)
    _same(mine, ref, 1e-12 if precision == "double" else 2e-5)


# ------------------------------------------------- gradients of the host-computed decompositions (were missing)
_GRAD_CASES = {
    "det": (lambda m, x: m.linalg.det(x), (2, 3, 3)),
    "det_singular": (lambda m, x: m.det(x), None),
    "logdet": (lambda m, x: m.logdet(x @ x.transpose(-1, -2)), (2, 3, 3)),
    "slogdet": (lambda m, x: m.linalg.slogdet(x)[1], (2, 3, 3)),
    "svdvals": (lambda m, x: m.linalg.svdvals(x), (2, 4, 3)),
    "svd_S": (lambda m, x: m.linalg.svd(x, full_matrices=False)[1], (3, 3)),
    "torch_svd_S": (lambda m, x: m.svd(x)[1], (4, 2)),
    "eigvalsh": (lambda m, x: m.linalg.eigvalsh(x + x.transpose(-1, -2)), (2, 3, 3)),
    "eigh_w": (lambda m, x: m.linalg.eigh(x + x.transpose(-1, -2))[0], (3, 3)),
    "cross": (lambda m, x: m.cross(x, m.ones_like(x) * m.arange(3.0, dtype=x.dtype), dim=-1), (4, 3)),
    "cummax": (lambda m, x: m.cummax(x, 0).values, (5, 3)),
    "cummin": (lambda m, x: m.cummin(x, -1).values, (5, 3)),
}


@pytest.mark.parametrize("case", sorted(_GRAD_CASES))
def test_decomposition_and_scan_gradients(reftorch, case):
    # these used to come out with no grad_fn (det/slogdet/svdvals/eigvalsh: numpy) or to fail in backward
    # (cross, cummax/cummin: MindSpore CPU backward kernels)
    f, shape = _GRAD_CASES[case]
    data = np.array([[1.0, 2, 3], [2, 4, 6], [1, 0, 1]]) if shape is None else \
        np.random.default_rng(0).standard_normal(shape)
    grads = []
    for m in (torch, reftorch):
        x = m.tensor(data, requires_grad=True)
        y = f(m, x)
        assert y.requires_grad
        (y * m.arange(1.0, 1.0 + y.numel(), dtype=m.float64).reshape(y.shape)).sum().backward()
        grads.append((y.detach(), x.grad))
    assert_same(grads[0][0], grads[1][0], rtol=1e-10, atol=1e-12)
    assert_same(grads[0][1], grads[1][1], rtol=1e-9, atol=1e-12)
