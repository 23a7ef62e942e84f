"""The ONLY module of mindtorch that touches private MindSpore entry points.

Every private name we rely on is imported and wrapped here exactly once, and each wrapper has its own test
(tests/test_ms_private.py). When MindSpore changes one of them, that test and this file are the single place
that breaks. Vision, audio and distributed reach MindSpore internals only through this module.
"""
from __future__ import annotations

import ctypes
import functools
import math
from typing import Any, Callable, Optional, Sequence

import mindspore as ms
import numpy as np
from mindspore._c_expression import TensorPy as _TensorPy
from mindspore._c_expression import _unsafe_set_version_counter as _set_version_counter
from mindspore._c_expression import run_backward as _run_backward
from mindspore.common._grad_function import _Function as _MsFunction
from mindspore.graph.api import _pynative_executor as _executor
from mindspore.ops.auto_generate import gen_ops_prim as _gen_ops_prim

# The C++ base class of both ms.Tensor and ms.Parameter (nn.Parameter builds on it directly).
TensorPy = _TensorPy

__all__ = [
    "MsFunction",
    "grad_flag",
    "set_grad_flag",
    "run_backward",
    "enable_grad_recording",
    "guard_value_and_grad_inputs",
    "is_recording",
    "sync",
    "device_target",
]

# Base class of custom autograd functions (forward/backward with ctx) on MindSpore's C++ tape.
MsFunction = _MsFunction


def grad_flag() -> bool:
    """Whether the PyNative executor records operations for backward."""
    return bool(_executor.grad_flag())


def set_grad_flag(flag: bool) -> None:
    """Turn recording of the PyNative tape on or off.

    Note: every `mindspore.value_and_grad` call resets this flag to False when it finishes, so the
    backward-style autograd re-enables it lazily (see `enable_grad_recording`).
    """
    _executor.set_grad_flag(bool(flag))


# The C++ executor behind `_pynative_executor`: calling its methods directly skips a Python frame on hot paths.
_cexecutor = _executor._executor


def guard_value_and_grad_inputs() -> None:
    """Make MindSpore's functional grads (`value_and_grad`, `grad`, `GradOperation` in PyNative) leave their
    inputs' `requires_grad` as they found it.

    Measured on MindSpore 2.10: `value_and_grad(fn, None, weights)(x)` marks `x` as requiring grad for good
    (`_pynative_executor.new_graph` does it, even with no grad_position). In torch terms the data batch then
    requires grad: a later `loss.backward()` on it computed and stored `x.grad`, the backward of a CNN's first
    layer w.r.t. its input included (LeNet: 1.3x the step time). The inputs that did not require grad when
    `new_graph` saw them are switched back once the executor's `grad` has run. Idempotent."""
    if getattr(_executor, "_mt_guarded", False):
        return
    pending: list = []
    new_graph, grad = _executor.new_graph, _executor.grad

    def guarded_new_graph(obj: Any, *args: Any, **kwargs: Any) -> Any:
        for a in args + tuple(kwargs.values()):
            if isinstance(a, _TensorPy) and not a._requires_grad:
                # what new_graph does to a tensor it sees first; one we switched back must be marked again, or
                # its gradient (grad_position) comes out as zeros
                _TensorPy.requires_grad_(a, True)
                pending.append(a)
        return new_graph(obj, *args, **kwargs)

    def guarded_grad(*args: Any) -> Any:
        try:
            return grad(*args)
        finally:
            for t in pending:
                _TensorPy.requires_grad_(t, False)
            pending.clear()

    _executor.new_graph = guarded_new_graph
    _executor.grad = guarded_grad
    _executor._mt_guarded = True


def enable_grad_recording() -> None:
    """Make sure ops run from now on are recorded on the tape (cheap when it already is)."""
    if not _cexecutor.grad_flag():
        _cexecutor.set_grad_flag(True)


# The raw C++ getter/setter of the tape's recording flag, for the op-table dispatcher's per-op check (< 1 us).
recording_flag = _cexecutor.grad_flag
set_recording_flag = _cexecutor.set_grad_flag


def is_recording() -> bool:
    return bool(_executor.grad_flag()) and bool(_executor.enable_grad())


def records_grad(*tensors: Any) -> bool:
    """Whether an op on `tensors` must be recorded as an autograd node: one of them requires grad (None and
    non-tensors do not) and autograd records. The check every host computation makes before wrapping its
    result in a node."""
    for t in tensors:  # (a loop, not any(<generator>): this runs on every recorded small op)
        if getattr(t, "_requires_grad", False):
            return is_recording()
    return False


