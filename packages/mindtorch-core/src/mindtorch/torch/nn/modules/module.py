"""torch.nn.Module on top of `mindspore.nn.Cell`.

Design (DESIGN.md §4):

- `Module` IS a `mindspore.nn.Cell`, so MindSpore's APIs take it unchanged (`Cell.trainable_params()`,
  `set_train`, `auto_mixed_precision(model, 'O2'/'O3')`, `ms.value_and_grad(fn, None, params)`, `ms.jit`).
- Storage is shared, not mirrored: torch's `_parameters` / `_modules` / `_buffers` ARE Cell's `_params` /
  `_cells` / `_buffers` dicts (the same objects, aliased in `__init__`). Both views always agree, keep
  registration order, and MindSpore code that edits `_cells` (amp's O2 wraps black-listed cells in place) is seen
  by torch's API and vice versa.
- Torch's semantics are implemented here in Python (attribute registration, naming, state_dict, hooks, train/eval,
  `_apply`), overriding Cell's versions of the same names; Cell's machinery stays intact for MindSpore.
- `__call__`: the common PyNative path calls `forward` directly (Cell.__call__ costs tens of µs). It defers to
  `Cell.__call__` only when a MindSpore feature needs it: GRAPH_MODE, `set_grad()`/`requires_grad` on the cell,
  mixed precision set by `to_float`/`auto_mixed_precision`, MindSpore-style cell hooks
  (`register_full_backward_hook` maps onto Cell's backward hook), shard/recompute, dynamic-shape inputs.
  `Cell.__call__` then runs `construct`, which here calls `forward`.
- Custom backward: a subclass that defines `bprop(self, *inputs, out, dout)` (the manual's §4.4.1) is called
  through `mindtorch.torch.autograd.bprop.call_with_bprop` (imported lazily, only for such classes).
- MindSpore parameter names (`p.name`) are kept unique and equal to torch's attribute path (`layer1.0.weight`):
  set when a parameter is registered and prefixed when a module is attached, like Cell's auto_prefix; MindSpore's
  optimizers and `ParameterTuple` require unique names.
- Reserved names: Cell uses a few names internally that torch's Module does not have (`cast`, `phase`, `cells`,
  and the Cell methods MindSpore calls on every cell, see `RESERVED_NAMES`). Defining or assigning one of them in
  a Module subclass raises an error that names the attribute and says to rename it.
"""
from __future__ import annotations

import functools
import itertools
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Set, Tuple, TypeVar

import mindspore as ms
import numpy as np
from mindspore import nn as _msnn
from mindspore import ops as _msops
from mindspore.ops import Primitive as _Primitive

from ... import _dtype as D
from ... import _ms
from ..._device import as_device
from ..._ops import _registry
from ..._tensor import Tensor, from_numpy_array
from ...autograd._tensor_mixin import zero_grad_lazily
from ...jit._graph import call_module_eagerly as _call_module_eagerly
from ...jit._graph import eager_only_torch_forward as _eager_only_torch_forward
from ...utils.hooks import RemovableHandle
from ..parameter import Parameter, is_parameter_name_generated, replace_data

__all__ = [
    "Module", "register_module_forward_pre_hook", "register_module_forward_hook", "RESERVED_NAMES",
    "register_module_full_backward_hook", "register_module_backward_hook",
]

_Cell = _msnn.Cell
_MsTensor = ms.Tensor
_MsParameter = ms.Parameter
_CONTEXT = _ms.CONTEXT_STATE  # MindSpore context's dict: `_CONTEXT["_mode"]` is the cheapest GRAPH_MODE test
_GRAPH_MODE = _ms.GRAPH_MODE

T = TypeVar("T", bound="Module")

# Names mindspore.nn.Cell uses on every cell (methods MindSpore calls internally, or Cell properties) that torch's
# Module does not define: a user attribute or method of that name would silently break MindSpore (the manual's
# FAQ: `cast`, `phase`, `cells`).
RESERVED_NAMES = frozenset({
    "cast", "phase", "cells", "name_cells", "cells_and_names", "parameters_and_names", "get_parameters",
    "trainable_params", "untrainable_params", "to_float", "add_flags", "add_flags_recursive", "set_grad",
    "set_train", "insert_child_to_cell", "insert_param_to_cell", "update_parameters_name", "parameters_dict",
    "check_names", "check_names_and_refresh_name", "compile_and_run", "exist_names", "exist_objs",
    "param_prefix", "cls_name", "compile_phase", "phase_cache", "compile_cache",
})

# Plain attribute assignment is refused for the reserved methods, read-only properties and `phase`; Cell
# properties with setters that MindSpore itself assigns (compile_phase) go through to their setters.
_RESERVED_PLAIN_ATTRS = frozenset(
    n for n in RESERVED_NAMES
    if n == "phase" or not isinstance(getattr(_Cell, n, None), property) or getattr(_Cell, n).fset is None)

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"
_PLAIN_TYPES = frozenset({int, float, bool, str, bytes, type(None), tuple, list, dict, set, complex})

# Bumped on every structural change (a parameter or module registered/removed anywhere): a module re-checks
# that its parameters' MindSpore names are unique on its next call when the version moved.
_structure_version = [0]


