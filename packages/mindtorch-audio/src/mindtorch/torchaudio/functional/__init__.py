"""torchaudio.functional (torchaudio 0.12's names; a few later additions such as preemphasis are included)."""
from .filtering import (  # noqa: F401
    allpass_biquad,
    band_biquad,
    bandpass_biquad,
    bandreject_biquad,
    bass_biquad,
    biquad,
    contrast,
    dcshift,
    deemph_biquad,
    dither,
    equalizer_biquad,
    filtfilt,
    flanger,
    gain,
    highpass_biquad,
    lfilter,
    lowpass_biquad,
    overdrive,
    phaser,
    riaa_biquad,
    treble_biquad,
    vad,
)
from .functional import (  # noqa: F401
    DB_to_amplitude,
    add_noise,
    amplitude_to_DB,
    compute_deltas,
    convolve,
    create_dct,
    deemphasis,
    detect_pitch_frequency,
    edit_distance,
    fftconvolve,
    griffinlim,
    inverse_spectrogram,
    linear_fbanks,
    mask_along_axis,
    mask_along_axis_iid,
    melscale_fbanks,
    mu_law_decoding,
    mu_law_encoding,
    phase_vocoder,
    pitch_shift,
    preemphasis,
    resample,
    sliding_window_cmn,
    spectral_centroid,
    spectrogram,
    speed,
)


def compute_kaldi_pitch(*args, **kwargs):  # noqa: ANN002,ANN003,ANN201
    """torchaudio 0.12's compute_kaldi_pitch ran Kaldi's C++ code; mindtorch-audio has no native extension."""
    raise NotImplementedError("torchaudio.functional.compute_kaldi_pitch needs Kaldi's native code, which "
                              "mindtorch-audio does not ship; use detect_pitch_frequency instead")


def rnnt_loss(*args, **kwargs):  # noqa: ANN002,ANN003,ANN201
    """torchaudio's RNN-T loss is a native (C++/CUDA) kernel; not provided."""
    raise NotImplementedError("torchaudio.functional.rnnt_loss is a native kernel that mindtorch-audio does not "
                              "provide; compute the loss with mindtorch.torch ops or run it in real torchaudio")


def apply_codec(*args, **kwargs):  # noqa: ANN002,ANN003,ANN201
    """Codec round-trips needed sox."""
    raise NotImplementedError("torchaudio.functional.apply_codec needs the sox backend; mindtorch-audio reads "
                              "and writes audio through libsndfile only (torchaudio.save/load with a format)")
