"""torch.autograd on MindSpore's C++ tape (see DESIGN.md §3).

`backward` and `grad` drive MindSpore's own engine (`_ms.run_backward`); the same tape serves
`mindspore.value_and_grad`, so both training styles of the manual can be mixed in one process.
"""
from __future__ import annotations

import functools
import weakref
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
from . import anomaly_mode, forward_ad, functional, grad_mode, graph, profiler  # noqa: F401  (torch.autograd.profiler without an import)
from ._tensor_mixin import BACKWARD_PASS, _as_torch
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck  # noqa: F401,E402  (the functions shadow the module, as in torch)

try:  # `Variable` lives in variable.py (owned by the ops work); absent until that file exists.
    from .variable import Variable  # noqa: F401
except ImportError:  # pragma: no cover
    pass

__all__ = ["backward", "grad", "Function", "once_differentiable", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "detect_anomaly", "set_detect_anomaly", "functional", "gradcheck",
           "gradgradcheck"]

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


def _graph_nodes(outputs: Tuple[Any, ...]) -> list:
    """The backward nodes reachable from `outputs` (leaf accumulators excluded), each once."""
    seen, nodes = set(), []
    stack = []
    for t in outputs:
        try:
            stack.append(_ms.grad_node(t))
        except RuntimeError:  # a freed custom-function graph: the backward itself reports it
            pass
    while stack:
        node = stack.pop()
        if node is None:
            continue
        uid = node._unique_id()
        if uid in seen:
            continue
        seen.add(uid)
        if node.is_leaf():
            continue
        nodes.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return nodes


