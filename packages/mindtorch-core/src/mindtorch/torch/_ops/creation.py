"""Creation ops: tensor, as_tensor, zeros, ones, full, empty, arange, linspace, eye, windows, ... and the
`Tensor.new_*` methods.

Values are built on the host with numpy (MindSpore 2.10 has no CPU kernel for mint.full/arange/linspace/
zeros_like, DESIGN.md §2) and handed over as one tensor. Float results without an explicit dtype take the
default dtype (`torch.set_default_dtype`), as torch does for exactly: arange (float args), bartlett/hamming/
hann/blackman/kaiser windows, empty, empty_strided, eye, full (float fill), linspace, logspace, ones, rand,
randn, range, zeros, and `tensor` of Python floats.
"""
from __future__ import annotations

import builtins
import math
import warnings
from typing import Any, Optional

import mindspore as ms
import numpy as np

from .. import _dtype as D
from ._args import shape_args
from ._registry import register

_MsTensor = ms.Tensor


# ------------------------------------------------------------------------------------------------ helpers
def np_to_ms(arr: Any, dtype: Any) -> Any:
    """A MindSpore tensor of `dtype` holding numpy data `arr` (copied)."""
    arr = np.asarray(arr)
    if dtype == D.bfloat16:
        return _MsTensor(np.array(arr, dtype=np.float32, order="C"), dtype=D.bfloat16)
    npd = D.to_numpy_dtype(dtype)
    if np.issubdtype(npd, np.integer) and arr.dtype.kind in "fc":
        arr = np.trunc(arr.real if arr.dtype.kind == "c" else arr)  # torch truncates towards zero
    # np.array(order="C"), not np.ascontiguousarray: the latter turns 0-d arrays into 1-d ones
    return _MsTensor(np.array(arr, dtype=npd, order="C"))


def _device_kw(device: Any) -> Any:
    from .._device import as_device

    return as_device(device)


def _finish(t: Any, requires_grad: bool = False, device: Any = None) -> Any:
    """Re-class, record the `device=` argument (DESIGN.md §2: recorded, data does not move), requires_grad."""
    from . import _registry

    if type(t) is _MsTensor:
        t.__class__ = _registry.Tensor
    if device is not None:
        dev = _device_kw(device)
        if dev.type != "cpu":
            t._device = dev
    if requires_grad:
        if t.dtype not in D.all_float_type and t.dtype not in D.all_complex_type:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_()
    return t


def _sized(name: str, size: tuple) -> tuple:
    if not size:
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    return shape_args(size)


def _fill(size: tuple, value: Any, dtype: Any) -> Any:
    if dtype == D.bfloat16:
        return _MsTensor(np.full(size, value, dtype=np.float32), dtype=D.bfloat16)
    if isinstance(value, builtins.float) and dtype in D.all_int_type:
        value = int(value)  # torch truncates a float fill for integer dtypes
    return _MsTensor(np.full(size, value, dtype=D.to_numpy_dtype(dtype)))


def _scalar_fill_dtype(value: Any) -> Any:
    """torch.full's dtype inference (same in 1.12 and 2.13): bool -> bool, int -> int64, float -> default,
    complex -> default complex."""
    if isinstance(value, _MsTensor):
        return value.dtype if value.dtype != D.float32 else D.get_default_dtype()
    return D.scalar_dtype(value)


# ----------------------------------------------------------------------------------------- from data
@register("tensor", method=False)
def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Any:
    """torch.tensor(data): always copies. dtype inference: Python floats -> default dtype, ints -> int64,
    bools -> bool, complex -> complex64; numpy arrays and tensors keep theirs."""
    if isinstance(data, _MsTensor):  # torch's warning (the style-transfer tutorial's `torch.tensor(mean)`)
        _warn_copy_construct("torch.tensor")
    return _tensor_copy(data, dtype, device, requires_grad)


def _warn_copy_construct(api: str) -> None:
    """torch 1.12's UserWarning for torch.tensor(t) / x.new_tensor(t) on a tensor (stack: impl, dispatcher, user)."""
    warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() or "
                  f"sourceTensor.clone().detach().requires_grad_(True), rather than {api}(sourceTensor).",
                  UserWarning, stacklevel=4)


