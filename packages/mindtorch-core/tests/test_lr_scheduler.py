"""torch.optim.lr_scheduler vs real PyTorch 2.13: every scheduler's lr (and momentum) sequence, state_dict round
trips, and that a scheduler's lr reaches the next update in both call styles."""

import mindspore as ms
import numpy as np
import pytest

import mindtorch.torch as torch
import mindtorch.torch.nn as nn

N_STEPS = 14


def _opt(T, name="SGD"):
    ps = [T.nn.Parameter(T.tensor(np.ones(2, np.float32))) for _ in range(2)]
    groups = [{"params": ps[:1]}, {"params": ps[1:], "lr": 0.05}]
    if name == "SGD":
        return T.optim.SGD(groups, lr=0.1, momentum=0.9)
    return T.optim.Adam(groups, lr=0.1)


def _factor(epoch):
    return 0.95 ** epoch


SCHEDULERS = {
    "StepLR": lambda S, o: S.StepLR(o, step_size=3, gamma=0.5),
    "MultiStepLR": lambda S, o: S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3),
    "ExponentialLR": lambda S, o: S.ExponentialLR(o, gamma=0.9),
    "CosineAnnealingLR": lambda S, o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001),
    "CosineAnnealingWarmRestarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01),
    "LambdaLR": lambda S, o: S.LambdaLR(o, lr_lambda=[_factor, lambda e: 1.0 / (e + 1)]),
    "MultiplicativeLR": lambda S, o: S.MultiplicativeLR(o, lr_lambda=_factor),
    "LinearLR": lambda S, o: S.LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=6),
    "ConstantLR": lambda S, o: S.ConstantLR(o, factor=0.5, total_iters=4),
    "PolynomialLR": lambda S, o: S.PolynomialLR(o, total_iters=8, power=2.0),
    "OneCycleLR": lambda S, o: S.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=N_STEPS + 1),
    "OneCycleLR-3phase-linear": lambda S, o: S.OneCycleLR(o, max_lr=1.0, total_steps=N_STEPS + 1, three_phase=True,
                                                          anneal_strategy="linear", pct_start=0.25),
    "CyclicLR": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=2),
    "CyclicLR-triangular2": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                                    mode="triangular2"),
    "CyclicLR-exp_range": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range",
                                                  gamma=0.9),
    # torch 1.12 and 2.13 differ for SequentialLR's initial lr when every sub-scheduler changes lr at
    # construction (2.x resets to initial_lr first); ConstantLR then ExponentialLR behaves the same in both.
    "SequentialLR": lambda S, o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=3),
                                                    S.ExponentialLR(o, gamma=0.8)], milestones=[4]),
    "ChainedScheduler": lambda S, o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=3),
                                                         S.ExponentialLR(o, gamma=0.9)]),
}


def _sequence(T, make, opt_name="SGD"):
    opt = _opt(T, opt_name)
    sched = make(T.optim.lr_scheduler, opt)
    out = [(list(sched.get_last_lr()), [g["lr"] for g in opt.param_groups],
            [g.get("momentum") for g in opt.param_groups])]
    for _ in range(N_STEPS):
        opt.step()
        sched.step()
        out.append((list(sched.get_last_lr()), [g["lr"] for g in opt.param_groups],
                    [g.get("momentum") for g in opt.param_groups]))
    return out, opt, sched