def pyboost(op: str) -> Callable[[list], Any]:
    """MindSpore's C++ entry for primitive `op` ("sum_ext", "relu", "muls", ...), called with the primitive's
    argument list: `pyboost("sum_ext")([x, None, False, None])` is `mint.sum(x)` without the two Python frames and
    the trace-capture check in front of it (~2.5 us of a ~30 us small op on CPU, measured). A C-level partial, so
    the hottest ops pay no Python frame of their own; mindtorch code never runs under trace capture
    (docs/graph_mode.md), the one case those frames handle."""
    return functools.partial(getattr(_gen_ops_prim, "pyboost_" + op), getattr(_gen_ops_prim, op + "_op"))


def set_enable_grad(flag: bool) -> None:
    """MindSpore's own no_grad switch (what `mindspore._no_grad` toggles)."""
    _executor.set_enable_grad(bool(flag))


def enable_grad_state() -> bool:
    return bool(_executor.enable_grad())


def run_backward(
    tensors: Sequence[Any],
    grad_tensors: Optional[Sequence[Any]],
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Any] = (),
    accumulate_grad: bool = True,
    allow_unreachable: bool = True,
) -> Optional[tuple]:
    """Run MindSpore's C++ backward from `tensors`.

    With `accumulate_grad=True` the gradients accumulate into each leaf's `.grad` (torch's
    `Tensor.backward`); with `accumulate_grad=False` and `inputs` the gradients w.r.t. `inputs` are
    returned (torch's `autograd.grad`). `grad_tensors` must be all tensors or empty (MindSpore then
    seeds with ones).
    """
    grads = tuple(grad_tensors) if grad_tensors else ()
    return _run_backward(
        tuple(tensors), grads, bool(retain_graph), bool(create_graph), tuple(inputs), bool(allow_unreachable),
        accumulate_grad=bool(accumulate_grad),
    )


def sync() -> None:
    """Wait for all queued MindSpore work (surfaces async errors at the current call)."""
    _executor.sync()


def device_target() -> str:
    """The MindSpore device target of this process: 'CPU', 'GPU' or 'Ascend'."""
    try:
        return str(ms.get_context("device_target"))
    except Exception:  # pragma: no cover - older/newer context APIs
        return "CPU"


# ------------------------------------------------------------------ execution wrappers
_launch_blocking_set = False


def set_launch_blocking() -> bool:
    """Synchronous kernel launch (`mindspore.runtime.launch_blocking()`): an error surfaces at the op that caused
    it instead of at a later unrelated call, and reading a result right after an op costs ~55 us instead of
    ~1 ms on CPU (DESIGN.md §5). Idempotent; returns True once set."""
    global _launch_blocking_set
    if not _launch_blocking_set:
        ms.runtime.launch_blocking()
        _launch_blocking_set = True
    return True


if device_target() == "CPU":
    # Measured faster almost everywhere on CPU; errors point at the op that caused them; and forked DataLoader
    # workers only run MindSpore kernels safely when the parent never ran ops in async mode (they hang otherwise).
    set_launch_blocking()


# ------------------------------------------------------------------ execution mode (used by nn.Module.__call__)
from mindspore.context import GRAPH_MODE  # noqa: E402
from mindspore.context import _context as _ms_context  # noqa: E402

CONTEXT = _ms_context()  # MindSpore's process-wide context singleton; set_context(mode=...) updates its `_mode`
# Its instance dict, read directly: _Context defines a Python-level __getattribute__ that makes `CONTEXT._mode`
# cost ~0.7 us, a dict read ~0.03 us. set_mode assigns `self._mode`, which lands in this same dict.
CONTEXT_STATE = object.__getattribute__(CONTEXT, "__dict__")


def is_graph_mode() -> bool:
    """Whether MindSpore runs in GRAPH_MODE (`ms.get_context('mode')` costs ~30 us, `context._get_mode()`
    ~1.4 us, this ~0.1 us): nn.Module.__call__ asks on every call (it reads CONTEXT_STATE inline)."""
    return CONTEXT_STATE["_mode"] == GRAPH_MODE


