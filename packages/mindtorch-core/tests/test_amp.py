"""torch.amp / torch.cuda.amp: autocast casts the listed ops, GradScaler follows torch's schedule (both
training styles), compared with real torch 2.13's CPU autocast and GradScaler.

torch 1.12 has GradScaler only as torch.cuda.amp.GradScaler; the reference here is 2.13's
torch.amp.GradScaler("cpu"), whose scaling logic is the same as 1.12's CUDA one. Without an accelerator
(`torch.cuda.is_available()` False) torch.cuda.amp.GradScaler disables itself, as in torch: the tests run
mindtorch's torch.amp.GradScaler("cpu"), and torch.cuda.amp.GradScaler with an accelerator simulated.
"""
import numpy as np
import pytest
from _compare import dtype_name

import mindtorch.torch as torch


def _np(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


@pytest.mark.parametrize("op", ["matmul", "mm", "linear", "bmm", "addmm", "conv2d"])
def test_autocast_lower_precision_ops_match_torch(reftorch, op):
    a2, b2, c2 = _np((4, 6)), _np((6, 5), 1), _np((4, 5), 2)
    a3, b3 = _np((2, 4, 6)), _np((2, 6, 5), 1)
    x4, w4 = _np((1, 2, 8, 8)), _np((3, 2, 3, 3), 1)
    calls = {
        "matmul": lambda t, F: t.matmul(t.from_numpy(a2), t.from_numpy(b2)),
        "mm": lambda t, F: t.mm(t.from_numpy(a2), t.from_numpy(b2)),
        "linear": lambda t, F: F.linear(t.from_numpy(a2), t.from_numpy(b2.T.copy())),
        "bmm": lambda t, F: t.bmm(t.from_numpy(a3), t.from_numpy(b3)),
        "addmm": lambda t, F: t.addmm(t.from_numpy(c2), t.from_numpy(a2), t.from_numpy(b2)),
        "conv2d": lambda t, F: F.conv2d(t.from_numpy(x4), t.from_numpy(w4)),
    }
    import mindtorch.torch.nn.functional as mF

    with torch.autocast("cpu", dtype=torch.float16):
        mine = calls[op](torch, mF)
    with reftorch.autocast("cpu", dtype=reftorch.float16):
        ref = calls[op](reftorch, reftorch.nn.functional)
    assert dtype_name(mine.dtype) == dtype_name(ref.dtype) == "float16"
    np.testing.assert_allclose(mine.float().numpy(), ref.float().numpy(), rtol=2e-3, atol=2e-3)
    assert dtype_name(calls[op](torch, mF).dtype) == "float32"  # outside the region: float32 again


def test_autocast_fp32_ops_and_nesting_and_decorator():
    x16 = torch.from_numpy(_np((3, 4))).half()
    a, b = torch.from_numpy(_np((3, 4))), torch.from_numpy(_np((4, 2)))
    with torch.autocast("cpu", dtype=torch.float16):
        assert torch.softmax(x16, dim=1).dtype == torch.float32  # float32 list: upcast
        assert torch.matmul(a, b).dtype == torch.float16
        with torch.autocast("cpu", enabled=False):
            assert torch.matmul(a, b).dtype == torch.float32
        assert torch.matmul(a, b).dtype == torch.float16
        assert (a + a).dtype == torch.float32  # unlisted ops keep their input dtype

    @torch.cuda.amp.autocast()
    def f(x, y):
        return torch.matmul(x, y)

    assert f(a, b).dtype == torch.float16
    assert torch.matmul(a, b).dtype == torch.float32


def test_autocast_bf16_on_cpu_falls_back_with_warning():
    import mindspore as ms

    if ms.get_context("device_target") != "CPU":
        pytest.skip("the bfloat16 fallback is specific to MindSpore's CPU target")
    a, b = torch.from_numpy(_np((3, 4))), torch.from_numpy(_np((4, 2)))
    import mindtorch.torch.amp.autocast_mode as am

    am._warned_bf16 = False
    with pytest.warns(UserWarning, match="bfloat16"):
        ctx = torch.autocast("cpu")
    with ctx:
        assert torch.matmul(a, b).dtype == torch.float16


def _mlp(t, w1, w2):
    nn = t.nn
    m = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    with t.no_grad():
        m[0].weight.copy_(t.from_numpy(w1))
        m[0].bias.zero_()
        m[2].weight.copy_(t.from_numpy(w2))
        m[2].bias.zero_()
    return m


def _run_amp_training(t, style, steps=8, inf_at=(2, 5), cuda_scaler=False):
    rng = np.random.RandomState(0)
    w1, w2 = rng.randn(16, 8).astype(np.float32) * 0.3, rng.randn(4, 16).astype(np.float32) * 0.3
    xs = [rng.randn(32, 8).astype(np.float32) for _ in range(steps)]
    ys = [rng.randint(0, 4, 32).astype(np.int64) for _ in range(steps)]
    model = _mlp(t, w1, w2)
    opt = t.optim.SGD(model.parameters(), lr=0.05)
    is_ref = t.__name__ == "torch"
    scaler = t.cuda.amp.GradScaler(init_scale=2.0 ** 10, growth_interval=3) if cuda_scaler and not is_ref else \
        t.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=3)
    crit = t.nn.CrossEntropyLoss()
    losses, scales = [], []
    for i in range(steps):
        x, y = t.from_numpy(xs[i]), t.from_numpy(ys[i])
        if style == "functional":
            import mindspore as ms

            def forward_fn(data, label):
                with t.autocast("cpu", dtype=t.float16):
                    out = model(data)
                return scaler.scale(crit(out.float(), label))

            grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)
            loss, grads = grad_fn(x, y)
            if i in inf_at:
                grads = tuple(g * float("inf") if k == 0 else g for k, g in enumerate(grads))
            scaler.unscale_(opt, grads)
            scaler.step(opt, grads)
        else:
            opt.zero_grad()
            with t.autocast("cpu", dtype=t.float16):
                out = model(x)
            loss = scaler.scale(crit(out.float(), y))
            loss.backward()
            if i in inf_at:
                with t.no_grad():
                    model[0].weight.grad.mul_(float("inf"))
            scaler.unscale_(opt)
            scaler.step(opt)
        scaler.update()
        losses.append(float(loss) / (scales[-1] if scales else 2.0 ** 10))
        scales.append(scaler.get_scale())
    return losses, scales, model[0].weight.detach().numpy().copy()


