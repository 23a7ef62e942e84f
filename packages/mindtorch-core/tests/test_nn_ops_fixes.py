"""nn.functional differences from torch 1.12 found by a differential sweep, each compared with real PyTorch on
values and gradients: cosine_similarity of broadcasting operands, ctc_loss(zero_infinity=True) on alignments that
repeated labels make impossible, binary_cross_entropy's gradient at an input of exactly 0 or 1, embedding with
max_norm on a plain weight tensor, and float64 conv3d / conv_transpose3d."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


def _rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _both(reftorch, fn):
    return fn(torch), fn(reftorch)


# ------------------------------------------------------------------------------- cosine_similarity broadcasting
@pytest.mark.parametrize("a,b,dim", [
    (np.array([[1., 2, 3]], np.float32), np.array([[1., 1, 1], [2, 0, 1]], np.float32), 0),
    (_rand(3, 4, 5), _rand(3, 1, 5, seed=1), 1),
    (_rand(4, dtype=np.float64), _rand(2, 4, seed=1, dtype=np.float64), 1),
    (np.array([[0., 0, 0], [1, 2, 3]], np.float32), np.array([[1., 1, 1]], np.float32), 1),  # a zero vector
])
def test_cosine_similarity_broadcasts_before_the_norms(reftorch, a, b, dim):
    # ATen expands both operands first: each norm is over the broadcast operand (a (1, 3) x1 along dim 0 against
    # a (2, 3) x2 has the norm of 2 equal rows); the gradients sum back to each operand's own shape
    def run(t):
        x, y = t.tensor(a).requires_grad_(), t.tensor(b).requires_grad_()
        out = t.nn.functional.cosine_similarity(x, y, dim=dim)
        (out * t.arange(1, out.numel() + 1, dtype=out.dtype).reshape(out.shape)).sum().backward()
        return out, x.grad, y.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


def test_cosine_similarity_shapes_that_do_not_broadcast_raise_torchs_error(reftorch):
    from _compare import assert_same_error

    assert_same_error(RuntimeError, lambda t: t.nn.functional.cosine_similarity(t.ones(3, 2), t.ones(2, 2)),
                      reftorch)


# ------------------------------------------------------------------------ ctc_loss: repeats need extra blanks
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("targets,input_lengths,target_lengths", [
    ([[1, 1, 1, 1], [2, 3, 0, 0]], [4, 4], [4, 2]),  # 4 repeated labels need 7 frames
    ([[1, 1, 2, 0], [2, 3, 3, 0]], [4, 3], [3, 3]),  # sample 1: "2 3 3" needs 4 frames, has 3
    ([[1, 1, 2, 0], [2, 3, 3, 0]], [3, 4], [3, 3]),
])
def test_ctc_loss_zero_infinity_zeroes_alignments_impossible_by_repeats(reftorch, reduction, targets, input_lengths,
                                                                        target_lengths):
    # input length >= target length, but each pair of equal consecutive labels needs a blank between them: torch's
    # loss is inf there, 0 with zero_infinity, and the sample's gradient 0
    logits = _rand(4, 2, 6)

    def run(t):
        x = t.tensor(logits).requires_grad_()
        loss = t.nn.functional.ctc_loss(x.log_softmax(2), t.tensor(targets), t.tensor(input_lengths),
                                        t.tensor(target_lengths), reduction=reduction, zero_infinity=True)
        (loss * 1.5).sum().backward()
        return loss, x.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


def test_ctc_loss_impossible_by_repeats_is_infinite_without_zero_infinity(reftorch):
    lp = np.log(np.random.default_rng(0).dirichlet(np.ones(6), (4, 2))).astype(np.float32)

    def run(t):
        return t.nn.functional.ctc_loss(t.tensor(lp), t.tensor([[1, 1, 1, 1], [2, 3, 0, 0]]), t.tensor([4, 4]),
                                        t.tensor([4, 2]), reduction="none")

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


# ---------------------------------------------------------------------- binary_cross_entropy at 0 and 1
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy_gradient_is_finite_at_a_saturated_input(reftorch, reduction, weighted):
    # sigmoid(20) == 1.0 and sigmoid(-200) == 0.0 in float32: torch's backward (x - t) / max((1 - x) x, 1e-12) is
    # finite there (times sigmoid's 0 derivative: 0); the clamped-log composition's was 0 * inf = NaN
    def run(t):
        x = t.tensor([20., -20., 0.3, -200.]).requires_grad_()
        w = t.tensor([1., 2., 3., 0.5]) if weighted else None
        loss = t.nn.functional.binary_cross_entropy(x.sigmoid(), t.tensor([0., 1., 1., 0.]), weight=w,
                                                    reduction=reduction)
        loss.sum().backward()
        return loss, x.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


def test_binary_cross_entropy_gradients_at_exact_probabilities(reftorch):
    # probabilities given directly: x = 1 with t = 0 has torch's gradient 1 / 1e-12; d/dtarget is -logit(x)
    def run(t):
        x = t.tensor([0., 1., 0.5, 1., 0.2]).requires_grad_()
        y = t.tensor([0., 1., 0.3, 0., 0.9]).requires_grad_()
        loss = t.nn.functional.binary_cross_entropy(x, y, reduction="none")
        return (loss, *t.autograd.grad(loss.sum(), (x, y)))

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binary_cross_entropy_double_backward_and_bceloss(reftorch, dtype):
    def run(t):
        dt = getattr(t, dtype)
        x = t.tensor([2., -1., 0.3], dtype=dt).requires_grad_()
        y = t.tensor([0., 1., 0.4], dtype=dt)
        loss = t.nn.BCELoss(weight=t.tensor([1., 2., 3.], dtype=dt))(x.sigmoid(), y)
        (g,) = t.autograd.grad(loss, x, create_graph=True)
        (gg,) = t.autograd.grad((g * g).sum(), x)
        return loss, g, gg

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)


# ------------------------------------------------------------------------- embedding max_norm, plain weight
@pytest.mark.parametrize("fn", ["embedding", "embedding_bag"])
@pytest.mark.parametrize("leaf", [True, False])
def test_embedding_max_norm_keeps_the_gradient_of_a_plain_weight(reftorch, fn, leaf):
    # torch renormalises the looked-up rows in place under no_grad, then records the lookup: the weight (a leaf,
    # or a non-leaf whose gradient flows to its base) gets the lookup's gradient
    w0 = _rand(5, 3) * 2

    def run(t):
        base = t.tensor(w0).requires_grad_()
        w = base if leaf else base * 1.0
        if fn == "embedding":
            out = t.nn.functional.embedding(t.tensor([[0, 2], [2, 4]]), w, max_norm=1.0)
        else:
            out = t.nn.functional.embedding_bag(t.tensor([0, 2, 2, 4]), w, t.tensor([0, 2]), max_norm=1.0)
        (out * t.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
        return out, w.detach(), base.grad

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref)


def test_embedding_renorm_on_a_leaf_that_requires_grad_raises(reftorch):
    from _compare import assert_same_error

    assert_same_error(RuntimeError, lambda t: t.embedding_renorm_(t.ones(4, 3, requires_grad=True),
                                                                  t.tensor([0, 1]), 1.0, 2.0), reftorch)


# ------------------------------------------------------------------------------------------ float64 conv3d
@pytest.mark.filterwarnings("ignore:Using padding='same'")  # torch's note on the even kernel
@pytest.mark.parametrize("fn,xs,ws,bias,kwargs", [
    ("conv3d", (1, 2, 4, 4, 4), (3, 2, 2, 2, 2), False, {}),
    ("conv3d", (2, 4, 5, 6, 5), (4, 2, 3, 2, 3), True, dict(stride=(1, 2, 1), padding=1, groups=2,
                                                              dilation=(1, 1, 2))),
    ("conv3d", (2, 3, 4, 5, 6), (2, 3, 2, 3, 2), True, dict(padding="same")),
    ("conv3d", (3, 4, 5, 6), (2, 3, 1, 1, 1), True, {}),  # unbatched, 1x1x1
    ("conv_transpose3d", (1, 2, 3, 2, 3), (2, 2, 2, 3, 2), False, dict(stride=(1, 2, 1))),
    ("conv_transpose3d", (2, 4, 3, 3, 3), (4, 2, 3, 2, 3), True, dict(stride=2, padding=1, output_padding=1,
                                                                        groups=2, dilation=(1, 2, 1))),
])
def test_float64_conv3d_is_exact(reftorch, fn, xs, ws, bias, kwargs):
    # MindSpore's Conv3D has no float64 kernel: im2col + MatMul in float64, to float64 precision
    x0, w0, b0 = _rand(*xs, dtype=np.float64), _rand(*ws, seed=1, dtype=np.float64), _rand(ws[0], seed=2,
                                                                                             dtype=np.float64)
    if fn == "conv_transpose3d":
        b0 = _rand(ws[1] * kwargs.get("groups", 1), seed=2, dtype=np.float64)

    def run(t):
        x, w = t.tensor(x0).requires_grad_(), t.tensor(w0).requires_grad_()
        b = t.tensor(b0).requires_grad_() if bias else None
        out = getattr(t.nn.functional, fn)(x, w, b, **kwargs)
        (out * out).sum().backward()
        return (out, x.grad, w.grad) + ((b.grad,) if bias else ())

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-12, atol=1e-12)


def test_float64_conv3d_double_backward_and_column_bands(reftorch, monkeypatch):
    # the column buffer split into bands along the output depth gives the same values; create_graph works
    from mindtorch.torch._ops import nn_ops

    monkeypatch.setattr(nn_ops, "_IM2COL_MAX_ELEMENTS", 200)
    x0, w0 = _rand(2, 3, 7, 5, 6, dtype=np.float64), _rand(4, 3, 3, 2, 2, seed=1, dtype=np.float64)

    def run(t):
        x, w = t.tensor(x0).requires_grad_(), t.tensor(w0).requires_grad_()
        out = t.nn.functional.conv3d(x, w, stride=(2, 1, 1), padding=(1, 0, 1), dilation=(1, 2, 1))
        (gx,) = t.autograd.grad((out * out).sum(), x, create_graph=True)
        return out, gx, t.autograd.grad((gx * gx).sum(), w)[0]

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-12, atol=1e-11)