# ------------------------------------------------------------------ autograd helpers (autograd work, issue 5)
# (Owned by the autograd work: please append below/above, do not rewrite this file from an older copy.)
def bump_tensor_version(t: Any) -> None:
    """Bump MindSpore's own version counter of `t` (the C++ one the tape checks on backward).

    MindSpore 2.10's setitem does not bump it, so an in-place write through setitem to a tensor saved for
    backward would go unnoticed and give wrong grads. After this bump MindSpore's backward raises "One of the
    Tensor needed for gradient computation has been modified by an inplace operation" (torch's check).
    """
    _set_version_counter([t], [_TensorPy._version.__get__(t) + 1])


def grad_node(t: Any) -> Any:
    """The C++ BackwardNode that produced `t` (for leaves: their accumulate node), or None."""
    return t._grad_node


def output_index(t: Any) -> int:
    """Which output of the MindSpore kernel that produced `t` it is (`Tensor._output_index`; 0 for tensors no
    kernel produced). Measured on 2.10: TopK's values/indices give 0/1."""
    return int(getattr(t, "_output_index", 0) or 0)


def setitem(dst: Any, index: Any, value: Any) -> None:
    """`dst[index] = value` in place, writing through views, with torch's in-place checks where possible.

    Measured on MindSpore 2.10: while the tape records (grad flag on, grad enabled), setitem into a
    `Tensor.view()`/transpose/select/narrow/unsqueeze view never reaches the base tensor (slices of the base do);
    with grad disabled it writes through. So when autograd is not involved (neither side requires grad) the
    write runs with grad disabled; otherwise it is recorded, and the view kinds whose write would be lost raise
    NotImplementedError (see `_refuse_lost_view_write`).
    """
    # MindSpore's version counter (its backward raises torch's "modified by an inplace operation" error for a
    # tensor saved at an older version) is bumped here, since setitem does not. Measured order constraints: a
    # recorded setitem into a whole tensor re-creates the tensor's autograd meta (so bump after it); one into a
    # slice view saves the view for its own backward (so bump before it).
    recorded = _executor.grad_flag() and _executor.enable_grad()
    slice_view = False
    if recorded and dst._requires_grad:
        slice_view = _refuse_lost_view_write(dst)
    if slice_view:
        _set_version_counter([dst], [_TensorPy._version.__get__(dst) + 1])
    if recorded and not dst._requires_grad and not getattr(value, "_requires_grad", False):
        _executor.set_enable_grad(False)
        try:
            ms.Tensor.__setitem__(dst, index, value)
        finally:
            _executor.set_enable_grad(True)
    else:
        ms.Tensor.__setitem__(dst, index, value)
    if not slice_view:
        _set_version_counter([dst], [_TensorPy._version.__get__(dst) + 1])


# Nodes of MindSpore 2.10 view ops: a recorded setitem into their output never reaches the base tensor (measured
# for view/reshape, transpose, select, narrow, unsqueeze); a slice (StridedSlice) of the base itself is fine.
_VIEW_NODES = frozenset({"Reshape", "View", "Transpose", "ExpandDims", "Squeeze", "Unsqueeze", "Flatten",
                         "BroadcastTo", "Expand", "Diagonal", "Unfold", "AsStrided"})
_SLICE_NODES = ("StridedSlice", "SliceExt", "Slice")


def _is_view_node(name: str) -> bool:
    return name.endswith("View") or name in _VIEW_NODES


def lost_view_write(dst: Any) -> Optional[str]:
    """The view node name if a recorded write into `dst` would be lost by MindSpore 2.10 (or get a wrong
    gradient), else None. Only meaningful for a non-leaf dst that requires grad."""
    node = dst._grad_node
    if node is None or node.is_leaf():
        return None
    name = node.name()
    if _is_view_node(name):
        return name
    if name in _SLICE_NODES:
        # a slice of a view/slice: the values arrive but the recorded gradient is wrong (measured)
        parent = node.next_functions[0][0] if node.next_functions else None
        if parent is not None and not parent.is_leaf() and (
                _is_view_node(parent.name()) or parent.name() in _SLICE_NODES):
            return name
    return None


def _refuse_lost_view_write(dst: Any) -> bool:
    """Raise for a view whose recorded write MindSpore loses; return whether dst is a (good) slice view."""
    lost = lost_view_write(dst)
    if lost is not None:
        raise NotImplementedError(
            f"in-place write into a view ({lost}) of a tensor that requires grad is not supported on MindSpore "
            "2.10: while autograd records, the write would not reach the base tensor (or would get a wrong "
            "gradient). Write into the base tensor with an index instead (base[idx] = value), or use an "
            "out-of-place op (x = x.op()) and keep the result.")
    node = dst._grad_node
    return node is not None and not node.is_leaf() and node.name() in _SLICE_NODES


