"""LJSPEECH: <root>/LJSpeech-1.1/metadata.csv ('|'-separated) and wavs/<id>.wav."""
from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Tuple, Union

from mindtorch.torch import Tensor

from ..backend.soundfile_backend import load
from ._common import Dataset, fetch, missing

_RELEASE_CONFIGS = {
    "release1": {
        "folder_in_archive": "wavs",
        "url": "https://data.keithito.com/data/speech/LJSpeech-1.1.tar.bz2",
        "checksum": "be1a30453f28eb8dd26af4101ae40cbf2c50413b1bb21936cbcdc6fae3de8aa5",
    }
}


class LJSPEECH(Dataset):
    """Items (waveform, sample_rate, transcript, normalized_transcript)."""

    def __init__(self, root: Union[str, Path], url: str = _RELEASE_CONFIGS["release1"]["url"],
                 folder_in_archive: str = _RELEASE_CONFIGS["release1"]["folder_in_archive"],
                 download: bool = False) -> None:
        root = os.fspath(root)
        basename = os.path.basename(url)
        archive = os.path.join(root, basename)
        basename = Path(basename.split(".tar.bz2")[0])
        folder_in_archive = basename / folder_in_archive
        self._path = os.path.join(root, folder_in_archive)
        self._metadata_path = os.path.join(root, basename, "metadata.csv")
        if download and not os.path.exists(self._path):
            checksum = _RELEASE_CONFIGS["release1"]["checksum"] if url == _RELEASE_CONFIGS["release1"]["url"] else None
            fetch(url, archive, checksum, root)
        if not os.path.isfile(self._metadata_path):
            raise missing("LJSPEECH", self._metadata_path)
        with open(self._metadata_path, "r", newline="", encoding="utf-8") as metadata:
            self._flist = list(csv.reader(metadata, delimiter="|", quoting=csv.QUOTE_NONE))

    def __getitem__(self, n: int) -> Tuple[Tensor, int, str, str]:
        line = self._flist[n]
        if len(line) != 3:
            raise RuntimeError(f"LJSPEECH: line {n + 1} of '{self._metadata_path}' does not have 3 '|'-separated "
                               f"fields: {line!r}")
        fileid, transcript, normalized_transcript = line
        waveform, sample_rate = load(os.path.join(self._path, fileid + ".wav"))
        return waveform, sample_rate, transcript, normalized_transcript

    def __len__(self) -> int:
        return len(self._flist)
