"""Op family: the torch.nn.functional ops (see _registry.py for how entries are written).

Every entry here is exposed as `torch.nn.functional.<name>`; `function=True` where torch also has the op at
top level with the same signature (torch.conv2d, torch.dropout...), `method=True` where Tensor has it.
The pointwise activations relu/sigmoid/tanh/softmax/log_softmax belong to the pointwise family (ops-A);
nn/functional.py re-exports them.

Implementations call legacy `mindspore.ops` where `mindspore.mint` has no CPU kernel (DESIGN.md §4), and
compose from differentiable primitives where MindSpore's fused kernel is missing or differs from torch
(layer/batch/group norm, the losses): autograd then flows through MindSpore's own ops in both the
`value_and_grad` and the `run_backward` styles.
"""
from __future__ import annotations

import itertools
import math
import warnings
from typing import Any, Callable, List, NoReturn, Optional, Sequence, Tuple

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms
from .._grad_mode import no_grad
from ..autograd.function import Function
from . import _autotune, _expand, _onednn
from ._args import scalar_arg as _sc  # _sc(v, x): Python number v as x's scalar operand, exact for float64
from ._registry import _DISPATCHERS, expose, inplace_source, kernel, register, shapes_broadcast_error, write_back
from .indexing import gather_d
from .misc import onednn_matmul, onednn_matmul_ok
from .pointwise import _onednn_softmax, _onednn_softmax_ok
from .reduction import _REAL_FLOATS, _nan_wins

_MsTensor = ms.Tensor
_NS = ("nn.functional",)


# ------------------------------------------------------------------------------------------------ helpers
def _ntuple(v: Any, n: int, name: str = "") -> Tuple[int, ...]:
    """torch's _single/_pair/_triple: an int or a sequence of n ints."""
    if isinstance(v, _MsTensor):
        v = v.asnumpy().tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1 and n > 1:
            return tuple(int(v[0]) for _ in range(n))
        if len(v) != n:
            raise RuntimeError(f"{name}: expected {n} values, got {len(v)}")
        return tuple(int(x) for x in v)
    return tuple(int(v) for _ in range(n))


def _shape(x: Any) -> Tuple[int, ...]:
    return tuple(_MsTensor.shape.fget(x))


def _reshape(x: Any, shape: Sequence[int]) -> Any:
    return ops.reshape(x, tuple(shape))


def _torch_size(t: Any) -> str:
    """How torch prints a shape in its messages: torch.Size([2, 4, 1])."""
    return f"torch.Size({list(_shape(t))})"


def _scalar(v: float, like: Any) -> Any:
    return _MsTensor(v, dtype=like.dtype)


def _reduce(loss: Any, reduction: str) -> Any:
    if reduction == "none":
        return loss
    if reduction in ("mean", "sum"):
        return kernel(reduction)(loss)  # this target's sum/mean (on CPU large losses are reduced on the host)
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    """torch's deprecated size_average/reduce arguments -> reduction string."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _check_same_size(input: Any, target: Any, name: str) -> None:
    if _shape(input) != _shape(target):
        warnings.warn(
            f"Using a target size ({list(_shape(target))}) that is different to the input size "
            f"({list(_shape(input))}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", stacklevel=3)


def _no_grad(x: Any) -> Any:
    return ops.stop_gradient(x)


def _spatial_slice(x: Any, starts: Sequence[int], steps: Sequence[int], counts: Sequence[int]) -> Any:
    """x[:, :, s0::st0 (count0 items), s1::st1 ...] over the trailing dims.

    Through `ops.strided_slice`, not `x[...]`: on MindSpore 2.10 CPU the gradient of a getitem with a step > 1 on
    a non-last dim fails ("StridedSliceGrad, input memory out of bounds"); strided_slice's own grad is fine.
    """
    lead = x.ndim - len(starts)
    shp = _shape(x)
    begin = (0,) * lead + tuple(int(v) for v in starts)
    end = tuple(shp[:lead]) + tuple(int(b + (c - 1) * st + 1) for b, st, c in zip(starts, steps, counts))
    strides = (1,) * lead + tuple(int(v) for v in steps)
    return ops.strided_slice(x, begin, end, strides)


# ---------------------------------------------------------------------------------------------- linear
def _add_bias(out: Any, bias: Any) -> Any:
    return _ADD_BIAS(*_expand.same_shape(out, bias)) if _ms.HOST_MEMORY else _ADD_BIAS(out, bias)


_ADD_BIAS = ops.add


def _check_linear_shapes(x: Any, w: Any, b: Any) -> None:
    """torch's errors for F.linear's shapes (addmm's, with the input folded to 2-d), before any kernel runs."""
    if w.ndim != 2 or x.ndim < 1:
        return  # the general path's own checks
    xs, ws = _shape(x), _shape(w)
    if xs[-1] != ws[1]:
        rows = int(np.prod(xs[:-1], dtype=np.int64)) if x.ndim > 1 else 1
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{xs[-1]} and {ws[1]}x{ws[0]})")
    if b is not None and b.ndim >= 1 and _shape(b)[-1] not in (1, ws[0]):
        target = list(xs[:-1]) + [ws[0]] if x.ndim > 1 else [ws[0]]
        raise RuntimeError(f"The expanded size of the tensor ({ws[0]}) must match the existing size "
                           f"({_shape(b)[-1]}) at non-singleton dimension {len(target) - 1}.  Target sizes: "
                           f"{target}.  Tensor sizes: {list(_shape(b))}")


@register("linear", function=False, method=False, namespaces=_NS)
def linear(input: Any, weight: Any, bias: Any = None) -> Any:
    """y = x @ W^T + b.  input (*, in), weight (out, in), bias (out,) -> (*, out)."""
    _check_linear_shapes(input, weight, bias)
    if weight.ndim == 2 and _shape(weight)[1] == 0:  # in_features 0: zeros (MindSpore's MatMul leaves garbage)
        from .misc import _empty_product

        out = _empty_product(input, ops.transpose(weight, (1, 0)), _shape(input), _shape(weight)[::-1])
        return out if bias is None else ops.add(out, bias)
    if (weight.ndim == 2 and input.ndim >= 1 and input.dtype == weight.dtype and input.dtype in _MATMUL_FLOATS
            and (bias is None or (bias.ndim == 1 and bias.dtype == input.dtype))):
        if _onednn_linear_ok(input, weight, bias):  # CPU float32: one oneDNN product with the bias fused
            return onednn_matmul(input, weight, bias, trans_b=True)
        # Fast path (issue 8): one MatMul(transpose_b) (+ Add) on a 2-d view. transpose + matmul cost ~2.7x
        # more on CPU, and the transposed weight made the weight gradient a strided view that needed an extra
        # Contiguous kernel in backward. Both grads of MatMul(transpose_b) are plain contiguous matmuls.
        shp = _shape(input)
        x2 = input if input.ndim == 2 else ops.reshape(input, (-1, shp[-1]))
        out = _MATMUL_TB(x2, weight)
        if bias is not None:
            # Add rather than BiasAdd (measured on CPU, forward + backward): as fast or faster (0.8-1.06x), and
            # LeNet's forward kept ~half as much memory per step with it (MindSpore retained BiasAdd's buffers)
            out = _add_bias(out, bias)
        return out if input.ndim == 2 else ops.reshape(out, shp[:-1] + (_shape(weight)[0],))
    out = ops.matmul(input, ops.transpose(weight, (1, 0)) if weight.ndim == 2 else weight)
    if bias is not None:
        out = ops.add(out, bias)
    return out


_MATMUL_TB = ops.MatMul(transpose_b=True)
_MATMUL_FLOATS = (ms.float32, ms.float16, ms.float64)


def _onednn_linear_ok(x: Any, w: Any, b: Any) -> bool:
    """A CPU float32 Linear runs oneDNN's matmul with the bias fused (`misc.onednn_matmul`); a bias of one element
    (broadcast, as torch allows) keeps the general path."""
    return x.ndim >= 2 and (b is None or _shape(b) == _shape(w)[:1]) and onednn_matmul_ok(x, w)


@register("bilinear", method=False, namespaces=_NS)
def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Any:
    """y_k = x1^T W_k x2 + b_k.  input1 (*, in1), input2 (*, in2), weight (out, in1, in2) -> (*, out)."""
    lead = _shape(input1)[:-1]
    a = _reshape(input1, (-1, _shape(input1)[-1]))
    b = _reshape(input2, (-1, _shape(input2)[-1]))
    o, i1, i2 = _shape(weight)
    # (B, in1) @ (in1, out*in2) -> (B, out, in2), then contract in2 with x2.
    t = ops.matmul(a, _reshape(ops.transpose(weight, (1, 0, 2)), (i1, o * i2)))
    t = _reshape(t, (-1, o, i2))
    out = ops.sum(ops.mul(t, ops.expand_dims(b, 1)), 2)
    if bias is not None:
        out = ops.add(out, bias)
    return _reshape(out, (*lead, o))


# ------------------------------------------------------------------------------------------ convolution
def _conv_padding(padding: Any, n: int, kernel: Sequence[int], dilation: Sequence[int],
                  stride: Sequence[int]) -> List[Tuple[int, int]]:
    """Per spatial dim (before, after) padding for torch's int/tuple/'same'/'valid' padding."""
    if isinstance(padding, str):
        if padding == "valid":
            return [(0, 0)] * n
        if padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            out = []
            for k, d in zip(kernel, dilation):
                total = d * (k - 1)
                out.append((total // 2, total - total // 2))  # torch puts the odd extra pad at the end
            return out
        raise ValueError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    p = _ntuple(padding, n, "padding")
    return [(x, x) for x in p]


def _conv_check_weight(input: Any, weight: Any, bias: Any, groups: int) -> None:
    """torch's checks of a convolution's weight and bias against its (batched) input (Convolution.cpp)."""
    ws, xs = list(_shape(weight)), list(_shape(input))
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {ws} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size {ws} instead")
    if xs[1] != ws[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {ws}, expected input{xs} to have "
                           f"{ws[1] * groups} channels, but got {xs[1]} channels instead")
    if input.dtype != weight.dtype:
        raise RuntimeError(f"Input type ({D.scalar_name(input.dtype)}) and weight type "
                           f"({D.scalar_name(weight.dtype)}) should be the same")
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({D.scalar_name(input.dtype)}) and bias type ({D.scalar_name(bias.dtype)}) "
                           "should be the same")


def _convnd(input: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any, groups: int,
            n: int) -> Any:
    """N-d convolution (n = 1, 2, 3) on MindSpore's native kernels; unbatched inputs accepted as in torch."""
    unbatched = input.ndim == n + 1
    if unbatched:
        input = ops.expand_dims(input, 0)
    if input.ndim != n + 2:
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to conv{n}d, but got input of size: "
            f"{list(_shape(input))}")
    _conv_check_weight(input, weight, bias, groups)
    stride_t = _ntuple(stride, n, "stride")
    dil_t = _ntuple(dilation, n, "dilation")
    kernel = _shape(weight)[2:]
    pads = _conv_padding(padding, n, kernel, dil_t, stride_t)
    padded = [sz + a + b for sz, (a, b) in zip(_shape(input)[2:], pads)]
    if any(p < d * (k - 1) + 1 for p, d, k in zip(padded, dil_t, kernel)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
            f"({' x '.join(str(d * (k - 1) + 1) for d, k in zip(dil_t, kernel))}). Kernel size can't be greater "
            "than actual input size")
    x, w = input, weight
    if n == 1:  # conv1d as conv2d over (N, C, 1, L)
        x, w = ops.expand_dims(x, 2), ops.expand_dims(w, 2)
        stride_t, dil_t, pads = (1, *stride_t), (1, *dil_t), [(0, 0), *pads]
    if all(a == b for a, b in pads):
        pad_arg: Any = tuple(a for a, _ in pads)
    else:  # asymmetric ('same' with an even kernel): pad explicitly
        flat = []
        for a, b in reversed(pads):
            flat += [a, b]
        x = ops.pad(x, tuple(flat))
        pad_arg = (0,) * len(pads)
    if n == 3 and _onednn_conv_ok(x):
        out = _conv_onednn(x, w, bias, stride_t, pad_arg, dil_t, groups)
    elif n == 3 and x.dtype == ms.float64:  # MindSpore's Conv3D has no float64 kernel (as 2-d, `_conv2d_cpu`)
        out = _with_bias(_conv_im2col_banded(x, w, stride_t, pad_arg, dil_t, groups), bias)
    elif n == 3:
        out = ops.conv3d(x, w, None, stride_t, "pad", pad_arg, dil_t, groups)
        if bias is not None:
            out = _add_bias(out, _reshape(bias, (1, -1, 1, 1, 1)))
    else:
        out = _DISPATCHERS["_conv2d_kernel"](x, w, bias, stride_t, pad_arg, dil_t, groups)
    if n == 1:
        out = ops.squeeze(out, 2)
    if unbatched:
        out = ops.squeeze(out, 0)
    return out


@register("_conv2d_kernel", method=False, function=False)
def _conv2d_kernel(x: Any, w: Any, bias: Any, stride: Tuple[int, int], padding: Tuple[int, int],
                   dilation: Tuple[int, int], groups: int) -> Any:
    """The 2-d convolution under conv1d/conv2d: x (N, C, H, W), w (O, C/groups, kH, kW), bias (O,) or None,
    symmetric zero `padding` (pH, pW) -> (N, O, H_out, W_out). MindSpore's native kernel (GPU/Ascend)."""
    return _with_bias(_conv2d_native(x, w, stride, padding, dilation, groups), bias)


def _with_bias(out: Any, bias: Any) -> Any:
    return out if bias is None else _add_bias(out, _reshape(bias, (1, -1) + (1,) * (out.ndim - 2)))


def _conv2d_native(x: Any, w: Any, stride: Tuple[int, int], padding: Tuple[int, int], dilation: Tuple[int, int],
                   groups: int) -> Any:
    """MindSpore's native Conv2D, no bias."""
    return ops.conv2d(x, w, None, stride, "pad", padding, dilation, groups)


_IM2COL_MAX_ELEMENTS = 1 << 26  # the column buffer of im2col (N * C * prod(kernel) * prod(out)): 256 MB in float32


def _conv_im2col(x: Any, w: Any, stride: Tuple[int, ...], padding: Tuple[int, ...], dilation: Tuple[int, ...],
                 groups: int) -> Any:
    """The same convolution (2-d or 3-d) as im2col + MatMul: one Gather lays the kernel's shifted (strided,
    dilated) windows of x out as columns (N, C*prod(k), prod(out)), and a batched MatMul with the weight matrix (per
    group) lands directly in NC(D)HW layout. Exact in every float dtype (the float64 route: MindSpore's CPU Conv2D
    and Conv3D have no float64 kernel). Measured on CPU (2-d): the Gather (and its backward) 2-4x faster than
    stacking the kernel's strided slices, and BatchMatMul on an explicitly broadcast weight ~1.5x faster than a
    broadcasting MatMul."""
    if any(padding):
        x = ops.pad(x, tuple(v for p in reversed(padding) for v in (p, p)))
    n, c, *size = _shape(x)
    o, cg, *kernel = _shape(w)
    outs = tuple((sz - d * (k - 1) - 1) // s + 1 for sz, k, s, d in zip(size, kernel, stride, dilation))
    k, cells, volume = cg * math.prod(kernel), math.prod(outs), math.prod(size)
    if all(v == 1 for v in kernel) and all(v == 1 for v in stride):
        cols = ops.reshape(x, (n, c, volume))  # a 1x1 convolution is a plain matmul: no copy
    else:
        cols = ops.reshape(ops.gather(ops.reshape(x, (n, c, volume)),
                                      _im2col_index(tuple(size), tuple(kernel), stride, dilation, outs), 2),
                           (n, c * math.prod(kernel), cells))
    if groups == 1:
        out = ops.bmm(ops.broadcast_to(ops.reshape(w, (1, o, k)), (n, o, k)), cols)  # (N, O, L)
    else:
        out = ops.matmul(ops.reshape(w, (groups, o // groups, k)),
                         ops.reshape(cols, (n, groups, k, cells)))  # (N, G, O/G, L)
    return ops.reshape(out, (n, o, *outs))


def _conv_im2col_banded(x: Any, w: Any, stride: Tuple[int, ...], padding: Tuple[int, ...],
                        dilation: Tuple[int, ...], groups: int) -> Any:
    """im2col + MatMul over bands of the first spatial dim of the output (rows; depth slices in 3-d), each band's
    column buffer within _IM2COL_MAX_ELEMENTS, so a large image (a detection FPN at 800 px) keeps the im2col path's
    speed without one huge buffer. Each band reads the input rows its outputs need (a strided_slice, whose
    backward has a derivative: double backward works, unlike narrow's Slice); the bands are concatenated along
    that dim. One band: the plain path."""
    n, c, *size = _shape(x)
    o, cg, *kernel = _shape(w)
    outs = [(sz + 2 * p - d * (k - 1) - 1) // s + 1 for sz, k, s, p, d in zip(size, kernel, stride, padding, dilation)]
    rows = max(1, _IM2COL_MAX_ELEMENTS // max(1, n * c * math.prod(kernel) * math.prod(outs[1:])))
    if rows >= outs[0] or (all(v == 1 for v in kernel) and all(v == 1 for v in stride)):  # fits, or 1x1 (no buffer)
        return _conv_im2col(x, w, stride, padding, dilation, groups)
    if any(padding):
        x = ops.pad(x, tuple(v for p in reversed(padding) for v in (p, p)))
    s0, d0, k0 = stride[0], dilation[0], kernel[0]
    bands = []
    for r0 in range(0, outs[0], rows):
        r1 = min(outs[0], r0 + rows)
        top, bottom = r0 * s0, (r1 - 1) * s0 + d0 * (k0 - 1) + 1
        band = _spatial_slice(x, (top,) + (0,) * (len(size) - 1), (1,) * len(size),
                              (bottom - top, *_shape(x)[3:]))
        bands.append(_conv_im2col(band, w, stride, (0,) * len(padding), dilation, groups))
    return ops.cat(bands, 2)


_IM2COL_INDEX: dict = {}


def _im2col_index(size: Tuple[int, ...], kernel: Tuple[int, ...], stride: Tuple[int, ...],
                  dilation: Tuple[int, ...], outs: Tuple[int, ...]) -> Any:
    """Positions in the flattened spatial volume (prod(size)) of every (kernel position..., output position...), in
    the order the weight matrix (C, *kernel) flattens; cached per geometry."""
    key = (size, kernel, stride, dilation)
    idx = _IM2COL_INDEX.get(key)
    if idx is None:
        grids = np.meshgrid(*(np.arange(k) for k in kernel), *(np.arange(v) for v in outs), indexing="ij")
        nd = len(size)
        coords = [grids[j] * dilation[j] + grids[nd + j] * stride[j] for j in range(nd)]
        flat = np.ravel_multi_index(coords, size).reshape(-1).astype(np.int32)
        idx = _IM2COL_INDEX[key] = _MsTensor(flat)
    return idx


_CONV2D_GRAD_PRIMS: dict = {}


def _conv2d_grad_prims(o: int, kh: int, kw: int, stride: Tuple[int, int], padding: Tuple[int, int],
                       dilation: Tuple[int, int], groups: int) -> Tuple[Any, Any]:
    """MindSpore's Conv2DBackpropInput and Conv2DBackpropFilter for one geometry (cached): the kernels MindSpore's
    own Conv2D bprop emits, with the same attributes."""
    key = (o, kh, kw, stride, padding, dilation, groups)
    prims = _CONV2D_GRAD_PRIMS.get(key)
    if prims is None:
        pads = (padding[0], padding[0], padding[1], padding[1])
        kwargs = dict(pad_mode="pad", pad=pads, pad_list=pads, mode=1, stride=stride, dilation=dilation,
                      group=groups)
        prims = _CONV2D_GRAD_PRIMS[key] = (ops.Conv2DBackpropInput(o, (kh, kw), **kwargs),
                                           _ms.conv2d_backprop_filter(o, (kh, kw), **kwargs))
    return prims


class _NativeConv2d(Function):
    """The native Conv2D as a custom node whose backward calls Conv2DBackpropInput/Conv2DBackpropFilter directly.

    Why not the recorded primitive: MindSpore's tape replays Conv2D's bprop through its single-op compiler, which
    for an input that is a graph constant (a leaf not requiring grad - every data batch - and, depending on how
    the tensors were made, others) formats the tensor's every value into the op's cache key: measured 250-300 ms
    instead of ~35 ms for LeNet's first conv at batch 128, and ~5 MB of key strings kept per new batch. Here the
    backward kernels get plain tensor arguments. Saves x and w only (as the recorded primitive does); dx is
    computed only when x needs it. Double backward works: under create_graph MindSpore records the two kernels,
    which have their own bprops."""

    @staticmethod
    def forward(ctx: Any, x: Any, w: Any, stride: Tuple[int, int], padding: Tuple[int, int],
                dilation: Tuple[int, int], groups: int) -> Any:
        ctx.save_for_backward(x, w)
        ctx.geometry = (stride, padding, dilation, groups)
        return _conv2d_native(x, w, stride, padding, dilation, groups)

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, ...]:
        x, w = ctx.saved_tensors
        stride, padding, dilation, groups = ctx.geometry
        o, _, kh, kw = _shape(w)
        grad_input, grad_filter = _conv2d_grad_prims(o, kh, kw, stride, padding, dilation, groups)
        dx = grad_input(dout, w, _shape(x)) if ctx.needs_input_grad[0] else None
        dw = grad_filter(dout, x, _shape(w)) if ctx.needs_input_grad[1] else None
        return dx, dw, None, None, None, None


def _conv2d_native_node(x: Any, w: Any, stride: Tuple[int, int], padding: Tuple[int, int],
                        dilation: Tuple[int, int], groups: int) -> Any:
    """The native kernel, recorded as `_NativeConv2d` when autograd records (the plain kernel otherwise)."""
    if not _ms.is_recording():
        return _conv2d_native(x, w, stride, padding, dilation, groups)
    return _NativeConv2d.apply(x, w, stride, padding, dilation, groups)


class _OneDnnConv(Function):
    """oneDNN's convolution (`_onednn`) as one autograd node: x (N, C, *spatial), w (O, C/groups, *kernel), bias
    (O,) or None -> (N, O, *out), 2-d or 3-d; backward computes dx (only when x needs it), dw and dbias with
    oneDNN. Under create_graph the 2-d backward is MindSpore's Conv2DBackpropInput/Filter pair instead (recorded,
    as `_NativeConv2d`), so double backward works; 3-d raises (`_conv3d_double_backward_unsupported`)."""

    @staticmethod
    def forward(ctx: Any, x: Any, w: Any, bias: Any, stride: Tuple[int, ...], padding: Tuple[int, ...],
                dilation: Tuple[int, ...], groups: int) -> Any:
        ctx.save_for_backward(x, w)
        ctx.geometry = (stride, padding, dilation, groups)
        return _conv_onednn_value(x, w, bias, stride, padding, dilation, groups)

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, ...]:
        x, w = ctx.saved_tensors
        stride, padding, dilation, groups = ctx.geometry
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        axes = (0, *range(2, len(_shape(x))))
        if _ms.is_recording():  # create_graph: differentiable kernels
            if len(stride) != 2:
                _conv3d_double_backward_unsupported()
            o, _, kh, kw = _shape(w)
            grad_input, grad_filter = _conv2d_grad_prims(o, kh, kw, stride, padding, dilation, groups)
            dx = grad_input(dout, w, _shape(x)) if need_x else None
            dw = grad_filter(dout, x, _shape(w)) if need_w else None
            return dx, dw, (ops.sum(dout, axes) if need_b else None), None, None, None, None
        g = _host_f32(dout)
        dx = dw = db = None
        if need_x:
            dx = _MsTensor.from_numpy(_onednn.conv_backward_data(g, _host_f32(w), _shape(x), stride, padding,
                                                                 dilation, groups))
        if need_w:
            dw = _MsTensor.from_numpy(_onednn.conv_backward_weights(g, _host_f32(x), _shape(w), stride, padding,
                                                                    dilation, groups))
        if need_b:
            db = _MsTensor.from_numpy(g.sum(axis=axes))
        return dx, dw, db, None, None, None, None


def _conv3d_double_backward_unsupported() -> NoReturn:
    """A 3-d (transposed) convolution's backward under create_graph: MindSpore 2.10 has no derivative of
    Conv3DBackpropInput (the second backward failed with "bprop not defined"), so say so at the first one."""
    raise NotImplementedError(
        "mindtorch: conv3d double backward (autograd with create_graph=True through a 3-d convolution) is not "
        "supported: MindSpore 2.10 has no derivative of Conv3DBackpropInput. First-order gradients work.")


def _host_f32(t: Any) -> np.ndarray:
    """A float32 CPU tensor's data as a C-contiguous numpy array (shared memory when already contiguous)."""
    return np.ascontiguousarray(_MsTensor.asnumpy(t))


def _conv_onednn_value(x: Any, w: Any, bias: Any, stride: Tuple[int, ...], padding: Tuple[int, ...],
                       dilation: Tuple[int, ...], groups: int) -> Any:
    b = None if bias is None else _host_f32(bias)
    return _MsTensor.from_numpy(_onednn.conv_forward(_host_f32(x), _host_f32(w), b, stride, padding, dilation,
                                                     groups))


def _conv_onednn(x: Any, w: Any, bias: Any, stride: Tuple[int, ...], padding: Tuple[int, ...],
                 dilation: Tuple[int, ...], groups: int) -> Any:
    """oneDNN's convolution, recorded as `_OneDnnConv` when autograd records and an operand needs a gradient."""
    if _ms.records_grad(x, w, bias):
        return _OneDnnConv.apply(x, w, bias, stride, padding, dilation, groups)
    return _conv_onednn_value(x, w, bias, stride, padding, dilation, groups)


def _onednn_conv_ok(x: Any) -> bool:
    """oneDNN's convolution applies: a CPU float32 convolution (dtypes checked equal) with the library loaded."""
    return _ms.HOST_MEMORY and x.dtype == ms.float32 and _onednn.available()


@register("_conv2d_kernel", target="CPU", method=False, function=False)
def _conv2d_cpu(x: Any, w: Any, bias: Any, stride: Tuple[int, int], padding: Tuple[int, int],
                dilation: Tuple[int, int], groups: int) -> Any:
    """On CPU: oneDNN's convolution for float32 (see `_onednn`: 10-200x MindSpore's CPU kernels); otherwise the
    faster of the native kernel and im2col + MatMul, measured per signature (`_autotune`)."""
    xs, ws = _shape(x), _shape(w)
    if x.dtype == ms.float64:  # MindSpore's native CPU Conv2D has no float64 kernel: im2col is the only candidate
        return _with_bias(_conv_im2col_banded(x, w, stride, padding, dilation, groups), bias)
    native = ("native", lambda: _with_bias(_conv2d_native_node(x, w, stride, padding, dilation, groups), bias))
    if x.dtype not in (ms.float32, ms.float16):
        return native[1]()
    sig = (xs, ws, stride, padding, dilation, groups, x.dtype)
    im2col = ("im2col", lambda: _with_bias(_conv_im2col_banded(x, w, stride, padding, dilation, groups), bias))
    if _onednn_conv_ok(x):
        onednn = ("onednn", lambda: _conv_onednn(x, w, bias, stride, padding, dilation, groups))
        return _autotune.run("conv2d", sig, (onednn, im2col, native), preferred="onednn")
    return _autotune.run("conv2d", sig, (im2col, native))


@register("conv1d", method=False, namespaces=_NS)
def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int = 1) -> Any:
    """input (N, C_in, L) or (C_in, L), weight (C_out, C_in/groups, k) -> (N, C_out, L_out)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 1)


@register("conv2d", method=False, namespaces=_NS)
def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int = 1) -> Any:
    """input (N, C_in, H, W) or (C_in, H, W), weight (C_out, C_in/groups, kH, kW) -> (N, C_out, H_out, W_out)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 2)


@register("conv3d", method=False, namespaces=_NS)
def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int = 1) -> Any:
    """input (N, C_in, D, H, W), weight (C_out, C_in/groups, kD, kH, kW) -> (N, C_out, D_out, H_out, W_out)."""
    return _convnd(input, weight, bias, stride, padding, dilation, groups, 3)


