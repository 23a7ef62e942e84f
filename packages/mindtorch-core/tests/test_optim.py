"""torch.optim vs real PyTorch 2.13: same weights after several steps of every optimizer, both call styles
(`loss.backward(); opt.step()` and the manual's `ms.value_and_grad` + `opt(grads)`), state_dict round trips,
param-group errors, and MindSpore's own optimizers on our parameters (the manual's Step 2.1)."""
import copy

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
import mindtorch.torch.nn as nn

RNG = np.random.default_rng(0)
W1, B1 = RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
W2, B2 = RNG.standard_normal((4, 2)).astype(np.float32), RNG.standard_normal(2).astype(np.float32)
X, Y = RNG.standard_normal((5, 3)).astype(np.float32), RNG.standard_normal((5, 2)).astype(np.float32)
STEPS = 6  # RAdam needs step 6 to reach its rectified branch with betas=(0.9, 0.99)


def loss_of(T, params, x, y):
    """A small MLP written with tensor methods shared by torch and mindtorch."""
    w1, b1, w2, b2 = params
    h = (x @ w1 + b1).tanh()
    return ((h @ w2 + b2 - y) ** 2).mean()


def make(T, P):
    params = [P(T.tensor(a.copy())) for a in (W1, B1, W2, B2)]
    return params, T.tensor(X), T.tensor(Y)


def groups(params, two_groups, extra):
    if not two_groups:
        return params
    return [{"params": params[:2]}, {"params": params[2:], **extra}]


CASES = [
    ("SGD", dict(lr=0.1), {}),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01), {}),
    ("SGD", dict(lr=0.01, momentum=0.9, nesterov=True, maximize=True), {"lr": 0.005}),  # maximize: small lr
    ("Adam", dict(lr=0.05), {}),
    ("Adam", dict(lr=0.05, amsgrad=True, weight_decay=0.1), {"lr": 0.01}),
    ("AdamW", dict(lr=0.05), {}),
    ("AdamW", dict(lr=0.05, amsgrad=True, weight_decay=0.1, maximize=True), {}),
    ("RMSprop", dict(lr=0.01), {}),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9, weight_decay=0.1), {"alpha": 0.9}),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.1), {}),
    ("Adadelta", dict(lr=1.0, rho=0.9, weight_decay=0.1), {}),
    ("Adamax", dict(lr=0.02, weight_decay=0.1), {}),
    ("NAdam", dict(lr=0.02, weight_decay=0.1), {}),
    ("RAdam", dict(lr=0.02, betas=(0.9, 0.99), weight_decay=0.1), {}),
    ("ASGD", dict(lr=0.05, t0=2, lambd=0.01, weight_decay=0.1), {}),
    ("Rprop", dict(lr=0.01), {}),
]


def run_torch(reftorch, name, kw, extra):
    # NAdam and SGD(maximize) follow torch 1.12, which 2.13 changed: the reference is 1.12's update (_torch112)
    from _torch112 import reference_optimizer

    params, x, y = make(reftorch, reftorch.nn.Parameter)
    opt = reference_optimizer(name, groups(params, bool(extra), extra), kw)
    for _ in range(STEPS):
        opt.zero_grad()
        loss_of(reftorch, params, x, y).backward()
        opt.step()
    return params, opt


