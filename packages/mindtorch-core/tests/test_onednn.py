"""oneDNN's CPU kernels (`_ops/_onednn.py`, on the libdnnl inside MindSpore's wheel) behind conv2d/conv1d,
max/avg pooling, layer_norm, gelu, matmul and linear, against real torch: values and gradients over strides,
padding, dilation, groups, ceil mode, ties and NaN, batches large enough to be split between two threads,
non-contiguous inputs, double backward, and the fallback when the library is switched off. (Convolution
geometries are also run per kernel in test_conv_kernels.py.)"""
import os
import subprocess
import sys
import warnings

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same, assert_same_error

import mindtorch.torch as torch
from mindtorch.torch._ops import _onednn

F = torch.nn.functional

pytestmark = pytest.mark.skipif(ms.get_context("device_target") != "CPU" or not _onednn.available(),
                                reason="oneDNN kernels are the CPU float32 path")


def _pair(reftorch, *arrays):
    mine = [torch.tensor(a, requires_grad=True) for a in arrays]
    ref = [reftorch.tensor(a, requires_grad=True) for a in arrays]
    return mine, ref


def _check_grads(reftorch, mine, ref, out_m, out_r, rtol=1e-4, atol=1e-4):
    """Backward of the same random output gradient through both; compare every input's gradient."""
    g = np.random.RandomState(7).randn(*out_r.shape).astype(np.float32)
    out_r.backward(reftorch.from_numpy(g))
    out_m.backward(torch.tensor(g))
    for m, r in zip(mine, ref):
        assert_same(m.grad, r.grad, rtol=rtol, atol=atol)


CONV = [  # input, weight, kwargs
    ((16, 3, 12, 12), (6, 3, 5, 5), {}),  # batch split between the two threads
    ((9, 4, 9, 8), (6, 2, 3, 3), dict(stride=2, padding=1, dilation=2, groups=2)),  # odd batch split
    ((1, 4, 7, 7), (4, 1, 3, 3), dict(groups=4, padding=1)),
    ((10, 8, 6, 6), (8, 8, 1, 1), dict(stride=2)),
    ((2, 3, 10, 10), (5, 3, 4, 4), dict(padding="same")),
]


CONV3D = [
    ((10, 3, 6, 7, 8), (4, 3, 3, 3, 3), dict(padding=1)),
    ((2, 4, 7, 7, 7), (6, 2, 3, 2, 3), dict(stride=(2, 1, 2), dilation=(1, 2, 1), groups=2)),
]


def test_conv2d_is_onednn_and_data_batch_gets_no_grad(reftorch):
    x = torch.randn(8, 3, 9, 9)  # a data batch: no grad wanted, so no backward-data kernel
    conv = torch.nn.Conv2d(3, 4, 3)
    out = conv(x)
    out.sum().backward()
    assert x.grad is None and conv.weight.grad.shape == (4, 3, 3, 3) and conv.bias.grad.shape == (4,)
    assert any(k[0] == "fwd" and k[1] == (4, 3, 9, 9) for k in _onednn._CACHE)  # batch 8 ran as two halves
    ref = reftorch.nn.Conv2d(3, 4, 3)
    with reftorch.no_grad():
        ref.weight.copy_(reftorch.tensor(conv.weight.detach().numpy()))
        ref.bias.copy_(reftorch.tensor(conv.bias.detach().numpy()))
    r = ref(reftorch.tensor(x.numpy()))
    r.sum().backward()
    assert_same(conv.weight.grad, ref.weight.grad, rtol=1e-4, atol=1e-4)
    assert_same(conv.bias.grad, ref.bias.grad, rtol=1e-5, atol=1e-4)


def test_conv_non_contiguous_input_and_conv1d(reftorch):
    rng = np.random.RandomState(3)
    x = rng.randn(4, 3, 10, 12).astype(np.float32)
    w = rng.randn(5, 3, 3, 3).astype(np.float32)
    xt = torch.tensor(x).transpose(2, 3)  # (4, 3, 12, 10), a strided view
    out = F.conv2d(xt, torch.tensor(w), padding=1)
    ref = reftorch.nn.functional.conv2d(reftorch.tensor(x).transpose(2, 3), reftorch.tensor(w), padding=1)
    assert_same(out, ref, rtol=1e-5, atol=1e-5)
    x1, w1 = rng.randn(8, 4, 20).astype(np.float32), rng.randn(6, 4, 5).astype(np.float32)
    mine, refs = _pair(reftorch, x1, w1)
    out_m, out_r = F.conv1d(*mine, stride=2, padding=2), reftorch.nn.functional.conv1d(*refs, stride=2, padding=2)
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
    _check_grads(reftorch, mine, refs, out_m, out_r)