# ---------------------------------------------------------------------------------------------- padding
@register("pad", function=False, method=False, namespaces=_NS)
def pad(input: Any, pad: Sequence[int], mode: str = "constant", value: Optional[float] = None) -> Any:
    """torch.nn.functional.pad: `pad` lists (before, after) pairs starting from the LAST dim."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length too large")
    if mode == "constant":
        if any(p < 0 for p in pad):  # negative padding crops
            x = input
            for i in range(len(pad) // 2):
                dim = input.ndim - 1 - i
                a, b = pad[2 * i], pad[2 * i + 1]
                size = _shape(x)[dim]
                if a < 0 or b < 0:
                    x = ops.narrow(x, dim, max(-a, 0), size - max(-a, 0) - max(-b, 0))
            pad = tuple(max(p, 0) for p in pad)
            input = x
        return ops.pad(input, pad, "constant", 0.0 if value is None else value)
    if value is not None and value != 0:
        raise ValueError(f'Padding mode "{mode}" doesn\'t take in value argument.')
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"torch.nn.functional.pad: mode '{mode}' is not supported")
    n = len(pad) // 2
    if input.ndim not in (n + 1, n + 2):
        raise NotImplementedError(
            f"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now (input dim "
            f"{input.ndim}, pad {list(pad)})")
    if mode == "reflect":
        for i in range(n):
            size = _shape(input)[input.ndim - 1 - i]
            if pad[2 * i] >= size or pad[2 * i + 1] >= size:
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                    f"padding ({pad[2 * i]}, {pad[2 * i + 1]}) at dimension {input.ndim - 1 - i} of input "
                    f"{list(_shape(input))}")
    return _index_pad(input, pad, mode)


def _index_pad(x: Any, pad: Sequence[int], mode: str) -> Any:
    """reflect/replicate/circular padding as one gather per padded dim with torch's source indices.

    Exact for every rank (MindSpore's PadV3 reflect stops at 4-d) and differentiable (gather's grad sums the
    contributions of repeated source positions, as torch's pad backward does)."""
    for i in range(len(pad) // 2):
        dim = x.ndim - 1 - i
        a, b = pad[2 * i], pad[2 * i + 1]
        if a == 0 and b == 0:
            continue
        size = _shape(x)[dim]
        pos = np.arange(-a, size + b)
        if mode == "reflect":
            period = 2 * (size - 1) if size > 1 else 1
            m = np.mod(pos, period)
            idx = np.where(m >= size, period - m, m)
        elif mode == "replicate":
            idx = np.clip(pos, 0, size - 1)
        else:
            if a > size or b > size:
                raise RuntimeError("Padding value causes wrapping around more than once.")
            idx = np.mod(pos, size)
        x = ops.gather(x, _MsTensor(idx.astype(np.int32)), dim)
    return x


# ---------------------------------------------------------------------------------------------- pooling
def _pool_out(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """torch's pooling output size (a ceil-mode window must start inside the input or left padding)."""
    eff = d * (k - 1) + 1
    num = size + 2 * p - eff
    out = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_out_sizes(x: Any, k: Sequence[int], s: Sequence[int], p: Sequence[int], d: Sequence[int],
                    ceil_mode: bool) -> List[int]:
    """The output sizes of a pooling over batched x, with torch's error when one is below 1 (pool_shape_check)."""
    sizes = _shape(x)[2:]
    outs = [_pool_out(sz, ki, si, pi, di, ceil_mode) for sz, ki, si, pi, di in zip(sizes, k, s, p, d)]
    if min(outs) < 1:
        c = _shape(x)[1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (c, *sizes)))}). Calculated output size: "
                           f"({'x'.join(map(str, (c, *outs)))}). Output size is too small")
    return outs


def _pool_args(kernel_size: Any, stride: Any, padding: Any, dilation: Any, n: int) -> Tuple[Tuple[int, ...], ...]:
    k = _ntuple(kernel_size, n, "kernel_size")
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else _ntuple(stride, n)
    p = _ntuple(padding, n, "padding")
    d = _ntuple(dilation, n, "dilation")
    for pi, ki in zip(p, k):
        if pi > ki // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pi}, "
                               f"kernel_size={ki} and dilation=1")
    return k, s, p, d


def _tiled_pool(x: Any, k: Sequence[int], n: int, kind: str) -> Any:
    """Non-overlapping windows (stride == kernel, no padding, no dilation, floor mode): crop the remainder,
    reshape to (N, C, o1, k1, o2, k2, ...) and reduce the k axes. Several times faster than the window
    gathering (and than MindSpore's MaxPool backward on CPU, measured 145 ms vs 816 ms on LeNet's pool)."""
    sizes = _shape(x)[2:]
    outs = [sz // ki for sz, ki in zip(sizes, k)]
    for j in range(n):
        if outs[j] * k[j] != sizes[j]:
            x = ops.narrow(x, 2 + j, 0, outs[j] * k[j])
    shp = list(_shape(x)[:2])
    for o, ki in zip(outs, k):
        shp += [o, ki]
    y = _reshape(x, shp)
    axes = tuple(3 + 2 * j for j in range(n))
    if kind == "max":
        # One argmax reduction per window axis, innermost first: the gradient goes to ONE maximum per window, the
        # first in row-major order (torch's), not shared among ties as a plain max-reduction's gradient is (ReLU
        # outputs tie at 0). Reducing in place of a transpose to (..., k1*k2) skips a copy: 2x faster forward +
        # backward on LeNet's first pool.
        # mint.max (MaxDim), not ops.max (ArgMaxWithValue): the latter saves its values output for backward, so
        # the common `MaxPool2d -> ReLU(inplace=True)` (the STN tutorial's localization net) failed backward with
        # "modified by an inplace operation"; torch's max-pool backward keeps only the indices.
        for ax in reversed(axes):
            y = mint.max(y, ax)[0]
        return y
    return ops.sum(y, axes) if kind == "sum" else ops.mean(y, axes)


class _OneDnnPool(Function):
    """oneDNN's pooling (`_onednn`) as one autograd node: x (N, C, *spatial) -> (N, C, *out). Max pooling keeps
    oneDNN's workspace (the argmax per window, the first maximum in row-major order as in torch) for backward.
    Under create_graph the backward is built from MindSpore ops (recorded): the gradient of a pooling is linear in
    the output gradient."""

    @staticmethod
    def forward(ctx: Any, x: Any, alg: str, geometry: Tuple[Any, ...]) -> Any:
        out, ws = _onednn.pool_forward(_host_f32(x), *_pool_call(x, alg, geometry), training=True)
        ctx.save_for_backward(x)
        ctx.alg, ctx.geometry, ctx.workspace = alg, geometry, ws
        return _MsTensor.from_numpy(out)

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, ...]:
        (x,) = ctx.saved_tensors
        if _ms.is_recording():  # create_graph: the same gradient from recorded MindSpore ops
            return _pool_grad_recorded(x, dout, ctx.alg, ctx.geometry), None, None
        _, alg, k, s, pl, pr, d = _pool_call(x, ctx.alg, ctx.geometry)
        dx = _onednn.pool_backward(_host_f32(dout), _shape(x), alg, k, s, pl, pr, d, ctx.workspace)
        return _MsTensor.from_numpy(dx), None, None


def _pool_call(x: Any, alg: str, geometry: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """(out_shape, alg, kernel, stride, pad_left, pad_right, dilation) for `_onednn.pool_forward/backward`."""
    k, s, pl, pr, d, outs, _ = geometry
    return (*_shape(x)[:2], *outs), alg, k, s, pl, pr, d


def _pool_grad_recorded(x: Any, dout: Any, alg: str, geometry: Tuple[Any, ...]) -> Any:
    """d(pool)/dx applied to dout, as a function of dout built from MindSpore ops (recorded under create_graph):
    the vjp of the MindSpore composition of the same pooling, which is linear in dout."""
    from .._grad_mode import enable_grad
    from ..autograd import grad as _grad

    k, s, p, _, d, _, ceil_mode = geometry
    with enable_grad():
        xd = x.detach().requires_grad_(True)
        if alg == "max":
            y = _max_poolnd(xd, k, s, p, d, ceil_mode, False, len(k), composed=True)
        else:
            y = _avg_poolnd(xd, k, s, p, ceil_mode, alg == "avg_include", None, len(k), composed=True)
        return _grad(y, xd, dout, create_graph=True)[0]


def _onednn_pool_ok(x: Any, n: int) -> bool:
    """oneDNN pooling applies: CPU float32 2-d pooling with the library loaded."""
    return n == 2 and _ms.HOST_MEMORY and x.dtype == ms.float32 and _onednn.available()


def _pool_onednn(x: Any, alg: str, k: Sequence[int], s: Sequence[int], p: Sequence[int], d: Sequence[int],
                 ceil_mode: bool, outs: Sequence[int]) -> Any:
    """Pooling with oneDNN, or None where its semantics differ from torch's (then the caller's MindSpore
    composition runs): NaN in a max pooling's input (oneDNN's max skips NaN, torch's propagates it; one host
    pass over x to tell), and an average over windows that ceil mode extends past the right padding (torch's
    divisor stops at the padding, oneDNN's would count the extra)."""
    sizes = _shape(x)[2:]
    if min(_shape(x)[:2]) == 0:
        return None
    pr = [(o - 1) * si + di * (ki - 1) + 1 - sz - pi for sz, ki, si, pi, di, o in zip(sizes, k, s, p, d, outs)]
    pr = [max(v, 0) for v in pr]
    if any((sz + pi + r - (di * (ki - 1) + 1)) // si + 1 != o
           for sz, ki, si, pi, di, o, r in zip(sizes, k, s, p, d, outs, pr)):
        return None
    if alg != "max" and any(r > pi for r, pi in zip(pr, p)):
        return None
    if alg == "max" and _ms.may_hold_nan(x):
        return None
    geometry = (tuple(k), tuple(s), tuple(p), tuple(pr), tuple(d), tuple(outs), ceil_mode)
    if _ms.records_grad(x):
        return _OneDnnPool.apply(x, alg, geometry)
    out, _ = _onednn.pool_forward(_host_f32(x), *_pool_call(x, alg, geometry), training=False)
    return _MsTensor.from_numpy(out)


def _max_poolnd(input: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
                return_indices: bool, n: int, composed: bool = False) -> Any:
    """Max pooling: oneDNN's kernel on CPU float32 (`_pool_onednn`), otherwise (and with `composed`) window
    gathering: pad with -inf, take the k^n strided slices, reduce.

    Exact torch semantics (ceil_mode, dilation, padding, indices as flat positions in the unpadded plane) on
    any target, and differentiable through MindSpore's max/gather ops.
    """
    k, s, p, d = _pool_args(kernel_size, stride, padding, dilation, n)
    unbatched = input.ndim == n + 1
    x = ops.expand_dims(input, 0) if unbatched else input
    sizes = _shape(x)[2:]
    outs = _pool_out_sizes(x, k, s, p, d, ceil_mode)
    if _shape(x)[0] == 0:  # an empty batch: torch returns the empty result
        out = ops.zeros((*_shape(x)[:2], *outs), x.dtype)
        return (out, ops.zeros(_shape(out), ms.int64)) if return_indices else out
    if not (return_indices or composed) and _onednn_pool_ok(x, n):
        out = _pool_onednn(x, "max", k, s, p, d, ceil_mode, outs)
        if out is not None:
            return ops.squeeze(out, 0) if unbatched else out
    nan = id(x.dtype) in _REAL_FLOATS and _ms.may_hold_nan(x)  # torch: a window holding NaN gives NaN
    if (not (return_indices or nan) and tuple(k) == tuple(s) and not any(p) and all(v == 1 for v in d)
            and (not ceil_mode or all(sz % ki == 0 for sz, ki in zip(sizes, k)))):
        out = _tiled_pool(x, k, n, "max")
        return ops.squeeze(out, 0) if unbatched else out
    # pad: left p, right enough for the last window
    pads = []
    for sz, ki, si, pi, di, o in zip(sizes, k, s, p, d, outs):
        need = (o - 1) * si + di * (ki - 1) + 1
        pads.append((pi, max(need - sz - pi, 0)))
    flat = []
    for a, b in reversed(pads):
        flat += [a, b]
    neg = float("-inf") if x.dtype in D.all_float_type else int(np.iinfo(D.to_numpy_dtype(x.dtype)).min)
    xp = ops.pad(x, tuple(flat), "constant", neg) if any(flat) else x
    windows = []
    offsets = []
    for idx in np.ndindex(*k):
        windows.append(_spatial_slice(xp, [i * di for i, di in zip(idx, d)], s, outs))
        offsets.append(idx)
    stacked = ops.stack(windows, 2)  # (N, C, K, *outs)
    values, arg = mint.max(stacked, 2)  # see _tiled_pool: an in-place op may follow
    if nan:
        values, arg = _nan_wins(stacked, values, (2,), False, arg)
    if not return_indices:
        return ops.squeeze(values, 0) if unbatched else values
    # flat index in the unpadded input plane: sum over dims of (out_pos*s + k_idx*d - p) * stride_of_dim
    off = np.array(offsets, dtype=np.int64)  # (K, n)
    idx_total = None
    plane_stride = 1
    for j in reversed(range(n)):
        kpos = _MsTensor(off[:, j] * d[j])
        pos = ops.gather(kpos, arg, 0)  # (N, C, *outs)
        grid = np.arange(outs[j], dtype=np.int64) * s[j] - p[j]
        grid = grid.reshape((1, 1) + tuple(outs[j] if q == j else 1 for q in range(n)))
        coord = ops.add(pos, _MsTensor(grid))
        term = coord * plane_stride if plane_stride != 1 else coord
        idx_total = term if idx_total is None else ops.add(idx_total, term)
        plane_stride *= sizes[j]
    idx_total = ops.cast(idx_total, ms.int64)
    if unbatched:
        return ops.squeeze(values, 0), ops.squeeze(idx_total, 0)
    return values, idx_total


@register("max_pool1d", method=False, namespaces=_NS)
def max_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """input (N, C, L) -> (N, C, L_out)."""
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1)


@register("max_pool2d", method=False, namespaces=_NS)
def max_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """input (N, C, H, W) -> (N, C, H_out, W_out) [, indices into H*W]."""
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


@register("max_pool3d", method=False, namespaces=_NS)
def max_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """input (N, C, D, H, W) -> (N, C, D_out, H_out, W_out)."""
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3)


@register("max_pool1d_with_indices", method=False, namespaces=_NS)
def max_pool1d_with_indices(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                            ceil_mode: bool = False, return_indices: bool = True) -> Any:
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, True, 1)


@register("max_pool2d_with_indices", function=False, method=False, namespaces=_NS)
def max_pool2d_with_indices(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                            ceil_mode: bool = False, return_indices: bool = True) -> Any:
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)


@register("max_pool3d_with_indices", function=False, method=False, namespaces=_NS)
def max_pool3d_with_indices(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                            ceil_mode: bool = False, return_indices: bool = True) -> Any:
    return _max_poolnd(input, kernel_size, stride, padding, dilation, ceil_mode, True, 3)


# --------------------------------------------------------------------------------------- fractional max pooling
def _fractional_starts(sample: np.ndarray, size: int, out: int, k: int) -> np.ndarray:
    """torch's `generate_intervals` for every plane at once: the `out` window starts along one dim from each plane's
    sample in [0, 1) (shape (N, C) -> (N, C, out)), in the input's precision as torch's kernel computes them, so the
    same samples give the same windows."""
    seq = np.empty(sample.shape + (out,), np.int64)
    if out > 1:
        alpha = sample.dtype.type(size - k) / sample.dtype.type(out - 1)
        u = sample[..., None]
        seq[..., :-1] = ((np.arange(out - 1, dtype=sample.dtype) + u) * alpha).astype(np.int64) - \
            (u * alpha).astype(np.int64)
    if out > 0:
        seq[..., -1] = size - k
    return seq


def _fractional_max_poolnd(input: Any, kernel_size: Any, output_size: Any, output_ratio: Any,
                           return_indices: bool, samples: Any, n: int) -> Any:
    """Fractional max pooling (Graham 2014) over the last n dims: one `kernel_size` window per output position,
    at starts drawn per plane from `samples` (N, C, n) in [0, 1) (torch.rand when None). Values are one gather of
    every window's elements and a max over them, so autograd flows as torch's (gradient to the first maximum of
    each window, summed where windows overlap); indices are flat positions in the input plane."""
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if input.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got: {list(_shape(input))}")
    if input.dtype not in (D.float16, D.float32, D.float64, D.bfloat16):
        raise RuntimeError(f'"{name}_out_frame" not implemented for \'{D.scalar_name(input.dtype)}\'')
    k = _ntuple(kernel_size, n, "kernel_size")
    sizes = _shape(input)[-n:]
    if output_size is None:
        ratio = tuple(output_ratio) if isinstance(output_ratio, (list, tuple)) else (output_ratio,) * n
        outs = tuple(int(sz * float(r)) for sz, r in zip(sizes, ratio))
    else:
        outs = _ntuple(output_size, n, "output_size")
    for what, sz, o, ki in zip(("time", "height", "width")[3 - n:], sizes, outs, k):
        if o + ki - 1 > sz:
            raise RuntimeError(f"{name}(): pool {what} {ki} too large relative to input {what} {sz}")
    unbatched = input.ndim == n + 1
    x = ops.expand_dims(input, 0) if unbatched else input
    nb, c = _shape(x)[:2]
    if samples is None:
        samples = ops.cast(ops.uniform((nb, c, n), _MsTensor(0.0, ms.float32), _MsTensor(1.0, ms.float32)),
                           x.dtype)
    elif samples.dtype != x.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    u = _MsTensor.asnumpy(samples)
    if u.ndim != 3 or u.shape[2] != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got {u.shape[2] if u.ndim == 3 else 0}.")
    if u.shape[0] < nb or u.shape[1] != c:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if nb == 0 or c == 0 or 0 in outs:
        out = ops.zeros((nb, c, *outs), x.dtype)
        res = (out, ops.zeros((nb, c, *outs), ms.int64))
    else:
        # flat index of every window element: (N, C, *outs, *k). torch's samples are (W, H) for 2-d, (T, H, W)
        # for 3-d.
        u = u[:nb].astype(np.float32 if x.dtype in (D.float16, D.bfloat16) else u.dtype)
        flat = np.zeros((nb, c) + (1,) * (2 * n), np.int64)
        stride = 1
        for j in reversed(range(n)):
            starts = _fractional_starts(u[:, :, (1 - j) if n == 2 else j], sizes[j], outs[j], k[j])
            shp = [nb, c] + [outs[j] if q == j else 1 for q in range(n)] + [1] * n
            taps = np.arange(k[j]).reshape([1, 1] + [1] * n + [k[j] if q == j else 1 for q in range(n)])
            flat = flat + (starts.reshape(shp) + taps) * stride
            stride *= sizes[j]
        kk = int(np.prod(k))
        flat = flat.reshape(nb, c, *outs, kk)
        windows = mint.reshape(mint.gather(mint.reshape(x, (nb, c, -1)), 2, _MsTensor(flat.reshape(nb, c, -1))),
                               (nb, c, *outs, kk))
        values, arg = mint.max(windows, -1)
        if id(x.dtype) in _REAL_FLOATS and _ms.may_hold_nan(x):
            # torch's kernel takes a NaN over any number, the last NaN of the window (value and gradient)
            nan = mint.isnan(windows)
            last = ops.argmax(mint.mul(nan.astype(ms.float32), _MsTensor(np.arange(1, kk + 1, dtype=np.float32))), -1)
            arg = mint.where(mint.any(nan, -1), last, arg)
            values = mint.squeeze(mint.gather(windows, -1, mint.unsqueeze(arg, -1)), -1)
        res = (values, mint.squeeze(mint.gather(_MsTensor(flat), -1, mint.unsqueeze(arg, -1)), -1))
    if unbatched:
        res = tuple(mint.squeeze(r, 0) for r in res)
    return res if return_indices else res[0]


