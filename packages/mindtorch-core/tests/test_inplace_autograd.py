"""In-place ops on tensors that take part in autograd, compared with real torch: values and gradients where
torch succeeds, the same exception type where torch raises (the registry's `write_back` rule)."""
import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

ACTS = [("ReLU", {}), ("ReLU6", {}), ("Hardswish", {}), ("SiLU", {}), ("LeakyReLU", {"negative_slope": 0.1}),
        ("ELU", {}), ("Hardtanh", {}), ("Hardsigmoid", {})]


def _block(T, act, kw):
    return T.nn.Sequential(T.nn.Conv2d(2, 3, 3, padding=1), T.nn.BatchNorm2d(3),
                           getattr(T.nn, act)(inplace=True, **kw), T.nn.Conv2d(3, 2, 1))


def _copy_weights(mine, ref):
    mine.load_state_dict({k: torch.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})


@pytest.mark.parametrize("act,kw", ACTS, ids=[a for a, _ in ACTS])
def test_inplace_activation_in_conv_block_both_styles(reftorch, act, kw):
    xs = np.random.default_rng(0).standard_normal((2, 2, 5, 5)).astype(np.float32)
    reftorch.manual_seed(0)
    ref, mine = _block(reftorch, act, kw).train(), _block(torch, act, kw).train()
    _copy_weights(mine, ref)
    rx = reftorch.tensor(xs, requires_grad=True)
    rloss = (ref(rx) ** 2).mean()
    rloss.backward()
    x = torch.tensor(xs, requires_grad=True)
    loss = (mine(x) ** 2).mean()
    loss.backward()
    assert_same(loss.detach(), rloss, rtol=1e-5)
    assert_same(x.grad, rx.grad, rtol=1e-4, atol=1e-5)
    rgrads = {k: p.grad for k, p in ref.named_parameters()}
    for k, p in mine.named_parameters():
        assert_same(p.grad, rgrads[k], rtol=1e-4, atol=1e-5)
    # ms.value_and_grad style (BatchNorm's running stats moved once more: the loss uses batch stats in train mode)
    params = [p for _, p in mine.named_parameters()]
    loss2, grads = ms.value_and_grad(lambda a: (mine(a) ** 2).mean(), None, params)(torch.tensor(xs))
    assert_same(loss2, rloss, rtol=1e-5)
    for (k, _), g in zip(mine.named_parameters(), grads):
        assert_same(g, rgrads[k], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("fn", ["relu6", "hardswish", "silu", "elu", "hardsigmoid"])
def test_functional_inplace_on_non_leaf(reftorch, fn):
    xs = np.linspace(-4, 4, 12, dtype=np.float32).reshape(3, 4)

    def run(T):
        x = T.tensor(xs, requires_grad=True)
        y = x * 2
        out = getattr(T.nn.functional, fn)(y, inplace=True)
        assert out is y
        (out * out).sum().backward()
        return y.detach(), x.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r, rtol=1e-5, atol=1e-6)


CHAINS = {
    "add_mul": lambda y: y.add_(1).mul_(2),
    "add_mul_other": lambda y: y.add_(y.detach()).mul_(y * 1),
    "mul_sub_div": lambda y: y.mul_(2).sub_(0.5).div_(3),
    "pow_clamp": lambda y: y.pow_(2).clamp_(0.1, 3),
    "iadd_tensor": lambda y: y.__iadd__(y * 3),
}


@pytest.mark.parametrize("name", list(CHAINS))
def test_inplace_chains_where_torch_succeeds(reftorch, name):
    xs = np.array([[0.5, -1.0, 1.5], [2.0, -0.25, 0.75]], np.float32)

    def run(T):
        x = T.tensor(xs, requires_grad=True)
        w = T.tensor(xs[::-1].copy(), requires_grad=True)
        y = x * w
        CHAINS[name](y)
        (y * 3).sum().backward()
        return y.detach(), x.grad, w.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r, rtol=1e-5, atol=1e-6)


ERRORS = {
    # y saved by `y * w` (for w's grad) is overwritten later
    "saved_by_mul": lambda x: (lambda y: (lambda z: (y.add_(1), z)[1])(y * x))(x * 2),
    # y.mul_(y): mul saves its `other` (= y), which the write then overwrites
    "mul_by_self": lambda x: (lambda y: y.mul_(y))(x * 2),
    # in-place on a leaf that requires grad
    "leaf": lambda x: x.add_(1),
    "leaf_relu": lambda x: torch_or_ref(x).nn.functional.relu(x, inplace=True),
}