def structure_changed() -> None:
    _structure_version[0] += 1


_global_forward_pre_hooks: Dict[int, Callable] = OrderedDict()
_global_forward_hooks: Dict[int, Callable] = OrderedDict()


def register_module_forward_pre_hook(hook: Callable[..., None]) -> RemovableHandle:
    """Global forward pre-hook for all modules: `hook(module, input) -> None or modified input`."""
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook: Callable[..., None]) -> RemovableHandle:
    """Global forward hook for all modules: `hook(module, input, output) -> None or modified output`."""
    handle = RemovableHandle(_global_forward_hooks)
    _global_forward_hooks[handle.id] = hook
    return handle


_global_backward_hooks: Dict[int, Callable] = OrderedDict()


def register_module_full_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Global backward hook for all modules: `hook(module, grad_input, grad_output) -> None or new grad_input`.

    Each module called while a global backward hook exists gets one MindSpore Cell backward hook that runs the
    global hooks registered at backward time (torch runs them before the module's own hooks)."""
    handle = RemovableHandle(_global_backward_hooks)
    _global_backward_hooks[handle.id] = hook
    return handle


# torch 1.12's non-full variant: MindSpore has one kind of module backward hook (see Module.register_backward_hook)
register_module_backward_hook = register_module_full_backward_hook


def _run_global_backward_hooks(cell: Any, grad_input: Any, grad_output: Any) -> Any:
    changed = None
    for hook in list(_global_backward_hooks.values()):
        res = hook(cell, _registry.wrap(grad_input if changed is None else changed), _registry.wrap(grad_output))
        if res is not None:
            changed = res
    return changed


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_: str, num_spaces: int) -> str:
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line for line in s]
    return first + "\n" + "\n".join(s)


def typename(o: Any) -> str:
    """torch.typename: 'torch.FloatTensor' for tensors, 'module.Class' otherwise."""
    if isinstance(o, _MsTensor):
        return _tensor_type_name(o)
    module = ""
    class_name = ""
    if hasattr(o, "__module__") and o.__module__ != "builtins" and o.__module__ != "__builtin__" \
            and o.__module__ is not None:
        module = o.__module__ + "."
    if hasattr(o, "__qualname__"):
        class_name = o.__qualname__
    elif hasattr(o, "__name__"):
        class_name = o.__name__
    else:
        class_name = o.__class__.__name__
    return module + class_name


_TYPE_NAMES = {
    "float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "bfloat16": "BFloat16Tensor",
    "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor",
    "uint8": "ByteTensor", "bool": "BoolTensor", "complex64": "ComplexFloatTensor",
    "complex128": "ComplexDoubleTensor",
}


def _tensor_type_name(t: Any) -> str:
    name = D.torch_name(t.dtype)[6:]
    return "torch." + _TYPE_NAMES.get(name, "Tensor")


# ------------------------------------------------------------------------------------------ tensor helpers
def _as_torch_tensor(t: Any) -> Any:
    """Re-class a plain MindSpore tensor as a mindtorch Tensor (zero-copy); other objects unchanged."""
    if type(t) is _MsTensor:
        t.__class__ = Tensor
    return t


def _detached(t: Any) -> Tensor:
    """A Tensor sharing memory with `t`, outside autograd (what torch's `detach()` returns)."""
    out = _msops.stop_gradient(t)  # a new tensor over the same memory, requires_grad=False (measured)
    out.__class__ = Tensor
    dev = getattr(t, "__dict__", {}).get("_device")
    if dev is not None:
        out._device = dev
    return out


def _numpy_copy(t: Any) -> np.ndarray:
    if t.dtype == D.bfloat16:
        return np.array(_MsTensor.astype(t, D.float32).asnumpy())
    return np.array(_MsTensor.asnumpy(t))


def _assign_copy(dst: Any, src: Any) -> None:
    """Copy the values of `src` into `dst` in place, like torch's `dst.copy_(src)` under no_grad: dst keeps its
    object, storage (views see the new values) and dtype (any dtype converts, as copy_ allows); dst never
    aliases src afterwards."""
    from ..._grad_mode import no_grad

    arr = np.broadcast_to(_numpy_copy(src), tuple(dst.shape))
    value = from_numpy_array(np.array(arr), dst.dtype)
    with no_grad():
        _registry.write_back(dst, value)


def _cast(t: Any, dtype: Any) -> Any:
    """`t` converted to `dtype` as a new mindtorch Tensor (or `t` itself when already that dtype)."""
    if t.dtype == dtype:
        return t
    out = _msops.cast(t, dtype)
    out.__class__ = Tensor
    dev = getattr(t, "__dict__", {}).get("_device")
    if dev is not None:
        out._device = dev
    return out


def _is_float(t: Any) -> bool:
    return t.dtype in D.all_float_type


def _is_float_or_complex(t: Any) -> bool:
    return t.dtype in D.all_float_type or t.dtype in D.all_complex_type


