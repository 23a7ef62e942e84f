"""Training state moving between real PyTorch and mindtorch: optimizers, lr schedulers and checkpoints.

A user trains in PyTorch, saves {'model', 'optimizer', 'scheduler', 'epoch'} with torch.save, and resumes in
mindtorch (and the reverse): the resumed run must follow the trajectory the original framework would have
followed. mindtorch follows torch 1.12; where real torch 2.13 (the reference here) changed behaviour, the
reference is 1.12's update transcribed in `_torch112` and the 1.12 layout is asserted explicitly (commented).
"""
import io
import math
import pathlib
import pickle
import warnings

import numpy as np
import pytest

import mindtorch.torch as mt

torch = pytest.importorskip("torch")
from _torch112 import reference_optimizer  # noqa: E402  (needs real torch)

RNG = np.random.default_rng(7)
W1, B1 = RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
W2 = RNG.standard_normal((4, 2)).astype(np.float32)
UNUSED = RNG.standard_normal(2).astype(np.float32)  # a parameter no loss uses: it never gets a gradient
X, Y = RNG.standard_normal((6, 3)).astype(np.float32), RNG.standard_normal((6, 2)).astype(np.float32)
HALF = 6  # steps before the checkpoint; as many after it


def _params(T, arrays=(W1, B1, W2, UNUSED)):
    return [T.nn.Parameter(T.tensor(np.array(a))) for a in arrays]


def _loss(params, x, y):
    w1, b1, w2, _ = params
    return (((x @ w1 + b1).tanh() @ w2 - y) ** 2).mean()


def _groups(params, g0, g1):
    return [{"params": params[:2], **g0}, {"params": params[2:], **g1}]


def _train(T, opt, params, steps):
    x, y = T.tensor(X), T.tensor(Y)
    for _ in range(steps):
        opt.zero_grad()
        _loss(params, x, y).backward()
        opt.step()


def _save_torch(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return io.BytesIO(buf.getvalue())


def _save_mt(obj, **kw):
    buf = io.BytesIO()
    mt.save(obj, buf, **kw)
    return io.BytesIO(buf.getvalue())


def _np(t):
    return t.detach().numpy()


# name, constructor kwargs, group-0 options, group-1 options (every group has its own settings)
OPTIMIZERS = [
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01, foreach=False),
     {}, {"nesterov": True, "dampening": 0, "lr": 0.02}),
    ("SGD", dict(lr=0.05), {}, {"momentum": 0.5}),  # momentum 0 in group 0: 1.12 keeps momentum_buffer=None
    # maximize with weight decay: 1.12 flips only the final update (torch 1.13+ flips the gradient first)
    ("SGD", dict(lr=0.01, momentum=0.5, weight_decay=0.1, maximize=True), {}, {"lr": 0.005}),
    ("Adam", dict(lr=0.02, amsgrad=True, weight_decay=0.05, foreach=False), {}, {"maximize": True, "lr": 0.002}),
    ("AdamW", dict(lr=0.02, betas=(0.8, 0.95)), {"amsgrad": True}, {"weight_decay": 0.3}),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1), {"weight_decay": 0.1}, {"eps": 1e-6}),
    ("Adadelta", dict(lr=1.0, rho=0.8, foreach=False), {"weight_decay": 0.1}, {"maximize": True, "lr": 0.1}),
    ("Adamax", dict(lr=0.02), {"weight_decay": 0.1}, {"betas": (0.5, 0.9)}),
    ("ASGD", dict(lr=0.05, lambd=0.01, t0=3, weight_decay=0.1), {}, {"alpha": 0.5}),
    ("NAdam", dict(lr=0.02, weight_decay=0.1), {}, {"momentum_decay": 0.01}),
    ("RAdam", dict(lr=0.02, betas=(0.9, 0.99), weight_decay=0.1), {}, {"lr": 0.01}),
    ("RMSprop", dict(lr=0.01, alpha=0.9), {"centered": True, "momentum": 0.9}, {"weight_decay": 0.1}),
    ("Rprop", dict(lr=0.01), {}, {"etas": (0.4, 1.5), "step_sizes": (1e-4, 1.0)}),
]

