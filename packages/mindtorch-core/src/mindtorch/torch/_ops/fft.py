"""torch.fft (table keys `fft_<name>`, torch's native names; exposed as `torch.fft.<name>` by torch/fft.py).

Computed on the host with numpy's pocketfft: float32/complex64 in -> complex64 out (float64 -> complex128),
torch's `norm=` names ('backward', 'ortho', 'forward') are numpy's.

Differentiable: every transform is one autograd node (`_host._HostFn`) whose backward is the transform's adjoint,
also computed on the host with numpy and recorded the same way (with the transform as its backward), so
higher-order gradients (create_graph=True) work too. The adjoints are torch's formulas (FunctionsManual.cpp): a
c2c transform's adjoint is the opposite-direction c2c with the same scale; rfft's (r2c) is the zero-padded full
spectrum's inverse c2c, real part (fft_r2c_backward); irfft's (c2r) is an rfft whose bins 1 .. n - (n // 2 + 1)
count twice, as they stand for their Hermitian twins too (fft_c2r_backward); hfft/ihfft are irfft/rfft of
conjugates. `n=`/`s=` padding or truncation adjoins to truncation or zero-padding back to the input's shape; a
real input to a complex transform gets the real part. fftshift/ifftshift are rolls (MindSpore ops,
differentiable to any order).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import mindspore as ms
import numpy as np

from .. import _dtype as D
from ._args import wrap_dim
from ._host import _host_op
from ._registry import register
from .creation import np_to_ms

_MsTensor = ms.Tensor


def _np(t: Any) -> np.ndarray:
    if t.dtype in D.all_int_type or t.dtype == D.bool:
        return t.asnumpy().astype(np.float32 if D.get_default_dtype() != D.float64 else np.float64)
    return (t.astype(D.float32) if t.dtype in (D.bfloat16, D.float16) else t).asnumpy()


def _ns(fn: Any) -> Any:
    return register(fn.__name__, method=False, function=False, namespaces=("fft",))(fn)


def _norm(norm: Optional[str]) -> str:
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f"Invalid normalization mode: {norm}")
    return norm or "backward"


def _real_only(input: Any, message: str) -> None:
    """rfft*/ihfft* take real input only (torch raises rather than dropping the imaginary part)."""
    if input.dtype in D.all_complex_type:
        raise RuntimeError(message + D.scalar_name(input.dtype))


# An adjoint swaps the direction and keeps the scale: the adjoint of an unscaled forward fft ('backward') is the
# unscaled inverse, which is numpy's ifft with norm='forward'; 'ortho' is unitary. The Hermitian transforms go
# through numpy's real ones with the same swap (numpy has no hfftn): hfftn(x) = irfftn(conj(x)) and
# ihfftn(x) = conj(rfftn(x)), each with the normalisation direction swapped.
_SWAPPED_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
_C2R = ("irfft", "hfft")  # kinds with a real output whose last transformed dim is the real signal length
_R2C = ("rfft", "ihfft")  # kinds with a real input whose last transformed dim is the real signal length

# kind -> forward(a, s, axes, norm) on numpy arrays (s: sizes along axes, or None for the input's)
_FORWARD: dict = {
    "fft": lambda a, s, axes, m: np.fft.fftn(a, s, axes, m),
    "ifft": lambda a, s, axes, m: np.fft.ifftn(a, s, axes, m),
    "rfft": lambda a, s, axes, m: np.fft.rfftn(a, s, axes, m),
    "irfft": lambda a, s, axes, m: np.fft.irfftn(a, s, axes, m),
    "hfft": lambda a, s, axes, m: np.fft.irfftn(np.conj(a), s, axes, _SWAPPED_NORM[m]),
    "ihfft": lambda a, s, axes, m: np.conj(np.fft.rfftn(a, s, axes, _SWAPPED_NORM[m])),
}


def _resize(a: np.ndarray, axes: Sequence[int], sizes: Sequence[int]) -> np.ndarray:
    """Truncate or zero-pad `a` along `axes` to `sizes`: the `n=`/`s=` resizing of the input and, back to the
    input's sizes, its adjoint (zero-padding adjoins to truncation and truncation to zero-padding)."""
    for ax, n in zip(axes, sizes):
        have = a.shape[ax]
        if have > n:
            a = np.take(a, np.arange(n), axis=ax)
        elif have < n:
            pad = [(0, 0)] * a.ndim
            pad[ax] = (0, n - have)
            a = np.pad(a, pad)
    return a