# Why create_graph=True installs a post-hook on every node (`_install_hooks`):
#
#     Measured on MindSpore 2.10 (CPU): when a node's backward RETURNS a view (Reshape/Squeeze/ExpandDims/transpose
#     backwards return reshaped/permuted views of their incoming gradient), the engine passes it on without its
#     autograd history, so everything upstream of `(x * w).reshape(n)` or `x.view(...)` silently loses its
#     second-order terms (half the Hessian of `(h.reshape(n) ** 2).sum()`). A post-hook on every node that copies
#     its gradients with a recorded `add(g, 0)` keeps the history; some node kinds need their own hook
#     (`_SECOND_ORDER_HOOKS`). Only installed for create_graph=True: plain backward pays nothing.
def _owned_grads(grad_inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
    return tuple(None if g is None else ops.add(g, 0) for g in grad_inputs)


def _kept_shapes(in_shape: Tuple[int, ...], out_shape: Tuple[int, ...]) -> list:
    """Every keepdim=True shape of a reduction of `in_shape` whose keepdim=False result is `out_shape`."""
    if not out_shape:
        return [(1,) * len(in_shape)]
    res = []

    def walk(i: int, j: int, acc: Tuple[int, ...]) -> None:
        if j == len(out_shape):
            res.append(acc + (1,) * (len(in_shape) - i))
            return
        if len(in_shape) - i < len(out_shape) - j:
            return
        if in_shape[i] == out_shape[j]:
            walk(i + 1, j + 1, acc + (in_shape[i],))
        walk(i + 1, j, acc + (1,))

    walk(0, 0, ())
    return res


def _reduction_grads(mean: bool) -> Any:
    """Post-hook for SumExt/MeanExt nodes with keepdim=False: MindSpore 2.10's backward of these hands on a gradient
    without autograd history (so `(x.sum(1) ** 2)` has no second derivative, `x.norm(dim=1)` a wrong one).
    Rebuild it from the node's incoming gradient with recorded ops: broadcast(reshape(dout, kept shape))."""
    def hook(grad_inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
        gi, go = grad_inputs[0], grad_outputs[0]
        if gi is None or go is None:
            return _owned_grads(grad_inputs, grad_outputs)
        in_shape, out_shape = tuple(gi.shape), tuple(go.shape)
        if len(in_shape) == len(out_shape):  # keepdim=True: MindSpore's backward records correctly
            return _owned_grads(grad_inputs, grad_outputs)
        best = None
        candidates = _kept_shapes(in_shape, out_shape)
        for kept in candidates:
            g = ops.broadcast_to(ops.reshape(go, kept), in_shape)
            if mean:
                n = 1
                for a, b in zip(in_shape, kept):
                    n *= a // b
                g = g / n
            if best is None:
                best = g
            # several reductions fit the shapes (e.g. (2, 2) -> (2,)): the engine's own (history-less) value
            # tells which one ran
            if len(candidates) > 1 and bool(ops.isclose(g, gi).all()):
                best = g
                break
        return (ops.add(best, 0),) + tuple(None if g is None else ops.add(g, 0) for g in grad_inputs[1:])
    return hook


class _NoDoubleBackward(Function):
    """Identity on a gradient computed by a MindSpore backward that cannot itself be differentiated correctly;
    differentiating through it raises, naming the op, instead of a wrong or cryptic result."""

    @staticmethod
    def forward(ctx: Any, grad: Any, op: str) -> Any:
        ctx.op = op
        return grad * 1

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise NotImplementedError(_NO_DOUBLE_BACKWARD[ctx.op])


# MindSpore 2.10 nodes whose backward has no correct derivative (measured on CPU): its own error is cryptic
# ("LogSoftmaxGrad's bprop not defined", "The pointer[value] is null") or, worse, the second-order result is wrong.
_NO_DOUBLE_BACKWARD = {
    "LogSoftmax": "log_softmax/softmax",
    "SparseSoftmaxCrossEntropyWithLogits": "cross_entropy (mean reduction, class-index targets)",
    "NLLLoss": "nll_loss (mean reduction)",
    "GatherD": "the values of sort/topk/kthvalue/median (an internal gather)",
    "MaskedSelect": "masked_select",
    "Slice": "a slice taken with MindSpore's legacy Slice op",
}
_NO_DOUBLE_BACKWARD = {
    k: (f"mindtorch: differentiating the gradient of {v} (MindSpore 2.10's {k}) is not supported: its backward has "
        "no derivative on MindSpore. Way out: write the op from differentiable pieces in the function you "
        "differentiate twice, e.g. log_softmax(x, d) as x - x.logsumexp(d, keepdim=True), softmax as its exp(), "
        "cross_entropy/nll_loss as -(logp * F.one_hot(target, C)).sum(1).mean(), a sort/topk value as a gather.")
    for k, v in _NO_DOUBLE_BACKWARD.items()}


# Ops whose MindSpore node cannot be differentiated again but whose backward is easy to rebuild from recorded ops,
# given tensors of the forward: the op stores them on its output (`remember_for_double_backward`), found here by
# (node id, sequence number) through a weak reference, so nothing outlives the output. When the output is gone
# (an intermediate nobody holds), the node keeps the refusing hook: an error, never a wrong number.
_REMEMBERED: dict = {}


def remember_for_double_backward(out: Any, *data: Any) -> None:
    """Keep `data` (tensors/ints of the forward) for rebuilding the backward of `out`'s node under create_graph.

    Called by log_softmax (data: dim) and the fused cross_entropy (data: logits, target). ~3 us per call, only
    while autograd records."""
    if not out._requires_grad:
        return
    node = _ms.grad_node(out)
    if node is None:
        return
    out.__dict__["_mt_double_backward"] = data
    key = (node._unique_id(), node._sequence_nr())
    _REMEMBERED[key] = weakref.ref(out, functools.partial(_forget, key))


def _forget(key: Any, ref: Any, table: dict = _REMEMBERED) -> None:
    """The weak reference's callback: `out` is gone, drop its entry (unless a newer one took the key). Keeps
    `_REMEMBERED` to the live outputs without a scan per call (a loop of many log_softmax outputs kept alive)."""
    if table.get(key) is ref:  # (the table bound here: module globals may be gone at interpreter exit)
        del table[key]


def _remembered(node: Any) -> Any:
    ref = _REMEMBERED.get((node._unique_id(), node._sequence_nr()))
    out = None if ref is None else ref()
    return None if out is None else (out, *out.__dict__["_mt_double_backward"])


def _exp(x: Any) -> Any:
    """The op table's exp (accurate on CPU, where MindSpore's own float kernel is 2e-5 off relative)."""
    from .._ops._registry import kernel

    return kernel("exp")(x)


def _log_softmax_grads(out: Any, dim: int) -> Any:
    """d log_softmax: g - exp(out) * sum(g, dim), with out the (recorded) forward output."""
    def hook(grad_inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
        g = grad_outputs[0]
        gi = ops.sub(g, ops.mul(_exp(out), ops.sum(g, dim, keepdim=True)))
        return (gi,) + _owned_grads(grad_inputs[1:], grad_outputs)
    return hook


def _sparse_ce_grads(logits: Any, target: Any) -> Any:
    """d mean(-log_softmax(logits)[target]) / d logits = (softmax(logits) - onehot(target)) / N, recorded."""
    def hook(grad_inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
        n, c = tuple(_MsTensor.shape.fget(logits))
        p = _exp(ops.log_softmax(logits, 1))
        onehot = ops.one_hot(ops.cast(target, ms.int32), c, ms.Tensor(1, logits.dtype), ms.Tensor(0, logits.dtype))
        gi = ops.mul(ops.sub(p, onehot), ops.div(grad_outputs[0], n))
        return (gi,) + _owned_grads(grad_inputs[1:], grad_outputs)
    return hook


def _rebuilt_hook(node: Any) -> Any:
    """The node's own rebuilt backward when its forward tensors were remembered, else None."""
    found = _remembered(node)
    if found is None:
        return None
    name = node.name()
    if name == "LogSoftmax":
        out, dim = found
        return _log_softmax_grads(out, dim)
    if name == "SparseSoftmaxCrossEntropyWithLogits":
        _, logits, target = found
        return _sparse_ce_grads(logits, target)
    return None


def _refuse_double_backward(op: str) -> Any:
    def hook(grad_inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
        return tuple(None if g is None else _NoDoubleBackward.apply(g, op) for g in grad_inputs)
    return hook


_REBUILDABLE = frozenset({"LogSoftmax", "SparseSoftmaxCrossEntropyWithLogits"})
_SECOND_ORDER_HOOKS = {**{k: _refuse_double_backward(k) for k in _NO_DOUBLE_BACKWARD},
                       "SumExt": _reduction_grads(False), "ReduceSum": _reduction_grads(False),
                       "MeanExt": _reduction_grads(True), "ReduceMean": _reduction_grads(True)}


def _nan_check(name: str, hook: Any) -> Any:
    """detect_anomaly's check: a node whose backward returns NaN raises torch's error naming it."""
    def check(grad_inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...]) -> Any:
        res = hook(grad_inputs, grad_outputs) if hook is not None else None
        for i, g in enumerate(grad_inputs if res is None else res):
            if g is not None and g.dtype in _FLOAT_GRADS and bool(ops.isnan(g).any()):
                raise RuntimeError(f"Function '{name}Backward' returned nan values in its {i}th output.")
        return res
    return check


_FLOAT_GRADS = (ms.float16, ms.float32, ms.float64, ms.bfloat16)


def _install_hooks(outputs: Tuple[Any, ...], create_graph: bool) -> list:
    """Node post-hooks for the backward about to run: create_graph's history fixes (`_second_order_hooks`) and
    detect_anomaly's NaN check (MindSpore's tape has no anomaly mode of its own)."""
    check_nan = anomaly_mode.is_anomaly_enabled() and anomaly_mode.is_anomaly_check_nan_enabled()
    higher = _HIGHER_ORDER[0]
    if not create_graph and not check_nan and not higher:
        return []
    handles = []
    for node in _graph_nodes(outputs):
        name = node.name()
        hook = None
        if create_graph:
            hook = _rebuilt_hook(node) if name in _REBUILDABLE else None
            hook = hook or _SECOND_ORDER_HOOKS.get(name, _owned_grads)
        elif higher:
            hook = _owned_grads
        handles.append(node.register_hook(_nan_check(name, hook) if check_nan else hook))
    return handles


# Set by a create_graph=True backward, cleared by the next backward that frees its graph: the backward of a graph
# recorded by a backward passes gradients through MindSpore's own view-returning backward ops (Concat's split of
# its gradient, ...), and measured on 2.10 the engine then accumulates two such views into one gradient ignoring
# their offsets (`grad(grad(cat([x.narrow(1, 1, 1), x.narrow(1, 0, 1)], 1) ** 2 ...))` was wrong). That backward
# therefore copies every gradient it hands on (`_owned_grads`), like create_graph does; plain training never pays.
_HIGHER_ORDER = [False]


def _run(outputs: Tuple[Any, ...], grads: Tuple[Any, ...], retain_graph: bool, create_graph: bool,
         inputs: Tuple[Any, ...], accumulate: bool) -> Any:
    hooks = _install_hooks(outputs, create_graph)
    if create_graph:
        _HIGHER_ORDER[0] = True
    elif not retain_graph:
        _HIGHER_ORDER[0] = False
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
    finally:
        for h in hooks:
            h.remove()

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
    BACKWARD_PASS[0] += 1
    ins: Tuple[Any, ...] = ()
    if inputs is not None:
        ins = _tensor_tuple(inputs)
        if not ins:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        if any(not t._is_leaf for t in ins):
            # MindSpore 2.10 cannot accumulate into a non-leaf ("The kernel Clone unregistered" on CPU): take the
            # gradients as autograd.grad does and accumulate them into `.grad` here, as torch does for inputs=
            # (once: a retain_grad() hook that stored this pass's gradient already did).
            res = _grad(outputs, ins, tuple(grads), retain_graph, create_graph, True)
            for t, g in zip(ins, res):
                if g is not None and t.__dict__.get("_mt_retained_pass") != BACKWARD_PASS[0]:
                    _accumulate_grad(t, g)
            return
    _run(outputs, grads, retain_graph, create_graph, ins, True)


def _accumulate_grad(t: Any, g: Any) -> None:
    """`t.grad += g` (or `= g`) for backward(inputs=...): leaves in MindSpore's slot, non-leaves in ours."""
    if t._is_leaf:
        prev = t.grad
        t._grad = g if prev is None else ops.add(prev, g)
        t.__dict__.pop("_mt_zero_grad", None)
    else:
        d = t.__dict__
        prev = d.get("_mt_retained_grad")
        d["_mt_retained_grad"] = g if prev is None else _as_torch(ops.add(prev, g))


def _grads_batched(outs: Tuple[Any, ...], ins: Tuple[Any, ...], grad_outputs: Tuple[Any, ...],
                   retain_graph: Optional[bool], create_graph: bool, allow_unused: bool) -> Tuple[Any, ...]:
    """is_grads_batched=True: the first dim of every grad_output is a batch of vjps (torch vmaps; one backward per
    batch element on a kept graph here), results stacked along a new first dim."""
    n = {int(_MsTensor.shape.fget(g)[0]) for g in grad_outputs if g is not None}
    if len(n) != 1:
        raise RuntimeError("If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
                           "batch dimension. The sizes of the first dimension of the grad_outputs must all match.")
    b = n.pop()
    rows = []
    for k in range(b):
        keep = True if k < b - 1 else retain_graph
        rows.append(grad(outs, ins, tuple(None if g is None else g[k] for g in grad_outputs), keep, create_graph,
                         allow_unused=allow_unused))
    return tuple(None if rows[0][i] is None else _as_torch(ops.stack([r[i] for r in rows], 0))
                 for i in range(len(ins)))


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: Optional[bool] = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool = False,
         is_grads_batched: bool = False) -> Tuple[Any, ...]:
    """The gradients of `outputs` w.r.t. `inputs` (returned, not accumulated into `.grad`)."""
    outs = _tensor_tuple(outputs)
    ins = _tensor_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = (None,) * len(outs)
    elif isinstance(grad_outputs, _MsTensor):
        grad_outputs = (grad_outputs,)
    if is_grads_batched:
        return _grads_batched(outs, ins, tuple(grad_outputs), retain_graph, create_graph, allow_unused)
    grads = _make_grads(outs, tuple(grad_outputs))
    if retain_graph is None:
        retain_graph = create_graph
    BACKWARD_PASS[0] += 1
    return _grad(outs, ins, grads, retain_graph, create_graph, allow_unused)


def _grad(outs: Tuple[Any, ...], ins: Tuple[Any, ...], grads: Tuple[Any, ...], retain_graph: bool,
          create_graph: bool, allow_unused: bool) -> Tuple[Any, ...]:
    for t in ins:
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
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