def is_whole_tensor(dst: Any) -> bool:
    """Whether the non-leaf `dst` is a whole tensor (made by a non-view op: contiguous, offset 0), into which
    MindSpore's recorded `Tensor.copy_` writes correctly (measured on 2.10: InplaceCopy node, version bumped,
    same gradients as a recorded setitem). Callers check `lost_view_write` first."""
    node = dst._grad_node
    return (node is not None and not node.is_leaf() and node.name() not in _SLICE_NODES
            and not _is_view_node(node.name()) and dst.is_contiguous() and _TensorPy.storage_offset(dst) == 0)


def rebind(dst: Any, value: Any) -> None:
    """Make `dst` (the same Python object) take `value`'s storage, shape, dtype AND autograd node
    (`TensorPy.assign_value_cpp`, measured on 2.10: dst's data pointer and `_grad_node` become value's; the
    old storage is left untouched, so a backward node that saved old dst still sees its data). Tensors that
    shared dst's old storage do NOT see the change: callers must know nobody else can observe it."""
    _TensorPy.assign_value_cpp(dst, value)


# CPU tensors live in host memory: numpy can read and write them, and host computations replace slow kernels
HOST_MEMORY = device_target() == "CPU"


class _HostBuffer:
    """Exposes a tensor's storage to numpy (`__array_interface__`) and keeps the tensor alive as the array's base."""

    __slots__ = ("__array_interface__", "owner")


def host_view(t: Any) -> np.ndarray:
    """A numpy array of `t`'s values that shares its memory on CPU, views included (torch's `Tensor.numpy()`).

    MindSpore's `asnumpy()` shares memory only with a tensor that owns its storage; for one made by a view op
    (reshape, transpose, slicing... of another tensor) it returns a copy, so a write through it was lost. Such a
    tensor's `data_ptr()` includes its storage offset (measured on 2.10) and its strides are known: the array is
    built on that memory, without the copy `asnumpy()` would make first (a view's data is read in place). Other
    targets: `asnumpy()` (a host copy, as for torch's CUDA tensors after `.cpu()`)."""
    np_dtype = _HOST_NP_DTYPES.get(id(t.dtype)) if HOST_MEMORY else None
    shape = _tensor_shape(t)
    if np_dtype is None or 0 in shape:
        return ms.Tensor.asnumpy(t)
    if _is_contiguous(t):  # a ctypes array over the memory: ~2 us, a quarter of the array interface's cost
        raw = (ctypes.c_char * (np_dtype.itemsize * math.prod(shape))).from_address(ms.Tensor.data_ptr(t))
        raw.owner = t  # (the array's base: keeps the tensor, so its memory, alive)
        return np.frombuffer(raw, np_dtype).reshape(shape)
    buf = _HostBuffer()
    buf.owner = t
    buf.__array_interface__ = {
        "shape": shape, "typestr": np_dtype.str, "data": (ms.Tensor.data_ptr(t), False), "version": 3,
        "strides": tuple(int(s) * np_dtype.itemsize for s in ms.Tensor.stride(t))}
    return np.asarray(buf)


_tensor_shape = ms.Tensor.shape.fget
_is_contiguous = ms.Tensor.is_contiguous


_NAN_CHECK_DTYPES = frozenset(map(id, (ms.float16, ms.float32, ms.float64)))


def _self_dot(t: Any) -> Optional[float]:
    """x.x over float tensor t's values in one host pass, or None where they are not in host memory or numpy has
    no dtype for them. It is NaN exactly when x holds a NaN (squares are >= 0, overflow gives inf) and finite
    when every value is finite and small enough (|x| < ~1e19 for float32); BLAS's dot neither warns nor needs an
    error-state switch."""
    if not HOST_MEMORY or id(t.dtype) not in _NAN_CHECK_DTYPES:
        return None
    return host_self_dot(host_view(t))


def host_self_dot(a: np.ndarray) -> float:
    """x.x over a host array's values (see `_self_dot`)."""
    flat = a.ravel()
    return float(np.dot(flat, flat))


