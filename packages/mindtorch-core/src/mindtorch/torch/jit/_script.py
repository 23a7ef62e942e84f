"""torch.jit.script / trace / torch.compile on mindtorch: run eagerly, say so once.

No MindSpore 2.10 capture mode compiles mindtorch code correctly in every case (measured, see `_graph.py`):
AST capture loses torch semantics, bytecode capture mishandles in-place ops on inputs and crashed on a train
step, trace capture froze BatchNorm / TransformerEncoder steps into wrong losses. So these map to the same eager
route as `@ms.jit` / GRAPH_MODE on torch code: a documented eager run never gives a wrong number; the returned
object is the argument itself, so calling it, its parameters, state_dict and hooks behave exactly as in eager
PyTorch.
"""
from __future__ import annotations

import functools
import typing
from typing import Any, Callable, Optional, TypeVar

from .._logging import get_logger, warn_once
from ..futures import Future  # torch.jit.Future is torch.futures.Future

__all__ = [
    "script", "trace", "trace_module", "compile", "freeze", "optimize_for_inference", "ignore", "unused", "export",
    "interface", "is_scripting", "is_tracing", "annotate", "Final", "Attribute", "ScriptModule", "ScriptFunction",
    "TracerWarning", "save", "load", "fork", "wait", "Future", "_overload", "_overload_method", "jit_isinstance",
]

log = get_logger("mindtorch.torch.jit")
F = TypeVar("F", bound=Callable[..., Any])

_FALLBACK = ("{api}: mindtorch runs {what} eagerly (PyNative). MindSpore's graph compilers cannot compile "
             "mindtorch code correctly (torch Tensor semantics are lost under @ms.jit / GRAPH_MODE), so no graph "
             "is built; results are the eager ones. Set MSA_LOG=3 to silence this message.")


def _name(obj: Any) -> str:
    return getattr(obj, "__qualname__", None) or type(obj).__name__


def script(obj: Any, optimize: Any = None, _frames_up: int = 0, _rcb: Any = None,
           example_inputs: Any = None) -> Any:
    """torch.jit.script: returns `obj` (a Module, function or class) unchanged, to be run eagerly."""
    warn_once("script", _FALLBACK.format(api="torch.jit.script", what=_name(obj)), log)
    return obj


def trace(func: Any, example_inputs: Any = None, optimize: Any = None, check_trace: bool = True,
          check_inputs: Any = None, check_tolerance: float = 1e-5, strict: bool = True,
          _force_outplace: bool = False, _module_class: Any = None, _compilation_unit: Any = None,
          example_kwarg_inputs: Any = None) -> Any:
    """torch.jit.trace: returns `func` unchanged, to be run eagerly (a trace would freeze Python control flow;
    eager keeps it, which is what a correct trace of the same inputs computes)."""
    warn_once("trace", _FALLBACK.format(api="torch.jit.trace", what=_name(func)), log)
    return func


def trace_module(mod: Any, inputs: Any = None, *args: Any, **kwargs: Any) -> Any:
    """torch.jit.trace_module: returns `mod` unchanged, run eagerly."""
    warn_once("trace", _FALLBACK.format(api="torch.jit.trace_module", what=_name(mod)), log)
    return mod


def compile(model: Optional[Callable] = None, *, fullgraph: bool = False, dynamic: Any = None,  # noqa: A001
            backend: Any = "inductor", mode: Optional[str] = None, options: Optional[dict] = None,
            disable: bool = False) -> Any:
    """torch.compile (torch 2.x; offered because scripts call it): returns `model` unchanged, run eagerly.
    Usable as `torch.compile(model)`, `@torch.compile` and `@torch.compile(mode=...)`."""
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                 options=options, disable=disable)
    if not disable:
        warn_once("compile", _FALLBACK.format(api="torch.compile", what=_name(model)), log)
    return model


def freeze(mod: Any, preserved_attrs: Any = None, optimize_numerics: bool = True) -> Any:
    """torch.jit.freeze: the module unchanged (nothing to freeze without a graph)."""
    return mod