def torch_or_ref(x):
    import sys

    return torch if type(x).__module__.startswith("mindtorch") else sys.modules["torch"]


@pytest.mark.parametrize("name", list(ERRORS))
def test_inplace_errors_like_torch(reftorch, name):
    xs = np.array([0.5, -1.0, 1.5], np.float32)

    def run(T):
        x = T.tensor(xs, requires_grad=True)
        out = ERRORS[name](x)
        out.sum().backward()

    with pytest.raises(Exception) as ref_err:
        run(reftorch)
    with pytest.raises(type(ref_err.value)):
        run(torch)


@pytest.mark.parametrize("chain", ["sigmoid_mul", "sigmoid_exp", "exp_add"])
def test_overwritten_saved_output_raises_like_torch(reftorch, chain):
    """An op's saved OUTPUT (sigmoid, exp) overwritten in place: torch raises on backward, so do we; the same
    chain written out of place gives the same values and gradients."""
    xs = np.array([0.5, -1.0, 1.5], np.float32)
    steps = {"sigmoid_mul": ("sigmoid", "mul", 3), "sigmoid_exp": ("sigmoid", "exp", None),
             "exp_add": ("exp", "add", 1)}[chain]

    def run(T, inplace):
        x = T.tensor(xs, requires_grad=True)
        y = getattr(x, steps[0])()
        name = steps[1] + ("_" if inplace else "")
        y2 = getattr(y, name)() if steps[2] is None else getattr(y, name)(steps[2])
        if inplace:
            assert y2 is y
        (y2 * 2).sum().backward()
        return y2.detach(), x.grad

    with pytest.raises(RuntimeError):
        run(reftorch, True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        run(torch, True)
    for m, r in zip(run(torch, False), run(reftorch, False)):
        assert_same(m, r, rtol=1e-5, atol=1e-6)


def test_flatten_view_of_dropped_base_is_rebound(reftorch):
    """EfficientNet's classifier: flatten(pool(x)) then Dropout(inplace=True) in train mode (the base is gone)."""
    xs = np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype(np.float32)

    def run(T):
        x = T.tensor(xs, requires_grad=True)
        y = T.flatten(T.nn.functional.adaptive_avg_pool2d(x * 2, 1), 1)
        T.nn.functional.silu(y, inplace=True)
        y.mul_(3)
        (y * y).sum().backward()
        return y.detach(), x.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r, rtol=1e-5, atol=1e-6)


VIEW_WRITES = {
    "view.relu_": lambda T, x, y: y.view(6).relu_(),
    "row+=": lambda T, x, y: y[0].__iadd__(1),
    "getitem.mul_": lambda T, x, y: y[:, 1].mul_(2),
    "column*=tensor": lambda T, x, y: y[:, 0].__imul__(T.tensor([2.0, 3.0])),
    "select.zero_": lambda T, x, y: y.select(1, 2).zero_(),
    "row.add_": lambda T, x, y: y[0].add_(x[1] * 3),
    "t()[0].add_": lambda T, x, y: y.t()[0].add_(x[0, :2] * 3),
    "permute.mul_": lambda T, x, y: y.permute(1, 0).mul_(T.arange(6.0).reshape(3, 2)),
    "unsqueeze.clamp_": lambda T, x, y: y.unsqueeze(0).clamp_(min=2.5),
    "narrow.fill_": lambda T, x, y: y.narrow(1, -2, 2).fill_(0.5),
}


@pytest.mark.parametrize("name", sorted(VIEW_WRITES))
def test_inplace_on_view_with_live_base_writes_through(reftorch, name):
    """torch writes an in-place op on a view through to its base (CopySlices). MindSpore 2.10 loses a recorded
    write into most views, so mindtorch writes the base's new whole value (recorded) and rebinds the view:
    the base, the view and the gradients are torch's (`boxes[:, 0] *= w`, `y[0] += 1`)."""
    def run(T):
        x = T.tensor(np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3), requires_grad=True)
        y = x * 1
        v = VIEW_WRITES[name](T, x, y)
        (y * T.arange(6.0).reshape(2, 3)).sum().backward()
        return y.detach(), v.detach(), x.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r)


