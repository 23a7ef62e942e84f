"""Ops that run numpy on the CPU target where MindSpore 2.10's CPU kernel is much slower (true division,
masked_fill, contiguous): values, dtypes and gradients against real torch, with and without autograd, below and
above the size from which the autograd path uses the host (`pointwise._HOST_DIV_MIN`), double backward."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch._ops import pointwise

_BIG = pointwise._HOST_DIV_MIN + 7  # the autograd node's path; small sizes keep MindSpore's recorded kernel


def _run(t, fn, arrays, grad=True, create_graph=False):
    ts = [t.tensor(a, requires_grad=grad and a.dtype.kind == "f") for a in arrays]
    y = fn(t, *ts)
    if not grad:
        return [y]
    leaves = [x for x in ts if x.requires_grad]
    if create_graph:
        gs = t.autograd.grad((y * y).sum(), leaves, create_graph=True)
        sum((g * g).sum() for g in gs).backward()
    else:  # (not y.sum(): the sum of a softmax has gradient 0, which rounding leaves at ~1e-7 either way)
        (y * y).sum().backward()
    return [y] + [x.grad for x in leaves]


def _compare(reftorch, fn, *arrays, grad=True, create_graph=False, rtol=2e-6, atol=1e-6):
    for m, r in zip(_run(torch, fn, arrays, grad, create_graph), _run(reftorch, fn, arrays, grad, create_graph)):
        assert_same(m, r, rtol=rtol, atol=atol)


DIV = [
    ("tensor / tensor", lambda T, x, y: x / y),
    ("tensor / scalar", lambda T, x, y: x / 3.0 + y),
    ("scalar / tensor", lambda T, x, y: 2.5 / y + x),
    ("tensor / 0-d", lambda T, x, y: x / y.sum()),
    ("tensor / broadcast", lambda T, x, y: x.view(-1, 1) / y[:4]),
    ("trunc", lambda T, x, y: T.div(x, y, rounding_mode="trunc") + x * y),
    ("float64", lambda T, x, y: x.double() / y.double()),
    ("strided view", lambda T, x, y: x[:-1:2] / y[1::2]),
]


@pytest.mark.parametrize("case", DIV, ids=[c[0] for c in DIV])
@pytest.mark.parametrize("n", [5, _BIG])
@pytest.mark.parametrize("mode", ["no_grad", "grad", "create_graph"])
def test_true_division(reftorch, case, n, mode):
    rng = np.random.RandomState(n)
    x, y = rng.randn(n).astype(np.float32), (rng.rand(n) + 0.5).astype(np.float32)
    # second order: MindSpore's recorded ops round differently from torch's fused backward (~1e-5 relative)
    tol = 1e-4 if mode == "create_graph" else 1e-5
    _compare(reftorch, case[1], x, y, grad=mode != "no_grad", create_graph=mode == "create_graph", rtol=tol, atol=tol)


def test_division_special_values_and_integers(reftorch):
    special = np.array([1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan], np.float32)
    for a, b in ((special, np.zeros(7, np.float32)), (special, special[::-1].copy())):
        assert_same(torch.tensor(a) / torch.tensor(b), reftorch.tensor(a) / reftorch.tensor(b), atol=0)
    assert_same(torch.arange(10) / 4, reftorch.arange(10) / 4)  # ints divide into the default float dtype
    assert_same(torch.arange(10, dtype=torch.float16) / 3, reftorch.arange(10, dtype=reftorch.float16) / 3,
                rtol=1e-3, atol=1e-3)
    x = torch.arange(6.0)
    y = x.div_(2.0)
    assert y is x
    assert_same(x, reftorch.arange(6.0) / 2)


MASKED_FILL = [  # input shape, mask shape
    ((4, 5), (4, 5)),
    ((32, 2, 16, 16), (1, 1, 16, 16)),  # attention scores under a causal mask, above the host size
    ((3,), ()),
    ((), ()),
]


@pytest.mark.parametrize("shapes", MASKED_FILL, ids=[str(s) for s in MASKED_FILL])
@pytest.mark.parametrize("mode", ["no_grad", "grad", "create_graph"])
def test_masked_fill(reftorch, shapes, mode):
    xs, ms_ = shapes
    rng = np.random.RandomState(3)
    x, m = np.asarray(rng.randn(*xs), np.float32), np.asarray(rng.rand(*ms_) > 0.5)

    def fn(T, t):
        if len(xs) > 1:  # a softmax over the unmasked scores, as attention does
            return T.softmax(t.masked_fill(T.tensor(m), float("-inf")), -1)
        return t.masked_fill(T.tensor(m), 3.0) * t

    _compare(reftorch, fn, x, grad=mode != "no_grad", create_graph=mode == "create_graph", rtol=1e-5, atol=1e-5)


def test_masked_fill_dtypes_in_place_and_tensor_value(reftorch):
    rng = np.random.RandomState(4)
    m = rng.rand(3, 4) > 0.5
    for dt in (np.int64, np.uint8, np.bool_, np.float64):
        x = (rng.rand(3, 4) * 5).astype(dt)
        assert_same(torch.tensor(x).masked_fill(torch.tensor(m), 1), reftorch.tensor(x).masked_fill(
            reftorch.tensor(m), 1))
    t, r = torch.zeros(2, 3), reftorch.zeros(2, 3)
    assert t.masked_fill_(torch.tensor([True, False, True]), 1.0) is t
    assert_same(t, r.masked_fill_(reftorch.tensor([True, False, True]), 1.0))
    vals = []
    xv = rng.randn(3, 4).astype(np.float32)
    for T in (torch, reftorch):  # a 0-d value that requires grad gets the masked positions' gradient sum
        x, v = T.tensor(xv), T.tensor(2.0, requires_grad=True)
        x.masked_fill(x > 0, v).sum().backward()
        vals.append(v.grad)
    assert_same(*vals)


@pytest.mark.parametrize("mode", ["no_grad", "grad", "create_graph"])
def test_contiguous_of_views(reftorch, mode):
    x = np.random.RandomState(5).randn(4, 6, 8).astype(np.float32)
    for fn in (lambda T, t: t.transpose(0, 2).contiguous() * T.arange(48.0).view(8, 6, 1),
               lambda T, t: t[:, ::2].contiguous().view(-1) ** 2,
               lambda T, t: t.view(4, 6, 2, 4).transpose(1, 2).contiguous().view(4, 2, 24)):
        _compare(reftorch, fn, x, grad=mode != "no_grad", create_graph=mode == "create_graph")
    c = torch.tensor(x).transpose(0, 1).contiguous()
    assert c.is_contiguous() and tuple(c.stride()) == (32, 8, 1)
    assert torch.ones(2, 3, dtype=torch.int64).t().contiguous().dtype == torch.int64
