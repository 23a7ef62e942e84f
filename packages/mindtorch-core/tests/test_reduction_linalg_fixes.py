"""Reductions and matrix norms against real PyTorch, values and gradients: the differentiable nuclear/spectral
matrix norms, cumprod's and prod's gradients at zeros (and their second derivatives), p < 1 norms at zero
entries, median's tie-splitting gradient, median of nothing, complex var/std."""
import numpy as np
import pytest
from _compare import assert_same, assert_same_error

import mindtorch.torch as torch

RS = np.random.RandomState(0)
W34 = RS.randn(3, 4)
B2345 = RS.randn(2, 3, 4, 5)


def _value_and_grad(lib, arr, fn, dtype="float64"):
    """fn(lib, leaf) and the leaf's gradient of a fixed random weighting of the result."""
    a = lib.tensor(arr, dtype=getattr(lib, dtype), requires_grad=True)
    r = fn(lib, a)
    w = lib.tensor(np.random.RandomState(1).randn(*tuple(r.shape)), dtype=r.dtype)
    (r * w).sum().backward()
    return r, a.grad


def _same_value_and_grad(reftorch, arr, fn, dtype="float64", **tol):
    mine, ref = _value_and_grad(torch, arr, fn, dtype), _value_and_grad(reftorch, arr, fn, dtype)
    assert mine[0].requires_grad
    assert_same(mine[0].detach(), ref[0].detach(), **tol)
    assert_same(mine[1], ref[1], **tol)


# ------------------------------------------------------------------------------ 1. matrix norms 'nuc', 2, -2
@pytest.mark.parametrize("arr,fn", [
    (W34, lambda t, a: t.linalg.matrix_norm(a, "nuc")),
    (W34, lambda t, a: t.linalg.matrix_norm(a, 2)),
    (W34, lambda t, a: t.linalg.matrix_norm(a, -2)),
    (W34, lambda t, a: t.linalg.norm(a, 2)),
    (W34, lambda t, a: t.nuclear_norm(a)),
    (W34[:, :3], lambda t, a: t.linalg.cond(a, "nuc")),
    (np.eye(3), lambda t, a: t.linalg.matrix_norm(a, 2)),  # tied singular values: amax splits the gradient
    (B2345, lambda t, a: t.linalg.matrix_norm(a, "nuc", dim=(1, 3), keepdim=True)),
    (B2345, lambda t, a: t.linalg.matrix_norm(a, 2, dim=(3, 0))),
    (B2345, lambda t, a: t.linalg.matrix_norm(a, -2, dim=(-1, -2), keepdim=True)),
], ids=["nuc", "2", "-2", "norm2", "nuclear_norm", "cond_nuc", "eye2", "batch_nuc_keep", "batch_2", "batch_-2"])
def test_matrix_norm_svd_orders_are_differentiable(reftorch, arr, fn):
    _same_value_and_grad(reftorch, arr, fn)


def test_matrix_norm_svd_orders_dtype_and_empty(reftorch):
    _same_value_and_grad(reftorch, W34, lambda t, a: t.linalg.matrix_norm(a, "nuc", dtype=t.float64), "float32")
    for ord in ("nuc", 2):  # an empty matrix: 0 (torch 2.13; ord -2 raises, amin of nothing)
        assert_same(torch.linalg.matrix_norm(torch.zeros(0, 3), ord), reftorch.linalg.matrix_norm(
            reftorch.zeros(0, 3), ord))
    with pytest.raises(IndexError):
        torch.linalg.matrix_norm(torch.zeros(0, 3), -2)


# ------------------------------------------------------------------------- 2. / 7. cumprod and prod at zeros
ZEROS = [np.array([[2.0, 0.0, 3.0, 4.0]]),
         np.array([[0.0, 2.0, 0.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 0.0, 0.0, 1.0, 2.0]]),
         np.where(RS.rand(2, 4, 3) < 0.3, 0.0, RS.randn(2, 4, 3))]
ZERO_CASES = [(x, d) for x in ZEROS for d in range(-1, x.ndim - 1) if x.shape[d] > 1]  # (size 1: grad is constant)


