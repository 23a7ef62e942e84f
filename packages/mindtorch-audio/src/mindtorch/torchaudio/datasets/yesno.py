"""YESNO: 60 recordings of 'yes'/'no' sequences (torchaudio 0.12's layout and items)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Tuple, Union

from mindtorch.torch import Tensor

from ..backend.soundfile_backend import load
from ._common import Dataset, fetch, missing

_RELEASE_CONFIGS = {
    "release1": {
        "folder_in_archive": "waves_yesno",
        "url": "http://www.openslr.org/resources/1/waves_yesno.tar.gz",
        "checksum": "c3f49e0cca421f96b75b41640749167b52118f232498667ca7a5f9416aef8e73",
    }
}


class YESNO(Dataset):
    """root/waves_yesno/*.wav, items (waveform, sample_rate, labels: List[int] from the file name)."""

    def __init__(self, root: Union[str, Path], url: str = _RELEASE_CONFIGS["release1"]["url"],
                 folder_in_archive: str = _RELEASE_CONFIGS["release1"]["folder_in_archive"],
                 download: bool = False) -> None:
        root = os.fspath(root)
        self._path = os.path.join(root, folder_in_archive)
        if download and not os.path.isdir(self._path):
            checksum = _RELEASE_CONFIGS["release1"]["checksum"] if url == _RELEASE_CONFIGS["release1"]["url"] else None
            fetch(url, os.path.join(root, os.path.basename(url)), checksum, root)
        if not os.path.isdir(self._path):
            raise missing("YESNO", self._path)
        self._walker = sorted(str(p.stem) for p in Path(self._path).glob("*.wav"))

    def _load_item(self, fileid: str, path: str) -> Tuple[Tensor, int, List[int]]:
        labels = [int(c) for c in fileid.split("_")]
        waveform, sample_rate = load(os.path.join(path, fileid + ".wav"))
        return waveform, sample_rate, labels

    def __getitem__(self, n: int) -> Tuple[Tensor, int, List[int]]:
        return self._load_item(self._walker[n], self._path)

    def __len__(self) -> int:
        return len(self._walker)
