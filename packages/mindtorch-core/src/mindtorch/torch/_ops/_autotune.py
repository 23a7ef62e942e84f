"""Measured kernel choice: for an op with several correct implementations, time each once per input signature
and keep the fastest (the idea of torch.backends.cudnn.benchmark, applied to MindSpore's CPU kernels).

Why measured rather than fixed: MindSpore's CPU kernels vary by orders of magnitude between machines. On one
AVX-512 EPYC host its native Conv2D took 0.8-5.5 s for LeNet/ResNet-18 layers where an im2col + MatMul
composition took 0.07-0.2 s (forward and backward alike); on another host the native kernel was the faster one.

The first call with a new signature runs every candidate (all but the last without autograd recording, for
timing only; one that raises, e.g. for lack of a kernel, drops out); the result returned is the last candidate's,
recorded as usual. Later calls run the winner only.
`MINDTORCH_KERNEL_<OP>=<candidate>` (e.g. MINDTORCH_KERNEL_CONV2D=native) pins a choice for an op.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable, Dict, Hashable, Optional, Sequence, Tuple

import mindspore as ms

from .. import _ms


def _sync() -> None:
    """Wait for queued kernels. On CPU mindtorch launches kernels synchronously (`_ms.set_launch_blocking`) and
    `mindspore.runtime.synchronize()` only logs "CPU device is not supported", so there is nothing to do."""
    if _ms.device_target() != "CPU":
        ms.runtime.synchronize()


# op -> {signature: candidate name}
_CHOSEN: Dict[str, Dict[Hashable, str]] = {}
# op -> {candidate name: strikes}. A candidate that keeps losing by a wide margin stops being measured on new
# signatures of that op: models whose shapes vary per batch (detection heads see a new RoI count each step) would
# otherwise pay the slow candidate's run on every new shape (MindSpore's native CPU Conv2D took tens of seconds
# per call on some hosts where im2col took well under one).
_STRIKES: Dict[str, Dict[str, int]] = {}
_STRIKE_OUT = 3


def _strike(op: str, timings: Sequence[Tuple[float, str]]) -> None:
    """Losing by >= 3x is one strike, by >= 10x three (out at once); a win clears a candidate's strikes."""
    best = min(timings)[0]
    strikes = _STRIKES.setdefault(op, {})
    for t, name in timings:
        ratio = t / best if best > 0 else 1.0
        strikes[name] = 0 if ratio < 3 else strikes.get(name, 0) + (3 if ratio >= 10 else 1)


def choice(op: str, signature: Hashable) -> Any:
    """The candidate chosen for `op` on `signature` (None if not measured yet)."""
    return _CHOSEN.get(op, {}).get(signature)


def run(op: str, signature: Hashable, candidates: Sequence[Tuple[str, Callable[[], Any]]],
        preferred: Optional[str] = None) -> Any:
    """Run `op` for `signature` with the fastest of `candidates` ((name, thunk) pairs; each thunk computes the
    same result), measuring them on first use. `preferred`: a candidate known to win by far wherever it runs
    (oneDNN's convolution): chosen without measuring, unless the environment pins another."""
    chosen = _CHOSEN.setdefault(op, {})
    name = chosen.get(signature)
    if name is None:
        pinned = os.environ.get(f"MINDTORCH_KERNEL_{op.upper()}")
        names = [n for n, _ in candidates]
        if pinned in names:
            name = chosen[signature] = pinned
        elif preferred in names:
            name = chosen[signature] = preferred
        else:
            out = _STRIKES.get(op, {})
            live = [c for c in candidates if out.get(c[0], 0) < _STRIKE_OUT] or list(candidates)
            if len(live) == 1:
                name = chosen[signature] = live[0][0]
            else:
                return _measure(op, chosen, signature, live)
    for n, thunk in candidates:
        if n == name:
            return thunk()
    raise KeyError(f"kernel candidate {name!r} of {op} is gone")


def _measure(op: str, chosen: Dict[Hashable, str], signature: Hashable,
             candidates: Sequence[Tuple[str, Callable[[], Any]]]) -> Any:
    from .._grad_mode import no_grad

    timings = []
    res = None
    for i, (name, thunk) in enumerate(candidates):
        last = i == len(candidates) - 1
        t0 = time.perf_counter()
        if last:
            res = thunk()
        else:
            try:
                with no_grad():
                    thunk()
            except (RuntimeError, TypeError, ValueError):  # e.g. no kernel for this dtype: not a candidate here
                _ms.set_recording_flag(True)  # (MindSpore turns the tape's recording off when an op raises)
                continue
        _sync()
        timings.append((time.perf_counter() - t0, name))
    chosen[signature] = min(timings)[1]
    _strike(op, timings)
    return res