def _fractional(n: int) -> None:
    def fractional_max_pool(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                            return_indices: bool = False, _random_samples: Any = None) -> Any:
        return _fractional_max_poolnd(input, kernel_size, output_size, output_ratio, return_indices,
                                      _random_samples, n)

    def with_indices(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                     return_indices: bool = False, _random_samples: Any = None) -> Any:
        return _fractional_max_poolnd(input, kernel_size, output_size, output_ratio, True, _random_samples, n)

    dims = "(N, C, H, W) -> (N, C, H_out, W_out)" if n == 2 else "(N, C, T, H, W) -> (N, C, T_out, H_out, W_out)"
    fractional_max_pool.__doc__ = f"Fractional max pooling, input {dims} [, indices into the input plane]."
    register(f"fractional_max_pool{n}d", function=False, method=False, namespaces=_NS)(fractional_max_pool)
    register(f"fractional_max_pool{n}d_with_indices", function=False, method=False, namespaces=_NS)(with_indices)


_fractional(2)
_fractional(3)


def _avg_poolnd(input: Any, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
                count_include_pad: bool, divisor_override: Optional[int], n: int, composed: bool = False) -> Any:
    """Average pooling by summing the k^n strided window slices, divided by torch's divisor."""
    k, s, p, d = _pool_args(kernel_size, stride, padding, 1, n)
    unbatched = input.ndim == n + 1
    x = ops.expand_dims(input, 0) if unbatched else input
    sizes = _shape(x)[2:]
    outs = _pool_out_sizes(x, k, s, p, d, ceil_mode)
    if _shape(x)[0] == 0:
        return ops.zeros((*_shape(x)[:2], *outs), x.dtype)
    if not (divisor_override or composed) and _onednn_pool_ok(x, n):
        out = _pool_onednn(x, "avg_include" if count_include_pad else "avg_exclude", k, s, p, d, ceil_mode, outs)
        if out is not None:
            return ops.squeeze(out, 0) if unbatched else out
    if tuple(k) == tuple(s) and not any(p) and (not ceil_mode or all(sz % ki == 0 for sz, ki in zip(sizes, k))):
        if divisor_override:
            out = ops.div(_tiled_pool(x, k, n, "sum"), float(divisor_override))
        else:
            out = _tiled_pool(x, k, n, "avg")
        return ops.squeeze(out, 0) if unbatched else out
    pads = []
    for sz, ki, si, pi, o in zip(sizes, k, s, p, outs):
        need = (o - 1) * si + ki
        pads.append((pi, max(need - sz - pi, 0)))
    flat = []
    for a, b in reversed(pads):
        flat += [a, b]
    xp = ops.pad(x, tuple(flat)) if any(flat) else x
    total = None
    for idx in np.ndindex(*k):
        w = _spatial_slice(xp, idx, s, outs)
        total = w if total is None else ops.add(total, w)
    if divisor_override:
        out = total / float(divisor_override)
    else:
        # divisor per output position: window clipped to input+padding (count_include_pad) or to input only
        div = np.ones(outs, dtype=np.float64)
        for j in range(n):
            starts = np.arange(outs[j]) * s[j] - p[j]
            ends = np.minimum(starts + k[j], sizes[j] + p[j])
            if count_include_pad:
                cnt = ends - starts
            else:
                cnt = np.minimum(ends, sizes[j]) - np.maximum(starts, 0)
            shp = [1] * n
            shp[j] = outs[j]
            div = div * cnt.reshape(shp)
        out = ops.div(total, _MsTensor(div.astype(D.to_numpy_dtype(x.dtype))))
    return ops.squeeze(out, 0) if unbatched else out


@register("avg_pool1d", method=False, namespaces=_NS)
def avg_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Any:
    """input (N, C, L) -> (N, C, L_out)."""
    return _avg_poolnd(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


@register("avg_pool2d", function=False, method=False, namespaces=_NS)
def avg_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: Optional[int] = None) -> Any:
    """input (N, C, H, W) -> (N, C, H_out, W_out)."""
    return _avg_poolnd(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2)


@register("avg_pool3d", function=False, method=False, namespaces=_NS)
def avg_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: Optional[int] = None) -> Any:
    """input (N, C, D, H, W) -> (N, C, D_out, H_out, W_out)."""
    return _avg_poolnd(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3)


def _adaptive_bounds(size: int, out: int) -> List[Tuple[int, int]]:
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def _adaptive_poolnd(input: Any, output_size: Any, n: int, kind: str, return_indices: bool = False) -> Any:
    """Adaptive pooling with torch's bins start=floor(i*L/out), end=ceil((i+1)*L/out), one dim at a time."""
    unbatched = input.ndim == n + 1
    x = ops.expand_dims(input, 0) if unbatched else input
    sizes = _shape(x)[2:]
    if not isinstance(output_size, (list, tuple)):
        output_size = (output_size,) * n
    outs = [sz if o is None else int(o) for sz, o in zip(sizes, output_size)]
    if kind == "max" and (return_indices or (id(x.dtype) in _REAL_FLOATS and _ms.may_hold_nan(x))):
        # (window by window: there a window holding NaN gives NaN, as in torch)
        out = _adaptive_max_with_indices(x, sizes, outs, n, unbatched)
        return out if return_indices else out[0]
    for j in range(n):
        dim = 2 + j
        bounds = _adaptive_bounds(sizes[j], outs[j])
        if sizes[j] % outs[j] == 0:  # uniform bins: one reshape + reduce
            kk = sizes[j] // outs[j]
            shp = list(_shape(x))
            shp[dim:dim + 1] = [outs[j], kk]
            y = _reshape(x, shp)
            x = ops.mean(y, dim + 1) if kind == "avg" else mint.max(y, dim + 1)[0]
            continue
        parts = []
        for a, b in bounds:
            seg = ops.narrow(x, dim, a, b - a)
            parts.append(ops.mean(seg, dim, keep_dims=True) if kind == "avg" else ops.max(seg, dim, keepdims=True)[0])
        x = ops.cat(parts, dim)
    return ops.squeeze(x, 0) if unbatched else x


def _adaptive_max_with_indices(x: Any, sizes: Sequence[int], outs: Sequence[int], n: int, unbatched: bool) -> Any:
    """Adaptive max pooling returning torch's flat plane indices (window by window)."""
    lead = _shape(x)[:2]
    flatx = _reshape(x, (*lead, -1))
    plane = np.arange(int(np.prod(sizes)), dtype=np.int64).reshape(sizes)
    vals, idxs = [], []
    for pos in np.ndindex(*outs):
        sl = tuple(slice(*_adaptive_bounds(sizes[j], outs[j])[pos[j]]) for j in range(n))
        members = plane[sl].reshape(-1)
        seg = ops.gather(flatx, _MsTensor(members), 2)
        v, a = mint.max(seg, 2)
        v, a = _nan_wins(seg, v, (2,), False, a)
        vals.append(v)
        idxs.append(ops.gather(_MsTensor(members), a, 0))
    v = _reshape(ops.stack(vals, 2), (*lead, *outs))
    i = _reshape(ops.stack(idxs, 2), (*lead, *outs))
    if unbatched:
        return ops.squeeze(v, 0), ops.squeeze(i, 0)
    return v, i


@register("adaptive_avg_pool1d", method=False, namespaces=_NS)
def adaptive_avg_pool1d(input: Any, output_size: Any) -> Any:
    """input (N, C, L) -> (N, C, output_size)."""
    return _adaptive_poolnd(input, output_size, 1, "avg")


@register("adaptive_avg_pool2d", function=False, method=False, namespaces=_NS)
def adaptive_avg_pool2d(input: Any, output_size: Any) -> Any:
    """input (N, C, H, W) -> (N, C, *output_size) (None keeps that dim)."""
    return _adaptive_poolnd(input, output_size, 2, "avg")


@register("adaptive_avg_pool3d", function=False, method=False, namespaces=_NS)
def adaptive_avg_pool3d(input: Any, output_size: Any) -> Any:
    return _adaptive_poolnd(input, output_size, 3, "avg")


@register("adaptive_max_pool1d", method=False, namespaces=_NS)
def adaptive_max_pool1d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    return _adaptive_poolnd(input, output_size, 1, "max", return_indices)


@register("adaptive_max_pool2d", function=False, method=False, namespaces=_NS)
def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    return _adaptive_poolnd(input, output_size, 2, "max", return_indices)


@register("adaptive_max_pool3d", function=False, method=False, namespaces=_NS)
def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    return _adaptive_poolnd(input, output_size, 3, "max", return_indices)


@register("lp_pool1d", function=False, method=False, namespaces=_NS)
def lp_pool1d(input: Any, norm_type: float, kernel_size: int, stride: Any = None, ceil_mode: bool = False) -> Any:
    """(sum over window of x^p)^(1/p), as torch computes it (sign(x)relu(|avg|) * k)^(1/p)."""
    k = _ntuple(kernel_size, 1)
    out = avg_pool1d(ops.pow(input, _sc(norm_type, input)), k, stride, 0, ceil_mode)
    return ops.pow(ops.mul(ops.mul(ops.sign(out), kernel("relu")(ops.abs(out))), float(k[0])),
                   _sc(1.0 / norm_type, out))


