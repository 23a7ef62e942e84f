"""The CPU convolution kernels behind conv1d/conv2d (`_conv2d_kernel`): oneDNN's (float32, chosen without
measuring when the library loads), MindSpore's native kernel and im2col + MatMul, each against real torch (values
and gradients), and the measured choice between the MindSpore ones (`_autotune`)."""
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch._ops import _autotune, _onednn

F = torch.nn.functional

CASES = [
    ((2, 3, 9, 9), (4, 3, 3, 3), {}),
    ((2, 4, 9, 8), (6, 2, 3, 2), dict(stride=2, padding=1, dilation=2, groups=2)),
    ((1, 4, 7, 7), (4, 1, 3, 3), dict(groups=4, padding=1)),  # depthwise
    ((2, 3, 8, 8), (5, 3, 1, 1), dict(stride=2)),
    ((2, 3, 8, 8), (5, 3, 1, 1), {}),  # 1x1: a plain matmul
    ((2, 3, 10, 10), (5, 3, 4, 4), dict(padding="same")),  # asymmetric padding
    ((2, 6, 5, 5), (3, 6, 5, 5), {}),  # kernel as large as the input
]


@pytest.fixture
def pinned(pin_kernel):
    return lambda kernel: pin_kernel("conv2d", kernel)


KERNELS = ["native", "im2col"] + (["onednn"] if _onednn.available() else [])


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}x{c[1]}-{sorted(c[2])}" for c in CASES])
def test_conv2d_kernel_matches_torch(reftorch, pinned, kernel, case):
    pinned(kernel)
    xs, ws, kw = case
    rng = np.random.RandomState(0)
    x, w, b = rng.randn(*xs).astype(np.float32), rng.randn(*ws).astype(np.float32), rng.randn(ws[0]).astype(np.float32)
    mine = [torch.tensor(a, requires_grad=True) for a in (x, w, b)]
    ref = [reftorch.tensor(a, requires_grad=True) for a in (x, w, b)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's UserWarning for padding='same' with an even kernel
        out_r = reftorch.nn.functional.conv2d(*ref, **kw)
    out_m = F.conv2d(*mine, **kw)
    assert _autotune.choice("conv2d", next(iter(_autotune._CHOSEN["conv2d"]))) == kernel
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
    (out_r ** 2).sum().backward()
    (out_m ** 2).sum().backward()
    for m, r in zip(mine, ref):
        assert_same(m.grad, r.grad, rtol=1e-4, atol=5e-4)


def test_conv1d_goes_through_the_same_kernel(reftorch, pinned):
    pinned("im2col")
    rng = np.random.RandomState(1)
    x, w = rng.randn(2, 4, 11).astype(np.float32), rng.randn(6, 2, 3).astype(np.float32)
    out = F.conv1d(torch.from_numpy(x), torch.from_numpy(w), stride=2, padding=1, groups=2)
    ref = reftorch.nn.functional.conv1d(reftorch.from_numpy(x), reftorch.from_numpy(w), stride=2, padding=1, groups=2)
    assert_same(out, ref, rtol=1e-5, atol=1e-5)


def test_autotune_measures_once_per_signature_and_keeps_the_winner(monkeypatch):
    monkeypatch.delenv("MINDTORCH_KERNEL_CONV2D", raising=False)
    monkeypatch.setitem(_autotune._CHOSEN, "conv2d", {})
    x, w = torch.randn(2, 3, 8, 8), torch.randn(4, 3, 3, 3)
    first = F.conv2d(x, w)
    table = _autotune._CHOSEN["conv2d"]
    # oneDNN's convolution is chosen without measuring (10-200x the others); without it, a measured choice
    assert len(table) == 1 and next(iter(table.values())) in (("onednn",) if _onednn.available() else
                                                                ("native", "im2col"))
    again = F.conv2d(x, w)
    assert len(table) == 1  # same signature: no new measurement
    np.testing.assert_allclose(again.numpy(), first.numpy(), rtol=1e-5, atol=1e-5)
    F.conv2d(torch.randn(1, 3, 8, 8), w)
    assert len(table) == 2  # a new batch size is a new signature
    _autotune._CHOSEN.pop("conv2d", None)


def test_autotune_first_call_records_autograd():
    """The first (measuring) call returns a result that backward reaches through, as any other call."""
    _autotune._CHOSEN.pop("conv2d", None)
    x = torch.randn(1, 2, 5, 5, requires_grad=True)
    w = torch.randn(3, 2, 3, 3, requires_grad=True)
    F.conv2d(x, w).sum().backward()
    assert x.grad is not None and w.grad is not None and x.grad.shape == x.shape


@pytest.mark.parametrize("case", CASES[:3] + CASES[5:], ids=lambda c: f"{c[0]}x{c[1]}-{sorted(c[2])}")
def test_im2col_in_bands_of_output_rows_matches_torch(reftorch, pinned, monkeypatch, case):
    """A column buffer over the limit is built band by band (a detection FPN at 800 px): same values and grads."""
    from mindtorch.torch._ops import nn_ops

    monkeypatch.setattr(nn_ops, "_IM2COL_MAX_ELEMENTS", 300)  # forces several bands on these small inputs
    pinned("im2col")
    xs, ws, kw = case
    rng = np.random.RandomState(2)
    x, w = rng.randn(*xs).astype(np.float32), rng.randn(*ws).astype(np.float32)
    mine = [torch.tensor(a, requires_grad=True) for a in (x, w)]
    ref = [reftorch.tensor(a, requires_grad=True) for a in (x, w)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_r = reftorch.nn.functional.conv2d(*ref, **kw)
    out_m = F.conv2d(*mine, **kw)
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
    (out_r ** 2).sum().backward()
    (out_m ** 2).sum().backward()
    for m, r in zip(mine, ref):
        assert_same(m.grad, r.grad, rtol=1e-4, atol=5e-4)


def test_autotune_stops_measuring_a_candidate_that_keeps_losing_widely(monkeypatch):
    """Shapes that change every call (detection heads) must not pay a far slower candidate's run each time: a
    candidate >= 10x slower is dropped for new signatures at once, >= 3x after three losses; a win clears it."""
    import time

    monkeypatch.setitem(_autotune._CHOSEN, "toy", {})
    monkeypatch.setitem(_autotune._STRIKES, "toy", {})
    calls = []

    def cand(name, secs):
        return name, lambda: (calls.append(name), time.sleep(secs), name)[2]

    assert _autotune.run("toy", 1, [cand("slow", 0.2), cand("fast", 0.0)]) == "fast"
    assert calls == ["slow", "fast"]
    calls.clear()
    assert _autotune.run("toy", 2, [cand("slow", 0.2), cand("fast", 0.0)]) == "fast"
    assert calls == ["fast"]  # struck out: new signatures no longer time it
    assert _autotune.choice("toy", 2) == "fast"
    # a narrow loss is no strike; a win clears the record
    _autotune._STRIKES["toy"] = {}
    _autotune._strike("toy", [(1.0, "a"), (2.0, "b")])
    assert _autotune._STRIKES["toy"] == {"a": 0, "b": 0}
    for _ in range(2):
        _autotune._strike("toy", [(1.0, "a"), (4.0, "b")])
    assert _autotune._STRIKES["toy"]["b"] == 2
    _autotune._strike("toy", [(1.0, "b"), (4.0, "a")])
    assert _autotune._STRIKES["toy"]["b"] == 0
