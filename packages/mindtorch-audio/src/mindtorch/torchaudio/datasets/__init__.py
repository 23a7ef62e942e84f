"""torchaudio.datasets: YESNO, SPEECHCOMMANDS, LIBRISPEECH, LJSPEECH, VCTK_092 (torchaudio 0.12's items)."""
from . import utils  # noqa: F401
from .librispeech import LIBRISPEECH  # noqa: F401
from .ljspeech import LJSPEECH  # noqa: F401
from .speechcommands import SPEECHCOMMANDS  # noqa: F401
from .vctk import VCTK_092  # noqa: F401
from .yesno import YESNO  # noqa: F401
