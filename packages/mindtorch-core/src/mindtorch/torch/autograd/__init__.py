"""torch.autograd on MindSpore's C++ tape (see DESIGN.md §3).

`backward` and `grad` drive MindSpore's own engine (`_ms.run_backward`); the same tape serves
`mindspore.value_and_grad`, so both training styles of the manual can be mixed in one process.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import mindspore as ms
from mindspore import ops

from .. import _ms
from .._grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from . import functional, grad_mode, graph, profiler  # noqa: F401  (torch.autograd.profiler without an import)
from ._tensor_mixin import _as_torch
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401

try:  # `Variable` lives in variable.py (owned by the ops work); absent until that file exists.
    from .variable import Variable  # noqa: F401
except ImportError:  # pragma: no cover
    pass

__all__ = ["backward", "grad", "Function", "once_differentiable", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "detect_anomaly", "set_detect_anomaly", "functional"]

_MsTensor = ms.Tensor
_TWICE = ("Trying to backward through the graph a second time (or directly access saved tensors after they have "
          "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
          "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
          "if you need to access saved tensors after calling backward.")

# The tape records only while the executor's grad flag is on: switch it on when torch is imported.
_ms.enable_grad_recording()
_ms.guard_value_and_grad_inputs()

def _tensor_tuple(x: Any) -> Tuple[Any, ...]:
    if isinstance(x, _MsTensor):
        return (x,)
    return tuple(x)

def _make_grads(outputs: Tuple[Any, ...], grads: Sequence[Any]) -> Tuple[Any, ...]:
    """torch's checks on (output, grad_output) pairs; returns all-tensor grads or () for 'all ones'."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(grads)} tensors and {len(outputs)} gradients")
    out = []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if not t._requires_grad:
            hint = "" if _ms.grad_flag() else (
                " (MindSpore's tape was not recording: mindspore.value_and_grad switches it off when it returns; "
                "calling a Module, requires_grad_() or an optimizer step switches it back on)")
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn{hint}")
        if g is None:
            n = 1
            for s in _MsTensor.shape.fget(t):
                n *= s
            if n != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            out.append(None)
            continue
        if not isinstance(g, _MsTensor):
            g = _MsTensor(g, dtype=t.dtype)
        ts, gs = tuple(_MsTensor.shape.fget(t)), tuple(_MsTensor.shape.fget(g))
        if ts != gs:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(gs)}) and output[{i}] has a "
                f"shape of torch.Size({list(ts)}).")
        out.append(g)
    if all(g is None for g in out):
        return ()
    return tuple(ops.ones_like(t) if g is None else g for t, g in zip(outputs, out))

def _run(outputs: Tuple[Any, ...], grads: Tuple[Any, ...], retain_graph: bool, create_graph: bool,
         inputs: Tuple[Any, ...], accumulate: bool) -> Any:
    try:
        return _ms.run_backward(outputs, grads, retain_graph, create_graph, inputs, accumulate_grad=accumulate)
    except RuntimeError as e:
        msg = str(e)
        if "backward the graph twice" in msg:
            raise RuntimeError(_TWICE) from None
        if "modified by an inplace operation" in msg:
            first = msg.strip().splitlines()[0]
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"{first}. Hint: the operation that failed to compute its gradient was recorded before the "
                "in-place change; use an out-of-place op (x = x.op()) instead.") from None
        raise

def backward(tensors: Any, grad_tensors: Any = None, retain_graph: Optional[bool] = None,
             create_graph: bool = False, grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate the gradients of `tensors` into the `.grad` of the graph's leaves (or of `inputs`)."""
    if grad_variables is not None:
        grad_tensors = grad_variables
    outputs = _tensor_tuple(tensors)
    if grad_tensors is None:
        grad_tensors = (None,) * len(outputs)
    elif isinstance(grad_tensors, _MsTensor):
        grad_tensors = (grad_tensors,)
    grads = _make_grads(outputs, tuple(grad_tensors))
    if retain_graph is None:
        retain_graph = create_graph
    ins: Tuple[Any, ...] = ()
    if inputs is not None:
        ins = _tensor_tuple(inputs)
        if not ins:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    _run(outputs, grads, retain_graph, create_graph, ins, True)

def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: Optional[bool] = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool = False,
         is_grads_batched: bool = False) -> Tuple[Any, ...]:
    """The gradients of `outputs` w.r.t. `inputs` (returned, not accumulated into `.grad`)."""
    if is_grads_batched:
        raise NotImplementedError(
            "torch.autograd.grad(is_grads_batched=True) is not supported on MindSpore: loop over the batch of "
            "grad_outputs instead")
    outs = _tensor_tuple(outputs)
    ins = _tensor_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = (None,) * len(outs)
    elif isinstance(grad_outputs, _MsTensor):
        grad_outputs = (grad_outputs,)
    grads = _make_grads(outs, tuple(grad_outputs))
    for t in ins:
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    if len(ins) > 1 and any(not t._is_leaf for t in ins):
        # Measured on MindSpore 2.10: with a non-leaf among several inputs the engine stops at it and returns
        # None for the inputs behind it, so take the inputs one at a time on a kept graph.
        res = []
        for k, t in enumerate(ins):
            keep = retain_graph if k == len(ins) - 1 else True
            res.append(_run(outs, grads, keep, create_graph, (t,), False)[0])
        res = tuple(res)
    else:
        res = tuple(_run(outs, grads, retain_graph, create_graph, ins, False))
    if not allow_unused and any(r is None for r in res):
        raise RuntimeError("One of the differentiated Tensors appears to not have been used in the graph. Set "
                           "allow_unused=True if this is the desired behavior.")
    return tuple(None if r is None else _as_torch(r) for r in res)