def _fold(g: np.ndarray, axis: int, n: int) -> np.ndarray:
    """fft_c2r_backward's accumulation: of the n // 2 + 1 bins of a length-n real signal's half spectrum, bins
    1 .. n - (n // 2 + 1) also stand for their mirrored twins, so their gradient counts twice."""
    twice = n - g.shape[axis]
    if twice > 0:
        g = g.copy()
        idx = [slice(None)] * g.ndim
        idx[axis] = slice(1, 1 + twice)
        g[tuple(idx)] *= 2
    return g


def _adjoint(kind: str, g: np.ndarray, axes: tuple, m: str, n_real: int) -> np.ndarray:
    """The adjoint of transform `kind` (norm `m`) applied to the output gradient `g`, at the resized input's
    shape; n_real is the real signal's length along the last axis (c2r/r2c kinds)."""
    swapped = _SWAPPED_NORM[m]
    if kind == "fft":
        return np.fft.ifftn(g, axes=axes, norm=swapped)
    if kind == "ifft":
        return np.fft.fftn(g, axes=axes, norm=swapped)
    if kind == "rfft":  # fft_r2c_backward: the half spectrum zero-padded to the full one, inverse c2c, real part
        return np.fft.ifftn(_resize(g, axes[-1:], (n_real,)), axes=axes, norm=swapped).real
    if kind == "ihfft":  # conj(rfftn(x, swapped)): rfft's adjoint of conj(g), with the norm swapped back
        return np.fft.ifftn(_resize(np.conj(g), axes[-1:], (n_real,)), axes=axes, norm=m).real
    if kind == "irfft":  # fft_c2r_backward: rfft of the real gradient, mirrored bins doubled
        return _fold(np.fft.rfftn(g, axes=axes, norm=swapped), axes[-1], n_real)
    # hfft = irfftn(conj(x), swapped): the conjugate of irfft's adjoint, with the norm swapped back
    return np.conj(_fold(np.fft.rfftn(g, axes=axes, norm=m), axes[-1], n_real))


def _axes_and_sizes(kind: str, shape: tuple, s: Any, dim: Any) -> tuple:
    """torch's (s, dim) resolution: dims default to the last len(s) dims (all dims without s); s[i] == -1
    keeps the input's size (for the c2r last dim: the default 2 * (m - 1)). Returns (axes, sizes or None)."""
    ndim = len(shape)
    if s is not None:
        s = [int(n) for n in ((s,) if isinstance(s, int) else s)]
    if dim is None:
        if s is not None and len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
        axes = tuple(range(ndim)) if s is None else tuple(range(ndim - len(s), ndim))
    else:
        axes = tuple(wrap_dim(int(d), ndim) for d in ((dim,) if isinstance(dim, int) else dim))
        if len(set(axes)) != len(axes):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(s) != len(axes):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
    if s is None:
        return axes, None
    default = [shape[ax] for ax in axes]
    if kind in _C2R and axes:
        default[-1] = 2 * (shape[axes[-1]] - 1)
    return axes, tuple(d if n == -1 else n for n, d in zip(s, default))


def _linear_op(x: Any, apply: Any, adjoint: Any, out_dtype: Any) -> Any:
    """`apply` (a linear map of numpy arrays) on x as one autograd node whose backward is `adjoint` recorded the
    same way (with `apply` as its own backward): the gradient of a linear map is linear in the output gradient,
    so gradients of every order (create_graph=True) come out of the same two host functions."""
    in_dtype = x.dtype

    def vjp(inputs: Any, out: Any, grad: Any) -> Any:
        return (_linear_op(grad, adjoint, apply, in_dtype),)

    return _host_op(lambda t: np_to_ms(apply(_np(t)), out_dtype), vjp, x)


def _transform(kind: str, input: Any, s: Any, dim: Any, norm: Optional[str]) -> Any:
    """One torch.fft transform: computed on the host, recorded with its adjoint as the backward."""
    m = _norm(norm)
    shape = tuple(_MsTensor.shape.fget(input))
    axes, sizes = _axes_and_sizes(kind, shape, s, dim)
    in_sizes = [shape[ax] for ax in axes]
    # the real signal's length along the last axis: c2r's output, r2c's (resized) input
    n_real = 0
    if axes:
        n_real = in_sizes[-1] if sizes is None else sizes[-1]
        if kind in _C2R and sizes is None:
            n_real = 2 * (in_sizes[-1] - 1)
    real_input = input.dtype not in D.all_complex_type
    # integer/bool input is promoted to the default float dtype, as torch does
    double = input.dtype in (D.float64, D.complex128) or (
        (input.dtype in D.all_int_type or input.dtype == D.bool) and D.get_default_dtype() == D.float64)
    if kind in _C2R:
        out_dtype = D.float64 if double else D.float32
    else:
        out_dtype = D.complex128 if double else D.complex64

    def apply(a: np.ndarray) -> np.ndarray:
        return _FORWARD[kind](a, sizes, axes, m)

    def adjoint(g: np.ndarray) -> np.ndarray:
        g = _resize(_adjoint(kind, g, axes, m, n_real), axes, in_sizes)
        # a real input promoted to complex: only the real part of the gradient reaches it
        return g.real if real_input else g

    return _linear_op(input, apply, adjoint, out_dtype)


