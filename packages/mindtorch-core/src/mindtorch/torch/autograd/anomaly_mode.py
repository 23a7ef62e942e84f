"""torch.autograd.detect_anomaly / set_detect_anomaly.

MindSpore 2.10's tape has no anomaly mode, so mindtorch provides the part of it that finds bugs: while the mode is
on (with check_nan=True), every backward puts a post-hook on each node of the graph that raises torch's
RuntimeError "Function 'SqrtBackward' returned nan values in its 0th output." (costs one NaN check, a device
sync, per node, like torch's mode is slow too). Not provided: the forward traceback torch prints for the failing
node (MindSpore records no creation stack on its nodes).
"""
from __future__ import annotations

from typing import Any

_enabled = False
_check_nan = True

__all__ = ["detect_anomaly", "set_detect_anomaly", "set_anomaly_enabled", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]


def is_anomaly_enabled() -> bool:
    return _enabled


def is_anomaly_check_nan_enabled() -> bool:
    return _check_nan


class detect_anomaly:
    """Context manager / decorator: backward checks every node's gradients for NaN (see the module doc)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = _enabled
        self.check_nan = check_nan
        self.prev_check_nan = _check_nan

    def __enter__(self) -> None:
        global _enabled, _check_nan
        self.prev, self.prev_check_nan = _enabled, _check_nan
        _enabled, _check_nan = True, self.check_nan

    def __exit__(self, *exc: Any) -> None:
        global _enabled, _check_nan
        _enabled, _check_nan = self.prev, self.prev_check_nan

    def __call__(self, func: Any) -> Any:
        import functools

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.__class__(self.check_nan):
                return func(*args, **kwargs)
        return wrapper


class set_detect_anomaly:
    """`set_detect_anomaly(mode)`: applies at once (function form), restored on `__exit__`."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        global _enabled, _check_nan
        self.prev, self.prev_check_nan = _enabled, _check_nan
        _enabled, _check_nan = bool(mode), check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: Any) -> None:
        global _enabled, _check_nan
        _enabled, _check_nan = self.prev, self.prev_check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """torch.set_anomaly_enabled: the flag `set_detect_anomaly` sets, without a context to restore it."""
    set_detect_anomaly(enabled, check_nan)  # applies on construction (its function form)
