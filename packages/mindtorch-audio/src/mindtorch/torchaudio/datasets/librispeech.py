"""LIBRISPEECH: <root>/LibriSpeech/<split>/<speaker>/<chapter>/<speaker>-<chapter>-<utt>.flac + .trans.txt."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Tuple, Union

from mindtorch.torch import Tensor

from ..backend.soundfile_backend import load
from ._common import Dataset, fetch, missing

URL = "train-clean-100"
FOLDER_IN_ARCHIVE = "LibriSpeech"
_CHECKSUMS = {
    "http://www.openslr.org/resources/12/dev-clean.tar.gz":
        "76f87d090650617fca0cac8f88b9416e0ebf80350acb97b343a85fa903728ab3",
    "http://www.openslr.org/resources/12/dev-other.tar.gz":
        "12661c48e8c3fe1de2c1caa4c3e135193bfb1811584f11f569dd12645aa84365",
    "http://www.openslr.org/resources/12/test-clean.tar.gz":
        "39fde525e59672dc6d1551919b1478f724438a95aa55f874b576be21967e6c23",
    "http://www.openslr.org/resources/12/test-other.tar.gz":
        "d09c181bba5cf717b3dee7d4d592af11a3ee3a09e08ae025c5506f6ebe961c29",
    "http://www.openslr.org/resources/12/train-clean-100.tar.gz":
        "d4ddd1d5a6ab303066f14971d768ee43278a5f2a0aa43dc716b0e64ecbbbf6e2",
    "http://www.openslr.org/resources/12/train-clean-360.tar.gz":
        "146a56496217e96c14334a160df97fffedd6e0a04e66b9c5af0d40be3c792ecf",
    "http://www.openslr.org/resources/12/train-other-500.tar.gz":
        "ddb22f27f96ec163645d53215559df6aa36515f26e01dd70798188350adcb6d2",
}
_SPLITS = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100", "train-clean-360",
           "train-other-500")


def load_librispeech_item(fileid: str, path: str, ext_audio: str, ext_txt: str
                          ) -> Tuple[Tensor, int, str, int, int, int]:
    speaker_id, chapter_id, utterance_id = fileid.split("-")
    file_text = os.path.join(path, speaker_id, chapter_id, speaker_id + "-" + chapter_id + ext_txt)
    file_audio = os.path.join(path, speaker_id, chapter_id, fileid + ext_audio)
    waveform, sample_rate = load(file_audio)
    with open(file_text) as ft:
        for line in ft:
            fileid_text, transcript = line.strip().split(" ", 1)
            if fileid == fileid_text:
                break
        else:
            raise FileNotFoundError(f"Translation not found for {fileid} in '{file_text}'")
    return waveform, sample_rate, transcript, int(speaker_id), int(chapter_id), int(utterance_id)


class LIBRISPEECH(Dataset):
    """Items (waveform, sample_rate, transcript, speaker_id, chapter_id, utterance_id)."""

    _ext_txt = ".trans.txt"
    _ext_audio = ".flac"

    def __init__(self, root: Union[str, Path], url: str = URL, folder_in_archive: str = FOLDER_IN_ARCHIVE,
                 download: bool = False) -> None:
        root = os.fspath(root)
        if url in _SPLITS:
            url = "http://www.openslr.org/resources/12/" + url + ".tar.gz"
        basename = os.path.basename(url)
        archive = os.path.join(root, basename)
        basename = basename.split(".")[0]
        folder_in_archive = os.path.join(folder_in_archive, basename)
        self._path = os.path.join(root, folder_in_archive)
        if download and not os.path.isdir(self._path):
            fetch(url, archive, _CHECKSUMS.get(url), root)
        if not os.path.isdir(self._path):
            raise missing("LIBRISPEECH", self._path)
        self._walker = sorted(str(p.stem) for p in Path(self._path).glob("*/*/*" + self._ext_audio))

    def __getitem__(self, n: int) -> Tuple[Tensor, int, str, int, int, int]:
        return load_librispeech_item(self._walker[n], self._path, self._ext_audio, self._ext_txt)

    def __len__(self) -> int:
        return len(self._walker)
