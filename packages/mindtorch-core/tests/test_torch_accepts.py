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
