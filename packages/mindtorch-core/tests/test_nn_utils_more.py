"""nn.utils weight_norm, spectral_norm, parametrize, prune and optim.swa_utils / SparseAdam against real PyTorch.

Weights (and spectral norm's random u, v; random pruning masks) are copied from torch through numpy, the same
batches run through both, and outputs, gradients, state_dict keys/values and masks are compared.

torch 1.12 vs the 2.13 reference installed here, where they differ (mindtorch follows 1.12):
- `nn.utils.weight_norm` / `spectral_norm` are 1.12's hook-based versions; 2.13 still ships them (deprecated) with the
  same behaviour, so they are compared directly.
- `AveragedModel(use_buffers=False)`: 1.12 leaves the copy's buffers as they were at construction; 2.13 (since 2.1)
  copies the model's buffers on every `update_parameters`. Tested against 1.12's rule.
"""
import copy
import importlib
import math

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch import nn
from mindtorch.torch.nn.utils import parametrize, prune
from mindtorch.torch.optim import swa_utils

RNG = np.random.default_rng(7)
pytestmark = [
    pytest.mark.filterwarnings("ignore:`torch.nn.utils.(weight|spectral)_norm` is deprecated:FutureWarning"),
    pytest.mark.filterwarnings("ignore:Detected call of `lr_scheduler.step\\(\\)` before:UserWarning"),
]


def _ref_mod(reftorch, name):
    return importlib.import_module(f"torch.{name}")


def _np(t):
    return t.detach().numpy().copy()


def _copy_state(mine, ref):
    """Load torch module `ref`'s state into `mine` (same key names)."""
    mine.load_state_dict({k: torch.from_numpy(_np(v)) for k, v in ref.state_dict().items()})


def _set(dst, src_ref):
    """dst (mindtorch tensor) := the values of torch tensor src_ref, in place."""
    with torch.no_grad():
        dst.copy_(torch.from_numpy(_np(src_ref)))


def _rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _layers(T):
    return {
        "linear": (lambda: T.nn.Linear(5, 4), (3, 5)),
        "conv1d": (lambda: T.nn.Conv1d(2, 3, 3), (2, 2, 7)),
        "conv2d": (lambda: T.nn.Conv2d(2, 3, 3), (2, 2, 6, 6)),
        "convtranspose2d": (lambda: T.nn.ConvTranspose2d(2, 3, 3), (2, 2, 4, 4)),
    }


def _pair(reftorch, kind):
    mk, shape = _layers(torch)[kind]
    mk_r, _ = _layers(reftorch)[kind]
    ref = mk_r()
    mine = mk()
    _copy_state(mine, ref)
    return mine, ref, shape


# --------------------------------------------------------------------------------------------- weight_norm
@pytest.mark.parametrize("kind,dim", [("linear", 0), ("linear", None), ("conv1d", 0), ("conv2d", 1),
                                      ("conv2d", None), ("convtranspose2d", 0), ("convtranspose2d", -1)])
def test_weight_norm_matches_torch(reftorch, kind, dim):
    mine, ref, shape = _pair(reftorch, kind)
    assert nn.utils.weight_norm(mine, dim=dim) is mine
    reftorch.nn.utils.weight_norm(ref, dim=dim)
    assert list(mine.state_dict()) == list(ref.state_dict())
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in ref.named_parameters()]
    # MindSpore names follow the torch path (optimizers need them unique).
    assert sorted(p.name for p in mine.parameters()) == sorted(n for n, _ in ref.named_parameters())
    assert_same(mine.weight_g, ref.weight_g)
    assert_same(mine.weight_v, ref.weight_v)
    assert type(mine.weight) is torch.Tensor and not isinstance(mine.weight, nn.Parameter)

    opt = torch.optim.SGD(mine.parameters(), lr=0.1)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.1)
    for _ in range(2):  # the pre-hook recomputes the weight from the updated g, v on every call
        x = _rand(*shape)
        opt.zero_grad()
        ropt.zero_grad()
        out, rout = mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x))
        assert_same(out, rout, rtol=1e-5)
        (out ** 2).sum().backward()
        (rout ** 2).sum().backward()
        # float32 sums over a batch of squared outputs (values ~30); the CPU convolution kernel is chosen by timing
        # (_ops/_autotune.py), so the rounding, not the formula, varies from run to run
        assert_same(mine.weight_g.grad, ref.weight_g.grad, rtol=1e-3, atol=1e-4)
        assert_same(mine.weight_v.grad, ref.weight_v.grad, rtol=1e-3, atol=1e-4)
        opt.step()
        ropt.step()
    assert_same(mine.weight_g, ref.weight_g, rtol=1e-5)
    assert_same(mine.weight_v, ref.weight_v, rtol=1e-5)

    nn.utils.remove_weight_norm(mine)
    reftorch.nn.utils.remove_weight_norm(ref)
    assert isinstance(mine.weight, nn.Parameter)
    assert list(mine.state_dict()) == list(ref.state_dict())
    assert_same(mine.weight, ref.weight, rtol=1e-5)
    assert not mine._forward_pre_hooks


