"""Both training styles of the manual on one model, vs real PyTorch 2.13:
PyTorch style (`loss.backward(); optimizer.step()`) and the manual's functional style
(`ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)` then `optimizer(grads)`),
alternating in one process in either order."""
import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

RNG = np.random.default_rng(1)
INIT = [RNG.standard_normal(s).astype(np.float32) * 0.5 for s in ((6, 8), (8,), (8, 3), (3,))]
X = RNG.standard_normal((10, 6)).astype(np.float32)
Y = RNG.standard_normal((10, 3)).astype(np.float32)


def build(T):
    class MLP(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.w1, self.b1, self.w2, self.b2 = (T.nn.Parameter(T.tensor(a.copy())) for a in INIT)

        def forward(self, x):
            h = (x @ self.w1 + self.b1).sigmoid()
            return h @ self.w2 + self.b2

    return MLP()


def mse(out, y):
    return ((out - y) ** 2).mean()


def ref_grads(reftorch, steps=0, lr=0.1):
    net = build(reftorch)
    opt = reftorch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
    x, y = reftorch.tensor(X), reftorch.tensor(Y)
    for _ in range(steps):
        opt.zero_grad()
        mse(net(x), y).backward()
        opt.step()
    opt.zero_grad()
    loss = mse(net(x), y)
    loss.backward()
    return loss, [p.grad for p in net.parameters()], list(net.parameters())


def test_same_gradients_in_both_styles(reftorch):
    rloss, rgrads, _ = ref_grads(reftorch)
    net = build(torch)
    x, y = torch.tensor(X), torch.tensor(Y)
    loss = mse(net(x), y)
    loss.backward()
    assert_same(loss.detach(), rloss)
    assert_same([p.grad for p in net.parameters()], rgrads)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)

    def forward_fn(data, label):
        logits = net(data)
        return mse(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters, has_aux=True)
    (loss2, logits), grads = grad_fn(x, y)
    assert_same(loss2, rloss)
    assert_same(list(grads), rgrads)
    assert tuple(logits.shape) == (10, 3)


@pytest.mark.parametrize("order", ["backward_first", "functional_first"])
def test_styles_alternate_in_one_process(reftorch, order):
    """5 training steps alternating the two styles equal 5 torch steps (SGD with momentum)."""
    _, rgrads, rparams = ref_grads(reftorch, steps=5)
    net = build(torch)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    x, y = torch.tensor(X), torch.tensor(Y)
    def forward_fn(a, b):
        logits = net(a)
        return mse(logits, b), logits

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters, has_aux=True)
    styles = ["backward", "functional"] * 3
    if order == "functional_first":
        styles = styles[1:] + styles[:1]
    for style in styles[:5]:
        if style == "backward":
            opt.zero_grad()
            mse(net(x), y).backward()
            opt.step()
        else:
            _, grads = grad_fn(x, y)
            opt(grads)
    for p, r in zip(net.parameters(), rparams):
        assert_same(p.detach(), r, rtol=1e-5)
    opt.zero_grad()
    mse(net(x), y).backward()
    assert_same([p.grad for p in net.parameters()], rgrads, rtol=1e-5)


def test_backward_after_value_and_grad_without_module_call():
    """value_and_grad switches MindSpore's tape off; a tensor asking for grad switches it back on."""
    w = torch.tensor([1.0, 2.0])
    ms.value_and_grad(lambda v: (v * v).sum())(w)
    w.requires_grad_()
    (w * w).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])


def test_no_grad_evaluation_between_steps(reftorch):
    net = build(torch)
    x, y = torch.tensor(X), torch.tensor(Y)
    with torch.no_grad():
        out = net(x)
    assert not out.requires_grad and out.grad_fn is None
    loss = mse(net(x), y)
    assert loss.requires_grad
    loss.backward()
    _, rgrads, _ = ref_grads(reftorch)
    assert_same([p.grad for p in net.parameters()], rgrads)


def _copy_weights(mine, ref):
    """Give `mine` (mindtorch) the initial weights of `ref` (torch), by parameter name."""
    sd = {k: torch.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()}
    mine.load_state_dict(sd)