# torch 1.12.1's param-group keys (its `defaults`), and which state entries it keeps as Python ints.
KEYS_112 = {
    "SGD": {"lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize", "foreach"},
    "Adam": {"lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach", "capturable"},
    "AdamW": {"lr", "betas", "eps", "weight_decay", "amsgrad", "foreach", "maximize", "capturable"},
    "Adagrad": {"lr", "lr_decay", "eps", "weight_decay", "initial_accumulator_value", "foreach", "maximize"},
    "Adadelta": {"lr", "rho", "eps", "weight_decay", "maximize", "foreach"},
    "Adamax": {"lr", "betas", "eps", "weight_decay", "foreach", "maximize"},
    "ASGD": {"lr", "lambd", "alpha", "t0", "weight_decay", "foreach"},
    "NAdam": {"lr", "betas", "eps", "weight_decay", "momentum_decay", "foreach"},
    "RAdam": {"lr", "betas", "eps", "weight_decay", "foreach"},
    "RMSprop": {"lr", "momentum", "alpha", "eps", "centered", "weight_decay", "foreach"},
    "Rprop": {"lr", "etas", "step_sizes", "foreach"},
}
INT_STEP_112 = {"Adadelta", "RMSprop", "Rprop"}  # torch 2.x made these float32 0-d tensors too


def _make_opt(T, name, params, kw, g0, g1):
    groups = _groups(params, g0, g1)
    return reference_optimizer(name, groups, kw) if T is torch else getattr(mt.optim, name)(groups, **kw)


