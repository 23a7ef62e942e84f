"""torch.stft / torch.istft against real PyTorch (torch 1.12 semantics; see notes where 2.x differs)."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

rng = np.random.default_rng(0)
X = rng.standard_normal((2, 600)).astype(np.float32)
X1 = rng.standard_normal(300).astype(np.float32)

CASES = {
    "default": dict(n_fft=64),
    "hop_win": dict(n_fft=64, hop_length=10, win_length=40, normalized=True),
    "odd_twosided": dict(n_fft=63, center=False, onesided=False),
    "constant_pad": dict(n_fft=32, hop_length=8, pad_mode="constant"),
    "no_window_arg": dict(n_fft=16, hop_length=4, window=None),
}


def _window(t, kw):
    if "window" in kw:
        return None
    return t.hann_window(kw.get("win_length", kw["n_fft"]))


@pytest.mark.parametrize("case", sorted(CASES))
def test_stft_matches_torch(reftorch, case):
    kw = {k: v for k, v in CASES[case].items() if k != "window"}
    mine = torch.stft(torch.tensor(X), window=_window(torch, CASES[case]), return_complex=True, **kw)
    ref = reftorch.stft(reftorch.tensor(X), window=_window(reftorch, CASES[case]), return_complex=True, **kw)
    assert_same(mine, ref, rtol=1e-4, atol=2e-5)


def test_stft_real_layout_and_1d_double(reftorch):
    mine = torch.stft(torch.tensor(X1).double(), 32, 8, window=torch.hann_window(32, dtype=torch.float64),
                      return_complex=False)
    ref = reftorch.stft(reftorch.tensor(X1).double(), 32, 8, window=reftorch.hann_window(32, dtype=reftorch.float64),
                        return_complex=False)
    assert_same(mine, ref, rtol=1e-9, atol=1e-9)


def test_stft_default_return_complex_is_real_layout_in_1_12():
    # torch 1.12: return_complex unset -> a warning and the real (..., 2) layout; torch 2.x raises instead.
    with pytest.warns(UserWarning, match="return_complex"):
        out = torch.stft(torch.tensor(X1), 32)
    assert tuple(out.shape) == (17, 300 // 8 + 1, 2)


def test_stft_complex_input(reftorch):
    c = (X[0] + 1j * X[1]).astype(np.complex64)
    mine = torch.stft(torch.tensor(c), 32, 8, window=torch.hann_window(32), return_complex=True)
    ref = reftorch.stft(reftorch.tensor(c), 32, 8, window=reftorch.hann_window(32), return_complex=True)
    assert_same(mine, ref, rtol=1e-4, atol=2e-5)


@pytest.mark.parametrize("case", ["default", "hop_win", "constant_pad"])
@pytest.mark.parametrize("length", [None, 590, 650])
def test_istft_matches_torch(reftorch, case, length):
    kw = {k: v for k, v in CASES[case].items() if k != "pad_mode"}
    spec = reftorch.stft(reftorch.tensor(X), window=_window(reftorch, kw), return_complex=True, **kw)
    try:
        ref = reftorch.istft(spec, window=_window(reftorch, kw), length=length, **kw)
    except RuntimeError:  # torch's NOLA check (zero window overlap-add in the kept span): ours raises too
        with pytest.raises(RuntimeError, match="window overlap add min"):
            torch.istft(torch.tensor(spec.numpy()), window=_window(torch, kw), length=length, **kw)
        return
    mine = torch.istft(torch.tensor(spec.numpy()), window=_window(torch, kw), length=length, **kw)
    assert_same(mine, ref, rtol=1e-4, atol=2e-5)


def test_istft_twosided_unbatched(reftorch):
    spec = reftorch.stft(reftorch.tensor(X1), 32, 8, window=reftorch.hann_window(32), onesided=False,
                         return_complex=True)
    ref = reftorch.istft(spec, 32, 8, window=reftorch.hann_window(32), onesided=False)
    mine = torch.istft(torch.tensor(spec.numpy()), 32, 8, window=torch.hann_window(32), onesided=False)
    assert_same(mine, ref, rtol=1e-4, atol=2e-5)


def test_stft_gradient_flows_through_real_layout(reftorch):
    x = torch.tensor(X1, requires_grad=True)
    s = torch.stft(x, 32, 8, window=torch.hann_window(32), return_complex=False)
    s.pow(2).sum().backward()
    rx = reftorch.tensor(X1, requires_grad=True)
    rs = reftorch.view_as_real(reftorch.stft(rx, 32, 8, window=reftorch.hann_window(32), return_complex=True))
    rs.pow(2).sum().backward()
    assert_same(x.grad, rx.grad, rtol=1e-4, atol=1e-4)


def test_errors(reftorch):
    with pytest.raises(RuntimeError):
        torch.stft(torch.tensor(X1[:10]), 64, return_complex=True, center=False)
    with pytest.raises(RuntimeError):
        reftorch.stft(reftorch.tensor(X1[:10]), 64, return_complex=True, center=False)
    with pytest.raises(RuntimeError):
        torch.stft(torch.tensor(X1), 32, window=torch.hann_window(20), return_complex=True)
    with pytest.raises(RuntimeError):
        reftorch.stft(reftorch.tensor(X1), 32, window=reftorch.hann_window(20), return_complex=True)
    spec = torch.stft(torch.tensor(X1), 32, 8, window=torch.hann_window(32), return_complex=True)
    with pytest.raises(RuntimeError):  # n_fft does not match the frequency dim
        torch.istft(spec, 64, 8)


def test_gradient_through_complex_stft_and_istft(reftorch):
    x = torch.tensor(X1, requires_grad=True)
    spec = torch.stft(x, 32, 8, window=torch.hann_window(32), return_complex=True)
    # (MindSpore 2.10 has no gradient for complex Mul, so the spectrum goes into istft unscaled)
    y = torch.istft(spec, 32, 8, window=torch.hann_window(32), length=300)
    (spec.abs().sum() + y.pow(2).sum()).backward()
    rx = reftorch.tensor(X1, requires_grad=True)
    rspec = reftorch.stft(rx, 32, 8, window=reftorch.hann_window(32), return_complex=True)
    ry = reftorch.istft(rspec, 32, 8, window=reftorch.hann_window(32), length=300)
    (rspec.abs().sum() + ry.pow(2).sum()).backward()
    assert_same(x.grad, rx.grad, rtol=1e-3, atol=1e-4)
