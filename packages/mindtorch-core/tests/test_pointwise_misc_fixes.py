"""Pointwise and product differences from torch 1.12 found by a differential sweep, each compared with real PyTorch on
values, dtypes and gradients: pow's base gradient where the exponent is 0, float64 gradients of hypot / lgamma /
mvlgamma, nextafter (broadcasting, float16/bfloat16/float32 steps), einsum's dtypes (integer wraparound, int64
sums, mixed dtypes and bool), products with an empty inner dim, and dtype kernels MindSpore lacks (exp2, sign,
round, deg2rad, rad2deg, lgamma, i0 on bfloat16/int8/int16, nan_to_num on complex)."""
import re

import numpy as np
import pytest
from _compare import assert_same, assert_same_error

import mindtorch.torch as torch


def _rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _both(reftorch, fn):
    return fn(torch), fn(reftorch)


# ------------------------------------------------------------------------------------------------ pow at 0
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("exponent", [0, 0.0, "tensor"])
def test_pow_exponent_zero_gives_zero_base_gradient(reftorch, dtype, exponent):
    # torch masks the base's gradient where the exponent is 0: 0 * x ** -1 would be NaN at x = 0 (and NaN at NaN)
    base = np.array([0.0, 1.0, -2.0, np.nan, np.inf], dtype)

    def run(t):
        a = t.tensor(base, requires_grad=True)
        e = t.zeros(5, dtype=getattr(t, dtype)) if exponent == "tensor" else exponent
        out = t.pow(a, e)
        out.sum().backward()
        return out, a.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref)


def test_pow_tensor_exponent_masks_only_the_base_gradient(reftorch):
    # mixed exponents, broadcasting, and the exponent's own gradient (log(a) * a ** b, 0 at a = 0) unchanged
    def run(t):
        a = t.tensor([[0.0], [3.0], [-1.5]], requires_grad=True)
        b = t.tensor([0.0, 2.0, 0.5, 0.0, 3.0], requires_grad=True)
        out = t.pow(a, b)
        out.nansum().backward()
        return out, a.grad, b.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


def test_pow_exponent_zero_double_backward(reftorch):
    def run(t):
        a = t.tensor([0.0, 1.0, -2.0], dtype=t.float64, requires_grad=True)
        (g,) = t.autograd.grad(t.pow(a, 0.0).sum(), a, create_graph=True)
        return g

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref)


# ------------------------------------------------------------------------------ float64-exact gradients
@pytest.mark.parametrize("dtype,rtol", [("float64", 1e-12), ("float32", 1e-6), ("float16", 1e-3)])
def test_hypot_gradient_is_g_times_input_over_output(reftorch, dtype, rtol):
    # MindSpore's Hypot backward computed float64 with float32 accuracy (d/da hypot(3, 1e-3): 0.99999994039,
    # torch 0.99999994444)
    a_np = np.array([3.0, 0.5, -4.0, 1e-3], dtype)
    b_np = np.array([1e-3, 2.0, 3.0, -7.0], dtype)

    def run(t):
        a, b = t.tensor(a_np, requires_grad=True), t.tensor(b_np, requires_grad=True)
        out = t.hypot(a, b)
        (out * t.arange(1, 5, dtype=out.dtype)).sum().backward()
        return out, a.grad, b.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=rtol, atol=0)


def test_hypot_gradient_broadcasts_and_differentiates_twice(reftorch):
    def run(t):
        a = t.tensor([[3.0], [0.5]], dtype=t.float64, requires_grad=True)
        b = t.tensor([1e-3, 2.0, -5.0], dtype=t.float64, requires_grad=True)
        ga, gb = t.autograd.grad(t.hypot(a, b).sum(), (a, b), create_graph=True)
        return (ga, gb) + t.autograd.grad((ga.sum() * gb).sum(), (a, b))

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dtype,rtol", [("float64", 1e-12), ("float32", 1e-6)])
def test_lgamma_gradient_is_the_accurate_digamma(reftorch, dtype, rtol):
    # MindSpore's Lgamma backward used its digamma, ~1e-7 off relative in float64 (at 0.3: -3.502523899, torch
    # -3.502524222)
    x = np.array([0.3, 2.5, -1.5, -2.5, 5.0, 7.25, 100.5], dtype)

    def run(t):
        a = t.tensor(x, requires_grad=True)
        out = t.lgamma(a)
        out.sum().backward()
        return out, a.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=rtol, atol=0)


def test_lgamma_second_derivative(reftorch):
    def run(t):
        a = t.tensor([0.3, 2.5, -1.5, 7.0], dtype=t.float64, requires_grad=True)
        (g,) = t.autograd.grad(t.lgamma(a).sum(), a, create_graph=True)
        return g, t.autograd.grad(g.sum(), a)[0]

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-9)