POOL = [  # input shape, kwargs
    ((16, 3, 8, 8), dict(kernel_size=2)),  # LeNet's pool, batch split
    ((9, 2, 9, 7), dict(kernel_size=3, stride=2, padding=1)),  # ResNet's stem pool, odd batch
    ((2, 2, 9, 9), dict(kernel_size=3, stride=2, ceil_mode=True)),
    ((2, 2, 10, 11), dict(kernel_size=2, stride=2, ceil_mode=True)),
    ((2, 2, 9, 9), dict(kernel_size=(3, 2), stride=(1, 2), padding=(1, 0))),
]


@pytest.mark.parametrize("case", POOL, ids=lambda c: f"{c[0]}-{sorted(c[1].items())}")
def test_max_pool2d_values_and_grads_with_ties(reftorch, case):
    xs, kw = case
    rng = np.random.RandomState(1)
    x = np.maximum(rng.randn(*xs), 0).astype(np.float32)  # ReLU output: many tied zeros in a window
    x[..., 1, :] = x[..., 0, :]  # and tied equal maxima
    mine, ref = _pair(reftorch, x)
    out_m, out_r = F.max_pool2d(*mine, **kw), reftorch.nn.functional.max_pool2d(*ref, **kw)
    assert_same(out_m, out_r, rtol=0, atol=0)
    # the gradient goes to the first maximum of a window, as torch's
    _check_grads(reftorch, mine, ref, out_m, out_r, rtol=0, atol=1e-6)


@pytest.mark.parametrize("case", POOL + [((2, 2, 9, 9), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True))],
                         ids=lambda c: f"{c[0]}-{sorted(c[1].items())}")
@pytest.mark.parametrize("count_include_pad", [True, False])
def test_avg_pool2d_values_and_grads(reftorch, case, count_include_pad):
    xs, kw = case
    rng = np.random.RandomState(2)
    mine, ref = _pair(reftorch, rng.randn(*xs).astype(np.float32))
    out_m = F.avg_pool2d(*mine, count_include_pad=count_include_pad, **kw)
    out_r = reftorch.nn.functional.avg_pool2d(*ref, count_include_pad=count_include_pad, **kw)
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-6)
    _check_grads(reftorch, mine, ref, out_m, out_r, rtol=1e-5, atol=1e-6)


def test_max_pool2d_propagates_nan_and_handles_inf(reftorch):
    """oneDNN's max skips NaN where torch's propagates it: such inputs take the composed path."""
    x = np.random.RandomState(5).randn(2, 2, 6, 6).astype(np.float32)
    x[0, 0, 0, 0] = np.nan
    x[1, 1, 2, 2] = np.inf
    x[1, 0] = -np.inf
    out = F.max_pool2d(torch.tensor(x), 2)
    ref = reftorch.nn.functional.max_pool2d(reftorch.tensor(x), 2)
    np.testing.assert_array_equal(out.numpy(), ref.numpy())


def test_pooling_unbatched_and_non_contiguous(reftorch):
    x = np.random.RandomState(6).randn(3, 10, 12).astype(np.float32)
    out = F.max_pool2d(torch.tensor(x), 2)  # (C, H, W)
    ref = reftorch.nn.functional.max_pool2d(reftorch.tensor(x), 2)
    assert_same(out, ref, rtol=0, atol=0)
    out = F.avg_pool2d(torch.tensor(x).transpose(1, 2).unsqueeze(0), 3, 2)
    ref = reftorch.nn.functional.avg_pool2d(reftorch.tensor(x).transpose(1, 2).unsqueeze(0), 3, 2)
    assert_same(out, ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["conv", "conv+maxpool", "conv3d"])
