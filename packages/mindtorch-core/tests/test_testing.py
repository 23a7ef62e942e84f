"""torch.testing.assert_close / assert_allclose / make_tensor against real torch: the same inputs pass or fail
the same way (exception type and the message's first line)."""
import math

import numpy as np
import pytest

import mindtorch.torch as torch

CASES = [
    ("equal", lambda T: (T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0])), {}),
    ("within_default_float32", lambda T: (T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0 + 1e-6])), {}),
    ("outside_default", lambda T: (T.tensor([1.0, 2.0, 3.0]), T.tensor([1.0, 2.5, 3.0])), {}),
    ("custom_tol", lambda T: (T.tensor([1.0, 2.0]), T.tensor([1.0, 2.1])), {"rtol": 0.1, "atol": 0.0}),
    ("dtype_mismatch", lambda T: (T.tensor([1.0]), T.tensor([1.0], dtype=T.float64)), {}),
    ("dtype_unchecked", lambda T: (T.tensor([1.0]), T.tensor([1.0], dtype=T.float64)), {"check_dtype": False}),
    ("shape_mismatch", lambda T: (T.ones(2), T.ones(3)), {}),
    ("int_exact", lambda T: (T.tensor([1, 2]), T.tensor([1, 3])), {}),
    ("bool", lambda T: (T.tensor([True, False]), T.tensor([True, True])), {}),
    ("nan_default", lambda T: (T.tensor([math.nan]), T.tensor([math.nan])), {}),
    ("nan_equal", lambda T: (T.tensor([math.nan]), T.tensor([math.nan])), {"equal_nan": True}),
    ("inf", lambda T: (T.tensor([math.inf]), T.tensor([math.inf])), {}),
    ("nested", lambda T: ([T.ones(2), {"a": T.zeros(1)}], [T.ones(2), {"a": T.zeros(1)}]), {}),
    ("nested_bad", lambda T: ([T.ones(2), {"a": T.zeros(1)}], [T.ones(2), {"a": T.ones(1)}]), {}),
    ("length", lambda T: ([T.ones(1)], [T.ones(1), T.ones(1)]), {}),
    ("numbers", lambda T: (1.0, 1.0 + 1e-9), {}),
    ("number_types", lambda T: (1, 1.0), {}),
    ("tensor_vs_number", lambda T: (T.tensor(1.0), 1.0), {}),
    ("numpy", lambda T: (np.ones(2, np.float32), np.ones(2, np.float32)), {}),
    ("half_only_rtol", lambda T: (T.ones(1), T.ones(1)), {"rtol": 1e-3}),
]


def _outcome(T, make, kw):
    actual, expected = make(T)
    try:
        T.testing.assert_close(actual, expected, **kw)
        return None
    except Exception as e:  # noqa: BLE001 - the outcome is what we compare
        return type(e).__name__, str(e).splitlines()[0]


@pytest.mark.parametrize("name,make,kw", CASES, ids=[c[0] for c in CASES])
def test_assert_close_matches_torch(reftorch, name, make, kw):
    assert _outcome(torch, make, kw) == _outcome(reftorch, make, kw)


def test_assert_close_message_names_the_worst_element(reftorch):
    """Same lines and positions; the difference values themselves follow torch 1.12, which computes them in float64
    (torch 2.13 in the input dtype: 0.1428571492433548 where 1.12 and we print 0.14285714285714285)."""
    msgs = []
    for T in (torch, reftorch):
        with pytest.raises(AssertionError) as info:
            T.testing.assert_close(T.tensor([[1.0, 2.0], [3.0, 4.0]]), T.tensor([[1.0, 2.0], [3.5, 4.0]]))
        msgs.append(str(info.value))
    mine, ref = ([line.split(":")[0] + line.split(" at ")[-1] if " at " in line else line
                  for line in m.splitlines()] for m in msgs)
    assert mine == ref
    assert msgs[0].splitlines()[-1] == ("Greatest relative difference: 0.14285714285714285 at index (1, 0) "
                                        "(up to 1.3e-06 allowed)")


def test_assert_close_msg_forms():
    with pytest.raises(AssertionError, match="^custom$"):
        torch.testing.assert_close(torch.ones(1), torch.zeros(1), msg="custom")
    with pytest.raises(AssertionError, match="^wrapped: Tensor-likes"):
        torch.testing.assert_close(torch.ones(1), torch.zeros(1), msg=lambda m: "wrapped: " + m)


def test_assert_allclose_converts_expected_and_ignores_dtype():
    torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1, 2])
    torch.testing.assert_allclose(torch.tensor([math.nan]), [math.nan])
    with pytest.raises(AssertionError):
        torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1, 3])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool", "complex64"])
def test_make_tensor(dtype):
    d = getattr(torch, dtype)
    t = torch.testing.make_tensor(3, 4, dtype=d, device="cpu", low=0, high=5)
    assert t.shape == (3, 4) and t.dtype == d
    if dtype not in ("bool", "complex64"):
        values = t.numpy()
        assert values.min() >= 0 and values.max() <= 5
    g = torch.testing.make_tensor((2,), dtype=torch.float32, device="cpu", requires_grad=True)
    assert g.requires_grad and g.is_leaf
