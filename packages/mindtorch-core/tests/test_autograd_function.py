"""Custom backward: torch.autograd.Function and the manual's Module.bprop, in both training styles
(`loss.backward()` and `mindspore.value_and_grad`), compared with automatic grads and with real PyTorch."""
import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
import mindtorch.torch.nn as nn

A = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
B = np.array([[1.0, 2.0], [-0.5, 0.3], [0.7, -1.2]], np.float32)


def make_function(T):
    class MyMM(T.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, scale):
            ctx.save_for_backward(a, b)
            ctx.scale = scale
            return a.mm(b) * scale

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            assert ctx.needs_input_grad[:2] == (True, True)
            return grad.mm(b.t()) * ctx.scale, a.t().mm(grad) * ctx.scale, None

    return MyMM


def loss_with(apply_mm, a, b):
    return (apply_mm(a, b).sin() * 3).sum()


def test_function_backward_style_matches_torch_and_autograd(reftorch):
    grads = []
    for T in (torch, reftorch):
        fn = make_function(T)
        a, b = T.tensor(A, requires_grad=True), T.tensor(B, requires_grad=True)
        out = fn.apply(a, b, 2.0)
        assert out.requires_grad and out.grad_fn is not None
        loss_with(lambda x, y: fn.apply(x, y, 2.0), a, b).backward()
        a2, b2 = T.tensor(A, requires_grad=True), T.tensor(B, requires_grad=True)
        loss_with(lambda x, y: x.mm(y) * 2.0, a2, b2).backward()
        assert_same(a.grad, a2.grad)
        grads.append((a.grad, b.grad))
    assert_same(grads[0], grads[1])


def test_function_value_and_grad_style():
    fn = make_function(torch)
    a, b = torch.tensor(A), torch.tensor(B)
    custom = ms.value_and_grad(lambda x, y: loss_with(lambda p, q: fn.apply(p, q, 2.0), x, y), (0, 1))(a, b)
    auto = ms.value_and_grad(lambda x, y: loss_with(lambda p, q: p.mm(q) * 2.0, x, y), (0, 1))(a, b)
    assert_same(custom[0], auto[0])
    assert_same(custom[1], auto[1])


def test_function_features(reftorch):
    results = []
    for T in (torch, reftorch):
        class Twice(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                idx = (x > 0).float()
                ctx.mark_non_differentiable(idx)
                return x * 2, idx

            @staticmethod
            @T.autograd.function.once_differentiable
            def backward(ctx, g, g_idx):
                return g * 2

        x = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y, idx = Twice.apply(x)
        assert not idx.requires_grad and y.requires_grad
        (y * y).sum().backward()
        results.append(x.grad)
    assert_same(results[0], results[1])


def test_function_forward_is_not_recorded():
    class Probe(torch.autograd.Function):
        inner = []

        @staticmethod
        def forward(ctx, x):
            y = x * 3
            Probe.inner.append(y.requires_grad)
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([1.0], requires_grad=True)
    Probe.apply(x).sum().backward()
    assert Probe.inner == [False] and x.grad.item() == 3.0


def test_legacy_function_rejected_like_torch(reftorch):
    for T in (torch, reftorch):
        with pytest.raises(RuntimeError):
            class Old(T.autograd.Function):
                def forward(self, x):
                    return x

            Old()(T.tensor([1.0]))
            raise RuntimeError("legacy forward must be refused")


class CustomNet(nn.Module):
    """The manual's §4.4.1 example: forward a.mm(b), custom bprop (scaled by 2 to be distinguishable)."""

    def forward(self, a, b):
        return a.mm(b)

    def bprop(self, a, b, out, dout):
        return dout.mm(b.t()) * 2, a.t().mm(dout) * 2


class PlainNet(nn.Module):
    def forward(self, a, b):
        return a.mm(b) * 1.0


def _expected(reftorch):
    a, b = reftorch.tensor(A, requires_grad=True), reftorch.tensor(B, requires_grad=True)
    (a.mm(b).sin()).sum().backward()
    return a.grad * 2, b.grad * 2


def test_module_bprop_backward_style(reftorch):
    net = CustomNet()
    a, b = torch.tensor(A, requires_grad=True), torch.tensor(B, requires_grad=True)
    out = net(a, b)
    assert_same(out.detach(), PlainNet()(torch.tensor(A), torch.tensor(B)))
    out.sin().sum().backward()
    ea, eb = _expected(reftorch)
    assert_same(a.grad, ea)
    assert_same(b.grad, eb)


def test_module_bprop_value_and_grad_style(reftorch):
    net = CustomNet()
    grads = ms.value_and_grad(lambda x, y: net(x, y).sin().sum(), (0, 1))(torch.tensor(A), torch.tensor(B))[1]
    ea, eb = _expected(reftorch)
    assert_same(grads[0], ea)
    assert_same(grads[1], eb)


def test_module_bprop_both_styles_in_one_process_either_order(reftorch):
    ea, _ = _expected(reftorch)
    net = CustomNet()
    for _ in range(2):
        g = ms.value_and_grad(lambda x, y: net(x, y).sin().sum(), 0)(torch.tensor(A), torch.tensor(B))[1]
        assert_same(g, ea)
        a = torch.tensor(A, requires_grad=True)
        net(a, torch.tensor(B)).sin().sum().backward()
        assert_same(a.grad, ea)


def test_module_bprop_wrong_arity():
    class Bad(nn.Module):
        def forward(self, a, b):
            return a.mm(b)

        def bprop(self, a, b, out, dout):
            return dout.mm(b.t())

    a = torch.tensor(A, requires_grad=True)
    with pytest.raises(RuntimeError):
        Bad()(a, torch.tensor(B)).sum().backward()
