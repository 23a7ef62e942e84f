"""The CPU batch norm kernels behind F.batch_norm / nn.BatchNorm*d (`_batch_norm_train`, `_batch_norm_eval` in
_ops/nn_ops.py): MindSpore's fused kernel and the composition of reductions and elementwise ops, each pinned and
compared with real torch (outputs, gradients, running buffers), in both training styles (loss.backward() and
mindspore.value_and_grad), and the measured choice between them (`_autotune`, forward + backward timed)."""
import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch._ops import _autotune

KERNELS = ["native", "composed"]
# (module, input shape): BatchNorm1d on (N, C) and (N, C, L), BatchNorm2d, BatchNorm3d
CASES = [("BatchNorm1d", (8, 5)), ("BatchNorm1d", (4, 5, 6)), ("BatchNorm2d", (3, 5, 4, 6)),
         ("BatchNorm3d", (2, 5, 3, 4, 3))]
IDS = [f"{m}-{len(s)}d" for m, s in CASES]


@pytest.fixture
def pinned(pin_kernel):
    return lambda kernel: pin_kernel("batch_norm", kernel)


def _data(shape, seed):
    rng = np.random.RandomState(seed)
    # an offset mean and a non-unit spread, so that wrong statistics (biased/unbiased, eps) show
    x = (rng.randn(*shape) * 2.5 + 1.5).astype(np.float32)
    dy = rng.randn(*shape).astype(np.float32)
    return x, dy


def _pair(reftorch, name, **kw):
    mine, ref = getattr(torch.nn, name)(5, **kw), getattr(reftorch.nn, name)(5, **kw)
    if mine.affine:  # non-trivial affine parameters, the same in both
        rng = np.random.RandomState(7)
        w, b = rng.rand(5).astype(np.float32) + 0.5, rng.randn(5).astype(np.float32)
        with torch.no_grad():
            mine.weight.copy_(torch.from_numpy(w))
            mine.bias.copy_(torch.from_numpy(b))
        with reftorch.no_grad():
            ref.weight.copy_(reftorch.from_numpy(w))
            ref.bias.copy_(reftorch.from_numpy(b))
    return mine, ref


def _check_buffers(mine, ref):
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        r = getattr(ref, name)
        if r is None:
            assert getattr(mine, name) is None
        else:
            assert_same(getattr(mine, name), r, rtol=1e-5, atol=1e-6)


def _train_steps_backward(reftorch, mine, ref, shape):
    """Two training steps, loss.backward() style; outputs and grads checked at each step."""
    for step in range(2):
        x, dy = _data(shape, step)
        xm, xr = torch.tensor(x, requires_grad=True), reftorch.tensor(x, requires_grad=True)
        out_m, out_r = mine(xm), ref(xr)
        assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
        (out_m * torch.from_numpy(dy)).sum().backward()
        (out_r * reftorch.from_numpy(dy)).sum().backward()
        assert_same(xm.grad, xr.grad, rtol=1e-4, atol=1e-4)
        if ref.affine:
            assert_same(mine.weight.grad, ref.weight.grad, rtol=1e-4, atol=1e-4)
            assert_same(mine.bias.grad, ref.bias.grad, rtol=1e-4, atol=1e-4)
            mine.zero_grad()
            ref.zero_grad()


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name,shape", CASES, ids=IDS)
def test_training_matches_torch(reftorch, pinned, kernel, name, shape):
    pinned(kernel)
    mine, ref = _pair(reftorch, name)
    _train_steps_backward(reftorch, mine, ref, shape)
    _check_buffers(mine, ref)
    # then eval mode with the running statistics the two steps left
    mine.eval()
    ref.eval()
    _train_steps_backward(reftorch, mine, ref, shape)
    _check_buffers(mine, ref)  # eval leaves the buffers alone
    table = _autotune._CHOSEN["batch_norm"]
    assert len(table) == 2 and set(table.values()) == {kernel}  # the training and the eval signature


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("kw", [dict(affine=False), dict(track_running_stats=False), dict(momentum=None),
                                dict(momentum=0.3, eps=1e-3)], ids=["no-affine", "no-stats", "cma", "momentum-eps"])
def test_module_options_match_torch(reftorch, pinned, kernel, kw):
    pinned(kernel)
    mine, ref = _pair(reftorch, "BatchNorm2d", **kw)
    _train_steps_backward(reftorch, mine, ref, (3, 5, 4, 6))
    _check_buffers(mine, ref)
    mine.eval()
    ref.eval()
    # without running stats (track_running_stats=False): batch statistics in eval too, as torch
    _train_steps_backward(reftorch, mine, ref, (3, 5, 4, 6))


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name,shape", CASES[1:3], ids=IDS[1:3])
def test_value_and_grad_style_matches_torch(reftorch, pinned, kernel, name, shape):
    """The functional style (mindspore.value_and_grad over the parameters): the same grads as torch, and the
    running buffers are updated by the forward inside it."""
    pinned(kernel)
    mine, ref = _pair(reftorch, name)
    params = list(mine.parameters())
    for step in range(2):
        x, dy = _data(shape, step)
        xm, dym = torch.from_numpy(x), torch.from_numpy(dy)
        loss, (gx, (gw, gb)) = ms.value_and_grad(lambda a: (mine(a) * dym).sum(), 0, params)(xm)
        xr = reftorch.tensor(x, requires_grad=True)
        loss_r = (ref(xr) * reftorch.from_numpy(dy)).sum()
        loss_r.backward()
        assert_same(loss, loss_r, rtol=1e-4, atol=1e-4)
        assert_same(gx, xr.grad, rtol=1e-4, atol=1e-4)
        assert_same(gw, ref.weight.grad, rtol=1e-4, atol=1e-4)
        assert_same(gb, ref.bias.grad, rtol=1e-4, atol=1e-4)
        ref.zero_grad()
    _check_buffers(mine, ref)


