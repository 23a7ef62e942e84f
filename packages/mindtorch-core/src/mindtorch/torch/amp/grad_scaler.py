"""torch.amp.GradScaler: dynamic loss scaling with torch's API, in both training styles.

torch 1.12 has only `torch.cuda.amp.GradScaler(init_scale, ...)` (cuda/amp/grad_scaler.py, a subclass of this
one on device 'cuda'); `torch.amp.GradScaler(device, init_scale, ...)` is torch >= 2.3's spelling. Device 'cuda'
is the MindSpore GPU/Ascend device this process runs on; without one (`torch.cuda.is_available()` False, i.e.
MindSpore's CPU target) the scaler warns and disables itself, as torch does, so a CUDA script run on CPU trains
unscaled. `torch.amp.GradScaler("cpu")` scales on any target (torch >= 2.3 has CPU loss scaling too).

Backward style (torch's): `scaler.scale(loss).backward(); scaler.unscale_(opt); scaler.step(opt);
scaler.update()` reads and rewrites each parameter's `.grad` in place.

Functional style (the manual's §3.1): `loss, grads = grad_fn(...)`, then `scaler.unscale_(optimizer, grads)`
(unscales the tensors of `grads` in place) and `scaler.step(optimizer, grads)` (calls `optimizer(grads)`
unless an inf/nan was found), then `scaler.update()`.

The scale schedule is torch's: multiply by `backoff_factor` on a step with inf/nan gradients (that step is
skipped), by `growth_factor` after `growth_interval` consecutive clean steps.
"""
from __future__ import annotations

import warnings
from collections import defaultdict
from enum import Enum
from typing import Any, Dict, Iterable, Optional, Sequence

import mindspore as ms
import numpy as np
from mindspore import ops

from .. import _dtype as D
from .._ops._registry import wrap, write_back


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state() -> Dict[str, Any]:
    return {"stage": OptState.READY, "found_inf": False}


def _all_finite(tensors: Iterable[Any]) -> bool:
    """One reduction per gradient, one host sync in total."""
    flags = [ops.isfinite(t).all() for t in tensors]
    if not flags:
        return True
    return bool(ops.stack(flags).all().asnumpy())


def _cuda_definitely_not_available() -> bool:
    from ..cuda.amp.common import amp_definitely_not_available  # (late: torch.cuda.amp imports this module)

    return amp_definitely_not_available()