def test_weight_norm_functional_value_and_grad(reftorch):
    """The manual's style: ms.value_and_grad over optimizer.parameters, then optimizer(grads)."""
    mine, ref, shape = _pair(reftorch, "linear")
    nn.utils.weight_norm(mine)
    reftorch.nn.utils.weight_norm(ref)
    opt = torch.optim.SGD(mine.parameters(), lr=0.1)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.1)

    def forward_fn(x):
        return (mine(x) ** 2).sum()

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)
    names = [p.name for p in opt.parameters]
    rparams = dict(ref.named_parameters())
    for _ in range(2):
        x = _rand(*shape)
        loss, grads = grad_fn(torch.from_numpy(x))
        ropt.zero_grad()
        rloss = (ref(reftorch.from_numpy(x)) ** 2).sum()
        rloss.backward()
        assert_same(loss, rloss, rtol=1e-5)
        for name, g in zip(names, grads):
            assert_same(g, rparams[name].grad, rtol=1e-4, atol=1e-5)
        opt(grads)
        ropt.step()
    assert_same(mine.weight_g, ref.weight_g, rtol=1e-5)
    assert_same(mine.weight_v, ref.weight_v, rtol=1e-5)


def test_weight_norm_errors_and_state_dict_roundtrip(reftorch):
    mine, ref, shape = _pair(reftorch, "conv2d")
    nn.utils.weight_norm(mine)
    reftorch.nn.utils.weight_norm(ref)
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks on the same parameter weight"):
        nn.utils.weight_norm(mine)
    with pytest.raises(ValueError, match="weight_norm of 'bias' not found in"):
        nn.utils.remove_weight_norm(mine, "bias")
    # A torch checkpoint with weight_g / weight_v loads, and the next forward uses it.
    with reftorch.no_grad():
        ref.weight_g.mul_(1.5)
    _copy_state(mine, ref)
    x = _rand(*shape)
    assert_same(mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x)), rtol=1e-5)


# ------------------------------------------------------------------------------------------ spectral_norm
@pytest.mark.parametrize("kind,n_iter", [("linear", 1), ("conv2d", 2), ("convtranspose2d", 1)])
def test_spectral_norm_matches_torch(reftorch, kind, n_iter):
    mine, ref, shape = _pair(reftorch, kind)
    nn.utils.spectral_norm(mine, n_power_iterations=n_iter)
    reftorch.nn.utils.spectral_norm(ref, n_power_iterations=n_iter)
    # u, v start random in both: copy torch's.
    _set(mine.weight_u, ref.weight_u)
    _set(mine.weight_v, ref.weight_v)
    assert list(mine.state_dict()) == list(ref.state_dict())  # weight_orig, weight_u, weight_v (+ bias)
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in ref.named_parameters()]
    assert [n for n, _ in mine.named_buffers()] == ["weight_u", "weight_v"]
    assert mine.state_dict()._metadata[""]["spectral_norm"] == {"weight.version": 1}
    u_obj = mine.weight_u

    opt = torch.optim.SGD(mine.parameters(), lr=0.05)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.05)
    for _ in range(3):  # training: one power-iteration update of u, v per call
        x = _rand(*shape)
        opt.zero_grad()
        ropt.zero_grad()
        out, rout = mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x))
        assert_same(out, rout, rtol=1e-4, atol=1e-5)
        assert_same(mine.weight_u, ref.weight_u, rtol=1e-4, atol=1e-6)
        assert_same(mine.weight_v, ref.weight_v, rtol=1e-4, atol=1e-6)
        (out ** 2).sum().backward()
        (rout ** 2).sum().backward()
        assert_same(mine.weight_orig.grad, ref.weight_orig.grad, rtol=1e-3, atol=1e-4)
        opt.step()
        ropt.step()
    assert mine.weight_u is u_obj  # updated in place, as torch's `out=`

    mine.eval()
    ref.eval()
    u_before = _np(mine.weight_u)
    x = _rand(*shape)
    assert_same(mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x)), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(_np(mine.weight_u), u_before)  # eval: stored u, v, no power iteration

    nn.utils.remove_spectral_norm(mine)
    reftorch.nn.utils.remove_spectral_norm(ref)
    assert list(mine.state_dict()) == list(ref.state_dict())
    assert isinstance(mine.weight, nn.Parameter)
    assert_same(mine.weight, ref.weight, rtol=1e-4, atol=1e-6)
    assert not mine._forward_pre_hooks and not mine._state_dict_hooks and not mine._load_state_dict_pre_hooks


