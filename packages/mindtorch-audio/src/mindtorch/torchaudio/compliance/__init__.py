"""torchaudio.compliance: Kaldi-compatible feature extraction."""
from . import kaldi  # noqa: F401