@pytest.mark.parametrize("name,kw,extra", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_optimizer_matches_torch_both_styles(reftorch, name, kw, extra):
    ref_params, _ = run_torch(reftorch, name, kw, extra)
    # PyTorch style
    params, x, y = make(torch, nn.Parameter)
    ids = [id(p) for p in params]
    opt = getattr(torch.optim, name)(groups(params, bool(extra), extra), **kw)
    for _ in range(STEPS):
        opt.zero_grad()
        loss_of(torch, params, x, y).backward()
        opt.step()
    assert [id(p) for p in params] == ids and all(isinstance(p, ms.Parameter) for p in params)
    for p, r in zip(params, ref_params):
        assert_same(p.detach(), r, rtol=2e-5, atol=2e-6)
    # The manual's functional style
    params2, x2, y2 = make(torch, nn.Parameter)
    opt2 = getattr(torch.optim, name)(groups(params2, bool(extra), extra), **kw)
    grad_fn = ms.value_and_grad(lambda a, b: loss_of(torch, params2, a, b), None, opt2.parameters)
    for _ in range(STEPS):
        _, grads = grad_fn(x2, y2)
        opt2(grads)
    for p, r in zip(params2, ref_params):
        assert_same(p.detach(), r, rtol=2e-5, atol=2e-6)


def test_lbfgs_matches_torch(reftorch):
    def run(T, P):
        params, x, y = make(T, P)
        opt = T.optim.LBFGS(params, lr=0.5, max_iter=5, line_search_fn="strong_wolfe")

        def closure():
            opt.zero_grad()
            loss = loss_of(T, params, x, y)
            loss.backward()
            return loss

        for _ in range(2):
            opt.step(closure)
        return params

    for p, r in zip(run(torch, nn.Parameter), run(reftorch, reftorch.nn.Parameter)):
        assert_same(p.detach(), r, rtol=1e-4, atol=1e-5)


def test_state_dict_round_trip_resumes_identically(reftorch, tmp_path):
    params, x, y = make(torch, nn.Parameter)
    opt = torch.optim.Adam(params, lr=0.05, amsgrad=True)
    for _ in range(2):
        opt.zero_grad()
        loss_of(torch, params, x, y).backward()
        opt.step()
    sd = opt.state_dict()
    ref_params, ref_opt = run_torch(reftorch, "Adam", dict(lr=0.05, amsgrad=True), {})
    ref_sd = ref_opt.state_dict()
    # torch's format: int keys, 'step' as a float32 0-d tensor, group hyper-parameters with param indices
    assert sorted(sd["state"]) == sorted(ref_sd["state"]) == [0, 1, 2, 3]
    assert sorted(sd["state"][0]) == sorted(ref_sd["state"][0])
    assert_same(sd["state"][0]["step"], reftorch.tensor(2.0))
    assert sd["param_groups"][0]["params"] == ref_sd["param_groups"][0]["params"]
    # save to disk, resume in a fresh optimizer over a copy of the weights: continues identically
    path = tmp_path / "opt.pt"
    torch.save({"opt": sd, "params": [p.detach() for p in params]}, path)
    blob = torch.load(path)
    params2 = [nn.Parameter(t.clone()) for t in blob["params"]]
    opt2 = torch.optim.Adam(params2, lr=0.05, amsgrad=True)
    opt2.load_state_dict(blob["opt"])
    for o, ps in ((opt, params), (opt2, params2)):
        for _ in range(2):
            o.zero_grad()
            loss_of(torch, ps, x, y).backward()
            o.step()
    for a, b in zip(params, params2):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def test_load_state_dict_errors_and_hyperparams():
    params, _, _ = make(torch, nn.Parameter)
    opt = torch.optim.SGD(params, lr=0.1)
    other = torch.optim.SGD([{"params": params[:2]}, {"params": params[2:]}], lr=0.1)
    with pytest.raises(ValueError):
        opt.load_state_dict(other.state_dict())
    sd = copy.deepcopy(opt.state_dict())
    sd["param_groups"][0]["lr"] = 0.5
    opt.load_state_dict(sd)
    assert opt.param_groups[0]["lr"] == 0.5 and opt.param_groups[0]["params"][0] is params[0]


def test_param_group_errors_match_torch(reftorch):
    params, _, _ = make(torch, nn.Parameter)
    rparams, _, _ = make(reftorch, reftorch.nn.Parameter)
    cases = [
        lambda T, ps: T.optim.SGD([], lr=0.1),
        lambda T, ps: T.optim.SGD(ps, lr=-1.0),
        lambda T, ps: T.optim.SGD([{"params": ps}, {"params": ps[:1]}], lr=0.1),
        lambda T, ps: T.optim.SGD([(ps[0] * 2)], lr=0.1),
        lambda T, ps: T.optim.Adam(ps, betas=(1.0, 0.9)),
    ]
    for case in cases:
        with pytest.raises(Exception) as ref_err:
            case(reftorch, rparams)
        with pytest.raises(Exception) as my_err:
            case(torch, params)
        assert type(my_err.value) is type(ref_err.value), (my_err.value, ref_err.value)
    # torch 1.12: SGD's lr is required (ValueError); torch 2.x defaults it to 1e-3. We follow 1.12.
    with pytest.raises(ValueError):
        torch.optim.SGD(params)


def test_zero_grad_and_add_param_group(reftorch):
    params, x, y = make(torch, nn.Parameter)
    opt = torch.optim.SGD(params[:2], lr=0.1)
    opt.add_param_group({"params": params[2:], "lr": 0.01})
    assert len(opt.parameters) == 4 and opt.param_groups[1]["momentum"] == 0
    loss_of(torch, params, x, y).backward()
    opt.zero_grad()  # torch 1.12 default: set_to_none=False -> zero tensors (2.x sets None)
    assert all(float(abs(p.grad).sum()) == 0 for p in params)
    opt.zero_grad(set_to_none=True)
    assert all(p.grad is None for p in params)
    opt.step()  # no grads: nothing changes
    np.testing.assert_array_equal(params[0].detach().numpy(), W1)


def test_zero_grad_zeros_reach_backward_step_and_unused_params(reftorch):
    """zero_grad() (torch 1.12: set_to_none=False) gives zero gradients without a kernel (the zeros are made when
    read): backward then stores into them, and a parameter the next loss does not use still has a zero grad,
    so SGD's momentum and weight decay keep moving it exactly as in torch."""
    rng = np.random.RandomState(0)
    w0, u0, x = rng.randn(3, 2).astype(np.float32), rng.randn(2).astype(np.float32), rng.randn(4, 3).astype(np.float32)
    runs = []
    for T in (torch, reftorch):
        w, u = T.nn.Parameter(T.tensor(w0)), T.nn.Parameter(T.tensor(u0))
        opt = T.optim.SGD([w, u], lr=0.1, momentum=0.9, weight_decay=0.01)
        seen = []
        for step in range(3):
            # torch 1.12's default (set_to_none=False); torch 2.x changed the default to True
            opt.zero_grad() if T is torch else opt.zero_grad(set_to_none=False)
            loss = (T.tensor(x) @ w).pow(2).sum() + (u.sum() if step == 0 else 0)  # u used in step 0 only
            loss.backward()
            seen.append(u.grad.detach().numpy().copy())
            opt.step()
        runs.append((w.detach().numpy(), u.detach().numpy(), seen))
    (wm, um, gm), (wr, ur, gr) = runs
    np.testing.assert_allclose(wm, wr, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(um, ur, rtol=1e-5, atol=1e-6)
    for a, b in zip(gm, gr):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("make_opt", [lambda ps: ms.nn.SGD(ps, learning_rate=0.1),
                                      lambda ps: ms.nn.Momentum(ps, 0.1, 0.9)], ids=["SGD", "Momentum"])
def test_mindspore_optimizer_applies_backward_style_grads(make_opt):
    """MindSpore's own optimizers (jitted `construct`) called with mindtorch `.grad` tensors update mindtorch
    parameters: plain gradient descent on the first step for both (regression: the graph-mode eager fallback
    once ran MindSpore's jitted optimizer eagerly, where its in-place kernels left the weights unchanged)."""
    m = nn.Linear(3, 2)
    w0 = m.weight.detach().numpy().copy()
    opt = make_opt(list(m.parameters()))
    m(torch.from_numpy(np.arange(12, dtype=np.float32).reshape(4, 3))).sum().backward()
    g = m.weight.grad.numpy().copy()
    opt(tuple(p.grad for p in m.parameters()))
    np.testing.assert_allclose(m.weight.detach().numpy(), w0 - 0.1 * g, rtol=1e-6, atol=1e-6)


def test_mindspore_optimizer_on_our_model(reftorch):
    """The manual's Step 2.1: a MindSpore optimizer (with a per-step lr list) on mindtorch parameters."""
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1, self.b1, self.w2, self.b2 = (nn.Parameter(torch.tensor(a.copy())) for a in (W1, B1, W2, B2))

        def forward(self, x):
            return (x @ self.w1 + self.b1).tanh() @ self.w2 + self.b2

    net = Net()
    x, y = torch.tensor(X), torch.tensor(Y)
    lrs = [0.01, 0.02, 0.03]
    opt = ms.nn.RMSProp(net.trainable_params(), learning_rate=lrs)
    grad_fn = ms.value_and_grad(lambda a, b: ((net(a) - b) ** 2).mean(), None, opt.parameters)
    before = [p.detach().numpy().copy() for p in net.parameters()]
    for _ in range(3):
        loss, grads = grad_fn(x, y)
        opt(grads)
    after = [p.detach().numpy() for p in net.parameters()]
    assert all(not np.allclose(a, b) for a, b in zip(before, after))
    # the model's parameters are still ours, and backward style still works afterwards
    assert isinstance(net.w1, torch.Tensor)
    ((net(x) - y) ** 2).mean().backward()
    assert net.w1.grad is not None and tuple(net.w1.grad.shape) == (3, 4)


def test_functional_call_length_mismatch():
    params, x, y = make(torch, nn.Parameter)
    opt = torch.optim.SGD(params, lr=0.1)
    with pytest.raises(ValueError):
        opt(tuple(p * 0 for p in params[:2]))


def test_step_writes_large_parameters_in_place(reftorch):
    """Parameters are written in place (on CPU through numpy, see `_ms.copy_into`): same values as torch after
    several momentum steps on a large parameter, the same storage, views of the parameter see the update, and a
    graph that saved the parameter before the step raises torch's in-place error on backward."""
    rng = np.random.RandomState(3)
    w0, g = rng.randn(300, 400).astype(np.float32), rng.randn(300, 400).astype(np.float32)
    results = []
    for T in (torch, reftorch):
        p = T.nn.Parameter(T.tensor(w0.copy()))
        view, ptr = p.view(-1), p.data_ptr()
        opt = T.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=1e-2)
        for _ in range(3):
            p.grad = T.tensor(g)
            opt.step()
        assert p.data_ptr() == ptr
        np.testing.assert_array_equal(view.detach().numpy(), p.detach().numpy().reshape(-1))
        results.append(p.detach().numpy())
        saved = (T.ones(300, 400, requires_grad=True) * p).sum()
        p.grad = T.tensor(g)
        opt.step()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            saved.backward()
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-6)
