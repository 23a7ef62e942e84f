"""Reference cases shared by tests/fixtures/make_fixtures.py (run with real torch + torchaudio) and the tests
(run with mindtorch): each case maps (torch, torchaudio, inputs) to a tensor or a tuple of tensors.

torchaudio 0.12 vs the 2.x used to make the fixtures: `resample`'s method names ('sinc_interpolation' /
'kaiser_window' in 0.12, 'sinc_interp_hann' / 'sinc_interp_kaiser' in 2.x) — the `HANN`/`KAISER` arguments carry
the right name for each side; everything else used here computes the same numbers in both.
"""
import numpy as np

SR = 8000


def make_inputs() -> dict:
    rng = np.random.default_rng(1234)
    t = np.arange(4000) / SR
    wave = np.stack([0.4 * np.sin(2 * np.pi * 440 * t) + 0.05 * rng.standard_normal(t.size),
                     0.3 * np.sin(2 * np.pi * 1000 * t + 0.3) * np.linspace(0, 1, t.size)]).astype(np.float32)
    spec = np.abs(rng.standard_normal((2, 65, 40))).astype(np.float32) ** 2 + 1e-3
    return {"wave": wave, "spec": spec, "short": wave[:, :600].copy()}


def _ri(torch, c):
    """(..., 2) real/imag layout of a complex tensor (torch.view_as_real without needing it)."""
    return torch.stack([torch.real(c), torch.imag(c)], -1)


