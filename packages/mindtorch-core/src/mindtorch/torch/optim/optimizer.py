"""torch.optim.Optimizer: param groups, state, state_dict in torch's format, and both calling styles.

PyTorch style:      loss.backward(); optimizer.step(); optimizer.zero_grad()
The manual's style: grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
                    (loss, _), grads = grad_fn(x, y); optimizer(grads)

`optimizer(grads)` applies exactly the update `step()` applies, with `grads` aligned with
`optimizer.parameters` (a `mindspore.ParameterTuple` of every parameter, group by group). Updates are written
in place into the parameter objects (`Tensor.copy_` under no_grad: same object, same storage), so MindSpore's
`value_and_grad`, the model, and any view of a parameter see them. The math of each optimizer follows torch
1.12's `torch/optim/_functional.py` (single-tensor path) op for op, in float32 on MindSpore `mint` kernels.
"""
from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from itertools import chain
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import mindspore as ms
import numpy as np

from .. import _ms
from ..autograd._tensor_mixin import leaf_grad, zero_grad_lazily

__all__ = ["Optimizer", "required"]

_MsTensor = ms.Tensor


class _RequiredParameter:
    """Singleton marking a hyper-parameter that has no default (torch.optim.optimizer.required)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _T(x: Any) -> Any:
    """Re-class a MindSpore result as a mindtorch Tensor (zero-copy) for state the user may read."""
    if type(x) is _MsTensor:
        from .._tensor import Tensor

        x.__class__ = Tensor
    return x


def assign_(p: Any, value: Any) -> None:
    """Write `value` into parameter `p` in place (same object, same storage; bumps its version)."""
    if value.dtype != p.dtype:
        value = value.astype(p.dtype)
    _ms.copy_into(p, value)


def step_tensor(value: float) -> Any:
    """A float32 0-d tensor (torch 1.12's `state['step']`, `torch.tensor(0.)`). `from_numpy` wraps the array
    without a copy (~6 us; `Tensor(array)` copies, ~18 us), so on CPU the value lives in host memory that
    `_ScalarState` updates in place."""
    return _T(_MsTensor.from_numpy(np.array(value, dtype=np.float32)))


_FLOAT32 = ms.float32


class _ScalarState:
    """Cheap access to one float32 0-d tensor of per-parameter state (`step`; ASGD's `eta`/`mu`; NAdam's
    `mu_product`), which torch 1.12 updates in place every step (`step_t += 1; step = step_t.item()`).

    On CPU the tensor's host memory is written through a numpy view (~0.1 us; a MindSpore kernel per
    parameter per step would cost ~10 us), so the state keeps the same tensor object, as in torch, and a user's
    in-place change to it (`state['step'].fill_(0)`) is what the next step reads. Elsewhere (device memory)
    every write makes a new host tensor (no kernel launch) and the value is remembered here."""

    __slots__ = ("tensor", "host", "value")

    def __init__(self, value: Any) -> None:
        if (_ms.HOST_MEMORY and isinstance(value, _MsTensor) and value.dtype == _FLOAT32
                and tuple(value.shape) == ()):
            self.tensor = _T(value)  # the state's own tensor (torch's, after load, is float32 0-d too)
            self.host: Optional[np.ndarray] = _ms.host_view(value)
            self.value = 0.0
            return
        number = _as_number(value)
        self.tensor = step_tensor(number)
        self.host = _ms.host_view(self.tensor) if _ms.HOST_MEMORY else None
        self.value = float(np.float32(number))

    def get(self) -> float:
        host = self.host
        return host.item() if host is not None else self.value

    def set(self, state: Dict[str, Any], name: str, value: float) -> float:
        """Store `value` (rounded to float32, as torch's tensor stores it) and return the stored value."""
        host = self.host
        if host is not None:
            host[()] = value
            return host.item()
        self.tensor = state[name] = step_tensor(value)
        self.value = float(np.float32(value))
        return self.value


def _as_number(value: Any) -> float:
    """A scalar state entry (a Python number, or a 0-d/1-element tensor of ours or of real torch) as a float."""
    if isinstance(value, _MsTensor):
        return float(np.asarray(value.asnumpy()).reshape(-1)[0])
    if hasattr(value, "detach") and hasattr(value, "numpy"):  # a real torch tensor in a hand-made dict
        return float(value.detach().numpy().reshape(-1)[0])
    return float(value)


def newer_option(defaults: Dict[str, Any], name: str, value: Any, default: Any) -> None:
    """An option torch 1.12 does not have for this optimizer (e.g. RMSprop's `maximize`, torch >= 1.13): stored
    in the param groups only when set, so a 1.12-style script's state_dict() has exactly torch 1.12's keys."""
    if value != default:
        defaults[name] = value


def _cast_value(p: Any, value: Any) -> Any:
    """torch 1.12's `load_state_dict` cast: floating state tensors take the parameter's dtype; containers are
    walked; real torch tensors (a hand-made dict) become ours."""
    if isinstance(value, _MsTensor):
        if value.dtype != p.dtype and p.dtype in (ms.float16, ms.float32, ms.float64, ms.bfloat16):
            value = value.astype(p.dtype)
        return _T(value)
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        from .._tensor import from_numpy_array

        arr = value.detach().float().numpy() if str(value.dtype) == "torch.bfloat16" else value.detach().numpy()
        return _cast_value(p, from_numpy_array(arr))
    if isinstance(value, dict):
        return {k: _cast_value(p, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_value(p, v) for v in value)
    return value


class Optimizer:
    """Base class of all optimizers.

    Args:
        params: an iterable of Tensors/Parameters, or of dicts defining parameter groups (`{'params': [...],
            'lr': ...}`); every group gets the missing hyper-parameters from `defaults`.
        defaults: the default hyper-parameters.

    Subclasses implement `_update(p, grad, group, state)` for one parameter (called under no_grad).

    Per-parameter scalar state is typed as torch 1.12 keeps it while training: the names in `_tensor_scalars`
    (`step` of the Adam family, ASGD's `eta`/`mu`, NAdam's `mu_product`) are float32 0-d tensors updated in
    place (read and written through `_scalar`, see `_ScalarState`), those in `_int_scalars` Python ints
    (1.12's Adadelta, RMSprop, Rprop). `load_state_dict` accepts a tensor or a number for either (real torch
    tensors, or older mindtorch's float steps), whatever version of torch wrote it.
    """

    _tensor_scalars: Tuple[str, ...] = ()
    _int_scalars: Tuple[str, ...] = ()
    # group keys torch 1.12's `__setstate__` fills in when an older state dict lacks them
    _setstate_defaults: Dict[str, Any] = {}

    def __init__(self, params: Iterable[Any], defaults: Dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: Dict[Any, Dict[str, Any]] = defaultdict(dict)
        self.param_groups: List[Dict[str, Any]] = []
        self._param_tuple: Any = None
        self._scalars: Dict[Tuple[int, str], _ScalarState] = {}
        if isinstance(params, _MsTensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {type(params).__name__}")
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    # ------------------------------------------------------------------------------------------ groups
    def add_param_group(self, param_group: Dict[str, Any]) -> None:
        """Add a group of parameters (with its own hyper-parameters) to optimize."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, _MsTensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, _MsTensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p._is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        if len(param_group["params"]) != len({id(p) for p in param_group["params"]}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        existing = set()
        for group in self.param_groups:
            existing.update(id(p) for p in group["params"])
        if any(id(p) in existing for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)
        self._param_tuple = None

    @property
    def parameters(self) -> Any:
        """Every parameter, group by group, as the `mindspore.ParameterTuple` `ms.value_and_grad` takes."""
        if self._param_tuple is None:
            flat = [p for g in self.param_groups for p in g["params"]]
            if all(isinstance(p, ms.Parameter) for p in flat):
                self._param_tuple = ms.ParameterTuple(flat)
            else:
                self._param_tuple = tuple(flat)
        return self._param_tuple

    # ------------------------------------------------------------------------------------------- steps
    def zero_grad(self, set_to_none: bool = False) -> None:
        """Reset the gradients (torch 1.12's default `set_to_none=False` gives zero tensors: a new zero tensor
        per parameter rather than an in-place zeroing of the old one; the values are the same)."""
        for group in self.param_groups:
            for p in group["params"]:
                if set_to_none:
                    p.grad = None
                else:
                    zero_grad_lazily(p)

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:
        """One update of every parameter that has a `.grad`; `closure` re-evaluates the model and returns
        the loss (run with grad enabled)."""
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad

            with enable_grad():
                loss = closure()
        self._apply(((p, leaf_grad(p)) for g in self.param_groups for p in g["params"]))
        return loss

    def __call__(self, grads: Any) -> bool:
        """The manual's functional step: `grads` aligned with `optimizer.parameters` (value_and_grad's output)."""
        if isinstance(grads, _MsTensor):
            grads = (grads,)
        grads = tuple(grads)
        flat = [p for g in self.param_groups for p in g["params"]]
        if len(grads) != len(flat):
            raise ValueError(f"optimizer(grads): got {len(grads)} gradients for {len(flat)} parameters "
                             "(grads must be aligned with optimizer.parameters)")
        if hasattr(self, "_step_count"):  # an lr scheduler counts steps to check it is stepped after us
            self._step_count += 1
        self._apply(zip(flat, grads))
        return True

    def _apply(self, pairs: Iterable[Tuple[Any, Any]]) -> None:
        it = iter(pairs)
        prev = _ms.enable_grad_state()
        _ms.set_enable_grad(False)
        try:
            for group in self.param_groups:
                for _ in group["params"]:
                    p, g = next(it)
                    if g is None:
                        continue
                    self._update(p, g, group, self.state[p])
        finally:
            _ms.set_enable_grad(prev)
            # `mindspore.value_and_grad` switches the tape off when it returns; re-arm it for backward style.
            _ms.enable_grad_recording()

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement _update(p, grad, group, state)")

    def _scalar(self, p: Any, state: Dict[str, Any], name: str) -> _ScalarState:
        """The handle on parameter `p`'s `state[name]`, a float32 0-d tensor once this returns (a number, or a
        tensor of another type, left there by older mindtorch or by the user is replaced by one)."""
        value = state[name]
        key = (id(p), name)
        slot = self._scalars.get(key)
        if slot is None or slot.tensor is not value:  # first use, or the entry was replaced since
            slot = self._scalars[key] = _ScalarState(value)
            state[name] = slot.tensor
        return slot

    def _next_step(self, p: Any, state: Dict[str, Any]) -> float:
        """torch 1.12's `step_t += 1; step = step_t.item()` on the float32 `state['step']`."""
        slot = self._scalar(p, state, "step")
        return slot.set(state, "step", slot.get() + 1)

    # ----------------------------------------------------------------------------------------- state_dict
    def state_dict(self) -> Dict[str, Any]:
        """{'state': {index: {...}}, 'param_groups': [{..., 'params': [index, ...]}]} as torch 1.12 makes it:
        parameters numbered in group order, state keyed by those numbers, scalar state typed as 1.12 keeps it."""
        index: Dict[int, int] = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {}
        for p, s in self.state.items():
            key = index[id(p)] if isinstance(p, _MsTensor) else p
            state[key] = {k: self._export_scalar(k, v) for k, v in s.items()}
        return {"state": state, "param_groups": groups}

    def _export_scalar(self, name: str, value: Any) -> Any:
        if name in self._tensor_scalars and not isinstance(value, _MsTensor):
            return step_tensor(value)
        if name in self._int_scalars and isinstance(value, float):
            return int(value)
        return value

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        """Load a state dict made by `state_dict()` here, or by real PyTorch (any version: `step` as a tensor or a
        number; hyper-parameter keys of other versions are kept, as torch keeps them)."""
        state_dict = copy.deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(s["params"] for s in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        state: Dict[Any, Dict[str, Any]] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                p = id_map[k]
                state[p] = {name: self._cast_state(p, name, val) for name, val in v.items()}
            else:
                state[k] = v
        new_groups = []
        for g, s in zip(groups, saved_groups):
            s = dict(s)
            s["params"] = g["params"]
            new_groups.append(s)
        self.__setstate__({"state": state, "param_groups": new_groups})

    def _cast_state(self, p: Any, name: str, value: Any) -> Any:
        # Only the scalars this class declares are retyped: a user's Optimizer subclass with its own step() gets
        # its state back as torch gives it (tensors cast to the parameter's dtype).
        if name in self._int_scalars and value is not None:
            return int(_as_number(value))
        if name in self._tensor_scalars and value is not None:
            # a float32 0-d tensor of our own whatever was saved: real torch's tensor, older mindtorch's float
            # (torch 1.12's Adam.__setstate__ likewise turns float steps into tensors)
            return step_tensor(_as_number(value))
        return _cast_value(p, value)

    # ------------------------------------------------------------------------------------------- printing
    def __getstate__(self) -> Dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._param_tuple = None
        self._scalars = {}  # handles on the old state's tensors (not pickled: rebuilt on first use)
        for group in self.param_groups:
            for key, default in self._setstate_defaults.items():
                group.setdefault(key, default)

    def __repr__(self) -> str:
        s = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += "\n"
            s += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        return s + ")"
