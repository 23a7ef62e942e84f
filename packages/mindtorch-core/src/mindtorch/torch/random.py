"""torch.random: the global random number generator (seeding, state, fork_rng).

mindtorch extension: `host_generator()` gives the numpy Generator behind a torch.Generator (the global one by
default). Data-side code (transforms, samplers) that draws many small numbers per sample uses it to avoid a
tensor round trip per draw, while staying on the exact stream that `torch.manual_seed` controls.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional, Sequence

import numpy as np

from ._random import (  # noqa: F401
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    numpy_generator,
    seed,
    set_rng_state,
)

__all__ = ["manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "fork_rng", "default_generator",
           "host_generator"]


def host_generator(generator: Optional[Generator] = None) -> np.random.Generator:
    """The numpy Generator that `generator` (default: the global generator) draws from."""
    return numpy_generator(generator)


@contextlib.contextmanager
def fork_rng(devices: Optional[Sequence[Any]] = None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices") -> Iterator[None]:
    """Restore the global RNG state on exit, so random calls inside do not change the outer stream."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