@pytest.mark.parametrize("style", ["backward", "value_and_grad"])
def test_measuring_call_matches_torch_in_both_styles(reftorch, monkeypatch, style):
    """The first call of a signature times both kernels (forward and backward through mindspore.grad on copies)
    and must leave autograd as it found it: the result it returns is recorded as usual, in either style."""
    monkeypatch.delenv("MINDTORCH_KERNEL_BATCH_NORM", raising=False)
    monkeypatch.setitem(_autotune._CHOSEN, "batch_norm", {})
    shape = (4, 5, 3, 3)
    x, dy = _data(shape, 3)
    mine, ref = _pair(reftorch, "BatchNorm2d")
    xr = reftorch.tensor(x, requires_grad=True)
    (ref(xr * 2.0) * reftorch.from_numpy(dy)).sum().backward()
    if style == "backward":
        xm = torch.tensor(x, requires_grad=True)
        (mine(xm * 2.0) * torch.from_numpy(dy)).sum().backward()  # the BN input is an intermediate here
        gx, gw, gb = xm.grad, mine.weight.grad, mine.bias.grad
    else:
        params = list(mine.parameters())
        _, (gx, (gw, gb)) = ms.value_and_grad(lambda a: (mine(a * 2.0) * torch.from_numpy(dy)).sum(), 0,
                                              params)(torch.from_numpy(x))
    table = _autotune._CHOSEN["batch_norm"]
    assert len(table) == 1 and next(iter(table.values())) in KERNELS
    assert_same(gx, xr.grad, rtol=1e-4, atol=1e-4)
    assert_same(gw, ref.weight.grad, rtol=1e-4, atol=1e-4)
    assert_same(gb, ref.bias.grad, rtol=1e-4, atol=1e-4)
    _check_buffers(mine, ref)
    mine(torch.from_numpy(x))
    assert len(table) == 1  # the same signature: measured once
    _autotune._CHOSEN.pop("batch_norm", None)


@pytest.mark.parametrize("training", [False, True], ids=["eval", "train"])
def test_measuring_call_under_no_grad(reftorch, monkeypatch, training):
    """Inference under torch.no_grad() measures too (the timing runs forward + backward on copies): the result is
    torch's, not recorded, and no_grad is still in force afterwards."""
    monkeypatch.delenv("MINDTORCH_KERNEL_BATCH_NORM", raising=False)
    monkeypatch.setitem(_autotune._CHOSEN, "batch_norm", {})
    x, _ = _data((4, 5, 3, 3), 4)
    mine, ref = _pair(reftorch, "BatchNorm2d")
    mine.train(training)
    ref.train(training)
    with torch.no_grad():
        out = mine(torch.from_numpy(x))
        assert not torch.is_grad_enabled()
    assert not out.requires_grad
    with reftorch.no_grad():
        assert_same(out, ref(reftorch.from_numpy(x)), rtol=1e-5, atol=1e-5)
    _check_buffers(mine, ref)
    assert len(_autotune._CHOSEN["batch_norm"]) == 1
    _autotune._CHOSEN.pop("batch_norm", None)


@pytest.mark.parametrize("kernel", KERNELS)
def test_functional_batch_norm_float64_and_no_weight(reftorch, pinned, kernel):
    """F.batch_norm directly: float64 (the composition whatever is pinned: the fused kernel is float32 only), and
    weight without bias."""
    pinned(kernel)
    x, _ = _data((6, 5, 4), 5)
    rng = np.random.RandomState(2)
    w = rng.rand(5).astype(np.float32)
    for dt, ref_dt in ((torch.float64, reftorch.float64), (torch.float32, reftorch.float32)):
        rm, rv = torch.zeros(5, dtype=dt), torch.ones(5, dtype=dt)
        rm_r, rv_r = reftorch.zeros(5, dtype=ref_dt), reftorch.ones(5, dtype=ref_dt)
        xm = torch.tensor(x, dtype=dt, requires_grad=True)
        xr = reftorch.tensor(x, dtype=ref_dt, requires_grad=True)
        wm, wr = torch.tensor(w, dtype=dt), reftorch.tensor(w, dtype=ref_dt)
        out = torch.nn.functional.batch_norm(xm, rm, rv, wm, None, True, 0.2)
        out_r = reftorch.nn.functional.batch_norm(xr, rm_r, rv_r, wr, None, True, 0.2)
        assert_same(out, out_r, rtol=1e-5, atol=1e-5)
        (out ** 2).sum().backward()
        (out_r ** 2).sum().backward()
        assert_same(xm.grad, xr.grad, rtol=1e-4, atol=1e-4)
        assert_same(rm, rm_r, rtol=1e-5, atol=1e-6)
        assert_same(rv, rv_r, rtol=1e-5, atol=1e-6)
        assert_same(torch.nn.functional.batch_norm(xm, rm, rv, wm, None, False),
                    reftorch.nn.functional.batch_norm(xr, rm_r, rv_r, wr, None, False), rtol=1e-5, atol=1e-5)


def test_one_value_per_channel_raises_as_torch(reftorch):
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        torch.nn.BatchNorm1d(3)(torch.randn(1, 3))
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        reftorch.nn.BatchNorm1d(3)(reftorch.randn(1, 3))
