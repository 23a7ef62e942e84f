"""Broadcasting on CPU without MindSpore's broadcasting kernels.

Measured on MindSpore 2.10's CPU kernels (2 cores; the same on every host tried): an elementwise op whose
operands have different shapes is 10-25x slower than the same op on equal shapes, e.g. `(128, 16, 28, 28) +
(1, 16, 1, 1)` (a conv bias) 14 ms vs 0.8 ms, `(32, 128, 768) + (768,)` (a Linear bias) 34 ms vs 1.3 ms, and so
is the backward's reduction of the gradient to the small operand (`sum` of (32, 128, 768) over (0, 1): 22 ms).
Only a 0-d operand takes a fast path. numpy does both in ~1 ms.

So on CPU a large broadcasting op first expands its small operand(s) on the host (`expand`, one autograd node
whose backward sums the gradient back on the host) and then runs MindSpore's same-shape kernel, which records
its own backward as usual. An operand of one element becomes 0-d instead (a free reshape). Small outputs keep
MindSpore's broadcasting kernel: below `MIN_NUMEL` the node's fixed cost outweighs the gain.

Used by the binary ops of the op table on the CPU target (`install`, wrapping each entry's implementation) and
by compositions that add a bias themselves (`linear`, convolutions). GPU/Ascend keep their native kernels.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, Tuple

import mindspore as ms
import numpy as np

from .. import _ms
from ..autograd.function import Function
from . import _registry

_MsTensor = ms.Tensor
_shape_of = _MsTensor.shape.fget
numel = _MsTensor.size.fget  # MindSpore's `size` is the element count (ours is torch's size())
_TENSOR_TYPES = _registry.TENSOR_TYPES
_SCALARS = frozenset((int, float, bool, complex))
# Outputs below this many elements keep MindSpore's broadcasting kernel. Measured (2 cores, float32, add/mul,
# shapes (n, 16) + (16,), (n, 64) + (n, 1), (b, 16, 8, 8) + (1, 16, 1, 1)): the forward breaks even at ~16K
# elements (1024x16: 0.15 ms either way; 4096x16: 0.40 -> 0.21 ms), forward + backward at ~32-64K (32x16x8x8:
# add 0.99 vs 1.06 ms, mul 1.47 vs 1.33 ms; 1024x64: 1.45 vs 1.37 ms). 32K is where neither loses measurably.
MIN_NUMEL = 1 << 15
# dtypes numpy computes natively (bfloat16 has no numpy dtype; uint16/32/64 have few MindSpore CPU kernels)
_HOST_DTYPES = frozenset(map(id, (ms.float32, ms.float16, ms.float64, ms.int8, ms.int16, ms.int32, ms.int64,
                                  ms.uint8, ms.bool_, ms.complex64, ms.complex128)))


def _np(t: Any) -> np.ndarray:
    """t's values as a numpy array (right for views: MindSpore's asnumpy honours strides and offsets)."""
    return _MsTensor.asnumpy(t)


def _from_np(a: np.ndarray) -> Any:
    t = _MsTensor.from_numpy(a)
    t.__class__ = _registry.Tensor or _MsTensor  # as the dispatcher would (the add fast path wants one class)
    return t


def _sum_to_np(g: np.ndarray, shape: Tuple[int, ...]) -> np.ndarray:
    """g (a broadcast of `shape`) summed back to `shape`, as a new array of g's dtype (float16 accumulated in
    float32, as torch's sum does)."""
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1)
    if not axes:
        return np.array(g.reshape(shape))  # a copy: never share the gradient's buffer
    acc = np.float32 if g.dtype == np.float16 else g.dtype  # also keeps int32 int32 (numpy widens to int64)
    return np.ascontiguousarray(g.sum(axis=axes, dtype=acc, keepdims=True).astype(g.dtype, copy=False)
                                .reshape(shape))


def _expand_value(t: Any, shape: Tuple[int, ...]) -> Any:
    return _from_np(np.ascontiguousarray(np.broadcast_to(_np(t), shape)))


