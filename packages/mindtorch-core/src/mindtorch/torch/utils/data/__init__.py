"""torch.utils.data: datasets, samplers and the DataLoader (Python/numpy workers, see dataloader.py)."""
from typing import Any

from . import distributed  # noqa: F401  (torch.utils.data.distributed without an import; a lazy forward)
from ._utils.collate import default_collate, default_convert
from ._utils.worker import get_worker_info
from .dataloader import DataLoader
from .dataset import ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "DistributedSampler",
    "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler",
    "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info",
    "random_split",
]


def __getattr__(name: str) -> Any:
    # DESIGN.md §1: DistributedSampler lives in mindtorch-distributed; a thin lazy forward here.
    if name == "DistributedSampler":
        try:
            from mindtorch.distributed import DistributedSampler
        except ImportError as e:
            raise ImportError("torch.utils.data.DistributedSampler needs the mindtorch-distributed package: "
                              "pip install mindtorch-distributed") from e
        return DistributedSampler
    raise AttributeError(f"module 'torch.utils.data' has no attribute '{name}'")
