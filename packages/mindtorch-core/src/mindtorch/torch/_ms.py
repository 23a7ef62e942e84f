"""The ONLY module of mindtorch that touches private MindSpore entry points.

Every private name we rely on is imported and wrapped here exactly once, and each wrapper has its own test
(tests/test_ms_private.py). When MindSpore changes one of them, that test and this file are the single place
that breaks. Vision, audio and distributed reach MindSpore internals only through this module.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import mindspore as ms
from mindspore._c_expression import TensorPy as _TensorPy  # noqa: F401  (base of ms.Tensor and ms.Parameter)
from mindspore._c_expression import run_backward as _run_backward
from mindspore.common._grad_function import _Function as _MsFunction
from mindspore.graph.api import _pynative_executor as _executor

__all__ = [
    "MsFunction",
    "grad_flag",
    "set_grad_flag",
    "run_backward",
    "enable_grad_recording",
    "is_recording",
    "sync",
    "device_target",
]

# Base class of custom autograd functions (forward/backward with ctx) on MindSpore's C++ tape.
MsFunction = _MsFunction


def grad_flag() -> bool:
    """Whether the PyNative executor records operations for backward."""
    return bool(_executor.grad_flag())


def set_grad_flag(flag: bool) -> None:
    """Turn recording of the PyNative tape on or off.

    Note: every `mindspore.value_and_grad` call resets this flag to False when it finishes, so the
    backward-style autograd re-enables it lazily (see `enable_grad_recording`).
    """
    _executor.set_grad_flag(bool(flag))


def enable_grad_recording() -> None:
    """Make sure ops run from now on are recorded on the tape (cheap when it already is)."""
    if not _executor.grad_flag():
        _executor.set_grad_flag(True)


def is_recording() -> bool:
    return bool(_executor.grad_flag()) and bool(_executor.enable_grad())


def set_enable_grad(flag: bool) -> None:
    """MindSpore's own no_grad switch (what `mindspore._no_grad` toggles)."""
    _executor.set_enable_grad(bool(flag))


def enable_grad_state() -> bool:
    return bool(_executor.enable_grad())


def run_backward(
    tensors: Sequence[Any],
    grad_tensors: Optional[Sequence[Any]],
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Any] = (),
    accumulate_grad: bool = True,
    allow_unreachable: bool = True,
) -> Optional[tuple]:
    """Run MindSpore's C++ backward from `tensors`.

    With `accumulate_grad=True` the gradients accumulate into each leaf's `.grad` (torch's
    `Tensor.backward`); with `accumulate_grad=False` and `inputs` the gradients w.r.t. `inputs` are
    returned (torch's `autograd.grad`). `grad_tensors` must be all tensors or empty (MindSpore then
    seeds with ones).
    """
    grads = tuple(grad_tensors) if grad_tensors else ()
    return _run_backward(
        tuple(tensors), grads, bool(retain_graph), bool(create_graph), tuple(inputs), bool(allow_unreachable),
        accumulate_grad=bool(accumulate_grad),
    )


def sync() -> None:
    """Wait for all queued MindSpore work (surfaces async errors at the current call)."""
    _executor.sync()


def device_target() -> str:
    """The MindSpore device target of this process: 'CPU', 'GPU' or 'Ascend'."""
    try:
        return str(ms.get_context("device_target"))
    except Exception:  # pragma: no cover - older/newer context APIs
        return "CPU"
