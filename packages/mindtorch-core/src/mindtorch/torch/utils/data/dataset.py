"""torch.utils.data.dataset: Dataset, IterableDataset, TensorDataset, ConcatDataset, ChainDataset, Subset,
random_split.

Note (mindtorch user manual, FAQ): `TensorDataset` items are numpy arrays, not tensors; `DataLoader` turns
them into tensors when it collates. Keeping items numpy lets worker processes run without touching MindSpore
(see dataloader.py) and makes indexing cheap.
"""
from __future__ import annotations

import bisect
import math
import warnings
from typing import Any, Generic, Iterable, Iterator, List, Sequence, TypeVar, Union

import mindspore as ms
import numpy as np

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "ChainDataset", "Subset",
           "random_split"]


class Dataset(Generic[T_co]):
    """A map-style dataset: subclasses define `__getitem__(index)` (and usually `__len__`)."""

    def __getitem__(self, index: Any) -> T_co:
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__ (torch.utils.data.Dataset)")

    def __add__(self, other: "Dataset[T_co]") -> "ConcatDataset[T_co]":
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A stream dataset: subclasses define `__iter__`. With worker processes every worker iterates its own
    copy; shard with `torch.utils.data.get_worker_info()` to avoid duplicates."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__ (torch.utils.data.IterableDataset)")

    def __add__(self, other: Dataset[T_co]) -> "ChainDataset":
        return ChainDataset([self, other])


def _as_index(index: Any) -> Any:
    """A sampler index usable on numpy (a 0-d tensor index becomes its int)."""
    if isinstance(index, ms.Tensor):
        return index.asnumpy()
    return index


def _as_numpy(t: Any) -> np.ndarray:
    if isinstance(t, np.ndarray):
        return t
    asnumpy = getattr(t, "asnumpy", None)
    if asnumpy is not None:
        return asnumpy()
    return np.asarray(t)


class TensorDataset(Dataset):
    """Wraps tensors of equal first dimension; item i is `tuple(t[i] for t in tensors)` as numpy arrays.

    Documented MindTorch behaviour (user manual FAQ "why does TensorDataset return numpy.ndarray"), unlike torch:
    tensors are converted to numpy once here, so `__getitem__` is plain numpy indexing (fast, and fork-safe for
    DataLoader workers); the DataLoader's collate turns the batch into tensors.
    """

    def __init__(self, *tensors: Any) -> None:
        arrays = [_as_numpy(t) for t in tensors]
        if any(a.shape[0] != arrays[0].shape[0] for a in arrays):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tuple(tensors)
        self._arrays = arrays

    def __getitem__(self, index: Any) -> tuple:
        return tuple(a[index] for a in self._arrays)

    def _gather(self, indices: Sequence[int]) -> list:
        """`default_collate([self[i] for i in indices])` as numpy payloads: one take per tensor instead of a
        row per sample and a stack."""
        from ._utils.collate import TensorPayload

        idx = np.asarray([_as_index(i) for i in indices], dtype=np.int64)
        return [TensorPayload(a[idx], t.dtype if isinstance(t, ms.Tensor) and t.dtype == ms.bfloat16 else None)
                for t, a in zip(self.tensors, self._arrays)]

    def __len__(self) -> int:
        return self._arrays[0].shape[0]


class ConcatDataset(Dataset[T_co]):
    """The concatenation of map-style datasets."""

    @staticmethod
    def cumsum(sequence: Sequence[Any]) -> List[int]:
        r, s = [], 0
        for e in sequence:
            s += len(e)
            r.append(s)
        return r

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> T_co:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if dataset_idx == 0 else idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]


class ChainDataset(IterableDataset):
    """Chains iterable datasets (lazily)."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)  # type: ignore[arg-type]
        return total


class Subset(Dataset[T_co]):
    """The items of `dataset` at `indices`."""

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Dataset[T], lengths: Sequence[Union[int, float]], generator: Any = None) -> List[Subset]:
    """Split `dataset` into non-overlapping random subsets of the given lengths.

    `lengths` are counts summing to len(dataset) (torch 1.12), or fractions summing to 1 (added in torch 1.13;
    accepted here too: floor of each fraction, the remainder distributed round-robin, as torch does).
    The permutation comes from `generator` (or the global generator): deterministic per seed, not bitwise
    torch's.
    """
    n = len(dataset)  # type: ignore[arg-type]
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = [int(math.floor(n * frac)) for frac in lengths]
        for frac in lengths:
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {lengths.index(frac)} is not between 0 and 1")
        remainder = n - sum(subset_lengths)
        for i in range(remainder):
            subset_lengths[i % len(subset_lengths)] += 1
        for i, length in enumerate(subset_lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                              stacklevel=2)
        lengths = subset_lengths
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    from .sampler import _np_rng

    indices = _np_rng(generator).permutation(n).tolist()
    out, offset = [], 0
    for length in lengths:
        out.append(Subset(dataset, indices[offset:offset + int(length)]))
        offset += int(length)
    return out