def _parse_to(args: tuple, kwargs: dict) -> Tuple[Any, Any, bool]:
    """torch._C._nn._parse_to: (device, dtype, non_blocking) from `.to(...)`'s many signatures."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = bool(kwargs.pop("non_blocking", False))
    kwargs.pop("memory_format", None)
    kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments: unexpected {sorted(kwargs)}")
    for a in args:
        if isinstance(a, _MsTensor):
            dtype = a.dtype
            device = getattr(a, "device", None)
        elif isinstance(a, bool):
            non_blocking = a
        elif isinstance(a, ms.dtype.Type):
            dtype = a
        elif a is not None:
            device = a
    if device is not None:
        device = as_device(device)
    return device, dtype, non_blocking


# -------------------------------------------------------------------------------------- structural walks
def _named_modules_of(cell: Any, memo: Set[int], prefix: str, remove_duplicate: bool) -> Iterator[Tuple[str, Any]]:
    """torch's named_modules over any Cell (a Module or a plain MindSpore Cell child)."""
    if id(cell) in memo:
        return
    if remove_duplicate:
        memo.add(id(cell))
    yield prefix, cell
    for name, sub in cell.__dict__["_cells"].items():
        if sub is None:
            continue
        sub_prefix = prefix + ("." if prefix else "") + name
        yield from _named_modules_of(sub, memo, sub_prefix, remove_duplicate)


def _rename_parameters(cell: Any, prefix: str) -> None:
    """MindSpore names of all parameters under `cell` := prefix + their torch path (unique inside a network).

    Every module below records its own path prefix (`_mt_prefix`), so a later registration inside it (a new
    parameter, a container insert/delete) is named from the full path at once, before any call: optimizers
    built right after the model need unique names."""
    seen: Set[int] = set()
    for mod_prefix, mod in _named_modules_of(cell, set(), "", True):
        mod_path = prefix + mod_prefix + ("." if mod_prefix else "")
        mod.__dict__["_mt_prefix"] = mod_path
        for pname, p in mod.__dict__["_params"].items():
            if p is None or id(p) in seen:
                continue
            seen.add(id(p))
            p.name = mod_path + pname


def rename_parameters_in_place(module: Any) -> None:
    """Re-derive the MindSpore names below `module` from its recorded path (after children moved)."""
    _rename_parameters(module, module.__dict__.get("_mt_prefix", ""))