def _assert_state_dict_like_112(name, mine, ref):
    """`mine` (mindtorch) has torch 1.12's layout; `ref` is the reference's (same data, 2.13 layout)."""
    assert [g["params"] for g in mine["param_groups"]] == [[0, 1], [2, 3]]
    for g in mine["param_groups"]:
        assert set(g) - {"params", "initial_lr"} == KEYS_112[name], set(g) ^ KEYS_112[name]
    for g, r in zip(mine["param_groups"], ref["param_groups"]):
        for k in KEYS_112[name]:
            assert g[k] == r[k], (k, g[k], r[k])
    # the unused parameter (index 3) got no gradient: no state, as in torch (Adagrad creates it up front)
    assert sorted(mine["state"]) == ([0, 1, 2, 3] if name == "Adagrad" else [0, 1, 2])
    assert set(ref["state"]) <= set(mine["state"])
    for i, st in mine["state"].items():
        rst = ref["state"].get(i, {})
        if name == "SGD" and rst == {}:  # torch 2.x drops the None buffers 1.12 records
            assert st == {"momentum_buffer": None}
            continue
        assert list(st) == list(rst), (list(st), list(rst))
        for key, v in st.items():
            r = rst[key]
            if key == "step" and name in INT_STEP_112:
                assert type(v) is int and v == int(r.item())  # 1.12: a Python int
            elif r is None:
                assert v is None
            else:
                assert isinstance(v, mt.Tensor), key
                assert str(v.dtype) == str(r.dtype) and tuple(v.shape) == tuple(r.shape), key
                np.testing.assert_allclose(_np(v), r.detach().numpy(), rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name,kw,g0,g1", OPTIMIZERS, ids=[f"{c[0]}-{i}" for i, c in enumerate(OPTIMIZERS)])
def test_optimizer_checkpoint_moves_both_ways(name, kw, g0, g1):
    # torch: 2 * HALF steps straight through (the trajectory both resumed runs must follow)
    tp = _params(torch)
    topt = _make_opt(torch, name, tp, kw, g0, g1)
    _train(torch, topt, tp, HALF)
    torch_ckpt = _save_torch({"model": {f"p{i}": p for i, p in enumerate(tp)}, "optimizer": topt.state_dict(),
                              "epoch": HALF})
    _train(torch, topt, tp, HALF)

    # mindtorch from scratch: the same first half; its state_dict has torch 1.12's structure
    mp = _params(mt)
    mopt = _make_opt(mt, name, mp, kw, g0, g1)
    _train(mt, mopt, mp, HALF)
    ref_half = torch.load(io.BytesIO(torch_ckpt.getvalue()), weights_only=True)
    for p, r in zip(mp, ref_half["model"].values()):
        np.testing.assert_allclose(_np(p), r.detach().numpy(), rtol=1e-5, atol=1e-6)
    _assert_state_dict_like_112(name, mopt.state_dict(), ref_half["optimizer"])

    # torch -> mindtorch: load torch's checkpoint, continue
    ck = mt.load(torch_ckpt)
    assert ck["epoch"] == HALF
    rp = [mt.nn.Parameter(ck["model"][f"p{i}"].detach().clone()) for i in range(4)]
    ropt = _make_opt(mt, name, rp, kw, g0, g1)
    ropt.load_state_dict(ck["optimizer"])
    _train(mt, ropt, rp, HALF)
    for p, r in zip(rp, tp):
        np.testing.assert_allclose(_np(p), r.detach().numpy(), rtol=1e-5, atol=1e-6)

    # mindtorch -> torch: real torch loads our file (weights_only=True) and continues like mindtorch does
    ours = _save_mt({"model": {f"p{i}": p for i, p in enumerate(mp)}, "optimizer": mopt.state_dict(),
                     "epoch": HALF})
    _train(mt, mopt, mp, HALF)
    back = torch.load(ours, weights_only=True)
    bp = [torch.nn.Parameter(back["model"][f"p{i}"].detach().clone()) for i in range(4)]
    bopt = _make_opt(torch, name, bp, kw, g0, g1)
    bopt.load_state_dict(back["optimizer"])
    _train(torch, bopt, bp, HALF)
    for p, r in zip(mp, bp):
        np.testing.assert_allclose(_np(p), r.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert bp[3].grad is None and np.array_equal(bp[3].detach().numpy(), UNUSED)


def test_lbfgs_state_moves_both_ways():
    def closure_for(T, opt, params):
        x, y = T.tensor(X), T.tensor(Y)

        def closure():
            opt.zero_grad()
            loss = _loss(params, x, y)
            loss.backward()
            return loss
        return closure

    def make(T, params):
        return T.optim.LBFGS(params[:3], lr=0.5, max_iter=4, history_size=3, line_search_fn="strong_wolfe")

    tp = _params(torch)
    topt = make(torch, tp)
    topt.step(closure_for(torch, topt, tp))
    ckpt = _save_torch({"model": [p.detach() for p in tp], "optimizer": topt.state_dict()})
    topt.step(closure_for(torch, topt, tp))

    ck = mt.load(ckpt)
    mp = [mt.nn.Parameter(t.clone()) for t in ck["model"]]
    mopt = make(mt, mp)
    mopt.load_state_dict(ck["optimizer"])
    mopt.step(closure_for(mt, mopt, mp))
    for p, r in zip(mp[:3], tp[:3]):
        np.testing.assert_allclose(_np(p), r.detach().numpy(), rtol=1e-4, atol=1e-5)
    sd = mopt.state_dict()
    assert set(sd["state"]) == {0} and sd["state"][0]["n_iter"] == 8  # keyed by the first parameter, as torch
    assert list(sd["state"][0]) == list(topt.state_dict()["state"][0])  # the same entries, in torch's order
    back = torch.load(_save_mt(sd), weights_only=True)
    assert isinstance(back["state"][0]["ro"][0], torch.Tensor) and back["state"][0]["d"].shape == (3 * 4 + 4 + 8,)


def test_optimizer_api_details_match_1_12():
    params = _params(mt)
    opt = mt.optim.SGD(params[:2], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": params[2], "lr": 0.01})  # a single tensor is wrapped in a list
    assert opt.param_groups[1]["params"] == [params[2]] and opt.param_groups[1]["momentum"] == 0.9
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [params[0]]})
    with pytest.warns(UserWarning, match="duplicate parameters"):
        mt.optim.SGD([params[3], params[3]], lr=0.1)
    _loss(params, mt.tensor(X), mt.tensor(Y)).backward()
    opt.zero_grad()  # torch 1.12's default set_to_none=False: zeros where a grad exists, None stays None
    assert all(float(abs(p.grad).sum()) == 0 for p in params[:3]) and params[3].grad is None
    opt.zero_grad(set_to_none=True)
    assert all(p.grad is None for p in params)
    # newer keywords are accepted; options 1.12 lacks are stored only when set (torch 1.13+ scripts)
    assert "maximize" not in mt.optim.RMSprop(params, foreach=True).param_groups[0]
    assert mt.optim.RMSprop(params, maximize=True).param_groups[0]["maximize"] is True
    mt.optim.Adam(params, foreach=True, capturable=False, differentiable=False, fused=None)
    for name in KEYS_112:  # every optimizer takes torch 1.12's `foreach` (the single-tensor update runs)
        kw = {"lr": 0.1} if name == "SGD" else {}
        assert getattr(mt.optim, name)(params, foreach=True, **kw).param_groups[0]["foreach"] is True
    # state dicts of any torch version load: a 2.13 one carries keys 1.12 never had, and tensor steps
    tp = _params(torch)
    t_opt = torch.optim.RMSprop(tp, lr=0.01, momentum=0.5)
    _train(torch, t_opt, tp, 2)
    m_opt = mt.optim.RMSprop(_params(mt), lr=0.01, momentum=0.5)
    m_opt.load_state_dict(mt.load(_save_torch(t_opt.state_dict())))
    sd = m_opt.state_dict()
    assert sd["state"][0]["step"] == 2 and type(sd["state"][0]["step"]) is int
    assert sd["param_groups"][0]["differentiable"] is False  # kept, as torch keeps unknown group keys


def _sign_momentum_optimizer(T):
    """A user's own optimizer (torch style: subclass, own step(), tensor state including a tensor `step`)."""
    class SignMomentum(T.optim.Optimizer):
        def __init__(self, params, lr=0.01, beta=0.9):
            super().__init__(params, dict(lr=lr, beta=beta))

        @T.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if not state:
                        state["step"] = T.tensor(0.0)
                        state["m"] = T.zeros_like(p)
                    state["step"] += 1
                    state["m"].mul_(group["beta"]).add_(p.grad, alpha=1 - group["beta"])
                    p.add_(state["m"].sign() / state["step"].sqrt(), alpha=-group["lr"])
    return SignMomentum


def test_user_optimizer_subclass_state_moves_both_ways():
    tp = _params(torch)
    topt = _sign_momentum_optimizer(torch)(tp, lr=0.05)
    _train(torch, topt, tp, 3)
    ckpt = _save_torch(topt.state_dict())
    _train(torch, topt, tp, 3)
    mp = [mt.nn.Parameter(mt.tensor(p.detach().numpy())) for p in _params(torch)]
    mopt = _sign_momentum_optimizer(mt)(mp, lr=0.05)
    _train(mt, mopt, mp, 3)
    ours = _save_mt(mopt.state_dict())
    resumed = _sign_momentum_optimizer(mt)(mp, lr=0.05)
    resumed.load_state_dict(mt.load(ckpt))  # its state comes back as tensors, as its step() expects
    assert isinstance(resumed.state_dict()["state"][0]["step"], mt.Tensor)
    _train(mt, resumed, mp, 3)
    for p, r in zip(mp, tp):
        np.testing.assert_allclose(_np(p), r.detach().numpy(), rtol=1e-5, atol=1e-6)
    back = torch.load(ours, weights_only=True)
    assert back["state"][0]["step"] == 3 and back["state"][0]["m"].shape == (3, 4)


# ============================================================================================ lr schedulers
N = 50
SCHEDULERS = {
    "StepLR": lambda S, o: S.StepLR(o, step_size=7, gamma=0.5),
    "MultiStepLR": lambda S, o: S.MultiStepLR(o, milestones=[5, 20, 20, 33], gamma=0.3),
    "ConstantLR": lambda S, o: S.ConstantLR(o, factor=0.5, total_iters=12),
    "LinearLR": lambda S, o: S.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=30),
    "ExponentialLR": lambda S, o: S.ExponentialLR(o, gamma=0.95),
    "CosineAnnealingLR": lambda S, o: S.CosineAnnealingLR(o, T_max=12, eta_min=0.001),
    "CosineAnnealingWarmRestarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2, eta_min=0.01),
    "CyclicLR": lambda S, o: S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=6, step_size_down=4,
                                        base_momentum=0.7, max_momentum=0.95),
    "CyclicLR-exp_range": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=5, mode="exp_range",
                                                  gamma=0.97, cycle_momentum=False),
    "OneCycleLR": lambda S, o: S.OneCycleLR(o, max_lr=[1.0, 0.5], epochs=5, steps_per_epoch=N // 5 + 1),
    "LambdaLR": lambda S, o: S.LambdaLR(o, lr_lambda=[_decay, _inverse]),
    "MultiplicativeLR": lambda S, o: S.MultiplicativeLR(o, lr_lambda=_decay),
    "SequentialLR": lambda S, o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=8),
                                                    S.ExponentialLR(o, gamma=0.9)], milestones=[10]),
    "ChainedScheduler": lambda S, o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=8),
                                                         S.ExponentialLR(o, gamma=0.95)]),
    # torch 1.13 added PolynomialLR; mindtorch provides it too (nothing in a 1.12 script names it)
    "PolynomialLR": lambda S, o: S.PolynomialLR(o, total_iters=40, power=2.0),
}