def test_double_backward(reftorch, kind):
    """WGAN-GP's gradient penalty, d/dw of |d out / d x|^2, through conv2d (and max pooling) or conv3d."""
    rng = np.random.RandomState(8)
    xs, ws = ((8, 2, 5, 6, 6), (3, 2, 3, 3, 3)) if kind == "conv3d" else ((8, 2, 6, 6), (3, 2, 3, 3))
    mine, ref = _pair(reftorch, rng.randn(*xs).astype(np.float32), rng.randn(*ws).astype(np.float32))

    def penalty(t, x, w):
        conv = t.nn.functional.conv3d if kind == "conv3d" else t.nn.functional.conv2d
        y = conv(x, w, padding=1)
        if kind == "conv+maxpool":
            y = t.nn.functional.max_pool2d(y, 2)
        (g,) = t.autograd.grad((y ** 2).sum(), x, create_graph=True)
        return (g ** 2).sum()

    if kind == "conv3d":  # MindSpore 2.10 has no derivative of Conv3DBackpropInput: a clear error, not a wrong one
        with pytest.raises(NotImplementedError, match="conv3d double backward"):
            penalty(torch, *mine)
        return
    pm, pr = penalty(torch, *mine), penalty(reftorch, *ref)
    assert_same(pm, pr, rtol=1e-4, atol=1e-3)
    pm.backward()
    pr.backward()
    for m, r in zip(mine, ref):
        assert_same(m.grad, r.grad, rtol=1e-3, atol=1e-3)


def test_lenet_step_matches_torch(reftorch):
    """A LeNet training step (conv, ReLU, max pool, linear; batch 16): loss and every parameter gradient."""
    def build(t):
        t.manual_seed(0)
        return t.nn.Sequential(t.nn.Conv2d(3, 6, 5), t.nn.ReLU(), t.nn.MaxPool2d(2), t.nn.Conv2d(6, 16, 5),
                               t.nn.ReLU(), t.nn.MaxPool2d(2), t.nn.Flatten(), t.nn.Linear(16 * 5 * 5, 10))

    mine, ref = build(torch), build(reftorch)
    ref.load_state_dict({k: reftorch.tensor(v.detach().numpy()) for k, v in mine.state_dict().items()})
    rng = np.random.RandomState(9)
    x, y = rng.randn(16, 3, 32, 32).astype(np.float32), rng.randint(0, 10, 16)
    lm = F.cross_entropy(mine(torch.tensor(x)), torch.tensor(y))
    lr = reftorch.nn.functional.cross_entropy(ref(reftorch.tensor(x)), reftorch.tensor(y))
    assert_same(lm, lr, rtol=1e-5, atol=1e-5)
    lm.backward()
    lr.backward()
    for (name, pm), pr in zip(mine.named_parameters(), ref.parameters()):
        assert_same(pm.grad, pr.grad, rtol=1e-4, atol=1e-5), name


def test_switched_off_falls_back_to_mindspore_kernels():
    code = ("import numpy as np, mindtorch.torch as torch\n"
            "from mindtorch.torch._ops import _onednn, _autotune\n"
            "x = torch.randn(2, 3, 8, 8)\n"
            "w = torch.randn(4, 3, 3, 3)\n"
            "y = torch.nn.functional.max_pool2d(torch.nn.functional.conv2d(x, w), 2)\n"
            "assert not _onednn.available() and tuple(y.shape) == (2, 4, 3, 3)\n"
            "assert 'onednn' not in _autotune._CHOSEN['conv2d'].values()\n")
    env = dict(os.environ, MINDTORCH_ONEDNN="0", GLOG_v="3")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, cwd="/")
    assert r.returncode == 0, r.stderr[-2000:]


