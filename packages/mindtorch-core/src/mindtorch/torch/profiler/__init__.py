"""torch.profiler: `record_function` labels a region (a no-op outside a profiler, as in torch); the profiler itself
is MindSpore's (`mindspore.Profiler`), so `profile` raises naming it."""
from __future__ import annotations

import enum
import functools
from typing import Any, Callable, Optional

from .._unsupported import UnsupportedAPIError

__all__ = ["record_function", "profile", "ProfilerActivity"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1


class record_function:
    """Context manager / decorator labelling a block for a profiler. No mindtorch profiler can be active (see
    `profile`), so entering and leaving record nothing, exactly what torch does when no profiler runs."""

    def __init__(self, name: str, args: Optional[str] = None) -> None:
        self.name = name
        self.args = args

    def __enter__(self) -> "record_function":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return fn(*args, **kwargs)
        return wrapper


def profile(*args: Any, **kwargs: Any) -> Any:
    """Not supported: raises, naming MindSpore's profiler."""
    raise UnsupportedAPIError(
        "torch.profiler.profile is not supported by mindtorch: profile with MindSpore's profiler instead "
        "(mindspore.Profiler(output_path=...) ... profiler.analyse()), which sees the kernels mindtorch runs.")