def may_hold_nan(t: Any) -> bool:
    """Whether float tensor `t` may hold a NaN (True when that cannot be checked on the host: callers then take
    their exact, NaN-aware path)."""
    d = _self_dot(t)
    return d is None or math.isnan(d)


def may_hold_nonfinite(t: Any) -> bool:
    """Whether float tensor `t` may hold inf or NaN (also True for huge values, and when it cannot be checked)."""
    d = _self_dot(t)
    return d is None or not math.isfinite(d)


class quiet_fp:
    """`np.errstate(all="ignore")` for the host paths of small ops: torch gives inf/nan without a warning. numpy's
    own context manager costs ~4 us (two `seterr` round trips through Python); swapping the error object directly
    ~1.4 us (numpy 1.x, which MindSpore 2.10 requires; the object is per thread there)."""

    __slots__ = ("old",)

    def __enter__(self) -> None:
        self.old = old = np.geterrobj()
        np.seterrobj([old[0], 0, old[2]])

    def __exit__(self, *exc: Any) -> None:
        np.seterrobj(self.old)
# the dtypes whose host memory numpy reads as is (bfloat16 has no numpy dtype)
_HOST_NP_DTYPES = {id(d): np.dtype(n) for d, n in (
    (ms.float16, "float16"), (ms.float32, "float32"), (ms.float64, "float64"), (ms.int8, "int8"),
    (ms.int16, "int16"), (ms.int32, "int32"), (ms.int64, "int64"), (ms.uint8, "uint8"), (ms.uint16, "uint16"),
    (ms.uint32, "uint32"), (ms.uint64, "uint64"), (ms.bool_, "bool"), (ms.complex64, "complex64"),
    (ms.complex128, "complex128"))}


def copy_into(dst: Any, value: Any) -> None:
    """Unrecorded copy of `value` into `dst`, a tensor that owns its whole storage (same shape and dtype).

    On CPU through numpy: MindSpore 2.10's CPU InplaceCopy (`Tensor.copy_`) took ~4 ms for 100K float32 elements
    and ~8 ms for 1M where numpy takes 25 us / 0.4 ms (measured; every optimizer step writes each parameter so).
    A CPU tensor's `asnumpy()` is a view of the storage it owns, and a write through it is seen by later kernels
    (checked for parameters and op outputs). Views, bfloat16 (no numpy dtype) and other targets keep `copy_`."""
    if HOST_MEMORY and dst.dtype != ms.bfloat16:
        target = ms.Tensor.asnumpy(dst)
        # asnumpy() is a view of dst's storage only when dst owns it; for a tensor made by a view op (reshape,
        # flatten... of another tensor) it is a copy, and the write must go through MindSpore to reach the base
        if target.ctypes.data == ms.Tensor.data_ptr(dst):
            np.copyto(target, ms.Tensor.asnumpy(value))
            bump_tensor_version(dst)  # a backward that saved dst before the write raises, as after torch's copy_
            return
    ms.Tensor.copy_(dst, value)


def queue_backward_final_callback(callback: Any) -> None:
    """Run `callback()` once when the backward pass now running finishes (torch's
    `Variable._execution_engine.queue_callback`).

    Only callable DURING a backward (e.g. from a tensor hook); MindSpore raises RuntimeError otherwise.
    Measured on 2.10: the callback runs after every leaf's `_grad` has been accumulated, and in-place
    writes to those grads persist. Used by DistributedDataParallel to all-reduce gradients after backward.
    """
    _executor.queue_backward_final_callback(callback)


def _kernel_seed_table() -> dict:
    import importlib

    # `mindspore.common.seed` the attribute is a function (re-exported): fetch the module itself.
    return importlib.import_module("mindspore.common.seed")._KERNEL_SEED


def random_op_state() -> dict:
    """A snapshot of the per-kernel seed counters of MindSpore's seeded random ops (`ops.uniform`, ... draw their
    seeds from `mindspore.common.seed._KERNEL_SEED`, advanced at every call; `mindspore.get_rng_state` does not
    cover them). Restoring it with `set_random_op_state` replays the same random numbers (measured on 2.10)."""
    return dict(_kernel_seed_table())


def set_random_op_state(state: dict) -> None:
    table = _kernel_seed_table()
    table.clear()
    table.update(state)


# ------------------------------------------------------------------ graph-mode guard (torch.jit work, issue 9)
from mindspore.graph._utils.check_jit_forbidden_api import add_jit_forbidden_module as _add_jit_forbidden_module  # noqa: E402,E501
from mindspore.graph._utils.check_jit_forbidden_api import get_jit_forbidden_module as _get_jit_forbidden_module  # noqa: E402,E501


