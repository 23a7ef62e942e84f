"""torch.distributions fixes from a sweep against real PyTorch: positive_definite checks symmetry (torch 1.12), the
Cholesky of a covariance reads its lower triangle, Wishart (torch 1.12 has it), expand of a subclass with a custom
__init__, the base class's arg_constraints, error messages, and the names exported at the top level."""
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

RNG = np.random.default_rng(0)
TOL = dict(rtol=1e-9, atol=1e-10)  # float64


def _spd(*batch, n=3):
    a = RNG.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type and text are what is compared
        return type(e).__name__, str(e)
    return None


def _weights(shape):
    n = int(np.prod(shape))
    return np.linspace(-1.0, 1.0, max(n, 1))[:n].reshape(shape) + 0.3


def _with_grads(lib, out, leaves):
    """out's value and the gradients of a fixed weighting of it w.r.t. `leaves` (zeros where unused)."""
    loss = (out * lib.tensor(_weights(tuple(out.shape)), dtype=out.dtype)).sum()
    grads = lib.autograd.grad(loss, leaves, allow_unused=True, retain_graph=True)
    return [out.detach()] + [lib.zeros_like(x) if g is None else g for x, g in zip(leaves, grads)]


# ------------------------------------------------------------------------------------ 1. positive_definite
def test_positive_definite_checks_symmetry_like_torch(reftorch):
    mats = np.array([[[2.0, 0.5], [0.5, 1.0]], [[-1.0, 0.0], [0.0, -1.0]], [[1.0, 0.5], [0.4, 1.0]],
                     [[1.0, 0.0], [0.3, 1.0]]], np.float32)
    # torch returns the symmetry check alone while any matrix of the batch is asymmetric (so [1] passes there)
    for batch in (mats, mats[:2], mats[2:]):
        for name in ("positive_definite", "positive_semidefinite", "symmetric"):
            mine = getattr(torch.distributions.constraints, name).check(torch.tensor(batch))
            ref = getattr(reftorch.distributions.constraints, name).check(reftorch.tensor(batch))
            assert_same(mine, ref)
    assert isinstance(torch.distributions.constraints.positive_definite,
                      type(torch.distributions.constraints.symmetric))
    errors = [_error(lambda T=T: T.distributions.MultivariateNormal(T.zeros(2), covariance_matrix=T.tensor(mats[2])))
              for T in (torch, reftorch)]
    assert errors[0][0] == errors[1][0] == "ValueError"
    assert errors[0][1].split(" of distribution")[0] == errors[1][1].split(" of distribution")[0]


@pytest.mark.parametrize("param", ["covariance_matrix", "precision_matrix"])
@pytest.mark.parametrize("symmetric", [True, False])
def test_mvn_cholesky_reads_the_lower_triangle_like_torch(reftorch, param, symmetric):
    m = _spd(n=3)
    if not symmetric:
        m = m + np.triu(RNG.standard_normal((3, 3)), 1)  # only the upper triangle changes
    x = RNG.standard_normal((4, 3))

    def run(T):
        mat = T.tensor(m, requires_grad=True)
        loc = T.zeros(3, dtype=T.float64)
        d = T.distributions.MultivariateNormal(loc, validate_args=symmetric, **{param: mat})
        outs = [d.log_prob(T.tensor(x)), d.scale_tril, d.entropy()]
        return [r for o in outs for r in _with_grads(T, o, [mat])]

    assert_same(run(torch), run(reftorch), **TOL)


# ------------------------------------------------------------------------------------------------ 2. Wishart
def _wishart(T, kind, cov, df):
    c = T.tensor(cov, requires_grad=True)
    d = T.tensor(df, requires_grad=True)
    if kind == "scale_tril":
        c = T.linalg.cholesky(T.tensor(cov)).requires_grad_()
    return T.distributions.Wishart(d, **{kind: c}), c, d