def test_spectral_norm_dim_errors_and_load(reftorch):
    ct = nn.utils.spectral_norm(nn.ConvTranspose1d(2, 5, 3))
    assert tuple(ct.weight_u.shape) == (5,) and tuple(ct.weight_v.shape) == (6,)  # dim=1 for ConvTranspose
    lin = nn.utils.spectral_norm(nn.Linear(3, 4), dim=1)
    assert tuple(lin.weight_u.shape) == (3,)
    with pytest.raises(RuntimeError, match="Cannot register two spectral_norm hooks"):
        nn.utils.spectral_norm(lin)
    with pytest.raises(ValueError, match="Expected n_power_iterations to be positive, but got "
                                         "n_power_iterations=0"):
        nn.utils.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found"):
        nn.utils.remove_spectral_norm(nn.Linear(2, 2))

    # A torch checkpoint (with its metadata) loads: same eval output.
    mine, ref, shape = _pair(reftorch, "linear")
    nn.utils.spectral_norm(mine)
    reftorch.nn.utils.spectral_norm(ref)
    ref(reftorch.from_numpy(_rand(*shape)))
    rsd = ref.state_dict()
    sd = type(rsd)((k, torch.from_numpy(_np(v))) for k, v in rsd.items())
    sd._metadata = rsd._metadata
    mine.load_state_dict(sd)
    mine.eval()
    ref.eval()
    x = _rand(*shape)
    assert_same(mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x)), rtol=1e-5)