def forbid_module_in_graph(module_name: str) -> None:
    """Make MindSpore's AST graph compiler (`@ms.jit`, GRAPH_MODE) refuse, at compile time, every function whose
    `__module__` is `module_name`, with "Failed to compile in GRAPH_MODE because the method or function
    '<module>.<name>' is not supported in 'construct' or function with @jit decorator". MindSpore uses the same
    list for its own graph-unsafe modules (`mindspore.context`, `mindspore.log`). Bytecode capture ignores it."""
    _add_jit_forbidden_module(module_name)


def is_module_forbidden_in_graph(module_name: str) -> bool:
    return module_name in _get_jit_forbidden_module()


# ------------------------------------------------------------------ @ms.jit eager fallback (graph mode, issue 9)
from mindspore.context import PYNATIVE_MODE  # noqa: E402
from mindspore.graph.api import _JitExecutor  # noqa: E402

_JIT_CALL = _JitExecutor.__call__  # MindSpore's own: compile the function (AST capture), then run the graph


def install_jit_call_hook(hook: Any) -> None:
    """Route every call of an AST-captured function through `hook(fn, compiled, args, kwargs)`.

    `_JitExecutor.__call__` is the single entry of `@ms.jit` / `ms.jit(fn)` (capture_mode="ast") and of the
    `@jit` wrapper `mindspore.value_and_grad` builds under GRAPH_MODE; `fn` is the Python function (unbound for a
    method, whose object is then `args[0]`), `compiled()` runs MindSpore's own call (compile + run). The hook must
    return `compiled()` unchanged for native MindSpore code; it decides only for mindtorch code. Cells compiled by
    `Cell.__call__` under GRAPH_MODE, bytecode and trace capture do not pass here. Idempotent (latest hook wins)."""
    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        return hook(self.fn, lambda: _JIT_CALL(self, *args, **kwargs), args, kwargs)

    __call__.__wrapped__ = _JIT_CALL
    __call__.__doc__ = _JIT_CALL.__doc__
    _JitExecutor.__call__ = __call__


def conv2d_backprop_filter(out_channels: int, kernel_size: Sequence[int], **attrs: Any) -> Any:
    """MindSpore's Conv2DBackpropFilter primitive (the kernel its own Conv2D bprop emits for dw), built with
    `attrs` (pad_mode, pad, pad_list, mode, stride, dilation, group). It has no public export in 2.10; its
    sibling Conv2DBackpropInput is public (`mindspore.ops.Conv2DBackpropInput`).
    Call: `prim(dout (N, O, Ho, Wo), x (N, C, H, W), w_shape) -> dw (O, C/groups, kh, kw)`."""
    from mindspore.ops.operations._grad_ops import Conv2DBackpropFilter

    return Conv2DBackpropFilter(out_channels, tuple(kernel_size), **attrs)


def lstm_grad(input_size: int, hidden_size: int, num_layers: int, has_bias: bool, bidirectional: bool,
              dropout: float) -> Any:
    """MindSpore's LSTMGrad primitive, the fused backward of `mindspore.ops.LSTM` with the same attributes (no
    public export in 2.10). Call: `prim(x, hx, cx, w, y, hy, cy, dy, dhy, dcy, reserve) -> (dx, dhx, dcx, dw)`."""
    from mindspore.ops.operations._grad_ops import LSTMGrad

    return LSTMGrad(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout)


class pynative_mode:  # noqa: N801 - used like a function: `with _ms.pynative_mode():`
    """Run a block in PYNATIVE_MODE when MindSpore is in GRAPH_MODE (no-op otherwise), then switch back.

    `_Context.set_mode` pushes a record on a per-thread stack at every switch and never pops it: the records of
    this scope's two switches are dropped on exit, so a per-step switch does not grow memory."""

    __slots__ = ("_depth",)

    def __enter__(self) -> "pynative_mode":
        self._depth = -1
        if CONTEXT_STATE["_mode"] == GRAPH_MODE:
            self._depth = len(CONTEXT._context_switches.context_stack)
            CONTEXT.set_mode(PYNATIVE_MODE)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._depth >= 0:
            CONTEXT.set_mode(GRAPH_MODE)
            del CONTEXT._context_switches.context_stack[self._depth:]
