"""torchaudio.backend: one backend here, libsndfile through `soundfile`."""
from . import common, soundfile_backend  # noqa: F401

_backend = "soundfile"


def list_audio_backends() -> list:
    return ["soundfile"]


def get_audio_backend() -> str:
    return _backend


def set_audio_backend(backend: str) -> None:
    """torchaudio.set_audio_backend: 'soundfile' (and None) are accepted; sox/ffmpeg are not available."""
    global _backend
    if backend not in (None, "soundfile"):
        raise RuntimeError(f"Backend '{backend}' is not one of available backends: ['soundfile'] "
                           "(mindtorch-audio reads and writes audio through libsndfile)")
    _backend = "soundfile"