@register("lp_pool2d", function=False, method=False, namespaces=_NS)
def lp_pool2d(input: Any, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> Any:
    kh, kw = _ntuple(kernel_size, 2)
    out = avg_pool2d(ops.pow(input, _sc(norm_type, input)), (kh, kw), stride, 0, ceil_mode)
    return ops.pow(ops.mul(ops.mul(ops.sign(out), kernel("relu")(ops.abs(out))), float(kh * kw)),
                   _sc(1.0 / norm_type, out))


def _max_unpoolnd(input: Any, indices: Any, kernel_size: Any, stride: Any, padding: Any, output_size: Any,
                  n: int) -> Any:
    k = _ntuple(kernel_size, n)
    s = k if stride is None else _ntuple(stride, n)
    p = _ntuple(padding, n)
    unbatched = input.ndim == n + 1
    x = ops.expand_dims(input, 0) if unbatched else input
    idx = ops.expand_dims(indices, 0) if unbatched else indices
    insz = _shape(x)[2:]
    default = [(i - 1) * si - 2 * pi + ki for i, si, pi, ki in zip(insz, s, p, k)]
    if output_size is None:
        outs = default
    else:
        outs = [int(v) for v in tuple(output_size)[-n:]]
    lead = _shape(x)[:2]
    total = int(np.prod(outs))
    flat_x = _reshape(x, (lead[0] * lead[1], -1))
    flat_i = _reshape(ops.cast(idx, ms.int32), (lead[0] * lead[1], -1))
    zeros = ops.zeros((lead[0] * lead[1], total), x.dtype)
    out = ops.tensor_scatter_elements(zeros, flat_i, flat_x, 1)
    out = _reshape(out, (*lead, *outs))
    return ops.squeeze(out, 0) if unbatched else out


@register("max_unpool1d", function=False, method=False, namespaces=_NS)
def max_unpool1d(input: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Any:
    return _max_unpoolnd(input, indices, kernel_size, stride, padding, output_size, 1)


@register("max_unpool2d", function=False, method=False, namespaces=_NS)
def max_unpool2d(input: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Any:
    return _max_unpoolnd(input, indices, kernel_size, stride, padding, output_size, 2)


@register("max_unpool3d", function=False, method=False, namespaces=_NS)
def max_unpool3d(input: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> Any:
    return _max_unpoolnd(input, indices, kernel_size, stride, padding, output_size, 3)


# ------------------------------------------------------------------------------------------ normalization
def _bcast_channel(v: Any, ndim: int) -> Any:
    return _reshape(v, (1, -1) + (1,) * (ndim - 2))


@register("batch_norm", function=False, method=False, namespaces=_NS)
def batch_norm(input: Any, running_mean: Any, running_var: Any, weight: Any = None, bias: Any = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Any:
    """input (N, C, *): normalise per channel. In training, batch statistics are used and the running
    buffers are updated in place (running_var with the unbiased variance, as torch)."""
    nd = input.ndim
    if nd < 2:
        raise ValueError(f"expected 2D or more input (got {nd}D input)")
    if not training:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
        return _DISPATCHERS["_batch_norm_eval"](input, running_mean, running_var, weight, bias, float(eps))
    count = int(np.prod([_shape(input)[a] for a in (0, *range(2, nd))]))
    if count <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{_torch_size(input)}")
    update = running_mean is not None and running_var is not None
    out, mean, var = _DISPATCHERS["_batch_norm_train"](input, weight, bias, float(eps), update)
    if update:
        # the statistics the normalisation itself computed (not recorded: torch's buffer update is no_grad)
        m = float(momentum) if momentum is not None else 0.1
        mean = ops.stop_gradient(mean).astype(running_mean.dtype)
        var = ops.stop_gradient(var).astype(running_var.dtype)
        var = ops.mul(var, _sc(count / (count - 1), var))  # not `*`: ms.Tensor's operator rounds the float too
        m, keep = _sc(m, running_mean), _sc(1 - m, running_mean)
        write_back(running_mean, ops.add(ops.mul(running_mean, keep), ops.mul(mean, m)))
        write_back(running_var, ops.add(ops.mul(running_var, keep), ops.mul(var, m)))
    return out


@register("_batch_norm_eval", method=False, function=False)
def _batch_norm_eval(input: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any, eps: float) -> Any:
    """Eval-mode batch norm of input (N, C, *) with the running statistics, in torch's own CPU form:
    x * alpha + beta, alpha = weight / sqrt(var + eps) and beta = bias - mean * alpha computed on the (C,)
    tensors, so the big tensor is touched by 2 kernels instead of 4."""
    nd = input.ndim
    alpha = ops.rsqrt(ops.add(running_var, _sc(eps, running_var)))
    if weight is not None:
        alpha = ops.mul(alpha, weight)
    beta = ops.neg(ops.mul(running_mean, alpha))
    if bias is not None:
        beta = ops.add(beta, bias)
    return ops.add(ops.mul(input, _bcast_channel(alpha, nd)), _bcast_channel(beta, nd))


@register("_batch_norm_eval", target="CPU", method=False, function=False)
def _batch_norm_eval_cpu(input: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any,
                         eps: float) -> Any:
    """On CPU, the faster of the composition and MindSpore's fused kernel in inference mode, measured per
    signature (forward timed) like training (`_autotune`, MINDTORCH_KERNEL_BATCH_NORM pins both)."""
    if any(t is not None and t.dtype != ms.float32 for t in (input, running_mean, running_var, weight, bias)):
        return _batch_norm_eval(input, running_mean, running_var, weight, bias, eps)
    sig = ("eval", _shape(input), weight is not None, bias is not None)
    return _autotune.run("batch_norm", sig, (
        ("composed", lambda: _batch_norm_eval(input, running_mean, running_var, weight, bias, eps)),
        ("native", lambda: _native_bn_eval(input, running_mean, running_var, weight, bias, eps))))


def _native_bn_eval(input: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any, eps: float) -> Any:
    """Eval-mode batch norm through MindSpore's fused BatchNorm (inference mode) on a 4-d view of (N, C, *)."""
    return _fused_bn(input, weight, bias, running_mean, running_var, eps, False)[0]


def _fused_bn(input: Any, weight: Any, bias: Any, mean: Any, var: Any, eps: float, training: bool) -> tuple:
    """MindSpore's BatchNorm primitive on a 4-d view of (N, C, *): (out shaped like input, *the other outputs).
    mean/var None: throw-away buffers (training; torch's running-buffer update is done by batch_norm)."""
    shp = _shape(input)
    c = shp[1]
    x4 = _reshape(input, (shp[0], c, -1, 1)) if len(shp) != 4 else input
    w = weight if weight is not None else ops.ones((c,), input.dtype)
    b = bias if bias is not None else ops.zeros((c,), input.dtype)
    if mean is None:
        mean, var = ops.zeros((c,), input.dtype), ops.ones((c,), input.dtype)
    prim = _BN_PRIMS.get((training, eps))
    if prim is None:
        prim = _BN_PRIMS[(training, eps)] = ops.BatchNorm(is_training=training, epsilon=eps, momentum=0.1)
    res = prim(x4, w, b, mean, var)
    return ((_reshape(res[0], shp) if len(shp) != 4 else res[0]),) + tuple(res[1:])


# Training-mode batch norm kernels: (input, weight, bias, eps) -> (out, batch mean (C,), biased batch var (C,)).
@register("_batch_norm_train", method=False, function=False)
def _batch_norm_train(input: Any, weight: Any, bias: Any, eps: float, stats: bool) -> Any:
    """Training-mode batch norm of input (N, C, *) with optional weight/bias (C,) -> (out, mean, var): the batch
    mean and biased variance per channel, (C,) tensors (None when `stats` is False), for the running buffers.
    MindSpore's fused kernel for float32, the statistics by separate reductions (the kernel's statistics outputs
    differ between device targets); other dtypes through the composition."""
    if input.dtype != ms.float32:
        out, mean, var = _bn_train_composed(input, weight, bias, eps)
        return (out, mean, var) if stats else (out, None, None)
    mean = var = None
    if stats:
        nd = input.ndim
        axes = (0,) + tuple(range(2, nd))
        xs = _no_grad(input)
        mean = ops.mean(xs, axes)
        var = ops.mean(ops.square(ops.sub(xs, _bcast_channel(mean, nd))), axes)
    return _native_bn_train(input, weight, bias, eps)[0], mean, var


@register("_batch_norm_train", target="CPU", method=False, function=False)
def _batch_norm_train_cpu(input: Any, weight: Any, bias: Any, eps: float, stats: bool) -> Any:
    """On CPU, the faster of MindSpore's fused kernel, whose CPU kernel also returns the batch statistics, and the
    composition of reductions and elementwise ops, measured per signature (forward timed, see below; `_autotune`,
    MINDTORCH_KERNEL_BATCH_NORM=native|composed pins one)."""
    if input.dtype != ms.float32:  # the fused kernel is float32 only here
        return _bn_train_composed(input, weight, bias, eps)
    sig = (_shape(input), input.dtype, weight is not None, bias is not None)
    # timed forward only: the order of the two kernels was the same forward and forward+backward on every
    # ResNet-18 shape measured (fused 2-6x faster both ways); timing a backward needs a grad run inside the
    # user's step, which disturbed the next loss.backward()
    return _autotune.run("batch_norm", sig, (("composed", lambda: _bn_train_composed(input, weight, bias, eps)),
                                             ("native", lambda: _native_bn_train(input, weight, bias, eps))))


def _native_bn_train(input: Any, weight: Any, bias: Any, eps: float) -> Tuple[Any, Any, Any]:
    """Training-mode batch norm through MindSpore's fused BatchNorm -> (out, mean, var).

    On CPU the kernel's 4th/5th outputs are the batch mean and biased variance (on GPU/Ascend they are not: only
    the CPU impl uses them)."""
    res = _fused_bn(input, weight, bias, None, None, eps, True)
    return res[0], res[3], res[4]


_BN_PRIMS: dict = {}  # (training, eps) -> the BatchNorm primitive


def _bn_train_composed(input: Any, weight: Any, bias: Any, eps: float) -> Tuple[Any, Any, Any]:
    """Training-mode batch norm from reductions and elementwise ops -> (out, mean, var): two-pass variance (as
    precise as torch's), then (x - mean) * scale + bias with scale = weight / sqrt(var + eps) on the (C,)-sized
    tensors; autograd flows through MindSpore's own ops."""
    nd = input.ndim
    axes = (0,) + tuple(range(2, nd))
    mean = ops.mean(input, axes, keep_dims=True)
    xc = ops.sub(input, mean)
    var = ops.mean(ops.square(xc), axes, keep_dims=True)
    scale = ops.rsqrt(ops.add(var, _sc(eps, var)))
    if weight is not None:
        scale = ops.mul(scale, _bcast_channel(weight, nd))
    out = ops.mul(xc, scale)
    if bias is not None:
        out = ops.add(out, _bcast_channel(bias, nd))
    return out, ops.reshape(mean, (-1,)), ops.reshape(var, (-1,))


@register("instance_norm", function=False, method=False, namespaces=_NS)
def instance_norm(input: Any, running_mean: Any = None, running_var: Any = None, weight: Any = None,
                  bias: Any = None, use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-5) -> Any:
    """input (N, C, *): normalise each (sample, channel) plane; optional running stats as torch keeps them."""
    nd = input.ndim
    axes = tuple(range(2, nd))
    if use_input_stats:
        if int(np.prod([_shape(input)[a] for a in axes])) <= 1:  # torch's _verify_spatial_size
            raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                             f"{_torch_size(input)}")
        mean = ops.mean(input, axes, keep_dims=True)
        xc = ops.sub(input, mean)
        var = ops.mean(ops.mul(xc, xc), axes, keep_dims=True)
        if running_mean is not None and running_var is not None:
            count = int(np.prod([_shape(input)[a] for a in axes]))
            bm = ops.mean(_no_grad(_reshape(mean, _shape(mean)[:2])), 0)
            bv = ops.mean(_no_grad(_reshape(var, _shape(var)[:2])), 0)
            bv = ops.mul(bv, _sc(count / max(count - 1, 1), bv))
            m, keep = _sc(momentum, running_mean), _sc(1 - momentum, running_mean)
            write_back(running_mean, ops.add(ops.mul(running_mean, keep), ops.mul(bm, m)))
            write_back(running_var, ops.add(ops.mul(running_var, keep), ops.mul(bv, m)))
        out = ops.mul(xc, ops.rsqrt(ops.add(var, _sc(eps, var))))
    else:
        out = ops.mul(ops.sub(input, _bcast_channel(running_mean, nd)),
                      ops.rsqrt(ops.add(_bcast_channel(running_var, nd), _sc(eps, running_var))))
    if weight is not None:
        out = ops.mul(out, _bcast_channel(weight, nd))
    if bias is not None:
        out = ops.add(out, _bcast_channel(bias, nd))
    return out


@register("layer_norm", method=False, namespaces=_NS)
def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5,
               cudnn_enable: bool = True) -> Any:
    """Normalise over the trailing `normalized_shape` dims (biased variance, as torch)."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    k = len(normalized_shape)
    if tuple(_shape(input)[input.ndim - k:]) != tuple(int(s) for s in normalized_shape):
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size{list(_shape(input))}")
    if _onednn_norm_ok(input, weight, bias):
        return _layer_norm_onednn(input, weight, bias, tuple(normalized_shape), float(eps))
    axes = tuple(range(input.ndim - k, input.ndim))
    mean = ops.mean(input, axes, keep_dims=True)
    xc = ops.sub(input, mean)
    var = ops.mean(ops.mul(xc, xc), axes, keep_dims=True)
    out = ops.mul(xc, ops.rsqrt(ops.add(var, _sc(eps, var))))
    if weight is not None:
        out = ops.mul(out, weight)
    if bias is not None:
        out = ops.add(out, bias)
    return out


# On CPU, layer_norm composed from MindSpore ops costs ~12 ms forward for a (32, 64, 128) float32 input (its
# broadcasting sub/mul kernels, DESIGN.md §5 / _expand.py) and its backward as much again; MindSpore's own
# LayerNormExt has no CPU kernel. oneDNN's layer normalization (`_onednn`) does both in ~0.3 ms, matching torch
# to ~1e-6.
def _onednn_norm_ok(x: Any, *params: Any) -> bool:
    """oneDNN's normalization applies: a non-empty CPU float32 input, float32 parameters, the library loaded."""
    return (_ms.HOST_MEMORY and x.dtype == ms.float32 and 0 not in _shape(x)
            and all(p is None or p.dtype == ms.float32 for p in params) and _onednn.available())


class _OneDnnLayerNorm(Function):
    """oneDNN's layer normalization as one autograd node: x (*, *normalized_shape), weight/bias normalized_shape
    or None -> same shape as x. Backward: oneDNN's (dx, dweight, dbias); under create_graph the same gradients
    from recorded MindSpore ops (`_layer_norm_grad_recorded`), so double backward works."""

    @staticmethod
    def forward(ctx: Any, x: Any, weight: Any, bias: Any, normalized_shape: Tuple[int, ...], eps: float) -> Any:
        y, mean, var = _layer_norm_onednn_value(x, weight, bias, normalized_shape, eps)
        ctx.save_for_backward(x, weight)
        ctx.stats, ctx.shape, ctx.eps, ctx.has_bias = (mean, var), normalized_shape, eps, bias is not None
        return y

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, ...]:
        x, weight = ctx.saved_tensors
        if _ms.is_recording():
            dx, dw, db = _layer_norm_grad_recorded(x, weight, ctx.has_bias, dout, ctx.shape, ctx.eps)
            return dx, dw, db, None, None
        cols = int(np.prod(ctx.shape))
        xs = _host_f32(x).reshape(-1, cols)
        w = None if weight is None else _host_f32(weight).reshape(cols)
        dx, dw, db = _onednn.layer_norm_backward(xs, _host_f32(dout).reshape(xs.shape), *ctx.stats, w, ctx.has_bias,
                                                 ctx.eps)
        param = (lambda g: None if g is None else _MsTensor.from_numpy(g.reshape(ctx.shape)))
        return _MsTensor.from_numpy(dx.reshape(_shape(x))), param(dw), param(db), None, None


def _layer_norm_onednn_value(x: Any, weight: Any, bias: Any, normalized_shape: Tuple[int, ...],
                             eps: float) -> Tuple[Any, np.ndarray, np.ndarray]:
    cols = int(np.prod(normalized_shape))
    p = [None if t is None else _host_f32(t).reshape(cols) for t in (weight, bias)]
    y, mean, var = _onednn.layer_norm_forward(_host_f32(x).reshape(-1, cols), p[0], p[1], eps)
    return _MsTensor.from_numpy(y.reshape(_shape(x))), mean, var


def _layer_norm_onednn(x: Any, weight: Any, bias: Any, normalized_shape: Tuple[int, ...], eps: float) -> Any:
    """oneDNN's layer normalization, recorded as `_OneDnnLayerNorm` when an operand needs a gradient."""
    if _ms.records_grad(x, weight, bias):
        return _OneDnnLayerNorm.apply(x, weight, bias, normalized_shape, eps)
    return _layer_norm_onednn_value(x, weight, bias, normalized_shape, eps)[0]


def _layer_norm_grad_recorded(x: Any, weight: Any, has_bias: bool, dout: Any, normalized_shape: Tuple[int, ...],
                              eps: float) -> Tuple[Any, Any, Any]:
    """(dx, dweight, dbias) of layer_norm from MindSpore ops on x (recorded under create_graph):
    xhat = (x - mean) * rstd; g = dout * weight; dx = rstd * (g - mean(g) - xhat * mean(g * xhat))."""
    k = len(normalized_shape)
    axes = tuple(range(x.ndim - k, x.ndim))
    lead = tuple(range(x.ndim - k))
    mean = ops.mean(x, axes, keep_dims=True)
    xc = ops.sub(x, mean)
    rstd = ops.rsqrt(ops.add(ops.mean(ops.mul(xc, xc), axes, keep_dims=True), _sc(eps, x)))
    xhat = ops.mul(xc, rstd)
    g = dout if weight is None else ops.mul(dout, weight)
    dx = ops.mul(rstd, ops.sub(ops.sub(g, ops.mean(g, axes, keep_dims=True)),
                               ops.mul(xhat, ops.mean(ops.mul(g, xhat), axes, keep_dims=True))))
    def over_lead(t: Any) -> Any:  # summed over the leading (batch) dims, if any
        return ops.sum(t, lead) if lead else t

    dw = None if weight is None else over_lead(ops.mul(dout, xhat))
    db = over_lead(dout) if has_bias else None
    return dx, dw, db


@register("group_norm", method=False, namespaces=_NS)
def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5,
               cudnn_enabled: bool = True) -> Any:
    """input (N, C, *): normalise over each group of C/num_groups channels and the spatial dims."""
    shp = _shape(input)
    n, c = shp[0], shp[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(shp)} and num_groups={num_groups}")
    x = _reshape(input, (n, num_groups, -1))
    mean = ops.mean(x, 2, keep_dims=True)
    xc = ops.sub(x, mean)
    var = ops.mean(ops.mul(xc, xc), 2, keep_dims=True)
    out = _reshape(ops.mul(xc, ops.rsqrt(ops.add(var, _sc(eps, var)))), shp)
    if weight is not None:
        out = ops.mul(out, _bcast_channel(weight, len(shp)))
    if bias is not None:
        out = ops.add(out, _bcast_channel(bias, len(shp)))
    return out


@register("local_response_norm", function=False, method=False, namespaces=_NS)
def local_response_norm(input: Any, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Any:
    """x / (k + alpha/size * sum over `size` neighbouring channels of x^2)^beta (torch's formula)."""
    dim = input.ndim
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    div = ops.expand_dims(ops.mul(input, input), 1)
    shp = _shape(input)
    div = _reshape(div, (shp[0], 1, shp[1], -1))  # (N, 1, C, rest)
    div = ops.pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = _avg_poolnd(div, (size, 1), 1, 0, False, True, None, 2)
    div = _reshape(ops.squeeze(div, 1), shp)
    div = ops.pow(ops.add(ops.mul(div, _sc(alpha, div)), _sc(k, div)), _sc(beta, div))
    return ops.div(input, div)


@register("normalize", function=False, method=False, namespaces=_NS)
def normalize(input: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None) -> Any:
    """x / max(||x||_p over dim, eps)."""
    norm = _pnorm(input, p, dim, keepdim=True)
    return ops.div(input, ops.clamp(norm, min=_sc(eps, norm)))


def _pnorm(x: Any, p: float, dim: Any, keepdim: bool = False) -> Any:
    """torch.norm's vector p-norm (one implementation; its gradient at a zero vector is torch's 0, not NaN)."""
    return kernel("norm")(x, float(p), dim, keepdim)


# ----------------------------------------------------------------------------------------------- dropout
def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(shape: Sequence[int], p: float, dtype: Any) -> Any:
    """A 0/1 keep mask with P(keep) = 1-p (MindSpore's RNG, seeded by torch.manual_seed via mindspore.set_seed)."""
    u = ops.uniform(tuple(shape), _MsTensor(0.0, ms.float32), _MsTensor(1.0, ms.float32))
    return ops.cast(ops.ge(u, p), dtype)


@register("dropout", method=False, namespaces=_NS)
def dropout(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero each element with probability p and scale the rest by 1/(1-p) (identity when not training)."""
    _check_p(p)
    if not training or p == 0.0:
        out = input if not inplace else input
        return ops.identity(out) if not inplace else out
    if p == 1.0:
        out = ops.mul(input, _scalar(0.0, input))
    else:
        out = ops.mul(input, ops.mul(_keep_mask(_shape(input), p, input.dtype), _sc(1.0 / (1.0 - p), input)))
    return write_back(input, out) if inplace else out


def _feature_dropout(input: Any, p: float, training: bool, inplace: bool, unbatched: bool) -> Any:
    """torch 1.12's `_VF.feature_dropout` as F.dropout1d/2d/3d call it: one keep/drop draw per (dim 0, dim 1)
    pair, broadcast over the other dims. `unbatched`: the caller's input has no batch dim and torch gives it one
    of size 1 first (`input.unsqueeze(0)`), so the draw is per index of dim 0."""
    _check_p(p)
    shp = _shape(input)
    # ATen returns the input untouched before it checks the rank (`_dropout_impl`)
    if not training or p == 0.0 or 0 in shp:
        return input if inplace else ops.identity(input)
    if len(shp) + unbatched < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1.0:
        out = ops.mul(input, _scalar(0.0, input))
    else:
        lead = 1 if unbatched else 2  # (1, C, 1, ...) with the size-1 batch dim left out: (C, 1, ...)
        mshape = tuple(shp[:lead]) + (1,) * (len(shp) - lead)
        out = ops.mul(input, ops.mul(_keep_mask(mshape, p, input.dtype), _sc(1.0 / (1.0 - p), input)))
    return write_back(input, out) if inplace else out


def _warn_dropout_rank(name: str, ndim: int, spatial: int) -> None:
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in an error in a future "
        "release. To retain the behavior and silence this warning, please use dropout instead. Note that "
        f"{name} exists to provide channel-wise dropout on inputs with {spatial} spatial dimensions, a channel "
        f"dimension, and an optional batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).")


@register("dropout1d", function=False, method=False, namespaces=_NS)
def dropout1d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero whole channels: input (N, C, L) or unbatched (C, L)."""
    _check_p(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that dropout1d exists to "
            "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional "
            "batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, inplace, input.ndim == 2)


@register("dropout2d", function=False, method=False, namespaces=_NS)
def dropout2d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero whole channels of input (N, C, H, W). torch 1.12 has no unbatched form here: a 3-D input is taken
    as (N, C, L) (1-D channel dropout, with a warning), and any rank drops whole (dim 0, dim 1) slices (2-D:
    single elements), with a deprecation warning for ranks other than 3 and 4."""
    _check_p(p)
    ndim = input.ndim
    if ndim not in (3, 4):
        _warn_dropout_rank("dropout2d", ndim, 2)
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
            "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
            "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
            "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
            "instead.")
    return _feature_dropout(input, p, training, inplace, False)


@register("dropout3d", function=False, method=False, namespaces=_NS)
def dropout3d(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
    """Zero whole channels: input (N, C, D, H, W); any other rank is taken as unbatched (4-D: (C, D, H, W)),
    with a deprecation warning for ranks other than 4 and 5 (torch 1.12)."""
    _check_p(p)
    ndim = input.ndim
    if ndim not in (4, 5):
        _warn_dropout_rank("dropout3d", ndim, 3)
    return _feature_dropout(input, p, training, inplace, ndim != 5)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@register("alpha_dropout", method=False, namespaces=_NS)
def alpha_dropout(input: Any, p: float = 0.5, training: bool = False, inplace: bool = False) -> Any:
    """Dropout that keeps SELU's self-normalising mean/variance (torch's affine correction)."""
    _check_p(p)
    if not training or p == 0.0:
        return input if inplace else ops.identity(input)
    if p == 1.0:
        out = ops.mul(input, _scalar(0.0, input))
        return write_back(input, out) if inplace else out
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    keep = _keep_mask(_shape(input), p, input.dtype)
    out = ops.add(ops.mul(ops.add(ops.mul(input, keep), ops.mul(ops.sub(1.0, keep), alpha_p)), a), b)
    return write_back(input, out) if inplace else out


@register("feature_alpha_dropout", method=False, namespaces=_NS)
def feature_alpha_dropout(input: Any, p: float = 0.5, training: bool = False, inplace: bool = False) -> Any:
    _check_p(p)
    if not training or p == 0.0:
        return input if inplace else ops.identity(input)
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    shp = _shape(input)
    keep = _keep_mask(shp[:2] + (1,) * (len(shp) - 2), p, input.dtype)
    out = ops.add(ops.mul(ops.add(ops.mul(input, keep), ops.mul(ops.sub(1.0, keep), alpha_p)), a), b)
    return write_back(input, out) if inplace else out


# ------------------------------------------------------------------------------------------- activations
def _act(name: str, *, function: bool = False, method: bool = False, inplace: bool = False):
    """Register an activation (F.<name>, optionally torch.<name>/Tensor.<name>) with an F-style `inplace=`."""
    def deco(fn):
        def impl(input: Any, *args: Any, inplace: bool = False, **kwargs: Any) -> Any:
            out = fn(inplace_source(input) if inplace else input, *args, **kwargs)
            return write_back(input, out) if inplace else out

        impl.__doc__ = fn.__doc__
        impl.__name__ = name
        register(name, function=function, method=method, namespaces=_NS)(impl)
        if inplace:
            def impl_(input: Any, *args: Any, **kwargs: Any) -> Any:
                return write_back(input, fn(inplace_source(input), *args, **kwargs))

            impl_.__doc__ = fn.__doc__
            register(name + "_", function=function, method=method, namespaces=_NS)(impl_)
        return fn

    return deco


# The piecewise activations below follow torch's kernels branch for branch (1.12 as 2.x): the comparison that picks
# a branch decides the gradient at the kink (leaky_relu's slope at 0, hardtanh's 0 at its bounds) and NaN takes the
# branch a failed comparison gives, so it stays NaN. MindSpore's clamp/minimum/maximum kernels map NaN to a bound and
# split the gradient of ties, which is why none of them is used here; `masked_fill` (a mask and a scalar) is.


def _elu_branches(x: Any) -> Tuple[Any, Any]:
    """(x <= 0, x there and 0 elsewhere): the negative branch's mask and the argument of its exp, which is 0 for
    large x (no overflow) and for NaN (whose gradient comes from the other branch, as in torch)."""
    neg = ops.le(x, 0)
    return neg, ops.masked_fill(x, ops.logical_not(neg), _scalar(0.0, x))


@_act("relu6")
def _relu6(input: Any) -> Any:
    """min(max(x, 0), 6), i.e. hardtanh(x, 0, 6) as torch computes it."""
    return _hardtanh(input, 0.0, 6.0)


@_act("leaky_relu", inplace=True)
def _leaky_relu(input: Any, negative_slope: float = 0.01) -> Any:
    """x if x > 0 else negative_slope * x (the gradient at 0 is the slope)."""
    return ops.where(ops.gt(input, 0), input, ops.mul(input, _sc(negative_slope, input)))


@_act("elu", inplace=True)
def _elu(input: Any, alpha: float = 1.0) -> Any:
    """alpha * (exp(x) - 1) if x <= 0 else x."""
    neg, arg = _elu_branches(input)
    return ops.where(neg, ops.mul(kernel("expm1")(arg), _sc(alpha, input)), input)


@_act("celu", function=True, inplace=True)
def _celu(input: Any, alpha: float = 1.0) -> Any:
    """alpha * (exp(x / alpha) - 1) if x <= 0 else x."""
    a = _sc(alpha, input)
    neg, arg = _elu_branches(input)
    return ops.where(neg, ops.mul(kernel("expm1")(ops.div(arg, a)), a), input)


@_act("selu", function=True, inplace=True)
def _selu(input: Any) -> Any:
    """scale * elu(x, alpha) with SELU's constants."""
    return ops.mul(_elu(input, _SELU_ALPHA), _sc(_SELU_SCALE, input))


@_act("gelu")
def _gelu(input: Any, approximate: str = "none") -> Any:
    """x * Phi(x) ('none', erf) or its tanh approximation ('tanh')."""
    if approximate in _GELU_ALGS and _onednn_norm_ok(input):
        return _gelu_onednn(input, _GELU_ALGS[approximate])
    if approximate == "none":
        return ops.mul(ops.mul(input, 0.5), ops.add(ops.erf(ops.mul(input, _sc(1.0 / math.sqrt(2.0), input))), 1.0))
    if approximate == "tanh":
        inner = ops.mul(ops.add(input, ops.mul(ops.pow(input, 3), _sc(0.044715, input))),
                        _sc(math.sqrt(2.0 / math.pi), input))
        return ops.mul(ops.mul(input, 0.5), ops.add(kernel("tanh")(inner), 1.0))
    raise RuntimeError(f"approximate argument must be either none or tanh. (got '{approximate}')")


# On CPU the composition above costs ~10 ms forward for 1M float32 values (MindSpore's erf and scalar-operand
# kernels) and its backward more; oneDNN's gelu_erf is bit-identical to torch's and takes ~0.6 ms.
_GELU_ALGS = {"none": "gelu_erf", "tanh": "gelu_tanh"}


class _OneDnnGelu(Function):
    """oneDNN's GELU as one autograd node; under create_graph the backward is the derivative from recorded
    MindSpore ops (`_gelu_grad_recorded`), so double backward works."""

    @staticmethod
    def forward(ctx: Any, x: Any, alg: str) -> Any:
        ctx.save_for_backward(x)
        ctx.alg = alg
        return _MsTensor.from_numpy(_onednn.eltwise_forward(alg, _host_f32(x)))

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, None]:
        (x,) = ctx.saved_tensors
        if _ms.is_recording():
            return ops.mul(dout, _gelu_grad_recorded(x, ctx.alg)), None
        return _MsTensor.from_numpy(_onednn.eltwise_backward(ctx.alg, _host_f32(x), _host_f32(dout))), None


def _gelu_onednn(x: Any, alg: str) -> Any:
    if _ms.records_grad(x):
        return _OneDnnGelu.apply(x, alg)
    return _MsTensor.from_numpy(_onednn.eltwise_forward(alg, _host_f32(x)))


def _gelu_grad_recorded(x: Any, alg: str) -> Any:
    """d gelu(x) / dx from MindSpore ops: Phi(x) + x * phi(x) (erf), or the tanh form's derivative
    0.5 * (1 + t) + 0.5 * x * (1 - t^2) * k0 * (1 + 3 * k1 * x^2), t = tanh(k0 * (x + k1 * x^3))."""
    if alg == "gelu_erf":
        cdf = ops.mul(ops.add(ops.erf(ops.mul(x, _sc(1.0 / math.sqrt(2.0), x))), 1.0), 0.5)
        pdf = ops.mul(kernel("exp")(ops.mul(ops.mul(x, x), -0.5)), _sc(1.0 / math.sqrt(2.0 * math.pi), x))
        return ops.add(cdf, ops.mul(x, pdf))
    k0, k1 = math.sqrt(2.0 / math.pi), 0.044715
    x2 = ops.mul(x, x)
    t = kernel("tanh")(ops.mul(ops.mul(x, ops.add(ops.mul(x2, _sc(k1, x)), 1.0)), _sc(k0, x)))
    dinner = ops.mul(ops.add(ops.mul(x2, _sc(3.0 * k1, x)), 1.0), _sc(k0, x))
    return ops.add(ops.mul(ops.add(t, 1.0), 0.5),
                   ops.mul(ops.mul(ops.mul(x, 0.5), ops.sub(1.0, ops.mul(t, t))), dinner))


@_act("silu")
def _silu(input: Any) -> Any:
    """x * sigmoid(x)."""
    return ops.mul(input, ops.sigmoid(input))


@_act("mish")
def _mish(input: Any) -> Any:
    """x * tanh(softplus(x))."""
    return ops.mul(input, kernel("tanh")(_softplus(input)))


@_act("hardtanh", inplace=True)
def _hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    """min_val if x <= min_val, max_val if x >= max_val, else x (NaN stays NaN; the gradient is 0 at the bounds)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    low = ops.masked_fill(input, ops.le(input, _sc(min_val, input)), _scalar(min_val, input))
    return ops.masked_fill(low, ops.ge(input, _sc(max_val, input)), _scalar(max_val, input))


@_act("hardswish")
def _hardswish(input: Any) -> Any:
    """x * relu6(x + 3) / 6."""
    return ops.div(ops.mul(input, ops.clamp(ops.add(input, 3.0), 0.0, 6.0)), 6.0)


@_act("hardsigmoid")
def _hardsigmoid(input: Any) -> Any:
    """relu6(x + 3) / 6: 0 at x <= -3, 1 at x >= 3 (gradient 0 there), NaN stays NaN."""
    return ops.div(ops.add(_hardtanh(input, -3.0, 3.0), 3.0), 6.0)


@_act("threshold", function=True, inplace=True)
def _threshold(input: Any, threshold: float, value: float) -> Any:
    """value if x <= threshold else x (NaN stays NaN)."""
    return ops.masked_fill(input, ops.le(input, _sc(threshold, input)), _scalar(value, input))


@_act("rrelu", function=True, inplace=True)
def _rrelu(input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Any:
    """Randomised leaky ReLU: slope ~ U(lower, upper) per element in training, (lower+upper)/2 in eval."""
    if training:
        a = ops.uniform(_shape(input), _MsTensor(float(lower), ms.float32), _MsTensor(float(upper), ms.float32))
        a = ops.cast(a, input.dtype)
    else:
        a = _sc((lower + upper) / 2, input)
    return ops.where(ops.gt(input, 0), input, ops.mul(input, a))


def _softplus(input: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    beta, threshold = _sc(beta, input), _sc(threshold, input)
    bx = ops.mul(input, beta)
    linear = ops.gt(bx, threshold)
    # (exp's argument masked where the linear branch is taken: no overflow there, and NaN stays NaN)
    soft = ops.div(kernel("log1p")(kernel("exp")(ops.masked_fill(bx, linear, _scalar(0.0, bx)))), beta)
    return ops.where(linear, input, soft)


@register("softplus", function=False, method=False, namespaces=_NS)
def softplus(input: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    """log(1 + exp(beta x)) / beta, linear above `threshold` (torch's numerics)."""
    return _softplus(input, beta, threshold)


@register("softsign", function=False, method=False, namespaces=_NS)
def softsign(input: Any) -> Any:
    """x / (1 + |x|)."""
    return ops.div(input, ops.add(ops.abs(input), 1.0))


@register("hardshrink", method=True, namespaces=_NS)
def hardshrink(input: Any, lambd: float = 0.5) -> Any:
    """0 if |x| <= lambd else x (NaN stays NaN)."""
    return ops.masked_fill(input, ops.le(ops.abs(input), _sc(lambd, input)), _scalar(0.0, input))


@register("softshrink", function=False, method=False, namespaces=_NS)
def softshrink(input: Any, lambd: float = 0.5) -> Any:
    """x - lambd if x > lambd, x + lambd if x < -lambd, else 0."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    lam, neg = _sc(lambd, input), _sc(-lambd, input)
    # x * 0 in the middle, as torch: NaN stays NaN and a negative x gives -0.0
    return ops.where(ops.gt(input, lam), ops.sub(input, lam),
                     ops.where(ops.lt(input, neg), ops.add(input, lam), ops.mul(input, _scalar(0.0, input))))


@register("tanhshrink", function=False, method=False, namespaces=_NS)
def tanhshrink(input: Any) -> Any:
    """x - tanh(x)."""
    return ops.sub(input, kernel("tanh")(input))


@register("logsigmoid", function=False, method=False, namespaces=_NS)
def logsigmoid(input: Any) -> Any:
    """log(sigmoid(x)) = -softplus(-x), computed stably."""
    return ops.sub(ops.minimum(input, 0.0), kernel("log1p")(kernel("exp")(ops.neg(ops.abs(input)))))


@register("glu", function=False, method=False, namespaces=_NS)
def glu(input: Any, dim: int = -1) -> Any:
    """a * sigmoid(b) where a, b are the halves of input along dim."""
    n = _shape(input)[dim]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.ndim} is size {n}")
    a, b = ops.split(input, n // 2, dim)
    return ops.mul(a, ops.sigmoid(b))


@register("prelu", method=True, namespaces=_NS)
def prelu(input: Any, weight: Any) -> Any:
    """x if x > 0 else a * x (the gradient at 0 is a), `weight` of 1 or C (channel dim 1) values."""
    w = weight
    if weight.ndim == 1 and _shape(weight)[0] > 1 and input.ndim >= 2:
        w = _reshape(weight, (1, -1) + (1,) * (input.ndim - 2))
    elif weight.ndim == 1 and _shape(weight)[0] > 1 and input.ndim == 1:
        w = weight
    return ops.where(ops.gt(input, 0), input, ops.mul(input, w))


def _softmax_dim(name: str, ndim: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", stacklevel=4)
    return 0 if ndim in (0, 1, 3) else 1


def softmax_impl(input: Any, dim: Optional[int] = None, dtype: Any = None) -> Any:
    """softmax along dim (computed in `dtype` when given), numerically stable."""
    if dtype is not None:
        input = ops.cast(input, D.to_dtype(dtype))
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim)
    if input.ndim == 0:
        return ops.ones_like(input)
    if _onednn_softmax_ok(input):
        return _onednn_softmax(input, dim, False)
    m = _no_grad(ops.amax(input, dim, True))
    e = kernel("exp")(ops.sub(input, m))
    return ops.div(e, ops.sum(e, dim, True))


def log_softmax_impl(input: Any, dim: Optional[int] = None, dtype: Any = None) -> Any:
    """log_softmax along dim (computed in `dtype` when given)."""
    if dtype is not None:
        input = ops.cast(input, D.to_dtype(dtype))
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim)
    if input.ndim == 0:
        return ops.zeros_like(input)
    if _onednn_softmax_ok(input):
        return _onednn_softmax(input, dim, True)
    m = _no_grad(ops.amax(input, dim, True))
    s = ops.sub(input, m)
    return ops.sub(s, ops.log(ops.sum(kernel("exp")(s), dim, True)))


@register("softmin", function=False, method=False, namespaces=_NS)
def softmin(input: Any, dim: Optional[int] = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    """softmax(-x)."""
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim)
    return softmax_impl(ops.neg(input), dim, dtype)


@register("gumbel_softmax", function=False, method=False, namespaces=_NS)
def gumbel_softmax(logits: Any, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Any:
    """Sample from the Gumbel-softmax distribution; `hard` returns one-hot with straight-through grads."""
    u = ops.uniform(_shape(logits), _MsTensor(0.0, ms.float32), _MsTensor(1.0, ms.float32))
    gumbels = ops.neg(ops.log(ops.neg(ops.log(ops.cast(u, logits.dtype)) + 0) + 0))
    y = softmax_impl(ops.div(ops.add(logits, gumbels), tau), dim)
    if not hard:
        return y
    index = ops.argmax(y, dim)
    y_hard = ops.zeros_like(y)
    y_hard = ops.tensor_scatter_elements(y_hard, ops.expand_dims(index, dim), ops.ones_like(ops.expand_dims(
        index, dim)).astype(y.dtype), dim)
    return ops.add(ops.sub(y_hard, _no_grad(y)), y)


# --------------------------------------------------------------------------------------------- embedding
@register("embedding", function=False, method=False, namespaces=_NS)
def embedding(input: Any, weight: Any, padding_idx: Optional[int] = None, max_norm: Optional[float] = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Any:
    """Rows of `weight` (num_embeddings, dim) at integer `input` (*) -> (*, dim).

    padding_idx rows get no gradient (torch); max_norm renormalises the looked-up rows of `weight` in place.
    """
    num = _shape(weight)[0]
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < num, "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -num, "Padding_idx must be within num_embeddings"
            padding_idx = num + padding_idx
    if input.dtype not in (ms.int64, ms.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
            f"{D.torch_name(input.dtype)} instead (while checking arguments for embedding)")
    if _ms.device_target() == "CPU" and _MsTensor.asnumpy(input).min(initial=0) < 0:
        # MindSpore's Gather wraps a negative id to a row from the end (a silently wrong embedding); torch raises.
        # On CPU the ids are host memory and kernels run synchronously, so the check is a numpy min (~1 us for a
        # batch of token ids); on GPU/Ascend it would cost a device sync per call, so it is not made there.
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _no_grad_embedding_renorm(weight, input, max_norm, norm_type)
    try:
        out = ops.gather(weight, input, 0)
    except RuntimeError as e:  # the Gather kernel's bounds check: torch raises IndexError for an unknown word id
        if "input_indices" in str(e) and "range" in str(e):
            raise IndexError("index out of range in self") from None
        raise
    if padding_idx is not None:
        # no gradient flows into weight[padding_idx]
        mask = ops.expand_dims(ops.equal(input, padding_idx), -1)
        out = ops.where(mask, _no_grad(out), out)
    if scale_grad_by_freq and _ms.records_grad(out):
        # each looked-up row's gradient divided by how often its id occurs in this batch (torch's
        # embedding_dense_backward with scale_grad_by_freq)
        ids = _MsTensor.asnumpy(input)
        _, inverse, counts = np.unique(ids, return_inverse=True, return_counts=True)
        scale = (1.0 / counts[inverse]).reshape(ids.shape + (1,)).astype(D.to_numpy_dtype(out.dtype))
        out = _ScaleGrad.apply(out, _MsTensor.from_numpy(scale))
    return out


class _ScaleGrad(Function):
    """Identity forward; backward multiplies the gradient by `scale` (broadcast)."""

    @staticmethod
    def forward(ctx: Any, x: Any, scale: Any) -> Any:
        ctx.scale = scale
        return ops.add(x, 0)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Tuple[Any, None]:
        return ops.mul(grad, ctx.scale), None


def _embedding_renorm(weight: Any, input: Any, max_norm: float, norm_type: float) -> None:
    """torch.embedding_renorm_: an in-place write of `weight` (torch's in-place rules while autograd records)."""
    idx = np.unique(_MsTensor.asnumpy(input).reshape(-1))
    w = _MsTensor.asnumpy(_no_grad(weight)).copy()
    rows = w[idx]
    norms = np.linalg.norm(rows.astype(np.float64), ord=norm_type, axis=1)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    w[idx] = (rows * scale[:, None]).astype(w.dtype)
    write_back(weight, _MsTensor(w))


def _no_grad_embedding_renorm(weight: Any, input: Any, max_norm: float, norm_type: float) -> None:
    """F.embedding's and F.embedding_bag's max_norm: the renorm runs unrecorded (torch's no_grad), so the lookup
    that follows is what autograd sees (a recorded write would cut a leaf weight off its gradient)."""
    with no_grad():
        _embedding_renorm(weight, input, max_norm, norm_type)


@register("one_hot", function=False, method=False, namespaces=_NS)
def one_hot(tensor: Any, num_classes: int = -1) -> Any:
    """int64 one-hot encoding: (*) -> (*, num_classes)."""
    if tensor.dtype != ms.int64:
        raise RuntimeError("one_hot is only applicable to index tensor.")
    if num_classes == -1:
        num_classes = int(_MsTensor.asnumpy(tensor).max()) + 1 if tensor.size else 0
    arr = _MsTensor.asnumpy(tensor)
    if arr.size and (arr.min() < 0):
        raise RuntimeError("Class values must be non-negative.")
    if arr.size and arr.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return ops.one_hot(tensor, num_classes, _MsTensor(1, ms.int64), _MsTensor(0, ms.int64))


# ------------------------------------------------------------------------------------------------ losses
def _class_last(input: Any) -> Any:
    """(N, C, d1, ...) -> (N*d1*..., C); (N, C) unchanged; (C,) -> (1, C)."""
    if input.ndim == 1:
        return ops.expand_dims(input, 0)
    if input.ndim == 2:
        return input
    perm = (0,) + tuple(range(2, input.ndim)) + (1,)
    return _reshape(ops.transpose(input, perm), (-1, _shape(input)[1]))


def _nll_core(logp: Any, target: Any, weight: Any, ignore_index: int) -> Tuple[Any, Any]:
    """Per-element -w[t] * logp[t] (0 where ignored) and the per-element weights w[t] (0 where ignored)."""
    c = _shape(logp)[1] if logp.ndim > 1 else _shape(logp)[0]
    flat = _class_last(logp)
    t = _reshape(target, (-1,))
    t = ops.cast(t, ms.int32)
    valid = ops.ne(t, ignore_index)
    arr = _MsTensor.asnumpy(t)
    va = _MsTensor.asnumpy(valid)
    if va.any() and (arr[va].min() < 0 or arr[va].max() >= c):
        raise IndexError(f"Target {int(arr[va][(arr[va] < 0) | (arr[va] >= c)][0])} is out of bounds.")
    safe = ops.where(valid, t, ops.zeros_like(t))
    picked = ops.squeeze(gather_d(flat, 1, ops.expand_dims(safe, 1)), 1)  # (second derivative: see gather_d)
    w = ops.cast(valid, logp.dtype)
    if weight is not None:
        w = ops.mul(w, ops.gather(weight, safe, 0))
    loss = ops.neg(ops.mul(picked, w))
    tshape = _shape(target)
    return _reshape(loss, tshape), _reshape(w, tshape)


def _weighted_mean(total: Any, wsum: Any) -> Any:
    """total / wsum for a 'mean' loss reduction; when every target is ignored (wsum == 0) the value is NaN, as
    torch's, but the gradient is 0 (torch's nll_loss backward never writes the ignored rows) instead of 0/0."""
    empty = ops.equal(wsum, 0)
    safe = ops.where(empty, ops.ones_like(wsum), wsum)
    return ops.where(empty, ops.fill(total.dtype, (), float("nan")), ops.div(total, safe))


_SPARSE_CE = ops.SparseSoftmaxCrossEntropyWithLogits()  # mean over the batch; labels int32/int64
_NLL_MEAN = ops.NLLLoss("mean")  # (loss, total_weight); weight is required: a cached ones(C)
_NLL_ONES: dict = {}


def _plain_class_targets(input: Any, target: Any, ignore_index: int) -> bool:
    """True for the common case MindSpore's fused kernels compute exactly as torch does: (N, C) float32 input
    with N > 0, (N,) int64/int32 class indices, every one in [0, C) and none equal to ignore_index. Anything
    else (including bad targets, which the general path reports with torch's IndexError) takes the general path.
    Reads the target on the host: ~15 us in launch-blocking mode, and the general path reads it anyway."""
    if input.ndim != 2 or input.dtype != ms.float32 or target.ndim != 1 or target.dtype not in (ms.int64, ms.int32):
        return False
    n, c = _shape(input)
    if n == 0 or _shape(target)[0] != n:
        return False
    arr = _MsTensor.asnumpy(target)
    return bool(arr.min() >= 0 and arr.max() < c and (ignore_index < 0 or ignore_index >= c
                                                      or not (arr == ignore_index).any()))


def _check_nll_shapes(input: Any, target: Any) -> None:
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim == 1:
        if target.ndim != 0:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        return
    if _shape(input)[0] != _shape(target)[0]:
        raise ValueError(f"Expected input batch_size ({_shape(input)[0]}) to match target batch_size "
                         f"({_shape(target)[0]}).")
    if target.ndim != input.ndim - 1:
        raise RuntimeError("multi-target not supported" if input.ndim == 2 else
                           f"Expected target of size {[_shape(input)[0], *_shape(input)[2:]]}, got "
                           f"{list(_shape(target))}")


@register("nll_loss", function=False, method=False, namespaces=_NS)
def nll_loss(input: Any, target: Any, weight: Any = None, size_average: Any = None, ignore_index: int = -100,
             reduce: Any = None, reduction: str = "mean") -> Any:
    """input (N, C, *) log-probabilities, target (N, *) class indices."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_nll_shapes(input, target)
    if reduction == "mean" and weight is None and _plain_class_targets(input, target, ignore_index):
        # fused NLLLoss kernel (issue 8): 1 kernel + 1 grad kernel instead of ~10 (two of them ~1.4 ms casts)
        c = _shape(input)[1]
        ones = _NLL_ONES.get(c)
        if ones is None:
            ones = _NLL_ONES[c] = _MsTensor(np.ones(c, np.float32))
        return _NLL_MEAN(input, target, ones)[0]
    loss, w = _nll_core(input, target, weight, ignore_index)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "mean":
        return _weighted_mean(ops.sum(loss), ops.sum(w))
    raise ValueError(f"{reduction} is not a valid value for reduction")


@register("cross_entropy", function=False, method=False, namespaces=_NS)
def cross_entropy(input: Any, target: Any, weight: Any = None, size_average: Any = None, ignore_index: int = -100,
                  reduce: Any = None, reduction: str = "mean", label_smoothing: float = 0.0) -> Any:
    """input (N, C, *) logits; target (N, *) class indices or (N, C, *) class probabilities."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if (reduction == "mean" and weight is None and label_smoothing <= 0 and target.ndim == 1
            and _plain_class_targets(input, target, ignore_index)
            and not (_ms.HOST_MEMORY and _ms.may_hold_nonfinite(input))):
        # fused SparseSoftmaxCrossEntropyWithLogits (issue 8): 1 kernel + 1 grad kernel instead of ~15; the same
        # mean of -log_softmax(x)[t] as torch (checked against torch in tests/test_train_fast_paths.py) for finite
        # logits (with inf or NaN its CPU kernel gives inf where torch's mean is NaN: then the composition runs;
        # other targets keep their kernel, no host pass over device memory).
        loss = _SPARSE_CE(input, target)
        if input._requires_grad and _ms.is_recording():
            # its backward cannot be differentiated on MindSpore: create_graph rebuilds it from (input, target)
            from ..autograd import remember_for_double_backward

            remember_for_double_backward(loss, input, target)
        return loss
    cdim = 0 if input.ndim == 1 else 1
    logp = log_softmax_impl(input, cdim)
    c = _shape(input)[cdim]
    if _shape(target) == _shape(input) and target.dtype in D.all_float_type:
        # class probabilities (torch ignores ignore_index for them)
        tgt = target
        if label_smoothing > 0:
            tgt = ops.add(ops.mul(tgt, _sc(1 - label_smoothing, tgt)), _sc(label_smoothing / c, tgt))
        prod = ops.mul(logp, tgt)
        if weight is not None:
            prod = ops.mul(prod, _reshape(weight, (-1,) + (1,) * (input.ndim - cdim - 1)))
        loss = ops.neg(ops.sum(prod, cdim))
        if reduction == "none":
            return loss
        if reduction == "sum":
            return ops.sum(loss)
        if reduction == "mean":
            n = int(np.prod(_shape(input))) // c if input.ndim > 1 else 1
            return ops.div(ops.sum(loss), float(n))
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.dtype in D.all_float_type:
        raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                           f"{D.torch_name(target.dtype)}" if False else
                           "expected scalar type Long but found " + D.torch_name(target.dtype)[6:].capitalize())
    _check_nll_shapes(input, target)
    loss, w = _nll_core(logp, target, weight, ignore_index)
    if reduction == "none":
        nll = loss
    elif reduction == "sum":
        nll = ops.sum(loss)
    elif reduction == "mean":
        nll = _weighted_mean(ops.sum(loss), ops.sum(w))
    else:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if label_smoothing <= 0:
        return nll
    # torch: (1-eps)*nll + eps/C * smooth, smooth = -sum_c w_c logp_c (0 where ignored)
    wb = logp if weight is None else ops.mul(logp, _reshape(weight, (-1,) + (1,) * (input.ndim - cdim - 1)))
    smooth = ops.neg(ops.sum(wb, cdim))
    valid = ops.ne(ops.cast(target, ms.int32), ignore_index)
    smooth = ops.where(valid, smooth, ops.zeros_like(smooth))
    if reduction == "none":
        red = smooth
    elif reduction == "sum":
        red = ops.sum(smooth)
    else:
        if weight is not None:
            red = _weighted_mean(ops.sum(smooth), ops.sum(w))
        else:
            red = _weighted_mean(ops.sum(smooth), ops.sum(ops.cast(valid, smooth.dtype)))
    return ops.add(ops.mul(nll, _sc(1 - label_smoothing, nll)), ops.mul(red, _sc(label_smoothing / c, red)))


@register("binary_cross_entropy", function=False, method=False, namespaces=_NS)
def binary_cross_entropy(input: Any, target: Any, weight: Any = None, size_average: Any = None, reduce: Any = None,
                         reduction: str = "mean") -> Any:
    """-(t log x + (1-t) log(1-x)) with logs clamped at -100 (torch)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if _shape(target) != _shape(input):
        raise ValueError(f"Using a target size ({list(_shape(target))}) that is different to the input size "
                         f"({list(_shape(input))}) is deprecated. Please ensure they have the same size.")
    a = _MsTensor.asnumpy(_no_grad(input))
    if a.size and ((a < 0).any() or (a > 1).any()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if _ms.records_grad(input, target):
        loss = _BinaryCrossEntropy.apply(input, target)
    else:
        loss = _bce_value(input, target)
    if weight is not None:
        loss = ops.mul(loss, weight)
    return _reduce(loss, reduction)


def _bce_value(x: Any, t: Any) -> Any:
    """Elementwise -(t log x + (1-t) log(1-x)), each log clamped at -100 (torch)."""
    lx = ops.clamp(ops.log(x), min=-100.0)
    l1x = ops.clamp(ops.log(ops.sub(1.0, x)), min=-100.0)
    return ops.neg(ops.add(ops.mul(t, lx), ops.mul(ops.sub(1.0, t), l1x)))


class _BinaryCrossEntropy(Function):
    """`_bce_value` as one node with torch's derivatives instead of the composition's: d/dx is
    (x - t) / max((1 - x) x, 1e-12) (the composition's is 0 * inf = NaN where x is exactly 0 or 1, e.g. a saturated
    float32 sigmoid), d/dt the unclamped -logit(x). The backward is built from MindSpore ops, which autograd records
    under create_graph, so double backward works."""

    @staticmethod
    def forward(ctx: Any, x: Any, t: Any) -> Any:
        ctx.save_for_backward(x, t)
        return _bce_value(x, t)

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, Any]:
        x, t = ctx.saved_tensors
        one_m_x = ops.sub(1.0, x)
        dx = dt = None
        if ctx.needs_input_grad[0]:
            dx = ops.div(ops.mul(dout, ops.sub(x, t)), ops.clamp(ops.mul(one_m_x, x), min=_sc(1e-12, x)))
        if ctx.needs_input_grad[1]:
            dt = ops.mul(dout, ops.sub(ops.log(one_m_x), ops.log(x)))
        return dx, dt


# torch.binary_cross_entropy_with_logits is aten_binary_cross_entropy_with_logits (ATen's signature)
@register("binary_cross_entropy_with_logits", function=False, method=False, namespaces=_NS)
def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None, size_average: Any = None,
                                     reduce: Any = None, reduction: str = "mean", pos_weight: Any = None) -> Any:
    """Sigmoid + BCE fused stably; pos_weight weights the positive term (broadcast over the class dim)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if _shape(target) != _shape(input):
        raise ValueError(f"Target size ({list(_shape(target))}) must be the same as input size "
                         f"({list(_shape(input))})")
    sp = ops.add(kernel("log1p")(kernel("exp")(ops.neg(ops.abs(input)))), ops.maximum(ops.neg(input), 0.0))
    if pos_weight is not None:
        lw = ops.add(ops.mul(ops.sub(pos_weight, 1.0), target), 1.0)
        loss = ops.add(ops.mul(ops.sub(1.0, target), input), ops.mul(lw, sp))
    else:
        loss = ops.add(ops.mul(ops.sub(1.0, target), input), sp)
    if weight is not None:
        loss = ops.mul(loss, weight)
    return _reduce(loss, reduction)


@register("mse_loss", function=False, method=False, namespaces=_NS)
def mse_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Any:
    """(x - y)^2."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_same_size(input, target, "mse_loss")
    d = ops.sub(input, target)
    return _reduce(ops.mul(d, d), reduction)


@register("l1_loss", function=False, method=False, namespaces=_NS)
def l1_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Any:
    """|x - y|."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_same_size(input, target, "l1_loss")
    return _reduce(ops.abs(ops.sub(input, target)), reduction)


@register("smooth_l1_loss", function=False, method=False, namespaces=_NS)
def smooth_l1_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                   beta: float = 1.0) -> Any:
    """0.5 d^2 / beta if |d| < beta else |d| - 0.5 beta (beta=0: L1)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _check_same_size(input, target, "smooth_l1_loss")
    d = ops.abs(ops.sub(input, target))
    if beta == 0:
        return _reduce(d, reduction)
    b = _sc(beta, d)
    loss = ops.where(ops.lt(d, b), ops.div(ops.mul(ops.mul(d, d), 0.5), b), ops.sub(d, _sc(0.5 * beta, d)))
    return _reduce(loss, reduction)


@register("huber_loss", function=False, method=False, namespaces=_NS)
def huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Any:
    """0.5 d^2 if |d| < delta else delta (|d| - 0.5 delta)."""
    _check_same_size(input, target, "huber_loss")
    d = ops.abs(ops.sub(input, target))
    dl = _sc(delta, d)
    loss = ops.where(ops.lt(d, dl), ops.mul(ops.mul(d, d), 0.5), ops.mul(ops.sub(d, _sc(0.5 * delta, d)), dl))
    return _reduce(loss, reduction)


@register("kl_div", function=False, method=False, namespaces=_NS)
def kl_div(input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
           log_target: bool = False) -> Any:
    """target * (log target - input) (input is log-probabilities); 'batchmean' divides the sum by N."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      stacklevel=3)
    if log_target:
        loss = ops.mul(kernel("exp")(target), ops.sub(target, input))
    else:
        # xlogy(t, t) with 0 at t == 0 (MindSpore's xlogy gives nan there); the safe log keeps grads finite
        pos = ops.gt(target, 0)
        tlogt = ops.where(pos, ops.mul(target, ops.log(ops.where(pos, target, ops.ones_like(target)))),
                          ops.zeros_like(target))
        loss = ops.sub(tlogt, ops.mul(target, input))
    if reduction == "batchmean":
        if input.ndim == 0:
            return ops.sum(loss)
        return ops.div(ops.sum(loss), float(_shape(input)[0]))
    return _reduce(loss, reduction)


# torch.poisson_nll_loss is aten_poisson_nll_loss (ATen's signature)
@register("poisson_nll_loss", function=False, method=False, namespaces=_NS)
def poisson_nll_loss(input: Any, target: Any, log_input: bool = True, full: bool = False, size_average: Any = None,
                     eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> Any:
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if log_input:
        loss = ops.sub(kernel("exp")(input), ops.mul(target, input))
    else:
        loss = ops.sub(input, ops.mul(target, ops.log(ops.add(input, _sc(eps, input)))))
    if full:
        approx = ops.add(ops.sub(ops.mul(target, ops.log(target)), target),
                         ops.mul(ops.log(ops.mul(target, _sc(2 * math.pi, target))), 0.5))
        loss = ops.add(loss, ops.where(ops.gt(target, 1), approx, ops.zeros_like(approx)))
    return _reduce(loss, reduction)


@register("gaussian_nll_loss", function=False, method=False, namespaces=_NS)
def gaussian_nll_loss(input: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Any:
    """0.5 (log max(var, eps) + (x - y)^2 / max(var, eps)) [+ 0.5 log 2pi]."""
    if _shape(var) != _shape(input):
        if _shape(input)[:-1] == _shape(var):
            var = ops.expand_dims(var, -1)
        elif _shape(input)[:-1] == _shape(var)[:-1] and _shape(var)[-1] == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if (_MsTensor.asnumpy(_no_grad(var)) < 0).any():
        raise ValueError("var has negative entry/entries")
    var = ops.clamp(_no_grad(var), min=_sc(eps, var)) + ops.sub(var, _no_grad(var))
    d = ops.sub(input, target)
    loss = ops.mul(ops.add(ops.log(var), ops.div(ops.mul(d, d), var)), 0.5)
    if full:
        loss = ops.add(loss, _sc(0.5 * math.log(2 * math.pi), loss))
    return _reduce(loss, reduction)


# torch.margin_ranking_loss is aten_margin_ranking_loss (ATen's signature)
@register("margin_ranking_loss", function=False, method=False, namespaces=_NS)
def margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0, size_average: Any = None,
                        reduce: Any = None, reduction: str = "mean") -> Any:
    """max(0, -y (x1 - x2) + margin)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    diff = ops.sub(input1, input2)
    loss = ops.relu(ops.add(ops.mul(ops.neg(target), diff), _sc(margin, diff)))
    return _reduce(loss, reduction)


# torch.hinge_embedding_loss is aten_hinge_embedding_loss (ATen's signature)
@register("hinge_embedding_loss", function=False, method=False, namespaces=_NS)
def hinge_embedding_loss(input: Any, target: Any, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
                         reduction: str = "mean") -> Any:
    """x where y == 1, max(0, margin - x) where y == -1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    zeros = ops.zeros_like(input)
    margin_clamp = ops.relu(ops.sub(_sc(margin, input), input))
    out_margin = ops.where(ops.ne(target, 1), margin_clamp, zeros)
    out_self = ops.where(ops.ne(target, -1), input, zeros)
    return _reduce(ops.add(out_margin, out_self), reduction)


@register("soft_margin_loss", function=False, method=False, namespaces=_NS)
def soft_margin_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None,
                     reduction: str = "mean") -> Any:
    """log(1 + exp(-y x))."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _reduce(kernel("log1p")(kernel("exp")(ops.mul(ops.neg(target), input))), reduction)


@register("multilabel_soft_margin_loss", function=False, method=False, namespaces=_NS)
def multilabel_soft_margin_loss(input: Any, target: Any, weight: Any = None, size_average: Any = None,
                                reduce: Any = None, reduction: str = "mean") -> Any:
    """-mean_c [y log sigmoid(x) + (1-y) log sigmoid(-x)] per sample."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    loss = ops.neg(ops.add(ops.mul(target, logsigmoid(input)),
                           ops.mul(ops.sub(1.0, target), logsigmoid(ops.neg(input)))))
    if weight is not None:
        loss = ops.mul(loss, weight)
    loss = ops.div(ops.sum(loss, input.ndim - 1), float(_shape(input)[-1]))
    return _reduce(loss, reduction)


