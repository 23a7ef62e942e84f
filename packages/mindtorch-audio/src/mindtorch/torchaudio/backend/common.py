"""torchaudio.backend.common: AudioMetaData."""
from __future__ import annotations


class AudioMetaData:
    """What `torchaudio.info` returns.

    sample_rate: frames per second; num_frames: frames per channel; num_channels; bits_per_sample (0 for
    compressed formats such as Vorbis); encoding: "PCM_S", "PCM_U", "PCM_F", "FLAC", "ULAW", "ALAW",
    "VORBIS", "MP3" or "UNKNOWN".
    """

    __slots__ = ("sample_rate", "num_frames", "num_channels", "bits_per_sample", "encoding")

    def __init__(self, sample_rate: int, num_frames: int, num_channels: int, bits_per_sample: int,
                 encoding: str) -> None:
        self.sample_rate = sample_rate
        self.num_frames = num_frames
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self) -> str:
        return (f"AudioMetaData(sample_rate={self.sample_rate}, num_frames={self.num_frames}, "
                f"num_channels={self.num_channels}, bits_per_sample={self.bits_per_sample}, "
                f"encoding={self.encoding})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AudioMetaData) and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)
