"""torch.fft (table keys `fft_<name>`, torch's native names; exposed as `torch.fft.<name>` by torch/fft.py).

Computed on the host with numpy's pocketfft: float32/complex64 in -> complex64 out (float64 -> complex128),
torch's `norm=` names ('backward', 'ortho', 'forward') are numpy's. Autograd does NOT flow through these.
"""
from __future__ import annotations

from typing import Any, Optional

import mindspore as ms
import numpy as np

from .. import _dtype as D
from ._registry import register

_MsTensor = ms.Tensor


def _np(t: Any) -> np.ndarray:
    if t.dtype in D.all_int_type or t.dtype == D.bool:
        return t.asnumpy().astype(np.float32 if D.get_default_dtype() != D.float64 else np.float64)
    return (t.astype(D.float32) if t.dtype in (D.bfloat16, D.float16) else t).asnumpy()


def _out(arr: np.ndarray, like: Any) -> Any:
    from .creation import np_to_ms

    double = like.dtype in (D.float64, D.complex128)
    if np.iscomplexobj(arr):
        return np_to_ms(arr, D.complex128 if double else D.complex64)
    return np_to_ms(arr, D.float64 if double else D.float32)


def _ns(fn: Any) -> Any:
    return register(fn.__name__, method=False, function=False, namespaces=("fft",))(fn)


def _norm(norm: Optional[str]) -> str:
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f"Invalid normalization mode: {norm}")
    return norm or "backward"


@_ns
def fft_fft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _out(np.fft.fft(_np(input), n, dim, _norm(norm)), input)


@_ns
def fft_ifft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
             out: Any = None) -> Any:
    return _out(np.fft.ifft(_np(input), n, dim, _norm(norm)), input)


@_ns
def fft_rfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
             out: Any = None) -> Any:
    if input.dtype in D.all_complex_type:
        raise RuntimeError("rfft expects a real input tensor, but got " + D.scalar_name(input.dtype))
    return _out(np.fft.rfft(_np(input), n, dim, _norm(norm)), input)


@_ns
def fft_irfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    return _out(np.fft.irfft(_np(input), n, dim, _norm(norm)), input)


@_ns
def fft_hfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
             out: Any = None) -> Any:
    return _out(np.fft.hfft(_np(input), n, dim, _norm(norm)), input)


@_ns
def fft_ihfft(input: Any, n: Optional[int] = None, dim: int = -1, norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    return _out(np.fft.ihfft(_np(input), n, dim, _norm(norm)), input)


def _nd(fn: Any, input: Any, s: Any, dim: Any, norm: Optional[str]) -> Any:
    return _out(fn(_np(input), s, dim, _norm(norm)), input)


@_ns
def fft_fft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _nd(np.fft.fft2, input, s, dim, norm)


@_ns
def fft_ifft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    return _nd(np.fft.ifft2, input, s, dim, norm)


@_ns
def fft_rfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    return _nd(np.fft.rfft2, input, s, dim, norm)


@_ns
def fft_irfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
               out: Any = None) -> Any:
    return _nd(np.fft.irfft2, input, s, dim, norm)


@_ns
def fft_fftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _nd(np.fft.fftn, input, s, dim, norm)


@_ns
def fft_ifftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _nd(np.fft.ifftn, input, s, dim, norm)


@_ns
def fft_rfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _nd(np.fft.rfftn, input, s, dim, norm)


@_ns
def fft_irfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    return _nd(np.fft.irfftn, input, s, dim, norm)


# The Hermitian n-D transforms through numpy's real ones (numpy has no hfftn): hfftn(x) is irfftn(conj(x)) and
# ihfftn(x) is conj(rfftn(x)), each with the normalisation direction swapped ('backward' <-> 'forward').
_SWAPPED_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


@_ns
def fft_hfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    """The n-D FFT of a Hermitian-symmetric signal given by its half (last dim of `dim`): a real result, the last
    transformed dim of size s[-1] (2 * (m - 1) by default)."""
    return _out(np.fft.irfftn(np.conj(_np(input)), s, dim, _SWAPPED_NORM[_norm(norm)]), input)


@_ns
def fft_hfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
              out: Any = None) -> Any:
    """hfftn over two dims."""
    return fft_hfftn(input, s, dim, norm)


@_ns
def fft_ihfftn(input: Any, s: Any = None, dim: Any = None, norm: Optional[str] = None, *, out: Any = None) -> Any:
    """The inverse n-D FFT of a real signal, keeping the non-redundant half (n // 2 + 1) of the last dim."""
    if input.dtype in D.all_complex_type:
        raise RuntimeError("Only supports floating-point dtypes, but found: " + D.scalar_name(input.dtype))
    return _out(np.conj(np.fft.rfftn(_np(input), s, dim, _SWAPPED_NORM[_norm(norm)])), input)


@_ns
def fft_ihfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: Optional[str] = None, *,
               out: Any = None) -> Any:
    """ihfftn over two dims."""
    return fft_ihfftn(input, s, dim, norm)


def _freq(arr: np.ndarray, dtype: Any, device: Any, requires_grad: bool) -> Any:
    from .creation import _finish, np_to_ms

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