def test_spectral_norm_loads_version0_state_dict(reftorch):
    """A pre-1.1 state dict (weight, weight_orig, weight_u; no weight_v, no metadata): v is solved for.
    A 5x4 weight, so that W^T W is invertible and the solved v is unique."""
    ref = reftorch.nn.utils.spectral_norm(reftorch.nn.Linear(4, 5))
    ref(reftorch.from_numpy(_rand(3, 4)))
    old = {k: _np(v) for k, v in ref.state_dict().items() if k != "weight_v"}
    old["weight"] = _np(ref.weight)
    ref_loaded = reftorch.nn.utils.spectral_norm(reftorch.nn.Linear(4, 5))
    ref_loaded.load_state_dict({k: reftorch.from_numpy(v.copy()) for k, v in old.items()})
    mine = nn.utils.spectral_norm(nn.Linear(4, 5))
    mine.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in old.items()})
    assert list(mine.state_dict()) == list(ref_loaded.state_dict())
    assert_same(mine.weight_v, ref_loaded.weight_v, rtol=1e-3, atol=1e-5)
    # The solved v keeps the stored sigma: the same eval output as the old weight.
    mine.eval()
    ref_loaded.eval()
    x = _rand(3, 4)
    assert_same(mine(torch.from_numpy(x)), ref_loaded(reftorch.from_numpy(x)), rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------- parametrize
def _param_modules(T):
    class Symmetric(T.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    class Double(T.nn.Module):
        def forward(self, X):
            return 2 * X

        def right_inverse(self, A):
            return A / 2

    class Split(T.nn.Module):  # right_inverse returns two tensors: original0, original1
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X * 0.25, X * 0.75

    return Symmetric, Double, Split


def test_parametrize_matches_torch(reftorch):
    RP = _ref_mod(reftorch, "nn.utils.parametrize")
    Sym, Dbl, _ = _param_modules(torch)
    RSym, RDbl, _ = _param_modules(reftorch)
    # ReLU, not Tanh: the doubled weights saturate tanh, whose gradient then differs by cancellation alone.
    mine = nn.Sequential(nn.Linear(3, 3), nn.ReLU())
    ref = reftorch.nn.Sequential(reftorch.nn.Linear(3, 3), reftorch.nn.ReLU())
    _copy_state(mine, ref)
    lin = mine[0]
    parametrize.register_parametrization(lin, "weight", Sym())
    RP.register_parametrization(ref[0], "weight", RSym())
    parametrize.register_parametrization(lin, "weight", Dbl())
    RP.register_parametrization(ref[0], "weight", RDbl())

    assert type(lin).__name__ == "ParametrizedLinear" and isinstance(lin, nn.Linear)
    assert parametrize.type_before_parametrizations(lin) is nn.Linear
    assert type(nn.Linear(2, 2)) is nn.Linear  # the property lives on this instance's class only
    assert parametrize.is_parametrized(lin) and parametrize.is_parametrized(lin, "weight")
    assert not parametrize.is_parametrized(lin, "bias")
    assert list(mine.state_dict()) == list(ref.state_dict()) == ["0.bias", "0.parametrizations.weight.original"]
    assert sorted(p.name for p in mine.parameters()) == sorted(n for n, _ in ref.named_parameters())
    assert isinstance(lin.parametrizations.weight, parametrize.ParametrizationList)
    assert_same(lin.parametrizations.weight.original, ref[0].parametrizations.weight.original)
    assert_same(lin.weight, ref[0].weight)

    opt = torch.optim.SGD(mine.parameters(), lr=0.1)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.1)
    for _ in range(2):
        x = _rand(4, 3)
        opt.zero_grad()
        ropt.zero_grad()
        out, rout = mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x))
        assert_same(out, rout, rtol=1e-5)
        out.pow(2).sum().backward()
        rout.pow(2).sum().backward()
        assert_same(lin.parametrizations.weight.original.grad, ref[0].parametrizations.weight.original.grad,
                    rtol=1e-4, atol=1e-6)
        opt.step()
        ropt.step()
    assert_same(lin.weight, ref[0].weight, rtol=1e-5)

    with parametrize.cached():
        assert lin.weight is lin.weight
    assert lin.weight is not lin.weight

    # Assignment goes through right_inverse, which Symmetric lacks: torch's error.
    with pytest.raises(RuntimeError, match="parametrization Symmetric does not implement right_inverse"):
        lin.weight = torch.eye(3)

    clone = copy.deepcopy(mine)
    assert type(clone[0]).__name__ == "ParametrizedLinear"
    assert_same(clone[0].weight, ref[0].weight, rtol=1e-5)

    original = lin.parametrizations.weight.original
    parametrize.remove_parametrizations(lin, "weight")
    RP.remove_parametrizations(ref[0], "weight")
    assert type(lin) is nn.Linear and not hasattr(lin, "parametrizations")
    assert lin.weight is original  # the same Parameter object (optimizers keep working)
    assert list(mine.state_dict()) == list(ref.state_dict()) == ["0.bias", "0.weight"]  # re-registered last
    assert sorted(p.name for p in mine.parameters()) == ["0.bias", "0.weight"]
    assert_same(lin.weight, ref[0].weight, rtol=1e-5)
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        parametrize.remove_parametrizations(lin, "weight")


def test_parametrize_right_inverse_buffers_and_sequences(reftorch):
    RP = _ref_mod(reftorch, "nn.utils.parametrize")
    _, Dbl, Split = _param_modules(torch)
    _, RDbl, RSplit = _param_modules(reftorch)
    mine, ref, _ = _pair(reftorch, "linear")
    w_obj = mine.weight
    parametrize.register_parametrization(mine, "weight", Dbl())
    RP.register_parametrization(ref, "weight", RDbl())
    assert mine.parametrizations.weight.original is w_obj  # right_inverse wrote into the same object
    assert_same(mine.parametrizations.weight.original, ref.parametrizations.weight.original)
    v = _rand(4, 5)
    mine.weight = torch.from_numpy(v)
    ref.weight = reftorch.from_numpy(v)
    assert_same(mine.parametrizations.weight.original, ref.parametrizations.weight.original)
    parametrize.remove_parametrizations(mine, "weight", leave_parametrized=False)
    RP.remove_parametrizations(ref, "weight", leave_parametrized=False)
    assert_same(mine.weight, ref.weight)

    # right_inverse returning a sequence: original0, original1.
    parametrize.register_parametrization(mine, "bias", Split())
    RP.register_parametrization(ref, "bias", RSplit())
    assert list(mine.state_dict()) == list(ref.state_dict())
    assert_same(mine.parametrizations.bias.original1, ref.parametrizations.bias.original1)
    assert_same(mine.bias, ref.bias)
    with pytest.raises(ValueError, match="Cannot leave unparametrized"):
        parametrize.remove_parametrizations(mine, "bias", leave_parametrized=False)
    parametrize.remove_parametrizations(mine, "bias")
    assert isinstance(mine.bias, nn.Parameter)

    # A buffer can be parametrized too; errors as torch.
    bn = nn.BatchNorm1d(3)
    parametrize.register_parametrization(bn, "running_var", Dbl())
    assert "parametrizations.running_var.original" in bn.state_dict()
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element"):
        parametrize.register_parametrization(nn.Linear(2, 2), "nope", Dbl())

    class BadShape(nn.Module):
        def forward(self, X):
            return X[0]

    with pytest.raises(ValueError, match="may not change the shape of the tensor"):
        parametrize.register_parametrization(nn.Linear(2, 2), "weight", BadShape())
    lin = nn.Linear(2, 2)
    parametrize.register_parametrization(lin, "weight", BadShape(), unsafe=True)
    assert tuple(lin.weight.shape) == (2,)


