"""Random draws for augmentations, from mindtorch's global generator (seeded by `torch.manual_seed`).

torchvision draws with `torch.rand`, `torch.randint`, `torch.randperm` and `torch.empty(1).uniform_`. The same
calls are made here, looked up at call time, so the same seed gives the same augmentation. While a core random
function is missing, a numpy fallback is used and its name is recorded in `MISSING` (then `torch.manual_seed`
does not make augmentations reproducible: seed `numpy.random` too).
"""
from __future__ import annotations

from typing import List, Sequence

import numpy as np

import mindtorch.torch as torch

from ._bridge import to_numpy

MISSING: set = set()


def _core_stream():
    """Core's global numpy stream behind torch.rand & co. (fast path), or None when core does not expose it.

    Each public call (`torch.rand(1)` ...) costs 130-1000 us in MindSpore tensor overhead for one number; the
    fast path draws the SAME numbers from the same stream in microseconds (tests/test_vision_transforms_classes
    checks the equivalence), through core's public `torch.random.host_generator`.
    """
    return None if _numpy_generator is None else _numpy_generator(None)


try:
    from mindtorch.torch.random import host_generator as _numpy_generator
except ImportError:  # an older mindtorch-core without the public accessor: public calls only
    _numpy_generator = None


def _fn(name: str):
    f = getattr(torch, name, None)
    if f is None:
        MISSING.add(f"torch.{name}")
    return f


def _safe(name: str, call, fallback):
    f = _fn(name)
    if f is None:
        return fallback()
    try:
        return call(f)
    except (NotImplementedError, AttributeError, TypeError, RuntimeError):
        # A core function that exists but is not complete yet: use the fallback, say which.
        MISSING.add(f"torch.{name} (incomplete)")
        return fallback()


def rand(n: int = 1) -> np.ndarray:
    """`torch.rand(n)` as a float numpy array in [0, 1)."""
    gen = _core_stream()
    if gen is not None:
        return gen.random((n,)).astype(np.float32).astype(np.float64)
    return _safe("rand", lambda f: to_numpy(f(n)).astype(np.float64),
                 lambda: np.random.random_sample(n))


def rand1() -> float:
    return float(rand(1)[0])


def randint(low: int, high: int, size: Sequence[int] = (1,)) -> np.ndarray:
    """`torch.randint(low, high, size)` as an int64 numpy array."""
    size = tuple(size)
    gen = _core_stream()
    if gen is not None:
        return np.asarray(gen.integers(low, high, size=size), dtype=np.int64)
    return _safe("randint", lambda f: to_numpy(f(low, high, size)).astype(np.int64),
                 lambda: np.random.randint(low, high, size=size).astype(np.int64))


def randint1(low: int, high: int) -> int:
    return int(randint(low, high, (1,))[0])


def uniform(a: float, b: float) -> float:
    """`torch.empty(1).uniform_(a, b).item()`."""
    gen = _core_stream()
    if gen is not None:
        return float(np.float32(gen.uniform(float(a), float(b), (1,))[0]))
    def call(_f):
        t = torch.empty(1).uniform_(a, b)
        return float(to_numpy(t)[0])
    if getattr(torch, "empty", None) is None:
        MISSING.add("torch.empty")
        return float(np.random.uniform(a, b))
    try:
        return call(None)
    except (NotImplementedError, AttributeError, TypeError, RuntimeError):
        MISSING.add("Tensor.uniform_")
        return float(np.random.uniform(a, b))


def randperm(n: int) -> List[int]:
    """`torch.randperm(n)` as a list of ints."""
    gen = _core_stream()
    if gen is not None:
        return [int(i) for i in gen.permutation(int(n))]
    return [int(i) for i in _safe("randperm", lambda f: to_numpy(f(n)), lambda: np.random.permutation(n))]


def generator() -> np.random.Generator:
    """A numpy generator seeded from the torch stream: for distributions core lacks (normal fills, Dirichlet)."""
    return np.random.default_rng(randint1(0, 2**31 - 1))
