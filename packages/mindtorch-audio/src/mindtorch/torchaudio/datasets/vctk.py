"""VCTK_092: <root>/VCTK-Corpus-0.92/txt/<spk>/<spk>_<utt>.txt and
wav48_silence_trimmed/<spk>/<spk>_<utt>_<mic>.flac."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Tuple, Union

from mindtorch.torch import Tensor

from ..backend.soundfile_backend import load
from ._common import Dataset, fetch, missing

URL = "https://datashare.is.ed.ac.uk/bitstream/handle/10283/3443/VCTK-Corpus-0.92.zip"
_CHECKSUMS = {URL: "f96258be9fdc2cbff6559541aae7ea4f59df3fcaf5cf963aae5ca647357e359c"}


class VCTK_092(Dataset):
    """Items (waveform, sample_rate, transcript, speaker_id, utterance_id). p315 has no transcripts and p280
    has no mic2 recordings; both are skipped as in torchaudio 0.12."""

    def __init__(self, root: Union[str, Path], mic_id: str = "mic2", download: bool = False, url: str = URL,
                 audio_ext: str = ".flac") -> None:
        if mic_id not in ["mic1", "mic2"]:
            raise RuntimeError(f'`mic_id` has to be either "mic1" or "mic2". Found: {mic_id}')
        root = os.fspath(root)
        self._path = os.path.join(root, "VCTK-Corpus-0.92")
        self._txt_dir = os.path.join(self._path, "txt")
        self._audio_dir = os.path.join(self._path, "wav48_silence_trimmed")
        self._mic_id = mic_id
        self._audio_ext = audio_ext
        if download and not os.path.isdir(self._path):
            fetch(url, os.path.join(root, os.path.basename(url)), _CHECKSUMS.get(url), self._path)
        if not os.path.isdir(self._txt_dir):
            raise missing("VCTK_092", self._txt_dir)
        self._sample_ids = []
        for speaker_id in sorted(os.listdir(self._txt_dir)):
            if speaker_id == "p280" and mic_id == "mic2":
                continue
            utterance_dir = os.path.join(self._txt_dir, speaker_id)
            for utterance_file in sorted(f for f in os.listdir(utterance_dir) if f.endswith(".txt")):
                utterance_id = os.path.splitext(utterance_file)[0]
                audio_path = os.path.join(self._audio_dir, speaker_id, f"{utterance_id}_{mic_id}{audio_ext}")
                if speaker_id == "p362" and not os.path.isfile(audio_path):
                    continue
                self._sample_ids.append(utterance_id.split("_"))

    def _load_text(self, file_path: str) -> str:
        with open(file_path) as f:
            return f.readlines()[0]

    def __getitem__(self, n: int) -> Tuple[Tensor, int, str, str, str]:
        speaker_id, utterance_id = self._sample_ids[n]
        transcript = self._load_text(os.path.join(self._txt_dir, speaker_id, f"{speaker_id}_{utterance_id}.txt"))
        waveform, sample_rate = load(os.path.join(self._audio_dir, speaker_id,
                                                  f"{speaker_id}_{utterance_id}_{self._mic_id}{self._audio_ext}"))
        return waveform, sample_rate, transcript, speaker_id, utterance_id

    def __len__(self) -> int:
        return len(self._sample_ids)