@pytest.fixture
def accelerator(monkeypatch):
    """As on a MindSpore GPU/Ascend target: torch.cuda.is_available() is True (torch.cuda.amp.GradScaler
    stays enabled there)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)


@pytest.mark.parametrize("style", ["backward", "functional"])
@pytest.mark.parametrize("cuda_scaler", [False, True], ids=["amp-cpu", "cuda-amp"])
def test_grad_scaler_training_matches_torch(reftorch, request, style, cuda_scaler):
    if cuda_scaler:
        request.getfixturevalue("accelerator")
    losses, scales, w = _run_amp_training(torch, style, cuda_scaler=cuda_scaler)
    r_losses, r_scales, r_w = _run_amp_training(reftorch, "backward")
    assert scales == r_scales  # same skipped steps, same growth/backoff schedule
    np.testing.assert_allclose(losses, r_losses, rtol=5e-3, atol=5e-3)
    np.testing.assert_allclose(w, r_w, rtol=5e-3, atol=5e-3)


def test_grad_scaler_state_dict_and_errors(accelerator):
    s = torch.cuda.amp.GradScaler(init_scale=8.0, growth_interval=5)
    assert s.get_scale() == 8.0
    sd = s.state_dict()
    assert sd == {"scale": 8.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 5,
                  "_growth_tracker": 0}
    s2 = torch.cuda.amp.GradScaler()
    s2.load_state_dict(sd)
    assert s2.get_scale() == 8.0 and s2.get_growth_interval() == 5
    with pytest.raises(AssertionError, match="The growth factor must be > 1.0."):  # 1.12: an `assert`
        torch.cuda.amp.GradScaler(growth_factor=0.5)
    with pytest.raises(AssertionError, match="The backoff factor must be < 1.0."):
        torch.amp.GradScaler("cpu", backoff_factor=2.0)
    disabled = torch.cuda.amp.GradScaler(enabled=False)
    x = torch.ones(2)
    assert disabled.scale(x) is x and disabled.state_dict() == {}
