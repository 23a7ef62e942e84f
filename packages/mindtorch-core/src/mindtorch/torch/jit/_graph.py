"""Graph mode on mindtorch code: what MindSpore 2.10's compilers do with it (measured, CPU) and what mindtorch does.

Measured:
- AST capture (`@ms.jit`, `ms.set_context(mode=ms.GRAPH_MODE)`) sees a mindtorch Tensor as a plain
  `mindspore.Tensor` and resolves its methods to MindSpore's own: `x.transpose(0, 1)` returned x unchanged,
  `x.max(1)[0]` the global max, `x.size(0)` failed, `x[0] = 1` / `v = x[0]; v.add_(10)` did not reach the
  caller's tensor. The op table's dispatchers contain a `try` statement, which the AST compiler rejects.
- Bytecode capture (`ms.jit(fn, capture_mode="bytecode")`) honours the subclass on forward passes, but `x += 1`
  did not update the caller's tensor, and with `mindspore.value_and_grad` (the manual's train step) it crashed
  (IndexError in MindSpore's parser, "FindTryWithBlock", then a non-exception error).
- Trace capture (`capture_mode="trace"`) of the manual's forward_fn under value_and_grad gave PyNative's numbers
  for MLP, LeNet and LSTM but silently WRONG losses from step 2 on for ResNet18 (BatchNorm) and a
  TransformerEncoder: it freezes whatever the Python code computed outside MindSpore primitives.

So no capture mode compiles torch code correctly in general, and mindtorch never lets one compute a number:

- Eager fallback for the manual's two forms. Every AST-captured call passes through `_jit_call`
  (`_ms.install_jit_call_hook`, installed at import). A function called with a mindtorch Tensor argument, or whose
  compile fails on mindtorch code, runs eagerly (PyNative: the mode is switched for the call when GRAPH_MODE is
  set) with one WARNING per function on the `mindtorch` logger. The failure is detected before anything ran: the
  op table's module and this module are graph-forbidden (`_ms.forbid_module_in_graph`) and `nn.Module.construct`
  calls `eager_only_torch_forward`, so a torch-style Module or torch function reached by the compiler fails to
  compile, naming itself. Native MindSpore code (no mindtorch tensor arguments, no mindtorch calls) compiles and
  runs exactly as before: the hook returns MindSpore's own call.
- A torch-style Module called directly under GRAPH_MODE runs its forward eagerly (`call_module_eagerly`), also
  with one WARNING; MindSpore-style subclasses (defining `construct`) compile as cells.
- What stays a compile error: a MindSpore cell (defines `construct`) that holds a torch-style Module, under
  GRAPH_MODE (`Cell.__call__` compiles without passing the hook), names `eager_only_torch_forward`; and any
  `@ms.jit` call under AUTO_PARALLEL / SEMI_AUTO_PARALLEL (only a sharded graph is correct there).
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Optional

from .. import _ms
from .._logging import get_logger, warn_once

__all__ = ["GraphModeError", "GRAPH_FORBIDDEN_MODULES", "install_graph_guard", "call_module_eagerly",
           "eager_only_torch_forward", "ADVICE"]

log = get_logger("mindtorch.torch.jit")

# Modules whose functions carry torch semantics the AST compiler cannot reproduce: the dispatchers of every
# torch function / Tensor method live in _registry (their __module__); this module holds `eager_only_torch_forward`,
# which nn.Module.construct calls, so a torch-style Module reached by the AST compiler inside any graph (a submodule
# of a MindSpore cell, a module called in an @ms.jit function) fails to compile instead of losing torch semantics.
GRAPH_FORBIDDEN_MODULES = ("mindtorch.torch._ops._registry", __name__)

ADVICE = ("To silence this, call it without `@ms.jit` / GRAPH_MODE (PyNative is MindSpore's default) or set "
          "MSA_LOG=3. Graph compilation needs MindSpore-style code: a cell defining `construct` with "
          "mindspore.ops, called with mindspore.Tensor arguments.")


class GraphModeError(RuntimeError):
    """mindtorch code that MindSpore's graph compiler would compute with wrong semantics (kept for scripts that
    catch it; graph-mode entry points now fall back to eager execution instead of raising it)."""


def install_graph_guard() -> None:
    """Register the modules above with MindSpore's graph-forbidden list and the @ms.jit call hook (idempotent;
    called at import)."""
    for name in GRAPH_FORBIDDEN_MODULES:
        if not _ms.is_module_forbidden_in_graph(name):
            _ms.forbid_module_in_graph(name)
            log.debug("graph guard: %s forbidden in @ms.jit / GRAPH_MODE graphs", name)
    _ms.install_jit_call_hook(_jit_call)


def eager_only_torch_forward(module: Any, *args: Any, **kwargs: Any) -> Any:
    """The body of nn.Module.construct: `module.forward(*args, **kwargs)`, run by Python (PyNative).

    Its name is what MindSpore's AST compiler prints when it meets a torch-style Module in a graph ("Failed to
    compile in GRAPH_MODE because the method or function 'mindtorch.torch.jit._graph.eager_only_torch_forward' is
    not supported ..."): this module is graph-forbidden (see GRAPH_FORBIDDEN_MODULES)."""
    return module.forward(*args, **kwargs)


# ------------------------------------------------------------------------------------ the @ms.jit call hook
_Tensor: Any = None  # mindtorch.torch.Tensor, resolved on first use (nn imports this module before _tensor is set)
# Functions whose AST compile failed on mindtorch code: later calls skip the (failing) compile.
_EAGER: "weakref.WeakKeyDictionary[Callable, str]" = weakref.WeakKeyDictionary()


