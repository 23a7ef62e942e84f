"""torch.nn.utils.parametrize: tensors of a module expressed as a function of other tensors (torch 1.12).

`register_parametrization(module, "weight", P)` moves `module.weight` to `module.parametrizations.weight.original`
(a `ParametrizationList`, itself a ModuleList of the parametrizations) and turns `weight` into a property computing
`P(original)` on every access. As in torch, the property lives on a class created on the fly,
`Parametrized<Class>`, which `module.__class__` is switched to (and back once the last parametrization is removed);
the state_dict keys are `parametrizations.weight.original`.

Where torch uses `Tensor.set_` (to keep the identity of `original` when `right_inverse` changes its value), this
uses `nn.parameter.replace_data`: the same object then holds the new data, so optimizers built before keep working.
"""
from __future__ import annotations

import collections.abc
from contextlib import contextmanager
from copy import deepcopy
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple, Union

import mindspore as ms

from ... import _grad_mode
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter, replace_data

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized", "remove_parametrizations",
           "type_before_parametrizations", "transfer_parametrizations_and_params"]

_Tensor = ms.Tensor  # isinstance checks: our Tensor, Parameter and plain MindSpore tensors

_cache_enabled = 0
_cache: Dict[Tuple[int, str], Optional[Any]] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Inside this context, each parametrized tensor is computed once, on first access, and reused (e.g. a
    parametrized weight used several times in a recurrent forward). The cache is dropped on exit."""
    global _cache
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, X: Any) -> None:
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _set_data(dest: Any, src: Any) -> None:
    """torch's `dest.set_(src)` under no_grad: `dest` (same object) now holds `src`'s data."""
    if src is dest:  # nothing to do; replace_data(x, x) is not a no-op in MindSpore 2.10 (it flips the dtype)
        return
    replace_data(dest, src.detach())


class ParametrizationList(ModuleList):
    r"""The parametrizations of one tensor, and its unparametrized value `original` (or `original0`,
    `original1`, ... when the first parametrization's `right_inverse` returns a sequence of tensors).
    Calling it computes the parametrized tensor. Not to be built by hand: `register_parametrization` does."""

    original: Any
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Any, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe

        # original -> the unconstrained value(s) such that forward(right_inverse(original)) == original
        original_shape = original.shape
        original_dtype = original.dtype
        with _grad_mode.no_grad():
            new = original
            for module in reversed(self):  # type: ignore[call-overload]
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
                # else, or if it throws, we assume that right_inverse is the identity

        if not isinstance(new, _Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                             f"Got {type(new).__name__}")

        self.is_tensor = isinstance(new, _Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)

        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError("When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                                 f"original.dtype: {original.dtype}\nright_inverse(original).dtype: {new.dtype}")
            # Keep the object `original` (optimizers may hold it), with the new value.
            with _grad_mode.no_grad():
                _set_data(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, _Tensor):
                    raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                                     "(list, tuple...). "
                                     f"Got element {i} of the sequence with type {type(originali).__name__}.")
                # A parameter's pieces are new parameters: the user adds them to the optimizer (torch documents it).
                if isinstance(original, Parameter):
                    originali = Parameter(originali.detach(), requires_grad=original.requires_grad)
                else:
                    originali = originali.detach().requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)

        if not self.unsafe:
            # Consistency checks: the parametrization must give a tensor of the original dtype and shape.
            Z = self()
            if not isinstance(Z, _Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
            if Z.dtype != original_dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, unless "
                                 f"`unsafe` flag is enabled.\nunparametrized dtype: {original_dtype}\n"
                                 f"parametrized dtype: {Z.dtype}")
            if tuple(Z.shape) != tuple(original_shape):
                raise ValueError("Registering a parametrization may not change the shape of the tensor, unless "
                                 f"`unsafe` flag is enabled.\nunparametrized shape: {original_shape}\n"
                                 f"parametrized shape: {Z.shape}")

    def right_inverse(self, value: Any) -> None:
        """Set `original` (or `original0`, ...) from a value of the parametrized tensor, through the
        parametrizations' `right_inverse` in reverse order (what `module.weight = value` does)."""
        with _grad_mode.no_grad():
            for module in reversed(self):  # type: ignore[call-overload]
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement right_inverse.")
            if self.is_tensor:
                if not isinstance(value, _Tensor):
                    raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                                     f"while `original` has dtype {self.original.dtype}")
                _set_data(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError("'right_inverse' must return a sequence of tensors. "
                                     f"Got {type(value).__name__}.")
                if len(value) != self.ntensors:
                    raise ValueError("'right_inverse' must return a sequence of tensors of length "
                                     f"{self.ntensors}. Got a sequence of length {len(value)}.")
                for i, tensor in enumerate(value):
                    original_i = getattr(self, f"original{i}")
                    if not isinstance(tensor, _Tensor):
                        raise ValueError(f"`right_inverse` must return a sequence of tensors. "
                                         f"Got element {i} of type {type(tensor).__name__}")
                    if original_i.dtype != tensor.dtype:
                        raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                                         f"while `original{i}` has dtype {original_i.dtype}")
                    _set_data(original_i, tensor)

    def forward(self) -> Any:
        """The parametrized tensor: the parametrizations applied in registration order to `original`."""
        if self.is_tensor:
            x = self[0](self.original)
        else:
            originals = (getattr(self, f"original{i}") for i in range(self.ntensors))
            x = self[0](*originals)
        # self[1:] would build a new ModuleList; walk the integer keys instead.
        curr_idx = 1
        while hasattr(self, str(curr_idx)):
            x = self[curr_idx](x)
            curr_idx += 1
        return x