def test_mvlgamma_float64_gradient(reftorch):
    def run(t):
        a = t.tensor([[2.3, 5.0], [1.7, 9.1]], dtype=t.float64, requires_grad=True)
        out = t.mvlgamma(a, 3)
        out.sum().backward()
        return out, a.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-12, atol=0)


# -------------------------------------------------------------------------------------------- nextafter
def test_nextafter_broadcasts_a_0d_first_argument(reftorch):
    # MindSpore's NextAfter does not broadcast: this gave [[1.5, 0, 0]] (uninitialised memory)
    mine, ref = _both(reftorch, lambda t: t.nextafter(t.tensor(1.5, dtype=t.float64),
                                                       t.tensor([[-3, 0, 4]], dtype=t.int32)))
    assert_same(mine, ref, rtol=0, atol=0)


_NEXTAFTER_PAIRS = [(1.5, 3.0), (0.0, -1.0), (-0.0, 1.0), (1.0, 1.0), (np.inf, 0.0), (-np.inf, 0.0), (np.nan, 1.0),
                    (1.0, np.nan), (3.3895e38, np.inf), (0.0, -0.0), (-0.0, 0.0), (-1e-40, 0.0), (65504.0, np.inf),
                    (-2.0, -3.0), (-2.0, 5.0), (1e-45, 0.0)]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_nextafter_steps_one_unit_in_the_inputs_dtype(reftorch, dtype):
    # float16/bfloat16: no MindSpore kernel (stepping in float32 gives another number); float32: MindSpore's kernel
    # returned x unchanged. Signs of zeros compared too (nextafter(0, -0) is -0).
    def run(t):
        dt = getattr(t, dtype)
        x = t.tensor([a for a, _ in _NEXTAFTER_PAIRS], dtype=t.float64).to(dt)
        y = t.tensor([b for _, b in _NEXTAFTER_PAIRS], dtype=t.float64).to(dt)
        out = t.nextafter(x, y)
        return out, t.signbit(out), t.nextafter(x[0], y[0]), t.nextafter(x[:3, None], y[None, :4])

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=0, atol=0)


def test_nextafter_shapes_that_do_not_broadcast_raise_torchs_error(reftorch):
    assert_same_error(RuntimeError, lambda t: t.nextafter(t.ones(2), t.ones(3)), reftorch)


# ------------------------------------------------------------------------------------------------ einsum
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("equation,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 2)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("ij,j->i", [(2, 3), (3,)]),
    ("i,i->", [(3,), (3,)]), ("i,j->ij", [(2,), (3,)]), ("ij,ij->ij", [(2, 2), (2, 2)]), ("ii->i", [(3, 3)]),
    ("ij->i", [(2, 3)]), ("ii", [(3, 3)]), ("ij,kj->", [(2, 2), (2, 2)]), ("ij,jk,kl->il", [(2, 2)] * 3),
])
def test_einsum_integer_dtypes_as_torch(reftorch, dtype, equation, shapes):
    # products and contractions stay in the operands' dtype (uint8 100 * 2 + 100 * 2 = 144, int32 wraps); a label
    # summed out of one operand goes through `sum` (int64), as in torch
    arrays = [np.random.default_rng(i).integers(0, 120, s) for i, s in enumerate(shapes)]
    mine, ref = _both(reftorch, lambda t: t.einsum(equation, *[t.tensor(a, dtype=getattr(t, dtype)) for a in arrays]))
    assert_same(mine, ref, rtol=0, atol=0)


