"""Transforms as nn.Modules: state_dict keys as torchaudio's, gradients as torchaudio's, use inside a model,
random masking, Wav2Letter with torchaudio's weights, and errors."""
import json
from pathlib import Path

import numpy as np
import pytest
from audio_cases import SR, grad_cases, model_weights, module_specs, small_models

import mindtorch.torch as torch
import mindtorch.torch.nn as nn
import mindtorch.torchaudio as ta

FIX = Path(__file__).parent / "fixtures"
REF = np.load(FIX / "reference.npz")
INPUTS = {k[len("input_"):]: REF[k] for k in REF.files if k.startswith("input_")}
KEYS = json.loads((FIX / "state_dict_keys.json").read_text())


@pytest.mark.parametrize("name", sorted(module_specs(ta.transforms)))
def test_state_dict_keys_match_torchaudio(name):
    module = module_specs(ta.transforms)[name]()
    assert list(module.state_dict().keys()) == KEYS[name]


@pytest.mark.parametrize("name", sorted(grad_cases(torch, ta, INPUTS)))
def test_gradients_match_torch(name):
    mine = grad_cases(torch, ta, INPUTS)[name]().numpy()
    ref = REF[name]
    assert mine.shape == ref.shape
    np.testing.assert_allclose(mine, ref, rtol=2e-3, atol=2e-4 * max(1.0, float(np.abs(ref).max())))


def test_transforms_inside_a_trained_model():
    torch.manual_seed(0)
    # 600 samples, hop 64, centred -> 10 frames of 16 mel bins
    model = nn.Sequential(ta.transforms.MelSpectrogram(SR, n_fft=128, hop_length=64, n_mels=16),
                          ta.transforms.AmplitudeToDB(), nn.Flatten(), nn.Linear(16 * 10, 2))
    x = torch.tensor(INPUTS["short"])
    y = torch.tensor([0, 1])
    opt = torch.optim.SGD([p for p in model.parameters()], lr=0.01)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(float(loss))
    assert losses[-1] < losses[0]
    assert "0.spectrogram.window" in model.state_dict() and "0.mel_scale.fb" in model.state_dict()


def test_masking_properties():
    torch.manual_seed(0)
    spec = torch.ones(3, 20, 30)
    fm = ta.transforms.FrequencyMasking(freq_mask_param=6)(spec).numpy()
    zero_rows = np.where((fm == 0).all(axis=2))[0]  # one band, shared by the batch (iid_masks=False)
    assert fm.shape == (3, 20, 30) and len(np.unique(zero_rows)) <= 5
    rows = np.unique(zero_rows)
    assert rows.size == 0 or rows.max() - rows.min() + 1 == rows.size  # contiguous
    assert ((fm == 0) | (fm == 1)).all()
    tm = ta.transforms.TimeMasking(time_mask_param=8, iid_masks=True)(spec.unsqueeze(1)).numpy()[:, 0]
    for b in range(3):
        cols = np.where((tm[b] == 0).all(axis=0))[0]
        assert cols.size <= 7 and (cols.size == 0 or cols.max() - cols.min() + 1 == cols.size)
    sa = ta.transforms.SpecAugment(n_time_masks=2, time_mask_param=5, n_freq_masks=1, freq_mask_param=4,
                                   zero_masking=True)
    out = sa(spec).numpy()
    assert out.shape == (3, 20, 30) and ((out == 0) | (out == 1)).all()
    iid = ta.functional.mask_along_axis_iid(torch.ones(2, 1, 10, 12), 4, 5.0, 2).numpy()
    assert ((iid == 5.0) | (iid == 1.0)).all()


@pytest.mark.parametrize("name", sorted(small_models(ta.models)))
def test_small_models_match_torchaudio(name):
    make, _ = small_models(ta.models)[name]
    model = make().eval()
    assert list(model.state_dict().keys()) == REF[f"{name}_keys"].tolist()
    shapes = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    model.load_state_dict({k: torch.tensor(v) for k, v in model_weights(shapes).items()})
    out = model(torch.tensor(REF[f"{name}_input"])).detach().numpy()
    np.testing.assert_allclose(out, REF[f"{name}_output"], rtol=1e-4, atol=1e-4)


