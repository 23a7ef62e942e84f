"""Mini versions of official PyTorch examples (reinforcement_learning, regression, imagenet utilities,
fast_neural_style loading) run under mindtorch and compared with real PyTorch, plus the bugs they found."""
import os
import random

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
import mindtorch.torch.nn.functional as F


def _load(model, torch_mod, sd):
    model.load_state_dict({k: torch_mod.from_numpy(v.copy()) for k, v in sd.items()})
    return model


# ----------------------------------------------------------------------------- reinforcement_learning
def _policy(T):
    class Policy(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.affine1 = T.nn.Linear(4, 16)
            self.affine2 = T.nn.Linear(16, 2)
            self.value_head = T.nn.Linear(16, 1)

        def forward(self, x):
            x = T.nn.functional.relu(self.affine1(x))
            return T.nn.functional.softmax(self.affine2(x), dim=1), self.value_head(x)

    return Policy()


def _rl_episode(T, sd, states, actions, actor_critic):
    """One REINFORCE / actor-critic update as the example does it; actions sampled by mindtorch are replayed."""
    from importlib import import_module

    dist = import_module(T.__name__ + ".distributions")
    policy = _load(_policy(T), T, sd)
    opt = T.optim.Adam(policy.parameters(), lr=3e-2)
    eps = np.finfo(np.float32).eps.item()
    saved, rewards = [], []
    for i, s in enumerate(states):
        probs, value = policy(T.from_numpy(s).float().unsqueeze(0))
        m = dist.Categorical(probs)
        action = m.sample()
        assert action.shape == (1,) and isinstance(action.item(), int)
        if actions[i] is None:
            actions[i] = action.item()
        action = T.tensor([actions[i]])
        saved.append((m.log_prob(action), value[0]))
        rewards.append(float(abs(s[0]) < 1))
    R, returns = 0, []
    for r in rewards[::-1]:
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = T.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    opt.zero_grad()
    if actor_critic:
        pl = [-lp * (R - v.item()) for (lp, v), R in zip(saved, returns)]
        vl = [T.nn.functional.smooth_l1_loss(v, T.tensor([R])) for (_, v), R in zip(saved, returns)]
        loss = T.stack(pl).sum() + T.stack(vl).sum()
    else:
        loss = T.cat([-lp * R for (lp, _), R in zip(saved, returns)]).sum()
    loss.backward()
    grad = policy.affine1.weight.grad.numpy().copy()
    opt.step()
    del saved[:]
    return loss, returns, grad, policy.affine2.weight


@pytest.mark.parametrize("actor_critic", [False, True])
def test_reinforce_and_actor_critic_step_match_torch(reftorch, actor_critic):
    reftorch.manual_seed(0)
    sd = {k: v.numpy().copy() for k, v in _policy(reftorch).state_dict().items()}
    states = list(np.random.RandomState(0).randn(6, 4) * 1.2)  # float64, as gym's states
    actions = [None] * len(states)
    mine = _rl_episode(torch, sd, states, actions, actor_critic)
    ref = _rl_episode(reftorch, sd, states, actions, actor_critic)
    assert_same(mine[0], ref[0], rtol=1e-4, atol=1e-6)
    assert_same(mine[1], ref[1], rtol=1e-5)
    np.testing.assert_allclose(mine[2], ref[2], rtol=1e-4, atol=1e-6)
    assert_same(mine[3], ref[3], rtol=1e-4, atol=1e-6)


# ----------------------------------------------------------------------------------------- regression
def test_polynomial_regression_manual_sgd_matches_torch(reftorch):
    rng = np.random.RandomState(0)
    w_np, b_np = rng.randn(4, 1).astype(np.float32) * 5, rng.randn(1).astype(np.float32) * 5
    batches = [rng.randn(16).astype(np.float32) for _ in range(3)]
    reftorch.manual_seed(0)
    sd = {k: v.numpy().copy() for k, v in reftorch.nn.Linear(4, 1).state_dict().items()}

    def run(T):
        w, b = T.from_numpy(w_np), T.from_numpy(b_np)
        fc = _load(T.nn.Linear(w.size(0), 1), T, sd)
        losses = []
        for bx in batches:
            x = T.from_numpy(bx).unsqueeze(1)
            x = T.cat([x ** i for i in range(1, 5)], 1)
            y = x.mm(w) + b.item()
            fc.zero_grad()
            out = T.nn.functional.smooth_l1_loss(fc(x), y)
            losses.append(out.item())
            out.backward()
            for param in fc.parameters():
                param.data.add_(-0.1 * param.grad)
            fc.weight.grad.data.zero_()
        desc = " ".join("{:+.2f}".format(v) for v in fc.weight.view(-1)) + " {:+.2f}".format(fc.bias[0])
        return losses, desc, fc.weight, fc.bias.grad

    mine, ref = run(torch), run(reftorch)
    np.testing.assert_allclose(mine[0], ref[0], rtol=1e-5)
    assert mine[1] == ref[1]
    assert_same(mine[2], ref[2], rtol=1e-5)
    assert_same(mine[3], ref[3], rtol=1e-5)


# ----------------------------------------------------------------------------------- imagenet utilities
def _accuracy(T, output, target, topk=(1,)):
    with T.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        return [correct[:k].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / batch_size) for k in topk]