# --------------------------------------------------------------------------------------------------- prune
def test_prune_deterministic_methods_match_torch(reftorch):
    RPr = _ref_mod(reftorch, "nn.utils.prune")
    mine, ref, shape = _pair(reftorch, "conv2d")
    prune.l1_unstructured(mine, "weight", amount=0.3)
    RPr.l1_unstructured(ref, "weight", amount=0.3)
    assert list(mine.state_dict()) == list(ref.state_dict()) == ["bias", "weight_orig", "weight_mask"]
    assert sorted(p.name for p in mine.parameters()) == ["bias", "weight_orig"]
    assert_same(mine.weight_mask, ref.weight_mask)
    assert_same(mine.weight, ref.weight)

    # Iterative pruning: a PruningContainer restricted to the channels still alive.
    prune.ln_structured(mine, "weight", amount=1, n=2, dim=0)
    RPr.ln_structured(ref, "weight", amount=1, n=2, dim=0)
    hook = next(iter(mine._forward_pre_hooks.values()))
    assert isinstance(hook, prune.PruningContainer) and len(hook) == 2
    assert_same(mine.weight_mask, ref.weight_mask)
    prune.ln_structured(mine, "weight", amount=0.34, n=float("inf"), dim=1)
    RPr.ln_structured(ref, "weight", amount=0.34, n=float("inf"), dim=1)
    assert_same(mine.weight_mask, ref.weight_mask)
    prune.l1_unstructured(mine, "bias", amount=1, importance_scores=torch.tensor([3.0, 1.0, 2.0]))
    RPr.l1_unstructured(ref, "bias", amount=1, importance_scores=reftorch.tensor([3.0, 1.0, 2.0]))
    assert_same(mine.bias_mask, ref.bias_mask)
    assert prune.is_pruned(mine)

    x = _rand(*shape)
    out, rout = mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x))
    assert_same(out, rout, rtol=1e-5)
    out.sum().backward()
    rout.sum().backward()
    assert_same(mine.weight_orig.grad, ref.weight_orig.grad, rtol=1e-5)  # zero where pruned
    assert_same(mine.bias_orig.grad, ref.bias_orig.grad, rtol=1e-5)

    prune.remove(mine, "weight")
    RPr.remove(ref, "weight")
    assert list(mine.state_dict()) == list(ref.state_dict()) == ["bias_orig", "weight", "bias_mask"]
    assert isinstance(mine.weight, nn.Parameter) and mine.weight.name == "weight"
    assert_same(mine.weight, ref.weight)
    prune.remove(mine, "bias")
    assert not prune.is_pruned(mine)
    with pytest.raises(ValueError, match="has to be pruned before pruning can be removed"):
        prune.remove(mine, "weight")