@pytest.mark.parametrize("kind", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_wishart_values_and_gradients_match_torch(reftorch, kind):
    cov, x, df = _spd(2), _spd(4, 2), np.array([4.5, 6.0])

    def run(T):
        W, c, d = _wishart(T, kind, cov, df)
        value = T.tensor(x, requires_grad=True)
        outs = [W.log_prob(value), W.entropy(), W.mean, W.variance, W.mode, W.covariance_matrix,
                W.precision_matrix, W.scale_tril]
        return [r for o in outs for r in _with_grads(T, o, [c, d, value])]

    assert_same(run(torch), run(reftorch), **TOL)


def test_wishart_scalar_df_float32_kl_and_nan_mode(reftorch):
    def run(T):
        W = T.distributions.Wishart(3.5, covariance_matrix=T.tensor([[2.0, 0.5], [0.5, 1.0]]))
        Q = T.distributions.Wishart(T.tensor([3.0, 5.0]), scale_tril=T.tensor([[1.5, 0.0], [0.2, 0.8]]))
        W1 = T.distributions.Wishart(2.0, covariance_matrix=T.tensor([[2.0]]))
        return [W.log_prob(T.eye(2)), W.entropy(), W.mean, W.mode, W.variance, W.df,
                T.distributions.kl_divergence(W, Q).detach(), W1.log_prob(T.tensor([[0.7]])), W1.entropy()]

    assert_same(run(torch), run(reftorch), rtol=1e-5)


def test_wishart_shapes_constraints_and_errors(reftorch):
    for T in (torch, reftorch):
        D = T.distributions
        W = D.Wishart(T.tensor([3.5, 4.0]), scale_tril=T.eye(2))
        assert W.batch_shape == (2,) and W.event_shape == (2, 2) and W.has_rsample
        assert W.sample().shape == (2, 2, 2) and W.sample((5, 3)).shape == (5, 3, 2, 2, 2)
        assert W.sample().dtype == T.float32
        E = W.expand((3, 2))
        assert E.batch_shape == (3, 2) and E.df.shape == (3, 2) and E.sample((4,)).shape == (4, 3, 2, 2, 2)
        assert repr(D.Wishart.support) == "PositiveDefinite()"
    mine, ref = (T.distributions.Wishart(5.0, covariance_matrix=T.eye(3)) for T in (torch, reftorch))
    assert {k: repr(v) for k, v in mine.arg_constraints.items()} == {k: repr(v) for k, v in ref.arg_constraints.items()}
    assert "Wishart" in torch.distributions.__all__

    def cases(T):
        D = T.distributions
        return [lambda: D.Wishart(T.tensor(1.0), covariance_matrix=T.eye(3)),
                lambda: D.Wishart(5.0, covariance_matrix=T.tensor([[1.0, 0.5], [0.4, 1.0]])),
                lambda: D.Wishart(5.0, precision_matrix=T.ones(2)),
                lambda: D.Wishart(5.0),
                lambda: D.Wishart(5.0, scale_tril=T.ones(2, 2)),
                lambda: D.Wishart(5.0, covariance_matrix=T.eye(2)).log_prob(T.tensor([[1.0, 0.5], [0.4, 1.0]]))]

    for f_mine, f_ref in zip(cases(torch), cases(reftorch)):
        e_mine, e_ref = _error(f_mine), _error(f_ref)
        assert e_mine[0] == e_ref[0]
        assert e_mine[1].split(":")[0] == e_ref[1].split(":")[0]
    for T in (torch, reftorch):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            T.distributions.Wishart(T.tensor([1.5, 3.0]), covariance_matrix=T.eye(2))
        assert [str(x.message) for x in w] == [
            "Low df values detected. Singular samples are highly likely to occur for ndim - 1 < df < ndim."]


def test_wishart_rsample_moments_gradients_and_singular_redraws():
    torch.manual_seed(0)
    cov = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
    W = torch.distributions.Wishart(torch.tensor([3.5, 7.0], dtype=torch.float64), covariance_matrix=cov)
    s = W.sample((20000,))
    np.testing.assert_allclose(s.mean(0).numpy(), W.mean.numpy(), rtol=0.05)
    np.testing.assert_allclose(s.var(0).numpy(), W.variance.numpy(), rtol=0.1)
    assert bool(torch.distributions.constraints.positive_definite.check(s).all())

    df = torch.tensor([4.0, 6.0], requires_grad=True)
    L = torch.eye(2).requires_grad_()
    torch.distributions.Wishart(df, scale_tril=L).rsample((3,)).sum().backward()
    assert df.grad is not None and L.grad is not None and bool((df.grad > 0).all())

    # a singular draw is redrawn, with torch's warning; its neighbours are kept
    W = torch.distributions.Wishart(4.0, covariance_matrix=torch.eye(2))
    draws = [torch.stack([torch.zeros(2, 2), torch.eye(2)]), torch.full((2, 2, 2), 3.0) * torch.eye(2)]
    W._bartlett_sampling = lambda sample_shape: draws.pop(0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s = W.rsample((2,))
    assert [str(x.message) for x in w] == ["Singular sample detected."]
    assert_same(s, torch.stack([3 * torch.eye(2), torch.eye(2)]))


# ------------------------------------------------------------------------------------- 3. expand of subclasses
def test_expand_of_a_subclass_with_custom_init_raises_like_torch(reftorch):
    def errors(T):
        class My(T.distributions.Normal):
            def __init__(self, loc):
                super().__init__(loc, 1.0)

        class Plain(T.distributions.Normal):
            pass

        class Bare(T.distributions.Distribution):
            arg_constraints = {}

        class Lkj(T.distributions.LKJCholesky):
            def __init__(self):
                super().__init__(3)

        assert Plain(T.zeros(1), T.ones(1)).expand((3,)).batch_shape == (3,)
        return [_error(lambda: My(T.zeros(1)).expand((3,))), _error(lambda: Bare().expand((3,))),
                _error(lambda: Lkj().expand((2,)))]

    mine, ref = errors(torch), errors(reftorch)
    assert mine == ref
    assert mine[0] == ("NotImplementedError", "Subclass My of Normal that defines a custom __init__ method must "
                                              "also define a custom .expand() method.")


# ------------------------------------------------------------------------------- 4. missing arg_constraints
def test_missing_arg_constraints_and_support_warn_like_torch(reftorch):
    def record(T):
        class NoArgs(T.distributions.Distribution):
            pass

        class NoSupport(T.distributions.Distribution):
            arg_constraints = {}

        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            d = NoArgs(validate_args=True)
            NoArgs(validate_args=False)
            NoSupport(validate_args=True)._validate_sample(T.ones(()))
        messages = [(x.category.__name__, str(x.message)) for x in w]
        return messages, _error(lambda: d.arg_constraints), _error(lambda: repr(d))

    assert record(torch) == record(reftorch)


# ---------------------------------------------------------------------------------------------- 5. messages
def test_error_messages_match_torch(reftorch):
    def errors(T):
        D, c = T.distributions, T.distributions.constraints
        reshape = D.transforms.ReshapeTransform((2, 3), (6,))
        return [_error(lambda k=k: D.MultivariateNormal(T.zeros(2), **{k: T.ones(2)}))
                for k in ("covariance_matrix", "precision_matrix", "scale_tril")] + [
            _error(lambda: c.lower_cholesky.check(T.ones(3))), _error(lambda: c.corr_cholesky.check(T.ones(3))),
            _error(lambda: reshape.forward_shape((4, 3))), _error(lambda: reshape.inverse_shape((4, 5))),
            _error(lambda: reshape.forward_shape(T.Size([4, 3])))]

    assert errors(torch) == errors(reftorch)
    assert torch.distributions.transforms.ReshapeTransform((2, 3), (6,)).forward_shape((4, 2, 3)) == (4, 6)


# ------------------------------------------------------------------------------------------- 6. exported names
def test_relaxed_helper_distributions_live_only_in_their_modules(reftorch):
    for T in (torch, reftorch):
        D = T.distributions
        assert not hasattr(D, "LogitRelaxedBernoulli") and not hasattr(D, "ExpRelaxedCategorical")
        assert D.relaxed_bernoulli.LogitRelaxedBernoulli(T.tensor(0.5), probs=T.tensor([0.3])).sample().shape == (1,)
        assert D.relaxed_categorical.ExpRelaxedCategorical(T.tensor(0.5), probs=T.ones(3) / 3).sample().shape == (3,)
        assert hasattr(D, "RelaxedBernoulli") and hasattr(D, "RelaxedOneHotCategorical")