# torch.cosine_embedding_loss is aten_cosine_embedding_loss (ATen's signature)
@register("cosine_embedding_loss", function=False, method=False, namespaces=_NS)
def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0, size_average: Any = None,
                          reduce: Any = None, reduction: str = "mean") -> Any:
    """1 - cos(x1, x2) where y == 1, max(0, cos(x1, x2) - margin) where y == -1."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    eps = _sc(1e-12, input1)
    d = input1.ndim - 1
    prod = ops.sum(ops.mul(input1, input2), d)
    m1 = ops.add(ops.sum(ops.mul(input1, input1), d), eps)
    m2 = ops.add(ops.sum(ops.mul(input2, input2), d), eps)
    cos = ops.div(prod, ops.sqrt(ops.mul(m1, m2)))
    zeros = ops.zeros_like(cos)
    pos = ops.sub(1.0, cos)
    neg = ops.relu(ops.sub(cos, _sc(margin, cos)))
    out = ops.add(ops.where(ops.eq(target, 1), pos, zeros), ops.where(ops.eq(target, -1), neg, zeros))
    return _reduce(out, reduction)


@register("pairwise_distance", method=False, namespaces=_NS)
def pairwise_distance(x1: Any, x2: Any, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Any:
    """||x1 - x2 + eps||_p over the last dim."""
    d = max(x1.ndim, x2.ndim) - 1
    diff = ops.sub(x1, x2)
    return _pnorm(ops.add(diff, _sc(eps, diff)), p, d, keepdim)


@register("cosine_similarity", method=False, namespaces=_NS)
def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8) -> Any:
    """x1 . x2 / max(||x1|| ||x2||, eps) along dim (torch 1.12 clamps each norm: max(||x||, eps)).

    x1 and x2 are broadcast to their common shape first (ATen's expand_outplace), so each norm is taken over the
    broadcast operand: a (1, 3) x1 against a (2, 3) x2 along dim 0 has norm over 2 equal rows, not over 1."""
    s1, s2 = _shape(x1), _shape(x2)
    if s1 != s2:
        err = shapes_broadcast_error(s1, s2)
        if err is not None:
            raise err
        shape = tuple(np.broadcast_shapes(s1, s2))
        x1, x2 = ops.broadcast_to(x1, shape), ops.broadcast_to(x2, shape)
    n1 = ops.clamp(_pnorm(x1, 2.0, dim), min=_sc(eps, x1))
    n2 = ops.clamp(_pnorm(x2, 2.0, dim), min=_sc(eps, x2))
    return ops.div(ops.sum(ops.mul(x1, x2), dim), ops.mul(n1, n2))


# torch.triplet_margin_loss is aten_triplet_margin_loss (ATen's signature)
@register("triplet_margin_loss", function=False, method=False, namespaces=_NS)
def triplet_margin_loss(anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average: Any = None, reduce: Any = None,
                        reduction: str = "mean") -> Any:
    """max(d(a, p) - d(a, n) + margin, 0) with pairwise p-norm distances."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    dp = pairwise_distance(anchor, positive, p, eps)
    dn = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dn = ops.minimum(dn, pairwise_distance(positive, negative, p, eps))
    return _reduce(ops.relu(ops.add(ops.sub(dp, dn), _sc(margin, dp))), reduction)


@register("multi_margin_loss", function=False, method=False, namespaces=_NS)
def multi_margin_loss(input: Any, target: Any, p: int = 1, margin: float = 1.0, weight: Any = None,
                      size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Any:
    """sum_{i != y} max(0, margin - x[y] + x[i])^p / C per sample."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    x = input if input.ndim == 2 else ops.expand_dims(input, 0)
    t = ops.cast(_reshape(target, (-1,)), ms.int32)
    c = _shape(x)[1]
    xy = gather_d(x, 1, ops.expand_dims(t, 1))
    z = ops.relu(ops.add(ops.sub(x, xy), _sc(margin, x)))
    if p == 2:
        z = ops.mul(z, z)
    if weight is not None:
        z = ops.mul(z, ops.expand_dims(ops.gather(weight, t, 0), 1))
    notself = ops.sub(1.0, ops.cast(ops.one_hot(t, c, _MsTensor(1.0), _MsTensor(0.0)), x.dtype))
    loss = ops.div(ops.sum(ops.mul(z, notself), 1), float(c))
    if input.ndim == 1:
        loss = _reshape(loss, ())
    return _reduce(loss, reduction)


@register("multilabel_margin_loss", function=False, method=False, namespaces=_NS)
def multilabel_margin_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None,
                           reduction: str = "mean") -> Any:
    """sum over target classes j (up to the first -1) and non-target i of max(0, 1 - (x[j] - x[i])) / C."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    x = input if input.ndim == 2 else ops.expand_dims(input, 0)
    tn = _MsTensor.asnumpy(target).reshape(_shape(x))
    n, c = _shape(x)
    is_target = np.zeros((n, c), dtype=np.float32)
    pairs = np.zeros((n, c, c), dtype=np.float32)  # pairs[b, j, i]: j a target, i not a target
    for b in range(n):
        tgts = []
        for v in tn[b]:
            if v < 0:
                break
            tgts.append(int(v))
        is_target[b, tgts] = 1
        for j in tgts:
            pairs[b, j] = 1
        pairs[b, :, tgts] = 0
    xj = ops.expand_dims(x, 2)  # (n, c, 1)
    xi = ops.expand_dims(x, 1)  # (n, 1, c)
    z = ops.relu(ops.sub(1.0, ops.sub(xj, xi)))
    loss = ops.div(ops.sum(ops.mul(z, _MsTensor(pairs.astype(D.to_numpy_dtype(x.dtype)))), (1, 2)), float(c))
    if input.ndim == 1:
        loss = _reshape(loss, ())
    return _reduce(loss, reduction)


# ------------------------------------------------------------------------------------------ vision utils
@register("pixel_shuffle", method=False, namespaces=_NS)
def pixel_shuffle(input: Any, upscale_factor: int) -> Any:
    """(*, C*r^2, H, W) -> (*, C, H*r, W*r)."""
    r = int(upscale_factor)
    shp = _shape(input)
    lead, (c, h, w) = shp[:-3], shp[-3:]
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    oc = c // (r * r)
    x = _reshape(input, (-1, oc, r, r, h, w))
    x = ops.transpose(x, (0, 1, 4, 2, 5, 3))
    return _reshape(x, (*lead, oc, h * r, w * r))


@register("pixel_unshuffle", method=False, namespaces=_NS)
def pixel_unshuffle(input: Any, downscale_factor: int) -> Any:
    """(*, C, H*r, W*r) -> (*, C*r^2, H, W)."""
    r = int(downscale_factor)
    shp = _shape(input)
    lead, (c, h, w) = shp[:-3], shp[-3:]
    if h % r or w % r:
        raise RuntimeError(f"pixel_unshuffle expects height and width to be divisible by downscale_factor, got "
                           f"{h}x{w} and {r}")
    x = _reshape(input, (-1, c, h // r, r, w // r, r))
    x = ops.transpose(x, (0, 1, 3, 5, 2, 4))
    return _reshape(x, (*lead, c * r * r, h // r, w // r))


@register("channel_shuffle", method=False, namespaces=_NS)
def channel_shuffle(input: Any, groups: int) -> Any:
    """(N, C, *) -> channels regrouped: (N, g, C/g, *) transposed to (N, C/g, g, *)."""
    shp = _shape(input)
    n, c = shp[0], shp[1]
    x = _reshape(input, (n, groups, c // groups, *shp[2:]))
    perm = (0, 2, 1) + tuple(range(3, x.ndim))
    return _reshape(ops.transpose(x, perm), shp)


@register("native_channel_shuffle", method=False, namespaces=_NS)
def native_channel_shuffle(input: Any, groups: int) -> Any:
    return channel_shuffle(input, groups)


@register("im2col", function=False, method=False)
def im2col(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Any:
    """F.unfold: (N, C, H, W) -> (N, C*kh*kw, L) sliding blocks, by strided slicing (differentiable)."""
    k = _ntuple(kernel_size, 2)
    d = _ntuple(dilation, 2)
    p = _ntuple(padding, 2)
    s = _ntuple(stride, 2)
    unbatched = input.ndim == 3
    x = ops.expand_dims(input, 0) if unbatched else input
    if x.ndim != 4:
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.ndim}D)")
    n, c, h, w = _shape(x)
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    xp = ops.pad(x, (p[1], p[1], p[0], p[0])) if any(p) else x
    cols = []
    for i in range(k[0]):
        for j in range(k[1]):
            cols.append(_spatial_slice(xp, (i * d[0], j * d[1]), s, (oh, ow)))
    out = _reshape(ops.stack(cols, 2), (n, c * k[0] * k[1], oh * ow))
    return ops.squeeze(out, 0) if unbatched else out


@register("col2im", function=False, method=False)
def col2im(input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Any:
    """F.fold: (N, C*kh*kw, L) -> (N, C, H, W), summing overlapping blocks."""
    osz = _ntuple(output_size, 2)
    k = _ntuple(kernel_size, 2)
    d = _ntuple(dilation, 2)
    p = _ntuple(padding, 2)
    s = _ntuple(stride, 2)
    unbatched = input.ndim == 2
    x = ops.expand_dims(input, 0) if unbatched else input
    n, ck, length = _shape(x)
    c = ck // (k[0] * k[1])
    oh = (osz[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (osz[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    if oh * ow != length:
        raise RuntimeError(f"Given output_size={osz}, kernel_size={k}, dilation={d}, padding={p}, stride={s}, "
                           f"expected size of input's dimension 2 to match the calculated number of sliding blocks "
                           f"{oh} * {ow} = {oh * ow}, but got input.size(2)={length}.")
    hp, wp = osz[0] + 2 * p[0], osz[1] + 2 * p[1]
    # scatter-add through a constant index matrix: out_flat = cols @ onehot(position)
    blocks = _reshape(x, (n, c, k[0] * k[1] * length))
    idx = np.empty((k[0], k[1], oh, ow), dtype=np.int64)
    for i in range(k[0]):
        for j in range(k[1]):
            rows = (np.arange(oh) * s[0] + i * d[0])[:, None]
            cols_ = (np.arange(ow) * s[1] + j * d[1])[None, :]
            idx[i, j] = rows * wp + cols_
    scatter = np.zeros((k[0] * k[1] * length, hp * wp), dtype=D.to_numpy_dtype(x.dtype))
    scatter[np.arange(idx.size), idx.reshape(-1)] = 1
    out = _reshape(ops.matmul(blocks, _MsTensor(scatter)), (n, c, hp, wp))
    out = out[:, :, p[0]:p[0] + osz[0], p[1]:p[1] + osz[1]]
    return ops.squeeze(out, 0) if unbatched else out


# ------------------------------------------------------------------------------------------ interpolation
def _src_scale(in_size: int, out_size: int, align_corners: bool, scale: Optional[float]) -> float:
    """torch's area_pixel_compute_scale."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / scale if scale is not None and scale > 0 else in_size / out_size


def _gather_dim(x: Any, dim: int, index: np.ndarray) -> Any:
    return ops.gather(x, _MsTensor(index.astype(np.int32)), dim)


def _weights_shape(w: np.ndarray, dim: int, ndim: int, dtype: Any) -> Any:
    shp = [1] * ndim
    shp[dim] = w.shape[0]
    return _MsTensor(w.reshape(shp).astype(D.to_numpy_dtype(dtype)))


def _resize_dim(x: Any, dim: int, out: int, mode: str, align_corners: bool, scale: Optional[float]) -> Any:
    """Resize one spatial dim with torch's source-index rules (separable, gather-based, differentiable)."""
    size = _shape(x)[dim]
    dst = np.arange(out, dtype=np.float64)
    if mode in ("nearest", "nearest-exact"):
        sc = 1.0 / scale if scale is not None and scale > 0 else size / out
        # torch computes the nearest source index in float32
        sc32 = np.float32(sc)
        if mode == "nearest":
            src = np.floor((dst.astype(np.float32) * sc32)).astype(np.int64)
        else:
            src = np.floor(((dst.astype(np.float32) + np.float32(0.5)) * sc32)).astype(np.int64)
        return _gather_dim(x, dim, np.minimum(src, size - 1))
    sc = _src_scale(size, out, align_corners, scale)
    if mode == "linear":
        if out == size:
            # torch's compute_source_index_and_lambda copies a dim whose size is unchanged, whatever the
            # scale_factor (interpolate(x, scale_factor=1.3) on a size-3 dim keeps it as is)
            return x
        src = dst * sc if align_corners else np.maximum((dst + 0.5) * sc - 0.5, 0.0)
        i0 = np.minimum(np.floor(src).astype(np.int64), size - 1)
        i1 = np.minimum(i0 + 1, size - 1)
        lam = (src - i0).astype(np.float64)
        a = _gather_dim(x, dim, i0)
        b = _gather_dim(x, dim, i1)
        return ops.add(ops.mul(a, _weights_shape(1.0 - lam, dim, x.ndim, x.dtype)),
                       ops.mul(b, _weights_shape(lam, dim, x.ndim, x.dtype)))
    if mode == "cubic":
        src = dst * sc if align_corners else (dst + 0.5) * sc - 0.5
        i = np.floor(src).astype(np.int64)
        t = src - i
        A = -0.75
        ws = [((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A,
              ((A + 2) * t - (A + 3)) * t * t + 1,
              ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1,
              ((A * (2 - t) - 5 * A) * (2 - t) + 8 * A) * (2 - t) - 4 * A]
        out_t = None
        for k, w in enumerate(ws):
            idx = np.clip(i - 1 + k, 0, size - 1)
            term = ops.mul(_gather_dim(x, dim, idx), _weights_shape(w, dim, x.ndim, x.dtype))
            out_t = term if out_t is None else ops.add(out_t, term)
        return out_t
    raise ValueError(mode)


def _aa_filter(t: np.ndarray, cubic: bool) -> np.ndarray:
    """torch's antialiasing filters of |t|: the triangle (bilinear) or Keys' cubic with a = -0.5 (bicubic; the
    plain bicubic mode uses a = -0.75)."""
    if not cubic:
        return np.maximum(1.0 - t, 0.0)
    a = -0.5
    return np.where(t < 1.0, ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0,
                    np.where(t < 2.0, (((t - 5.0) * t + 8.0) * t - 4.0) * a, 0.0))


def aa_weights(size: int, out: int, cubic: bool, align_corners: bool = False,
               scale: Optional[float] = None) -> np.ndarray:
    """torch's antialiased resampling weights for one dim (`_compute_weights_aa`; align_corners only changes the
    scale), (size, out): each output pixel is the normalised filter-weighted sum of the input pixels within the
    filter's support, which is stretched by the downscale factor so that every input pixel contributes."""
    sc = _src_scale(size, out, align_corners, scale)
    stretch = max(sc, 1.0)
    support = (2.0 if cubic else 1.0) * stretch
    w = np.zeros((size, out))
    for i in range(out):
        center = sc * (i + 0.5)
        lo, hi = max(int(center - support + 0.5), 0), min(int(center + support + 0.5), size)
        f = _aa_filter(np.abs((np.arange(lo, hi) - center + 0.5) / stretch), cubic)
        w[lo:hi, i] = f / f.sum() if f.sum() != 0 else f
    return w


def _resize_dim_aa(x: Any, dim: int, out: int, cubic: bool, align_corners: bool, scale: Optional[float]) -> Any:
    """Antialiased resize of one dim: a matmul with `aa_weights` (differentiable)."""
    size = _shape(x)[dim]
    if out == size:
        return x  # an unchanged dim is copied, as in _resize_dim
    w = aa_weights(size, out, cubic, align_corners, scale).astype(D.to_numpy_dtype(x.dtype))
    return ops.swapaxes(ops.matmul(ops.swapaxes(x, dim, -1), _MsTensor(w)), dim, -1)


_INTERP_DIMS = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}


@register("interpolate", function=False, method=False, namespaces=_NS)
def interpolate(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Any:
    """Resize the spatial dims of (N, C, *spatial) with torch's modes and source-index conventions."""
    n = input.ndim - 2
    if n < 1 or n > 3:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) "
                                  f"for the modes: nearest | linear | bilinear | bicubic | trilinear | area "
                                  f"| nearest-exact (got {mode})")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    else:
        if mode not in _INTERP_DIMS:
            raise NotImplementedError(f"interpolate: mode '{mode}' is not supported")
        if _INTERP_DIMS[mode] != n:
            raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {_INTERP_DIMS[mode] + 2}D input")
        if align_corners is None:
            align_corners = False
    if antialias:
        if mode not in ("bilinear", "bicubic"):
            raise NotImplementedError("Anti-alias option is only supported for bilinear and bicubic modes")
    in_sizes = _shape(input)[2:]
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != n:
                raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(in_sizes)} and output size of {list(size)}. "
                                 "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                                 "(o1, o2, ...,oK) format.")
            outs = [int(s) for s in size]
        else:
            outs = [int(size)] * n
        scales: List[Optional[float]] = [None] * n
    elif scale_factor is not None:
        sf = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * n
        if len(sf) != n:
            raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got "
                             f"input with spatial dimensions of {list(in_sizes)} and scale_factor of shape {sf}.")
        outs = [int(math.floor(float(i) * float(s))) for i, s in zip(in_sizes, sf)]
        scales = [None] * n if recompute_scale_factor else [float(s) for s in sf]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if mode == "area":
        return _adaptive_poolnd(input, tuple(outs), n, "avg")
    kind = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    x = input
    for j in range(n):
        x = (_resize_dim_aa(x, 2 + j, outs[j], kind == "cubic", bool(align_corners), scales[j]) if antialias else
             _resize_dim(x, 2 + j, outs[j], kind, bool(align_corners), scales[j]))
    # every dim unchanged: torch still returns a new tensor, never the input itself
    return ops.add(x, 0) if x is input else x


# -------------------------------------------------------------------------------------------- attention
@register("scaled_dot_product_attention", function=False, method=False, namespaces=_NS)
def scaled_dot_product_attention(query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: Optional[float] = None) -> Any:
    """softmax(Q K^T * scale + mask) V.  query (*, L, E), key (*, S, E), value (*, S, Ev) -> (*, L, Ev).

    A bool mask marks positions that TAKE PART in attention (True = keep); a float mask is added.
    """
    L, S = _shape(query)[-2], _shape(key)[-2]
    sc = 1.0 / math.sqrt(_shape(query)[-1]) if scale is None else scale
    scores = ops.matmul(query, ops.swapaxes(key, -2, -1))
    scores = ops.mul(scores, _sc(sc, scores))
    if is_causal:
        causal = _MsTensor(np.tril(np.ones((L, S), dtype=np.bool_)))
        scores = ops.masked_fill(scores, ops.logical_not(causal), _scalar(float("-inf"), scores))
    if attn_mask is not None:
        if attn_mask.dtype == ms.bool_:
            scores = ops.masked_fill(scores, ops.logical_not(attn_mask), _scalar(float("-inf"), scores))
        else:
            scores = ops.add(scores, attn_mask)
    attn = softmax_impl(scores, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return ops.matmul(attn, value)


def _mha_shape_check(query: Any, key: Any, value: Any, key_padding_mask: Any, attn_mask: Any,
                     num_heads: int) -> bool:
    """torch 1.12's `_mha_shape_check`: the ranks of query/key/value and of the masks; whether query is batched."""
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.ndim}-D tensor instead")
        if attn_mask is not None and attn_mask.ndim not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.ndim}-D tensor instead")
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
                                 f"found {key_padding_mask.ndim}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.ndim not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.ndim}-D tensor instead")
            expected = (num_heads, _shape(query)[0], _shape(key)[0])
            if attn_mask.ndim == 3 and _shape(attn_mask) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {_torch_size(attn_mask)}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.ndim}-D query "
                         "tensor")


def _byte_mask_as_bool(mask: Any, name: str) -> Any:
    """torch 1.12 takes a uint8 mask as a bool one (non-zero = masked out), with a deprecation warning (2.x
    rejects it)."""
    warnings.warn(f"Byte tensor for {name} in nn.MultiheadAttention is deprecated. Use bool tensor instead.")
    return ops.cast(mask, ms.bool_)


def _check_float_mask(mask: Any, dtype: Any) -> None:
    """An additive mask goes into torch's baddbmm with q and k, which must share its dtype."""
    if mask.dtype != dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {D.cpp_name(mask.dtype)}, batch1: "
                           f"{D.cpp_name(dtype)}, batch2: {D.cpp_name(dtype)}")


def _merge_masks(attn_mask: Any, key_padding_mask: Any, bsz: int, num_heads: int, tgt_len: int, src_len: int,
                 dtype: Any) -> Optional[Any]:
    """attn_mask (L, S) / (N*H, L, S) (bool: True = masked out; float: added) and key_padding_mask (N, S) ->
    one additive mask broadcastable to (N, H, L, S), merged as torch 1.12 does: a bool attn_mask is or-ed with the
    padding mask (any non-zero padding entry masks), a float one gets -inf where the (bool) padding mask is set,
    and a padding mask alone is the mask (added when float)."""
    mask = None
    if attn_mask is not None:
        mask = ops.reshape(attn_mask, (1, 1, tgt_len, src_len) if attn_mask.ndim == 2 else
                           (bsz, num_heads, tgt_len, src_len))
    if key_padding_mask is not None:
        kpm = ops.reshape(key_padding_mask, (bsz, 1, 1, src_len))
        kpm_bool = kpm.dtype == ms.bool_
        if mask is None:
            mask = kpm
        elif mask.dtype == ms.bool_:
            mask = ops.logical_or(mask, kpm if kpm_bool else ops.ne(kpm, 0))
        elif not kpm_bool:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{D.cpp_name(kpm.dtype)}")
        else:
            mask = ops.where(kpm, _MsTensor(float("-inf"), mask.dtype), mask)
    if mask is None:
        return None
    if mask.dtype == ms.bool_:
        return ops.masked_fill(ops.zeros(mask.shape, dtype), mask, _MsTensor(float("-inf"), dtype))
    _check_float_mask(mask, dtype)
    return mask


@register("multi_head_attention_forward", function=False, method=False, namespaces=_NS)
def multi_head_attention_forward(query: Any, key: Any, value: Any, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight: Any, in_proj_bias: Any, bias_k: Any, bias_v: Any,
                                 add_zero_attn: bool, dropout_p: float, out_proj_weight: Any, out_proj_bias: Any,
                                 training: bool = True, key_padding_mask: Any = None, need_weights: bool = True,
                                 attn_mask: Any = None, use_separate_proj_weight: bool = False,
                                 q_proj_weight: Any = None, k_proj_weight: Any = None, v_proj_weight: Any = None,
                                 static_k: Any = None, static_v: Any = None, average_attn_weights: bool = True,
                                 is_causal: bool = False) -> Tuple[Any, Any]:
    """torch's multi-head attention: query (L, N, E) [or (L, E)], key/value (S, N, E_k/E_v) ->
    output (L, N, E) and the attention weights (N, L, S) (per head (N, H, L, S) without averaging)."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = (ops.expand_dims(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = ops.expand_dims(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if _shape(key)[:2] != _shape(value)[:2]:
            raise AssertionError(f"key's sequence and batch dims torch.Size({list(_shape(key)[:2])}) do not match "
                                 f"value's torch.Size({list(_shape(value)[:2])})")
    elif _shape(key) != _shape(value):
        raise AssertionError(f"key shape {_torch_size(key)} does not match value shape {_torch_size(value)}")
    if is_causal and attn_mask is None:
        attn_mask = _MsTensor(np.triu(np.ones((tgt_len, src_len), np.bool_), 1))
    if use_separate_proj_weight:
        bq = bk = bv = None
        if in_proj_bias is not None:
            bq, bk, bv = ops.split(in_proj_bias, embed_dim, 0)
        q = linear(query, q_proj_weight, bq)
        k = linear(key, k_proj_weight, bk)
        v = linear(value, v_proj_weight, bv)
    else:
        wq, wk, wv = ops.split(in_proj_weight, embed_dim, 0)
        bq = bk = bv = None
        if in_proj_bias is not None:
            bq, bk, bv = ops.split(in_proj_bias, embed_dim, 0)
        q = linear(query, wq, bq)
        k = linear(key, wk, bk)
        v = linear(value, wv, bv)
    if attn_mask is not None:
        if attn_mask.dtype == ms.uint8:
            attn_mask = _byte_mask_as_bool(attn_mask, "attn_mask")
        elif attn_mask.dtype != ms.bool_ and attn_mask.dtype not in D.all_float_type:
            raise AssertionError(f"Only float, byte, and bool types are supported for attn_mask, not "
                                 f"{attn_mask.dtype}")
        # (2-D or 3-D after `_mha_shape_check`: torch's "attn_mask's dimension 4 is not supported" is unreachable)
        correct = (tgt_len, src_len) if attn_mask.ndim == 2 else (bsz * num_heads, tgt_len, src_len)
        if _shape(attn_mask) != correct:
            raise RuntimeError(f"The shape of the {attn_mask.ndim}D attn_mask is {_torch_size(attn_mask)}, but "
                               f"should be {correct}.")
    if key_padding_mask is not None and key_padding_mask.dtype == ms.uint8:
        key_padding_mask = _byte_mask_as_bool(key_padding_mask, "key_padding_mask")
    if bias_k is not None and bias_v is not None:
        k = ops.cat((k, ops.tile(bias_k, (1, bsz, 1))), 0)
        v = ops.cat((v, ops.tile(bias_v, (1, bsz, 1))), 0)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    # (L, N, E) -> (N, H, L, hd)
    q = ops.transpose(ops.reshape(q, (tgt_len, bsz, num_heads, head_dim)), (1, 2, 0, 3))
    k = ops.transpose(ops.reshape(k, (k.shape[0], bsz, num_heads, head_dim)), (1, 2, 0, 3))
    v = ops.transpose(ops.reshape(v, (v.shape[0], bsz, num_heads, head_dim)), (1, 2, 0, 3))
    if static_k is not None:
        k = ops.reshape(static_k, (bsz, num_heads, -1, head_dim))
    if static_v is not None:
        v = ops.reshape(static_v, (bsz, num_heads, -1, head_dim))
    if add_zero_attn:
        k = ops.cat((k, ops.zeros((bsz, num_heads, 1, head_dim), k.dtype)), 2)
        v = ops.cat((v, ops.zeros((bsz, num_heads, 1, head_dim), v.dtype)), 2)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.shape[2]
    if key_padding_mask is not None and _shape(key_padding_mask) != (bsz, src_len):
        raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                             f"{_torch_size(key_padding_mask)}")
    mask = _merge_masks(attn_mask, key_padding_mask, bsz, num_heads, tgt_len, src_len, q.dtype)
    scores = ops.matmul(ops.mul(q, _sc(1.0 / math.sqrt(head_dim), q)), ops.swapaxes(k, -2, -1))
    if mask is not None:
        scores = ops.add(scores, mask)
    attn = softmax_impl(scores, -1)
    if dropout_p > 0.0 and training:
        attn = dropout(attn, dropout_p, True)
    out = ops.matmul(attn, v)  # (N, H, L, hd)
    out = ops.reshape(ops.transpose(out, (2, 0, 1, 3)), (tgt_len, bsz, embed_dim))
    out = linear(out, out_proj_weight, out_proj_bias)
    weights = None
    if need_weights:
        weights = ops.mean(attn, 1) if average_attn_weights else attn
        if not is_batched:
            weights = ops.squeeze(weights, 0)
    if not is_batched:
        out = ops.squeeze(out, 1)
    return out, weights


def _pad_last(m: Any) -> Any:
    """Append one zero (False) column to a mask's last dim."""
    pad = ops.zeros(m.shape[:-1] + (1,), m.dtype)
    return ops.cat((m, pad), m.ndim - 1)


# ------------------------------------------------------------------------------------ transposed convolution
class _OneDnnConvTranspose(Function):
    """A transposed convolution on oneDNN as one autograd node: it is the backward-data pass of the convolution
    whose weight it shares (torch's (C_in, C_out/groups, *k) layout is that convolution's (O, C/groups, *k)).
    x (N, C_in, *in) -> (N, C_out, *out); backward: dx = that convolution's forward of dout, dw its
    backward-weights pass, dbias a host sum. Under create_graph (2-d) the same three from MindSpore's recorded
    Conv2D / Conv2DBackpropFilter, whose derivatives exist (the composed path's legacy Slice has none)."""

    @staticmethod
    def forward(ctx: Any, x: Any, w: Any, bias: Any, out_shape: Tuple[int, ...], geometry: Tuple[Any, ...]) -> Any:
        ctx.save_for_backward(x, w)
        ctx.geometry = geometry
        return _conv_transpose_onednn_value(x, w, bias, out_shape, geometry)

    @staticmethod
    def backward(ctx: Any, dout: Any) -> Tuple[Any, ...]:
        x, w = ctx.saved_tensors
        stride, padding, output_padding, dilation, groups = ctx.geometry
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        axes = (0, *range(2, len(_shape(x))))
        if _ms.is_recording():  # create_graph: recorded MindSpore kernels, which have their own derivatives
            if len(stride) != 2:
                _conv3d_double_backward_unsupported()
            o, _, kh, kw = _shape(w)
            _, grad_filter = _conv2d_grad_prims(o, kh, kw, stride, padding, dilation, groups)
            dx = _conv2d_native_node(dout, w, stride, padding, dilation, groups) if need_x else None
            dw = grad_filter(x, dout, _shape(w)) if need_w else None
            return dx, dw, (ops.sum(dout, axes) if need_b else None), None, None
        g = _host_f32(dout)
        dx = dw = db = None
        if need_x:
            dx = _MsTensor.from_numpy(_onednn.conv_forward(g, _host_f32(w), None, stride, padding, dilation, groups))
        if need_w:
            dw = _MsTensor.from_numpy(_onednn.conv_backward_weights(_host_f32(x), g, _shape(w), stride, padding,
                                                                    dilation, groups))
        if need_b:
            db = _MsTensor.from_numpy(g.sum(axis=axes))
        return dx, dw, db, None, None


def _conv_transpose_onednn_value(x: Any, w: Any, bias: Any, out_shape: Tuple[int, ...],
                                 geometry: Tuple[Any, ...]) -> Any:
    stride, padding, _, dilation, groups = geometry
    y = _onednn.conv_backward_data(_host_f32(x), _host_f32(w), out_shape, stride, padding, dilation, groups)
    if bias is not None:
        y += _host_f32(bias).reshape((1, -1) + (1,) * (y.ndim - 2))
    return _MsTensor.from_numpy(y)


def _conv_transpose_onednn(x: Any, w: Any, bias: Any, s: Tuple[int, ...], p: Tuple[int, ...],
                           op: Tuple[int, ...], d: Tuple[int, ...], groups: int) -> Any:
    """The oneDNN transposed convolution of batched x, or None where it does not apply (then the composed path):
    the convolution it inverts must map torch's output size back onto x's (always, unless output_padding >= the
    stride), and oneDNN must accept the geometry."""
    k = _shape(w)[2:]
    out_sp = [(i - 1) * si - 2 * pi + di * (ki - 1) + oi + 1 for i, si, pi, di, ki, oi in
              zip(_shape(x)[2:], s, p, d, k, op)]
    out_shape = (_shape(x)[0], _shape(w)[1] * groups, *out_sp)
    if min(out_shape) <= 0 or tuple(_onednn.conv_out_shape(out_shape, _shape(w), s, p, d)) != tuple(_shape(x)):
        return None
    geometry = (s, p, op, d, groups)
    try:
        if _ms.records_grad(x, w, bias):
            return _OneDnnConvTranspose.apply(x, w, bias, out_shape, geometry)
        return _conv_transpose_onednn_value(x, w, bias, out_shape, geometry)
    except _onednn.OneDnnError:  # a geometry oneDNN refuses
        return None


def _conv_transposend(input: Any, weight: Any, bias: Any, stride: Any, padding: Any, output_padding: Any,
                      groups: int, dilation: Any, n: int) -> Any:
    """Transposed convolution: oneDNN's on CPU float32 (`_conv_transpose_onednn`); otherwise a stride-1
    convolution of the zero-upsampled input with the spatially flipped, in/out-swapped weight (MindSpore has no
    CPU ConvTranspose2D kernel; this is exact and differentiable)."""
    unbatched = input.ndim == n + 1
    x = ops.expand_dims(input, 0) if unbatched else input
    s = _ntuple(stride, n)
    p = _ntuple(padding, n)
    op = _ntuple(output_padding, n)
    d = _ntuple(dilation, n)
    for oi, si, di in zip(op, s, d):
        if oi >= si and oi >= di:
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               f"output_padding={list(op)}, stride={list(s)}, dilation={list(d)}")
    if (n in (2, 3) and _onednn_conv_ok(x) and weight.dtype == x.dtype
            and (bias is None or bias.dtype == x.dtype) and _shape(x)[1] == _shape(weight)[0]):
        out = _conv_transpose_onednn(x, weight, bias, s, p, op, d, groups)
        if out is not None:
            return ops.squeeze(out, 0) if unbatched else out
    k = _shape(weight)[2:]
    cin, cout_g = _shape(weight)[:2]
    nb, c = _shape(x)[:2]
    # zero-insertion: (..., L) -> (..., (L-1)*s + 1)
    for j in range(n):
        if s[j] == 1:
            continue
        dim = 2 + j
        x = ops.expand_dims(x, dim + 1)
        pads = [0, 0] * (x.ndim - dim - 2) + [0, s[j] - 1]
        x = ops.pad(x, tuple(pads))
        shp = list(_shape(x))
        shp[dim:dim + 2] = [shp[dim] * s[j]]
        x = _reshape(x, shp)
        x = ops.narrow(x, dim, 0, shp[dim] - (s[j] - 1))
    # border: d*(k-1) - p each side, plus output_padding at the end (negative = crop)
    flat = []
    for j in reversed(range(n)):
        a = d[j] * (k[j] - 1) - p[j]
        flat += [a, a + op[j]]
    if any(v < 0 for v in flat):
        x = pad(x, tuple(flat))  # F.pad handles the negative (cropping) entries
    elif any(flat):
        x = ops.pad(x, tuple(flat))
    # weight (C_in, C_out/g, *k) -> (C_out, C_in/g, *k), flipped
    w = _reshape(weight, (groups, cin // groups, cout_g) + tuple(k))
    w = ops.transpose(w, (0, 2, 1) + tuple(range(3, 3 + n)))
    w = _reshape(w, (groups * cout_g, cin // groups) + tuple(k))
    w = ops.flip(w, tuple(range(2, 2 + n)))
    out = _convnd(x, w, bias, 1, 0, d, groups, n)
    return ops.squeeze(out, 0) if unbatched else out


@register("conv_transpose1d", method=False, namespaces=_NS)
def conv_transpose1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Any:
    """input (N, C_in, L), weight (C_in, C_out/groups, k) -> (N, C_out, L_out)."""
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


@register("conv_transpose2d", method=False, namespaces=_NS)
def conv_transpose2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Any:
    """input (N, C_in, H, W), weight (C_in, C_out/groups, kH, kW) -> (N, C_out, H_out, W_out)."""
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


@register("conv_transpose3d", method=False, namespaces=_NS)
def conv_transpose3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Any:
    return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, 3)


# ------------------------------------------------------------------------------------------ bags, distances
@register("embedding_bag", function=False, method=False, namespaces=_NS)  # torch.embedding_bag: 4 outputs
def embedding_bag(input: Any, weight: Any, offsets: Any = None, max_norm: Optional[float] = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Any = None, include_last_offset: bool = False,
                  padding_idx: Optional[int] = None) -> Any:
    """Reduce (sum/mean/max) the embeddings of each bag: input (B, N), or 1-D input split by offsets."""
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode}")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request "
                                  "on GitHub.")
    idx = _MsTensor.asnumpy(input).astype(np.int64)
    if idx.ndim == 2:
        bags = [np.arange(i * idx.shape[1], (i + 1) * idx.shape[1]) for i in range(idx.shape[0])]
        flat_idx = idx.reshape(-1)
    else:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        off = _MsTensor.asnumpy(offsets).astype(np.int64).tolist()
        ends = off[1:] + [idx.size] if not include_last_offset else off[1:]
        starts = off if not include_last_offset else off[:-1]
        bags = [np.arange(a, b) for a, b in zip(starts, ends)]
        flat_idx = idx
    if max_norm is not None:
        _no_grad_embedding_renorm(weight, input, max_norm, norm_type)
    rows = ops.gather(weight, _MsTensor(flat_idx.astype(np.int32)), 0)  # (M, D)
    if per_sample_weights is not None:
        rows = ops.mul(rows, ops.expand_dims(_reshape(per_sample_weights, (-1,)), 1))
    dim = _shape(weight)[1]
    outs = []
    for members in bags:
        keep = members if padding_idx is None else members[flat_idx[members] != padding_idx]
        if keep.size == 0:
            outs.append(ops.zeros((dim,), weight.dtype))
            continue
        seg = ops.gather(rows, _MsTensor(keep.astype(np.int32)), 0)
        if mode == "sum":
            outs.append(ops.sum(seg, 0))
        elif mode == "mean":
            outs.append(ops.mean(seg, 0))
        else:
            outs.append(ops.amax(seg, 0))
    return ops.stack(outs, 0)


@register("pdist", method=False, namespaces=_NS)
def pdist(input: Any, p: float = 2) -> Any:
    """Upper-triangular pairwise p-norm distances of the rows of (N, M) -> (N*(N-1)/2,)."""
    n = _shape(input)[0]
    i, j = np.triu_indices(n, 1)
    a = ops.gather(input, _MsTensor(i.astype(np.int32)), 0)
    b = ops.gather(input, _MsTensor(j.astype(np.int32)), 0)
    return _pnorm(ops.sub(a, b), p, 1)


@register("triplet_margin_with_distance_loss", function=False, method=False, namespaces=_NS)
def triplet_margin_with_distance_loss(anchor: Any, positive: Any, negative: Any, *, distance_function: Any = None,
                                      margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> Any:
    """max(d(a, p) - d(a, n) + margin, 0) with a custom distance (pairwise_distance by default)."""
    dist = distance_function if distance_function is not None else pairwise_distance
    dp = dist(anchor, positive)
    dn = dist(anchor, negative)
    if swap:
        dn = ops.minimum(dn, dist(positive, negative))
    return _reduce(ops.relu(ops.add(ops.sub(dp, dn), _sc(margin, dp))), reduction)


# --------------------------------------------------------------------------------------------- grids
@register("affine_grid", function=False, method=False, namespaces=_NS)
def affine_grid(theta: Any, size: Sequence[int], align_corners: Optional[bool] = None) -> Any:
    """Sampling grid (N, H, W, 2) [(N, D, H, W, 3)] for affine matrices theta (N, 2, 3) [(N, 3, 4)]."""
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=3)
        align_corners = False
    size = [int(v) for v in size]

    def lin(steps: int) -> np.ndarray:
        if steps <= 1:
            return np.zeros(max(steps, 1), dtype=np.float64)
        v = np.linspace(-1.0, 1.0, steps)
        return v if align_corners else v * (steps - 1) / steps

    if len(size) == 4:
        n, _, h, w = size
        xs, ys = lin(w), lin(h)
        base = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None], np.ones((1, 1))), -1)  # (H, W, 3)
        base = _MsTensor(base.reshape(1, h * w, 3).astype(D.to_numpy_dtype(theta.dtype)))
        grid = ops.matmul(ops.tile(base, (n, 1, 1)), ops.swapaxes(theta, 1, 2))
        return _reshape(grid, (n, h, w, 2))
    if len(size) == 5:
        n, _, dd, h, w = size
        xs, ys, zs = lin(w), lin(h), lin(dd)
        base = np.stack(np.broadcast_arrays(xs[None, None, :], ys[None, :, None], zs[:, None, None],
                                            np.ones((1, 1, 1))), -1)
        base = _MsTensor(base.reshape(1, dd * h * w, 4).astype(D.to_numpy_dtype(theta.dtype)))
        grid = ops.matmul(ops.tile(base, (n, 1, 1)), ops.swapaxes(theta, 1, 2))
        return _reshape(grid, (n, dd, h, w, 3))
    raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                              f"respectively. Got size {size}.")


@register("grid_sample", function=False, method=False, namespaces=_NS)
def grid_sample(input: Any, grid: Any, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: Optional[bool] = None) -> Any:
    """Sample input (N, C, H, W) at grid (N, Ho, Wo, 2) of (x, y) in [-1, 1], or volumetric input (N, C, D, H, W)
    at grid (N, Do, Ho, Wo, 3) of (x, y, z): bilinear (trilinear), nearest, bicubic (4-D only); zeros, border or
    reflection padding. By gathers: differentiable w.r.t. input and grid."""
    if align_corners is None:
        align_corners = False
    nd = input.ndim - 2
    if nd not in (2, 3) or grid.ndim != input.ndim:
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
                           f"got input with sizes {list(_shape(input))} and grid with sizes {list(_shape(grid))}")
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if mode == "bicubic" and nd == 3:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    n, c = _shape(input)[:2]
    sizes = tuple(reversed(_shape(input)[2:]))  # (W, H[, D]): the order of the grid's (x, y[, z])
    out_sp = _shape(grid)[1:-1]

    def unnorm(g: Any, size: int) -> Any:
        if align_corners:
            return ops.mul(ops.add(g, 1.0), (size - 1) / 2)
        return ops.div(ops.sub(ops.mul(ops.add(g, 1.0), size), 1.0), 2)

    def reflect(coord: Any, size: int) -> Any:
        if align_corners:
            lo, span = 0.0, 2.0 * (size - 1)
        else:
            lo, span = -0.5, 2.0 * size
        if span <= 0:
            return ops.zeros_like(coord)
        x = ops.abs(ops.sub(coord, lo))
        extra = ops.sub(x, ops.mul(ops.floor(ops.div(x, span)), span))
        half = span / 2
        x = ops.where(ops.gt(extra, half), ops.sub(span, extra), extra)
        return ops.add(x, lo)

    def bound(coord: Any, size: int) -> Any:
        if padding_mode == "border":
            return ops.clamp(coord, 0.0, float(size - 1))
        if padding_mode == "reflection":
            return ops.clamp(reflect(coord, size), 0.0, float(size - 1))
        return coord

    coords = [unnorm(ops.squeeze(g, nd + 1), size) for g, size in zip(ops.split(grid, 1, nd + 1), sizes)]
    flat = _reshape(input, (n, c, -1))
    dims = (n, c, sizes, out_sp)
    if mode == "bicubic":
        return _grid_sample_bicubic(flat, coords, dims, bound)
    coords = [bound(g, size) for g, size in zip(coords, sizes)]
    if mode == "nearest":  # round half to even, as torch (nearbyint)
        return _grid_tap(flat, [ops.cast(ops.round(g), ms.int32) for g in coords], dims)
    lows = [ops.floor(g) for g in coords]
    fracs = [ops.sub(g, lo) for g, lo in zip(coords, lows)]
    lows = [ops.cast(lo, ms.int32) for lo in lows]
    out = None
    for corner in itertools.product((0, 1), repeat=nd):  # the 2**nd neighbours, weights the product of 1-t / t
        weight = None
        for k, bit in enumerate(corner):
            wk = fracs[k] if bit else ops.sub(1.0, fracs[k])
            weight = wk if weight is None else ops.mul(weight, wk)
        idx = [ops.add(lo, 1) if bit else lo for lo, bit in zip(lows, corner)]
        v = ops.mul(_grid_tap(flat, idx, dims), ops.expand_dims(weight, 1))
        out = v if out is None else ops.add(out, v)
    return out