def test_prune_global_custom_identity_and_random(reftorch):
    RPr = _ref_mod(reftorch, "nn.utils.prune")

    def net(T):
        return T.nn.Sequential(T.nn.Linear(4, 6), T.nn.ReLU(), T.nn.Linear(6, 3))

    ref = net(reftorch)
    mine = net(torch)
    _copy_state(mine, ref)
    prune.identity(mine[2], "bias")
    RPr.identity(ref[2], "bias")
    assert_same(mine[2].bias_mask, ref[2].bias_mask)
    prune.global_unstructured(((mine[0], "weight"), (mine[2], "weight")), prune.L1Unstructured, amount=0.4)
    RPr.global_unstructured(((ref[0], "weight"), (ref[2], "weight")), RPr.L1Unstructured, amount=0.4)
    assert_same(mine[0].weight_mask, ref[0].weight_mask)
    assert_same(mine[2].weight_mask, ref[2].weight_mask)
    assert list(mine.state_dict()) == list(ref.state_dict())
    with pytest.raises(TypeError, match='Only "unstructured" PRUNING_TYPE supported'):
        prune.global_unstructured([(mine[0], "bias")], prune.LnStructured, amount=1, n=1, dim=0)

    # Random methods: copy torch's random mask through custom_from_mask; check the structure of ours.
    RPr.random_unstructured(ref[0], "bias", amount=2)
    prune.custom_from_mask(mine[0], "bias", mask=torch.from_numpy(_np(ref[0].bias_mask)))
    assert_same(mine[0].bias_mask, ref[0].bias_mask)
    x = _rand(5, 4)
    assert_same(mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x)), rtol=1e-5)

    lin = nn.Linear(6, 8)
    prune.random_unstructured(lin, "weight", amount=0.25)
    assert int((lin.weight_mask == 0).sum()) == 12
    prune.random_structured(lin, "weight", amount=2, dim=0)
    row_kept = _np(lin.weight_mask).sum(1) > 0
    assert row_kept.sum() == 6  # 2 whole output rows pruned on top of the unstructured ones
    assert int((lin.weight_mask == 0).sum()) >= 12
    np.testing.assert_array_equal(_np(lin.weight), _np(lin.weight_orig) * _np(lin.weight_mask))

    with pytest.raises(ValueError, match="should either be a float in the range"):
        prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5)
    with pytest.raises(TypeError, match="Invalid type for amount"):
        prune.l1_unstructured(nn.Linear(2, 2), "weight", amount="a")
    with pytest.raises(ValueError, match="should be smaller than the number of parameters to prune=4"):
        prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5)
    failed = nn.Linear(2, 2)
    with pytest.raises(ValueError, match="Structured pruning can only be applied to multidimensional"):
        prune.random_structured(failed, "bias", amount=1, dim=0)
    assert "bias" in failed._parameters and "bias_orig" not in failed._parameters  # rolled back, as torch
    assert_same(prune.L1Unstructured(amount=2).prune(torch.tensor([1.0, -3.0, 0.5, 2.0])),
                RPr.L1Unstructured(amount=2).prune(reftorch.tensor([1.0, -3.0, 0.5, 2.0])))


# ----------------------------------------------------------------------------------------------- swa_utils
def _bn_net(T):
    return T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4), T.nn.ReLU(), T.nn.Linear(4, 2))


@pytest.mark.parametrize("use_buffers", [False, True])
def test_swa_averaged_model_swalr_update_bn(reftorch, use_buffers):
    RS = _ref_mod(reftorch, "optim.swa_utils")
    ref = _bn_net(reftorch)
    mine = _bn_net(torch)
    _copy_state(mine, ref)
    avg = swa_utils.AveragedModel(mine, use_buffers=use_buffers)
    ravg = RS.AveragedModel(ref, use_buffers=use_buffers)
    assert list(avg.state_dict()) == list(ravg.state_dict())  # n_averaged, module.0.weight, ...
    assert sorted(p.name for p in avg.parameters()) == sorted(n for n, _ in ravg.named_parameters())
    buffers_at_copy = {k: _np(v) for k, v in avg.state_dict().items() if "running" in k}

    opt = torch.optim.SGD(mine.parameters(), lr=0.1)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.1)
    sched = swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="cos")
    rsched = RS.SWALR(ropt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="cos")
    for _ in range(4):
        x = _rand(8, 3)
        opt.zero_grad()
        ropt.zero_grad()
        mine(torch.from_numpy(x)).pow(2).sum().backward()
        ref(reftorch.from_numpy(x)).pow(2).sum().backward()
        opt.step()
        ropt.step()
        sched.step()
        rsched.step()
        np.testing.assert_allclose(sched.get_last_lr(), rsched.get_last_lr(), rtol=1e-12)
        avg.update_parameters(mine)
        ravg.update_parameters(ref)
    assert int(avg.n_averaged) == 4
    sd, rsd = avg.state_dict(), ravg.state_dict()
    for k in rsd:
        if use_buffers or "running" not in k and "num_batches" not in k:
            assert_same(sd[k], rsd[k], rtol=1e-5, atol=1e-6)
    if not use_buffers:  # torch 1.12: the copy's buffers are not touched (2.13 copies the model's)
        for k, v in buffers_at_copy.items():
            np.testing.assert_array_equal(_np(sd[k]), v)
    x = _rand(5, 3)
    avg.eval()
    ravg.eval()
    ravg.module[1].running_mean.copy_(reftorch.from_numpy(_np(sd["module.1.running_mean"])))
    ravg.module[1].running_var.copy_(reftorch.from_numpy(_np(sd["module.1.running_var"])))
    assert_same(avg(torch.from_numpy(x)), ravg(reftorch.from_numpy(x)), rtol=1e-5)

    # update_bn: fresh cumulative statistics over the loader; momentum and eval mode restored.
    loader = [(_rand(8, 3), 0) for _ in range(3)]
    swa_utils.update_bn([(torch.from_numpy(a), y) for a, y in loader], avg)
    RS.update_bn([(reftorch.from_numpy(a), y) for a, y in loader], ravg)
    assert avg.module[1].momentum == 0.1 and not avg.training
    for k in ("module.1.running_mean", "module.1.running_var", "module.1.num_batches_tracked"):
        assert_same(avg.state_dict()[k], ravg.state_dict()[k], rtol=1e-5, atol=1e-6)


