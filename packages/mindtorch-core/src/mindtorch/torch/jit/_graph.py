"""What MindSpore's graph compilers can and cannot do with mindtorch code (measured on MindSpore 2.10, CPU).

- AST capture (`@ms.jit`, `ms.set_context(mode=ms.GRAPH_MODE)`) sees a mindtorch Tensor as a plain
  `mindspore.Tensor`: torch semantics of overridden methods are lost (`x.transpose(0, 1)` returned x unchanged,
  `x.max(1)[0]` returned the global max, `x.size()` failed, `x[0] = 1` / `v = x[0]; v.add_(10)` did not reach the
  caller's tensor). The op table's dispatchers contain a `try` statement, which the AST compiler rejects
  ("Unsupported statement 'Try'"), so any torch function or nn layer already failed to compile.
- So that failure names the op instead, the op table's module is put on MindSpore's list of graph-forbidden
  modules at import ("Failed to compile in GRAPH_MODE because the method or function
  'mindtorch.torch._ops._registry.linear' is not supported ..."); nn.Module.construct runs forward through
  `eager_only_torch_forward` (this module, also forbidden), so a torch-style Module reached by the AST compiler
  anywhere fails to compile; and a torch-style Module called under GRAPH_MODE raises `GraphModeError` first.
- Bytecode capture (`ms.jit(fn, capture_mode="bytecode")`) honours the subclass and gave PyNative's numbers for
  forward passes, but `x += 1` did not update the caller's tensor and a train step with value_and_grad inside
  crashed (IndexError in MindSpore's parser, bad_alloc, segfault). `torch.jit.*` / `torch.compile` therefore run
  eagerly (see `_script.py`).
"""
from __future__ import annotations

from typing import Any

from .. import _ms
from .._logging import get_logger

__all__ = ["GraphModeError", "GRAPH_FORBIDDEN_MODULES", "install_graph_guard", "check_module_graph_call",
           "eager_only_torch_forward"]

log = get_logger("mindtorch.torch.jit")

# Modules whose functions carry torch semantics the AST compiler cannot reproduce: the dispatchers of every
# torch function / Tensor method live in _registry (their __module__); this module holds `eager_only_torch_forward`,
# which nn.Module.construct calls, so a torch-style Module reached by the AST compiler inside any graph (a submodule
# of a MindSpore cell, a module called in an @ms.jit function) fails to compile instead of losing torch semantics.
GRAPH_FORBIDDEN_MODULES = ("mindtorch.torch._ops._registry", __name__)

ADVICE = ("Run it in PyNative mode (MindSpore's default, `ms.set_context(mode=ms.PYNATIVE_MODE)`) without "
          "`@ms.jit`; mindtorch's torch.jit.script/trace and torch.compile run eagerly. In-place ops are not "
          "supported in graph mode anyway: write `x = x.add(1)` instead of `x.add_(1)` / `x += 1`.")


class GraphModeError(RuntimeError):
    """mindtorch code reached MindSpore's AST graph compiler, which would compute it with wrong semantics."""


def install_graph_guard() -> None:
    """Register the modules above with MindSpore's graph-forbidden list (idempotent; called at import)."""
    for name in GRAPH_FORBIDDEN_MODULES:
        if not _ms.is_module_forbidden_in_graph(name):
            _ms.forbid_module_in_graph(name)
            log.debug("graph guard: %s forbidden in @ms.jit / GRAPH_MODE graphs", name)


def check_module_graph_call(module: Any) -> None:
    """Raise GraphModeError for a torch-style Module (one that defines `forward`) called under GRAPH_MODE.

    MindSpore-style subclasses (defining `construct` with MindSpore ops) compile as MindSpore cells and pass."""
    from ..nn.modules.module import Module

    if type(module).construct is Module.construct:
        msg = (f"{type(module).__name__} (a torch-style mindtorch nn.Module) cannot run under "
               "mindspore GRAPH_MODE: MindSpore's graph compiler ignores mindtorch's Tensor class and would run "
               "MindSpore's own semantics for torch methods (x.transpose, x.max(dim), x.size(), in-place "
               f"writes...), giving wrong numbers. {ADVICE}")
        log.error(msg)
        raise GraphModeError(msg)


def eager_only_torch_forward(module: Any, *args: Any, **kwargs: Any) -> Any:
    """The body of nn.Module.construct: `module.forward(*args, **kwargs)`, run by Python (PyNative).

    Its name is what MindSpore's AST compiler prints when it meets a torch-style Module in a graph ("Failed to
    compile in GRAPH_MODE because the method or function 'mindtorch.torch.jit._graph.eager_only_torch_forward' is
    not supported ..."): this module is graph-forbidden (see GRAPH_FORBIDDEN_MODULES)."""
    return module.forward(*args, **kwargs)


install_graph_guard()  # here, not in jit/__init__: nn.Module imports this module before torch.jit is complete