def _tensor_copy(data: Any, dtype: Any, device: Any, requires_grad: bool) -> Any:
    from .._tensor import tensor_data

    if isinstance(data, _MsTensor):
        # a copy without autograd history (torch.tensor(t) is a leaf)
        src = data.astype(D.float32) if data.dtype == D.bfloat16 else data
        return _finish(np_to_ms(src.asnumpy(), D.to_dtype(dtype) or data.dtype), requires_grad, device)
    arr, d = tensor_data(data, D.to_dtype(dtype))
    return _finish(np_to_ms(arr, d), requires_grad, device)


@register("as_tensor", method=False)
def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Any:
    """Like `tensor`, but shares memory with tensors and numpy arrays when no dtype conversion is needed."""
    d = D.to_dtype(dtype)
    if isinstance(data, _MsTensor):
        res = data if d is None or d == data.dtype else data.astype(d)
        return _finish(res, False, device)
    if isinstance(data, np.ndarray) and (d is None or d == D.from_numpy_dtype(data.dtype)):
        return _finish(from_numpy(data), False, device)
    return tensor(data, dtype=d, device=device)


@register("asarray", method=False)
def asarray(obj: Any, *, dtype: Any = None, device: Any = None, copy: Optional[bool] = None,
            requires_grad: bool = False) -> Any:
    """torch.asarray: shares memory unless `copy=True` or a conversion is needed."""
    if copy:
        return _tensor_copy(obj, dtype, device, requires_grad)
    return _finish(as_tensor(obj, dtype=dtype, device=device), requires_grad)


@register("from_numpy", method=False)
def from_numpy(ndarray: np.ndarray) -> Any:
    """torch.from_numpy: zero-copy, shares memory with the array."""
    from .._tensor import check_numpy_layout, torch_type_name

    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {torch_type_name(ndarray)})")
    check_numpy_layout(ndarray)
    D.from_numpy_dtype(ndarray.dtype)  # torch's error for unsupported dtypes
    if not ndarray.flags["C_CONTIGUOUS"]:
        ndarray = np.ascontiguousarray(ndarray)
    return ms.from_numpy(ndarray) if ndarray.ndim else ms.Tensor(ndarray)