def test_slice_of_live_base_writes_through(reftorch):
    xs = np.array([[0.5, -1.0, 1.5], [2.0, -0.25, 0.75]], np.float32)

    def run(T):
        x = T.tensor(xs, requires_grad=True)
        base = x * 2
        base[0:1].mul_(3)
        base[:, 1:].add_(x[:, :2].detach() * 5)
        base.sum().backward()
        return base.detach(), x.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r)


def test_no_grad_inplace_on_parameters_writes_through_views(reftorch):
    """Optimizer-style updates: no_grad in-place on parameters (and on views of them) reach the parameter."""
    def run(T):
        lin = T.nn.Linear(3, 2)
        with T.no_grad():
            lin.weight.fill_(1.0)
            lin.weight.view(6)[1:3].mul_(5)
            lin.weight.t()[0].add_(2)
            lin.bias.zero_().add_(0.5)
        return lin.weight.detach(), lin.bias.detach()

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r)


def test_no_autograd_inplace_writes_same_storage(reftorch):
    """Without autograd the in-place path is unchanged: no copy, no rebinding - the tensor keeps its storage
    and every view of it sees the write (timings of this path: see the work report, no test on shared CPUs)."""
    def run(T):
        x = T.ones(2, 3)
        v = x.t()
        ptr = x.data_ptr()
        x.add_(1.0).mul_(3)
        T.nn.functional.relu(x, inplace=True)
        assert x.data_ptr() == ptr
        return x, v

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r)


@pytest.mark.parametrize("op", ["chunk", "unbind"])
def test_inplace_on_multi_output_views_raises_like_torch(reftorch, op):
    """torch refuses in-place on split/chunk/unbind outputs while autograd records; allowed under no_grad."""
    xs = np.arange(12, dtype=np.float32).reshape(4, 3) - 5

    def run(T, grad):
        x = T.tensor(xs, requires_grad=True)
        with T.set_grad_enabled(grad):
            parts = getattr(x * 2, op)(2) if op == "chunk" else (x * 2).unbind(0)
            parts[0].relu_()
        return parts[0]

    with pytest.raises(RuntimeError):
        run(reftorch, True)
    with pytest.raises(RuntimeError):
        run(torch, True)
    assert_same(run(torch, False), run(reftorch, False))


def test_ms_rebind_takes_storage_and_grad_node():
    """`_ms.rebind` (TensorPy.assign_value_cpp): same Python object, the value's storage and autograd node."""
    from mindtorch.torch import _ms

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    dst, value = x * 2, x * 3
    old_ptr = dst.data_ptr()
    _ms.rebind(dst, value)
    assert dst.data_ptr() == value.data_ptr() != old_ptr
    assert _ms.grad_node(dst) is not None and _ms.grad_node(dst).name() == _ms.grad_node(value).name()
    dst.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    assert _ms.lost_view_write(x * 2) is None
    assert _ms.lost_view_write((x * 2).view(2, 1)) is not None


def test_earlier_slice_of_whole_tensor_sees_inplace_write(reftorch):
    xs = np.array([[0.5, -1.0, 1.5], [2.0, -0.25, 0.75]], np.float32)

    def run(T):
        x = T.tensor(xs, requires_grad=True)
        y = x * 2
        v = y[1:]
        y.sub_(1).relu_()
        (y * 3).sum().backward()
        return v.detach(), y.detach(), x.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r)


def test_inplace_after_linear_on_3d_input(reftorch):
    """A transformer-style MLP: Linear on (N, L, C) (its result may be an internal reshape view) then in-place
    activation and dropout-free in-place scaling; values and gradients of input and parameters as torch."""
    xs = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(np.float32)

    ref = reftorch.nn.Linear(4, 5)
    mine = torch.nn.Linear(4, 5)
    mine.load_state_dict({k: torch.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})
    outs = []
    for T, m in ((torch, mine), (reftorch, ref)):
        x = T.tensor(xs, requires_grad=True)
        h = m(x)
        T.nn.functional.silu(h, inplace=True)
        h.mul_(2)
        (h * h).sum().backward()
        outs.append((h.detach(), x.grad, m.weight.grad, m.bias.grad))
    for a, b in zip(*outs):
        assert_same(a, b, rtol=1e-5, atol=1e-5)
