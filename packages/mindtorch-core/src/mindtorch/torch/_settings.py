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
newaxis = None  # (x[:, torch.newaxis])


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
legacy_contiguous_format = memory_format("legacy_contiguous_format")

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


def set_deterministic_debug_mode(debug_mode: Any) -> None:
    """0/'default': off; 1/'warn': deterministic algorithms, warn only; 2/'error': deterministic algorithms."""
    modes = {"default": 0, "warn": 1, "error": 2}
    if isinstance(debug_mode, str):
        if debug_mode not in modes:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    elif not isinstance(debug_mode, int) or isinstance(debug_mode, bool):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _STATE["deterministic"]:
        return 0
    return 1 if _STATE["warn_only"] else 2


def init_num_threads() -> None:
    """torch initialises its OpenMP/MKL thread pools here (for a new thread); MindSpore's CPU thread pool is set
    up once per process, so there is nothing to initialise."""


def is_vulkan_available() -> bool:
    return False


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


# ------------------------------------------------------------------------------------------- build flags
# torch.has_* describe the build (torch/__init__.py in 1.12 reads them from torch._C). Answered for this
# build: LAPACK is numpy's (torch.linalg runs on the host with it), the FFTs are numpy's pocketfft, MKL and
# OpenMP are not used (MindSpore's CPU kernels run on its own thread pool), no CUDA/cuDNN/MPS.
has_lapack = True
has_spectral = True
has_mkl = False
has_openmp = False
has_cuda = False
has_cudnn = False
has_mps = False


def compiled_with_cxx11_abi() -> bool:
    """Whether the C++ library was built with _GLIBCXX_USE_CXX11_ABI=1: MindSpore's Linux wheels are (torch's
    pip wheels of 1.12 were not); only C++ extensions built against the library care."""
    return True


def set_warn_always(b: bool) -> None:
    """torch.set_warn_always: make the warnings torch gives once per process (TORCH_WARN_ONCE, e.g. the
    deprecated linear-algebra functions) be given on every call."""
    _STATE["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _STATE.get("warn_always", False)


_WARNED_ONCE: set = set()


def warn_once(key: str, message: str, category: type = UserWarning, stacklevel: int = 3) -> None:
    """A TORCH_WARN_ONCE: `message` the first time `key` is seen in this process, every time while
    `set_warn_always(True)`."""
    import warnings

    if key in _WARNED_ONCE and not is_warn_always_enabled():
        return
    _WARNED_ONCE.add(key)
    warnings.warn(message, category, stacklevel=stacklevel)