# ----------------------------------------------------------------------------------------- filled shapes
@register("zeros", method=False)
def zeros(*size: Any, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None,
          requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """torch.zeros(*size): zeros of the default dtype, `size` as ints, a tuple/list or a torch.Size."""
    return _finish(_fill(_sized("zeros", size), 0, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad,
                   device)


@register("ones", method=False)
def ones(*size: Any, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None,
         requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """torch.ones(*size): ones of the default dtype."""
    return _finish(_fill(_sized("ones", size), 1, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad,
                   device)


@register("empty", method=False)
def empty(*size: Any, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None,
          requires_grad: bool = False, pin_memory: bool = False, memory_format: Any = None) -> Any:
    """torch.empty: uninitialised in torch; zero-filled here (deterministic, same cost on the host)."""
    return _finish(_fill(_sized("empty", size), 0, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad,
                   device)


@register("empty_strided", method=False)
def empty_strided(size: Any, stride: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
                  requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """torch.empty_strided: a zero-filled contiguous tensor of `size` (the requested strides are not honoured:
    MindSpore allocates contiguous storage; values and shape are what code reads)."""
    if len(tuple(size)) != len(tuple(stride)):
        raise RuntimeError("mismatch in length of strides and shape")
    return _finish(_fill(tuple(int(s) for s in size), 0, D.to_dtype(dtype) or D.get_default_dtype()),
                   requires_grad, device)


@register("full", method=False)
def full(size: Any, fill_value: Any, *, out: Any = None, dtype: Any = None, layout: Any = None,
         device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """torch.full(size, value): dtype inferred from the value (bool -> bool, int -> int64, float -> default)."""
    if isinstance(fill_value, _MsTensor):
        fill_value = fill_value.item()
    d = D.to_dtype(dtype) or D.scalar_dtype(fill_value)
    return _finish(_fill(shape_args((size,)), fill_value, d), requires_grad, device)


def _like_dtype(input: Any, dtype: Any) -> Any:
    return D.to_dtype(dtype) or input.dtype


@register("zeros_like", method=False)
def zeros_like(input: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Any:
    return _finish(_fill(tuple(input.shape), 0, _like_dtype(input, dtype)), requires_grad, device)


@register("ones_like", method=False)
def ones_like(input: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Any:
    return _finish(_fill(tuple(input.shape), 1, _like_dtype(input, dtype)), requires_grad, device)


@register("empty_like", method=False)
def empty_like(input: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Any:
    return _finish(_fill(tuple(input.shape), 0, _like_dtype(input, dtype)), requires_grad, device)


@register("full_like", method=False)
def full_like(input: Any, fill_value: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Any:
    return _finish(_fill(tuple(input.shape), fill_value, _like_dtype(input, dtype)), requires_grad, device)


# Tensor.new_*: same device/dtype as self unless given.
@register("new_zeros", function=False)
def new_zeros(self: Any, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
              layout: Any = None, pin_memory: bool = False) -> Any:
    return _finish(_fill(shape_args(size), 0, _like_dtype(self, dtype)), requires_grad, device)


@register("new_ones", function=False)
def new_ones(self: Any, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
             layout: Any = None, pin_memory: bool = False) -> Any:
    return _finish(_fill(shape_args(size), 1, _like_dtype(self, dtype)), requires_grad, device)


@register("new_empty", function=False)
def new_empty(self: Any, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
              layout: Any = None, pin_memory: bool = False) -> Any:
    return _finish(_fill(shape_args(size), 0, _like_dtype(self, dtype)), requires_grad, device)


@register("new_full", function=False)
def new_full(self: Any, size: Any, fill_value: Any, *, dtype: Any = None, device: Any = None,
             requires_grad: bool = False, layout: Any = None, pin_memory: bool = False) -> Any:
    return _finish(_fill(shape_args((size,)), fill_value, _like_dtype(self, dtype)), requires_grad, device)


@register("new_tensor", function=False)
def new_tensor(self: Any, data: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False,
               layout: Any = None, pin_memory: bool = False) -> Any:
    """A copy of `data` with self's dtype (not inferred from data, as in torch)."""
    if isinstance(data, _MsTensor):
        _warn_copy_construct("tensor.new_tensor")
    return _tensor_copy(data, _like_dtype(self, dtype), device, requires_grad)


@register("new", function=False)
def new(self: Any, *args: Any, dtype: Any = None, device: Any = None) -> Any:
    """The legacy constructor `x.new(...)`, still common in older scripts, with self's dtype:
    `x.new(2, 3)` / `x.new(torch.Size)` an uninitialised (here zero) tensor of that size, `x.new([1, 2])` or
    `x.new((1, 2))` a copy of the data (a tuple is data, as in torch), `x.new(t)` an alias of t's storage (same
    dtype required),
    `x.new()` an empty tensor."""
    d = _like_dtype(self, dtype)
    if not args:
        return _fill((0,), 0, d)
    if len(args) == 1 and not isinstance(args[0], int):
        data = args[0]
        if isinstance(data, _MsTensor):
            if data.dtype != d:
                raise TypeError(f"expected {D.torch_name(d)} (got {D.torch_name(data.dtype)})")
            return data.detach()
        from .._tensor import Size

        if isinstance(data, Size):
            return _fill(tuple(data), 0, d)
        return tensor(data, dtype=d, device=device)
    return _fill(shape_args(args), 0, d)


# ------------------------------------------------------------------------------------------------ ranges
def _num(x: Any) -> Any:
    return x.item() if isinstance(x, _MsTensor) else x


@register("arange", method=False)
def arange(start: Any = 0, end: Any = None, step: Any = 1, *, out: Any = None, dtype: Any = None,
           layout: Any = None, device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """torch.arange: int arguments -> int64, any float argument -> default dtype; length
    ceil((end - start) / step), computed in double as torch does."""
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0 and end != start:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    is_int = all(isinstance(v, (builtins.int, np.integer)) for v in (start, end, step))
    d = D.to_dtype(dtype) or (D.int64 if is_int else D.get_default_dtype())
    if d in D.all_int_type and not is_int:
        # torch converts the bounds to the integer accumulate type first (C++ truncation), computes the values from
        # them and, for int64 only, also the length: arange(0, 2.5, dtype=int64) is [0, 1], but int32's length
        # comes from the original doubles (arange(-2.5, 3, dtype=int32) has 6 values, from -2)
        xs, xe, xst = (builtins.int(v) for v in (start, end, step))
        if xst == 0:
            raise RuntimeError("step must be nonzero")
        n = math.ceil((xe - xs) / xst) if d is D.int64 else math.ceil((end - start) / step)
        return _finish(np_to_ms(xs + xst * np.arange(builtins.max(n, 0), dtype=np.int64), d), requires_grad, device)
    n = builtins.max(math.ceil((end - start) / step), 0) if not is_int else builtins.max(-((start - end) // step), 0)
    if is_int and d in D.all_int_type:
        arr = start + step * np.arange(n, dtype=np.int64)
    else:
        arr = float(start) + float(step) * np.arange(n, dtype=np.float64)
    return _finish(np_to_ms(arr, d), requires_grad, device)


@register("range", method=False)
def range(start: Any = 0, end: Any = None, step: Any = 1, *, out: Any = None, dtype: Any = None,
          layout: Any = None, device: Any = None, requires_grad: bool = False) -> Any:
    """torch.range (deprecated in torch): end inclusive, default dtype."""
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    n = builtins.max(math.floor((end - start) / step) + 1, 0)
    arr = float(start) + float(step) * np.arange(n, dtype=np.float64)
    return _finish(np_to_ms(arr, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad, device)


def _linspace_np(start: float, end: float, steps: int) -> np.ndarray:
    """torch's symmetric linspace (first half counted from start, second half from end)."""
    if steps == 1:
        return np.array([start], dtype=np.float64)
    step = (end - start) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    half = steps // 2
    return np.where(i < half, start + step * i, end - step * (steps - 1 - i))


@register("linspace", method=False)
def linspace(start: Any, end: Any, steps: int, *, out: Any = None, dtype: Any = None, layout: Any = None,
             device: Any = None, requires_grad: bool = False) -> Any:
    """`steps` points from start to end inclusive, default dtype."""
    steps = int(_num(steps))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    arr = _linspace_np(float(_num(start)), float(_num(end)), steps)
    return _finish(np_to_ms(arr, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad, device)


@register("logspace", method=False)
def logspace(start: Any, end: Any, steps: int, base: float = 10.0, *, out: Any = None, dtype: Any = None,
             layout: Any = None, device: Any = None, requires_grad: bool = False) -> Any:
    """base ** linspace(start, end, steps), default dtype."""
    arr = np.power(float(base), _linspace_np(float(_num(start)), float(_num(end)), int(steps)))
    return _finish(np_to_ms(arr, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad, device)


@register("eye", method=False)
def eye(n: int, m: Optional[int] = None, *, out: Any = None, dtype: Any = None, layout: Any = None,
        device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """n x m identity, default dtype."""
    if n < 0 or (m is not None and m < 0):
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    arr = np.eye(int(n), int(n if m is None else m))
    return _finish(np_to_ms(arr, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad, device)


def _tri_indices(fn: Any, row: int, col: int, offset: int, dtype: Any, device: Any) -> Any:
    r, c = fn(int(row), int(offset), int(col))
    return _finish(np_to_ms(np.stack([r, c]).astype(np.int64).reshape(2, -1), D.to_dtype(dtype) or D.int64),
                   False, device)


@register("tril_indices", method=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Any:
    """2 x N indices of the lower triangle (row-major order), int64."""
    return _tri_indices(np.tril_indices, row, col, offset, dtype, device)


@register("triu_indices", method=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Any:
    """2 x N indices of the upper triangle (row-major order), int64."""
    return _tri_indices(np.triu_indices, row, col, offset, dtype, device)


# ------------------------------------------------------------------------------------------------ complex
@register("complex", method=False)
def complex(real: Any, imag: Any, *, out: Any = None) -> Any:
    """real + 1j * imag (float32 -> complex64, float64 -> complex128). Host computation: no autograd."""
    if real.dtype != imag.dtype or real.dtype not in (D.float32, D.float64, D.float16):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{D.scalar_name(real.dtype)} and {D.scalar_name(imag.dtype)}")
    _complex_inputs("complex", real, imag)
    arr = real.asnumpy() + 1j * imag.asnumpy()
    return np_to_ms(arr, D.complex128 if real.dtype == D.float64 else D.complex64)


@register("polar", method=False)
def polar(abs: Any, angle: Any, *, out: Any = None) -> Any:  # noqa: A002 - torch's argument name
    """abs * (cos(angle) + 1j sin(angle)). Host computation: no autograd."""
    _complex_inputs("polar", abs, angle)
    a, t = abs.asnumpy(), angle.asnumpy()
    return np_to_ms(a * np.cos(t) + 1j * a * np.sin(t), D.complex128 if abs.dtype == D.float64 else D.complex64)


def _complex_inputs(op: str, a: Any, b: Any) -> None:
    """torch's broadcast error, and a clear one where torch would differentiate: MindSpore 2.10 has no gradient for
    most ops on complex tensors ("gradient not support for complex type"), and a host-built result that silently
    dropped the inputs' gradients would be wrong."""
    from .. import _ms
    from ._registry import broadcast_error

    err = broadcast_error(a, b)
    if err is not None:
        raise err
    if _ms.records_grad(a, b):
        raise NotImplementedError(
            f"torch.{op}: autograd through complex tensors is not supported by mindtorch on MindSpore 2.10 (it has "
            "no gradient for most complex ops). Build the complex value from detached inputs (torch.no_grad() or "
            ".detach()), or keep real and imaginary parts as separate real tensors.")


# ------------------------------------------------------------------------------------------------ windows
def _window(name: str, n: int, periodic: bool, dtype: Any, requires_grad: bool, device: Any, **kw: Any) -> Any:
    d = D.to_dtype(dtype) or D.get_default_dtype()
    if d not in D.all_float_type:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {D.torch_name(d)}")
    if n < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={n}")
    if n == 0:
        arr = np.zeros((0,))
    elif n == 1:
        arr = np.ones((1,))
    else:
        m = n + 1 if periodic else n
        if name == "hann_window":
            arr = np.hanning(m)
        elif name == "hamming_window":
            alpha, beta = kw["alpha"], kw["beta"]
            arr = alpha - beta * np.cos(2 * np.pi * np.arange(m) / (m - 1))
        elif name == "bartlett_window":
            arr = np.bartlett(m)
        elif name == "blackman_window":
            arr = np.blackman(m)
        else:
            arr = np.kaiser(m, kw["beta"])
        arr = arr[:n]
    return _finish(np_to_ms(arr, d), requires_grad, device)


@register("hann_window", method=False)
def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None, layout: Any = None,
                device: Any = None, requires_grad: bool = False) -> Any:
    return _window("hann_window", window_length, periodic, dtype, requires_grad, device)


@register("hamming_window", method=False)
def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: Any = None, layout: Any = None, device: Any = None, requires_grad: bool = False) -> Any:
    return _window("hamming_window", window_length, periodic, dtype, requires_grad, device, alpha=alpha, beta=beta)


@register("bartlett_window", method=False)
def bartlett_window(window_length: int, periodic: bool = True, *, dtype: Any = None, layout: Any = None,
                    device: Any = None, requires_grad: bool = False) -> Any:
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, device)


@register("blackman_window", method=False)
def blackman_window(window_length: int, periodic: bool = True, *, dtype: Any = None, layout: Any = None,
                    device: Any = None, requires_grad: bool = False) -> Any:
    return _window("blackman_window", window_length, periodic, dtype, requires_grad, device)


@register("kaiser_window", method=False)
def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype: Any = None,
                  layout: Any = None, device: Any = None, requires_grad: bool = False) -> Any:
    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, device, beta=beta)


@register("scalar_tensor", method=False)
def scalar_tensor(s: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
                  requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """A 0-d tensor of the default dtype (torch.scalar_tensor ignores the Python type of `s`)."""
    return _finish(_fill((), s, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad, device)


@register("frombuffer", method=False)
def frombuffer(buffer: Any, *, dtype: Any, count: int = -1, offset: int = 0, requires_grad: bool = False) -> Any:
    """A 1-D tensor over a Python buffer (bytes, bytearray, array.array...); the data is copied here (torch shares
    writable buffers)."""
    arr = np.frombuffer(buffer, dtype=D.to_numpy_dtype(D.to_dtype(dtype)), count=count, offset=offset)
    return _finish(np_to_ms(arr, D.to_dtype(dtype)), requires_grad)


@register("new_empty_strided", function=False)
def new_empty_strided(self: Any, size: Any, stride: Any, *, dtype: Any = None, device: Any = None,
                      requires_grad: bool = False, layout: Any = None, pin_memory: bool = False) -> Any:
    """empty_strided with self's dtype by default (the strides are not honoured, see empty_strided)."""
    return empty_strided(size, stride, dtype=_like_dtype(self, dtype), device=device, requires_grad=requires_grad)
