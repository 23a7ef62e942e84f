"""torch.overrides: the `__torch_function__` protocol helpers of torch 1.12.

mindtorch's op table does not route its own functions through `__torch_function__`; these helpers give library
code (which calls `has_torch_function(args)` / `handle_torch_function(...)` around its Python functions, as
torch.nn.functional does) torch's answers: plain tensors and Parameters have no override, a Tensor subclass
inherits `Tensor.__torch_function__` (which simply calls the function), and any class defining
`__torch_function__` gets its override called, subclasses before their bases.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Iterable, List, Set

__all__ = [
    "get_ignored_functions", "get_overridable_functions", "get_testing_overrides", "handle_torch_function",
    "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic", "is_tensor_like",
    "is_tensor_method_or_property", "wrap_torch_function",
]


def _disabled_torch_function_impl(func: Callable, types: Any, args: Any = (), kwargs: Any = None) -> Any:
    """What nn.Parameter's (and torch._C's) `__torch_function__` is: calling it means 'no override'."""
    return func(*args, **(kwargs or {}))


# types that never override, answered without a lookup (F.has_torch_function runs on every call of library code)
_BUILTIN_TYPES = frozenset((int, float, bool, complex, str, type(None), list, tuple, dict))


@functools.lru_cache(maxsize=None)
def _plain_types() -> tuple:
    from ._tensor import Tensor
    from .nn.parameter import Parameter

    return (Tensor, Parameter)


def _has_override(obj: Any) -> bool:
    tp = type(obj)
    if tp in _BUILTIN_TYPES or tp in _plain_types():
        return False
    impl = getattr(tp, "__torch_function__", None)
    if impl is None:
        return False
    return getattr(impl, "__func__", impl) is not _disabled_torch_function_impl


def has_torch_function(relevant_args: Iterable[Any]) -> bool:
    """Whether any of `relevant_args` has a `__torch_function__` override (exact Tensor/Parameter do not)."""
    return any(_has_override(a) for a in relevant_args)


def has_torch_function_unary(obj: Any) -> bool:
    return _has_override(obj)


def has_torch_function_variadic(*args: Any) -> bool:
    return has_torch_function(args)


def _get_overloaded_args(relevant_args: Iterable[Any]) -> List[Any]:
    """The arguments with an override, one per type, a subclass before its base class (torch's order)."""
    types: List[type] = []
    args: List[Any] = []
    for arg in relevant_args:
        tp = type(arg)
        if tp in types or not _has_override(arg):
            continue
        index = len(args)
        for i, old in enumerate(args):
            if issubclass(tp, type(old)):
                index = i
                break
        types.append(tp)
        args.insert(index, arg)
    return args


def handle_torch_function(public_api: Callable, relevant_args: Iterable[Any], *args: Any, **kwargs: Any) -> Any:
    """Call the `__torch_function__` overrides of `relevant_args` in torch's order until one does not return
    NotImplemented; TypeError if all do (torch's message)."""
    overloaded = _get_overloaded_args(relevant_args)
    types = tuple(type(a) for a in overloaded)
    for arg in overloaded:
        result = type(arg).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    func_name = f"{public_api.__module__}.{public_api.__name__}"
    raise TypeError(f"no implementation found for '{func_name}' on types that implement __torch_function__: "
                    f"{[type(arg) for arg in overloaded]}")


def is_tensor_like(inp: Any) -> bool:
    """True for a Tensor (or subclass) and for any object whose type defines `__torch_function__`."""
    from ._tensor import Tensor

    return type(inp) is Tensor or hasattr(type(inp), "__torch_function__")


def is_tensor_method_or_property(func: Callable) -> bool:
    """Whether `func` is a method of Tensor (`Tensor.add`) or a property getter's `__get__` (torch's test)."""
    from ._tensor import Tensor

    name = getattr(func, "__name__", None)
    return name == "__get__" or (name is not None and getattr(Tensor, name, None) is func)


def wrap_torch_function(dispatcher: Callable) -> Callable:
    """Decorator: the wrapped function goes through `handle_torch_function` when `dispatcher(*args, **kwargs)`
    (the relevant arguments) contains an override."""
    def inner(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


def _namespaces() -> Dict[str, Any]:
    from . import fft, linalg, special
    from .nn import functional as F

    return {"torch": __import__("mindtorch.torch", fromlist=["_"]), "torch.nn.functional": F,
            "torch.linalg": linalg, "torch.fft": fft, "torch.special": special}


def get_ignored_functions() -> Set[Callable]:
    """Public functions that cannot be overridden by `__torch_function__` (those taking no tensor argument:
    factories, settings, predicates on types), as far as mindtorch provides them."""
    import mindtorch.torch as torch

    names = ("typename", "is_tensor", "is_storage", "set_default_tensor_type", "set_rng_state", "get_rng_state",
             "manual_seed", "initial_seed", "seed", "save", "load", "set_printoptions", "compiled_with_cxx11_abi",
             "set_warn_always", "is_warn_always_enabled", "get_default_dtype", "set_default_dtype", "promote_types",
             "can_cast", "result_type", "set_grad_enabled", "is_grad_enabled", "is_inference_mode_enabled",
             "arange", "range", "linspace", "logspace", "zeros", "ones", "empty", "empty_strided", "eye", "full",
             "rand", "randn", "randint", "randperm", "tensor", "as_tensor", "from_numpy", "frombuffer",
             "scalar_tensor", "tril_indices", "triu_indices", "hann_window", "hamming_window", "bartlett_window",
             "blackman_window", "kaiser_window", "get_num_threads", "set_num_threads", "get_num_interop_threads",
             "set_num_interop_threads", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
             "set_autocast_enabled", "is_autocast_enabled", "set_autocast_cpu_enabled", "is_autocast_cpu_enabled",
             "set_autocast_cpu_dtype", "get_autocast_cpu_dtype", "set_autocast_gpu_dtype",
             "get_autocast_gpu_dtype", "autocast_increment_nesting", "autocast_decrement_nesting",
             "clear_autocast_cache", "broadcast_shapes", "set_flush_denormal", "get_device")
    return {getattr(torch, n) for n in names if hasattr(torch, n)}


def get_overridable_functions() -> Dict[Any, List[Callable]]:
    """{namespace: [its public functions that take tensors]} (Tensor's methods under torch.Tensor)."""
    from ._tensor import Tensor

    ignored = get_ignored_functions()
    out: Dict[Any, List[Callable]] = {}
    for ns_name, ns in _namespaces().items():
        funcs = []
        for name in dir(ns):
            if name.startswith("_"):
                continue
            f = getattr(ns, name, None)
            if callable(f) and not isinstance(f, type) and f not in ignored and type(f).__name__ != "module":
                funcs.append(f)
        out[ns] = funcs
    out[Tensor] = [getattr(Tensor, n) for n in dir(Tensor) if not n.startswith("_")
                   and callable(getattr(Tensor, n, None))]
    return out


def get_testing_overrides() -> Dict[Callable, Callable]:
    """{overridable function: a dummy with a compatible signature returning -1}: for testing a
    `__torch_function__` implementation against every function (torch's helper for the same)."""
    out: Dict[Callable, Callable] = {}
    for funcs in get_overridable_functions().values():
        for f in funcs:
            out[f] = lambda *args, **kwargs: -1
    return out