def _grid_tap(flat: Any, idx: Sequence[Any], dims: Tuple[Any, ...]) -> Any:
    """Values of flat (N, C, prod(sizes)) at integer pixel coordinates idx ((x, y[, z]), each (N, *out)) ->
    (N, C, *out), zero outside."""
    n, c, sizes, out_sp = dims
    valid, lin, stride = None, None, 1
    for xi, size in zip(idx, sizes):  # x is the fastest-moving (last) dim of the input
        ok = ops.logical_and(ops.ge(xi, 0), ops.le(xi, size - 1))
        valid = ok if valid is None else ops.logical_and(valid, ok)
        term = ops.mul(ops.clamp(xi, 0, size - 1), stride)
        lin = term if lin is None else ops.add(lin, term)
        stride *= size
    m = int(np.prod(out_sp))
    lin = ops.tile(ops.expand_dims(_reshape(ops.cast(lin, ms.int32), (n, m)), 1), (1, c, 1))
    vals = _reshape(ops.gather_elements(flat, 2, lin), (n, c, *out_sp))
    return ops.mul(vals, ops.expand_dims(ops.cast(valid, flat.dtype), 1))


_BICUBIC_A = -0.75  # torch's cubic convolution coefficient


def _cubic_weights(t: Any) -> List[Any]:
    """The 4 cubic-convolution weights of taps -1, 0, 1, 2 at fractional offset t (torch's
    get_cubic_upsample_coefficients)."""
    a = _BICUBIC_A

    def near(x: Any) -> Any:  # ((A + 2) x - (A + 3)) x^2 + 1, |x| <= 1
        return ops.add(ops.mul(ops.mul(ops.sub(ops.mul(x, a + 2.0), a + 3.0), x), x), 1.0)

    def far(x: Any) -> Any:  # ((A x - 5A) x + 8A) x - 4A, 1 < |x| < 2
        return ops.sub(ops.mul(ops.add(ops.mul(ops.sub(ops.mul(x, a), 5.0 * a), x), 8.0 * a), x), 4.0 * a)

    return [far(ops.add(t, 1.0)), near(t), near(ops.sub(1.0, t)), far(ops.sub(2.0, t))]


