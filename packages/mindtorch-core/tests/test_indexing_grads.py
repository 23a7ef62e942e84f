"""Gradients of the host-computed indexing ops (scatter_reduce, index_reduce, put) and of the *_scatter ops,
against real PyTorch: forward values, first derivatives w.r.t. both the input and the source and, where torch
has them, second derivatives (create_graph=True). torch 1.12's derivatives are 2.13's for all of these."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

REDUCES = ("sum", "mean", "amax", "amin", "prod")


def _data(seed: int, shape: tuple, zeros: bool = True) -> np.ndarray:
    """Small integer values: ties between the reduced elements (amax/amin split the gradient among them) and,
    unless zeros=False, zero factors for prod."""
    rng = np.random.default_rng(seed)
    if zeros:
        return rng.integers(-2, 3, shape).astype(np.float64)
    return rng.choice([-2.0, -1.0, 0.5, 1.0, 2.0], shape)


def _index(dim: int) -> np.ndarray:
    """Duplicate indices along `dim` of a (4, 3) input: every output row/column but one receives several."""
    if dim == 0:
        return np.array([[0, 2, 0], [2, 2, 1], [0, 1, 0], [3, 2, 2], [0, 0, 1]])
    return np.array([[0, 0, 2, 0], [1, 2, 1, 1], [2, 2, 2, 0], [0, 1, 0, 0]])


def _grads(t, x, s, y, create_graph=False):
    w = t.tensor(np.arange(1.0, y.numel() + 1).reshape(tuple(y.shape)) % 5 + 1, dtype=y.dtype)
    # y*y: the first derivatives depend on y, so that they have derivatives of their own
    return t.autograd.grad((y * y * w).sum(), [x, s], create_graph=create_graph)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_scatter_reduce_values_and_grads(reftorch, reduce, include_self, dim, dtype):
    idx = _index(dim)
    xd, sd = _data(1, (4, 3)), _data(2 + dim, idx.shape)
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, dtype=getattr(t, dtype), requires_grad=True)
        s = t.tensor(sd, dtype=getattr(t, dtype), requires_grad=True)
        y = x.scatter_reduce(dim, t.tensor(idx), s, reduce, include_self=include_self)
        out.append((y, *_grads(t, x, s, y)))
    assert_same(out[0], out[1])


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", REDUCES)
def test_scatter_reduce_second_derivatives(reftorch, reduce, include_self):
    idx = _index(0)
    xd, sd = _data(3, (4, 3), zeros=False), _data(4, idx.shape, zeros=False)
    xd[0, 0] = 0.0  # a zero self factor (prod's masked_self)
    sd[1, 2] = 0.0  # one zero src factor in a product (prod's single-zero branch)
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, requires_grad=True)
        s = t.tensor(sd, requires_grad=True)
        y = x.scatter_reduce(0, t.tensor(idx), s, reduce, include_self=include_self)
        gx, gs = _grads(t, x, s, y, create_graph=True)
        out.append((gx, gs, *t.autograd.grad((gx * gx).sum() + (gs * gs).sum(), [x, s])))
    assert_same(out[0], out[1])


def test_scatter_reduce_prod_double_backward_refused_with_several_zeros(reftorch):
    # torch's DelayedError: several zeros meet in one product, src's gradient is not differentiable again
    msg = "Double backward is unsupported for src when >1 zeros in src are scattered to the same position"
    for t in (torch, reftorch):
        x = t.tensor([1.0, 2.0], requires_grad=True)
        s = t.tensor([0.0, 0.0, 3.0], requires_grad=True)
        y = x.scatter_reduce(0, t.tensor([0, 0, 1]), s, "prod")
        gx, gs = t.autograd.grad(y.sum(), [x, s], create_graph=True)
        assert gs.detach().numpy().tolist() == [0.0, 0.0, 2.0]
        with pytest.raises(RuntimeError, match=msg):
            t.autograd.grad(gs.sum(), [s])


@pytest.mark.parametrize("reduce", ["amax", "amin", "mean", "sum"])
def test_scatter_reduce_gnn_aggregation(reftorch, reduce):
    # message passing: node features aggregated from edge messages, nodes without edges stay 0 (include_self=False)
    rng = np.random.default_rng(5)
    n, d = 6, 4
    dst = np.array([0, 2, 2, 3, 0, 2, 5, 3, 0])
    feats, wd = rng.standard_normal((n, d)), rng.standard_normal((d, d))
    src_node = np.array([1, 0, 3, 2, 4, 5, 0, 1, 1])
    out = []
    for t in (torch, reftorch):
        h = t.tensor(feats, dtype=t.float32, requires_grad=True)
        w = t.tensor(wd, dtype=t.float32, requires_grad=True)
        msg = (h @ w)[t.tensor(src_node)]
        idx = t.tensor(dst)
        agg = t.zeros(n, d).scatter_reduce(0, idx.unsqueeze(1).expand(-1, d), msg, reduce, include_self=False)
        (agg.tanh() * t.arange(1.0, n * d + 1).reshape(n, d)).sum().backward()
        out.append((agg, h.grad, w.grad))
    assert_same(out[0], out[1], rtol=1e-5)


def test_scatter_reduce_inplace_and_larger_src(reftorch):
    idx = _index(1)
    xd, sd = _data(6, (4, 3)), _data(7, (4, 5))  # src wider than index: only src[:, :4] is read
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, requires_grad=True)
        s = t.tensor(sd, requires_grad=True)
        y = x * 1
        assert y.scatter_reduce_(1, t.tensor(idx), s[:, :4], "amax", include_self=False) is y
        (y * t.arange(12.0).reshape(4, 3)).sum().backward()
        out.append((y, x.grad, s.grad))
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            t.tensor(xd, requires_grad=True).scatter_reduce_(1, t.tensor(idx), s[:, :4], "sum")
    assert_same(out[0], out[1])
    # a src larger than index: its gradient is zero outside the part read (torch raises instead: its
    # gradient has index's shape, "ScatterReduceBackward0 returned an invalid gradient")
    x = torch.tensor(xd, requires_grad=True)
    s = torch.tensor(sd, requires_grad=True)
    x.scatter_reduce(1, torch.tensor(idx), s, "sum").sum().backward()
    assert_same(s.grad[:, :4], reftorch.ones(4, 4, dtype=reftorch.float64))
    assert_same(s.grad[:, 4], reftorch.zeros(4, dtype=reftorch.float64))


def test_scatter_reduce_without_grad_records_nothing():
    x = torch.zeros(4, 3)
    y = x.scatter_reduce(0, torch.tensor(_index(0)), torch.ones(5, 3), "amax", include_self=False)
    assert not y.requires_grad and y.grad_fn is None
    x = torch.zeros(4, 3, requires_grad=True)
    with torch.no_grad():
        y = x.scatter_reduce(0, torch.tensor(_index(0)), torch.ones(5, 3), "prod")
    assert not y.requires_grad and y.grad_fn is None


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_values_and_grads(reftorch, reduce, include_self, dtype):
    xd, sd = _data(8, (4, 3)), _data(9, (4, 5))
    idx = np.array([2, 0, 2, 2, 0])
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, dtype=getattr(t, dtype), requires_grad=True)
        s = t.tensor(sd, dtype=getattr(t, dtype), requires_grad=True)
        y = x.index_reduce(1, t.tensor(idx), s, reduce, include_self=include_self)
        out.append((y, *_grads(t, x, s, y)))
    assert_same(out[0], out[1])


@pytest.mark.parametrize("accumulate", [False, True])
def test_put_values_and_grads(reftorch, accumulate):
    xd = _data(10, (3, 4))
    # negative indices count from the end; duplicates only when accumulating (else the winner is unspecified)
    idx = np.array([[1, -1], [5, 1]]) if accumulate else np.array([[1, -1], [5, 0]])
    sd = _data(11, (4,))
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, requires_grad=True)
        s = t.tensor(sd, requires_grad=True)
        y = x.put(t.tensor(idx), s, accumulate=accumulate)
        gx, gs = _grads(t, x, s, y, create_graph=True)
        z = x * 1
        z.put_(t.tensor(idx), s * 2, accumulate=accumulate)
        out.append((y, gx, gs, *t.autograd.grad((gx * gx).sum() + (gs * gs).sum() + z.sum(), [x, s])))
    assert_same(out[0], out[1])


def test_put_errors(reftorch):
    cases = [
        (lambda t: t.zeros(3, 4).put(t.tensor([1, 2]), t.ones(3)), "same number of elements"),
        (lambda t: t.zeros(3, 4).put(t.tensor([1, 12]), t.ones(2)), "tried to access index 12 on a tensor of 12"),
        (lambda t: t.zeros(3, 4).put(t.tensor([1, -13]), t.ones(2)), "tried to access index -13 on a tensor of"),
        (lambda t: t.zeros(3, 4).put(t.tensor([1, 2]), t.ones(2, dtype=t.float64)), "self.dtype = Float and "
                                                                                      "source.dtype = Double"),
        (lambda t: t.zeros(3, 4).put(t.tensor([1, 2]).int(), t.ones(2)), "Expected a long tensor for index, but "
                                                                          "got Int"),
        (lambda t: t.zeros(0).put(t.tensor([0]), t.ones(1)), "Tried to put elements into an empty tensor"),
    ]
    for op, msg in cases:
        errors = []
        for t in (torch, reftorch):
            with pytest.raises((IndexError, RuntimeError), match=msg) as info:
                op(t)
            errors.append((info.type, str(info.value)))
        assert errors[0] == errors[1]


@pytest.mark.parametrize("shape,offset,dim1,dim2", [
    ((3, 3), 0, 0, 1), ((3, 5), 1, 0, 1), ((5, 3), -2, 0, 1), ((3, 5), 2, 1, 0),
    ((2, 3, 4), 0, 0, 2), ((2, 3, 4), -1, -1, 1), ((3, 2, 4, 2), 1, 1, 3), ((3, 2, 4, 2), 0, 2, 3)])
def test_diagonal_scatter_values_and_grads(reftorch, shape, offset, dim1, dim2):
    # raised while the input required grad: the write went into a diagonal view
    xd = _data(12, shape)
    sd = _data(13, tuple(np.zeros(shape).diagonal(offset, dim1, dim2).shape))
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, requires_grad=True)
        s = t.tensor(sd, requires_grad=True)
        y = t.diagonal_scatter(x, s, offset, dim1, dim2)
        gx, gs = _grads(t, x, s, y, create_graph=True)
        out.append((y, gx, gs, *t.autograd.grad((gx * gx).sum() + (gs * gs).sum(), [x, s])))
    assert_same(out[0], out[1])


def test_select_and_slice_scatter_grads(reftorch):
    xd = _data(14, (4, 3, 2))
    out = []
    for t in (torch, reftorch):
        x = t.tensor(xd, requires_grad=True)
        s1 = t.tensor(_data(15, (4, 2)), requires_grad=True)
        s2 = t.tensor(_data(16, (2, 3, 2)), requires_grad=True)
        y = t.slice_scatter(t.select_scatter(x, s1, 1, -1), s2, 0, 1, None, 2)
        gx, g1, g2 = t.autograd.grad((y * y).sum(), [x, s1, s2], create_graph=True)
        out.append((y, gx, g1, g2, *t.autograd.grad((gx * g2.sum()).sum() + (g1 * g1).sum(), [x, s1, s2])))
    assert_same(out[0], out[1])


def test_scatter_ops_check_src_size(reftorch):
    # torch 1.12 as 2.13: src must have the slot's exact shape (it was broadcast, or failed inside MindSpore)
    cases = [
        lambda t: t.diagonal_scatter(t.zeros(3, 4), t.ones(2)),
        lambda t: t.diagonal_scatter(t.zeros(2, 3, 4), t.ones(3, 2), 0, 1, 2),
        lambda t: t.select_scatter(t.zeros(3, 4), t.ones(3), 0, 0),
        lambda t: t.slice_scatter(t.zeros(3, 4), t.ones(1, 4), 0, 0, 2),
        lambda t: t.slice_scatter(t.zeros(3, 4), t.ones(3, 1), 1, None, None, 2),
    ]
    for op in cases:
        errors = []
        for t in (torch, reftorch):
            with pytest.raises(RuntimeError, match="expected src to have a size equal to the slice of self") as info:
                op(t)
            errors.append(str(info.value))
        assert errors[0] == errors[1]


def test_bfloat16_gradients(reftorch):
    # MindSpore 2.10 has no CPU bfloat16 GatherD/Equal/TensorScatter* kernels: the backward runs in float32 (no
    # slicing here: bfloat16 slice/select backward has no MindSpore CPU kernel either)
    xd, sd, pd, dd = _data(17, (4, 3)), _data(18, (5, 3)), _data(19, (2,)), _data(20, (3,))
    out = []
    for t in (torch, reftorch):
        x, s, p, d = (t.tensor(v, dtype=t.bfloat16, requires_grad=True) for v in (xd, sd, pd, dd))
        y = x.scatter_reduce(0, t.tensor(_index(0)), s, "amax", include_self=False)
        y = y + x.put(t.tensor([1, -2]), p) + t.diagonal_scatter(x, d)
        (y.float() * t.arange(12.0).reshape(4, 3)).sum().backward()
        out.append((y, x.grad, s.grad, p.grad, d.grad))
    assert_same(out[0], out[1])


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")
def test_reduce_argument_errors(reftorch):
    cases = [
        (lambda t: t.zeros(3).scatter_reduce(0, t.tensor([0]), t.ones(1, dtype=t.float64), "amax"),
         RuntimeError, "Expected self.dtype to be equal to src.dtype"),
        (lambda t: t.zeros(3).scatter_reduce(0, t.tensor([0]), 1.0, "amax"), TypeError, "must be Tensor, not float"),
        (lambda t: t.zeros(3).index_reduce(0, t.tensor([0]), t.ones(1, dtype=t.float64), "amax"), RuntimeError,
         "self \\(Float\\) and source \\(Double\\) must have the same scalar type"),
    ]
    for op, kind, msg in cases:
        errors = []
        for t in (torch, reftorch):
            with pytest.raises(kind, match=msg) as info:
                op(t)
            errors.append(str(info.value))
        assert errors[0] == errors[1]