def _first_and_second(lib, arr, fn):
    """fn(leaf), its weighted gradient with create_graph=True, and the gradient of a function of that gradient
    (a Hessian-vector product): what a gradient penalty differentiates."""
    rs = np.random.RandomState(2)
    a = lib.tensor(arr, requires_grad=True)
    r = fn(a)
    (g,) = lib.autograd.grad((r * lib.tensor(rs.randn(*tuple(r.shape)))).sum(), a, create_graph=True)
    (gg,) = lib.autograd.grad((g * g).sum() + (g * lib.tensor(rs.randn(*arr.shape))).sum(), a)
    return r, g, gg


@pytest.mark.parametrize("x,d", ZERO_CASES, ids=[f"{x.shape}-d{d}" for x, d in ZERO_CASES])
def test_cumprod_grads_with_zeros(reftorch, x, d):
    """torch's cumprod_backward (MindSpore's divides by the input: NaN at a zero), first and second order."""
    mine = _first_and_second(torch, x, lambda a: a.cumprod(d))
    ref = _first_and_second(reftorch, x, lambda a: a.cumprod(d))
    for m, r in zip(mine, ref):
        assert_same(m.detach(), r.detach(), atol=1e-9)


def test_cumprod_grad_example(reftorch):
    def run(t):
        a = t.tensor([[2.0, 0.0, 3.0, 4.0]], dtype=t.float64, requires_grad=True)
        a.cumprod(1).sum().backward()
        return a.grad
    assert_same(run(torch), run(reftorch))


@pytest.mark.parametrize("x,d", ZERO_CASES, ids=[f"{x.shape}-d{d}" for x, d in ZERO_CASES])
def test_prod_double_backward(reftorch, x, d):
    """prod's backward is built from recorded ops, so create_graph=True differentiates it again (MindSpore's
    ProdExt backward cannot be), with and without zeros, over a dim and over all elements."""
    def fn(a):
        return a.prod(d) ** 2 + a.prod()
    for arr in (x, np.where(x == 0, 1.5, x)):
        mine, ref = _first_and_second(torch, arr, fn), _first_and_second(reftorch, arr, fn)
        for m, r in zip(mine, ref):
            assert_same(m.detach(), r.detach(), atol=1e-9)


def test_prod_and_cumprod_grads_dtypes(reftorch):
    x = [[2.0, 0.0, 3.0], [1.0, 2.0, 3.0]]
    _same_value_and_grad(reftorch, x, lambda t, a: a.prod(1, dtype=t.float64), "float32")
    _same_value_and_grad(reftorch, x, lambda t, a: a.cumprod(0, dtype=t.float64), "float32")
    _same_value_and_grad(reftorch, x, lambda t, a: a.prod(1, keepdim=True), "float16", rtol=1e-3, atol=1e-3)
    _same_value_and_grad(reftorch, [[0.0, 0.0, 3.0], [1.0, 0.0, 3.0]], lambda t, a: a.prod(1))