def _close(a, b):
    for (l1, g1, m1), (l2, g2, m2) in zip(a, b):
        np.testing.assert_allclose(l1, l2, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(g1, g2, rtol=1e-12, atol=1e-15)
        assert (m1[0] is None) == (m2[0] is None)
        if m1[0] is not None:
            np.testing.assert_allclose(m1, m2, rtol=1e-12)


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_lr_sequence_matches_torch(reftorch, name):
    mine, _, _ = _sequence(torch, SCHEDULERS[name])
    ref, _, _ = _sequence(reftorch, SCHEDULERS[name])
    assert len(mine) == len(ref) == N_STEPS + 1
    _close(mine, ref)


def test_onecycle_cycles_adam_beta1(reftorch):
    make = SCHEDULERS["OneCycleLR"]
    mine, opt, _ = _sequence(torch, make, "Adam")
    ref, ropt, _ = _sequence(reftorch, make, "Adam")
    _close(mine, ref)
    np.testing.assert_allclose([g["betas"] for g in opt.param_groups], [g["betas"] for g in ropt.param_groups])


def test_reduce_lr_on_plateau_matches_torch(reftorch):
    metrics = [1.0, 0.9, 0.9, 0.9, 0.95, 0.9, 0.91, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7]
    seqs = []
    for T in (torch, reftorch):
        opt = _opt(T)
        sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=[0.0, 0.02])
        seq = []
        for m in metrics:
            sched.step(m)
            seq.append([g["lr"] for g in opt.param_groups])
        seqs.append(seq)
    np.testing.assert_allclose(seqs[0], seqs[1], rtol=1e-12)
    with pytest.raises(ValueError):
        torch.optim.lr_scheduler.ReduceLROnPlateau(_opt(torch), factor=1.5)


@pytest.mark.parametrize("name", ["StepLR", "CosineAnnealingWarmRestarts", "OneCycleLR", "LambdaLR", "SequentialLR"])
def test_state_dict_round_trip(name):
    make = SCHEDULERS[name]
    opt = _opt(torch)
    sched = make(torch.optim.lr_scheduler, opt)
    for _ in range(5):
        opt.step()
        sched.step()
    sd = sched.state_dict()
    assert "optimizer" not in sd
    opt2 = _opt(torch)  # resume as torch scripts do: build everything, then load both states
    sched2 = make(torch.optim.lr_scheduler, opt2)
    opt2.load_state_dict(opt.state_dict())
    sched2.load_state_dict(sd)
    for _ in range(4):
        for o, s in ((opt, sched), (opt2, sched2)):
            o.step()
            s.step()
        assert sched.get_last_lr() == sched2.get_last_lr()
        assert [g["lr"] for g in opt.param_groups] == [g["lr"] for g in opt2.param_groups]


def test_step_with_epoch_uses_closed_form(reftorch):
    vals = []
    for T in (torch, reftorch):
        opt = _opt(T)
        sched = T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        with pytest.warns(UserWarning):
            sched.step(5)
        vals.append(sched.get_last_lr())
    assert vals[0] == pytest.approx(vals[1])


def test_scheduler_errors_match_torch(reftorch):
    for make in (lambda T: T.optim.lr_scheduler.StepLR(object(), 2),
                 lambda T: T.optim.lr_scheduler.CosineAnnealingWarmRestarts(_opt(T), T_0=0),
                 lambda T: T.optim.lr_scheduler.OneCycleLR(_opt(T), max_lr=1.0),
                 lambda T: T.optim.lr_scheduler.StepLR(_opt(T), 2, last_epoch=3)):
        with pytest.raises(Exception) as ref_err:
            make(reftorch)
        with pytest.raises(Exception) as my_err:
            make(torch)
        assert type(my_err.value) is type(ref_err.value)


def test_scheduled_lr_reaches_both_call_styles():
    """SGD without momentum: the update is exactly -lr * grad, so the lr each step used is observable."""
    def run(functional):
        w = nn.Parameter(torch.tensor(np.zeros(3, np.float32)))
        opt = torch.optim.SGD([w], lr=1.0)
        sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        grad_fn = ms.value_and_grad(lambda: (w * torch.tensor([1.0, 2.0, 3.0])).sum(), None, opt.parameters)
        deltas = []
        for _ in range(3):
            before = w.detach().numpy().copy()
            if functional:
                _, grads = grad_fn()
                opt(grads)
            else:
                opt.zero_grad()
                (w * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
                opt.step()
            deltas.append(float(before[0] - w.detach().numpy()[0]))
            sched.step()
        return deltas

    for functional in (False, True):
        assert run(functional) == pytest.approx([1.0, 0.5, 0.25]), functional
