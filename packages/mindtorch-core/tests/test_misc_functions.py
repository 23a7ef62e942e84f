"""signbit, ldexp, trapezoid/trapz, combinations, vander, renorm against real torch (values, dtypes, shapes)."""
import numpy as np
import pytest

import mindtorch.torch as torch

_R = np.random.RandomState(0)
Y = _R.randn(3, 5).astype(np.float32)
XS = np.sort(_R.rand(5)).astype(np.float32)

CASES = {
    "signbit_float": lambda T: T.signbit(T.tensor([-1.0, -0.0, 0.0, 2.0])),
    "signbit_int": lambda T: T.signbit(T.tensor([-3, 0, 4])),
    "signbit_uint8": lambda T: T.signbit(T.tensor([0, 4], dtype=T.uint8)),
    "ldexp": lambda T: T.ldexp(T.tensor([1.0, -2.5, 3.0]), T.tensor([2, -1, 0])),
    "ldexp_int": lambda T: T.ldexp(T.tensor([1, 3]), T.tensor([3, 1])),
    "ldexp_method": lambda T: T.tensor([1.5, 2.0]).ldexp(T.tensor([1, 2])),
    "trapezoid": lambda T: T.trapezoid(T.tensor(Y)),
    "trapezoid_dx": lambda T: T.trapezoid(T.tensor(Y), dx=0.5, dim=0),
    "trapezoid_x": lambda T: T.trapezoid(T.tensor(Y), T.tensor(XS)),
    "trapezoid_x_full": lambda T: T.trapezoid(T.tensor(Y), T.tensor(np.tile(XS, (3, 1)))),
    "trapz": lambda T: T.trapz(T.tensor(Y), T.tensor(XS), dim=1),
    "trapz_dx": lambda T: T.trapz(T.tensor(Y), dx=2.0),
    "combinations": lambda T: T.combinations(T.tensor([1, 2, 3, 4])),
    "combinations_r3": lambda T: T.combinations(T.tensor([1.0, 2.0, 3.0, 4.0]), r=3),
    "combinations_repl": lambda T: T.combinations(T.tensor([1, 2, 3]), with_replacement=True),
    "combinations_big_r": lambda T: T.combinations(T.tensor([1, 2]), r=3),
    "vander": lambda T: T.vander(T.tensor([1, 2, 3, 5])),
    "vander_float_N": lambda T: T.vander(T.tensor([1.0, 2.0, 0.5]), N=4, increasing=True),
    "renorm": lambda T: T.renorm(T.tensor(Y), 2, 0, 1.5),
    "renorm_p1_dim1": lambda T: T.tensor(Y).renorm(1, 1, 0.8),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_misc_function_matches_torch(reftorch, name):
    got, want = CASES[name](torch), CASES[name](reftorch)
    assert tuple(got.shape) == tuple(want.shape)
    assert str(want.dtype).split(".")[-1] == torch._dtype._TORCH_NAME[got.dtype].split(".")[-1]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_renorm_inplace_and_gradient(reftorch):
    grads = []
    for T in (torch, reftorch):
        x = T.tensor(Y.copy(), requires_grad=True)
        T.renorm(x, 2, 0, 1.0).sum().backward()
        grads.append(x.grad.numpy())
        z = T.tensor(Y.copy())
        assert z.renorm_(2, 0, 1.0) is z
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-4, atol=1e-5)
