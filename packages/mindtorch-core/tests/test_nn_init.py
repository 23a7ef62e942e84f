"""nn.init against real PyTorch: deterministic initialisers value for value, random ones by their
distribution (bounds/moments computed from torch's own fan/gain helpers), in place, reproducible by seed."""
import math

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch import nn
from mindtorch.torch.nn import init


def _pair(reftorch, shape, dtype=np.float32):
    arr = np.zeros(shape, dtype)
    return nn.Parameter(torch.from_numpy(arr.copy())), reftorch.nn.Parameter(reftorch.from_numpy(arr.copy()))


@pytest.mark.parametrize("nonlinearity,param", [
    ("linear", None), ("conv1d", None), ("conv2d", None), ("conv3d", None), ("conv_transpose1d", None),
    ("conv_transpose2d", None), ("conv_transpose3d", None), ("sigmoid", None), ("tanh", None), ("relu", None),
    ("leaky_relu", None), ("leaky_relu", 0.2), ("leaky_relu", 3), ("selu", None),
])
def test_calculate_gain_matches_torch(reftorch, nonlinearity, param):
    assert init.calculate_gain(nonlinearity, param) == reftorch.nn.init.calculate_gain(nonlinearity, param)


def test_calculate_gain_errors_match_torch(reftorch):
    for args in (("softmax",), ("leaky_relu", "x"), ("leaky_relu", True)):
        with pytest.raises(ValueError) as em:
            init.calculate_gain(*args)
        with pytest.raises(ValueError) as er:
            reftorch.nn.init.calculate_gain(*args)
        assert str(em.value) == str(er.value)


@pytest.mark.parametrize("shape", [(3, 4), (8, 3, 5), (6, 2, 3, 3), (2, 4, 1, 2, 3)])
def test_fans_match_torch(reftorch, shape):
    m, r = _pair(reftorch, shape)
    assert init._calculate_fan_in_and_fan_out(m) == reftorch.nn.init._calculate_fan_in_and_fan_out(r)
    for mode in ("fan_in", "fan_out", "FAN_IN"):
        assert init._calculate_correct_fan(m, mode) == reftorch.nn.init._calculate_correct_fan(r, mode)


def test_fan_errors_match_torch(reftorch):
    m, r = _pair(reftorch, (3,))
    with pytest.raises(ValueError) as em:
        init._calculate_fan_in_and_fan_out(m)
    with pytest.raises(ValueError) as er:
        reftorch.nn.init._calculate_fan_in_and_fan_out(r)
    assert str(em.value) == str(er.value)
    m, r = _pair(reftorch, (3, 3))
    with pytest.raises(ValueError) as em:
        init.kaiming_uniform_(m, mode="fan_avg")
    with pytest.raises(ValueError) as er:
        reftorch.nn.init.kaiming_uniform_(r, mode="fan_avg")
    assert str(em.value) == str(er.value)


@pytest.mark.parametrize("fn,args,shape", [
    ("constant_", (0.3,), (2, 3)), ("ones_", (), (4,)), ("zeros_", (), (2, 2)), ("eye_", (), (3, 5)),
    ("eye_", (), (4, 2)), ("dirac_", (), (4, 3, 3)), ("dirac_", (2,), (4, 2, 3, 3)), ("dirac_", (), (2, 2, 3, 3, 3)),
])
def test_deterministic_initialisers_equal_torch_in_place(reftorch, fn, args, shape):
    m, r = _pair(reftorch, shape)
    m[...] = torch.from_numpy(np.full(shape, 7.0, np.float32))
    out = getattr(init, fn)(m, *args)
    with reftorch.no_grad():
        r.fill_(7.0)
    getattr(reftorch.nn.init, fn)(r, *args)
    assert out is m and isinstance(m, nn.Parameter)
    assert_same(m.detach(), r.detach())


def test_deterministic_errors_match_torch(reftorch):
    cases = [("eye_", (3,), ()), ("dirac_", (3, 3), ()), ("dirac_", (3, 2, 2), (2,)), ("sparse_", (2, 2, 2), (0.1,)),
             ("orthogonal_", (3,), ())]
    for fn, shape, args in cases:
        m, r = _pair(reftorch, shape)
        with pytest.raises(ValueError) as em:
            getattr(init, fn)(m, *args)
        with pytest.raises(ValueError) as er:
            getattr(reftorch.nn.init, fn)(r, *args)
        assert str(em.value) == str(er.value)


