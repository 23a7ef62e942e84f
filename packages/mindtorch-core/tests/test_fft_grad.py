"""Gradients of torch.fft.* (host-computed transforms whose backward is their adjoint) and of torch.stft/istft,
against real PyTorch: forward values and the gradient of a random-weighted real loss, in float64 at rtol 1e-10."""
import numpy as np
import pytest
from _compare import assert_same, dtype_name

import mindtorch.torch as torch

RTOL, ATOL = 1e-10, 1e-12
SHAPE = (4, 6, 7)
NORMS = (None, "backward", "ortho", "forward")

# n: 5 truncates the last dim (7), 11 with dim=0 pads dim 0 (4); for irfft/hfft n is the output length, so n=5
# truncates the half spectrum to 3 bins and an odd n makes the last bin a doubled one (fft_c2r_backward)
VARIANTS_1D = ({}, {"n": 5}, {"n": 11, "dim": 0}, {"n": 4, "dim": 1})
# s: (3, 9) truncates dim 1 and pads dim 2; s=-1 keeps a dim's size
VARIANTS_2D = ({}, {"s": (3, 9)}, {"s": (7, 4), "dim": (0, 2)}, {"s": (-1, 5)})
VARIANTS_ND = ({}, {"s": (3, 9)}, {"s": (7, 4), "dim": (0, 2)}, {"dim": (1,)}, {"s": (5, 2, 9)})

FUNCTIONS = {  # name -> (argument variants, accepts complex input, accepts real input)
    "fft": (VARIANTS_1D, True, True), "ifft": (VARIANTS_1D, True, True),
    "rfft": (VARIANTS_1D, False, True), "irfft": (VARIANTS_1D, True, True),
    "hfft": (VARIANTS_1D, True, True), "ihfft": (VARIANTS_1D, False, True),
    "fft2": (VARIANTS_2D, True, True), "ifft2": (VARIANTS_2D, True, True),
    "rfft2": (VARIANTS_2D, False, True), "irfft2": (VARIANTS_2D, True, True),
    "hfft2": (VARIANTS_2D, True, True), "ihfft2": (VARIANTS_2D, False, True),
    "fftn": (VARIANTS_ND, True, True), "ifftn": (VARIANTS_ND, True, True),
    "rfftn": (VARIANTS_ND, False, True), "irfftn": (VARIANTS_ND, True, True),
    "hfftn": (VARIANTS_ND, True, True), "ihfftn": (VARIANTS_ND, False, True),
}


def _loss(T, out, w):
    """A real loss weighting every real and imaginary output component differently (so a wrong sign, scale or
    conjugation of any gradient entry shows)."""
    w1 = T.tensor(w[0, :out.numel()].reshape(tuple(out.shape)))
    if out.is_complex():
        w2 = T.tensor(w[1, :out.numel()].reshape(tuple(out.shape)))
        return (out.real * w1 + out.imag * w2).sum()
    return (out * w1).sum()


def _value_and_grads(T, fn, arrays, w):
    inputs = [T.tensor(a, requires_grad=True) for a in arrays]
    out = fn(T, *inputs)
    grads = T.autograd.grad(_loss(T, out, w), inputs)
    if T is torch:
        return out, list(grads)
    # real torch's conjugate views (ifft of a real input, hfft, ihfft) need resolving before .numpy()
    return out.detach().resolve_conj(), [g.resolve_conj() for g in grads]


def _same(mine, ref, rtol, atol):
    """assert_same, with complex tensors compared on both parts (assert_same casts them to float64, which keeps
    only the real part)."""
    if not ref.is_complex():
        assert_same(mine, ref, rtol=rtol, atol=atol)
        return
    assert dtype_name(mine.dtype) == dtype_name(ref.dtype), f"dtype {mine.dtype} != {ref.dtype}"
    assert_same(mine.real, ref.real, rtol=rtol, atol=atol)
    assert_same(mine.imag, ref.imag, rtol=rtol, atol=atol)


def _check(reftorch, fn, arrays, rng, rtol=RTOL, atol=ATOL):
    w = rng.standard_normal((2, 4096))
    mine, mine_grads = _value_and_grads(torch, fn, arrays, w)
    ref, ref_grads = _value_and_grads(reftorch, fn, arrays, w)
    assert mine.requires_grad
    _same(mine.detach(), ref, rtol, atol)
    assert len(mine_grads) == len(ref_grads)
    for g, r in zip(mine_grads, ref_grads):
        _same(g, r, rtol, atol)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_fft_values_and_gradients_match_torch(reftorch, name):
    variants, complex_ok, real_ok = FUNCTIONS[name]
    rng = np.random.default_rng(sorted(FUNCTIONS).index(name))
    kinds = [k for k, ok in (("real", real_ok), ("complex", complex_ok)) if ok]
    for kind in kinds:
        for norm in NORMS:
            for kwargs in variants:
                x = rng.standard_normal(SHAPE)
                if kind == "complex":
                    x = x + 1j * rng.standard_normal(SHAPE)
                try:
                    _check(reftorch, lambda T, t, kw=dict(kwargs, norm=norm): getattr(T.fft, name)(t, **kw), [x], rng)
                except AssertionError as e:
                    raise AssertionError(f"{name}({kind} input, norm={norm}, {kwargs}): {e}") from e


