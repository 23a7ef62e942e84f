"""torch.distributions (Normal, Uniform, Bernoulli, Categorical, kl_divergence) against real torch: log_prob,
entropy, moments, cdf/icdf, KL values, sample shapes, rsample gradients and argument validation."""
import numpy as np
import pytest

import mindtorch.torch as torch

_R = np.random.RandomState(0)
LOC = _R.randn(3).astype(np.float32)
SCALE = (np.abs(_R.randn(3)) + 0.5).astype(np.float32)
VALUE = _R.randn(4, 3).astype(np.float32)
PROBS = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], np.float32)
LOGITS = _R.randn(2, 3).astype(np.float32)


def _build(T, kind):
    t = T.tensor
    return {
        "normal": lambda: T.distributions.Normal(t(LOC), t(SCALE)),
        "normal_scalar": lambda: T.distributions.Normal(0.5, 2.0),
        "uniform": lambda: T.distributions.Uniform(t(LOC - 3), t(LOC + 3)),
        "bernoulli_probs": lambda: T.distributions.Bernoulli(probs=t([0.1, 0.5, 0.9])),
        "bernoulli_logits": lambda: T.distributions.Bernoulli(logits=t(LOC)),
        "categorical_probs": lambda: T.distributions.Categorical(probs=t(PROBS)),
        "categorical_logits": lambda: T.distributions.Categorical(logits=t(LOGITS)),
    }[kind]()


def _values(T, kind):
    if kind.startswith("bernoulli"):
        return T.tensor(np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], np.float32))
    if kind.startswith("categorical"):
        return T.tensor([[0, 2], [1, 1], [2, 0]])
    if kind == "uniform":
        return T.tensor(np.clip(VALUE, LOC - 2.9, LOC + 2.9).astype(np.float32))
    return T.tensor(VALUE)


KINDS = ["normal", "normal_scalar", "uniform", "bernoulli_probs", "bernoulli_logits", "categorical_probs",
         "categorical_logits"]


def _np(x):
    return x.detach().numpy() if hasattr(x, "detach") else np.asarray(x)


@pytest.mark.parametrize("kind", KINDS)
def test_distribution_values_match_torch(reftorch, kind):
    mine, ref = _build(torch, kind), _build(reftorch, kind)
    assert tuple(mine.batch_shape) == tuple(ref.batch_shape)
    assert tuple(mine.event_shape) == tuple(ref.event_shape)
    np.testing.assert_allclose(_np(mine.log_prob(_values(torch, kind))), _np(ref.log_prob(_values(reftorch, kind))),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(mine.entropy()), _np(ref.entropy()), rtol=1e-5, atol=1e-6)
    for attr in ("mean", "variance", "stddev"):
        np.testing.assert_allclose(_np(getattr(mine, attr)), _np(getattr(ref, attr)), rtol=1e-5, atol=1e-6,
                                   equal_nan=True)
    if kind.startswith(("bernoulli", "categorical")):
        np.testing.assert_allclose(_np(mine.probs), _np(ref.probs), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(_np(mine.logits), _np(ref.logits), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", ["normal", "uniform"])
def test_cdf_icdf_match_torch(reftorch, kind):
    mine, ref = _build(torch, kind), _build(reftorch, kind)
    v = _values(torch, kind), _values(reftorch, kind)
    np.testing.assert_allclose(_np(mine.cdf(v[0])), _np(ref.cdf(v[1])), rtol=1e-5, atol=1e-6)
    p = np.array([0.1, 0.5, 0.9], np.float32)
    np.testing.assert_allclose(_np(mine.icdf(torch.tensor(p))), _np(ref.icdf(reftorch.tensor(p))), rtol=1e-4,
                               atol=1e-5)


@pytest.mark.parametrize("pair", [("normal", "normal"), ("categorical_probs", "categorical_logits"),
                                  ("bernoulli_probs", "bernoulli_logits")])
def test_kl_divergence_matches_torch(reftorch, pair):
    got = torch.distributions.kl_divergence(_build(torch, pair[0]), _build(torch, pair[1]))
    want = reftorch.distributions.kl_divergence(_build(reftorch, pair[0]), _build(reftorch, pair[1]))
    np.testing.assert_allclose(_np(got), _np(want), rtol=1e-5, atol=1e-6)
    p = torch.distributions.Uniform(torch.tensor([0.0]), torch.tensor([1.0]))
    q = torch.distributions.Uniform(torch.tensor([-1.0]), torch.tensor([2.0]))
    rp, rq = (reftorch.distributions.Uniform(reftorch.tensor([a]), reftorch.tensor([b]))
              for a, b in ((0.0, 1.0), (-1.0, 2.0)))
    np.testing.assert_allclose(_np(torch.distributions.kl_divergence(p, q)),
                               _np(reftorch.distributions.kl_divergence(rp, rq)), rtol=1e-6)
    assert float(torch.distributions.kl_divergence(q, p)[0]) == float("inf")


@pytest.mark.parametrize("kind", KINDS)
def test_sample_shapes_and_seeding(kind):
    d = _build(torch, kind)
    s = d.sample((5, 2))
    assert tuple(s.shape) == (5, 2) + tuple(d.batch_shape) + tuple(d.event_shape)
    torch.manual_seed(3)
    a = d.sample((4,))
    torch.manual_seed(3)
    b = d.sample((4,))
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    if kind.startswith("categorical"):
        assert a.dtype == torch.int64 and int(a.min()) >= 0 and int(a.max()) < 3


def test_sample_statistics():
    torch.manual_seed(0)
    n = torch.distributions.Normal(torch.tensor([1.0, -2.0]), torch.tensor([0.5, 2.0])).sample((20000,))
    np.testing.assert_allclose(n.mean(0).numpy(), [1.0, -2.0], atol=0.05)
    np.testing.assert_allclose(n.std(0).numpy(), [0.5, 2.0], rtol=0.05)
    c = torch.distributions.Categorical(probs=torch.tensor([0.2, 0.8])).sample((20000,))
    assert abs(float(c.float().mean()) - 0.8) < 0.02


def test_rsample_is_differentiable(reftorch):
    loc = torch.tensor([0.5, -1.0], requires_grad=True)
    scale = torch.tensor([1.0, 2.0], requires_grad=True)
    x = torch.distributions.Normal(loc, scale).rsample((3,))
    x.sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [3.0, 3.0])
    assert scale.grad is not None and tuple(scale.grad.shape) == (2,)
    lp = torch.tensor([0.1, 0.2], requires_grad=True)
    torch.distributions.Normal(lp, 1.0).log_prob(torch.tensor([1.0, 1.0])).sum().backward()
    np.testing.assert_allclose(lp.grad.numpy(), [0.9, 0.8], rtol=1e-6)


@pytest.mark.parametrize("case", ["normal_scale", "bernoulli_both", "bernoulli_range", "categorical_none",
                                  "uniform_order"])
def test_invalid_arguments_raise_value_error_like_torch(reftorch, case):
    def make(T):
        return {"normal_scale": lambda: T.distributions.Normal(T.tensor([0.0]), T.tensor([-1.0])),
                "bernoulli_both": lambda: T.distributions.Bernoulli(probs=T.tensor([0.5]), logits=T.tensor([0.0])),
                "bernoulli_range": lambda: T.distributions.Bernoulli(probs=T.tensor([1.5])),
                "categorical_none": lambda: T.distributions.Categorical(),
                "uniform_order": lambda: T.distributions.Uniform(T.tensor([1.0]), T.tensor([0.0]))}[case]()

    for T in (torch, reftorch):
        with pytest.raises(ValueError):
            make(T)