ERROR_CASES = [  # (name, call); each raises RuntimeError in both with torch's message start
    ("weight dtype", lambda T: T.nn.functional.conv2d(T.randn(2, 3, 8, 8), T.randn(4, 3, 3, 3).double()),
     "Input type"),
    ("bias dtype", lambda T: T.nn.functional.conv2d(T.randn(2, 3, 8, 8), T.randn(4, 3, 3, 3), T.randn(4).double()),
     "Input type"),
    ("no output channel", lambda T: T.nn.functional.conv2d(T.randn(2, 3, 8, 8), T.randn(0, 3, 3, 3)),
     "Given groups=1, expected weight to be at least 1 at dimension 0"),
    ("kernel larger than input", lambda T: T.nn.functional.conv2d(T.randn(2, 3, 2, 2), T.randn(4, 3, 3, 3)),
     "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3)"),
    ("groups", lambda T: T.nn.functional.conv2d(T.randn(2, 4, 8, 8), T.randn(3, 2, 3, 3), groups=2),
     "Given groups=2, expected weight to be divisible by 2 at dimension 0"),
    ("pool output too small", lambda T: T.nn.functional.max_pool2d(T.randn(2, 3, 1, 1), 2),
     "Given input size: (3x1x1). Calculated output size: (3x0x0). Output size is too small"),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_conv_and_pool_errors_match_torch(reftorch, case):
    _, call, message = case
    for T in (reftorch, torch):
        with pytest.raises(RuntimeError) as info:
            call(T)
        assert message in str(info.value), (T.__name__, str(info.value))


@pytest.mark.parametrize("op", ["max_pool2d", "avg_pool2d"])
def test_pooling_an_empty_batch(reftorch, op):
    for T in (reftorch, torch):
        out = getattr(T.nn.functional, op)(T.randn(0, 3, 8, 8), 2)
        assert tuple(out.shape) == (0, 3, 4, 4)
    out, idx = F.max_pool2d(torch.randn(0, 3, 8, 8), 2, return_indices=True)
    assert tuple(idx.shape) == (0, 3, 4, 4) and idx.dtype == torch.int64


CONV_T = [  # input, weight (C_in, C_out/groups, *k), kwargs
    ((16, 8, 5, 5), (8, 4, 4, 4), dict(stride=2, padding=1)),  # DCGAN's upsampling block, batch split
    ((2, 6, 4, 5), (6, 2, 3, 3), dict(stride=2, padding=1, output_padding=1, groups=3)),
    ((3, 4, 5, 5), (4, 5, 3, 2), dict(stride=(1, 2), dilation=(2, 1), padding=(2, 0))),
    ((9, 10, 1, 1), (10, 6, 4, 4), {}),  # DCGAN's first layer: a latent vector to 4x4
    ((2, 3, 3, 4, 4), (3, 2, 3, 3, 3), dict(stride=2, padding=1, output_padding=1)),  # 3-d
]


CONV_CASES = ([("conv2d", c) for c in CONV] + [("conv3d", c) for c in CONV3D]
              + [("conv_transpose3d" if len(c[0]) == 5 else "conv_transpose2d", c) for c in CONV_T])


@pytest.mark.parametrize("name,case", CONV_CASES, ids=lambda c: c if isinstance(c, str) else
                         f"{c[0]}x{c[1]}-{sorted(c[2])}")
@pytest.mark.parametrize("bias", [True, False])
def test_convolution_values_and_grads(reftorch, name, case, bias):
    xs, ws, kw = case
    rng = np.random.RandomState(0)
    arrays = [rng.randn(*xs).astype(np.float32), rng.randn(*ws).astype(np.float32)]
    if bias:  # a transposed convolution's weight is (C_in, C_out/groups, *k)
        arrays.append(rng.randn(ws[1] * kw.get("groups", 1) if "transpose" in name else ws[0]).astype(np.float32))
    mine, ref = _pair(reftorch, *arrays)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's warning for 'same' with an even kernel
        out_r = getattr(reftorch.nn.functional, name)(*ref, **kw)
    out_m = getattr(F, name)(*mine, **kw)
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
    _check_grads(reftorch, mine, ref, out_m, out_r, rtol=1e-4, atol=2e-4)


def test_conv_transpose_double_backward_and_unbatched(reftorch):
    rng = np.random.RandomState(12)
    mine, ref = _pair(reftorch, rng.randn(4, 3, 5, 5).astype(np.float32), rng.randn(3, 2, 3, 3).astype(np.float32))
    res = []
    for T, (x, w) in ((torch, mine), (reftorch, ref)):
        y = T.nn.functional.conv_transpose2d(x, w, stride=2)
        (g,) = T.autograd.grad((y ** 2).sum(), x, create_graph=True)
        (g ** 2).sum().backward()
        res.append((g, x.grad, w.grad))
    for m, r in zip(*res):
        assert_same(m, r, rtol=1e-4, atol=1e-3)
    x1 = rng.randn(3, 5, 5).astype(np.float32)
    w1 = rng.randn(3, 2, 3, 3).astype(np.float32)
    assert_same(F.conv_transpose2d(torch.tensor(x1), torch.tensor(w1), stride=2),
                reftorch.nn.functional.conv_transpose2d(reftorch.tensor(x1), reftorch.tensor(w1), stride=2),
                rtol=1e-5, atol=1e-5)


LAYER_NORM = [  # input shape, normalized_shape, affine: True / False / "bias" (a bias without a weight)
    ((4, 6, 8), (8,), True),
    ((4, 6, 8), (6, 8), True),
    ((5, 8), (8,), False),
    ((8,), (8,), True),
    ((3, 10), (10,), "bias"),
    ((256, 300), (300,), True),  # large enough to be split between the two threads
]


@pytest.mark.parametrize("case", LAYER_NORM, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in LAYER_NORM])
def test_layer_norm_values_grads_and_double_backward(reftorch, case):
    shape, ns, affine = case
    rng = np.random.RandomState(10)
    x = (rng.randn(*shape) * 3 + 1).astype(np.float32)
    w = rng.randn(*ns).astype(np.float32) if affine is True else None
    b = rng.randn(*ns).astype(np.float32) if affine else None
    g = rng.randn(*shape).astype(np.float32)

    def run(t):
        x1 = t.tensor(x, requires_grad=True)
        w1 = None if w is None else t.tensor(w, requires_grad=True)
        b1 = None if b is None else t.tensor(b, requires_grad=True)
        y = t.nn.functional.layer_norm(x1, ns, w1, b1)
        (y * t.tensor(g)).sum().backward()
        # double backward (a gradient penalty through the normalisation): d |dL/dx|^2 / d(x, w)
        x2 = t.tensor(x, requires_grad=True)
        w2 = None if w is None else t.tensor(w, requires_grad=True)
        y2 = t.nn.functional.layer_norm(x2, ns, w2, None if b is None else t.tensor(b))
        (gx,) = t.autograd.grad((y2 * t.tensor(g)).sum(), x2, create_graph=True)
        (gx * gx).sum().backward()
        grad = (lambda p: None if p is None else p.grad)
        return [y, x1.grad, grad(w1), grad(b1), gx, x2.grad, grad(w2)]

    for m, r in zip(run(torch), run(reftorch)):
        if r is not None:
            assert_same(m, r, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_values_grads_and_double_backward(reftorch, approximate):
    x = (np.random.RandomState(11).randn(64, 1024) * 3).astype(np.float32)

    def run(t):
        x1 = t.tensor(x, requires_grad=True)
        y = t.nn.functional.gelu(x1, approximate=approximate)
        y.sum().backward()
        x2 = t.tensor(x, requires_grad=True)
        (gx,) = t.autograd.grad(t.nn.functional.gelu(x2, approximate=approximate).sum(), x2, create_graph=True)
        gx.sum().backward()
        return y, x1.grad, gx, x2.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r, rtol=1e-5, atol=1e-5)
    if approximate == "none":  # oneDNN's gelu_erf is torch's formula: bit-identical
        assert np.array_equal(F.gelu(torch.tensor(x)).numpy(), reftorch.nn.functional.gelu(reftorch.tensor(x)).numpy())