def _1d(n: Optional[int]) -> Any:
    return None if n is None else (n,)


@_ns
def fft_fft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _transform("fft", input, _1d(n), dim, norm)


@_ns
def fft_ifft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
             out: Any = None) -> Any:
    return _transform("ifft", input, _1d(n), dim, norm)


@_ns
def fft_rfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
             out: Any = None) -> Any:
    _real_only(input, "rfft expects a real input tensor, but got ")
    return _transform("rfft", input, _1d(n), dim, norm)


@_ns
def fft_irfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    return _transform("irfft", input, _1d(n), dim, norm)


@_ns
def fft_hfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
             out: Any = None) -> Any:
    """The FFT of a Hermitian-symmetric signal given by its half: a real result of size n (2 * (m - 1))."""
    return _transform("hfft", input, _1d(n), dim, norm)


@_ns
def fft_ihfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    """The inverse FFT of a real signal, keeping the non-redundant half (n // 2 + 1)."""
    _real_only(input, "ihfft expects a real input tensor, but got ")
    return _transform("ihfft", input, _1d(n), dim, norm)


@_ns
def fft_fft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _transform("fft", input, s, dim, norm)


@_ns
def fft_ifft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    return _transform("ifft", input, s, dim, norm)


@_ns
def fft_rfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    _real_only(input, "rfftn expects a real-valued input tensor, but got ")
    return _transform("rfft", input, s, dim, norm)


@_ns
def fft_irfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
               out: Any = None) -> Any:
    return _transform("irfft", input, s, dim, norm)


@_ns
def fft_fftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _transform("fft", input, s, dim, norm)


@_ns
def fft_ifftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _transform("ifft", input, s, dim, norm)


@_ns
def fft_rfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    _real_only(input, "rfftn expects a real-valued input tensor, but got ")
    return _transform("rfft", input, s, dim, norm)


@_ns
def fft_irfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _transform("irfft", input, s, dim, norm)


@_ns
def fft_hfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    """The n-D FFT of a Hermitian-symmetric signal given by its half (last dim of `dim`): a real result, the last
    transformed dim of size s[-1] (2 * (m - 1) by default)."""
    return _transform("hfft", input, s, dim, norm)


@_ns
def fft_hfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    """hfftn over two dims."""
    return _transform("hfft", input, s, dim, norm)


@_ns
def fft_ihfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    """The inverse n-D FFT of a real signal, keeping the non-redundant half (n // 2 + 1) of the last dim."""
    _real_only(input, "Only supports floating-point dtypes, but found: ")
    return _transform("ihfft", input, s, dim, norm)


@_ns
def fft_ihfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
               out: Any = None) -> Any:
    """ihfftn over two dims."""
    _real_only(input, "Only supports floating-point dtypes, but found: ")
    return _transform("ihfft", input, s, dim, norm)


def _freq(arr: np.ndarray, dtype: Any, device: Any, requires_grad: bool) -> Any:
    from .creation import _finish

    return _finish(np_to_ms(arr, D.to_dtype(dtype) or D.get_default_dtype()), requires_grad, device)


@_ns
def fft_fftfreq(n: int, d: float = 1.0, *, out: Any = None, dtype: Any = None, layout: Any = None,
                device: Any = None, requires_grad: bool = False) -> Any:
    """Sample frequencies of an n-point FFT (default dtype)."""
    return _freq(np.fft.fftfreq(int(n), float(d)), dtype, device, requires_grad)


@_ns
def fft_rfftfreq(n: int, d: float = 1.0, *, out: Any = None, dtype: Any = None, layout: Any = None,
                 device: Any = None, requires_grad: bool = False) -> Any:
    return _freq(np.fft.rfftfreq(int(n), float(d)), dtype, device, requires_grad)


@_ns
def fft_fftshift(input: Any, dim: Any = None) -> Any:
    """Zero frequency to the centre (a roll: differentiable)."""
    from .shape import roll

    return _shift(input, dim, roll, 1)


@_ns
def fft_ifftshift(input: Any, dim: Any = None) -> Any:
    from .shape import roll

    return _shift(input, dim, roll, -1)


def _shift(input: Any, dim: Any, roll: Any, sign: int) -> Any:
    shape = tuple(_MsTensor.shape.fget(input))
    dims = tuple(range(len(shape))) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    shifts = tuple((shape[d] // 2) if sign > 0 else -(shape[d] // 2) for d in dims)
    return roll(input, shifts, dims)