def test_swa_custom_avg_fn_schedules_and_no_bn(reftorch):
    RS = _ref_mod(reftorch, "optim.swa_utils")

    def ema(averaged, current, num_averaged):
        return 0.9 * averaged + 0.1 * current

    ref = reftorch.nn.Linear(3, 2)
    mine = nn.Linear(3, 2)
    _copy_state(mine, ref)
    avg, ravg = swa_utils.AveragedModel(mine, avg_fn=ema), RS.AveragedModel(ref, avg_fn=ema)
    for step in range(3):
        with torch.no_grad():
            mine.weight.copy_(mine.weight * 0.5 + step)
        with reftorch.no_grad():
            ref.weight.copy_(ref.weight * 0.5 + step)
        avg.update_parameters(mine)
        ravg.update_parameters(ref)
    assert_same(avg.module.weight, ravg.module.weight, rtol=1e-5)
    assert_same(avg.n_averaged, ravg.n_averaged)

    # update_bn on a model without BatchNorm does nothing (not even a forward).
    swa_utils.update_bn([None], avg)

    for strategy, epochs in (("linear", 4), ("cos", 0), ("linear", 1)):
        opt = torch.optim.SGD([nn.Parameter(torch.zeros(1)), ], lr=1.0)
        ropt = reftorch.optim.SGD([reftorch.nn.Parameter(reftorch.zeros(1))], lr=1.0)
        s = swa_utils.SWALR(opt, swa_lr=[0.2], anneal_epochs=epochs, anneal_strategy=strategy)
        rs = RS.SWALR(ropt, swa_lr=[0.2], anneal_epochs=epochs, anneal_strategy=strategy)
        for _ in range(6):
            assert math.isclose(opt.param_groups[0]["lr"], ropt.param_groups[0]["lr"], rel_tol=1e-12)
            s.step()
            rs.step()
    opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
    with pytest.raises(ValueError, match="anneal_strategy must by one of 'cos' or 'linear', instead got exp"):
        swa_utils.SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0, got -1"):
        swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
    with pytest.raises(ValueError, match="swa_lr must have the same length as optimizer.param_groups"):
        swa_utils.SWALR(opt, swa_lr=[0.1, 0.2])


@pytest.mark.parametrize("maximize", [False, True])
def test_sparse_adam_updates_only_the_looked_up_rows(reftorch, maximize):
    """SparseAdam on an nn.Embedding(sparse=True): torch's lazy Adam (rows a step's gradient holds), the same
    weights and state as torch's after a few steps (mindtorch's embedding gradient is dense: its non-zero rows)."""
    w0 = np.random.default_rng(0).standard_normal((10, 4)).astype(np.float32)
    res = []
    for T in (torch, reftorch):
        emb = T.nn.Embedding(10, 4, sparse=True)
        with T.no_grad():
            emb.weight.copy_(T.tensor(w0))
        opt = T.optim.SparseAdam(emb.parameters(), lr=0.1, maximize=maximize)
        for step, ids in enumerate(([[1, 2, 2], [5, 1, 7]], [[3, 3, 1]], [[9, 0, 2]])):
            opt.zero_grad()
            (emb(T.tensor(ids)) ** 2 * (step + 1)).sum().backward()
            opt.step()
        st = opt.state[emb.weight]
        res.append((emb.weight.detach(), st["exp_avg"], st["exp_avg_sq"], int(st["step"])))
    for mine, ref in zip(res[0][:3], res[1][:3]):
        assert_same(mine, ref, rtol=1e-5, atol=1e-6)
    assert res[0][3] == res[1][3] == 3
    for T in (torch, reftorch):
        with pytest.raises(ValueError, match="Invalid learning rate"):
            T.optim.SparseAdam(T.nn.Linear(2, 2).parameters(), lr=-1)