def optimize_for_inference(mod: Any, other_methods: Any = None) -> Any:
    """torch.jit.optimize_for_inference: the module unchanged."""
    return mod


# ---------------------------------------------------------------------------------- decorators torch code uses
def ignore(drop: Any = False, **kwargs: Any) -> Any:
    """@torch.jit.ignore / @torch.jit.ignore(drop=True): the function unchanged."""
    if callable(drop):  # used bare: @ignore
        return drop
    return lambda fn: fn


def unused(fn: F) -> F:
    """@torch.jit.unused: the function unchanged."""
    return fn


def export(fn: F) -> F:
    """@torch.jit.export: the function unchanged."""
    return fn


def interface(obj: F) -> F:
    """@torch.jit.interface: the class unchanged."""
    return obj


def _overload(fn: F) -> F:
    return fn


def _overload_method(fn: F) -> F:
    return fn


def is_scripting() -> bool:
    """False: mindtorch code always runs eagerly."""
    return False


def is_tracing() -> bool:
    """False: mindtorch code always runs eagerly."""
    return False


def annotate(the_type: Any, the_value: Any) -> Any:
    """torch.jit.annotate: returns the value."""
    return the_value


def jit_isinstance(obj: Any, target_type: Any) -> bool:
    """torch.jit.isinstance: a runtime check of containers' element types (List[int], Dict[str, Tensor]...)."""
    origin = typing.get_origin(target_type)
    if origin is None:
        return isinstance(obj, target_type)
    args = typing.get_args(target_type)
    if origin is typing.Union:
        return any(jit_isinstance(obj, a) for a in args)
    if not isinstance(obj, origin):
        return False
    if origin in (list, set, frozenset) and args:
        return all(jit_isinstance(x, args[0]) for x in obj)
    if origin is tuple and args:
        return len(obj) == len(args) and all(jit_isinstance(x, a) for x, a in zip(obj, args))
    if origin is dict and args:
        return all(jit_isinstance(k, args[0]) and jit_isinstance(v, args[1]) for k, v in obj.items())
    return True


Final = typing.Final


class Attribute:
    """torch.jit.Attribute(value, type): in eager code, just the value."""

    def __new__(cls, value: Any, type: Any = None) -> Any:  # noqa: A002
        return value


class ScriptModule:
    """torch.jit.ScriptModule: nothing mindtorch returns is one (script/trace return eager objects), so
    `isinstance(m, torch.jit.ScriptModule)` is False as for an unscripted module."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("torch.jit.ScriptModule cannot be built in mindtorch: no TorchScript. Use a "
                                  "plain nn.Module (torch.jit.script(module) returns the module itself).")


class ScriptFunction:
    """torch.jit.ScriptFunction: see ScriptModule."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("torch.jit.ScriptFunction cannot be built in mindtorch: no TorchScript.")


class TracerWarning(Warning):
    """torch.jit.TracerWarning (kept for `warnings.filterwarnings(..., category=TracerWarning)`)."""


def save(m: Any, f: Any, _extra_files: Any = None) -> None:
    """torch.jit.save: no TorchScript archive format in mindtorch."""
    raise NotImplementedError("torch.jit.save is not supported by mindtorch (no TorchScript). Save the weights "
                              "with torch.save(model.state_dict(), path) and rebuild the model in Python.")


def load(f: Any, map_location: Any = None, _extra_files: Any = None) -> Any:
    """torch.jit.load: no TorchScript archive format in mindtorch."""
    raise NotImplementedError("torch.jit.load is not supported by mindtorch (no TorchScript). Load a state_dict "
                              "with torch.load(path) into the model built in Python.")


def fork(func: Callable, *args: Any, **kwargs: Any) -> Future:
    """torch.jit.fork: runs `func` now and returns a completed Future."""
    return Future.completed(func(*args, **kwargs))


def wait(future: Future) -> Any:
    """torch.jit.wait: the future's value."""
    return future.wait()
