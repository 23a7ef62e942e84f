"""Inputs torch accepts that mindtorch refused or crashed on, against real PyTorch."""
import collections

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


def test_cdist_broadcasts_batch_dims(reftorch):
    rng = np.random.default_rng(0)
    a, b = rng.random((2, 5, 3), dtype=np.float32), rng.random((1, 4, 3), dtype=np.float32)
    assert_same(torch.cdist(torch.tensor(a), torch.tensor(b)), reftorch.cdist(reftorch.tensor(a), reftorch.tensor(b)),
                atol=1e-5)


@pytest.mark.parametrize("args", [
    [(2, 3), [0, 1], [1]],
    [(2, 3), [0, 1], (3,), [1], [0]],
    [(2, 3), [0, 1], (3, 4), [1, 2]],
    [(2, 2, 3), [Ellipsis, 1], (3,), [1], [Ellipsis]],
], ids=["sum", "matvec", "matmul_implicit", "ellipsis"])
def test_einsum_sublist_form(reftorch, args):
    rng = np.random.default_rng(0)
    arrays = [rng.random(a, dtype=np.float32) if isinstance(a, tuple) else a for a in args]
    mine = torch.einsum(*[torch.tensor(a) if isinstance(a, np.ndarray) else a for a in arrays])
    ref = reftorch.einsum(*[reftorch.tensor(a) if isinstance(a, np.ndarray) else a for a in arrays])
    assert_same(mine, ref, atol=1e-5)


@pytest.mark.parametrize("data", [range(3), range(0, 10, 3), collections.deque([1.5, 2]), range(0)],
                         ids=["range", "range_step", "deque", "empty_range"])
def test_tensor_of_python_sequences(reftorch, data):
    assert_same(torch.tensor(data), reftorch.tensor(data))


@pytest.mark.parametrize("row", [[1.0, np.nan, np.nan], [np.nan, np.nan, np.nan], [np.nan, 2.0, 2.0, np.nan, 1.0]])
def test_mode_with_several_nans(reftorch, row):
    """It crashed (np.unique merges NaNs). With NaN in a row torch's CPU kernel sorts it, where NaN's place is
    unspecified; these rows have one sensible answer, which torch gives."""
    assert_same(torch.mode(torch.tensor(row)), reftorch.mode(reftorch.tensor(row)))


@pytest.mark.parametrize("call", [
    lambda T: T.rand_like(T.ones(2, dtype=T.int64)), lambda T: T.randn_like(T.ones(2, dtype=T.int64)),
    lambda T: T.rand(2, dtype=T.int64), lambda T: T.randn(2, dtype=T.int32), lambda T: T.rand(2, dtype=T.bool),
    lambda T: T.ones(2, dtype=T.int64).uniform_(), lambda T: T.ones(2, dtype=T.int64).normal_(),
    lambda T: T.normal(0.0, 1.0, (2,), dtype=T.int64), lambda T: T.ones(2, dtype=T.int32).log_normal_(),
], ids=["rand_like", "randn_like", "rand", "randn", "rand_bool", "uniform_", "normal_", "normal", "log_normal_"])
def test_continuous_samplers_refuse_integer_dtypes(reftorch, call):
    """torch dispatches them over floating types only; they returned zeros for integer tensors."""
    from _compare import assert_same_error

    assert_same_error(NotImplementedError, call, reftorch)


@pytest.mark.parametrize("call", [
    lambda T: T.ldexp(T.tensor([1, 2]), T.tensor(2.0, dtype=T.float64)),
    lambda T: T.ldexp(T.ones(2, dtype=T.float16), T.ones(2)),
    lambda T: T.ldexp(T.tensor([1, 2]), T.tensor([3, 4])),
    lambda T: T.lcm(T.tensor([4, 6], dtype=T.uint8), T.tensor([6, 4], dtype=T.int8)),
    lambda T: T.gcd(T.tensor([4, 6], dtype=T.int16), T.tensor([6, 4], dtype=T.int16)),
], ids=["ldexp_int_f64_0d", "ldexp_f16_f32", "ldexp_int_int", "lcm_u8_i8", "gcd_i16"])
def test_result_dtypes(reftorch, call):
    assert_same(call(torch), call(reftorch))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ndtri_tails_are_finite(reftorch, dtype):
    """2p - 1 loses p near 0 (an infinite or 1e-3-off result); torch's ndtri is finite down to tiny p."""
    x = np.array([1e-30, 1e-10, 1e-8, 3e-8, 1e-7, 2e-7, 1e-6, 1e-5, 0.3, 0.5, 0.9, 1 - 1e-7, 0.99999994, 0.9999,
                  0.0, 1.0, -0.1, 1.1, np.nan], dtype=dtype)
    tol = {"float32": 2e-6, "float64": 1e-10}[dtype]
    assert_same(torch.special.ndtri(torch.tensor(x)), reftorch.special.ndtri(reftorch.tensor(x)), rtol=tol, atol=0)
    g = []
    for T in (torch, reftorch):
        p = T.tensor(x[:14], requires_grad=True)
        (T.special.ndtri(p) ** 2).sum().backward()
        g.append(p.grad)
    assert_same(g[0], g[1], rtol=1e-4, atol=0)


def test_complex_rand_and_randn(reftorch):
    """torch draws the real and imaginary parts independently (randn: each with variance 1/2)."""
    torch.manual_seed(0)
    a, b = torch.rand(20000, dtype=torch.complex64), torch.randn(20000, dtype=torch.complex64)
    assert a.dtype == torch.complex64 and b.dtype == torch.complex64
    assert abs(float(a.real.mean()) - 0.5) < 0.02 and abs(float(a.imag.mean()) - 0.5) < 0.02
    assert abs(float((b.abs() ** 2).mean()) - 1.0) < 0.05 and abs(float(b.real.var()) - 0.5) < 0.03
    assert torch.randn_like(torch.ones(3, dtype=torch.complex64)).dtype == torch.complex64