def _uniform_check(values, lo, hi):
    """Values inside [lo, hi], mean and variance of U(lo, hi) within 5 standard errors."""
    n = values.size
    assert values.min() >= lo - 1e-6 and values.max() <= hi + 1e-6
    mean, var = (lo + hi) / 2, (hi - lo) ** 2 / 12
    assert abs(values.mean() - mean) < 5 * math.sqrt(var / n)
    assert abs(values.var() - var) < 5 * var * math.sqrt(0.8 / n)  # var of sample var for uniform: 4/5 var^2/n


def _normal_check(values, mean, std):
    n = values.size
    assert abs(values.mean() - mean) < 5 * std / math.sqrt(n)
    assert abs(values.std() - std) < 5 * std / math.sqrt(2 * n)


SHAPE = (256, 64, 3, 3)


def test_uniform_and_normal(reftorch):
    m, _ = _pair(reftorch, SHAPE)
    _uniform_check(init.uniform_(m, -0.5, 2.0).detach().numpy(), -0.5, 2.0)
    _normal_check(init.normal_(m, 1.5, 0.2).detach().numpy(), 1.5, 0.2)


@pytest.mark.parametrize("fn,kwargs", [
    ("xavier_uniform_", {}), ("xavier_uniform_", {"gain": 2.0}),
    ("kaiming_uniform_", {}), ("kaiming_uniform_", {"a": math.sqrt(5)}),
    ("kaiming_uniform_", {"mode": "fan_out", "nonlinearity": "relu"}),
])
def test_uniform_family_bounds_from_torch_formulas(reftorch, fn, kwargs):
    m, r = _pair(reftorch, SHAPE)
    fan_in, fan_out = reftorch.nn.init._calculate_fan_in_and_fan_out(r)
    if fn == "xavier_uniform_":
        bound = kwargs.get("gain", 1.0) * math.sqrt(6.0 / (fan_in + fan_out))
    else:
        fan = fan_in if kwargs.get("mode", "fan_in") == "fan_in" else fan_out
        gain = reftorch.nn.init.calculate_gain(kwargs.get("nonlinearity", "leaky_relu"), kwargs.get("a", 0))
        bound = gain * math.sqrt(3.0 / fan)
    _uniform_check(getattr(init, fn)(m, **kwargs).detach().numpy(), -bound, bound)
    # torch's own draw obeys the same bound (sanity of the formula above; float32 rounding of the bound)
    assert float(getattr(reftorch.nn.init, fn)(r, **kwargs).detach().abs().max()) <= bound * (1 + 1e-6)


@pytest.mark.parametrize("fn,kwargs", [
    ("xavier_normal_", {}), ("xavier_normal_", {"gain": 0.5}), ("kaiming_normal_", {}),
    ("kaiming_normal_", {"mode": "fan_out", "nonlinearity": "relu"}),
])
def test_normal_family_std_from_torch_formulas(reftorch, fn, kwargs):
    m, r = _pair(reftorch, SHAPE)
    fan_in, fan_out = reftorch.nn.init._calculate_fan_in_and_fan_out(r)
    if fn == "xavier_normal_":
        std = kwargs.get("gain", 1.0) * math.sqrt(2.0 / (fan_in + fan_out))
    else:
        fan = fan_in if kwargs.get("mode", "fan_in") == "fan_in" else fan_out
        std = reftorch.nn.init.calculate_gain(kwargs.get("nonlinearity", "leaky_relu"), 0) / math.sqrt(fan)
    _normal_check(getattr(init, fn)(m, **kwargs).detach().numpy(), 0.0, std)


def test_trunc_normal_matches_torch_distribution(reftorch):
    m, r = _pair(reftorch, (200000,))
    mine = init.trunc_normal_(m, mean=0.5, std=1.0, a=-1.0, b=1.5).detach().numpy()
    ref = reftorch.nn.init.trunc_normal_(r, mean=0.5, std=1.0, a=-1.0, b=1.5).detach().numpy()
    assert mine.min() >= -1.0 and mine.max() <= 1.5
    # same truncated distribution: moments agree with torch's sample within a few standard errors
    se = ref.std() / math.sqrt(ref.size)
    assert abs(mine.mean() - ref.mean()) < 6 * se
    assert abs(mine.std() - ref.std()) < 6 * se
    np.testing.assert_allclose(np.histogram(mine, bins=10, range=(-1, 1.5))[0] / mine.size,
                               np.histogram(ref, bins=10, range=(-1, 1.5))[0] / ref.size, atol=0.006)