def _decay(epoch):
    return 0.97 ** epoch


def _inverse(epoch):
    return 1.0 / (epoch + 1)


def _sched_opt(T):
    p = [T.nn.Parameter(T.tensor(np.ones(2, np.float32))) for _ in range(2)]
    return T.optim.SGD([{"params": p[:1]}, {"params": p[1:], "lr": 0.05}], lr=0.1, momentum=0.9), p


def _run_sched(T, opt, params, sched, steps):
    seq = []
    for _ in range(steps):
        opt.zero_grad()
        sum(p.sum() for p in params).backward()
        opt.step()
        sched.step()
        seq.append((list(sched.get_last_lr()), [g["momentum"] for g in opt.param_groups]))
    return seq


@pytest.mark.filterwarnings("ignore:The epoch parameter")  # SequentialLR's own step(0) at its milestone
@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_sequence_and_checkpoint_interop(name):
    make = SCHEDULERS[name]
    S_t, S_m = torch.optim.lr_scheduler, mt.optim.lr_scheduler
    topt, tp = _sched_opt(torch)
    tsched = make(S_t, topt)
    ref = _run_sched(torch, topt, tp, tsched, N // 2)
    ckpt = _save_torch({"optimizer": topt.state_dict(), "scheduler": tsched.state_dict(), "epoch": N // 2})
    ref += _run_sched(torch, topt, tp, tsched, N - N // 2)

    mopt, mp = _sched_opt(mt)
    msched = make(S_m, mopt)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the right call order warns about nothing (SequentialLR's step(0) aside)
        if name == "SequentialLR":
            warnings.filterwarnings("ignore", "The epoch parameter")
        mine = _run_sched(mt, mopt, mp, msched, N)
    assert len(mine) == len(ref) == N
    for (lr, mom), (rlr, rmom) in zip(mine, ref):
        np.testing.assert_allclose(lr, rlr, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(mom, rmom, rtol=1e-12)

    # torch -> mindtorch: resume from torch's mid-run checkpoint, the rest of the sequence is torch's
    ck = mt.load(ckpt)
    ropt, rp = _sched_opt(mt)
    rsched = make(S_m, ropt)
    ropt.load_state_dict(ck["optimizer"])
    rsched.load_state_dict(ck["scheduler"])
    resumed = _run_sched(mt, ropt, rp, rsched, N - N // 2)
    for (lr, mom), (rlr, rmom) in zip(resumed, ref[N // 2:]):
        np.testing.assert_allclose(lr, rlr, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(mom, rmom, rtol=1e-12)

    # mindtorch -> torch: real torch resumes from our mid-run checkpoint (weights_only=True) identically
    mopt, mp = _sched_opt(mt)
    msched = make(S_m, mopt)
    _run_sched(mt, mopt, mp, msched, N // 2)
    ours = _save_mt({"optimizer": mopt.state_dict(), "scheduler": msched.state_dict(), "epoch": N // 2})
    back = torch.load(ours, weights_only=True)
    bopt, bp = _sched_opt(torch)
    bsched = make(S_t, bopt)
    bopt.load_state_dict(back["optimizer"])
    bsched.load_state_dict(back["scheduler"])
    for (lr, _), (rlr, _) in zip(_run_sched(torch, bopt, bp, bsched, N - N // 2), ref[N // 2:]):
        np.testing.assert_allclose(lr, rlr, rtol=1e-12, atol=1e-15)


def test_reduce_lr_on_plateau_interop():
    metrics = [1.0, 0.9, 0.9, 0.9, 0.95, 0.9, 0.91, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.4, 0.4, 0.4, 0.4, 0.4]
    runs = []
    for T in (torch, mt):
        opt, _ = _sched_opt(T)
        s = T.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, cooldown=1,
                                                   min_lr=[0.0, 0.02], threshold_mode="abs", threshold=0.01)
        runs.append((opt, s, [s.step(m) or [g["lr"] for g in opt.param_groups] for m in metrics[:9]]))
    (topt, ts, tseq), (mopt, ms_, mseq) = runs
    assert mseq == tseq
    # torch's state -> ours, ours -> torch: both continue identically
    ms_.load_state_dict(mt.load(_save_torch(ts.state_dict())))
    mopt.load_state_dict(mt.load(_save_torch(topt.state_dict())))
    rest_t, rest_m = [], []
    for m in metrics[9:]:
        ts.step(m)
        ms_.step(m)
        rest_t.append([g["lr"] for g in topt.param_groups])
        rest_m.append([g["lr"] for g in mopt.param_groups])
    assert rest_m == rest_t
    back = torch.load(_save_mt(ms_.state_dict()), weights_only=True)
    assert back["best"] == ts.state_dict()["best"] and back["num_bad_epochs"] == ts.num_bad_epochs


def test_scheduler_warnings_match_torch():
    for T in (torch, mt):
        opt, _ = _sched_opt(T)
        sched = T.optim.lr_scheduler.StepLR(opt, step_size=2)
        with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"):
            sched.step()
        with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
            sched.step(3)
        with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
            sched.get_lr()
        opt2, _ = _sched_opt(T)
        sched2 = T.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.5)
        opt2.step = lambda closure=None: None  # replaced after the scheduler wrapped it
        with pytest.warns(UserWarning, match="has been overridden after learning rate scheduler initialization"):
            sched2.step()


def test_functional_step_counts_for_the_order_check():
    import mindspore as ms

    opt, params = _sched_opt(mt)
    sched = mt.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    grad_fn = ms.value_and_grad(lambda: sum(p.sum() for p in params), None, opt.parameters)
    _, grads = grad_fn()
    opt(grads)  # the manual's style is an optimizer step too: no order warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched.step()
    assert sched.get_last_lr() == [0.05, 0.025]


def test_schedulers_resume_with_last_epoch_like_1_12():
    """Constructed with last_epoch >= 0 (resuming without a state dict), torch 1.12's CosineAnnealingLR starts on
    its closed form at last_epoch + 1 (torch 2.x restarts from the initial lr instead, so the reference here is
    the closed form); torch 1.12's LinearLR also accepts start_factor=0, which torch 1.13+ refuses."""
    opt, p = _sched_opt(mt)
    for g in opt.param_groups:
        g["initial_lr"] = g["lr"]
    sched = mt.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=4)
    seq = [sched.get_last_lr()] + [s[0] for s in _run_sched(mt, opt, p, sched, 8)]
    closed = [[base * (1 + math.cos(math.pi * e / 10)) / 2 for base in (0.1, 0.05)] for e in range(5, 14)]
    np.testing.assert_allclose(seq, closed, rtol=1e-12, atol=1e-15)
    opt, _ = _sched_opt(mt)
    sched = mt.optim.lr_scheduler.LinearLR(opt, start_factor=0.0, total_iters=4)
    assert sched.get_last_lr() == [0.0, 0.0]


# ============================================================================================== checkpoints
def _storage_ptr(t):
    import mindspore as ms

    return ms.Tensor.untyped_storage(t).data_ptr()


def _checkpoint_mt():
    """Every kind of value a training checkpoint holds, made by mindtorch."""
    base = mt.arange(24, dtype=mt.float32).reshape(4, 6)
    lin = mt.nn.Linear(3, 2)
    opt = mt.optim.Adam(lin.parameters(), lr=0.01)
    lin(mt.ones(1, 3)).sum().backward()
    opt.step()
    return {
        "model": lin.state_dict(), "optimizer": opt.state_dict(), "param": mt.nn.Parameter(mt.ones(3)),
        "base": base, "row": base[1], "cols": base[:, 2:5], "t": base.t(),  # views of one storage, saved once
        "i64": mt.tensor([1, -2, 3]), "bool": mt.tensor([True, False]), "f16": mt.tensor([0.5, -1.25],
                                                                                       dtype=mt.float16),
        "bf16": mt.tensor([1.5, -3.0], dtype=mt.bfloat16), "zero_d": mt.tensor(2.5), "empty": mt.zeros(0, 3),
        "epoch": 3, "loss": 0.25, "name": "run", "flags": (True, None), "nested": {"a": [1, {"b": (2.0, "c")}]},
    }


def _check_against_mt(ref, mine):
    for k in ("base", "row", "cols", "t", "i64", "bool", "f16", "zero_d", "empty", "param"):
        assert str(ref[k].dtype).split(".")[-1] == str(mine[k].dtype).split(".")[-1], k
        np.testing.assert_array_equal(ref[k].detach().numpy(), mine[k].detach().numpy(), err_msg=k)
    assert ref["bf16"].dtype == torch.bfloat16 and ref["bf16"].float().tolist() == [1.5, -3.0]
    assert ref["row"].untyped_storage().data_ptr() == ref["base"].untyped_storage().data_ptr()
    assert ref["t"].stride() == (1, 6) and ref["cols"].storage_offset() == 2
    assert isinstance(ref["param"], torch.nn.Parameter)
    for k in ("epoch", "loss", "name", "flags", "nested"):
        assert ref[k] == mine[k], k
    assert ref["optimizer"]["state"][0]["step"].dtype == torch.float32 and ref["optimizer"]["state"][0]["step"] == 1
    lin = torch.nn.Linear(3, 2)
    lin.load_state_dict(ref["model"])
    topt = torch.optim.Adam(lin.parameters(), lr=0.01)
    topt.load_state_dict(ref["optimizer"])


@pytest.mark.parametrize("zipfile_format", [True, False], ids=["zip", "legacy"])
def test_checkpoint_mindtorch_to_torch(zipfile_format, tmp_path):
    mine = _checkpoint_mt()
    path = tmp_path / "ckpt.pt"
    mt.save(mine, path, _use_new_zipfile_serialization=zipfile_format)  # a pathlib path
    _check_against_mt(torch.load(path, weights_only=True), mine)
    _check_against_mt(torch.load(str(path), weights_only=False), mine)
    # numpy arrays and scalars: full unpickling only, in real torch 2.13 as here
    withnp = _save_mt({"arr": np.arange(4.0), "np_scalar": np.float32(1.5), "t": mine["base"]},
                      _use_new_zipfile_serialization=zipfile_format)
    back = torch.load(withnp, weights_only=False)
    np.testing.assert_array_equal(back["arr"], np.arange(4.0))
    assert back["np_scalar"] == np.float32(1.5) and type(back["np_scalar"]) is np.float32
    withnp.seek(0)
    with pytest.raises(pickle.UnpicklingError):
        torch.load(withnp, weights_only=True)
    withnp.seek(0)
    with pytest.raises(pickle.UnpicklingError):
        mt.load(withnp)  # mindtorch's default is weights_only=True (1.12 had no such argument; the safe default)
    withnp.seek(0)
    assert mt.load(withnp, weights_only=False)["np_scalar"] == np.float32(1.5)


@pytest.mark.parametrize("zipfile_format", [True, False], ids=["zip", "legacy"])
def test_checkpoint_torch_to_mindtorch_every_map_location(zipfile_format, tmp_path):
    base = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    lin = torch.nn.Linear(2, 2)
    ref = {"base": base, "view": base[1:, ::2], "i64": torch.tensor([5, 6]), "f16": torch.ones(2, dtype=torch.half),
           "bf16": torch.full((2,), 0.5, dtype=torch.bfloat16), "zero_d": torch.tensor(True),
           "empty": torch.empty(0, dtype=torch.int64), "param": torch.nn.Parameter(torch.ones(2)),
           "model": lin.state_dict(), "nested": [{"k": (1, 2.5)}], "arr": np.ones(2)}
    path = pathlib.Path(tmp_path) / "ref.pt"
    torch.save(ref, path, _use_new_zipfile_serialization=zipfile_format)
    for ml in (None, "cpu", mt.device("cpu"), {"cuda:0": "cpu"}, lambda storage, loc: storage):
        for source in (path, str(path), io.BytesIO(path.read_bytes())):
            got = mt.load(source, map_location=ml, weights_only=False)
            for k in ("base", "view", "i64", "f16", "zero_d", "empty"):
                assert str(got[k].dtype).split(".")[-1] == str(ref[k].dtype).split(".")[-1], k
                np.testing.assert_array_equal(got[k].numpy(), ref[k].numpy(), err_msg=k)
            assert got["bf16"].float().tolist() == [0.5, 0.5]
            assert _storage_ptr(got["view"]) == _storage_ptr(got["base"])  # one storage, as in the file
            assert isinstance(got["param"], mt.nn.Parameter) and got["nested"] == ref["nested"]
            np.testing.assert_array_equal(got["arr"], ref["arr"])
            mlin = mt.nn.Linear(2, 2)
            mlin.load_state_dict(got["model"])
            np.testing.assert_array_equal(_np(mlin.weight), lin.weight.detach().numpy())