# ------------------------------------------------------------------------------------ 3. norm with 0 < p < 1
@pytest.mark.parametrize("p", [0.5, 0.3, -1.0])
@pytest.mark.parametrize("kw", [{}, {"dim": 1}, {"dim": 0, "keepdim": True}], ids=["all", "dim1", "dim0keep"])
def test_norm_small_p_grad_at_zero_entries(reftorch, p, kw):
    """d |a|^p is inf at a zero for p < 1: torch's gradient there is 0, and an all-zero row stays NaN-free."""
    x = [[0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [3.0, -0.5, 4.0]]
    _same_value_and_grad(reftorch, x, lambda t, a: a.norm(p=p, **kw))
    _same_value_and_grad(reftorch, x, lambda t, a: t.linalg.vector_norm(a, p, **kw))


# ------------------------------------------------------------------------------ 4. median's tied gradient
@pytest.mark.parametrize("x,fn", [
    ([1.0, 2.0, 2.0, 3.0], lambda t, a: a.median()),
    ([[2.0, 2.0], [1.0, 2.0]], lambda t, a: a.median()),
    ([1.0, float("nan"), 2.0, 2.0, 3.0], lambda t, a: a.nanmedian()),
    ([1.0, float("nan"), 2.0, float("nan")], lambda t, a: a.median()),  # NaN: split over the NaNs
    ([float("nan"), float("nan")], lambda t, a: a.nanmedian()),
    ([[1.0, 2.0, 2.0, 3.0], [5.0, 5.0, 5.0, 1.0]], lambda t, a: a.median(1).values),  # with dim: the index only
], ids=["tie", "tie2d", "nanmedian_tie", "nan", "all_nan", "dim"])
def test_median_gradient_splits_ties(reftorch, x, fn):
    _same_value_and_grad(reftorch, x, fn, "float32")


# ------------------------------------------------------------------------------------ 5. median of nothing
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_of_empty(reftorch, name):
    for dt in ("float32", "float64", "int64", "int32", "uint8"):  # NaN cast to the dtype, as torch
        assert_same(getattr(torch, name)(torch.zeros(0, 3, dtype=getattr(torch, dt))),
                    getattr(reftorch, name)(reftorch.zeros(0, 3, dtype=getattr(reftorch, dt))))
    for shape, dim, keep in (((0, 3), 1, False), ((0, 3), 1, True)):
        assert_same(tuple(getattr(torch, name)(torch.zeros(shape), dim, keep)),
                    tuple(getattr(reftorch, name)(reftorch.zeros(shape), dim, keep)))
    for shape, dim in (((0, 3), 0), ((3, 0), -1), ((0,), 0)):  # the reduced dim itself is empty
        assert_same_error(IndexError, lambda t: getattr(t, name)(t.zeros(shape), dim), reftorch)


# ------------------------------------------------------------------------------------ 6. complex var / std
@pytest.mark.parametrize("fn", ["var", "std", "var_mean", "std_mean"])
@pytest.mark.parametrize("kw", [{}, {"dim": 1}, {"dim": (0, 1), "keepdim": True}, {"dim": 0, "unbiased": False}],
                         ids=["all", "dim1", "dims_keep", "biased"])
def test_var_std_complex(reftorch, fn, kw):
    """The variance of complex input is real (mean |x - mean|^2); var_mean's mean stays complex."""
    c = RS.randn(3, 4) + 1j * RS.randn(3, 4)

    def run(t):
        a = t.tensor(c, dtype=t.complex64, requires_grad=True)
        r = getattr(t, fn)(a, **kw)
        (r[0] if isinstance(r, tuple) else r).sum().backward()
        return r, a.grad
    (mr, mg), (rr, rg) = run(torch), run(reftorch)
    detach = (lambda r: tuple(x.detach() for x in r)) if isinstance(rr, tuple) else (lambda r: r.detach())
    assert_same(detach(mr), detach(rr))
    assert_same(mg, rg)


def test_var_complex_example_and_edges(reftorch):
    for t_args in ((lambda t: t.tensor([1 + 2j, 3 - 1j, -2 + 0.5j])), (lambda t: t.tensor(1 + 2j))):
        assert_same(torch.var(t_args(torch)), reftorch.var(t_args(reftorch)))
    assert_same(torch.var(torch.zeros(0, 2, dtype=torch.complex64), 0),
                reftorch.var(reftorch.zeros(0, 2, dtype=reftorch.complex64), 0))


@pytest.mark.parametrize("expr", ["x.sum()", "x.sum(0)", "x.mean()", "x.prod()", "x.mean(0)", "(x * 2).sum(1)"])
def test_reductions_of_empty_keep_the_graph(reftorch, expr):
    """The reduction of an empty tensor that requires grad is connected to it (a YOLO loss over a level with no
    targets: `lbox += (1.0 - iou).mean()` then backward)."""
    out = []
    for T in (torch, reftorch):
        x = T.zeros(0, 3, requires_grad=True)
        y = eval(expr)
        assert y.requires_grad
        y.sum().backward()
        out.append((y, x.grad))
    for mine, ref in zip(*out):
        assert_same(mine, ref)