@pytest.mark.parametrize("shape,gain", [((6, 4), 1.0), ((3, 8), 2.0), ((4, 2, 3), 0.5)])
def test_orthogonal(reftorch, shape, gain):
    m, r = _pair(reftorch, shape)
    w = init.orthogonal_(m, gain=gain).detach().numpy().reshape(shape[0], -1)
    ref = reftorch.nn.init.orthogonal_(r, gain=gain).detach().numpy().reshape(shape[0], -1)
    small = min(w.shape)
    gram = w @ w.T if w.shape[0] == small else w.T @ w
    ref_gram = ref @ ref.T if ref.shape[0] == small else ref.T @ ref
    np.testing.assert_allclose(gram, ref_gram, atol=1e-5)  # both gain^2 * I


def test_sparse_zero_count_per_column_matches_torch(reftorch):
    m, r = _pair(reftorch, (40, 30))
    w = init.sparse_(m, sparsity=0.3, std=0.05).detach().numpy()
    ref = reftorch.nn.init.sparse_(r, sparsity=0.3, std=0.05).detach().numpy()
    assert ((w == 0).sum(axis=0) == (ref == 0).sum(axis=0)).all()
    _normal_check(w[w != 0], 0.0, 0.05)


def test_reproducible_with_manual_seed_and_true_in_place():
    p = nn.Parameter(torch.from_numpy(np.zeros((5, 7), np.float32)))
    torch.manual_seed(123)
    a = init.kaiming_uniform_(p).detach().numpy().copy()
    b = init.xavier_normal_(p).detach().numpy().copy()
    torch.manual_seed(123)
    assert init.kaiming_uniform_(p) is p
    np.testing.assert_array_equal(p.detach().numpy(), a)
    np.testing.assert_array_equal(init.xavier_normal_(p).detach().numpy(), b)
    assert not np.array_equal(a, b)
    # a view writes through to its base, as in torch
    base = torch.from_numpy(np.zeros((4, 4), np.float32))
    init.ones_(base[1])
    np.testing.assert_array_equal(base.numpy().sum(axis=1), [0, 4, 0, 0])


def test_init_under_grad_recording_does_not_raise_and_keeps_leaf():
    p = nn.Parameter(torch.from_numpy(np.zeros((3, 3), np.float32)))
    init.normal_(p)
    assert p.requires_grad and p.is_leaf and isinstance(p, ms.Parameter)


def test_kaiming_on_zero_element_tensor_warns_like_torch(reftorch):
    m, r = _pair(reftorch, (0, 3))
    with pytest.warns(UserWarning, match="no-op"):
        init.kaiming_uniform_(m)
    with pytest.warns(UserWarning, match="no-op"):
        reftorch.nn.init.kaiming_uniform_(r)


def test_deprecated_aliases_warn(reftorch):
    m, _ = _pair(reftorch, (2, 2))
    with pytest.warns(UserWarning, match="deprecated in favor of nn.init.constant_"):
        init.constant(m, 2.0)
    assert float(m.detach().sum()) == 8.0


def test_initialised_parameters_accept_mindspore_inplace_kernels():
    """Parameters written in place by nn.init / in-place ops stay plain tensors (not views) for MindSpore, so its
    own in-place kernels (ops.assign, the update kernels of mindspore.nn optimizers run in PyNative) take them
    (they refused a tensor written through setitem: "Not support view input for inplace op Assign")."""
    lin, conv = torch.nn.Linear(3, 2), torch.nn.Conv2d(3, 2, 3)
    with torch.no_grad():
        lin.bias.add_(1.0)
    for p in (lin.weight, lin.bias, conv.weight, conv.bias):
        ms.ops.assign(p, ms.ops.ones_like(p))
        np.testing.assert_array_equal(p.detach().numpy(), np.ones(tuple(p.shape), np.float32))