def cases(torch, ta, inp, hann: str, kaiser: str) -> dict:
    F, T = ta.functional, ta.transforms
    K = ta.compliance.kaldi
    w = torch.tensor(inp["wave"])
    s = torch.tensor(inp["spec"])
    sh = torch.tensor(inp["short"])
    win = torch.hann_window(128)
    c = {
        "spectrogram_p2": lambda: F.spectrogram(w, 0, win, 128, 32, 128, 2.0, False),
        "spectrogram_p1_norm_pad": lambda: F.spectrogram(w, 5, win, 128, 32, 128, 1.0, True),
        "spectrogram_nocenter": lambda: F.spectrogram(w, 0, win, 128, 40, 128, 2.0, False, center=False),
        "inverse_spectrogram": lambda: F.inverse_spectrogram(
            F.spectrogram(w, 0, win, 128, 32, 128, None, False), 4000, 0, win, 128, 32, 128, False),
        "griffinlim": lambda: F.griffinlim(s[:, :, :20], torch.hann_window(128), 128, 32, 128, 2.0, 4, 0.99, None,
                                           False),
        "amplitude_to_DB": lambda: F.amplitude_to_DB(s, 10.0, 1e-10, 0.0, None),
        "amplitude_to_DB_top": lambda: F.amplitude_to_DB(s, 20.0, 1e-5, 1.0, 10.0),
        "DB_to_amplitude": lambda: F.DB_to_amplitude(F.amplitude_to_DB(s, 10.0, 1e-10, 0.0, None), 1.0, 0.5),
        "melscale_htk": lambda: F.melscale_fbanks(65, 0.0, 4000.0, 20, SR),
        "melscale_slaney": lambda: F.melscale_fbanks(65, 50.0, 3500.0, 16, SR, norm="slaney", mel_scale="slaney"),
        "melscale_htk_slaneynorm": lambda: F.melscale_fbanks(201, 0.0, 8000.0, 40, 16000, norm="slaney"),
        "linear_fbanks": lambda: F.linear_fbanks(65, 100.0, 3000.0, 12, SR),
        "create_dct_ortho": lambda: F.create_dct(13, 40, "ortho"),
        "create_dct_none": lambda: F.create_dct(10, 20, None),
        "mu_law_encoding": lambda: F.mu_law_encoding(w, 256),
        "mu_law_decoding": lambda: F.mu_law_decoding(F.mu_law_encoding(w, 256), 256),
        "resample_down": lambda: F.resample(w, SR, 6000),
        "resample_up_kaiser": lambda: F.resample(sh, 8000, 11025, resampling_method=kaiser, beta=8.0),
        "resample_hann_w": lambda: F.resample(w, 8000, 16000, lowpass_filter_width=4, rolloff=0.9,
                                              resampling_method=hann),
        "lfilter": lambda: F.lfilter(w, torch.tensor([1.0, -0.9, 0.2]), torch.tensor([0.3, 0.2, 0.1])),
        "lfilter_noclamp_2d": lambda: F.lfilter(w * 3, torch.tensor([[1.0, -0.5], [1.0, 0.3]]),
                                                torch.tensor([[1.0, 0.5], [0.7, 0.1]]), clamp=False),
        "filtfilt": lambda: F.filtfilt(w, torch.tensor([1.0, -0.9, 0.2]), torch.tensor([0.3, 0.2, 0.1])),
        "biquad": lambda: F.biquad(w, 0.4, 0.2, 0.1, 1.0, -0.3, 0.1),
        "lowpass_biquad": lambda: F.lowpass_biquad(w, SR, 1000.0),
        "highpass_biquad": lambda: F.highpass_biquad(w, SR, 800.0, 0.5),
        "bandpass_biquad": lambda: F.bandpass_biquad(w, SR, 1000.0, 0.8, True),
        "bandreject_biquad": lambda: F.bandreject_biquad(w, SR, 440.0),
        "allpass_biquad": lambda: F.allpass_biquad(w, SR, 600.0),
        "equalizer_biquad": lambda: F.equalizer_biquad(w, SR, 500.0, 3.0),
        "band_biquad": lambda: F.band_biquad(w, SR, 700.0, 0.7, True),
        "treble_biquad": lambda: F.treble_biquad(w, SR, 4.0),
        "bass_biquad": lambda: F.bass_biquad(w, SR, -3.0),
        "gain": lambda: F.gain(w, 3.5),
        "preemphasis": lambda: F.preemphasis(w, 0.95),
        "deemphasis": lambda: F.deemphasis(w, 0.95),
        "detect_pitch": lambda: F.detect_pitch_frequency(w, SR),
        "compute_deltas": lambda: F.compute_deltas(s, 5),
        "compute_deltas_w7": lambda: F.compute_deltas(s[0], 7),
        "spectral_centroid": lambda: F.spectral_centroid(w, SR, 0, win, 128, 32, 128),
        "sliding_window_cmn": lambda: F.sliding_window_cmn(s.transpose(-1, -2), 20, 5, False, False),
        "sliding_window_cmn_center_var": lambda: F.sliding_window_cmn(s.transpose(-1, -2), 16, 5, True, True),
        "vad": lambda: F.vad(torch.cat([torch.zeros(1, 2000), w[:1]], 1), SR),
        "phase_vocoder": lambda: _ri(torch, F.phase_vocoder(
            F.spectrogram(w, 0, win, 128, 32, 128, None, False), 1.3,
            torch.linspace(0, 3.14159 * 32, 65)[..., None])),
        "pitch_shift": lambda: F.pitch_shift(w, 200, 3, n_fft=256),  # small rate: small resampling kernel
        "overdrive": lambda: F.overdrive(w, 10.0, 20.0),
        "contrast": lambda: F.contrast(w, 50.0),
        "dcshift": lambda: F.dcshift(w, 0.2, 0.05),
        "riaa_biquad": lambda: F.riaa_biquad(w, 44100),
        "deemph_biquad": lambda: F.deemph_biquad(w, 44100),
        "spectrogram_complex": lambda: _ri(torch, F.spectrogram(w, 0, win, 128, 32, 128, None, False)),
        "spectrogram_norm_frame_length": lambda: F.spectrogram(w, 0, win, 128, 32, 128, 2.0, "frame_length"),
        "spectrogram_onesided_false": lambda: F.spectrogram(w[0], 0, win, 128, 64, 128, 2.0, False,
                                                            onesided=False),
        "griffinlim_momentum0": lambda: F.griffinlim(s[:1, :, :12], torch.hann_window(128), 128, 32, 128, 1.0, 3,
                                                     0.0, 352, False),
        "amplitude_to_DB_4d": lambda: F.amplitude_to_DB(s.reshape(2, 1, 65, 40), 10.0, 1e-10, 0.0, 30.0),
        "convolve": lambda: F.convolve(w, w[:, :50]),
        "fftconvolve_same": lambda: F.fftconvolve(w, w[:, :51], mode="same"),
        "mu_law_encoding_8": lambda: F.mu_law_encoding(w * 2, 8),
        # kaldi.resample_waveform (0.12) was removed in 2.x; it was F.resample with Kaldi's defaults
        "kaldi_resample_waveform": lambda: (K.resample_waveform(w, 8000, 6000) if hasattr(K, "resample_waveform")
                                            else F.resample(w, 8000, 6000, lowpass_filter_width=6, rolloff=0.99)),
        "T_Spectrogram_complex": lambda: _ri(torch, T.Spectrogram(n_fft=64, power=None)(sh)),
        "T_Spectrogram_batched": lambda: T.Spectrogram(n_fft=64, hop_length=16, pad=3)(w.reshape(1, 2, 4000)),
        "T_MelScale_slaney": lambda: T.MelScale(12, SR, n_stft=65, norm="slaney", mel_scale="slaney")(s),
        "T_MFCC_ortho_none": lambda: T.MFCC(SR, n_mfcc=8, norm=None, melkwargs={"n_fft": 128, "n_mels": 16})(sh),
        "T_AmplitudeToDB_mag": lambda: T.AmplitudeToDB("magnitude", None)(s),
        "T_Resample_kaiser": lambda: T.Resample(8000, 4410, resampling_method=kaiser)(sh),
        # transforms
        "T_Spectrogram": lambda: T.Spectrogram(n_fft=128, hop_length=40)(w),
        "T_MelSpectrogram": lambda: T.MelSpectrogram(SR, n_fft=128, hop_length=32, n_mels=20)(w),
        "T_MelSpectrogram_slaney": lambda: T.MelSpectrogram(SR, n_fft=256, n_mels=24, norm="slaney",
                                                            mel_scale="slaney", power=1.0)(w),
        "T_MFCC": lambda: T.MFCC(SR, n_mfcc=13, melkwargs={"n_fft": 128, "n_mels": 20, "hop_length": 32})(w),
        "T_MFCC_log": lambda: T.MFCC(SR, n_mfcc=10, log_mels=True, melkwargs={"n_fft": 128, "n_mels": 20})(w),
        "T_LFCC": lambda: T.LFCC(SR, n_filter=30, n_lfcc=12, speckwargs={"n_fft": 128, "hop_length": 32})(w),
        "T_AmplitudeToDB": lambda: T.AmplitudeToDB("power", 80.0)(s),
        "T_InverseMelScale": lambda: T.InverseMelScale(65, 20, SR, driver="gelsd")(
            T.MelScale(20, SR, n_stft=65)(s)),
        "T_Resample": lambda: T.Resample(SR, 5000)(w),
        "T_Fade_lin": lambda: T.Fade(500, 800, "linear")(w),
        "T_Fade_log": lambda: T.Fade(300, 300, "logarithmic")(w),
        "T_Fade_qs": lambda: T.Fade(300, 200, "quarter_sine")(w),
        "T_Fade_hs": lambda: T.Fade(300, 200, "half_sine")(w),
        "T_Fade_exp": lambda: T.Fade(300, 200, "exponential")(w),
        "T_Vol_amp": lambda: T.Vol(0.5)(w),
        "T_Vol_db": lambda: T.Vol(-6.0, "db")(w),
        "T_Vol_power": lambda: T.Vol(2.0, "power")(w),
        "T_SpectralCentroid": lambda: T.SpectralCentroid(SR, n_fft=128)(w),
        "T_TimeStretch": lambda: _ri(torch, T.TimeStretch(32, 65, 0.8)(
            T.Spectrogram(n_fft=128, hop_length=32, power=None)(w))),
        "T_GriffinLim": lambda: T.GriffinLim(n_fft=128, n_iter=3, rand_init=False)(s),
        "T_InverseSpectrogram": lambda: T.InverseSpectrogram(n_fft=128)(
            T.Spectrogram(n_fft=128, power=None)(w), 4000),
        "T_ComputeDeltas": lambda: T.ComputeDeltas(win_length=3)(s),
        "T_SlidingWindowCmn": lambda: T.SlidingWindowCmn(cmn_window=10, norm_vars=True)(s.transpose(-1, -2)),
        "T_MuLaw": lambda: T.MuLawDecoding(64)(T.MuLawEncoding(64)(w)),
        "T_PitchShift": lambda: T.PitchShift(160, -2, n_fft=256)(w),
        "T_Vad": lambda: T.Vad(SR)(torch.cat([torch.zeros(1, 2000), w[:1]], 1)),
        # compliance.kaldi
        "kaldi_fbank": lambda: K.fbank(w[:1], num_mel_bins=23, sample_frequency=SR, dither=0.0),
        "kaldi_fbank_opts": lambda: K.fbank(w[:1], num_mel_bins=15, sample_frequency=SR, dither=0.0,
                                            snip_edges=False, use_energy=True, window_type="hamming",
                                            round_to_power_of_two=False, htk_compat=True, use_log_fbank=True,
                                            preemphasis_coefficient=0.9, low_freq=50, high_freq=-200),
        "kaldi_fbank_power1": lambda: K.fbank(w[1:], num_mel_bins=10, sample_frequency=SR, dither=0.0,
                                              use_power=False, window_type="hanning", remove_dc_offset=False,
                                              subtract_mean=True, frame_length=20, frame_shift=5),
        "kaldi_mfcc": lambda: K.mfcc(w[:1], sample_frequency=SR, dither=0.0, num_mel_bins=23),
        "kaldi_mfcc_opts": lambda: K.mfcc(w[1:], sample_frequency=SR, dither=0.0, num_mel_bins=20, num_ceps=10,
                                          use_energy=True, htk_compat=True, cepstral_lifter=0.0,
                                          window_type="blackman", energy_floor=1.0, raw_energy=False),
        "kaldi_spectrogram": lambda: K.spectrogram(w[:1], sample_frequency=SR, dither=0.0),
        "kaldi_spectrogram_opts": lambda: K.spectrogram(w[1:], sample_frequency=SR, dither=0.0, snip_edges=False,
                                                        window_type="rectangular", raw_energy=False,
                                                        energy_floor=0.5),
    }
    return c


