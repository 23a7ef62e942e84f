"""torch.quantile / nanquantile against real torch: every interpolation, scalar and 1-D q, dims, keepdim, NaN
slices, the gradient, and torch's errors."""
import numpy as np
import pytest

import mindtorch.torch as torch

_RNG = np.random.RandomState(0)
PLAIN = _RNG.randn(4, 5).astype(np.float32)
WITH_NAN = PLAIN.copy()
WITH_NAN[1, 2] = np.nan
WITH_NAN[3, :] = np.nan


@pytest.mark.parametrize("data", ["plain", "nan"])
@pytest.mark.parametrize("fn", ["quantile", "nanquantile"])
@pytest.mark.parametrize("q", [0.3, [0.0, 0.25, 0.5, 1.0]], ids=["scalar_q", "vector_q"])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (1, False), (0, True), (-1, True), (None, True)])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_matches_torch(reftorch, data, fn, q, dim, keepdim, interpolation):
    arr = PLAIN if data == "plain" else WITH_NAN

    def run(T):
        qq = q if isinstance(q, float) else T.tensor(q)
        return getattr(T, fn)(T.from_numpy(arr.copy()), qq, dim=dim, keepdim=keepdim,
                              interpolation=interpolation).numpy()

    ref, got = run(reftorch), run(torch)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6, equal_nan=True)


def test_quantile_gradient_and_method(reftorch):
    grads = []
    for T in (torch, reftorch):
        x = T.tensor(PLAIN.astype(np.float64), requires_grad=True)
        x.quantile(T.tensor([0.3, 0.9], dtype=T.float64), dim=1).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], atol=1e-12)


@pytest.mark.parametrize("case", ["int_input", "q_range", "q_2d", "q_dtype", "empty", "interp"])
def test_quantile_errors_match_torch(reftorch, case):
    def run(T):
        x = T.ones(3)
        args = {"int_input": (T.ones(3, dtype=T.int64), 0.5), "q_range": (x, 1.5), "q_2d": (x, T.ones(2, 2) * 0.5),
                "q_dtype": (x, T.tensor([0.5], dtype=T.float64)), "empty": (T.ones(0), 0.5),
                "interp": (x, 0.5)}[case]
        kw = {"interpolation": "cubic"} if case == "interp" else {}
        with pytest.raises(RuntimeError) as info:
            T.quantile(*args, **kw)
        return str(info.value).splitlines()[0]

    assert run(torch) == run(reftorch)