def test_einsum_uint8_wraps_around(reftorch):
    mine, ref = _both(reftorch, lambda t: t.einsum("ij,jk->ik", t.full((2, 2), 100, dtype=t.uint8),
                                                    t.full((2, 2), 2, dtype=t.uint8)))
    assert_same(mine, ref, rtol=0, atol=0)
    mine, ref = _both(reftorch, lambda t: t.einsum("ij,jk->ik", t.full((2, 2), 2 ** 30, dtype=t.int32),
                                                    t.full((2, 2), 2, dtype=t.int32)))
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("equation,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]), ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("ij,kj", [(3, 4), (5, 4)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]), ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]), ("ij,ij->", [(3, 4), (3, 4)]), ("iB,Bj", [(2, 3), (3, 4)]),
    ("ij,jB", [(2, 3), (3, 4)]), ("...,...->...", [(2, 1), (1, 3)]), ("ij,j->ij", [(3, 1), (4,)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]), ("a...,...->a", [(2, 3, 4), (3, 4)]), ("iij->j", [(3, 3, 2)]),
    ("ij,jk->", [(2, 3), (3, 2)]), ("bij->bji", [(2, 3, 4)]),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_einsum_float_values_and_gradients(reftorch, equation, shapes, dtype):
    arrays = [_rand(*s, seed=i, dtype=dtype) for i, s in enumerate(shapes)]

    def run(t):
        xs = [t.tensor(a, requires_grad=True) for a in arrays]
        out = t.einsum(equation, *xs)
        (out * out.detach()).sum().backward()
        return [out] + [x.grad for x in xs]

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("equation,shapes", [("ij,jk->ik", [(2, 2), (2, 2)]), ("bij,bjk->bik", [(2, 2, 2)] * 2),
                                             ("ij,j->i", [(2, 2), (2,)])])
def test_einsum_mixed_dtypes_raise_torchs_error(reftorch, equation, shapes):
    # torch multiplies through bmm, which wants one dtype ("expected scalar type Float but found Double")
    assert_same_error(RuntimeError, lambda t: t.einsum(equation, t.ones(*shapes[0]),
                                                       t.ones(*shapes[1], dtype=t.float64)), reftorch)


def test_einsum_mixed_dtypes_without_contraction_promote(reftorch):
    mine, ref = _both(reftorch, lambda t: t.einsum("i,j->ij", t.ones(2), t.ones(3, dtype=t.float64)))
    assert_same(mine, ref)


def test_einsum_full_contraction_is_a_dot_as_in_torch_112():
    # torch 1.12 contracts everything left by `dot` (its error below); torch 2.x uses bmm ("expected scalar type
    # Float but found Double", `"bmm" not implemented for 'Bool'`)
    with pytest.raises(RuntimeError, match="dot : expected both vectors to have same dtype, but found Float and "
                                           "Double"):
        torch.einsum("i,i->", torch.ones(2), torch.ones(2, dtype=torch.float64))
    with pytest.raises(NotImplementedError, match="\"dot\" not implemented for 'Bool'"):
        torch.einsum("i,i->", torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool))


@pytest.mark.parametrize("equation,shapes", [("ij,jk->ik", [(2, 2), (2, 2)]), ("bij,bjk->bik", [(2, 2, 2)] * 2),
                                             ("ij,jk", [(2, 3), (3, 2)])])
def test_einsum_bool_contraction_raises_torchs_error(reftorch, equation, shapes):
    assert_same_error(NotImplementedError, lambda t: t.einsum(
        equation, *[t.ones(*s, dtype=t.bool) for s in shapes]), reftorch)


@pytest.mark.parametrize("equation,shapes", [("ij->i", [(2, 3)]), ("ij->", [(2, 3)]), ("i,j->ij", [(2,), (3,)]),
                                             ("ij,ij->ij", [(2, 2), (2, 2)]), ("ii->i", [(3, 3)]),
                                             ("ij,kj->", [(2, 2), (2, 2)])])
def test_einsum_bool_without_bmm(reftorch, equation, shapes):
    # sums count (int64), products without a contraction are logical ands (bool)
    arrays = [np.random.default_rng(i).integers(0, 2, s).astype(bool) for i, s in enumerate(shapes)]
    mine, ref = _both(reftorch, lambda t: t.einsum(equation, *[t.tensor(a) for a in arrays]))
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("equation,shapes", [("ij->iz", [(2, 2)]), ("ij->ii", [(2, 2)]), ("ii->i", [(2, 3)])])
def test_einsum_subscript_errors(reftorch, equation, shapes):
    assert_same_error(RuntimeError, lambda t: t.einsum(equation, *[t.ones(*s) for s in shapes]), reftorch)


# ---------------------------------------------------------------------------------- empty inner dimension
_EMPTY_PRODUCTS = {
    "matmul": (lambda t, a, b: a @ b, [(2, 0), (0, 2)]),
    "matmul_batched": (lambda t, a, b: a @ b, [(2, 1, 3, 0), (4, 0, 2)]),
    "matmul_1d_3d": (lambda t, a, b: a @ b, [(0,), (4, 0, 2)]),
    "mm": (lambda t, a, b: t.mm(a, b), [(3, 0), (0, 2)]),
    "bmm": (lambda t, a, b: t.bmm(a, b), [(2, 3, 0), (2, 0, 2)]),
    "mv": (lambda t, a, b: t.mv(a, b), [(3, 0), (0,)]),
    "dot": (lambda t, a, b: t.dot(a, b), [(0,), (0,)]),
    "tensordot": (lambda t, a, b: t.tensordot(a, b, dims=([1], [0])), [(3, 0), (0, 2)]),
    "inner": (lambda t, a, b: t.inner(a, b), [(3, 0), (2, 0)]),
    "addmm": (lambda t, a, b: t.addmm(t.ones(3, 2, dtype=a.dtype), a, b), [(3, 0), (0, 2)]),
    "einsum": (lambda t, a, b: t.einsum("ij,jk->ik", a, b), [(3, 0), (0, 2)]),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(_EMPTY_PRODUCTS))