def module_specs(T) -> dict:
    """Transforms whose state_dict keys (buffers) must match torchaudio's."""
    return {
        "Spectrogram": lambda: T.Spectrogram(n_fft=64),
        "InverseSpectrogram": lambda: T.InverseSpectrogram(n_fft=64),
        "GriffinLim": lambda: T.GriffinLim(n_fft=64),
        "MelScale": lambda: T.MelScale(n_mels=8, sample_rate=SR, n_stft=33),
        "InverseMelScale": lambda: T.InverseMelScale(n_stft=33, n_mels=8, sample_rate=SR),
        "MelSpectrogram": lambda: T.MelSpectrogram(SR, n_fft=64, n_mels=8),
        "MFCC": lambda: T.MFCC(SR, n_mfcc=5, melkwargs={"n_fft": 64, "n_mels": 8}),
        "LFCC": lambda: T.LFCC(SR, n_filter=8, n_lfcc=5, speckwargs={"n_fft": 64}),
        "Resample": lambda: T.Resample(SR, 6000),
        "SpectralCentroid": lambda: T.SpectralCentroid(SR, n_fft=64),
        "AmplitudeToDB": lambda: T.AmplitudeToDB(),
        "TimeStretch": lambda: T.TimeStretch(n_freq=33),
    }


