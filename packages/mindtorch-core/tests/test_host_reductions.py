"""sum/mean of large float tensors on the CPU target run on the host (`reduction._sum_cpu`/`_mean_cpu` through
`_expand.sum_to`: MindSpore's CPU reductions were 10-30x slower): values, dtypes, shapes and gradients against
real torch over dims, keepdim, numpy's keyword names, non-contiguous inputs, double backward, the losses that
reduce through them, and the cases that keep MindSpore's kernel (small, integer, dtype=)."""
import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch._ops import reduction

pytestmark = pytest.mark.skipif(ms.get_context("device_target") != "CPU", reason="the host path is CPU-only")

SHAPE = (16, 8, 24, 20)  # 61440 elements: above the host threshold
DIMS = [None, 0, -1, (0, 2, 3), [1, 2], (0, 1, 2, 3), ()]


def _data(dtype=np.float32, shape=SHAPE, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(dtype)


@pytest.mark.parametrize("op", ["sum", "mean"])
@pytest.mark.parametrize("dim", DIMS, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_and_grads_match_torch(reftorch, op, dim, keepdim, dtype):
    x = _data(dtype)
    assert x.size >= reduction._HOST_REDUCE_MIN
    mine, ref = torch.tensor(x, requires_grad=True), reftorch.tensor(x, requires_grad=True)
    kw = {} if dim is None else dict(dim=dim, keepdim=keepdim)
    out_m, out_r = getattr(mine, op)(**kw), getattr(ref, op)(**kw)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert_same(out_m, out_r, rtol=tol, atol=tol * 10)
    g = np.asarray(np.random.RandomState(1).randn(*out_r.shape), dtype=dtype)
    out_m.backward(torch.tensor(g))
    out_r.backward(reftorch.tensor(g))
    assert_same(mine.grad, ref.grad, rtol=tol, atol=tol)


def test_numpy_keywords_functional_form_and_non_contiguous_input(reftorch):
    x = _data()
    m, r = torch.tensor(x).transpose(1, 3), reftorch.tensor(x).transpose(1, 3)  # a strided view
    assert_same(torch.sum(m, axis=(0, 2), keepdims=True), reftorch.sum(r, dim=(0, 2), keepdim=True),
                rtol=1e-5, atol=1e-4)
    assert_same(m.mean(2), r.mean(2), rtol=1e-5, atol=1e-6)
    assert_same(torch.mean(m[:, ::2]), reftorch.mean(r[:, ::2]), rtol=1e-5, atol=1e-6)


def test_double_backward(reftorch):
    """d/dx of |d (sum_j x_ij^2 w_j)^2 / dx|^2: the host sum's backward (an expand) is itself differentiable."""
    x, w = _data(shape=(256, 160)), _data(shape=(160,), seed=2)
    res = []
    for T in (torch, reftorch):
        xt, wt = T.tensor(x, requires_grad=True), T.tensor(w, requires_grad=True)
        y = ((xt ** 2 * wt).sum(1) ** 2).mean()
        (g,) = T.autograd.grad(y, xt, create_graph=True)
        (g ** 2).sum().backward()
        res.append((y, xt.grad, wt.grad))
    for m, r in zip(*res):
        assert_same(m, r, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("loss", ["mse_loss", "l1_loss", "smooth_l1_loss"])
@pytest.mark.parametrize("reduction_", ["mean", "sum"])
def test_losses_reduce_large_inputs_like_torch(reftorch, loss, reduction_):
    a, b = _data(shape=(32, 3, 32, 32)), _data(shape=(32, 3, 32, 32), seed=3)
    mine = [torch.tensor(a, requires_grad=True), torch.tensor(b)]
    ref = [reftorch.tensor(a, requires_grad=True), reftorch.tensor(b)]
    out_m = getattr(torch.nn.functional, loss)(*mine, reduction=reduction_)
    out_r = getattr(reftorch.nn.functional, loss)(*ref, reduction=reduction_)
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
    out_m.backward()
    out_r.backward()
    assert_same(mine[0].grad, ref[0].grad, rtol=1e-5, atol=1e-8)


def test_cases_that_keep_mindspore_kernels(reftorch):
    """Integer inputs (int64 result), dtype=, float16 and small tensors take the MindSpore path, with torch's
    results."""
    xi = np.random.RandomState(4).randint(-5, 5, SHAPE)
    assert_same(torch.tensor(xi).sum(1), reftorch.tensor(xi).sum(1))
    x = _data()
    assert_same(torch.tensor(x).sum(0, dtype=torch.float64), reftorch.tensor(x).sum(0, dtype=reftorch.float64),
                rtol=1e-6, atol=1e-6)
    h = x[:4, :4].astype(np.float16)
    assert_same(torch.tensor(h).mean((1, 2)), reftorch.tensor(h).mean((1, 2)), rtol=1e-3, atol=1e-3)
    assert_same(torch.tensor(x[:2, :2, :2]).mean(), reftorch.tensor(x[:2, :2, :2]).mean(), rtol=1e-6, atol=1e-6)
    with pytest.raises(IndexError):
        torch.tensor(x).sum(4)
    with pytest.raises(RuntimeError, match="appears multiple times"):
        torch.tensor(x).sum((1, 1))


def test_no_autograd_node_without_grad():
    out = torch.tensor(_data()).sum(0)
    assert out.grad_fn is None and not out.requires_grad
    with torch.no_grad():
        assert torch.tensor(_data(), requires_grad=True).mean(1).grad_fn is None