def test_layer_norm_and_gelu_other_dtypes_and_empty(reftorch):
    """float64 and empty inputs keep the MindSpore composition; the module forms and no_grad work."""
    x = np.random.RandomState(12).randn(3, 16)
    for t_in in (x, x.astype(np.float32)[:0]):
        ref = reftorch.nn.functional.layer_norm(reftorch.tensor(t_in), (16,))
        assert_same(F.layer_norm(torch.tensor(t_in), (16,)), ref, rtol=1e-6, atol=1e-6)
        assert_same(F.gelu(torch.tensor(t_in)), reftorch.nn.functional.gelu(reftorch.tensor(t_in)))
    with torch.no_grad():
        y = torch.nn.LayerNorm(16)(torch.randn(2, 16))
    assert not y.requires_grad and tuple(y.shape) == (2, 16)


def _rand(*shape):
    return np.random.RandomState(sum(shape) + len(shape)).randn(*shape).astype(np.float32)


MATMUL = [  # (name, fn(T, *tensors), arrays): products through `misc.onednn_matmul` on CPU float32
    ("2d", lambda T, a, b: a @ b, (_rand(5, 7), _rand(7, 3))),
    ("3d@2d folded", lambda T, a, b: a @ b, (_rand(4, 5, 7), _rand(7, 3))),
    ("batched", lambda T, a, b: a @ b, (_rand(16, 5, 7), _rand(16, 7, 3))),  # split between the two threads
    ("broadcast batch", lambda T, a, b: a @ b, (_rand(2, 1, 5, 7), _rand(3, 7, 3))),
    ("2d@3d", lambda T, a, b: a @ b, (_rand(5, 7), _rand(2, 7, 3))),
    ("transposed views", lambda T, a, b: a.transpose(1, 2) @ b.transpose(-2, -1), (_rand(4, 7, 5), _rand(4, 3, 7))),
    ("attention", lambda T, a, b: (a.view(4, 6, 2, 4).transpose(1, 2) @ a.view(4, 6, 2, 4).transpose(1, 2)
                                   .transpose(-1, -2)) @ b, (_rand(4, 6, 8), _rand(6, 3))),
    ("linear 3d", lambda T, a, w, b: T.nn.functional.linear(a, w, b), (_rand(3, 5, 7), _rand(4, 7), _rand(4))),
    ("linear no bias", lambda T, a, w: T.nn.functional.linear(a, w), (_rand(6, 7), _rand(4, 7))),
    ("linear of a view", lambda T, a, w, b: T.nn.functional.linear(a.transpose(0, 1), w, b),
     (_rand(5, 3, 7), _rand(4, 7), _rand(4))),
    ("linear large", lambda T, a, w, b: T.nn.functional.linear(a, w, b), (_rand(512, 64), _rand(96, 64), _rand(96))),
    ("bmm", lambda T, a, b: T.bmm(a, b), (_rand(3, 4, 5), _rand(3, 5, 2))),
    ("mm of t()", lambda T, a, b: T.mm(a, b.t()), (_rand(3, 4), _rand(2, 4))),
    ("einsum", lambda T, a, b: T.einsum("bij,bjk->bik", a, b), (_rand(3, 4, 5), _rand(3, 5, 2))),
]


