"""torch.jit on mindtorch: TorchScript entry points, `@ms.jit` and GRAPH_MODE run torch code eagerly, never wrong.

See `_graph.py` for the measured behaviour of MindSpore's compilers on mindtorch code, `_script.py` for the API.
"""
from ._graph import GraphModeError, install_graph_guard  # noqa: F401
from ._script import (  # noqa: F401
    Attribute,
    Final,
    Future,
    ScriptFunction,
    ScriptModule,
    TracerWarning,
    _overload,
    _overload_method,
    annotate,
    compile,
    export,
    fork,
    freeze,
    ignore,
    interface,
    is_scripting,
    is_tracing,
    load,
    optimize_for_inference,
    save,
    script,
    trace,
    trace_module,
    unused,
    wait,
)
from ._script import (
    jit_isinstance as isinstance,  # noqa: A004 - torch.jit.isinstance
)

__all__ = [
    "GraphModeError", "script", "trace", "trace_module", "compile", "freeze", "optimize_for_inference", "ignore",
    "unused", "export", "interface", "is_scripting", "is_tracing", "annotate", "isinstance", "Final", "Attribute",
    "ScriptModule", "ScriptFunction", "TracerWarning", "save", "load", "fork", "wait", "Future",
]