class GradScaler:
    """torch.amp.GradScaler(device='cuda', init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
    growth_interval=2000, enabled=True); disabled (`enabled=False`, or 'cuda' without an accelerator), `scale()`
    returns its input, `step()` just steps the optimizer, `get_scale()` is 1.0 and `state_dict()` is {}."""

    _warn_stacklevel = 2  # the user's call (torch.cuda.amp.GradScaler's __init__ adds a frame)

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        device = getattr(device, "type", device)  # a torch.device is taken too
        if not isinstance(device, str):
            # torch.amp.GradScaler's first argument is the device (torch >= 2.3); a number here is an init_scale
            # meant for torch.cuda.amp.GradScaler's signature, which would otherwise be silently misread
            raise TypeError(f"torch.amp.GradScaler(device, init_scale, ...): device must be a str such as 'cuda' "
                            f"or 'cpu', got {type(device).__name__} (use torch.cuda.amp.GradScaler(init_scale, "
                            "...) or pass init_scale by keyword)")
        self._device = device
        if device == "cuda" and enabled and _cuda_definitely_not_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          stacklevel=self._warn_stacklevel)
            enabled = False
        # torch checks the factors (with `assert` in 1.12: AssertionError) only for an enabled scaler
        if enabled and growth_factor <= 1.0:
            raise AssertionError("The growth factor must be > 1.0.")
        if enabled and backoff_factor >= 1.0:
            raise AssertionError("The backoff factor must be < 1.0.")
        self._enabled = enabled
        self._init_scale = float(init_scale)
        self._scale: Optional[float] = None
        self._growth_factor = float(growth_factor)
        self._backoff_factor = float(backoff_factor)
        self._growth_interval = int(growth_interval)
        self._init_growth_tracker = 0
        self._growth_tracker: Optional[int] = None
        self._per_optimizer_states: Dict[int, Dict[str, Any]] = defaultdict(_refresh_per_optimizer_state)

    # ------------------------------------------------------------------------------------------- scaling
    def _lazy_init(self) -> None:
        if self._scale is None:
            self._scale = self._init_scale
            self._growth_tracker = self._init_growth_tracker

    def scale(self, outputs: Any) -> Any:
        """Multiply outputs (a tensor or nested list/tuple of tensors) by the current scale."""
        if not self._enabled:
            return outputs
        self._lazy_init()
        if isinstance(outputs, ms.Tensor):
            return wrap(ops.mul(outputs, ms.Tensor(self._scale, outputs.dtype)))
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        if isinstance(outputs, Iterable):
            return map(self.scale, outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _grads_of(self, optimizer: Any, grads: Optional[Sequence[Any]]) -> list:
        if grads is not None:
            return [g for g in grads if g is not None]
        out = []
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    out.append(p.grad)
        return out

    def unscale_(self, optimizer: Any, grads: Optional[Sequence[Any]] = None) -> None:
        """Divide the gradients by the scale, in place, and record whether any is inf/nan.

        `grads`: the tuple from `ms.value_and_grad` (functional style); default: the optimizer's `.grad`s.
        """
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        tensors = self._grads_of(optimizer, grads)
        for g in tensors:
            if g.dtype == D.float16:
                raise ValueError("Attempting to unscale FP16 gradients.")
        inv = 1.0 / self._scale
        for g in tensors:
            write_back(g, ops.mul(g, ms.Tensor(inv, g.dtype)))
        state["found_inf"] = not _all_finite(tensors)
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscale (if not done yet) and step, skipping the step when inf/nan gradients were found.

        Functional style: `scaler.step(optimizer, grads)` calls `optimizer(grads)`."""
        grads = None
        if args and isinstance(args[0], (tuple, list)) and (not args[0] or isinstance(args[0][0], ms.Tensor)):
            grads, args = args[0], args[1:]
        if not self._enabled:
            return optimizer(grads) if grads is not None else optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer, grads)
        retval = None
        if not state["found_inf"]:
            retval = optimizer(grads) if grads is not None else optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale: Optional[float] = None) -> None:
        """Update the scale for the next iteration (torch's growth/backoff schedule)."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("update")
        if new_scale is not None:
            self._scale = float(new_scale.item() if hasattr(new_scale, "item") else new_scale)
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values() if s["stage"] is not OptState.READY]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(found):
                self._scale *= self._backoff_factor
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    self._scale *= self._growth_factor
                    self._growth_tracker = 0
            # torch keeps the scale in float32 on the device; round the same way so schedules match exactly.
            self._scale = float(np.float32(self._scale))
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname: str) -> None:
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate your script did not "
                                 "use scaler.scale(loss or outputs) earlier in the iteration.")

    # ----------------------------------------------------------------------------------------- accessors
    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = float(new_factor)

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = float(new_factor)

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = int(new_interval)

    def _get_growth_tracker(self) -> int:
        if not self._enabled:
            return 0
        return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> Dict[str, Any]:
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:
            self._scale = self._init_scale
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._growth_tracker is not None:
            self._growth_tracker = self._init_growth_tracker

    def __getstate__(self) -> Dict[str, Any]:
        state = self.__dict__.copy()
        if self._enabled and len(self._per_optimizer_states) > 0:
            warnings.warn("A GradScaler instance may only be pickled at the beginning of an iteration, "
                          "or at the end after scaler.update().")
        state["_per_optimizer_states"] = {}
        return state
