"""torch.backends.cudnn flags. They are recorded so scripts can set and read them; MindSpore chooses its own
kernels, so they do not change results."""
from contextlib import contextmanager
from typing import Iterator, Optional, Tuple

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    from ..cuda import is_available as cuda_available

    return cuda_available()


def version() -> None:
    return None


def set_flags(_enabled: Optional[bool] = None, _benchmark: Optional[bool] = None,
              _deterministic: Optional[bool] = None, _allow_tf32: Optional[bool] = None) -> Tuple[bool, ...]:
    """Set the flags given (None leaves one as it is); returns the previous (enabled, benchmark, deterministic,
    allow_tf32), as torch 1.12's."""
    global enabled, benchmark, deterministic, allow_tf32
    orig = (enabled, benchmark, deterministic, allow_tf32)
    if _enabled is not None:
        enabled = _enabled
    if _benchmark is not None:
        benchmark = _benchmark
    if _deterministic is not None:
        deterministic = _deterministic
    if _allow_tf32 is not None:
        allow_tf32 = _allow_tf32
    return orig


@contextmanager
def flags(enabled: bool = False, benchmark: bool = False, deterministic: bool = False,
          allow_tf32: bool = True) -> Iterator[None]:
    """`with torch.backends.cudnn.flags(enabled=..., ...):` sets all four flags (torch 1.12's defaults for those not
    given) and restores the previous values on exit."""
    orig = set_flags(enabled, benchmark, deterministic, allow_tf32)
    try:
        yield
    finally:
        set_flags(*orig)
