"""SPEECHCOMMANDS (v0.01 / v0.02), with the training/validation/testing subsets of the official lists."""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional, Tuple, Union

from mindtorch.torch import Tensor

from ..backend.soundfile_backend import load
from ._common import Dataset, fetch, missing

FOLDER_IN_ARCHIVE = "SpeechCommands"
URL = "speech_commands_v0.02"
HASH_DIVIDER = "_nohash_"
EXCEPT_FOLDER = "_background_noise_"
_CHECKSUMS = {
    "http://download.tensorflow.org/data/speech_commands_v0.01.tar.gz":
        "743935421bb51cccdb6bdd152e04c5c70274e935c82119ad7faeec31780d811d",
    "http://download.tensorflow.org/data/speech_commands_v0.02.tar.gz":
        "af14739ee7dc311471de98f5f9d2c9191b18aedfe957f4a6ff791c709868ff58",
}


def _load_list(root: str, *filenames: str) -> List[str]:
    output = []
    for filename in filenames:
        filepath = os.path.join(root, filename)
        if not os.path.isfile(filepath):
            raise RuntimeError(f"SPEECHCOMMANDS: subset list '{filepath}' is missing")
        with open(filepath) as fileobj:
            output += [os.path.normpath(os.path.join(root, line.strip())) for line in fileobj if line.strip()]
    return output


def load_speechcommands_item(filepath: str, path: str) -> Tuple[Tensor, int, str, str, int]:
    relpath = os.path.relpath(filepath, path)
    label, filename = os.path.split(relpath)
    speaker, _ = os.path.splitext(filename)
    speaker_id, utterance_number = speaker.split(HASH_DIVIDER)
    waveform, sample_rate = load(filepath)
    return waveform, sample_rate, label, speaker_id, int(utterance_number)


class SPEECHCOMMANDS(Dataset):
    """root/SpeechCommands/speech_commands_v0.0X/<label>/<speaker>_nohash_<n>.wav; items
    (waveform, sample_rate, label, speaker_id, utterance_number). subset: None, 'training', 'validation',
    'testing' (validation_list.txt / testing_list.txt; training is everything else)."""

    def __init__(self, root: Union[str, Path], url: str = URL, folder_in_archive: str = FOLDER_IN_ARCHIVE,
                 download: bool = False, subset: Optional[str] = None) -> None:
        if subset not in (None, "training", "validation", "testing"):
            raise ValueError("When `subset` is not None, it must be one of ['training', 'validation', 'testing'].")
        if url in ("speech_commands_v0.01", "speech_commands_v0.02"):
            url = "http://download.tensorflow.org/data/" + url + ".tar.gz"
        root = os.fspath(root)
        basename = os.path.basename(url)
        archive = os.path.join(root, basename)
        basename = basename.rsplit(".", 2)[0]
        folder_in_archive = os.path.join(folder_in_archive, basename)
        self._path = os.path.join(root, folder_in_archive)
        if download and not os.path.isdir(self._path):
            fetch(url, archive, _CHECKSUMS.get(url), self._path)
        if not os.path.isdir(self._path):
            raise missing("SPEECHCOMMANDS", self._path)
        if subset == "validation":
            self._walker = _load_list(self._path, "validation_list.txt")
        elif subset == "testing":
            self._walker = _load_list(self._path, "testing_list.txt")
        else:
            walker = sorted(str(p) for p in Path(self._path).glob("*/*.wav"))
            walker = [w for w in walker if HASH_DIVIDER in w and EXCEPT_FOLDER not in w]
            if subset == "training":
                excludes = set(_load_list(self._path, "validation_list.txt", "testing_list.txt"))
                walker = [w for w in walker if os.path.normpath(w) not in excludes]
            self._walker = walker

    def __getitem__(self, n: int) -> Tuple[Tensor, int, str, str, int]:
        return load_speechcommands_item(self._walker[n], self._path)

    def __len__(self) -> int:
        return len(self._walker)
