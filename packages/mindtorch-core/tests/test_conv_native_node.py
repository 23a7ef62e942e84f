"""The CPU native convolution as a custom autograd node (`_NativeConv2d`: Conv2D forward, Conv2DBackpropInput /
Conv2DBackpropFilter called directly in backward), against real torch: conv2d/conv1d values and the gradients of
input, weight and bias over strides, paddings, dilation, groups, batch sizes, kernel sizes and a non-contiguous
input; a data batch that does not require grad; double backward."""
import warnings

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

F = torch.nn.functional

pytestmark = pytest.mark.skipif(ms.get_context("device_target") != "CPU", reason="the node is the CPU kernel")

CASES = [  # input shape, weight shape, conv kwargs
    ((2, 3, 9, 9), (4, 3, 3, 3), {}),
    ((1, 3, 9, 9), (4, 3, 3, 3), dict(padding=1)),  # batch 1
    ((2, 3, 9, 8), (4, 3, 3, 3), dict(stride=2, padding=1)),
    ((2, 3, 10, 10), (5, 3, 5, 5), dict(padding=2)),
    ((2, 3, 11, 11), (5, 3, 5, 5), dict(stride=2)),
    ((2, 3, 10, 10), (4, 3, 3, 3), dict(padding="same")),
    ((2, 3, 10, 10), (4, 3, 4, 4), dict(padding="same")),  # even kernel: asymmetric padding
    ((2, 3, 9, 9), (4, 3, 3, 3), dict(dilation=2, padding=1)),
    ((2, 4, 9, 9), (6, 2, 3, 3), dict(groups=2, padding=1)),
    ((2, 4, 9, 8), (6, 2, 3, 3), dict(stride=2, padding=1, dilation=2, groups=2)),
    ((1, 4, 7, 7), (4, 1, 3, 3), dict(groups=4, padding=1)),  # depthwise
    ((2, 3, 8, 8), (5, 3, 1, 1), {}),
    ((2, 3, 8, 8), (5, 3, 1, 1), dict(stride=2)),
]


def _ids(cases):
    return [f"{c[0]}x{c[1]}-{c[2]}".replace(" ", "") for c in cases]


@pytest.fixture
def native(pin_kernel):
    pin_kernel("conv2d", "native")


def _values_and_grads(lib, conv, x, w, b, kw, wrt_input=True, transpose=False):
    """conv output and the gradients of sum(out ** 2) w.r.t. (input,) weight and bias."""
    xt = lib.tensor(x, requires_grad=wrt_input)
    wt, bt = lib.tensor(w, requires_grad=True), lib.tensor(b, requires_grad=True)
    inp = xt.transpose(-1, -2) if transpose else xt  # non-contiguous (a transposed view)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's UserWarning for padding='same' with an even kernel
        out = conv(lib)(inp, wt, bt, **kw)
    leaves = ([xt] if wrt_input else []) + [wt, bt]
    return out, lib.autograd.grad((out ** 2).sum(), leaves)


def _case_arrays(case, seed):
    """(x, w, b, kw) for a (x shape, w shape, conv kwargs) case, random from `seed`."""
    xs, ws, kw = case
    rng = np.random.RandomState(seed)
    return rng.randn(*xs).astype(np.float32), rng.randn(*ws).astype(np.float32), \
        rng.randn(ws[0]).astype(np.float32), kw


def _check_against_torch(reftorch, fname, x, w, b, kw, **opts):
    """mindtorch's and torch's F.<fname> agree on the output and on the gradients of sum(out ** 2)."""
    out_m, grads_m = _values_and_grads(torch, lambda t: getattr(t.nn.functional, fname), x, w, b, kw, **opts)
    out_r, grads_r = _values_and_grads(reftorch, lambda t: getattr(t.nn.functional, fname), x, w, b, kw, **opts)
    assert_same(out_m, out_r, rtol=1e-5, atol=1e-5)
    for m, r in zip(grads_m, grads_r):
        assert_same(m, r, rtol=1e-4, atol=5e-4)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_conv2d_native_node_matches_torch(reftorch, native, case):
    _check_against_torch(reftorch, "conv2d", *_case_arrays(case, 0))