def _sum_to_value(g: Any, shape: Tuple[int, ...]) -> Any:
    return _from_np(_sum_to_np(_np(g), shape))


class _Expand(Function):
    """t -> t broadcast to `shape` as a new contiguous tensor (numpy copy). Backward: the gradient summed back to
    t's shape on the host (as `_SumTo`, so that a double backward records it)."""

    @staticmethod
    def forward(ctx: Any, t: Any, shape: Tuple[int, ...]) -> Any:
        ctx.in_shape = tuple(_shape_of(t))
        return _expand_value(t, shape)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        return sum_to(g, ctx.in_shape), None


class _SumTo(Function):
    """g -> g summed to `shape` (the adjoint of `_Expand`)."""

    @staticmethod
    def forward(ctx: Any, g: Any, shape: Tuple[int, ...]) -> Any:
        ctx.in_shape = tuple(_shape_of(g))
        return _sum_to_value(g, shape)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        return expand(g, ctx.in_shape), None


def expand(t: Any, shape: Tuple[int, ...], grad: bool = True) -> Any:
    """t broadcast to `shape`, materialized (host copy; differentiable unless grad=False)."""
    if grad and _ms.records_grad(t):
        return _Expand.apply(t, shape)
    return _expand_value(t, shape)


def sum_to_recorded(g: Any, shape: Tuple[int, ...]) -> Any:
    """A broadcast gradient `g` summed back to `shape` (its added leading dims and its expanded size-1 dims) with
    MindSpore's reduce, which autograd records (the backward of custom nodes: MindSpore's own reduction of a custom
    node's broadcast gradient drops size-1 dims, (2, 2) came back as (2,) for a (2, 1) input)."""
    gs = tuple(_MsTensor.shape.fget(g))
    lead = len(gs) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and gs[lead + i] != 1)
    return ms.ops.reshape(ms.ops.sum(g, axes), shape) if axes else g


def sum_to(g: Any, shape: Tuple[int, ...]) -> Any:
    """g summed to `shape` (host; differentiable)."""
    if _ms.records_grad(g):
        return _SumTo.apply(g, shape)
    return _sum_to_value(g, shape)


def _is_tensor(x: Any) -> bool:
    return type(x) in _TENSOR_TYPES or isinstance(x, _MsTensor)


def same_shape(*operands: Any, grad: bool = True) -> Tuple[Any, ...]:
    """`operands` with a large broadcast made explicit: when the broadcast output has at least `MIN_NUMEL`
    elements and every tensor operand has a dtype numpy holds, each dimensioned tensor operand that is not of the
    output's shape is expanded to it (`expand`), or - one element of the same dtype as an operand that keeps its
    dimensions, so torch's type promotion is unchanged - reshaped to 0-d (MindSpore's fast scalar path). 0-d
    tensors and Python scalars pass unchanged, and so does everything when the shapes do not broadcast (MindSpore
    raises torch's error then). grad=False: the expansion is not recorded (operands of comparisons)."""
    bound = 1  # the product of the operands' sizes bounds the output's: most small broadcasts stop here
    for x in operands:
        if _is_tensor(x):
            bound *= numel(x)
    if bound < MIN_NUMEL:
        return operands
    shapes = []
    for x in operands:
        if _is_tensor(x):
            if id(x.dtype) not in _HOST_DTYPES:
                return operands
            s = tuple(_shape_of(x))
            if s:
                shapes.append(s)
    if len(shapes) < 2 or all(s == shapes[0] for s in shapes):
        return operands
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        return operands
    if math.prod(shape) < MIN_NUMEL:
        return operands
    kept = {id(x.dtype) for x in operands if _is_tensor(x) and numel(x) > 1}
    out = []
    for x in operands:
        if _is_tensor(x):
            s = tuple(_shape_of(x))
            if s and s != shape:
                if numel(x) == 1 and id(x.dtype) in kept:
                    x = ms.ops.reshape(x, ())
                else:
                    x = expand(x, shape, grad)
        out.append(x)
    return tuple(out)