def test_errors():
    w = torch.tensor(INPUTS["short"])
    with pytest.raises(ValueError, match="Invalid resampling method"):
        ta.functional.resample(w, 8000, 4000, resampling_method="cubic")
    with pytest.raises(ValueError, match="same size"):
        ta.functional.lfilter(w, torch.tensor([1.0, 0.5]), torch.tensor([1.0, 0.5, 0.1]))
    with pytest.raises(ValueError):
        ta.transforms.Vol(-1.0)
    with pytest.raises(Exception, match="Invalid window type"):
        ta.compliance.kaldi.fbank(w[:1], window_type="triangle")
    with pytest.raises(NotImplementedError, match="compute_kaldi_pitch"):
        ta.functional.compute_kaldi_pitch(w, SR)
    # both method names of torchaudio 0.12 and of later releases are accepted and agree
    np.testing.assert_array_equal(
        ta.functional.resample(w, 8000, 6000, resampling_method="kaiser_window").numpy(),
        ta.functional.resample(w, 8000, 6000, resampling_method="sinc_interp_kaiser").numpy())


def test_lfilter_numpy_loop_matches_scipy():
    # the loop used when scipy is absent, against scipy.signal.lfilter (the reference for the recursion)
    signal = pytest.importorskip("scipy.signal")
    from mindtorch.torchaudio.functional.filtering import _iir_loop

    x = np.random.default_rng(3).standard_normal((2, 3, 200))
    a = np.array([[1.0, -0.5, 0.1], [1.0, 0.2, 0.0], [1.0, -1.2, 0.5]])
    ref = np.stack([signal.lfilter([1.0], a[c], x[:, c], axis=-1) for c in range(3)], 1)
    np.testing.assert_allclose(_iir_loop(x, a), ref, rtol=1e-10, atol=1e-12)


def test_dither_is_small_random_noise():
    torch.manual_seed(0)
    w = torch.tensor(INPUTS["short"])
    for kind in ("TPDF", "RPDF"):
        d = (ta.functional.dither(w, kind) - w).numpy()
        assert d.shape == (2, 600) and 0 < np.abs(d).max() < 1e-3  # about one 16-bit step
    # torchaudio's GPDF adds a sum of uniforms of about unit scale (real torchaudio measured max |noise| ~1.2)
    g = (ta.functional.dither(w, "GPDF") - w).numpy()
    assert np.isfinite(g).all() and 0.05 < np.abs(g).max() < 5
    pcm = w[:1] * 32768  # Kaldi works on int16-scaled samples: dither=1.0 is noise of one quantisation step
    plain = ta.compliance.kaldi.fbank(pcm, sample_frequency=SR, dither=0.0).numpy()
    noisy = ta.compliance.kaldi.fbank(pcm, sample_frequency=SR, dither=1.0).numpy()
    assert plain.shape == noisy.shape and not np.array_equal(plain, noisy)
    np.testing.assert_allclose(noisy, plain, atol=0.5)


def test_iid_masks_follow_torchaudio_012():
    """0.12 masks independently only for 4-D (batch, channel, freq, time) input: 3-D input shares one mask across
    its channels, 2-D input is one spectrogram (2.x masks 3-D input per channel and refuses 2-D)."""
    o = (ta.transforms.TimeMasking(30, iid_masks=True)(torch.ones(2, 40, 100), 7.5).numpy() == 7.5)
    assert (o[0] == o[1]).all()
    assert tuple(ta.transforms.FrequencyMasking(10, iid_masks=True)(torch.ones(40, 100)).shape) == (40, 100)
    torch.manual_seed(0)
    o4 = ta.transforms.TimeMasking(30, iid_masks=True)(torch.ones(8, 2, 40, 100), 7.5).numpy() == 7.5
    assert not all((o4[i] == o4[0]).all() for i in range(8))  # independent across the batch


def test_griffinlim_random_init():
    """rand_init=True (the default) draws a complex random start, as torch.rand(..., dtype=complex) does."""
    torch.manual_seed(0)
    out = ta.transforms.GriffinLim(n_fft=256, n_iter=4)(torch.rand(2, 129, 20))
    assert tuple(out.shape)[0] == 2 and out.dtype == torch.float32 and bool(torch.isfinite(out).all())
