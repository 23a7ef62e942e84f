"""str/repr of tensors compared character for character with real PyTorch (precision, int mode, sci mode,
summarisation, line wrapping, dtype and requires_grad suffixes, torch.set_printoptions)."""
import numpy as np
import pytest

import mindtorch.torch as torch

RS = np.random.RandomState(0)
CASES = {
    "float": np.array([1.0, 2.0], np.float32),
    "float_frac": np.array([1.5, -2.25, 3.125], np.float32),
    "int64": np.array([1, 2, -3], np.int64),
    "int32": np.array([1, 2, -3], np.int32),
    "uint8": np.array([0, 7, 255], np.uint8),
    "int8": np.array([[-1, 2], [3, -4]], np.int8),
    "bool": np.array([True, False, True]),
    "float16": np.array([1.5, 2.25, -0.1], np.float16),
    "float64": np.array([0.1, 0.25], np.float64),
    "float64_int": np.array([1.0, 2.0], np.float64),
    "sci_small": np.array([1e-5, 1.0], np.float32),
    "sci_ratio": np.array([0.1, 123456.0], np.float32),
    "sci_big": np.array([1e9, 2e9], np.float32),
    "nan_inf": np.array([np.nan, np.inf, -np.inf, 1.0], np.float32),
    "nan_inf_frac": np.array([np.nan, 0.5, -np.inf], np.float32),
    "all_zero": np.zeros(3, np.float32),
    "scalar": np.array(3.5, np.float32),
    "scalar_int": np.array(7, np.int64),
    "scalar_bool": np.array(True),
    "scalar_f16": np.array(0.333, np.float16),
    "empty": np.zeros(0, np.float32),
    "empty_2d": np.zeros((0, 3), np.float32),
    "empty_int": np.zeros(0, np.int64),
    "empty_2d_int": np.zeros((2, 0), np.int32),
    "matrix": RS.randn(4, 5).astype(np.float32),
    "cube": RS.randn(2, 3, 4).astype(np.float32),
    "wide": RS.randn(30).astype(np.float32),
    "wide_int": np.arange(100, dtype=np.int64) * 37,
    "large_1d": np.arange(2000, dtype=np.float32) / 7,
    "large_2d": np.arange(1200, dtype=np.int64).reshape(2, 600),
    "large_3d": RS.randn(12, 10, 10).astype(np.float32),
    "large_bool": np.arange(1500) % 3 == 0,
    "neg_zero": np.array([-0.0, 1.0], np.float32),
}


@pytest.fixture(autouse=True)
def _default_printoptions(reftorch):
    yield
    torch.set_printoptions(profile="default", sci_mode=None)
    reftorch.set_printoptions(profile="default", sci_mode=None)


@pytest.mark.parametrize("name", sorted(CASES))
def test_str_matches_torch(reftorch, name):
    arr = CASES[name]
    mine, ref = torch.from_numpy(arr.copy()), reftorch.from_numpy(arr.copy())
    assert str(mine) == str(ref)
    assert repr(mine) == repr(ref)


def test_requires_grad_suffix(reftorch):
    arr = np.array([1.0, 2.0], np.float32)
    mine = torch.from_numpy(arr.copy()).requires_grad_()
    ref = reftorch.from_numpy(arr.copy()).requires_grad_()
    assert str(mine) == str(ref) == "tensor([1., 2.], requires_grad=True)"
    mine64 = torch.from_numpy(arr.astype(np.float64)).requires_grad_()
    ref64 = reftorch.from_numpy(arr.astype(np.float64)).requires_grad_()
    assert str(mine64) == str(ref64)


def test_suffix_wraps_at_linewidth(reftorch):
    arr = (np.arange(9, dtype=np.float64) + 0.123456) * 1.5
    mine, ref = torch.from_numpy(arr.copy()), reftorch.from_numpy(arr.copy())
    assert str(mine) == str(ref)
    assert str(mine.requires_grad_()) == str(ref.requires_grad_())


@pytest.mark.parametrize("opts", [
    {"precision": 2}, {"precision": 8}, {"threshold": 5}, {"edgeitems": 1, "threshold": 5}, {"linewidth": 40},
    {"sci_mode": True}, {"sci_mode": False}, {"profile": "short"}, {"profile": "full"},
], ids=str)
def test_set_printoptions(reftorch, opts):
    torch.set_printoptions(**opts)
    reftorch.set_printoptions(**opts)
    for name in ("float_frac", "matrix", "wide_int", "large_1d", "sci_small", "int64"):
        arr = CASES[name]
        assert str(torch.from_numpy(arr.copy())) == str(reftorch.from_numpy(arr.copy())), name


def test_format_0d(reftorch):
    mine = torch.from_numpy(np.array(3.14159, np.float32))
    ref = reftorch.from_numpy(np.array(3.14159, np.float32))
    assert f"{mine:.4f}" == f"{ref:.4f}"
    assert f"{mine}" == f"{ref}"


def test_printing_results_of_ops(reftorch):
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    m, r = torch.from_numpy(a.copy()), reftorch.from_numpy(a.copy())
    assert str(m / 3) == str(r / 3)
    assert str(m > 2) == str(r > 2)
    assert str(m.sum(0)) == str(r.sum(0))
    assert str(torch.max(m, 1)) == str(reftorch.max(r, 1))