def _inject_new_class(module: Module) -> None:
    """Switch `module` to a new subclass of its class, which will hold the parametrized properties (they must be
    class attributes, and must not leak to other instances of the class)."""
    cls = module.__class__

    def default_deepcopy(self: Any, memo: Dict[int, Any]) -> Any:
        # Python's default deepcopy goes through __getstate__, which refuses below: copy the Cell state directly.
        obj = memo.get(id(self), None)
        if obj is not None:
            return obj
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__setstate__(deepcopy(cls.__getstate__(self), memo))
        return replica

    def getstate(self: Any) -> Any:
        raise RuntimeError(
            "Serialization of parametrized modules is only supported through state_dict(). See:\n"
            "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")

    dct: Dict[str, Any] = {"__getstate__": getstate}
    # A class's own __deepcopy__ (not Cell's default machinery) is kept.
    if "__deepcopy__" not in vars(cls) and not any("__deepcopy__" in vars(b) for b in cls.__mro__[1:]
                                                   if b is not object):
        dct["__deepcopy__"] = default_deepcopy
    param_cls = type(f"Parametrized{cls.__name__}", (cls,), dct)
    module.__class__ = param_cls


def _inject_property(module: Module, tensor_name: str) -> None:
    """Add the property `tensor_name` (get: the parametrized value; set: right_inverse) to the module's class."""
    # The class was created by _inject_new_class for this instance: nothing else has the attribute.
    assert not hasattr(module, tensor_name)

    def get_cached_parametrization(parametrization: Any) -> Any:
        global _cache
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = parametrization()
            _cache[key] = tensor
        return tensor

    def get_parametrized(self: Any) -> Any:
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            return get_cached_parametrization(parametrization)
        return parametrization()

    def set_original(self: Any, value: Any) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    r"""Add a parametrization to the tensor `tensor_name` (a parameter or buffer) of `module`.

    Afterwards `module.<tensor_name>` is `parametrization(module.parametrizations.<tensor_name>.original)`,
    computed on each access (see :func:`cached`). Registering more parametrizations on the same tensor chains them.
    If `parametrization` has `right_inverse(X)`, it is used to initialize `original` (so that the parametrized
    value equals the old tensor) and on assignment `module.<tensor_name> = X`.

    Args:
        module: the module holding the tensor.
        tensor_name: name of the parameter or buffer.
        parametrization: the module computing the parametrized tensor.
        unsafe: skip the checks that the parametrization keeps the dtype and shape. Default: ``False``.

    Raises:
        ValueError: the module has no parameter/buffer `tensor_name`, or the checks fail.
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        # Correctness checks: the new parametrization must accept and return a tensor of the same dtype/shape.
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not isinstance(X, _Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}.")
            if X.dtype != Y.dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, unless the "
                                 f"`unsafe` flag is enabled.\nmodule.{tensor_name}.dtype: {Y.dtype}\n"
                                 f"parametrization(module.{tensor_name}).dtype: {X.dtype}")
            if tuple(X.shape) != tuple(Y.shape):
                raise ValueError("Registering a parametrization may not change the shape of the tensor, unless the "
                                 f"`unsafe` flag is enabled.\nmodule.{tensor_name}.shape: {Y.shape}\n"
                                 f"parametrization(module.{tensor_name}).shape: {X.shape}")
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(Z, _Tensor):
                        raise ValueError(f"parametrization.right_inverse must return a tensor. Got: "
                                         f"{type(Z).__name__}")
                    if Z.dtype != Y.dtype:
                        raise ValueError("The tensor returned by parametrization.right_inverse must have the same "
                                         f"dtype as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                                         f"module.{tensor_name}.dtype: {Y.dtype}\nreturned dtype: {Z.dtype}")
                    if tuple(Z.shape) != tuple(Y.shape):
                        raise ValueError("The tensor returned by parametrization.right_inverse must have the same "
                                         f"shape as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                                         f"module.{tensor_name}.shape: {Y.shape}\nreturned shape: {Z.shape}")
            # else right_inverse is assumed to be the identity
        module.parametrizations[tensor_name].append(parametrization)
        # Once unsafe, always unsafe for this tensor.
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        # Built before touching the module, so that a failing parametrization leaves it unchanged.
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        # Attaching the list names `original`'s MindSpore parameter `parametrizations.<name>.original`.
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with "
                         f"name '{tensor_name}'")
    return module


def is_parametrized(module: Module, tensor_name: Optional[str] = None) -> bool:
    """Whether `module` has any parametrization (or one on `tensor_name`)."""
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True) -> Module:
    """Remove the parametrizations of `tensor_name`: it becomes a parameter (or buffer) again, holding the
    parametrized value (`leave_parametrized=True`) or `original`. With a single `original`, that same object is
    kept, so optimizers built before keep working."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")

    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with _grad_mode.no_grad():
                t = getattr(module, tensor_name)
                # Same dtype (checked at registration): keep the object `original`, with the value t.
                _set_data(original, t)
    else:
        if leave_parametrized:
            # Not under no_grad: whether the result requires grad tells whether it is a parameter.
            t = getattr(module, tensor_name)
            original = Parameter(t.detach()) if t.requires_grad else t
        else:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")

    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if isinstance(original, Parameter):
        # Back to its torch path (`weight`) as the MindSpore name.
        original.name = module.__dict__.get("_mt_prefix", "") + tensor_name

    # Back to the original class once nothing is parametrized.
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before parametrizations were registered (its class otherwise)."""
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: Optional[str] = None) -> Module:
    """Register on `to_module` the parametrizations of `from_module` (all, or those of `tensor_name`) and share
    their `original` tensors."""
    if is_parametrized(from_module):
        parameters_to_transfer: Union[list, ModuleDict] = (
            from_module.parametrizations if tensor_name is None else [tensor_name])
        for parameter_name in parameters_to_transfer:
            # Initialize the to-be-transferred param in to_module if it doesn't exist already.
            if not hasattr(to_module, parameter_name):
                setattr(to_module, parameter_name, Parameter(getattr(from_module, parameter_name).detach()))
            for param_func in from_module.parametrizations[parameter_name]:
                register_parametrization(to_module, parameter_name, param_func)
            # Share the originals.
            if hasattr(from_module.parametrizations[parameter_name], "original"):
                to_module.parametrizations[parameter_name].original = \
                    from_module.parametrizations[parameter_name].original
            else:
                num = 0
                orig_num = "original" + str(num)
                while hasattr(from_module.parametrizations[parameter_name], orig_num):
                    setattr(to_module.parametrizations[parameter_name], orig_num,
                            getattr(from_module.parametrizations[parameter_name], orig_num))
                    num = num + 1
                    orig_num = "original" + str(num)
    return to_module