@pytest.mark.parametrize("case", MATMUL, ids=[c[0] for c in MATMUL])
@pytest.mark.parametrize("order", ["first", "second"])
def test_matmul_and_linear_values_and_grads(reftorch, case, order):
    """Values and gradients; "second": the gradient of the gradients' squared norm (create_graph)."""
    _, fn, arrays = case

    def run(t):
        ts = [t.tensor(a, requires_grad=True) for a in arrays]
        y = fn(t, *ts)
        g = t.tensor(np.random.RandomState(13).randn(*tuple(y.shape)).astype(np.float32))
        if order == "first":
            y.backward(g)
        else:
            grads = t.autograd.grad((y * g).sum(), ts, create_graph=True)
            sum((x * x).sum() for x in grads).backward()
        return [y] + [x.grad for x in ts]

    for m, r in zip(run(torch), run(reftorch)):
        if r is None:
            assert m is None
        else:
            assert_same(m, r, rtol=1e-4, atol=1e-4)


def test_matmul_other_dtypes_empty_and_no_grad(reftorch):
    a, b = _rand(3, 4), _rand(4, 2)
    assert_same(torch.tensor(a).double() @ torch.tensor(b).double(),
                reftorch.tensor(a).double() @ reftorch.tensor(b).double(), rtol=1e-12, atol=1e-12)
    assert tuple((torch.ones(0, 3) @ torch.ones(3, 2)).shape) == (0, 2)
    lin = torch.nn.Linear(4, 2)
    with torch.no_grad():
        y = lin(torch.tensor(a))
    assert not y.requires_grad and tuple(y.shape) == (3, 2)


SOFTMAX = [((4, 10), 1), ((4, 10), 0), ((2, 5, 3), 1), ((2, 5, 3), -1), ((7,), 0), ((3, 4, 64, 64), -1)]


