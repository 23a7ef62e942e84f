"""Datasets and samplers against real torch's (deterministic ones exactly; random ones by their contract)."""
import numpy as np
import pytest

import mindtorch.torch as torch
from mindtorch.torch.utils import data as D


def test_tensor_dataset_items_are_numpy(reftorch):
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    y = np.arange(6)
    ds = D.TensorDataset(torch.tensor(x), torch.tensor(y))
    ref = reftorch.utils.data.TensorDataset(reftorch.tensor(x), reftorch.tensor(y))
    assert len(ds) == len(ref) == 6
    for i in (0, 3, -1):
        item = ds[i]
        assert all(isinstance(a, (np.ndarray, np.generic)) for a in item)  # the manual's FAQ: items are numpy
        np.testing.assert_array_equal(item[0], ref[i][0].numpy())
        np.testing.assert_array_equal(item[1], ref[i][1].numpy())
    with pytest.raises(AssertionError):
        D.TensorDataset(np.zeros(3), np.zeros(4))
    with pytest.raises(AssertionError):
        reftorch.utils.data.TensorDataset(reftorch.zeros(3), reftorch.zeros(4))


class _Range(D.Dataset):
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __len__(self):
        return self.hi - self.lo

    def __getitem__(self, i):
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.lo + i


def test_concat_subset_chain(reftorch):
    rd = reftorch.utils.data
    a, b = _Range(0, 3), _Range(10, 15)
    cat, ref_cat = D.ConcatDataset([a, b]), rd.ConcatDataset([a, b])
    assert len(cat) == len(ref_cat) and cat.cumulative_sizes == ref_cat.cumulative_sizes
    assert [cat[i] for i in range(-len(cat), len(cat))] == [ref_cat[i] for i in range(-len(cat), len(cat))]
    assert (a + b)[4] == ref_cat[4]
    sub, ref_sub = D.Subset(cat, [7, 0, 3]), rd.Subset(ref_cat, [7, 0, 3])
    assert [sub[i] for i in range(3)] == [ref_sub[i] for i in range(3)] and len(sub) == 3

    def make(base):
        class It(base):
            def __init__(self, n):
                self.n = n

            def __iter__(self):
                return iter(range(self.n))

            def __len__(self):
                return self.n
        return It

    It, RefIt = make(D.IterableDataset), make(rd.IterableDataset)
    chain, ref_chain = D.ChainDataset([It(2), It(3)]), rd.ChainDataset([RefIt(2), RefIt(3)])
    assert list(chain) == list(ref_chain) and len(chain) == len(ref_chain)
    assert list(It(2) + It(1)) == [0, 1, 0]


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.5, 0.25, 0.25], [0.33, 0.33, 0.34]])
def test_random_split(reftorch, lengths):
    # Fractions arrived in torch 1.13 (1.12 takes counts only): we accept both, with 1.13's rounding.
    ds = _Range(0, 10)
    mine = D.random_split(ds, lengths, generator=torch.Generator().manual_seed(1))
    ref = reftorch.utils.data.random_split(ds, lengths, generator=reftorch.Generator().manual_seed(1))
    assert [len(s) for s in mine] == [len(s) for s in ref]
    assert sorted(i for s in mine for i in s.indices) == list(range(10))
    again = D.random_split(ds, lengths, generator=torch.Generator().manual_seed(1))
    assert [s.indices for s in again] == [s.indices for s in mine]
    with pytest.raises(ValueError):
        reftorch.utils.data.random_split(ds, [3, 3])
    with pytest.raises(ValueError):
        D.random_split(ds, [3, 3])


def test_sequential_and_batch_sampler_match_torch(reftorch):
    rd = reftorch.utils.data
    ds = _Range(0, 11)
    assert list(D.SequentialSampler(ds)) == list(rd.SequentialSampler(ds))
    for bs, drop in [(3, False), (3, True), (11, False), (20, True)]:
        mine = D.BatchSampler(D.SequentialSampler(ds), bs, drop)
        ref = rd.BatchSampler(rd.SequentialSampler(ds), bs, drop)
        assert list(mine) == list(ref) and len(mine) == len(ref)
    for bad in [0, -1, 2.0, True]:
        with pytest.raises(ValueError):
            rd.BatchSampler(range(3), bad, False)
        with pytest.raises(ValueError):
            D.BatchSampler(range(3), bad, False)


def test_random_sampler_contract(reftorch):
    ds = _Range(0, 20)
    perm = list(D.RandomSampler(ds, generator=torch.Generator().manual_seed(3)))
    assert sorted(perm) == list(range(20)) and perm != list(range(20))
    assert perm == list(D.RandomSampler(ds, generator=torch.Generator().manual_seed(3)))
    torch.manual_seed(5)
    first = list(D.RandomSampler(ds))
    torch.manual_seed(5)
    assert list(D.RandomSampler(ds)) == first  # the global seed decides the order
    s = D.RandomSampler(ds, replacement=True, num_samples=50, generator=torch.Generator().manual_seed(0))
    drawn = list(s)
    assert len(drawn) == len(s) == 50 and all(0 <= i < 20 for i in drawn)
    longer = list(D.RandomSampler(ds, num_samples=45, generator=torch.Generator().manual_seed(0)))
    assert len(longer) == 45 and sorted(longer[:40]) == sorted(list(range(20)) * 2)
    for kwargs, exc in [({"num_samples": 0}, ValueError), ({"replacement": 1}, TypeError)]:
        with pytest.raises(exc):
            reftorch.utils.data.RandomSampler(ds, **kwargs)
        with pytest.raises(exc):
            D.RandomSampler(ds, **kwargs)


def test_subset_and_weighted_samplers(reftorch):
    idx = [4, 8, 15, 16, 23, 42]
    got = list(D.SubsetRandomSampler(idx, generator=torch.Generator().manual_seed(0)))
    assert sorted(got) == sorted(idx) and len(D.SubsetRandomSampler(idx)) == 6
    weights = [0.0, 1.0, 0.0, 3.0]
    w = D.WeightedRandomSampler(weights, 200, generator=torch.Generator().manual_seed(0))
    drawn = np.array(list(w))
    assert len(drawn) == 200 and set(drawn.tolist()) <= {1, 3}
    assert 0.6 < np.mean(drawn == 3) < 0.9  # weight 3:1
    no_rep = list(D.WeightedRandomSampler(weights, 2, replacement=False))
    assert sorted(no_rep) == [1, 3]
    # torch >= 1.7 (pytorch#39636, so 1.12 and 2.13 alike) samples without replacement as top-k of w / Exp(1):
    # the zero-weight categories come after the positive ones instead of an error
    drawn = list(D.WeightedRandomSampler(weights, 3, replacement=False))
    ref = list(reftorch.utils.data.WeightedRandomSampler(weights, 3, replacement=False))
    assert sorted(drawn[:2]) == sorted(ref[:2]) == [1, 3] and drawn[2] in (0, 2) and ref[2] in (0, 2)
    with pytest.raises(ValueError):
        D.WeightedRandomSampler(weights, 0)
