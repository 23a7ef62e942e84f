"""Bound the time one collective may block (torch's process-group `timeout`).

A collective blocks inside MindSpore's C++ code, where Python cannot interrupt it. When a peer dies,
MindSpore's CPU ring gives up after ~30 s on its own (measured), but other failure modes (a peer that is
alive but never calls the collective) can block forever. Like torch's NCCL watchdog with async error
handling, we then abort the process: print which collective timed out, then `os._exit(1)`, so a launcher
sees the failure and tears the job down instead of hanging.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from typing import Callable, Iterator, List, Optional

_DEFAULT_TIMEOUT = 1800.0  # torch's default process-group timeout: 30 minutes

_lock = threading.Lock()
_timeout = _DEFAULT_TIMEOUT
_current: Optional[tuple] = None  # (name, deadline, message, timeout)
_thread: Optional[threading.Thread] = None
_abort_callbacks: List[Callable[[], None]] = []


def on_abort(callback: Callable[[], None]) -> None:
    """Run `callback()` just before the watchdog aborts the process (atexit handlers do not run then)."""
    _abort_callbacks.append(callback)


def set_timeout(seconds: float) -> None:
    global _timeout
    _timeout = float(seconds)


def get_timeout() -> float:
    return _timeout


_group_timeout: Optional[float] = None


def use_group_timeout(seconds: Optional[float]) -> None:
    """The timeout of the group the next collective runs on (torch's `new_group(timeout=...)`);
    None: the default group's."""
    global _group_timeout
    _group_timeout = seconds


def _run() -> None:
    while True:
        time.sleep(0.5)
        with _lock:
            cur = _current
        if cur is not None and time.monotonic() > cur[1]:
            what = cur[2] or (f"collective '{cur[0]}' did not complete within the process group timeout of "
                              f"{cur[3]:.0f} s (a peer rank died, hung or called a different collective)")
            sys.stderr.write(f"[mindtorch.distributed] RuntimeError: {what}; aborting this process.\n")
            sys.stderr.flush()
            for callback in _abort_callbacks:
                try:
                    callback()
                except Exception:  # noqa: BLE001 - best effort while aborting
                    pass
            os._exit(1)


@contextlib.contextmanager
def watch(name: str, message: Optional[str] = None) -> Iterator[None]:
    """Abort the process (printing `message`, or a default naming `name`) if the block takes longer than
    the process-group timeout."""
    global _current, _thread
    if _thread is None:
        _thread = threading.Thread(target=_run, name="mindtorch-distributed-watchdog", daemon=True)
        _thread.start()
    with _lock:
        limit = _group_timeout if _group_timeout is not None else _timeout
        _current = (name, time.monotonic() + limit, message, limit)
    try:
        yield
    finally:
        with _lock:
            _current = None
