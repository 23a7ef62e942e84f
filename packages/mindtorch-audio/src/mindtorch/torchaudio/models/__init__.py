"""torchaudio.models: the small self-contained models. See README for what is not provided."""
from .conv_tasnet import ConvTasNet, conv_tasnet_base  # noqa: F401
from .deepspeech import DeepSpeech  # noqa: F401
from .wav2letter import Wav2Letter  # noqa: F401
