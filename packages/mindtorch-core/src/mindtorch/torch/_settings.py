"""Process-wide settings torch scripts make at start-up: thread counts, determinism, matmul precision, memory
formats and the math constants (torch.set_num_threads(4), torch.use_deterministic_algorithms(True),
x.to(memory_format=torch.channels_last), torch.inf)."""
from __future__ import annotations

import math
import os
from typing import Any, Dict

inf = math.inf
nan = math.nan
pi = math.pi
e = math.e


class memory_format:
    """torch.memory_format: mindtorch accepts it wherever torch does (to/contiguous/clone/empty_like) and keeps
    its tensors in one layout, as MindSpore does."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    def __reduce__(self) -> str:
        return self._name  # pickles as the module-level singleton


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")

class layout:
    """torch.layout: every mindtorch tensor is dense (`x.layout is torch.strided`); sparse layouts exist as names
    so code can compare against them."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    def __reduce__(self) -> str:
        return self._name


strided = layout("strided")
sparse_coo = layout("sparse_coo")

_STATE: Dict[str, Any] = {"threads": None, "interop": None, "deterministic": False, "warn_only": False,
                          "matmul_precision": "highest"}


def set_num_threads(num: int) -> None:
    """Threads of the CPU kernels. MindSpore takes the count once per process
    (`mindspore.device_context.cpu.op_tuning.threads_num`); a later call is only recorded."""
    if not isinstance(num, int) or isinstance(num, bool) or num <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    from mindspore.device_context.cpu import op_tuning

    try:
        op_tuning.threads_num(num)
    except RuntimeError:  # already configured: MindSpore refuses a second setting
        pass
    _STATE["threads"] = num


def get_num_threads() -> int:
    return _STATE["threads"] or (os.cpu_count() or 1)


def set_num_interop_threads(num: int) -> None:
    if not isinstance(num, int) or isinstance(num, bool) or num <= 0:
        raise RuntimeError("Expected positive number of threads")
    _STATE["interop"] = num


def get_num_interop_threads() -> int:
    return _STATE["interop"] or (os.cpu_count() or 1)


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Recorded for are_deterministic_algorithms_enabled(); mindtorch's CPU kernels give the same results run
    to run (MindSpore's `set_deterministic` concerns Ascend/GPU kernels)."""
    _STATE["deterministic"] = bool(mode)
    _STATE["warn_only"] = bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _STATE["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _STATE["warn_only"]


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision: {precision}; expected 'highest', 'high' or 'medium'")
    _STATE["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return _STATE["matmul_precision"]


def set_flush_denormal(mode: bool) -> bool:
    """torch returns False where flushing denormals is unsupported; MindSpore has no switch for it."""
    return False