def test_products_with_an_empty_inner_dim_are_zeros(reftorch, name, dtype):
    # MindSpore's MatMul/BatchMatMul returned uninitialised memory for k = 0 (after a few int32 products:
    # [[0, 9.8e-45], [nan, nan]]); the inputs' gradients are zeros of their shapes
    fn, shapes = _EMPTY_PRODUCTS[name]
    for _ in range(3):
        torch.ones(3, 3, dtype=torch.int32) @ torch.ones(3, 3, dtype=torch.int32)

    def run(t):
        xs = [t.ones(*s, dtype=getattr(t, dtype), requires_grad=True) for s in shapes]
        out = fn(t, *xs)
        out.sum().backward()
        return [out] + [x.grad for x in xs]

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32", "int64", "float16", "bfloat16", "bool"])
def test_integer_products_with_an_empty_inner_dim_are_zeros(reftorch, dtype):
    def run(t):
        dt = getattr(t, dtype)
        return (t.ones(2, 0, dtype=dt) @ t.ones(0, 2, dtype=dt),
                t.bmm(t.ones(2, 2, 0, dtype=dt), t.ones(2, 0, 3, dtype=dt)),
                t.mv(t.ones(2, 0, dtype=dt), t.ones(0, dtype=dt)))

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("shapes", [[(2, 2), (2, 2)], [(2, 2), (2,)], [(2,), (2, 2)], [(2, 2, 2), (2, 2)],
                                    [(2, 2, 2), (2, 2, 2)], [(2,), (2,)]])
def test_bool_products_raise_torchs_error(reftorch, shapes):
    assert_same_error(NotImplementedError, lambda t: t.matmul(*[t.ones(*s, dtype=t.bool) for s in shapes]), reftorch)


def test_dot_mixed_dtypes_raise_torchs_error(reftorch):
    assert_same_error(RuntimeError, lambda t: t.dot(t.ones(2), t.ones(3, dtype=t.float64)), reftorch)
    assert_same_error(NotImplementedError, lambda t: t.dot(t.ones(2, dtype=t.bool), t.ones(2, dtype=t.bool)),
                      reftorch)


# ------------------------------------------------------------------------------------- missing dtype kernels
@pytest.mark.parametrize("name", ["exp2", "round", "deg2rad", "rad2deg", "lgamma", "i0"])
def test_bfloat16_unary_ops_compute_in_float_and_keep_bfloat16(reftorch, name):
    # exp2 returned float32; the others had no bfloat16 kernel
    x = np.array([0.3, 1.7, -2.2, 4.5, 10.25], np.float32)

    def run(t):
        a = t.tensor(x, dtype=t.bfloat16, requires_grad=True)
        out = getattr(t, name)(a)
        out.float().sum().backward()
        return out, a.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["int8", "int16"])
def test_sign_and_sgn_on_small_integers(reftorch, dtype):
    v = [-128, -1, 0, 5, 127] if dtype == "int8" else [-32768, -1, 0, 5, 32767]
    mine, ref = _both(reftorch, lambda t: (t.sign(t.tensor(v, dtype=getattr(t, dtype))),
                                           t.sgn(t.tensor(v, dtype=getattr(t, dtype))),
                                           t.tensor(v, dtype=getattr(t, dtype)).sign_()))
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("kwargs", [{}, {"nan": 2.0, "posinf": 5.0, "neginf": -6.0}])
def test_nan_to_num_on_complex_treats_real_and_imaginary_parts(reftorch, dtype, kwargs):
    z = np.array([complex(np.nan, np.inf), complex(-np.inf, np.nan), 1 + 2j, complex(np.inf, -np.inf)])
    def run(t):
        out = t.nan_to_num(t.tensor(z, dtype=getattr(t, dtype)), **kwargs)
        return out.dtype == getattr(t, dtype), t.real(out), t.imag(out)

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("decimals", [-1, -2])
def test_round_negative_decimals_divides_by_the_power_of_ten(reftorch, dtype, decimals):
    # torch computes x / 10**-d, not x * 10**d (0.1 is inexact: float32 3e10 + 5 gave 30000003072, torch's
    # 30000001024). bfloat16: torch 1.12 rounds x / 10**-d to bfloat16 before rounding to an integer, torch 2.x
    # does not: values where the two agree
    x = np.array([30.0, 1234.5, 75.0, -45.0, 0.0] + ([3e10 + 5] if dtype != "bfloat16" else []), np.float64)
    mine, ref = _both(reftorch, lambda t: t.round(t.tensor(x, dtype=getattr(t, dtype)), decimals=decimals))
    assert_same(mine, ref, rtol=0, atol=0)