def _has_torch_tensor(obj: Any, depth: int = 0) -> bool:
    if isinstance(obj, _Tensor):
        return True
    if depth < 2:
        if isinstance(obj, (tuple, list)):
            return any(_has_torch_tensor(o, depth + 1) for o in obj)
        if isinstance(obj, dict):
            return any(_has_torch_tensor(o, depth + 1) for o in obj.values())
    return False


def _is_torch_code_error(e: BaseException) -> bool:
    """A compile error caused by mindtorch code: the forbidden-function error naming one of our functions, or a
    parse error inside a mindtorch file (both printed in the message)."""
    msg = str(e)
    return "mindtorch.torch." in msg or "/mindtorch/" in msg


def _graph_parallel() -> bool:
    """AUTO_PARALLEL / SEMI_AUTO_PARALLEL (the manual's §3.3): the step only makes sense as MindSpore's sharded
    graph, so mindtorch code there keeps failing to compile (naming the torch function) instead of running
    eagerly on one device's share without the strategy."""
    from mindspore import get_auto_parallel_context

    return get_auto_parallel_context("parallel_mode") in ("auto_parallel", "semi_auto_parallel")


def _describe(fn: Callable) -> str:
    """The user-facing name of a jitted function; GRAPH_MODE's value_and_grad wraps the user's in `after_grad`."""
    name = getattr(fn, "__qualname__", None) or repr(fn)
    code = getattr(fn, "__code__", None)
    if name.endswith("after_grad") and code is not None and "fn" in code.co_freevars and fn.__closure__:
        inner = fn.__closure__[code.co_freevars.index("fn")].cell_contents
        return f"mindspore.value_and_grad({getattr(inner, '__qualname__', inner)!s}) under GRAPH_MODE"
    return name


def _is_mindspore_code(fn: Callable) -> bool:
    """A function of MindSpore's own library (an optimizer's `construct`), not a closure MindSpore builds around the
    user's function (GRAPH_MODE's value_and_grad jits `...<locals>.after_grad`, which calls the user's code)."""
    module = getattr(fn, "__module__", None) or ""
    return (module == "mindspore" or module.startswith("mindspore.")) and \
        "<locals>" not in (getattr(fn, "__qualname__", "") or "")


def _run_eagerly(fn: Callable, args: tuple, kwargs: dict) -> Any:
    with _ms.pynative_mode():
        return fn(*args, **kwargs)


def _jit_call(fn: Callable, compiled: Callable[[], Any], args: tuple, kwargs: dict) -> Any:
    """`@ms.jit` (AST) call: MindSpore's compiled call for native code, eager execution for mindtorch code."""
    global _Tensor
    if fn in _EAGER:
        return _run_eagerly(fn, args, kwargs)
    if _Tensor is None:
        from .._tensor import Tensor as _Tensor
    reason: Optional[str] = None
    if _graph_parallel():  # eager would silently drop the parallel strategy: MindSpore's own compile decides
        return compiled()
    # MindSpore's own jitted library code (an optimizer's construct, ...) is compiled even when it is handed
    # mindtorch tensors: run eagerly, its in-place update kernels (SGD, ApplyMomentum) left mindtorch parameters
    # unchanged (measured).
    if not _is_mindspore_code(fn) and (_has_torch_tensor(args) or (kwargs and _has_torch_tensor(kwargs))):
        reason = ("it is called with mindtorch tensors, whose torch methods MindSpore's graph compiler would "
                  "replace by MindSpore's own (x.transpose(0, 1), x.max(dim), x.size(), in-place writes, views: "
                  "wrong numbers)")
    else:
        try:
            return compiled()
        except (RuntimeError, TypeError, ValueError, AttributeError, NameError) as e:
            if not _is_torch_code_error(e):
                raise
            first = next((ln.strip() for ln in str(e).splitlines() if ln.strip()), type(e).__name__)
            reason = f"MindSpore's graph compiler cannot compile its torch code ({first[:200]})"
            _EAGER[fn] = reason
    name = _describe(fn)
    warn_once(f"jit:{name}", f"{name} runs eagerly (PyNative), not as a compiled graph: {reason}. The results are "
              f"PyNative's. {ADVICE}", log)
    return _run_eagerly(fn, args, kwargs)


def call_module_eagerly(module: Any, args: tuple, kwargs: dict) -> Any:
    """A torch-style Module called under GRAPH_MODE: its forward, run eagerly in PyNative mode (one WARNING per
    class). Cell.__call__ would compile `construct`, i.e. the forward with MindSpore's Tensor semantics."""
    name = type(module).__name__
    warn_once(f"graph-module:{name}", f"{name} (a torch-style mindtorch nn.Module) runs eagerly (PyNative) under "
              "mindspore GRAPH_MODE, not as a compiled graph: MindSpore's graph compiler ignores mindtorch's Tensor "
              "class and would run MindSpore's own semantics for torch methods (x.transpose, x.max(dim), x.size(), "
              f"in-place writes...), giving wrong numbers. The results are PyNative's. {ADVICE}", log)
    from mindspore.nn import Cell

    from .._ops._registry import wrap

    with _ms.pynative_mode():
        if module._needs_cell_call():  # amp / requires_grad / cell hooks: MindSpore's Cell.__call__, in PyNative
            return wrap(Cell.__call__(module, *args, **kwargs))
        return module.forward(*args, **kwargs)


install_graph_guard()  # here, not in jit/__init__: nn.Module imports this module before torch.jit is complete