# ------------------------------------------------------------------------------- parametrizations.spectral_norm
@pytest.mark.parametrize("kind", ["linear", "convtranspose2d"])
def test_parametrizations_spectral_norm_matches_torch(reftorch, kind):
    RPz = _ref_mod(reftorch, "nn.utils.parametrizations")
    mine, ref, shape = _pair(reftorch, kind)
    nn.utils.parametrizations.spectral_norm(mine)
    RPz.spectral_norm(ref)
    assert list(mine.state_dict()) == list(ref.state_dict())  # ...original, parametrizations.weight.0._u / _v
    # u, v start random (then 15 power iterations): copy torch's.
    _set(mine.parametrizations.weight[0]._u, ref.parametrizations.weight[0]._u)
    _set(mine.parametrizations.weight[0]._v, ref.parametrizations.weight[0]._v)
    opt = torch.optim.SGD(mine.parameters(), lr=0.05)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.05)
    for _ in range(2):
        x = _rand(*shape)
        opt.zero_grad()
        ropt.zero_grad()
        out, rout = mine(torch.from_numpy(x)), ref(reftorch.from_numpy(x))
        assert_same(out, rout, rtol=1e-4, atol=1e-4)  # outputs up to ~40: fp32 rounding of the sums
        (out ** 2).sum().backward()
        (rout ** 2).sum().backward()
        assert_same(mine.parametrizations.weight.original.grad, ref.parametrizations.weight.original.grad,
                    rtol=1e-3, atol=1e-4)
        opt.step()
        ropt.step()
    assert_same(mine.parametrizations.weight[0]._u, ref.parametrizations.weight[0]._u, rtol=1e-4, atol=1e-6)
    mine.eval()
    ref.eval()
    assert_same(mine.weight, ref.weight, rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'nope'"):
        nn.utils.parametrizations.spectral_norm(nn.Linear(2, 2), "nope")


@pytest.mark.parametrize("shape,omap,triv", [((4, 4), None, True), ((4, 4), "cayley", True),
                                             ((3, 5), "householder", False), ((4, 4), "householder", False),
                                             ((4, 4), "matrix_exp", False), ((2, 4, 4), None, True)])
def test_orthogonal_parametrization_matches_torch(reftorch, shape, omap, triv):
    """parametrizations.orthogonal: the same orthogonal weight and gradient w.r.t. `original` as torch's from the
    same initial weight (the square and no-trivialization cases are deterministic)."""
    w = np.random.default_rng(0).standard_normal(shape)
    outs = []
    for T in (torch, reftorch):
        m = T.nn.Module()
        m.weight = T.nn.Parameter(T.tensor(w))
        T.nn.utils.parametrizations.orthogonal(m, orthogonal_map=omap, use_trivialization=triv)
        W = m.weight
        (W * T.arange(W.numel(), dtype=W.dtype).reshape(W.shape)).sum().backward()
        outs.append((W, m.parametrizations.weight.original.grad, sorted(m.state_dict())))
    assert_same(outs[0][0], outs[1][0], rtol=1e-10, atol=1e-12)
    assert_same(outs[0][1], outs[1][1], rtol=1e-9, atol=1e-11)
    assert outs[0][2] == outs[1][2]


def test_orthogonal_tall_assignment_and_errors(reftorch):
    lin = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 5))  # (5, 3): householder, trivialized
    W = lin.weight.detach().numpy()
    np.testing.assert_allclose(W.T @ W, np.eye(3), atol=1e-5)
    q = np.linalg.qr(np.random.default_rng(1).standard_normal((5, 3)))[0].astype(np.float32)
    lin.weight = torch.tensor(q)  # right_inverse: the new base
    np.testing.assert_allclose(lin.weight.detach().numpy(), q, atol=1e-5)
    for T in (torch, reftorch):
        with pytest.raises(ValueError, match="Expected a matrix or batch of matrices"):
            T.nn.utils.parametrizations.orthogonal(T.nn.Linear(3, 3), name="bias")
        with pytest.raises(ValueError, match="orthogonal_map has to be one of"):
            T.nn.utils.parametrizations.orthogonal(T.nn.Linear(3, 3), orthogonal_map="qr")
        m = T.nn.utils.parametrizations.orthogonal(T.nn.Linear(3, 3), orthogonal_map="cayley",
                                                   use_trivialization=False)
        with pytest.raises(NotImplementedError, match="not possible to assign"):
            m.weight = T.eye(3)
