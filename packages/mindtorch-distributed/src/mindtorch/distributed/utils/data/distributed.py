"""torch.utils.data.distributed.DistributedSampler (torch 1.12), giving the same indices as torch."""
from __future__ import annotations

import math
from typing import Any, Iterator, Optional

from ... import distributed_c10d as c10d
from ..._randperm import randperm


def _sampler_base() -> type:
    # Core's data package owns Sampler; DistributedSampler subclasses it when core provides it, so
    # isinstance(sampler, torch.utils.data.Sampler) holds as in torch.
    try:
        from mindtorch.torch.utils.data.sampler import Sampler
    except ImportError:
        return object
    return Sampler


class DistributedSampler(_sampler_base()):
    """Restricts data loading to the subset of `dataset` for this rank (len(dataset) indices split across
    num_replicas ranks; each rank gets num_samples of them, padded by wrapping around unless drop_last).

    Shuffling draws torch's own permutation for seed + epoch, so ranks (and real torch) agree on it.
    """

    def __init__(self, dataset: Any, num_replicas: Optional[int] = None, rank: Optional[int] = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None:
            if not c10d.is_available():
                raise RuntimeError("Requires distributed package to be available")
            num_replicas = c10d.get_world_size()
        if rank is None:
            if not c10d.is_available():
                raise RuntimeError("Requires distributed package to be available")
            rank = c10d.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if self.drop_last and len(self.dataset) % self.num_replicas != 0:
            self.num_samples = math.ceil((len(self.dataset) - self.num_replicas) / self.num_replicas)
        else:
            self.num_samples = math.ceil(len(self.dataset) / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        if self.shuffle:
            indices = randperm(len(self.dataset), self.seed + self.epoch)
        else:
            indices = list(range(len(self.dataset)))
        if not self.drop_last:
            padding_size = self.total_size - len(indices)
            if padding_size <= len(indices):
                indices += indices[:padding_size]
            else:
                indices += (indices * math.ceil(padding_size / len(indices)))[:padding_size]
        else:
            indices = indices[:self.total_size]
        assert len(indices) == self.total_size
        indices = indices[self.rank:self.total_size:self.num_replicas]
        assert len(indices) == self.num_samples
        return iter(indices)

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Use a different shuffle for each epoch (call before creating the DataLoader iterator)."""
        self.epoch = epoch