def test_conv2d_native_node_is_the_recorded_node(native):
    x, w = torch.randn(2, 3, 6, 6, requires_grad=True), torch.randn(4, 3, 3, 3, requires_grad=True)
    assert "_NativeConv2dBackward" in repr(F.conv2d(x, w).grad_fn)
    with torch.no_grad():
        assert F.conv2d(x, w).grad_fn is None


def test_conv2d_native_node_non_contiguous_input(reftorch, native):
    rng = np.random.RandomState(1)
    x, w, b = rng.randn(2, 3, 8, 9).astype(np.float32), rng.randn(4, 3, 3, 3).astype(np.float32), \
        rng.randn(4).astype(np.float32)
    kw = dict(stride=2, padding=1)
    _check_against_torch(reftorch, "conv2d", x, w, b, kw, transpose=True)


@pytest.mark.parametrize("kw", [{}, dict(stride=2, padding=1)], ids=["s1", "s2p1"])
def test_conv2d_native_node_data_input_without_grad(reftorch, native, kw):
    """A data batch (a leaf not requiring grad, as every first layer sees): only weight and bias gradients."""
    rng = np.random.RandomState(2)
    x, w, b = rng.randn(3, 3, 12, 12).astype(np.float32), rng.randn(6, 3, 5, 5).astype(np.float32), \
        rng.randn(6).astype(np.float32)
    _check_against_torch(reftorch, "conv2d", x, w, b, kw, wrt_input=False)


def test_conv2d_native_node_module_backward(reftorch, native):
    """nn.Conv2d + loss.backward(): the .grad of weight and bias."""
    rng = np.random.RandomState(3)
    x = rng.randn(2, 3, 7, 7).astype(np.float32)
    mine, ref = torch.nn.Conv2d(3, 4, 3, padding=1), reftorch.nn.Conv2d(3, 4, 3, padding=1)
    with torch.no_grad():
        mine.weight.copy_(torch.tensor(ref.weight.detach().numpy()))
        mine.bias.copy_(torch.tensor(ref.bias.detach().numpy()))
    (mine(torch.tensor(x)) ** 2).mean().backward()
    (ref(reftorch.tensor(x)) ** 2).mean().backward()
    assert_same(mine.weight.grad, ref.weight.grad, rtol=1e-4, atol=1e-5)
    assert_same(mine.bias.grad, ref.bias.grad, rtol=1e-4, atol=1e-5)


CASES_1D = [
    ((2, 4, 11), (6, 4, 3), {}),
    ((1, 4, 11), (6, 4, 5), dict(padding="same")),
    ((2, 4, 11), (6, 2, 3), dict(stride=2, padding=1, groups=2)),
    ((2, 4, 12), (6, 4, 3), dict(dilation=2, padding=2)),
    ((2, 4, 11), (6, 4, 1), dict(stride=2)),
]


@pytest.mark.parametrize("case", CASES_1D, ids=_ids(CASES_1D))
def test_conv1d_native_node_matches_torch(reftorch, native, case):
    _check_against_torch(reftorch, "conv1d", *_case_arrays(case, 4))


@pytest.mark.parametrize("kw", [dict(padding=1), dict(stride=2, padding=1, groups=2)], ids=["p1", "s2g2"])
def test_conv2d_native_node_double_backward(reftorch, native, kw):
    """create_graph=True: the gradients of a function of the first gradients (as a gradient penalty takes)."""
    rng = np.random.RandomState(5)
    x, w, b = rng.randn(2, 4, 7, 7).astype(np.float32), rng.randn(6, 4 // kw.get("groups", 1), 3, 3).astype(
        np.float32), rng.randn(6).astype(np.float32)
    res = []
    for lib in (torch, reftorch):
        xt, wt, bt = (lib.tensor(a, requires_grad=True) for a in (x, w, b))
        out = lib.nn.functional.conv2d(xt, wt, bt, **kw)
        gx, gw = lib.autograd.grad((out ** 2).sum(), (xt, wt), create_graph=True)
        res.append(lib.autograd.grad((gx ** 2).sum() + (gw ** 2).sum(), (xt, wt, bt)))
    for m, r in zip(*res):
        assert_same(m, r, rtol=1e-4, atol=1e-2)
