"""torch.stft / torch.istft with torch 1.12's semantics.

Built from differentiable MindSpore ops so autograd flows from a (power) spectrogram back to the waveform:
framing is a `gather` with a (frames, n_fft) index, the DFT is a matmul with cos/sin matrices (computed in
float64 on the host, cast to the input's dtype), the inverse is the matching real matmul followed by an
overlap-add made of ceil(n_fft / hop) shifted pads. (MindSpore's `conv_transpose1d` as overlap-add took
24 s for one second of audio on CPU; the pads take milliseconds.) Complex results are assembled with
`ops.Complex`, which is differentiable (as are real/imag/abs of it); MindSpore 2.10 has no gradient for
complex Mul/Div on CPU, so code that scales a complex spectrum and needs gradients should work on the
`return_complex=False` layout (mindtorch.torchaudio's spectrogram does).
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Optional, Tuple

import mindspore as ms
import numpy as np

from .. import _dtype as D
from ._registry import register

_MsTensor = ms.Tensor
ops = ms.ops


def _real_dtype(d: Any) -> Any:
    if d in (D.float64, D.complex128):
        return D.float64
    return D.float32


def _np_dtype(d: Any) -> Any:
    return np.float64 if d == D.float64 else np.float32


def _dft_mats(n_fft: int, n_bins: int, dtype: Any) -> Tuple[Any, Any]:
    """cos and sin of 2*pi*n*k/n_fft, shape (n_fft, n_bins)."""
    m = (np.arange(n_fft)[:, None] * np.arange(n_bins)[None, :]) % n_fft  # the modulo keeps the angle small
    ang = 2.0 * np.pi * m / n_fft
    cos, sin = np.cos(ang), np.sin(ang)
    # exact values at multiples of pi/2, so the DC and Nyquist bins of a real signal get an imaginary part of
    # exactly zero as in an FFT (angle() of those bins is then 0 or pi, never a rounding-noise -pi)
    quarter = (4 * m) % n_fft == 0
    q = (4 * m[quarter]) // n_fft
    cos[quarter] = np.array([1.0, 0.0, -1.0, 0.0])[q]
    sin[quarter] = np.array([0.0, 1.0, 0.0, -1.0])[q]
    npd = _np_dtype(dtype)
    return _MsTensor(cos.astype(npd)), _MsTensor(sin.astype(npd))


def _padded_window(window: Any, win_length: int, n_fft: int, dtype: Any) -> Any:
    """The window (ones when None) centred in n_fft samples, as torch.stft does."""
    if window is None:
        window = _MsTensor(np.ones(win_length, dtype=_np_dtype(dtype)))
    else:
        if window.ndim != 1 or int(window.shape[0]) != win_length:
            raise RuntimeError(f"stft: expected a 1D window tensor of size equal to win_length={win_length}, "
                               f"but got window with size {list(window.shape)}")
        if window.dtype != dtype:
            window = window.astype(dtype)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = ops.pad(window, (left, n_fft - win_length - left))
    return window


def _check_lengths(name: str, n_fft: int, hop_length: Optional[int], win_length: Optional[int]) -> Tuple[int, int]:
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    if hop <= 0:
        raise RuntimeError(f"{name}: expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(f"{name}: expected 0 < win_length <= n_fft, but got win_length={win}")
    return hop, win


@register("stft")
def stft(input: Any, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
         window: Any = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided: Optional[bool] = None, return_complex: Optional[bool] = None) -> Any:
    """Short-time Fourier transform. input (L) or (B, L) -> (B?, n_freq, n_frames) complex, or
    (B?, n_freq, n_frames, 2) real when return_complex=False (n_freq = n_fft // 2 + 1 when onesided)."""
    n_fft = int(n_fft)
    is_complex = input.dtype in (D.complex64, D.complex128)
    if return_complex is None:
        # torch 1.12 still defaulted to the real (..., 2) layout with a deprecation warning (2.x raises).
        warnings.warn("stft will soon require the return_complex parameter be given for real inputs, and will "
                      "further require that return_complex=True in a future PyTorch release.", UserWarning,
                      stacklevel=3)
        return_complex = bool(is_complex or (window is not None and window.dtype in (D.complex64, D.complex128)))
    if input.ndim not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {input.ndim}D tensor")
    hop, win = _check_lengths("stft", n_fft, hop_length, win_length)
    rdt = _real_dtype(input.dtype)
    x = input if input.ndim == 2 else ops.expand_dims(input, 0)
    if center:
        if pad_mode not in ("reflect", "constant", "replicate", "circular"):
            raise RuntimeError(f"stft: unsupported pad_mode '{pad_mode}'")
        p = n_fft // 2
        if pad_mode == "reflect" and int(x.shape[-1]) <= p:
            raise RuntimeError(f"stft: reflect padding of {p} needs an input longer than {p} samples, but got "
                               f"{int(x.shape[-1])}")
        if is_complex:
            x = _complex(ops.pad(ops.expand_dims(ops.real(x), 1), (p, p), mode=pad_mode).squeeze(1),
                            ops.pad(ops.expand_dims(ops.imag(x), 1), (p, p), mode=pad_mode).squeeze(1))
        else:
            x = ops.pad(ops.expand_dims(x, 1), (p, p), mode=pad_mode).squeeze(1)
    length = int(x.shape[-1])
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(f"stft: expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    n_frames = 1 + (length - n_fft) // hop
    idx = _MsTensor(np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None], dtype=ms.int32)
    w = _padded_window(window, win, n_fft, rdt)
    if onesided is None:
        onesided = not is_complex
    if onesided and is_complex:
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    n_bins = n_fft // 2 + 1 if onesided else n_fft
    cos, sin = _dft_mats(n_fft, n_bins, rdt)
    if is_complex:
        a = ops.gather(ops.real(x), idx, 1) * w
        b = ops.gather(ops.imag(x), idx, 1) * w
        re = ops.matmul(a, cos) + ops.matmul(b, sin)
        im = ops.matmul(b, cos) - ops.matmul(a, sin)
    else:
        frames = ops.gather(x if x.dtype == rdt else x.astype(rdt), idx, 1) * w  # (B, frames, n_fft)
        re = ops.matmul(frames, cos)
        im = -ops.matmul(frames, sin) + 0.0  # + 0.0 turns the -0.0 of exact-zero bins into +0.0 (as pocketfft)
    if normalized:
        scale = 1.0 / math.sqrt(n_fft)
        re, im = re * scale, im * scale
    re, im = ops.transpose(re, (0, 2, 1)), ops.transpose(im, (0, 2, 1))  # (B, n_bins, frames)
    if input.ndim == 1:
        re, im = re.squeeze(0), im.squeeze(0)
    if return_complex:
        return _complex(re, im)
    return ops.stack((re, im), -1)


def _complex(re: Any, im: Any) -> Any:
    # ops.Complex has a CPU kernel for float32/float64 pairs (no gradient through the complex result).
    return ops.Complex()(re, im)


def _overlap_add(frames: Any, hop: int) -> Any:
    """frames (B, T, n) -> (B, n + hop * (T - 1)): frame t added at offset t * hop."""
    b, t, n = (int(s) for s in frames.shape)
    total = n + hop * (t - 1)
    chunks = -(-n // hop)
    if chunks * hop > n:
        frames = ops.pad(frames, (0, chunks * hop - n))
    out = None
    for j in range(chunks):
        part = frames[:, :, j * hop:(j + 1) * hop].reshape(b, t * hop)  # frame t's j-th hop block
        part = ops.pad(part, (j * hop, (chunks - 1 - j) * hop))
        out = part if out is None else out + part
    return out[:, :total]


@register("istft")
def istft(input: Any, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
          window: Any = None, center: bool = True, normalized: bool = False, onesided: Optional[bool] = None,
          length: Optional[int] = None, return_complex: bool = False) -> Any:
    """Inverse of stft. input (B?, n_freq, n_frames) complex (or (..., 2) real) -> (B?, L)."""
    n_fft = int(n_fft)
    hop, win = _check_lengths("istft", n_fft, hop_length, win_length)
    if input.dtype in (D.complex64, D.complex128):
        re, im = ops.real(input), ops.imag(input)
    else:
        if input.ndim < 3 or int(input.shape[-1]) != 2:
            raise RuntimeError("istft requires a complex-valued input tensor (or a real tensor whose last "
                               "dimension is 2, torch 1.12's real layout)")
        re, im = input[..., 0], input[..., 1]
    if re.ndim not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex values, but got {re.ndim}")
    batched = re.ndim == 3
    if not batched:
        re, im = ops.expand_dims(re, 0), ops.expand_dims(im, 0)
    rdt = _real_dtype(re.dtype)
    n_bins, n_frames = int(re.shape[1]), int(re.shape[2])
    if onesided is None:
        onesided = n_bins != n_fft
    if onesided and n_bins != n_fft // 2 + 1:
        raise RuntimeError(f"istft: expected the frequency dimension (dim -2) to be n_fft // 2 + 1 = "
                           f"{n_fft // 2 + 1} for a onesided input, but got {n_bins}")
    if not onesided and n_bins != n_fft:
        raise RuntimeError(f"istft: expected the frequency dimension (dim -2) to be n_fft = {n_fft}, "
                           f"but got {n_bins}")
    if return_complex:
        raise NotImplementedError("torch.istft(return_complex=True) is not supported by mindtorch; "
                                  "use return_complex=False (real signal) ")
    re = ops.transpose(re, (0, 2, 1))  # (B, frames, bins)
    im = ops.transpose(im, (0, 2, 1))
    cos, sin = _dft_mats(n_fft, n_bins, rdt)
    if onesided:
        # irfft: the bins 1..n/2-1 stand for their mirrored twins too (Hermitian symmetry), so they count twice
        c = np.full(n_bins, 2.0)
        c[0] = 1.0
        if n_fft % 2 == 0:
            c[-1] = 1.0
    else:
        c = np.ones(n_bins)  # full inverse DFT, real part
    c_t = _MsTensor((c / n_fft).astype(_np_dtype(rdt)))
    frames = ops.matmul(re * c_t, ops.transpose(cos, (1, 0))) - ops.matmul(im * c_t, ops.transpose(sin, (1, 0)))
    if normalized:
        frames = frames * math.sqrt(n_fft)
    w = _padded_window(window, win, n_fft, rdt)
    frames = frames * w
    y = _overlap_add(frames, hop)
    wsq = ops.tile(ops.expand_dims(ops.expand_dims(w * w, 0), 0), (1, n_frames, 1))
    env = _overlap_add(wsq, hop)
    expected = n_fft + hop * (n_frames - 1)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = min(start + int(length), expected)
    elif center:
        end = expected - n_fft // 2
    else:
        end = expected
    y = y[:, start:end]
    env = env[:, start:end]
    env_np = env.asnumpy()
    if env_np.size and np.abs(env_np).min() < 1e-11:
        raise RuntimeError("istft: window overlap add min: the sum of squared windows is zero somewhere "
                           "(NOLA condition failed); choose a window/hop with nonzero overlap-add")
    y = y / env
    if length is not None and int(y.shape[-1]) < int(length):
        y = ops.pad(y, (0, int(length) - int(y.shape[-1])))
    if not batched:
        y = y.squeeze(0)
    return y
