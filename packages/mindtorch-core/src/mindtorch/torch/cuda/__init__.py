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


# The "CUDA" random stream. Random numbers are drawn on the host for every target (_random.py), so on GPU/Ascend
# the device's generator is the global one: these read and set it. On the CPU target there is no CUDA, and they do
# what torch 1.12 does without CUDA: seeding and setting states are queued calls that never run (no-ops), the
# per-device lists are empty, and reading a seed or state raises. (manual_seed seeds the global generator on every
# target, as it already did here.)
def _lazy_init() -> None:
    """torch 1.12's `torch.cuda._lazy_init` on a build without CUDA."""
    if not is_available():
        raise AssertionError("Torch not compiled with CUDA enabled")


def seed() -> None:
    """Seed the device generator with a random number (a no-op without CUDA, as in torch)."""
    if is_available():
        from .. import _random

        _random.seed()


def seed_all() -> None:
    seed()


def initial_seed() -> int:
    """The device generator's seed (raises without CUDA, as in torch 1.12)."""
    _lazy_init()
    from .. import _random

    return _random.initial_seed()


def get_rng_state(device: Any = "cuda") -> Any:
    """The device generator's state as a uint8 tensor (raises without CUDA, as in torch 1.12)."""
    _lazy_init()
    from .. import _random

    return _random.get_rng_state()


def set_rng_state(new_state: Any, device: Any = "cuda") -> None:
    """Set the device generator's state (a no-op without CUDA: torch 1.12 copies the state and queues the call)."""
    new_state = new_state.clone()  # 1.12 clones first: a non-tensor fails here on every machine
    if is_available():
        from .. import _random

        _random.set_rng_state(new_state)


def get_rng_state_all() -> list:
    """One state per device: [] without CUDA."""
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(new_states: Any) -> None:
    for i, state in enumerate(new_states):
        set_rng_state(state, i)


def is_bf16_supported() -> bool:
    """Whether the device computes in bfloat16: Ascend does; a GPU from compute capability 8 (1.12's rule). Without
    CUDA torch 1.12 raises (it reads the current device's properties); 2.x returns False."""
    _lazy_init()
    if _ms.device_target() != "GPU":
        return True
    capability = ms.hal.get_device_capability(_current, "GPU")
    return capability is not None and capability[0] >= 8


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