# ------------------------------------------------------------------------------------------------ Module
class Module(_Cell):
    r"""Base class for all neural network modules (torch.nn.Module), a `mindspore.nn.Cell`.

    Subclass it, create submodules/parameters as attributes in ``__init__`` (after ``super().__init__()``) and
    define ``forward``. MindSpore-style subclasses that define ``construct`` instead also work.
    """

    dump_patches: bool = False
    _version: int = 1
    training: bool
    _is_full_backward_hook: Optional[bool]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given" if args else
                            f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if "_params" in self.__dict__:  # __init__ called twice (diamond inheritance): keep what is registered
            return
        _Cell.__init__(self)
        d = self.__dict__
        # torch's names for Cell's registries: the same dict objects (see the module docstring).
        d["_parameters"] = d["_params"]
        d["_modules"] = d["_cells"]
        d["_forward_hooks"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_hooks_with_kwargs"] = set()
        d["_forward_pre_hooks_with_kwargs"] = set()
        d["_backward_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None
        d["_names_version"] = -1
        # True once a MindSpore feature that needs Cell.__call__ is set up (bprop, backward hooks, shard, ...).
        d["_ms_call"] = bool(d["has_bprop"])
        d["training"] = True
        d["_phase"] = "train"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        clash = RESERVED_NAMES.intersection(vars(cls))
        if clash:
            name = sorted(clash)[0]
            raise TypeError(
                f"{cls.__name__} defines '{name}', a name reserved by mindspore.nn.Cell (the base class of "
                f"mindtorch's nn.Module). Rename it, e.g. to '{name}_'.")

    # ---------------------------------------------------------------------------------------- forward
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Define the computation performed at every call. Must be overridden by subclasses."""
        if type(self).construct is not Module.construct:  # MindSpore-style subclass
            return self.construct(*args, **kwargs)
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """What MindSpore runs (Cell.__call__, GRAPH_MODE, jit): torch's `forward`.

        Through a graph-forbidden function: the AST compiler would run a torch-style forward with MindSpore's
        Tensor semantics (wrong numbers), so it must fail to compile instead (jit/_graph.py)."""
        return _eager_only_torch_forward(self, *args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        _ms.enable_grad_recording()  # re-arm the backward tape after a mindspore.value_and_grad (autograd, issue 5)
        d = self.__dict__
        if (d["_forward_pre_hooks"] or d["_forward_hooks"] or d["_ms_call"] or d["requires_grad"]
                or d["mixed_precision_type"] is not None or _CONTEXT["_mode"] == _GRAPH_MODE
                or _global_forward_hooks or _global_forward_pre_hooks or _global_backward_hooks):
            return self._call_impl(*args, **kwargs)
        if d["_names_version"] != _structure_version[0]:
            self._check_parameter_names()
        return self.forward(*args, **kwargs)

    def _needs_cell_call(self) -> bool:
        """Whether a MindSpore feature needs Cell.__call__ (which then runs construct -> forward)."""
        d = self.__dict__
        return bool(d["requires_grad"] or d["mixed_precision_type"] is not None or _CONTEXT["_mode"] == _GRAPH_MODE
                    or d["_lazy_backward_hook"] or d["_lazy_backward_pre_hook"] or d["_lazy_forward_pre_hook"]
                    or d["_lazy_forward_hook"] or d["_shard_fn"] is not None or d["_recompute_cell"] is not None
                    or d["_dynamic_shape_inputs"] is not None)

    def _call_impl(self, *args: Any, **kwargs: Any) -> Any:
        d = self.__dict__
        if d["_names_version"] != _structure_version[0]:
            self._check_parameter_names()
        if _global_backward_hooks and not d.get("_mt_global_backward_hook"):
            d["_mt_global_backward_hook"] = True
            self._mark_ms_call()
            _Cell.register_backward_hook(self, _run_global_backward_hooks)
        pre_kw = d["_forward_pre_hooks_with_kwargs"]
        for hook_id, hook in itertools.chain(_global_forward_pre_hooks.items(), d["_forward_pre_hooks"].items()):
            if hook_id in pre_kw:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs),"
                                           f" but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)

        if d["has_bprop"]:
            output = self._call_with_bprop(args, kwargs)
        elif _CONTEXT["_mode"] == _GRAPH_MODE and type(self).construct is Module.construct:
            # A torch-style forward would compile to wrong numbers: run it eagerly, with a warning (jit/_graph.py).
            output = _call_module_eagerly(self, args, kwargs)
        elif self._needs_cell_call():
            # Cell.__call__'s own steps (backward-hook node, amp cast) hand back plain MindSpore tensors.
            output = _registry.wrap(_Cell.__call__(self, *args, **kwargs))
        else:
            output = self.forward(*args, **kwargs)

        kw = d["_forward_hooks_with_kwargs"]
        for hook_id, hook in itertools.chain(_global_forward_hooks.items(), d["_forward_hooks"].items()):
            result = hook(self, args, kwargs, output) if hook_id in kw else hook(self, args, output)
            if result is not None:
                output = result
        return output

    # MindSpore features that need Cell.__call__: mark the module so that __call__ leaves its fast path.
    def _mark_ms_call(self) -> None:
        self.__dict__["_ms_call"] = True

    def shard(self, *args: Any, **kwargs: Any) -> Any:
        self._mark_ms_call()
        return _Cell.shard(self, *args, **kwargs)

    def recompute(self, *args: Any, **kwargs: Any) -> Any:
        self._mark_ms_call()
        return _Cell.recompute(self, *args, **kwargs)

    def _recompute(self, *args: Any, **kwargs: Any) -> Any:
        self._mark_ms_call()
        return _Cell._recompute(self, *args, **kwargs)

    def set_inputs(self, *args: Any, **kwargs: Any) -> Any:
        self._mark_ms_call()
        return _Cell.set_inputs(self, *args, **kwargs)

    def register_backward_pre_hook(self, hook: Callable) -> Any:
        """MindSpore's backward pre-hook on the cell (torch 2.x's `register_full_backward_pre_hook`)."""
        self._mark_ms_call()
        return _Cell.register_backward_pre_hook(self, _torch_grads_pre_hook(hook))

    register_full_backward_pre_hook = register_backward_pre_hook

    def _call_with_bprop(self, args: tuple, kwargs: dict) -> Any:
        try:
            from ...autograd.bprop import call_with_bprop
        except ImportError:
            # Without the autograd bprop bridge, MindSpore's own Cell custom-bprop path (value_and_grad style).
            return _Cell.__call__(self, *args, **kwargs)
        return call_with_bprop(self, args, kwargs)

    def _check_parameter_names(self) -> None:
        """Once per module: MindSpore names of the parameters below must be unique (optimizers, ParameterTuple);
        re-derive them from the torch paths when two collide (e.g. a submodule replaced deep in the tree)."""
        self.__dict__["_names_version"] = _structure_version[0]
        names = set()
        for _, p in self.named_parameters():
            if p.name in names:
                _rename_parameters(self, "")
                return
            names.add(p.name)

    # ------------------------------------------------------------------------------ attribute protocol
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        params = d.get("_params")
        if params is not None and name in params:
            return params[name]
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        cells = d.get("_cells")
        if cells is not None and name in cells:
            return cells[name]
        params_list = d.get("_params_list")
        if params_list is not None and name in params_list:
            return params_list[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        # Fast path for plain Python values (flags, sizes, names) that touch no registry.
        if type(value) in _PLAIN_TYPES and "_params" in d and name not in d["_params"] \
                and name not in d["_cells"] and name not in d["_buffers"] and name not in RESERVED_NAMES:
            object.__setattr__(self, name, value)
            return
        self._setattr_registry(name, value)

    def _setattr_registry(self, name: str, value: Any) -> None:
        """torch's Module.__setattr__: parameters, submodules and buffers go to their registries."""
        d = self.__dict__

        def remove_from(*dicts_or_sets: Any) -> None:
            for dct in dicts_or_sets:
                if name in dct:
                    if isinstance(dct, dict):
                        del dct[name]
                    else:
                        dct.discard(name)

        params = d.get("_params")
        if isinstance(value, _MsParameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _check_reserved(self, name)
            remove_from(d, d["_buffers"], d["_cells"], self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            _structure_version[0] += 1
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
            return
        modules = d.get("_cells")
        if isinstance(value, _Cell):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _check_reserved(self, name)
            remove_from(d, params, d["_buffers"], self._non_persistent_buffers_set)
            modules[name] = value
            _rename_parameters(value, d.get("_mt_prefix", "") + name + ".")
            _structure_version[0] += 1
            return
        if modules is not None and name in modules:
            _structure_version[0] += 1
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, _MsTensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = _as_torch_tensor(value)
            return
        if name in _RESERVED_PLAIN_ATTRS:
            _check_reserved(self, name)
        if isinstance(value, _Primitive) and "_primitives" in d:  # MindSpore's bookkeeping for primitives
            value.set_prim_instance_name(name)
            d["_primitives"][name] = value
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        if name in d.get("_params", ()):
            del d["_params"][name]
            _structure_version[0] += 1
        elif name in d.get("_buffers", ()):
            del d["_buffers"][name]
            self._non_persistent_buffers_set.discard(name)
        elif name in d.get("_cells", ()):
            del d["_cells"][name]
            _structure_version[0] += 1
        else:
            object.__delattr__(self, name)

    def __dir__(self) -> List[str]:
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(set(keys))

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, dict):  # torch's pickle of an nn.Module (`torch.save(model)` by PyTorch)
            self._setstate_from_torch(state)
            return
        _Cell.__setstate__(self, state)
        d = self.__dict__
        d.setdefault("_forward_hooks_with_kwargs", set())
        d.setdefault("_forward_pre_hooks_with_kwargs", set())
        d.setdefault("_ms_call", bool(d.get("has_bprop")))
        d["_names_version"] = -1

    # torch's Module attributes that are hook registries: merged into ours (the rest of torch's bookkeeping, e.g.
    # _state_dict_hooks, has no counterpart or is rebuilt)
    _TORCH_HOOK_DICTS = ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks")
    _TORCH_REGISTRIES = frozenset({
        "_parameters", "_buffers", "_modules", "_non_persistent_buffers_set", "_is_full_backward_hook",
        "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks",
        "_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_forward_pre_hooks_with_kwargs",
        "_backward_pre_hooks", *_TORCH_HOOK_DICTS})

    def _setstate_from_torch(self, state: Dict[str, Any]) -> None:
        """Rebuild a module pickled by PyTorch: `state` is torch's `Module.__dict__` (its registries and the
        module's own attributes). Our registries are set up as `Module.__init__` does, then filled through
        register_parameter / register_buffer / add_module, so parameter names and structure bookkeeping are ours."""
        Module.__init__(self)
        d = self.__dict__
        for key, value in state.items():
            if key not in self._TORCH_REGISTRIES:
                d[key] = value  # the module's own attributes (in_features, eps, training, ...)
        for key in self._TORCH_HOOK_DICTS:
            d[key].update(state.get(key) or {})
        for name, p in (state.get("_parameters") or {}).items():
            self.register_parameter(name, p)
        transient = state.get("_non_persistent_buffers_set") or set()
        for name, b in (state.get("_buffers") or {}).items():
            self.register_buffer(name, b, persistent=name not in transient)
        for name, m in (state.get("_modules") or {}).items():
            self.add_module(name, m)
        mode = bool(state.get("training", True))  # (each child has its own flag from its own state)
        d["training"], d["_phase"] = mode, "train" if mode else "predict"

    # ----------------------------------------------------------------------------------- registration
    def register_buffer(self, name: str, tensor: Optional[Tensor], persistent: bool = True) -> None:
        """Add a buffer (state that is not a parameter, e.g. BatchNorm's running_mean); persistent buffers are
        part of `state_dict()`."""
        d = self.__dict__
        if "_buffers" not in d:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError("buffer name can't contain \".\"")
        if name == "":
            raise KeyError("buffer name can't be empty string \"\"")
        _check_reserved(self, name)
        if hasattr(self, name) and name not in d["_buffers"]:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, _MsTensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        d["_buffers"][name] = _as_torch_tensor(tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Optional[Parameter]) -> None:
        """Add a parameter; its MindSpore name becomes `name` (prefixed when the module is attached)."""
        d = self.__dict__
        if "_params" not in d:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError("parameter name can't contain \".\"")
        if name == "":
            raise KeyError("parameter name can't be empty string \"\"")
        _check_reserved(self, name)
        if hasattr(self, name) and name not in d["_params"]:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            d["_params"][name] = None
            return
        if not isinstance(param, _MsParameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if is_parameter_name_generated(param.name):
            param.name = d.get("_mt_prefix", "") + name
        d["_params"][name] = param
        _structure_version[0] += 1

    def add_module(self, name: str, module: Optional["Module"]) -> None:
        """Add a child module, reachable as attribute `name`."""
        if not isinstance(module, _Cell) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        _check_reserved(self, name)
        if hasattr(self, name) and name not in self.__dict__["_cells"]:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self.__dict__["_cells"][name] = module
        if module is not None:
            _rename_parameters(module, self.__dict__.get("_mt_prefix", "") + name + ".")
        _structure_version[0] += 1

    def register_module(self, name: str, module: Optional["Module"]) -> None:
        """Alias for :meth:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        if target == "":
            return self
        mod: Any = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, _Cell):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, _MsParameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        module_path, _, buffer_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    def get_extra_state(self) -> Any:
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug.")

    def set_extra_state(self, state: Any) -> None:
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug.")

    # ------------------------------------------------------------------------------------- iteration
    def _named_members(self, get_members_fn: Callable, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True) -> Iterator[Tuple[str, Any]]:
        memo: Set[int] = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[Tuple[str, Parameter]]:
        yield from self._named_members(lambda m: m.__dict__["_params"].items(), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[Tuple[str, Tensor]]:
        yield from self._named_members(lambda m: m.__dict__["_buffers"].items(), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def children(self) -> Iterator["Module"]:
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[Tuple[str, "Module"]]:
        memo: Set[int] = set()
        for name, module in self.__dict__["_cells"].items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self) -> Iterator["Module"]:
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo: Optional[Set[Any]] = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[Tuple[str, "Module"]]:
        ids: Set[int] = set() if memo is None else {id(m) for m in memo}
        yield from _named_modules_of(self, ids, prefix, remove_duplicate)

    # ----------------------------------------------------------------------------------- train / grads
    def train(self: T, mode: bool = True) -> T:
        """Set training mode on this module and its descendants (also MindSpore's `training` flag)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        d = self.__dict__
        d["training"] = mode
        d["_phase"] = "train" if mode else "predict"
        for module in self.children():
            if isinstance(module, Module):
                module.train(mode)
            else:
                module.set_train(mode)
        return self

    def eval(self: T) -> T:
        return self.train(False)

    def requires_grad_(self: T, requires_grad: bool = True) -> T:
        for p in self.parameters():
            p.requires_grad = requires_grad
        return self

    def zero_grad(self, set_to_none: bool = False) -> None:
        """Reset the `.grad` of all parameters. torch 1.12's default is `set_to_none=False` (zero-filled
        gradients); 2.x changed it to True."""
        for p in self.parameters():
            if set_to_none:
                p.grad = None
            else:
                zero_grad_lazily(p)

    def share_memory(self: T) -> T:
        """Not supported: MindSpore tensors cannot be moved to shared memory, so processes started afterwards
        (Hogwild training) would update private copies while this process's model stayed as it is."""
        raise NotImplementedError(
            "Module.share_memory() is not supported by mindtorch: MindSpore tensors cannot live in shared memory, "
            "so worker processes would train private copies of the parameters. Train in one process, or use "
            "torch.distributed (DistributedDataParallel) for multi-process training.")

    # --------------------------------------------------------------------------------- apply / dtypes
    def apply(self: T, fn: Callable[["Module"], None]) -> T:
        """Apply `fn` to every submodule (children first, post-order) and then to self."""
        for module in self.children():
            if isinstance(module, Module):
                module.apply(fn)
            else:
                _apply_fn_to_cell(module, fn)
        fn(self)
        return self

    def _apply(self, fn: Callable[[Any], Any]) -> "Module":
        for module in self.children():
            module._apply(fn)
        for key, param in self.__dict__["_params"].items():
            if param is None:
                continue
            param_applied = fn(param)
            if param_applied is not param:
                replace_data(param, param_applied)
                dev = getattr(param_applied, "__dict__", {}).get("_device")
                if dev is not None:
                    param._device = dev
            grad = getattr(param, "grad", None)
            if grad is not None:
                grad_applied = fn(grad)
                if grad_applied is not grad:
                    param.grad = grad_applied
        buffers = self.__dict__["_buffers"]
        for key, buf in buffers.items():
            if buf is not None:
                buffers[key] = _as_torch_tensor(fn(buf))
        return self

    def to(self, *args: Any, **kwargs: Any) -> "Module":
        """`to(device)`, `to(dtype)`, `to(device, dtype)`, `to(tensor)`: dtype conversion of floating-point
        parameters and buffers is real; the device is recorded (one MindSpore device per process)."""
        device, dtype, _ = _parse_to(args, dict(kwargs))
        if dtype is not None and not (dtype in D.all_float_type or dtype in D.all_complex_type):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={D.torch_name(dtype)}")

        def convert(t: Any) -> Any:
            out = _cast(t, dtype) if dtype is not None and _is_float_or_complex(t) else t
            if device is not None:
                if out is t:
                    t._device = device
                else:
                    out._device = device
            return out

        return self._apply(convert)

    def cuda(self: T, device: Any = None) -> T:
        dev = as_device("cuda" if device is None else (f"cuda:{device}" if isinstance(device, int) else device))
        return self.to(dev)

    def cpu(self: T) -> T:
        return self.to("cpu")

    def xpu(self: T, device: Any = None) -> T:
        raise NotImplementedError("Module.xpu is not supported by mindtorch: MindSpore runs on one device target "
                                  "per process; use .to(device) or mindspore.set_device.")

    def type(self: T, dst_type: Any) -> T:
        dtype = _type_to_dtype(dst_type)
        return self._apply(lambda t: _cast(t, dtype))

    def float(self: T) -> T:
        return self._apply(lambda t: _cast(t, D.float32) if _is_float(t) else t)

    def double(self: T) -> T:
        return self._apply(lambda t: _cast(t, D.float64) if _is_float(t) else t)

    def half(self: T) -> T:
        return self._apply(lambda t: _cast(t, D.float16) if _is_float(t) else t)

    def bfloat16(self: T) -> T:
        return self._apply(lambda t: _cast(t, D.bfloat16) if _is_float(t) else t)

    def to_empty(self: T, *, device: Any) -> T:
        return self.to(device)

    # ------------------------------------------------------------------------------------------ hooks
    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """`hook(module, args) -> None or modified args` runs before `forward` (with_kwargs:
        `hook(module, args, kwargs) -> None or (args, kwargs)`)."""
        d = self.__dict__
        handle = RemovableHandle(d["_forward_pre_hooks"])
        d["_forward_pre_hooks"][handle.id] = hook
        if with_kwargs:
            d["_forward_pre_hooks_with_kwargs"].add(handle.id)
        if prepend:
            d["_forward_pre_hooks"].move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False) -> RemovableHandle:
        """`hook(module, args, output) -> None or modified output` runs after `forward`."""
        d = self.__dict__
        handle = RemovableHandle(d["_forward_hooks"])
        d["_forward_hooks"][handle.id] = hook
        if with_kwargs:
            d["_forward_hooks_with_kwargs"].add(handle.id)
        if prepend:
            d["_forward_hooks"].move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook: Callable) -> Any:
        """`hook(module, grad_input, grad_output) -> None or new grad_input`, on MindSpore's Cell backward hook
        (the module's calls then go through Cell.__call__)."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        self.__dict__["_is_full_backward_hook"] = True
        self._mark_ms_call()
        return _Cell.register_backward_hook(self, _torch_grads_hook(hook))

    def register_backward_hook(self, hook: Callable) -> Any:
        """Deprecated torch API: mapped onto the full backward hook (MindSpore has one kind)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        self.__dict__["_is_full_backward_hook"] = False
        self._mark_ms_call()
        return _Cell.register_backward_hook(self, _torch_grads_hook(hook))

    def _register_state_dict_hook(self, hook: Callable) -> RemovableHandle:
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_load_state_dict_pre_hook(self, hook: Callable, with_module: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = functools.partial(hook, self) if with_module else hook
        return handle

    def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    # ------------------------------------------------------------------------------------- state_dict
    def _save_to_state_dict(self, destination: Dict[str, Any], prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else _detached(param)
        non_persistent = self._non_persistent_buffers_set
        for name, buf in self._buffers.items():
            if buf is not None and name not in non_persistent:
                destination[prefix + name] = buf if keep_vars else _detached(buf)
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> Any:
        """An OrderedDict of parameters and persistent buffers with torch's key names (`layer1.0.conv1.weight`);
        values share memory with the module (detached) unless keep_vars."""
        if args:  # torch's deprecated positional form state_dict(destination, prefix, keep_vars)
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is None:
                continue
            if isinstance(module, Module):
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
            else:
                _cell_state_dict(module, destination, prefix + name + ".", keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if hook_result is not None:
                destination = hook_result
        return destination

    def _load_from_state_dict(self, state_dict: Dict[str, Any], prefix: str, local_metadata: Dict[str, Any],
                              strict: bool, missing_keys: List[str], unexpected_keys: List[str],
                              error_msgs: List[str]) -> None:
        """Copy this module's own parameters/buffers from `state_dict` (torch 1.12's logic and messages).
        Layers override it to convert old formats (e.g. BatchNorm's num_batches_tracked)."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)

        non_persistent = self._non_persistent_buffers_set
        persistent_buffers = {k: v for k, v in self._buffers.items() if k not in non_persistent}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, _MsTensor):
                    error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                      f"Tensor-like object from checkpoint but received {type(input_param)}")
                    continue
                in_shape = tuple(input_param.shape)
                own_shape = tuple(param.shape)
                if len(own_shape) == 0 and len(in_shape) == 1:  # torch's backward compatibility
                    input_param = input_param[0]
                    in_shape = ()
                if in_shape != own_shape:
                    error_msgs.append(f"size mismatch for {key}: copying a param with shape torch.Size("
                                      f"{list(in_shape)}) from checkpoint, the shape in current model is "
                                      f"torch.Size({list(own_shape)}).")
                    continue
                try:
                    _assign_copy(param, input_param)
                except Exception as ex:  # torch reports, not raises, copy failures
                    error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the model '
                                      f"are torch.Size({list(own_shape)}) and whose dimensions in the checkpoint "
                                      f"are torch.Size({list(in_shape)}), an exception occurred : {ex.args}.")
            elif strict:
                missing_keys.append(key)

        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        elif strict and extra_state_key in state_dict:
            unexpected_keys.append(extra_state_key)

        if strict:
            modules = self._modules
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix):].split(".", 1)[0]
                    if input_name not in modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> _IncompatibleKeys:
        """Copy parameters and buffers from `state_dict` into this module and its descendants (in place).

        Returns `_IncompatibleKeys(missing_keys, unexpected_keys)`; with `strict=True` a mismatch raises
        torch's RuntimeError ("Error(s) in loading state_dict for Net: ...").
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys: List[str] = []
        unexpected_keys: List[str] = []
        error_msgs: List[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata  # type: ignore[attr-defined]

        def load(module: Any, local_state_dict: Dict[str, Any], prefix: str = "") -> None:
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if isinstance(module, Module):
                module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing_keys,
                                             unexpected_keys, error_msgs)
            else:
                _cell_load_from_state_dict(module, local_state_dict, prefix, missing_keys, unexpected_keys,
                                           error_msgs)
            for name, child in module.__dict__["_cells"].items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)
            if isinstance(module, Module):
                incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
                for hook in module._load_state_dict_post_hooks.values():
                    out = hook(module, incompatible_keys)
                    if out is not None:
                        raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not"
                                           "expected to return new values, if incompatible_keys need to be "
                                           "modified, it should be done inplace.")

        load(self, state_dict)

        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self.__class__.__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ------------------------------------------------------------------------------------------- repr
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        """Extra information printed inside `Name(...)`; override in layers (e.g. `in_features=2, ...`)."""
        return ""

    def extend_repr(self) -> str:  # MindSpore's name for extra_repr
        return self.extra_repr()

    def __repr__(self) -> str:
        extra_lines: List[str] = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str

    __str__ = __repr__


# ------------------------------------------------------------------------------------------- helpers
def _check_reserved(module: Module, name: str) -> None:
    if name in RESERVED_NAMES:
        raise AttributeError(
            f"'{name}' is reserved by mindspore.nn.Cell (the base class of mindtorch's nn.Module) and cannot be "
            f"used as an attribute of {type(module).__name__}. Rename it, e.g. to '{name}_'.")


def _torch_grads_hook(hook: Callable) -> Callable:
    """MindSpore calls cell backward hooks with plain MindSpore tensors: hand torch tensors to the user's hook."""

    @functools.wraps(hook)
    def wrapped(cell: Any, grad_input: Any, grad_output: Any) -> Any:
        return hook(cell, _registry.wrap(grad_input), _registry.wrap(grad_output))

    return wrapped


def _torch_grads_pre_hook(hook: Callable) -> Callable:
    @functools.wraps(hook)
    def wrapped(cell: Any, grad_output: Any) -> Any:
        return hook(cell, _registry.wrap(grad_output))

    return wrapped


def _apply_fn_to_cell(cell: Any, fn: Callable) -> None:
    for sub in cell.__dict__["_cells"].values():
        if sub is None:
            continue
        if isinstance(sub, Module):
            sub.apply(fn)
        else:
            _apply_fn_to_cell(sub, fn)
    fn(cell)


def _cell_state_dict(cell: Any, destination: Dict[str, Any], prefix: str, keep_vars: bool) -> None:
    """torch's state_dict over a plain MindSpore Cell child (its `_params`, persistent `_buffers`, children)."""
    for name, p in cell.__dict__["_params"].items():
        if p is not None:
            destination[prefix + name] = p if keep_vars else _detached(p)
    non_persistent = cell._non_persistent_buffers_set
    for name, b in cell.__dict__["_buffers"].items():
        if b is not None and name not in non_persistent:
            destination[prefix + name] = b if keep_vars else _detached(b)
    for name, sub in cell.__dict__["_cells"].items():
        if sub is None:
            continue
        if isinstance(sub, Module):
            sub.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        else:
            _cell_state_dict(sub, destination, prefix + name + ".", keep_vars)


def _cell_load_from_state_dict(cell: Any, state_dict: Dict[str, Any], prefix: str, missing_keys: List[str],
                               unexpected_keys: List[str], error_msgs: List[str]) -> None:
    """Module._load_from_state_dict's logic (strict) for a plain MindSpore Cell child."""
    non_persistent = cell._non_persistent_buffers_set
    local_state = {k: v for k, v in itertools.chain(
        cell.__dict__["_params"].items(),
        ((k, b) for k, b in cell.__dict__["_buffers"].items() if k not in non_persistent)) if v is not None}
    for name, param in local_state.items():
        key = prefix + name
        if key in state_dict:
            src = state_dict[key]
            if tuple(src.shape) != tuple(param.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape torch.Size("
                                  f"{list(src.shape)}) from checkpoint, the shape in current model is "
                                  f"torch.Size({list(param.shape)}).")
                continue
            _assign_copy(param, src)
        else:
            missing_keys.append(key)
    for key in state_dict:
        if key.startswith(prefix):
            input_name = key[len(prefix):].split(".", 1)[0]
            if input_name not in cell.__dict__["_cells"] and input_name not in local_state:
                unexpected_keys.append(key)


_TYPE_STRINGS = {
    "torch.FloatTensor": D.float32, "torch.DoubleTensor": D.float64, "torch.HalfTensor": D.float16,
    "torch.BFloat16Tensor": D.bfloat16, "torch.LongTensor": D.int64, "torch.IntTensor": D.int32,
    "torch.ShortTensor": D.int16, "torch.CharTensor": D.int8, "torch.ByteTensor": D.uint8,
    "torch.BoolTensor": D.bool,
}


def _type_to_dtype(dst_type: Any) -> Any:
    if isinstance(dst_type, ms.dtype.Type):
        return dst_type
    if isinstance(dst_type, str):
        key = dst_type.replace("torch.cuda.", "torch.")
        if key in _TYPE_STRINGS:
            return _TYPE_STRINGS[key]
    raise TypeError(f"Module.type(): invalid type {dst_type!r}")

