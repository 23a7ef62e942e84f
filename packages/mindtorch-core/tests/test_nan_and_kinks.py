"""Activations at their kinks and on non-finite values, and NaN/inf through pooling, softmax and cross_entropy,
against real PyTorch.

torch picks each activation's branch with one comparison (leaky_relu: x > 0, elu: x <= 0, hardtanh: x <= min or
x >= max), which fixes both the gradient at the kink and where NaN goes (the failed comparison's branch: NaN stays
NaN). A diverged batch must give torch's NaN, not a finite number. Gradients are compared at finite inputs only:
where the input itself is NaN the loss is NaN anyway.
"""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

# every activation's kinks (0, +-3, 6, the thresholds/lambdas used below), values on both sides, and the specials
X = np.array([-6.0, -3.0, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 3.0, 6.0, 7.0,
              np.nan, np.inf, -np.inf], np.float32)
FINITE = np.isfinite(X)

ACTIVATIONS = {
    "relu": lambda t, a: t.relu(a),
    "relu6": lambda t, a: t.nn.functional.relu6(a),
    "leaky_relu": lambda t, a: t.nn.functional.leaky_relu(a, 0.1),
    "hardtanh": lambda t, a: t.nn.functional.hardtanh(a),
    "hardtanh_wide": lambda t, a: t.nn.functional.hardtanh(a, -3.0, 6.0),
    "elu": lambda t, a: t.nn.functional.elu(a),
    "elu_alpha": lambda t, a: t.nn.functional.elu(a, 0.5),
    "celu": lambda t, a: t.nn.functional.celu(a, 2.0),
    "selu": lambda t, a: t.nn.functional.selu(a),
    "hardsigmoid": lambda t, a: t.nn.functional.hardsigmoid(a),
    "softplus": lambda t, a: t.nn.functional.softplus(a),
    "softplus_beta": lambda t, a: t.nn.functional.softplus(a, 2.0, 3.0),
    "threshold": lambda t, a: t.nn.functional.threshold(a, 0.5, -2.0),
    "hardshrink": lambda t, a: t.nn.functional.hardshrink(a, 1.0),
    "softshrink": lambda t, a: t.nn.functional.softshrink(a, 1.0),
    "prelu": lambda t, a: t.nn.functional.prelu(a, t.tensor([0.25])),
    "rrelu_eval": lambda t, a: t.nn.functional.rrelu(a, training=False),
    "mish": lambda t, a: t.nn.functional.mish(a),
    "silu": lambda t, a: t.nn.functional.silu(a),
    "gelu": lambda t, a: t.nn.functional.gelu(a),
    "sigmoid": lambda t, a: t.sigmoid(a),
    "logsigmoid": lambda t, a: t.nn.functional.logsigmoid(a),
}


def _run(t, fn, x, grad):
    a = t.tensor(x, requires_grad=grad)
    y = fn(t, a * 1)  # a non-leaf input, as in a network
    if grad:
        (y * t.arange(1, y.numel() + 1, dtype=y.dtype)).sum().backward()
        return y, a.grad
    return y, None


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@pytest.mark.parametrize("grad", [False, True])
def test_activation_kinks_and_specials(reftorch, name, grad):
    fn = ACTIVATIONS[name]
    (y, g), (ry, rg) = _run(torch, fn, X, grad), _run(reftorch, fn, X, grad)
    assert_same(y, ry)
    m, r = y.detach().numpy(), ry.detach().numpy()
    zero = r == 0
    assert np.array_equal(np.signbit(m[zero]), np.signbit(r[zero])), "sign of zero differs"
    if grad:
        assert_same(g[torch.tensor(FINITE)], rg[reftorch.tensor(FINITE)])


@pytest.mark.parametrize("name", ["relu6", "hardtanh", "leaky_relu", "elu", "threshold"])
def test_inplace_activation_kinks(reftorch, name):
    """The F-style inplace=True paths compute the same values (NaN kept) into the input."""
    calls = {"relu6": lambda F, a: F.relu6(a, inplace=True), "hardtanh": lambda F, a: F.hardtanh(a, inplace=True),
             "leaky_relu": lambda F, a: F.leaky_relu(a, 0.2, inplace=True), "elu": lambda F, a: F.elu(a, inplace=True),
             "threshold": lambda F, a: F.threshold(a, 0.5, -2.0, inplace=True)}
    out = []
    for t in (torch, reftorch):
        a = t.tensor(X)
        r = calls[name](t.nn.functional, a)
        assert r is a
        out.append(a)
    assert_same(out[0], out[1])


def _with_specials():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    x[0, 0, 1, 1] = np.nan
    x[1, 2, 5, 4] = np.nan
    x[0, 1, 2, 2] = np.inf
    x[1, 0, 6, 6] = -np.inf
    return x


POOLS = {
    "max_pool1d": lambda t, a: t.nn.functional.max_pool1d(a.flatten(2), 2),
    "max_pool1d_pad": lambda t, a: t.nn.functional.max_pool1d(a.flatten(2), 3, 2, 1),
    "max_pool2d": lambda t, a: t.nn.functional.max_pool2d(a, 2),
    "max_pool2d_pad": lambda t, a: t.nn.functional.max_pool2d(a, 3, 2, 1),
    "max_pool2d_indices": lambda t, a: t.nn.functional.max_pool2d(a, 3, 2, 1, return_indices=True)[0],
    "max_pool3d": lambda t, a: t.nn.functional.max_pool3d(a.unsqueeze(0), 2),
    "adaptive_max_pool1d": lambda t, a: t.nn.functional.adaptive_max_pool1d(a.flatten(2), 5),
    "adaptive_max_pool2d": lambda t, a: t.nn.functional.adaptive_max_pool2d(a, (3, 3)),
    "adaptive_max_pool2d_uniform": lambda t, a: t.nn.functional.adaptive_max_pool2d(a, 2),
    "lp_pool2d": lambda t, a: t.nn.functional.lp_pool2d(a, 2, 2),
    "avg_pool2d": lambda t, a: t.nn.functional.avg_pool2d(a, 2),
    "softmax": lambda t, a: t.softmax(a.flatten(2), 2),
    "log_softmax": lambda t, a: t.log_softmax(a.flatten(2), 2),
    "softmax_dim1": lambda t, a: t.nn.functional.softmax(a, 1),
    "amax": lambda t, a: a.amax((2, 3)),
    "max_dim": lambda t, a: a.flatten(2).max(2)[0],
}


@pytest.mark.parametrize("name", sorted(POOLS))
@pytest.mark.parametrize("grad", [False, True])
def test_nan_and_inf_propagate_like_torch(reftorch, name, grad):
    """A window (row) holding NaN gives NaN, as torch's; a softmax row holding NaN or +inf is NaN throughout."""
    x = _with_specials()
    y = POOLS[name](torch, torch.tensor(x, requires_grad=grad) * 1)
    ry = POOLS[name](reftorch, reftorch.tensor(x, requires_grad=grad) * 1)
    assert_same(y, ry)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_cross_entropy_mean_with_nonfinite_logits(reftorch, bad):
    """The fused kernel gave inf where torch's mean is NaN; finite logits keep it."""
    x = np.array([[-1.5, 0.0, 2.0, 0.3], [-1.0, 0.7, -0.25, 0.5]], np.float32)
    x[1, 1] = bad
    for reduction in ("mean", "sum", "none"):
        got = torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor([1, 2]), reduction=reduction)
        ref = reftorch.nn.functional.cross_entropy(reftorch.tensor(x), reftorch.tensor([1, 2]), reduction=reduction)
        assert_same(got, ref)