@pytest.mark.parametrize("case", SOFTMAX, ids=[f"{c[0]}-dim{c[1]}" for c in SOFTMAX])
@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_values_grads_and_masked_rows(reftorch, case, fn):
    """oneDNN's (log_)softmax: values, gradients and a fully masked (-inf) row, which gives torch's NaN row."""
    shape, dim = case
    rng = np.random.RandomState(14)
    x, w = (rng.randn(*shape) * 3).astype(np.float32), rng.randn(*shape).astype(np.float32)
    if len(shape) == 2 and dim == 1:
        x[0, :] = -np.inf
    x.reshape(-1)[1] = -np.inf  # one masked position elsewhere

    def run(t):
        xx = t.tensor(x, requires_grad=True)
        y = getattr(t.nn.functional, fn)(xx, dim=dim)
        (y.nan_to_num() * t.tensor(w)).sum().backward()
        return y, xx.grad

    for m, r in zip(run(torch), run(reftorch)):
        assert_same(m, r, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_double_backward(reftorch, fn):
    """create_graph through (log_)softmax, against torch in float64 (torch's float32 result is within 5e-5 of it;
    mindtorch's, through MindSpore's recorded kernels, within 2e-3, as before oneDNN)."""
    rng = np.random.RandomState(15)
    x, w = (rng.randn(3, 4, 16) * 3).astype(np.float32), rng.randn(3, 4, 16).astype(np.float32)

    def run(t, dtype):
        xx = t.tensor(x.astype(dtype), requires_grad=True)
        y = getattr(t.nn.functional, fn)(xx, dim=-1)
        (g,) = t.autograd.grad((y * t.tensor(w.astype(dtype))).sum(), xx, create_graph=True)
        (g ** 2).sum().backward()
        return g.detach().numpy().astype(np.float64), xx.grad.numpy().astype(np.float64)

    for m, r in zip(run(torch, np.float32), run(reftorch, np.float64)):
        np.testing.assert_allclose(m, r, rtol=2e-3, atol=2e-3)


MATMUL_ERRORS = [  # torch's messages, checked before any kernel runs (oneDNN would report only a status code)
    ("linear in_features", lambda T: T.nn.functional.linear(T.ones(6, 7), T.ones(4, 8))),
    ("linear 3d in_features", lambda T: T.nn.functional.linear(T.ones(2, 6, 7), T.ones(4, 8), T.ones(4))),
    ("linear 1d in_features", lambda T: T.nn.functional.linear(T.ones(7), T.ones(4, 8))),
    ("linear bias size", lambda T: T.nn.functional.linear(T.ones(6, 7), T.ones(4, 7), T.ones(5))),
    ("matmul 2d", lambda T: T.ones(2, 3) @ T.ones(4, 2)),
    ("matmul batch", lambda T: T.ones(2, 3, 4) @ T.ones(3, 4, 5)),
    ("matmul batch from the right", lambda T: T.ones(7, 2, 3, 4) @ T.ones(5, 3, 4, 5)),
    ("matmul batched inner", lambda T: T.matmul(T.ones(2, 3, 4), T.ones(2, 5, 5))),
    ("matmul 2d@3d inner", lambda T: T.ones(3, 4) @ T.ones(2, 5, 6)),
]


@pytest.mark.parametrize("case", MATMUL_ERRORS, ids=[c[0] for c in MATMUL_ERRORS])
def test_matmul_and_linear_errors_match_torch(reftorch, case):
    assert_same_error(RuntimeError, case[1], reftorch)


def test_linear_with_a_one_element_bias(reftorch):
    args = (np.ones((6, 7), np.float32), np.ones((4, 7), np.float32), np.array([2.0], np.float32))
    assert_same(F.linear(*map(torch.tensor, args)), reftorch.nn.functional.linear(*map(reftorch.tensor, args)))


@pytest.mark.parametrize("case", range(12))
def test_matmul_of_strided_views_with_size_one_dims(reftorch, case):
    """oneDNN read strided views holding a size-1 dim wrongly (GPT-2's one-token query after _split_heads, a K == 1
    slice, Linear on a sliced (.., 1, K) input): products of such views equal torch's, forward and backward."""
    import mindtorch.torch as torch

    rng = np.random.default_rng(case)
    b, h, m, k, n = (int(v) for v in rng.integers(1, 4, 5))
    m, k, n = (1 if case % 3 == i else v for i, v in enumerate((m, k, n)))
    base_a = rng.standard_normal((b, m, h, 2 * k + 1)).astype(np.float32)  # viewed as (b, h, m, k) with gaps
    base_b = rng.standard_normal((b, h, n + 2, k)).astype(np.float32)  # viewed as (b, h, k, n): transposed slice
    out = []
    for T in (torch, reftorch):
        a = T.tensor(base_a, requires_grad=True)
        bb = T.tensor(base_b, requires_grad=True)
        va = a[..., 1:1 + 2 * k:2].permute(0, 2, 1, 3)
        vb = bb[:, :, 1:1 + n].transpose(-1, -2)
        y = va @ vb
        (y * y).sum().backward()
        out.append((y, a.grad, bb.grad))
    for mine, ref in zip(*out):
        np.testing.assert_allclose(mine.detach().numpy(), ref.detach().numpy(), rtol=1e-4, atol=1e-5)
