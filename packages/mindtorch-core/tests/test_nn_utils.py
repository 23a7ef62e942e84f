"""nn.utils (clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters) against PyTorch."""
import math

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch import nn
from mindtorch.torch.nn import utils

RNG = np.random.default_rng(1)
SHAPES = [(3, 4), (4,), (2, 2, 3)]


def _params_with_grads(lib, scale=1.0):
    vals = [RNG.standard_normal(s).astype(np.float32) for s in SHAPES]
    grads = [(RNG.standard_normal(s) * scale).astype(np.float32) for s in SHAPES]
    return vals, grads


def _make(lib, vals, grads):
    params = [lib.nn.Parameter(lib.from_numpy(v.copy())) for v in vals]
    for p, g in zip(params, grads):
        p.grad = lib.from_numpy(g.copy())
    return params


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, math.inf, "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm_matches_torch(reftorch, norm_type, max_norm):
    nt = float(norm_type)
    vals, grads = _params_with_grads(None)
    mine, ref = _make(torch, vals, grads), _make(reftorch, vals, grads)
    total_m = utils.clip_grad_norm_(mine, max_norm, norm_type=nt)
    total_r = reftorch.nn.utils.clip_grad_norm_(ref, max_norm, norm_type=nt)
    assert_same(total_m, total_r, rtol=1e-5)
    for p, r in zip(mine, ref):
        assert_same(p.grad, r.grad, rtol=1e-5, atol=1e-7)


def test_clip_grad_norm_single_tensor_none_grads_and_generator(reftorch):
    vals, grads = _params_with_grads(None)
    mine, ref = _make(torch, vals, grads), _make(reftorch, vals, grads)
    mine[1].grad = None
    ref[1].grad = None
    total_m = utils.clip_grad_norm_((p for p in mine), 0.1)
    total_r = reftorch.nn.utils.clip_grad_norm_((p for p in ref), 0.1)
    assert_same(total_m, total_r, rtol=1e-5)
    assert mine[1].grad is None
    assert_same(utils.clip_grad_norm_(mine[0], 0.01), reftorch.nn.utils.clip_grad_norm_(ref[0], 0.01), rtol=1e-5)
    assert_same(mine[0].grad, ref[0].grad, rtol=1e-5, atol=1e-8)
    empty = [nn.Parameter(torch.from_numpy(np.zeros(2, np.float32)))]
    assert_same(utils.clip_grad_norm_(empty, 1.0),
                reftorch.nn.utils.clip_grad_norm_([reftorch.nn.Parameter(reftorch.zeros(2))], 1.0))


def test_clip_grad_norm_nonfinite(reftorch):
    vals, grads = _params_with_grads(None)
    grads[0][0, 0] = np.inf
    mine, ref = _make(torch, vals, grads), _make(reftorch, vals, grads)
    with pytest.raises(RuntimeError) as em:
        utils.clip_grad_norm_(mine, 1.0, error_if_nonfinite=True)
    with pytest.raises(RuntimeError) as er:
        reftorch.nn.utils.clip_grad_norm_(ref, 1.0, error_if_nonfinite=True)
    assert str(em.value) == str(er.value)
    assert_same(utils.clip_grad_norm_(mine, 1.0), reftorch.nn.utils.clip_grad_norm_(ref, 1.0))


def test_clip_grad_norm_functional_form_on_value_and_grad_output(reftorch):
    vals, grads = _params_with_grads(None, scale=3.0)
    ref = _make(reftorch, vals, grads)
    total_r = reftorch.nn.utils.clip_grad_norm_(ref, 1.0)
    # the manual's loop: grads from mindspore.value_and_grad are plain tensors -> the clipped tuple comes back
    params = ms.ParameterTuple([nn.Parameter(torch.from_numpy(v.copy())) for v in vals])
    weights = [torch.from_numpy(g) for g in grads]

    def loss_fn():
        return sum((p * w).sum() for p, w in zip(params, weights))

    _, ms_grads = ms.value_and_grad(loss_fn, None, params)()
    for g, expected in zip(ms_grads, grads):
        np.testing.assert_allclose(g.asnumpy(), expected)
    clipped = utils.clip_grad_norm_(ms_grads, 1.0)
    assert isinstance(clipped, tuple) and len(clipped) == len(ms_grads)
    for c, r in zip(clipped, ref):
        assert_same(c, r.grad, rtol=1e-5, atol=1e-7)
    ms_clip = ms.ops.clip_by_global_norm(ms_grads, 1.0)  # what the manual used before
    for c, m in zip(clipped, ms_clip):
        np.testing.assert_allclose(c.numpy(), m.asnumpy(), rtol=1e-5, atol=1e-7)
    assert float(total_r) > 1.0  # clipping really happened


@pytest.mark.parametrize("clip", [0.1, 1.0, 10.0])
def test_clip_grad_value_matches_torch(reftorch, clip):
    vals, grads = _params_with_grads(None)
    mine, ref = _make(torch, vals, grads), _make(reftorch, vals, grads)
    assert utils.clip_grad_value_(mine, clip) is None
    reftorch.nn.utils.clip_grad_value_(ref, clip)
    for p, r in zip(mine, ref):
        assert_same(p.grad, r.grad)
    clipped = utils.clip_grad_value_(tuple(torch.from_numpy(g) for g in grads), clip)
    for c, r in zip(clipped, ref):
        assert_same(c, r.grad)


def test_parameters_to_vector_and_back_match_torch(reftorch):
    vals, _ = _params_with_grads(None)
    mine = [nn.Parameter(torch.from_numpy(v.copy())) for v in vals]
    ref = [reftorch.nn.Parameter(reftorch.from_numpy(v.copy())) for v in vals]
    vec_m = utils.parameters_to_vector(mine)
    vec_r = reftorch.nn.utils.parameters_to_vector(ref)
    assert_same(vec_m.detach(), vec_r.detach())
    new = RNG.standard_normal(vec_r.shape[0]).astype(np.float32)
    ids = [id(p) for p in mine]
    utils.vector_to_parameters(torch.from_numpy(new.copy()), mine)
    reftorch.nn.utils.vector_to_parameters(reftorch.from_numpy(new.copy()), ref)
    assert [id(p) for p in mine] == ids
    for p, r in zip(mine, ref):
        assert_same(p.detach(), r.detach())
    with pytest.raises(TypeError) as em:
        utils.vector_to_parameters(new, mine)
    with pytest.raises(TypeError) as er:
        reftorch.nn.utils.vector_to_parameters(new, ref)
    # torch 1.12's typename() gives 'ndarray' for an array (2.x: 'numpy.ndarray'); we follow 1.12.
    assert str(em.value) == str(er.value).replace("numpy.ndarray", "ndarray")


def test_parameters_to_vector_is_differentiable(reftorch):
    vals, _ = _params_with_grads(None)
    mine = ms.ParameterTuple([nn.Parameter(torch.from_numpy(v.copy())) for v in vals])
    _, grads = ms.value_and_grad(lambda: (utils.parameters_to_vector(mine) ** 2).sum(), None, mine)()
    for g, v in zip(grads, vals):
        np.testing.assert_allclose(g.asnumpy(), 2 * v, rtol=1e-6, atol=1e-6)