def _grid_sample_bicubic(flat: Any, coords: Sequence[Any], dims: Tuple[Any, ...],
                         bound: Callable[[Any, int], Any]) -> Any:
    """torch's bicubic grid sampling: 4x4 taps around floor(x, y) weighted by cubic convolution; each tap's
    coordinate is mapped by the padding mode on its own (border: clamped, reflection: reflected then clamped,
    zeros: zero outside), as ATen's get_value_bounded."""
    (ix, iy), (w, h) = coords, dims[2]
    x0, y0 = ops.floor(ix), ops.floor(iy)
    wx, wy = _cubic_weights(ops.sub(ix, x0)), _cubic_weights(ops.sub(iy, y0))
    xs = [ops.cast(bound(ops.add(x0, float(k - 1)), w), ms.int32) for k in range(4)]
    ys = [ops.cast(bound(ops.add(y0, float(k - 1)), h), ms.int32) for k in range(4)]
    out = None
    for j in range(4):
        row = None
        for i in range(4):
            v = ops.mul(_grid_tap(flat, (xs[i], ys[j]), dims), ops.expand_dims(wx[i], 1))
            row = v if row is None else ops.add(row, v)
        v = ops.mul(row, ops.expand_dims(wy[j], 1))
        out = v if out is None else ops.add(out, v)
    return out


