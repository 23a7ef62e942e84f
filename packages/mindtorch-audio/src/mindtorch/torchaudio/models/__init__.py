"""torchaudio.models: the small self-contained models (Wav2Letter). See README for what is not provided."""
from .wav2letter import Wav2Letter  # noqa: F401