@pytest.mark.parametrize("name, kwargs", [
    ("fft", {"n": 9}), ("rfft", {"norm": "ortho"}), ("irfft", {"n": 7}), ("hfft", {}), ("ihfft", {"n": 4}),
    ("fft2", {"norm": "forward"}), ("rfftn", {"s": (3, 8)}), ("irfftn", {}), ("ihfftn", {"dim": (0, 1)}),
])
def test_float32_gradients_keep_the_input_dtype(reftorch, name, kwargs):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 6)).astype(np.float32)
    if name in ("irfft", "hfft", "irfftn"):
        x = (x + 1j * rng.standard_normal((5, 6))).astype(np.complex64)
    _check(reftorch, lambda T, t: getattr(T.fft, name)(t, **kwargs), [x], rng, rtol=1e-4, atol=1e-5)


def test_chained_transforms_and_shifts(reftorch):
    """irfft(rfft(x)) is the identity (gradient = weights); fftshift/ifftshift are differentiable rolls."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 6, 7))
    _check(reftorch, lambda T, t: T.fft.irfftn(T.fft.rfftn(t, norm="ortho"), s=(6, 7), norm="ortho"), [x], rng)
    _check(reftorch, lambda T, t: T.fft.fftshift(T.fft.fft2(t), dim=(-2, -1)), [x], rng)
    _check(reftorch, lambda T, t: T.fft.ifftshift(T.fft.ifft(T.fft.fftshift(t)), dim=1), [x], rng)


@pytest.mark.parametrize("name, kwargs, complex_input", [
    ("rfft", {"n": 9, "norm": "ortho"}, False), ("irfft", {"n": 7}, True), ("hfft", {"norm": "forward"}, True),
    ("ihfft", {}, False), ("fft2", {"s": (3, 9)}, True), ("irfftn", {"s": (4, 5, 6)}, True),
])
def test_second_order_gradients_match_torch(reftorch, name, kwargs, complex_input):
    """create_graph=True: the backward (the adjoint transform) is itself recorded, with the transform as its
    backward. The loss squares the output (complex Mul has no MindSpore gradient, so |y|^2 from real/imag)."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal(SHAPE) + (1j * rng.standard_normal(SHAPE) if complex_input else 0)
    w = rng.standard_normal((3, 4096))

    def second(T):
        t = T.tensor(x, requires_grad=True)
        y = getattr(T.fft, name)(t, **kwargs)
        parts = (y.real, y.imag) if y.is_complex() else (y,)
        loss = sum((p ** 2 * T.tensor(w[i, :p.numel()].reshape(tuple(p.shape)))).sum() for i, p in enumerate(parts))
        (g,) = T.autograd.grad(loss, t, create_graph=True)
        v = T.tensor(w[2, :g.numel()].reshape(tuple(g.shape)))
        gv = (g.real * v + g.imag * v.flip(0)).sum() if g.is_complex() else (g * v).sum()
        (h,) = T.autograd.grad(gv, t)
        return g.detach(), h

    (g, h), (rg, rh) = second(torch), second(reftorch)
    _same(g, rg.resolve_conj(), RTOL, ATOL)
    _same(h, rh.resolve_conj(), RTOL, ATOL)


def test_gradient_is_recorded_only_when_needed():
    x = torch.randn(8, dtype=torch.float64)
    assert not torch.fft.rfft(x).requires_grad
    x.requires_grad_()
    assert torch.fft.rfft(x).grad_fn is not None
    with torch.no_grad():
        assert not torch.fft.rfft(x).requires_grad


def test_stft_istft_gradients_match_torch(reftorch):
    """stft/istft are built from differentiable MindSpore ops: gradients for the signal and the window."""
    rng = np.random.default_rng(3)
    x, win = rng.standard_normal(40), rng.standard_normal(16) + 2.0
    _check(reftorch, lambda T, t, w: T.stft(t, 16, hop_length=4, window=w, return_complex=True), [x, win], rng)
    _check(reftorch, lambda T, t, w: T.stft(t, 16, hop_length=5, window=w, normalized=True, onesided=False,
                                            return_complex=True), [x, win], rng)
    _check(reftorch, lambda T, t, w: T.stft(t, 16, hop_length=4, window=w, return_complex=True),
           [x + 1j * rng.standard_normal(40), win], rng)
    _check(reftorch, lambda T, t, w: T.stft(t, 16, hop_length=4, win_length=12, window=w, center=False,
                                            return_complex=False), [x, win[:12]], rng)
    spec = reftorch.stft(reftorch.tensor(x), 16, hop_length=4, return_complex=True,
                         window=reftorch.hann_window(16, dtype=reftorch.float64)).numpy()
    _check(reftorch, lambda T, s, w: T.istft(s, 16, hop_length=4, window=w), [spec, win], rng)
    _check(reftorch, lambda T, s, w: T.istft(s, 16, hop_length=4, window=w, normalized=True, length=38),
           [spec, win], rng)