@pytest.mark.parametrize("kind", ["cnn", "lstm"])
def test_small_cnn_and_lstm_grads_both_styles(reftorch, kind):
    """Same initial weights and data -> same gradients as torch, with loss.backward() and ms.value_and_grad."""
    def build_model(T):
        if kind == "cnn":
            return T.nn.Sequential(T.nn.Conv2d(1, 3, 3), T.nn.ReLU(), T.nn.MaxPool2d(2), T.nn.Flatten(),
                                   T.nn.Linear(3 * 3 * 3, 4))

        class Seq(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = T.nn.LSTM(3, 5, batch_first=True)
                self.head = T.nn.Linear(5, 4)

            def forward(self, x):
                out, _ = self.lstm(x)
                return self.head(out[:, -1])

        return Seq()

    rng = np.random.default_rng(3)
    xs = rng.standard_normal((2, 1, 8, 8) if kind == "cnn" else (2, 6, 3)).astype(np.float32)
    labels = np.array([1, 3])
    reftorch.manual_seed(0)
    ref = build_model(reftorch)
    mine = build_model(torch)
    _copy_weights(mine, ref)
    rloss = reftorch.nn.CrossEntropyLoss()(ref(reftorch.tensor(xs)), reftorch.tensor(labels))
    rloss.backward()
    rgrads = {k: p.grad for k, p in ref.named_parameters()}

    loss_fn = torch.nn.CrossEntropyLoss()
    x, t = torch.tensor(xs), torch.tensor(labels)
    loss = loss_fn(mine(x), t)
    loss.backward()
    assert_same(loss.detach(), rloss, rtol=1e-5)
    for k, p in mine.named_parameters():
        assert_same(p.grad, rgrads[k], rtol=1e-4, atol=1e-5)
    names = [k for k, _ in mine.named_parameters()]
    opt = torch.optim.SGD(mine.parameters(), lr=0.1)
    (loss2, _), grads = ms.value_and_grad(lambda a, b: (loss_fn(mine(a), b), a), None, opt.parameters,
                                          has_aux=True)(x, t)
    assert_same(loss2, rloss, rtol=1e-5)
    for k, g in zip(names, grads):
        assert_same(g, rgrads[k], rtol=1e-4, atol=1e-5)


def _linear_steps(t, style, steps=4):
    """SGD with momentum on a Linear stack: zero_grad()/backward()/step() (or MindSpore's functional loop)."""
    rng = np.random.RandomState(3)
    w1, w2 = rng.randn(8, 5).astype(np.float32), rng.randn(3, 8).astype(np.float32)
    net = t.nn.Sequential(t.nn.Linear(5, 8), t.nn.ReLU(), t.nn.Linear(8, 3))
    with t.no_grad():
        net[0].weight.copy_(t.from_numpy(w1))
        net[2].weight.copy_(t.from_numpy(w2))
        net[0].bias.zero_()
        net[2].bias.zero_()
    opt = t.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
    xs = [rng.randn(6, 5).astype(np.float32) for _ in range(steps)]
    for x in xs:
        x = t.from_numpy(x)
        if style == "functional":
            import mindspore as ms

            loss, grads = ms.value_and_grad(lambda a: (net(a) ** 2).mean(), None, opt.parameters)(x)
            opt(grads)
        else:
            opt.zero_grad()  # torch 1.12 default: set_to_none=False, zero tensors stay in .grad
            (net(x) ** 2).mean().backward()
            opt.step()
    return [p.detach().numpy().copy() for p in net.parameters()]


@pytest.mark.parametrize("style", ["backward", "functional"])
def test_zero_grad_then_backward_matches_torch_over_steps(reftorch, style):
    """Regression: MindSpore 2.10 accumulated a non-contiguous incoming gradient (through transpose(w)) into an
    existing .grad ignoring strides; zero_grad() + backward() gave permuted Linear weight gradients."""
    for mine, ref in zip(_linear_steps(torch, style), _linear_steps(reftorch, "backward")):
        np.testing.assert_allclose(mine, ref, rtol=1e-5, atol=1e-6)


def test_gradient_accumulation_over_two_backwards_matches_torch(reftorch):
    def grads(t):
        rng = np.random.RandomState(4)
        lin = t.nn.Linear(4, 3)
        with t.no_grad():
            lin.weight.copy_(t.from_numpy(rng.randn(3, 4).astype(np.float32)))
            lin.bias.copy_(t.from_numpy(rng.randn(3).astype(np.float32)))
        for _ in range(2):  # no zero_grad in between: .grad accumulates
            (lin(t.from_numpy(rng.randn(5, 4).astype(np.float32))) ** 2).sum().backward()
        return lin.weight.grad.numpy().copy(), lin.bias.grad.numpy().copy()

    for mine, ref in zip(grads(torch), grads(reftorch)):
        np.testing.assert_allclose(mine, ref, rtol=1e-5, atol=1e-5)


def test_functional_loop_values_readable_with_numpy():
    """The manual's Step 2 prints `loss.numpy()` on value_and_grad's loss (MindSpore marks it as requiring grad)."""
    import mindspore as ms

    net = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x = torch.ones(3, 4)
    loss, grads = ms.value_and_grad(lambda a: net(a).sum(), None, opt.parameters)(x)
    assert np.isfinite(loss.numpy()) and x.numpy().shape == (3, 4)


def test_backward_on_plain_tensors_after_value_and_grad(reftorch):
    """value_and_grad switches MindSpore's tape off when it returns; plain tensor code (no Module, no optimizer)
    run afterwards must still record for loss.backward()."""
    import mindspore as ms

    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = torch.tensor([0.5, -1.0, 2.0])
    ms.value_and_grad(lambda a: (a * a).sum(), 0)(torch.ones(2))
    (w * x).sum().backward()
    rw = reftorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (rw * reftorch.tensor([0.5, -1.0, 2.0])).sum().backward()
    assert_same(w.grad, rw.grad)


def test_data_batch_does_not_require_grad_after_a_functional_step():
    """MindSpore's value_and_grad marks its inputs as requiring grad; mixing the styles on one batch must leave
    torch's state: the batch requires no grad and a later loss.backward() stores no gradient for it."""
    import mindspore as ms

    net = torch.nn.Linear(3, 2)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x = torch.randn(4, 3)
    loss, grads = ms.value_and_grad(lambda a: net(a).sum(), None, opt.parameters)(x)
    opt(grads)
    assert not x.requires_grad and x.is_leaf
    net(x).sum().backward()
    assert x.grad is None and net.weight.grad is not None