# torch.ctc_loss is aten_ctc_loss (ATen's signature)
@register("ctc_loss", function=False, method=False, namespaces=_NS)
def ctc_loss(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Any:
    """CTC loss: log_probs (T, N, C) [or (T, C)], targets (N, S) padded or 1-D concatenated; 'mean' divides each
    loss by its target length, then averages (torch)."""
    unbatched = log_probs.ndim == 2
    lp = ops.expand_dims(log_probs, 1) if unbatched else log_probs
    to_np = lambda v: np.asarray(_MsTensor.asnumpy(v) if isinstance(v, _MsTensor) else v).reshape(-1)  # noqa: E731
    il = to_np(input_lengths).astype(np.int64)
    tl = to_np(target_lengths).astype(np.int64)
    tg = _MsTensor.asnumpy(targets).astype(np.int64)
    if unbatched and tg.ndim == 1 and tl.size == 1 and tg.size == int(tl[0]):
        tg = tg.reshape(1, -1)
    if tg.ndim == 1:  # concatenated targets -> padded (N, S_max)
        s_max = int(tl.max()) if tl.size else 0
        padded = np.zeros((tl.size, max(s_max, 1)), np.int64)
        pos = 0
        for b, n in enumerate(tl):
            padded[b, :n] = tg[pos:pos + n]
            pos += n
        tg = padded
    # A sample has no alignment when its input is shorter than its target plus one blank between each pair of
    # equal consecutive labels. torch gives it an infinite loss (0 with zero_infinity, and a 0 gradient either way
    # of the overwrite below); MindSpore's kernel rejects an input shorter than the target and returns inf (also
    # with zero_infinity) for the repeats case: run those samples with an empty target and overwrite their loss.
    repeats = ((tg[:, 1:] == tg[:, :-1]) & (np.arange(1, tg.shape[1]) < tl[:, None])).sum(1)
    short = il < tl + repeats
    loss = ops.ctc_loss(lp, _MsTensor(tg), _MsTensor(il), _MsTensor(np.where(short, 0, tl)), blank, "none",
                        zero_infinity)
    loss = loss[0] if isinstance(loss, tuple) else loss
    if short.any():
        loss = ops.where(_MsTensor(short), ops.fill(loss.dtype, (), 0.0 if zero_infinity else float("inf")), loss)
    if reduction == "none":
        return ops.squeeze(loss, 0) if unbatched else loss
    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "mean":
        return ops.mean(ops.div(loss, _MsTensor(np.maximum(tl, 1).astype(D.to_numpy_dtype(loss.dtype)))))
    raise ValueError(f"{reduction} is not a valid value for reduction")


# ---------------------------------------------------------------------------- torch-level (aten) forms
# torch 1.12 exposes the ATen ops behind nn.functional at top level, with ATen's signatures (weight first in
# torch.embedding, integer enums for reduction/mode, cudnn flags, tuple outputs of the native_* ops). Code calls
# them directly (old model code, exported graphs, torch.nn.utils). They are table entries `aten_<name>` exposed as
# torch.<name> where F.<name> has the other signature; same-signature ones are plain entries.
_REDUCTIONS = ("none", "mean", "sum")  # at::Reduction::Reduction


def _reduction(r: Any) -> str:
    """ATen's integer reduction -> F's string. The schemas' default is Mean, but torch's Python argument parser
    reads `at::Reduction::Mean` with atol, i.e. 0: called from Python without it, the torch.* losses do not
    reduce (1.12 as 2.x); the aten_* entries below default to 0 for that reason."""
    if isinstance(r, str):
        return r
    return _REDUCTIONS[int(r)]


@register("aten_batch_norm", function=False, method=False)
def aten_batch_norm(input: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, training: bool,
                    momentum: float, eps: float, cudnn_enabled: bool = True) -> Any:
    """torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)."""
    return batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


@register("aten_instance_norm", function=False, method=False)
def aten_instance_norm(input: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any,
                       use_input_stats: bool, momentum: float, eps: float, cudnn_enabled: bool = True) -> Any:
    """torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn)."""
    return instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


@register("aten_embedding", function=False, method=False)
def aten_embedding(weight: Any, indices: Any, padding_idx: int = -1, scale_grad_by_freq: bool = False,
                   sparse: bool = False) -> Any:
    """torch.embedding(weight, indices, padding_idx=-1, ...): weight first; padding_idx -1 means none (F.embedding
    turns a negative padding_idx into a row number before calling it)."""
    return embedding(indices, weight, padding_idx if padding_idx >= 0 else None, None, 2.0, scale_grad_by_freq,
                     sparse)


@register("aten_embedding_bag", function=False, method=False)
def aten_embedding_bag(weight: Any, indices: Any, offsets: Any, scale_grad_by_freq: bool = False, mode: int = 0,
                       sparse: bool = False, per_sample_weights: Any = None, include_last_offset: bool = False,
                       padding_idx: Optional[int] = None) -> Any:
    """torch.embedding_bag(weight, indices (M,), offsets (B,), ..., mode 0/1/2 = sum/mean/max) ->
    (output (B, D), offset2bag, bag_size (B,), max_indices), the auxiliary outputs as torch's CPU kernel gives
    them: offset2bag (M,) (empty for sum), bag_size (sum: zeros), max_indices ((B, D) for max, bag_size for mean,
    zeros for sum). 2-D indices are flattened into bags of equal size, as F.embedding_bag does."""
    if mode not in (0, 1, 2):
        raise RuntimeError(f"embedding_bag: unknown mode {mode}")
    idx = _MsTensor.asnumpy(indices).astype(np.int64)
    if idx.ndim == 2:
        n = idx.shape[1]
        offsets = _MsTensor(np.arange(0, idx.size, n, dtype=np.int64))
        idx = idx.reshape(-1)
        indices = _MsTensor(idx)
    out = embedding_bag(indices, weight, offsets, None, 2, scale_grad_by_freq, ("sum", "mean", "max")[mode],
                        sparse, per_sample_weights, include_last_offset, padding_idx)
    off = _MsTensor.asnumpy(offsets).astype(np.int64)
    nbags = len(off) - 1 if include_last_offset else len(off)
    ends = np.append(off[1:], idx.size)[:nbags] if not include_last_offset else off[1:]
    offset2bag = np.repeat(np.arange(nbags), np.maximum(ends - off[:nbags], 0)).astype(np.int64)
    keep = idx != padding_idx if padding_idx is not None else np.ones(idx.shape, bool)
    bag_size = np.bincount(offset2bag[keep[:offset2bag.size]], minlength=nbags).astype(np.int64)
    if mode == 0:
        z = np.zeros((nbags,), np.int64)
        return out, _MsTensor(np.zeros((0,), np.int64)), _MsTensor(z), _MsTensor(z.copy())
    if mode == 1:
        return out, _MsTensor(offset2bag), _MsTensor(bag_size), _MsTensor(bag_size.copy())
    w = _MsTensor.asnumpy(_no_grad(weight))
    max_idx = np.zeros((nbags, w.shape[1]), np.int64)
    for b in range(nbags):
        members = idx[off[b]:ends[b]]
        members = members[members != padding_idx] if padding_idx is not None else members
        if members.size:
            max_idx[b] = members[np.argmax(w[members], axis=0)]  # first maximum, as torch
    return out, _MsTensor(offset2bag), _MsTensor(bag_size), _MsTensor(max_idx)


@register("aten_kl_div", function=False, method=False)
def aten_kl_div(input: Any, target: Any, reduction: int = 0, *, log_target: bool = False) -> Any:
    """torch.kl_div(input, target, reduction, *, log_target): the integer reduction of ATen (0 none, 1 mean,
    2 sum); no 'batchmean' and no warning at this level (those are F.kl_div's). The schema's default is Mean, but
    torch's Python argument parser reads that default as 0 (atol("at::Reduction::Mean")): called from Python
    without it, torch.kl_div does not reduce. Measured on real torch; the same for every `int reduction=Mean` op."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _DISPATCHERS["kl_div"](input, target, reduction=_reduction(reduction), log_target=log_target)


@register("constant_pad_nd", method=False)
def constant_pad_nd(input: Any, pad: Sequence[int], value: float = 0) -> Any:
    """Pad the last len(pad)/2 dims with `value` (negative pads crop), as F.pad(mode='constant')."""
    return _DISPATCHERS["pad"](input, list(pad), "constant", value)


def _inplace_dropout(fn: Any) -> Any:
    def impl(input: Any, p: float, train: bool) -> Any:
        return write_back(input, fn(inplace_source(input), p, train))
    impl.__doc__ = f"In-place {fn.__name__}(input, p, train) (torch's top-level in-place form)."
    return impl


def feature_dropout(input: Any, p: float, train: bool) -> Any:
    """ATen's feature dropout: zero whole (N, C) planes of input (N, C, *) with probability p and scale the rest
    by 1/(1-p); ATen takes the first two dims as N and C whatever the rank (F.dropout2d handles unbatched)."""
    _check_p(p)
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if not train or p == 0.0:
        return ops.identity(input)
    shp = _shape(input)
    if p == 1.0:
        return ops.mul(input, _scalar(0.0, input))
    keep = _keep_mask(tuple(shp[:2]) + (1,) * (len(shp) - 2), p, input.dtype)
    return ops.mul(input, ops.mul(keep, _sc(1.0 / (1.0 - p), input)))


register("feature_dropout", method=False)(feature_dropout)
register("dropout_", method=False)(_inplace_dropout(dropout))
register("alpha_dropout_", method=False)(_inplace_dropout(alpha_dropout))
register("feature_dropout_", method=False)(_inplace_dropout(feature_dropout))
register("feature_alpha_dropout_", method=False)(_inplace_dropout(feature_alpha_dropout))


@register("native_dropout", method=False)
def native_dropout(input: Any, p: float, train: Optional[bool]) -> Any:
    """(output, mask): mask is the bool keep mask (all True when not training), output = input * mask / (1-p)."""
    if train is not None and not train:  # None counts as training (ATen)
        return ops.identity(input), ops.ones(_shape(input), ms.bool_)
    _check_p(p)
    keep = _keep_mask(_shape(input), p, ms.bool_) if p < 1.0 else ops.zeros(_shape(input), ms.bool_)
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    return ops.mul(ops.mul(input, ops.cast(keep, input.dtype)), _sc(scale, input)), keep


@register("native_layer_norm", method=False)
def native_layer_norm(input: Any, normalized_shape: Sequence[int], weight: Any, bias: Any, eps: float) -> Any:
    """(out, mean, rstd): mean and 1/sqrt(var + eps) over the normalised dims, shaped input.shape[:-k] + (1,)*k."""
    out = layer_norm(input, normalized_shape, weight, bias, eps)
    k = len(normalized_shape)
    axes = tuple(range(input.ndim - k, input.ndim))
    xs = _no_grad(input)
    mean = ops.mean(xs, axes, keep_dims=True)
    var = ops.mean(ops.square(ops.sub(xs, mean)), axes, keep_dims=True)
    return out, mean, ops.rsqrt(ops.add(var, _sc(eps, var)))


@register("native_batch_norm", method=False)
def native_batch_norm(input: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, training: bool,
                      momentum: float, eps: float) -> Any:
    """(out, save_mean, save_invstd): the batch mean and 1/sqrt(biased var + eps) per channel when training
    (running buffers updated as batch_norm), empty (0,) tensors in evaluation (torch's CPU kernel)."""
    out = batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        empty = ops.zeros((0,), input.dtype)
        return out, empty, ops.zeros((0,), input.dtype)
    axes = (0,) + tuple(range(2, input.ndim))
    xs = _no_grad(input)
    mean = ops.mean(xs, axes, keep_dims=True)
    var = ops.mean(ops.square(ops.sub(xs, mean)), axes)
    return out, _reshape(mean, (-1,)), ops.rsqrt(ops.add(var, _sc(eps, var)))


@register("native_group_norm", method=False)
def native_group_norm(input: Any, weight: Any, bias: Any, N: int, C: int, HxW: int, group: int, eps: float) -> Any:
    """(out, mean (N, group), rstd (N, group)) of group_norm."""
    out = group_norm(input, group, weight, bias, eps)
    x = _reshape(_no_grad(input), (N, group, -1))
    mean = ops.mean(x, 2, keep_dims=True)
    var = ops.mean(ops.square(ops.sub(x, mean)), 2)
    return out, _reshape(mean, (N, group)), ops.rsqrt(ops.add(var, _sc(eps, var)))


@register("convolution", method=False)
def convolution(input: Any, weight: Any, bias: Any, stride: Sequence[int], padding: Sequence[int],
                dilation: Sequence[int], transposed: bool, output_padding: Sequence[int], groups: int) -> Any:
    """The generic ATen convolution: conv{1,2,3}d or conv_transpose{1,2,3}d by weight rank and `transposed`."""
    n = weight.ndim - 2
    if n not in (1, 2, 3):
        raise RuntimeError(f"convolution: expected a 3-D, 4-D or 5-D weight, got {weight.ndim}-D")
    if transposed:
        return _conv_transposend(input, weight, bias, stride, padding, output_padding, groups, dilation, n)
    return _DISPATCHERS[f"conv{n}d"](input, weight, bias, stride, padding, dilation, groups)


@register("conv_tbc", method=False, namespaces=_NS)
def conv_tbc(input: Any, weight: Any, bias: Any, pad: int = 0) -> Any:
    """Time-batch-channel convolution: input (T, B, C_in), weight (k, C_in, C_out), bias (C_out,) ->
    (T + 2*pad - k + 1, B, C_out)."""
    x = ops.transpose(input, (1, 2, 0))  # (B, C_in, T)
    w = ops.transpose(weight, (2, 1, 0))  # (C_out, C_in, k)
    return ops.transpose(_DISPATCHERS["conv1d"](x, w, bias, 1, pad), (2, 0, 1))


@register("grid_sampler", method=False)
def grid_sampler(input: Any, grid: Any, interpolation_mode: int, padding_mode: int, align_corners: bool) -> Any:
    """ATen's grid_sampler with integer enums (0/1/2 = bilinear/nearest/bicubic, zeros/border/reflection)."""
    mode = ("bilinear", "nearest", "bicubic")[int(interpolation_mode)]
    pad = ("zeros", "border", "reflection")[int(padding_mode)]
    return grid_sample(input, grid, mode, pad, align_corners)


def _rnn_cell(mode: str, input: Any, hx: Any, cx: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any) -> Any:
    from ..nn.modules.rnn import _cell_step, _linear

    return _cell_step(mode, _linear(input, w_ih, b_ih), hx, cx, w_hh, b_hh, None)


@register("lstm_cell", method=False)
def lstm_cell(input: Any, hx: Sequence[Any], w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None) -> Any:
    """One LSTM step: input (B, I), hx = [h (B, H), c (B, H)], w_ih (4H, I), w_hh (4H, H) -> (h', c')."""
    if len(hx) != 2:
        raise RuntimeError("lstm_cell: expected hx to contain 2 tensors (h, c)")
    return _rnn_cell("LSTM", input, hx[0], hx[1], w_ih, w_hh, b_ih, b_hh)


@register("gru_cell", method=False)
def gru_cell(input: Any, hx: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None) -> Any:
    """One GRU step: input (B, I), hx (B, H), w_ih (3H, I), w_hh (3H, H) -> h'."""
    return _rnn_cell("GRU", input, hx, None, w_ih, w_hh, b_ih, b_hh)[0]


@register("rnn_tanh_cell", method=False)
def rnn_tanh_cell(input: Any, hx: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None) -> Any:
    """tanh(input W_ih^T + b_ih + hx W_hh^T + b_hh)."""
    return _rnn_cell("RNN_TANH", input, hx, None, w_ih, w_hh, b_ih, b_hh)[0]


@register("rnn_relu_cell", method=False)
def rnn_relu_cell(input: Any, hx: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None) -> Any:
    """relu(input W_ih^T + b_ih + hx W_hh^T + b_hh)."""
    return _rnn_cell("RNN_RELU", input, hx, None, w_ih, w_hh, b_ih, b_hh)[0]


@register("aten_binary_cross_entropy_with_logits", function=False, method=False)
def aten_binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None, pos_weight: Any = None,
                                          reduction: int = 0) -> Any:
    """torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction): ATen's order."""
    return _DISPATCHERS["binary_cross_entropy_with_logits"](input, target, weight, reduction=_reduction(reduction),
                                                            pos_weight=pos_weight)


@register("aten_margin_ranking_loss", function=False, method=False)
def aten_margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: int = 0) -> Any:
    return _DISPATCHERS["margin_ranking_loss"](input1, input2, target, margin, reduction=_reduction(reduction))


@register("aten_hinge_embedding_loss", function=False, method=False)
def aten_hinge_embedding_loss(input: Any, target: Any, margin: float = 1.0, reduction: int = 0) -> Any:
    return _DISPATCHERS["hinge_embedding_loss"](input, target, margin, reduction=_reduction(reduction))


@register("aten_cosine_embedding_loss", function=False, method=False)
def aten_cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                               reduction: int = 0) -> Any:
    return _DISPATCHERS["cosine_embedding_loss"](input1, input2, target, margin, reduction=_reduction(reduction))


@register("aten_triplet_margin_loss", function=False, method=False)
def aten_triplet_margin_loss(anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: float = 2.0,
                             eps: float = 1e-6, swap: bool = False, reduction: int = 0) -> Any:
    return _DISPATCHERS["triplet_margin_loss"](anchor, positive, negative, margin, p, eps, swap,
                                               reduction=_reduction(reduction))


@register("aten_poisson_nll_loss", function=False, method=False)
def aten_poisson_nll_loss(input: Any, target: Any, log_input: bool, full: bool, eps: float, reduction: int) -> Any:
    """torch.poisson_nll_loss(input, target, log_input, full, eps, reduction): every argument required (ATen)."""
    return _DISPATCHERS["poisson_nll_loss"](input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


@register("aten_ctc_loss", function=False, method=False)
def aten_ctc_loss(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int = 0,
                  reduction: int = 0, zero_infinity: bool = False) -> Any:
    return _DISPATCHERS["ctc_loss"](log_probs, targets, input_lengths, target_lengths, blank, _reduction(reduction),
                                    zero_infinity)


# torch.<name> for the entries whose F.<name> has another signature
expose("torch", {n: "aten_" + n for n in (
    "batch_norm", "instance_norm", "embedding", "embedding_bag", "kl_div", "binary_cross_entropy_with_logits",
    "margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "triplet_margin_loss",
    "poisson_nll_loss", "ctc_loss")})


@register("affine_grid_generator", method=False)
def affine_grid_generator(theta: Any, size: Sequence[int], align_corners: bool) -> Any:
    """ATen's affine_grid: F.affine_grid with align_corners required."""
    return affine_grid(theta, size, align_corners)


@register("norm_except_dim", method=False)
def norm_except_dim(v: Any, pow: float = 2, dim: int = 0) -> Any:  # noqa: A002 - torch's name
    """The p-norm of v over every dim but `dim`, shaped (1, .., v.size(dim), .., 1) (weight_norm's g); dim -1:
    the norm of all of v, a 0-d tensor."""
    if dim == -1:
        return _pnorm(_reshape(v, (-1,)), pow, 0)
    dim = dim % v.ndim
    axes = tuple(a for a in range(v.ndim) if a != dim)
    return _pnorm(v, pow, axes, keepdim=True) if axes else ops.abs(v)


@register("embedding_renorm_", method=False)
def embedding_renorm_(input: Any, indices: Any, max_norm: float, norm_type: float) -> Any:
    """Rescale in place the rows of `input` (the weight) at `indices` whose norm_type-norm exceeds max_norm to norm
    max_norm (torch's formula, scale max_norm / (norm + 1e-7)); returns input."""
    _embedding_renorm(input, indices, max_norm, norm_type)
    return input


@register("segment_reduce", method=False)
def segment_reduce(data: Any, reduce: str, *, lengths: Any = None, indices: Any = None, axis: int = 0,
                   unsafe: bool = False, initial: Any = None) -> Any:
    """torch 1.12 (beta): reduce ('sum', 'mean', 'max', 'min') consecutive segments of `data` along `axis` with the
    given `lengths`; an empty segment gives `initial` (default: 0 for sum, nan for mean, -inf/inf for max/min).
    Host computation, no autograd."""
    if reduce not in ("sum", "mean", "max", "min"):
        raise RuntimeError(f"segment_reduce: reduction {reduce} is not supported")
    if lengths is None:
        raise RuntimeError("segment_reduce: lengths is required (indices are not supported, as in torch 1.12)")
    x = _MsTensor.asnumpy(data).astype(np.float64)
    ln = _MsTensor.asnumpy(lengths).astype(np.int64)
    axis = axis % x.ndim
    if axis != ln.ndim - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of lengths but got {axis}.")
    if ln.ndim != 1:
        raise NotImplementedError("segment_reduce: batched (multi-dimensional) lengths are not supported by "
                                  "mindtorch; reduce each batch element separately")
    if not unsafe and (np.any(ln < 0) or ln.sum() != x.shape[axis]):
        raise RuntimeError("segment_reduce(): Expected all lengths to be non-negative and to sum to data.size(axis)")
    xs = np.moveaxis(x, axis, 0)
    empty = {"sum": 0.0, "mean": np.nan, "max": -np.inf, "min": np.inf}[reduce] if initial is None else initial
    outs, start = [], 0
    fn = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}[reduce]
    # initial takes part in the reduction (mean: (initial + sum) / length)
    with_initial = {"sum": lambda a, n: a + initial, "mean": lambda a, n: a + initial / n,
                    "max": lambda a, n: np.maximum(a, initial), "min": lambda a, n: np.minimum(a, initial)}[reduce]
    for n in ln:
        seg = xs[start:start + n]
        if n == 0:
            outs.append(np.full(xs.shape[1:], float(empty)))
        else:
            r = fn(seg, axis=0)
            outs.append(r if initial is None else with_initial(r, n))
        start += n
    res = np.moveaxis(np.stack(outs), 0, axis) if outs else np.zeros((0,) + xs.shape[1:])
    from .creation import np_to_ms

    return np_to_ms(res, data.dtype)


@register("grid_sampler_2d", method=False)
def grid_sampler_2d(input: Any, grid: Any, interpolation_mode: int, padding_mode: int, align_corners: bool) -> Any:
    """grid_sampler on a 4-D input (N, C, H, W)."""
    if input.ndim != 4:
        raise RuntimeError(f"grid_sampler_2d(): expected 4D input, but got input with sizes {list(_shape(input))}")
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


# Whole-sequence RNNs of ATen (what nn.LSTM/GRU/RNN call through torch._VF): the input overload
#   lstm(input, hx=[h0, c0], params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
#   gru / rnn_tanh / rnn_relu(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
# params: per layer and direction w_ih, w_hh[, b_ih, b_hh][, w_hr (LSTM projections)], as nn.RNNBase._flat_weights.
def _rnn_sequence(mode: str, input: Any, h0: Any, c0: Any, params: Sequence[Any], has_biases: bool,
                  num_layers: int, dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    from ..nn.modules.rnn import _recurrence

    if not isinstance(params, (list, tuple)):
        raise NotImplementedError(f"torch.{mode.lower()}: the packed-sequence overload (data, batch_sizes, ...) is "
                                  "not supported by mindtorch; pad the batch or use nn.{LSTM,GRU,RNN} with a "
                                  "PackedSequence")
    D = 2 if bidirectional else 1
    per = len(params) // (num_layers * D)
    if input.ndim != 3:  # ATen's; nn.LSTM/GRU/RNN add the unbatched form
        raise IndexError(f"Dimension out of range: torch.{mode.lower()} expects a 3-D input (got {input.ndim}-D)")
    x = ops.transpose(input, (1, 0, 2)) if batch_first else input
    hs, cs = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(D):
            w = list(params[(layer * D + d) * per:(layer * D + d + 1) * per])
            w_ih, w_hh = w[0], w[1]
            b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
            w_hr = w[-1] if per in (3, 5) else None
            h, c = h0[layer * D + d], (c0[layer * D + d] if c0 is not None else None)
            out, h, c = _recurrence(mode, x, h, c, w_ih, w_hh, b_ih, b_hh, w_hr, d == 1, None)
            outs.append(out)
            hs.append(h)
            if c is not None:
                cs.append(c)
        x = outs[0] if D == 1 else ops.cat(outs, 2)
        if dropout > 0 and train and layer < num_layers - 1:
            x = _DISPATCHERS["dropout"](x, dropout, True)
    h_n = ops.stack(hs, 0)
    c_n = ops.stack(cs, 0) if cs else None
    if batch_first:
        x = ops.transpose(x, (1, 0, 2))
    return (x, h_n, c_n) if c_n is not None else (x, h_n)


@register("lstm", method=False)
def lstm(input: Any, hx: Sequence[Any], params: Sequence[Any], has_biases: bool, num_layers: int, dropout: float,
         train: bool, bidirectional: bool, batch_first: bool) -> Any:
    """(output, h_n, c_n) of a multi-layer LSTM over input (T, B, I) ((B, T, I) batch_first), hx = [h0, c0]."""
    if isinstance(hx, _MsTensor):
        return _rnn_sequence("LSTM", input, None, None, hx, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)  # packed overload: raises
    return _rnn_sequence("LSTM", input, hx[0], hx[1], params, has_biases, num_layers, dropout, train, bidirectional,
                         batch_first)


def _make_rnn_fn(mode: str) -> Any:
    def fn(input: Any, hx: Any, params: Sequence[Any], has_biases: bool, num_layers: int, dropout: float,
           train: bool, bidirectional: bool, batch_first: bool) -> Any:
        return _rnn_sequence(mode, input, hx, None, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)
    fn.__doc__ = f"(output, h_n) of a multi-layer {mode} over input (T, B, I) ((B, T, I) batch_first), hx h0."
    return fn


register("gru", method=False)(_make_rnn_fn("GRU"))
register("rnn_tanh", method=False)(_make_rnn_fn("RNN_TANH"))
register("rnn_relu", method=False)(_make_rnn_fn("RNN_RELU"))