def test_imagenet_accuracy_matches_torch(reftorch):
    out = np.random.RandomState(1).randn(16, 10).astype(np.float32)
    tgt = np.random.RandomState(2).randint(0, 10, 16)
    mine = _accuracy(torch, torch.from_numpy(out), torch.from_numpy(tgt), topk=(1, 5))
    ref = _accuracy(reftorch, reftorch.from_numpy(out), reftorch.from_numpy(tgt), topk=(1, 5))
    assert_same(mine, ref)
    assert "{:6.2f}".format(mine[1][0]) == "{:6.2f}".format(ref[1][0])


def _tiny_net(T):
    nn = T.nn
    return nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                         nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(4, 10))


def _imagenet_train(T, sd, batches, epochs, ckpt_dir, resume=None):
    T.backends.cudnn.benchmark = True
    device = T.device("cuda") if T.cuda.is_available() else T.device("cpu")
    model = _load(_tiny_net(T), T, sd).to(device)
    criterion = T.nn.CrossEntropyLoss().to(device)
    opt = T.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
    sched = T.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.1)
    start, best_acc1, log = 0, 0, []
    if resume:
        ck = T.load(resume)
        start, best_acc1 = ck["epoch"], ck["best_acc1"]
        model.load_state_dict(ck["state_dict"])
        opt.load_state_dict(ck["optimizer"])
        sched.load_state_dict(ck["scheduler"])
    for epoch in range(start, epochs):
        model.train()
        for x, y in batches:
            images = T.from_numpy(x).to(device, non_blocking=True)
            target = T.from_numpy(y).to(device, non_blocking=True)
            loss = criterion(model(images), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.append(loss.item())
        model.eval()
        with T.no_grad():
            acc1 = _accuracy(T, model(T.from_numpy(batches[0][0])), T.from_numpy(batches[0][1]), topk=(1, 5))[0]
        sched.step()
        best_acc1 = max(acc1, best_acc1)
        T.save({"epoch": epoch + 1, "arch": "tiny", "state_dict": model.state_dict(), "best_acc1": best_acc1,
                "optimizer": opt.state_dict(), "scheduler": sched.state_dict()},
               os.path.join(ckpt_dir, f"checkpoint_{epoch}.pth.tar"))
        log.append(sched.get_last_lr()[0])
    return log, model


def test_imagenet_steplr_checkpoint_resume_matches_torch(reftorch, tmp_path):
    rng = np.random.RandomState(0)
    batches = [(rng.randn(8, 3, 6, 6).astype(np.float32), rng.randint(0, 10, 8)) for _ in range(2)]
    reftorch.manual_seed(0)
    sd = {k: v.numpy().copy() for k, v in _tiny_net(reftorch).state_dict().items()}
    (tmp_path / "m").mkdir()
    (tmp_path / "r").mkdir()
    log_m, model_m = _imagenet_train(torch, sd, batches, 2, str(tmp_path / "m"))
    log_r, model_r = _imagenet_train(reftorch, sd, batches, 2, str(tmp_path / "r"))
    np.testing.assert_allclose(log_m, log_r, rtol=1e-4)
    for (k, a), (_, b) in zip(model_m.state_dict().items(), model_r.state_dict().items()):
        assert_same(a, b, rtol=1e-4, atol=1e-5)
    # resuming from the epoch-0 checkpoint continues exactly as the uninterrupted run
    log_res, model_res = _imagenet_train(torch, sd, batches, 2, str(tmp_path / "m"),
                                         resume=str(tmp_path / "m" / "checkpoint_0.pth.tar"))
    np.testing.assert_allclose(log_res, log_m[len(log_m) - len(log_res):], rtol=1e-6)
    for a, b in zip(model_res.state_dict().values(), model_m.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    # and the checkpoint mindtorch wrote loads in real torch with the same scheduler state
    ck = reftorch.load(str(tmp_path / "m" / "checkpoint_1.pth.tar"), weights_only=False)
    ck_ref = reftorch.load(str(tmp_path / "r" / "checkpoint_1.pth.tar"), weights_only=False)
    assert ck["scheduler"]["last_epoch"] == ck_ref["scheduler"]["last_epoch"] == 2
    assert ck["optimizer"]["param_groups"][0]["lr"] == pytest.approx(ck_ref["optimizer"]["param_groups"][0]["lr"])


def test_utils_data_distributed_module(reftorch):
    # bug: `import torch.utils.data.distributed` (imagenet example) raised ModuleNotFoundError
    import torch.utils.data.distributed as rdist

    import mindtorch.torch.utils.data.distributed as mdist

    pytest.importorskip("mindtorch.distributed")
    mine = list(mdist.DistributedSampler(list(range(10)), num_replicas=3, rank=1, shuffle=False))
    ref = list(rdist.DistributedSampler(list(range(10)), num_replicas=3, rank=1, shuffle=False))
    assert mine == ref
    with pytest.raises(AttributeError):
        mdist.NoSuchSampler  # noqa: B018


# ---------------------------------------------------------------------------------------- seeding
def test_manual_seed_leaves_numpy_and_python_rngs_alone(reftorch):
    # bug: torch.manual_seed went through mindspore.set_seed, which reseeds np.random and random, so
    # `np.random.seed(42); torch.manual_seed(0)` gave numpy's seed-0 stream. torch touches neither.
    def draws(T):
        np.random.seed(42)
        random.seed(42)
        T.manual_seed(0)
        return np.random.rand(), random.random()

    assert draws(torch) == draws(reftorch)
    torch.seed()  # the non-deterministic reseed must not touch them either
    np.random.seed(7)
    expected = np.random.RandomState(7).rand()
    torch.manual_seed(3)
    assert np.random.rand() == expected


def test_manual_seed_still_makes_dropout_reproducible():
    torch.manual_seed(5)
    a = F.dropout(torch.ones(64), 0.5)
    torch.manual_seed(5)
    b = F.dropout(torch.ones(64), 0.5)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


# ------------------------------------------------------------------------------ state_dict versions
def test_batchnorm_loads_plain_dict_without_num_batches_tracked(reftorch):
    # bug: a state dict without version metadata (dict comprehension drops `_metadata`) and without
    # num_batches_tracked failed with "Missing key(s)"; torch 1.12 fills it with 0.
    def load(T):
        bn = T.nn.Sequential(T.nn.BatchNorm2d(3))
        sd = {k: v for k, v in bn.state_dict().items() if "num_batches" not in k}
        bn[0].num_batches_tracked.add_(5)
        res = bn.load_state_dict(sd)
        return (res.missing_keys, res.unexpected_keys), bn[0].num_batches_tracked

    mine, ref = load(torch), load(reftorch)
    assert mine[0] == ref[0] == ([], [])
    # torch 1.12 loads 0 (`torch.tensor(0, dtype=torch.long)`); torch >= 2.1 keeps the module's current count
    assert_same(mine[1], reftorch.tensor(0))
    # with the version metadata of a current state dict the key stays required, as in torch
    bn = torch.nn.BatchNorm2d(3)
    sd = bn.state_dict()
    del sd["num_batches_tracked"]
    with pytest.raises(RuntimeError, match="num_batches_tracked"):
        bn.load_state_dict(sd)


def test_instancenorm_rejects_pre_0_4_running_stats_like_torch(reftorch):
    # fast_neural_style deletes `in\d+.running_(mean|var)` from its old checkpoints because torch refuses them
    # (even with strict=False); mindtorch silently reported them as unexpected keys.
    def load(T, strict):
        m = T.nn.Sequential(T.nn.Conv2d(3, 3, 1), T.nn.InstanceNorm2d(3, affine=True))
        sd = {k: v for k, v in m.state_dict().items()}
        sd["1.running_mean"], sd["1.running_var"] = T.zeros(3), T.ones(3)
        with pytest.raises(RuntimeError) as e:
            m.load_state_dict(sd, strict=strict)
        return str(e.value).split("\n", 1)[1]

    for strict in (True, False):
        assert load(torch, strict) == load(reftorch, strict)
    m = torch.nn.InstanceNorm2d(3, affine=True)
    assert list(m.load_state_dict({"weight": torch.ones(3), "bias": torch.zeros(3)})) == [[], []]


# --------------------------------------------------------------------------------------------- devices
def test_to_accepts_none_device(reftorch):
    # bug: `x.to(args.device)` with device None raised TypeError; torch's positional device is Optional
    x = np.arange(3, dtype=np.float32)
    for args in ((None,), (None, "float64")):
        mine = torch.from_numpy(x).to(*[getattr(torch, a) if isinstance(a, str) else a for a in args])
        ref = reftorch.from_numpy(x).to(*[getattr(reftorch, a) if isinstance(a, str) else a for a in args])
        assert_same(mine, ref)
        assert str(mine.device) == str(ref.device) == "cpu"


def test_integer_device_is_cuda_index_as_in_torch_1_12():
    # imagenet: `best_acc1 = best_acc1.to(args.gpu)`. torch 1.12's device(0) is cuda:0 (torch 2.x: the current
    # accelerator); we reported 'cpu:0', unlike `.cuda(0)`.
    assert repr(torch.device(0)) == "device(type='cuda', index=0)"
    t = torch.tensor([12.5]).to(1)
    assert str(t.device) == "cuda:1" and t.device == torch.randn(1).cuda(1).device
    np.testing.assert_array_equal(t.numpy(), [12.5])
