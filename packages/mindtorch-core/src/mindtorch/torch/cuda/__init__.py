"""torch.cuda on MindSpore: what torch code asks about the accelerator.

One process runs on one MindSpore device target (DESIGN.md §2). `is_available()` is True when that target
is GPU or Ascend, so `device = "cuda" if torch.cuda.is_available() else "cpu"` picks the accelerator that
MindSpore is running on. Device selection calls are accepted and do not move work: MindSpore's target is set
with `mindspore.set_device(...)` (the manual, §4.3.1).
"""
from __future__ import annotations

from typing import Any, Optional

import mindspore as ms

from .. import _ms

_current = 0


def is_available() -> bool:
    return _ms.device_target() in ("GPU", "Ascend")


def device_count() -> int:
    return 1 if is_available() else 0


def current_device() -> int:
    return _current


def set_device(device: Any) -> None:
    """Accepted for compatibility; select the card with `mindspore.set_device(target, device_id)`."""
    global _current
    idx = getattr(device, "index", device)
    _current = int(idx) if isinstance(idx, int) else 0


def get_device_name(device: Optional[Any] = None) -> str:
    return _ms.device_target()


def synchronize(device: Optional[Any] = None) -> None:
    """Wait for all queued MindSpore work to finish."""
    _ms.sync()


def empty_cache() -> None:
    """Release the cached blocks of MindSpore's device memory pool (`mindspore.runtime.empty_cache`)."""
    ms.runtime.empty_cache()


# Memory statistics of MindSpore's device memory pool (mindspore.runtime), in bytes. On the CPU target the pool is
# not used and they read 0, as torch's do on a machine without CUDA.
def memory_allocated(device: Optional[Any] = None) -> int:
    return int(ms.runtime.memory_allocated())


def max_memory_allocated(device: Optional[Any] = None) -> int:
    return int(ms.runtime.max_memory_allocated())


def memory_reserved(device: Optional[Any] = None) -> int:
    return int(ms.runtime.memory_reserved())


def max_memory_reserved(device: Optional[Any] = None) -> int:
    return int(ms.runtime.max_memory_reserved())


memory_cached, max_memory_cached = memory_reserved, max_memory_reserved  # torch's deprecated names


def reset_peak_memory_stats(device: Optional[Any] = None) -> None:
    ms.runtime.reset_peak_memory_stats()


def reset_max_memory_allocated(device: Optional[Any] = None) -> None:
    ms.runtime.reset_max_memory_allocated()


def memory_stats(device: Optional[Any] = None) -> dict:
    return dict(ms.runtime.memory_stats())


def memory_summary(device: Optional[Any] = None, abbreviated: bool = False) -> str:
    return str(ms.runtime.memory_summary())


def manual_seed(seed: int) -> None:
    from .. import _random

    _random.manual_seed(seed)


def manual_seed_all(seed: int) -> None:
    manual_seed(seed)


def is_initialized() -> bool:
    return is_available()


class device:
    """`with torch.cuda.device(0):` — accepted; the MindSpore target does not change."""

    def __init__(self, device: Any) -> None:
        self.idx = getattr(device, "index", device)

    def __enter__(self) -> "device":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None
