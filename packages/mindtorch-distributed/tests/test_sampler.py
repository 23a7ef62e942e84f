"""DistributedSampler gives exactly torch's index sets (no processes needed: num_replicas/rank explicit)."""
import itertools

import pytest

from mindtorch.distributed import DistributedSampler
from mindtorch.distributed._randperm import randperm


@pytest.mark.parametrize("n,seed", [(0, 0), (1, 3), (10, 7), (1000, 0), (4097, 123), (17, 2 ** 33 + 5)])
def test_randperm_matches_torch(reftorch, n, seed):
    g = reftorch.Generator()
    g.manual_seed(seed)
    assert randperm(n, seed) == reftorch.randperm(n, generator=g).tolist()


CASES = list(itertools.product([10, 11, 3], [1, 2, 3, 4], [True, False], [True, False]))


@pytest.mark.parametrize("length,replicas,shuffle,drop_last", CASES)
def test_indices_match_torch(reftorch, length, replicas, shuffle, drop_last):
    from torch.utils.data.distributed import DistributedSampler as RefSampler

    data = list(range(length))
    for rank in range(replicas):
        for seed, epoch in [(0, 0), (5, 3)]:
            mine = DistributedSampler(data, replicas, rank, shuffle=shuffle, seed=seed, drop_last=drop_last)
            ref = RefSampler(data, replicas, rank, shuffle=shuffle, seed=seed, drop_last=drop_last)
            mine.set_epoch(epoch)
            ref.set_epoch(epoch)
            assert list(mine) == list(ref)
            assert len(mine) == len(ref)


def test_invalid_rank_is_value_error(reftorch):
    from torch.utils.data.distributed import DistributedSampler as RefSampler

    with pytest.raises(ValueError):
        RefSampler(range(4), 2, 2)
    with pytest.raises(ValueError):
        DistributedSampler(range(4), 2, 2)


def test_defaults_need_a_process_group():
    # torch 1.12 raises RuntimeError from get_world_size() when no process group exists.
    with pytest.raises(RuntimeError, match="not been initialized"):
        DistributedSampler(range(4))
