"""mindtorch.torchaudio: torchaudio 0.12's API (the release paired with torch 1.12) on mindtorch."""
from . import (  # noqa: F401,E402
    backend,  # noqa: F401
    compliance,
    datasets,
    functional,
    models,
    transforms,
)
from .backend import get_audio_backend, list_audio_backends, set_audio_backend  # noqa: F401
from .backend.common import AudioMetaData  # noqa: F401
from .backend.soundfile_backend import info, load, save  # noqa: F401

__version__ = "0.12.1"
