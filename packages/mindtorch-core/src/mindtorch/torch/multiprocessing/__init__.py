"""torch.multiprocessing: Python's multiprocessing (re-exported, as torch does) plus `spawn` / `start_processes`
and the sharing-strategy functions.

Tensors cross process boundaries by pickling (their values are copied): MindSpore has no shared-memory tensor
storage, so torch's `share_memory_()` IPC is not reproduced; the `file_system` / `file_descriptor` strategy names
are accepted for compatibility."""
from __future__ import annotations

import multiprocessing
from multiprocessing import *  # noqa: F401,F403  (torch re-exports the whole module)
from typing import Set

from .spawn import ProcessContext, ProcessExitedException, ProcessRaisedException, spawn, start_processes

__all__ = ["spawn", "start_processes", "ProcessContext", "ProcessRaisedException", "ProcessExitedException",
           "get_sharing_strategy", "set_sharing_strategy", "get_all_sharing_strategies"]
__all__ += multiprocessing.__all__  # type: ignore[attr-defined]

_STRATEGIES = {"file_descriptor", "file_system"}
_strategy = "file_descriptor"


def set_sharing_strategy(new_strategy: str) -> None:
    """Accepts torch's strategy names (tensors are pickled either way on MindSpore)."""
    global _strategy
    if new_strategy not in _STRATEGIES:
        raise AssertionError(f"unknown sharing strategy {new_strategy!r}; one of {sorted(_STRATEGIES)}")
    _strategy = new_strategy


def get_sharing_strategy() -> str:
    return _strategy


def get_all_sharing_strategies() -> Set[str]:
    return set(_STRATEGIES)