def grad_cases(torch, ta, inp) -> dict:
    """Gradients w.r.t. the waveform (and filter coefficients) through transforms."""
    T, F = ta.transforms, ta.functional

    def mel():
        x = torch.tensor(inp["short"], requires_grad=True)
        T.MelSpectrogram(SR, n_fft=128, hop_length=32, n_mels=16)(x).log1p().sum().backward()
        return x.grad

    def mfcc():
        x = torch.tensor(inp["short"], requires_grad=True)
        T.MFCC(SR, n_mfcc=8, melkwargs={"n_fft": 128, "n_mels": 16})(x).pow(2).mean().backward()
        return x.grad

    def lfilter():
        x = torch.tensor(inp["short"], requires_grad=True)
        a = torch.tensor([1.0, -0.6, 0.2], requires_grad=True)
        b = torch.tensor([0.4, 0.3, 0.1], requires_grad=True)
        F.lfilter(x, a, b, clamp=False).pow(2).sum().backward()
        return torch.cat([x.grad.reshape(-1), a.grad, b.grad])

    def resample():
        x = torch.tensor(inp["short"], requires_grad=True)
        F.resample(x, 8000, 6000).pow(2).sum().backward()
        return x.grad

    # |z|'s gradient is z / |z|: ill-conditioned for bins with tiny |z| (float32 DFT rounding turns it), so the
    # magnitude cases use the noisy first channel, whose bins are all well above rounding noise
    def spec_p1():
        x = torch.tensor(inp["short"][:1], requires_grad=True)
        silent = torch.cat([torch.zeros(1, 64), x], 1)  # exact zeros: |z| at z == 0 has a zero gradient
        F.spectrogram(silent, 4, torch.hann_window(64), 64, 16, 64, 1.0, True).sum().backward()
        return x.grad

    def spec_complex():
        x = torch.tensor(inp["short"][:1], requires_grad=True)
        c = F.spectrogram(x, 0, torch.hann_window(64), 64, 16, 64, None, True)
        (torch.real(c).pow(2).sum() + c.abs().sum()).backward()
        return x.grad

    return {"grad_spec_p1": spec_p1, "grad_spec_complex": spec_complex, "grad_mel": mel, "grad_mfcc": mfcc,
            "grad_lfilter": lfilter, "grad_resample": resample}


def model_weights(state_dict_shapes: dict) -> dict:
    """Deterministic model weights, by sorted key (small scale keeps the 11 layers from saturating)."""
    rng = np.random.default_rng(7)
    out = {}
    for k in sorted(state_dict_shapes):
        shape = tuple(state_dict_shapes[k])
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        out[k] = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)
    return out


def small_models(models) -> dict:
    """Model constructors and input shapes for the model reference cases."""
    return {
        "wav2letter": (lambda: models.Wav2Letter(num_classes=5, input_type="mfcc", num_features=13), (2, 13, 40)),
        "deepspeech": (lambda: models.DeepSpeech(n_feature=13, n_hidden=32, n_class=5), (2, 1, 10, 13)),
        "convtasnet": (lambda: models.ConvTasNet(num_sources=2, enc_kernel_size=8, enc_num_feats=16,
                                                 msk_kernel_size=3, msk_num_feats=8, msk_num_hidden_feats=16,
                                                 msk_num_layers=2, msk_num_stacks=1), (1, 1, 400)),
    }