def test_igamma_edges_at_zero_and_half(reftorch):
    """torch's P(0, x > 0) = 1, Q(0, x > 0) = 0 and NaN at (0, 0), with a zero gradient w.r.t. x there (MindSpore's
    kernel gave NaN / 0); float16 computed in float32."""
    out = []
    for T in (torch, reftorch):
        a = T.tensor([0.0, 0.0, 1.0, 2.5])
        x = T.tensor([1.0, 0.0, 2.0, 0.7], requires_grad=True)
        p, q = T.igamma(a, x), T.igammac(a, x)
        (p.nan_to_num() * 2 + q.nan_to_num()).sum().backward()
        out.append((p, q, x.grad))
    for mine, ref in zip(*out):
        assert_same(mine, ref, rtol=1e-5, atol=1e-6)
    h = torch.igamma(torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor([1.0, 2.0], dtype=torch.float16))
    assert h.dtype == torch.float16


def test_complex_inf_checks_and_empty_linear(reftorch):
    for T in (torch, reftorch):
        c = T.tensor([complex(float("inf"), 0), 1 + 1j, complex(0, float("-inf"))])
        assert T.isinf(c).tolist() == [True, False, True]
        with pytest.raises(RuntimeError, match="isposinf does not support complex inputs"):
            T.isposinf(c)
        lin = T.nn.Linear(0, 3)
        y = lin(T.randn(2, 0))
        assert tuple(y.shape) == (2, 3) and bool(((y - lin.bias).abs() == 0).all())
    assert_same(torch.logcumsumexp(torch.tensor([1.0, 2.0, 3.0], dtype=torch.bfloat16), 0),
                reftorch.logcumsumexp(reftorch.tensor([1.0, 2.0, 3.0], dtype=reftorch.bfloat16), 0))


def test_xlogy_gradient_at_zero_and_broadcast(reftorch):
    """d xlogy(a, b)/da = log(b) also at a == 0 (0 only where b <= 0): Gamma(1, r), Beta(1, 1), Dirichlet(ones)
    and Chi2(2) log_prob gradients w.r.t. the concentration; a broadcast (2, 1) input keeps its gradient's shape."""
    out = []
    for T in (torch, reftorch):
        a = T.tensor([0.0, 0.0, 1.0, 0.0], requires_grad=True)
        b = T.tensor([0.2, 0.5, 0.5, 2.0], requires_grad=True)
        T.xlogy(a, b).sum().backward()
        a2, b2 = T.tensor([[0.0], [1.0]], requires_grad=True), T.tensor([0.3, 2.0], requires_grad=True)
        T.xlogy(a2, b2).sum().backward()
        c = T.tensor([1.0, 1.0, 1.0], requires_grad=True)
        T.distributions.Dirichlet(c).log_prob(T.tensor([0.2, 0.3, 0.5])).backward()
        k = T.tensor([1.0, 2.0], requires_grad=True)
        T.distributions.Gamma(k, T.tensor([1.0, 1.0])).log_prob(T.tensor([0.5, 0.5])).sum().backward()
        out.append((a.grad, b.grad, a2.grad, b2.grad, c.grad, k.grad))
    for mine, ref in zip(*out):
        assert_same(mine, ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("expr", [
    "T.unique_consecutive(T.zeros(0, 3), dim=0)", "T.zeros(0, 3).mode(0)", "T.unique(T.zeros(0, 3), dim=-1)",
    "T.zeros(3, 0).mode(1)", "T.unique(T.zeros(0, 3), dim=0, return_inverse=True, return_counts=True)",
    "T.zeros(0, 3).mode(1)", "T.unique_consecutive(T.zeros(2, 0), dim=0, return_counts=True)",
])
def test_unique_and_mode_of_empty(reftorch, expr):
    """Empty inputs: torch's results or its errors (numpy's reshape errors leaked)."""
    try:
        ref = eval(expr, {"T": reftorch})
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e), match=re.escape(str(e))):
            eval(expr, {"T": torch})
        return
    mine = eval(expr, {"T": torch})
    for a, b in zip(mine if isinstance(mine, tuple) else (mine,), ref if isinstance(ref, tuple) else (ref,)):
        assert_same(a, b)
