"""Results that MindSpore's kernels got silently wrong, against real PyTorch: integer division and sums beyond
float precision, arange with float bounds and an integer dtype, gradients at a zero input, scatter/index_put
keeping autograd, torch.inner of N-d tensors."""
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

INT_DTYPES = ["int64", "int32", "int16", "int8", "uint8"]


def _ints(dtype, n=300):
    rng = np.random.default_rng(0)
    info = np.iinfo(dtype)
    a = rng.integers(info.min // 2, info.max // 2, n, endpoint=True).astype(dtype)
    b = rng.integers(1 if info.min == 0 else -20, 20, n).astype(dtype)
    b[b == 0] = 3
    a[:3] = [min(33554435, info.max // 2), 7, 7 if info.min == 0 else -7]  # 33554435 // 3 was off by one
    return a, b


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("op", ["trunc", "floor", "fmod", "remainder", "floordiv", "mod"])
def test_integer_division_is_exact(reftorch, dtype, op):
    """MindSpore computes integer 'trunc' division and int32 fmod in float32, int64 floor division and remainder
    in float64. torch 1.12's `//` and floor_divide truncate (2.x floors): the reference is div(rounding_mode=
    'trunc') there."""
    calls = {
        "trunc": lambda T, x, y: T.div(x, y, rounding_mode="trunc"),
        "floor": lambda T, x, y: T.div(x, y, rounding_mode="floor"),
        "fmod": lambda T, x, y: T.fmod(x, y),
        "remainder": lambda T, x, y: T.remainder(x, y),
        "floordiv": lambda T, x, y: (x // y) if T is torch else T.div(x, y, rounding_mode="trunc"),
        "mod": lambda T, x, y: x % y,
    }
    a, b = _ints(dtype)
    f = calls[op]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (1.12's floor_divide deprecation warning)
        assert_same(f(torch, torch.tensor(a), torch.tensor(b)), f(reftorch, reftorch.tensor(a), reftorch.tensor(b)))
        assert_same(f(torch, torch.tensor(a), 3), f(reftorch, reftorch.tensor(a), 3))


def test_integer_sums_are_exact_int64(reftorch):
    x = np.array([[2**60 + 1, 1, 3], [5, -(2**61), 7]], np.int64)
    for call in (lambda T, t: t.sum(), lambda T, t: t.sum(0), lambda T, t: t.sum(1, keepdim=True),
                 lambda T, t: T.nansum(t), lambda T, t: t.sum((0, 1))):
        assert_same(call(torch, torch.tensor(x)), call(reftorch, reftorch.tensor(x)))
    b = np.array([[True, False], [True, True]])
    assert_same(torch.tensor(b).sum(), reftorch.tensor(b).sum())
    assert_same(torch.tensor(b).sum(1), reftorch.tensor(b).sum(1))


@pytest.mark.parametrize("args,dtype", [
    ((0, 2.5), "int64"), ((0.5, 5.5), "int64"), ((-2.5, 3), "int32"), ((0, 10, 2.5), "int64"),
    ((0, -3.5, -1), "int64"), ((0.9, 4.2, 1.5), "int16"), ((2.7,), "uint8"), ((1, 2.9), None)])
def test_arange_float_bounds_integer_dtype(reftorch, args, dtype):
    """torch converts the bounds to the integer accumulate type first; for int64 the length comes from the
    converted bounds, for the other dtypes from the original ones."""
    mine = torch.arange(*args, dtype=None if dtype is None else getattr(torch, dtype))
    ref = reftorch.arange(*args, dtype=None if dtype is None else getattr(reftorch, dtype))
    assert_same(mine, ref)


ZERO_GRADS = {
    "norm": lambda T, a: a.norm().reshape(1),
    "norm_dim": lambda T, a: a.norm(dim=1),
    "norm_p3": lambda T, a: a.norm(p=3, dim=1),
    "vector_norm": lambda T, a: T.linalg.vector_norm(a, dim=1),
    "matrix_norm": lambda T, a: T.linalg.matrix_norm(a).reshape(1),
    "linalg_norm": lambda T, a: T.linalg.norm(a).reshape(1),
    "dist": lambda T, a: T.dist(a, T.zeros_like(a)).reshape(1),
    "std": lambda T, a: a.std(1),
    "std_mean": lambda T, a: T.std_mean(a, 1)[0],
    "normalize": lambda T, a: T.nn.functional.normalize(a, dim=1),
    "cosine_similarity": lambda T, a: T.nn.functional.cosine_similarity(a, a + 1, dim=1),
    "pairwise_distance": lambda T, a: T.nn.functional.pairwise_distance(a, T.zeros_like(a)),
}


@pytest.mark.parametrize("name", sorted(ZERO_GRADS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gradient_at_zero_norm_is_zero(reftorch, name, dtype):
    """torch masks the norm/std backward where the result is 0; the plain sqrt gave 0 * inf = NaN, which then
    poisoned every parameter (F.normalize of an all-zero row)."""
    x = np.array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]], dtype)
    out = []
    for T in (torch, reftorch):
        a = T.tensor(x, requires_grad=True)
        y = ZERO_GRADS[name](T, a)
        (y * T.arange(1, y.numel() + 1, dtype=y.dtype).reshape(y.shape)).sum().backward()
        out.append((y, a.grad))
    tol = {"float32": 1e-6, "float64": 1e-12}[dtype]
    assert_same(out[0][0], out[1][0], rtol=tol, atol=tol)
    assert_same(out[0][1], out[1][1], rtol=tol, atol=tol)


def test_scatter_and_index_put_keep_autograd(reftorch):
    """scatter/scatter_add with a src larger than index, scatter(reduce='add') and index_put(accumulate=True) went
    through numpy without a node: the result silently did not require grad."""
    def run(T):
        w = T.arange(6.0).reshape(2, 3)
        out = []
        x = T.zeros(2, 3, requires_grad=True)
        y = x.scatter_add(1, T.tensor([[0], [1]]), T.arange(1.0, 7.0).reshape(2, 3))
        (y * w).sum().backward()
        out += [y, x.grad]
        x = T.zeros(2, 3, requires_grad=True)
        y = x.scatter(1, T.tensor([[0], [2]]), T.arange(1.0, 7.0).reshape(2, 3))
        (y * w).sum().backward()
        out += [y, x.grad]
        x = T.zeros(2, 3, requires_grad=True)
        v = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x.index_put((T.tensor([0, 0, 1]), T.tensor([1, 1, 2])), v, accumulate=True)
        (y * w).sum().backward()
        out += [y, x.grad, v.grad]
        x = T.zeros(3, 2, requires_grad=True)
        v = T.tensor([1.0, 2.0], requires_grad=True)
        y = x.index_put((T.tensor([0, 0]),), v, accumulate=True)
        (y * w.reshape(3, 2)).sum().backward()
        out += [y, x.grad, v.grad]
        x = T.zeros(2, 3, requires_grad=True)
        y = x.scatter(1, T.tensor([[0], [1]]), T.ones(2, 3), reduce="add")
        assert y.requires_grad
        out.append(y)
        return out

    for mine, ref in zip(run(torch), run(reftorch)):
        assert_same(mine, ref)


def test_scatter_multiply_refuses_backward():
    """torch 1.12 has no derivative for scatter with reduce: backward raises, never a silent missing gradient."""
    x = torch.zeros(2, 3, requires_grad=True)
    y = x.scatter(1, torch.tensor([[0], [1]]), torch.ones(2, 1) * 2, reduce="multiply")
    assert y.requires_grad
    with pytest.raises(RuntimeError, match="not implemented"):
        y.sum().backward()


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((3,), (4, 3)), ((2, 3, 3), (2, 2, 3)),
                                   ((2, 3), (4, 3)), ((), (3,)), ((2, 3), ())])
def test_inner_of_nd_tensors(reftorch, sa, sb):
    rng = np.random.default_rng(0)
    a, b = rng.random(sa).astype(np.float32), rng.random(sb).astype(np.float32)
    assert_same(torch.inner(torch.tensor(a), torch.tensor(b)), reftorch.inner(reftorch.tensor(a), reftorch.tensor(b)))


def test_inner_last_dims_must_match(reftorch):
    from _compare import assert_same_error

    assert_same_error(RuntimeError, lambda T: T.inner(T.ones(2, 3), T.ones(2, 4)), reftorch)