def binary(impl: Callable, nargs: int = 2, grad: bool = True) -> Callable:
    """`impl(a, b, ...)` (nargs=3: `impl(a, b, c, ...)`) with large broadcasts between its first `nargs` (2 or 3)
    positional arguments expanded first (the CPU form of an elementwise op). grad=False: see `same_shape`.
    nargs=3: operands passed by keyword take `impl` directly (no fast path). The checks are inlined: with equal
    shapes or a Python scalar operand this costs ~0.3-0.8 us per call (measured), against ~15-30 us for the
    smallest MindSpore op."""
    if nargs not in (2, 3):
        raise ValueError(f"binary: nargs must be 2 or 3, got {nargs}")
    if nargs == 2:
        def cpu_impl(input: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
            to = type(other)
            if to in _TENSOR_TYPES and type(input) in _TENSOR_TYPES:
                if _shape_of(input) != _shape_of(other):
                    input, other = same_shape(input, other, grad=grad)
            elif to not in _SCALARS and _is_tensor(other) and _is_tensor(input):  # e.g. an nn.Parameter
                if _shape_of(input) != _shape_of(other):
                    input, other = same_shape(input, other, grad=grad)
            return impl(input, other, *args, **kwargs)
    else:
        def cpu_impl(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            if len(args) >= 3:
                a, b, c = args[0], args[1], args[2]
                tt = _TENSOR_TYPES
                if not (type(a) in tt and type(b) in tt and type(c) in tt
                        and _shape_of(a) == _shape_of(b) == _shape_of(c)):
                    args = same_shape(a, b, c, grad=grad) + args[3:]
            return impl(*args, **kwargs)

    cpu_impl.__name__ = getattr(impl, "__name__", "binary")
    cpu_impl.__qualname__ = cpu_impl.__name__
    cpu_impl.__doc__ = impl.__doc__
    cpu_impl.__wrapped__ = impl  # type: ignore[attr-defined]  # inspect.signature (numpy keyword aliases) sees impl
    return cpu_impl


# The op-table entries that get the CPU form (installed by `install`), by number of broadcasting operands. Each
# name's default implementation is wrapped once, and every entry registered with the same implementation object
# gets the wrapper too: aliases (`subtract`, `multiply`, `less`...), in-place twins (`add_`, `eq_`...), and the
# operators of _ops/dunder.py (`__add__`, `__iadd__`, `__truediv__`...). Measured on (256, 16, 32) with (16, 1),
# MindSpore broadcasting vs same shapes (ms): add 1.35/0.26, maximum 7.8/0.97, fmax 3.9/2.3, lt 0.81/0.20,
# where (y) 1.7/0.8, where (cond) 1.1/0.16, lerp 1.2/0.5, addcmul 1.05/0.33. Left out because MindSpore's
# broadcast is no slower there (also with (1024,) and (1, 16, 1, 1) operands): pow 4.4/4.9, atan2 3.2/3.1,
# masked_fill 1.2/1.5, addcdiv 1.08/1.07.
_BINARY = ("add", "sub", "rsub", "mul", "div", "true_divide", "maximum", "minimum", "fmax", "fmin")
_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__")
_TERNARY = ("where", "lerp", "addcmul")


def install(table: Dict[str, Any]) -> None:
    """Register the CPU form (`binary`) of the entries above in the op table (called once, after every op module
    registered). Entries that already have a CPU implementation keep it; GPU/Ascend keep their default one."""
    wrapped: Dict[int, Callable] = {}
    for names, nargs, grad in ((_BINARY, 2, True), (_COMPARISONS, 2, False), (_TERNARY, 3, True)):
        for name in names:
            impl = table[name].impls["default"]
            wrapped[id(impl)] = binary(impl, nargs, grad)
    for entry in table.values():
        cpu = wrapped.get(id(entry.impls.get("default")))
        if cpu is not None and "CPU" not in entry.impls:
            entry.impls["CPU"] = cpu
            entry.bound = None
