"""torchaudio.backend.soundfile_backend: load / save / info through libsndfile (the `soundfile` package).

Follows torchaudio 0.12's soundfile backend: the same dtypes, value scaling, subtypes and errors. Writes are
atomic (temporary file in the target folder, then rename) so a failed save never leaves a broken file.
"""
from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any, BinaryIO, Optional, Tuple, Union

import numpy as np
import soundfile

import mindtorch.torch as torch

from .common import AudioMetaData

PathOrFile = Union[str, "os.PathLike[str]", BinaryIO]

# With normalize=False, WAV integer PCM keeps its integer type (torchaudio's behaviour). libsndfile reads
# 24-bit PCM left-justified into int32, as sox does.
_SUBTYPE2DTYPE = {"PCM_U8": "uint8", "PCM_16": "int16", "PCM_24": "int32", "PCM_32": "int32", "FLOAT": "float32",
                  "DOUBLE": "float64"}
_SUBTYPE_TO_BITS_PER_SAMPLE = {
    "PCM_S8": 8, "PCM_16": 16, "PCM_24": 24, "PCM_32": 32, "PCM_U8": 8, "FLOAT": 32, "DOUBLE": 64, "ULAW": 8,
    "ALAW": 8, "IMA_ADPCM": 0, "MS_ADPCM": 0, "GSM610": 0, "VOX_ADPCM": 0, "G721_32": 0, "G723_24": 0,
    "G723_40": 0, "DWVW_12": 12, "DWVW_16": 16, "DWVW_24": 24, "DWVW_N": 0, "DPCM_8": 8, "DPCM_16": 16,
    "VORBIS": 0, "ALAC_16": 16, "ALAC_20": 20, "ALAC_24": 24, "ALAC_32": 32, "OPUS": 0, "MPEG_LAYER_III": 0,
}
_SUBTYPE_TO_ENCODING = {"PCM_S8": "PCM_S", "PCM_16": "PCM_S", "PCM_24": "PCM_S", "PCM_32": "PCM_S", "PCM_U8": "PCM_U",
                        "FLOAT": "PCM_F", "DOUBLE": "PCM_F", "ULAW": "ULAW", "ALAW": "ALAW", "VORBIS": "VORBIS",
                        "MPEG_LAYER_III": "MP3"}


def _name(filepath: Any) -> str:
    return getattr(filepath, "name", None) or (str(filepath) if not hasattr(filepath, "read") else "<file object>")


def _open_error(filepath: Any, e: Exception) -> Exception:
    """A clear error naming the file and what is wrong with it (soundfile's own messages are terse)."""
    name = _name(filepath)
    if isinstance(filepath, (str, os.PathLike)) and not os.path.exists(filepath):
        return FileNotFoundError(f"torchaudio: no such audio file: '{name}'")
    return RuntimeError(f"torchaudio: failed to open the audio file '{name}': not a readable or supported audio "
                        f"format, or a corrupt header (libsndfile: {e})")


def info(filepath: PathOrFile, format: Optional[str] = None) -> AudioMetaData:  # noqa: A002
    """Metadata of an audio file (path or binary file object)."""
    try:
        sinfo = soundfile.info(filepath)
    except (RuntimeError, soundfile.LibsndfileError) as e:
        raise _open_error(filepath, e) from e
    encoding = "FLAC" if sinfo.format == "FLAC" else _SUBTYPE_TO_ENCODING.get(sinfo.subtype, "UNKNOWN")
    return AudioMetaData(sinfo.samplerate, sinfo.frames, sinfo.channels,
                         _SUBTYPE_TO_BITS_PER_SAMPLE.get(sinfo.subtype, 0), encoding)


def load(filepath: PathOrFile, frame_offset: int = 0, num_frames: int = -1, normalize: bool = True,
         channels_first: bool = True, format: Optional[str] = None) -> Tuple[torch.Tensor, int]:  # noqa: A002
    """Load audio as a (channels, frames) tensor (frames, channels with channels_first=False) and its rate.

    normalize=True: float32 in [-1, 1] (integer PCM divided by 2**(bits-1); 8-bit unsigned centred).
    normalize=False: WAV integer PCM keeps its integer dtype (uint8/int16/int32); other formats are float32.
    """
    try:
        f = soundfile.SoundFile(filepath, "r")
    except (RuntimeError, soundfile.LibsndfileError) as e:
        raise _open_error(filepath, e) from e
    with f:
        if f.format != "WAV" or normalize:
            dtype = "float32"
        elif f.subtype not in _SUBTYPE2DTYPE:
            raise ValueError(f"Unsupported subtype: {f.subtype} (file '{_name(filepath)}')")
        else:
            dtype = _SUBTYPE2DTYPE[f.subtype]
        frames = f._prepare_read(frame_offset, None, num_frames)
        if dtype == "uint8":  # soundfile reads no uint8: read int16 and shift back to torchaudio's unsigned form
            data = (f.read(frames, "int16", always_2d=True) >> 8).astype(np.int16) + 128
            data = data.astype(np.uint8)
        else:
            data = f.read(frames, dtype, always_2d=True)
        rate = f.samplerate
    if channels_first:
        data = np.ascontiguousarray(data.T)
    return torch.from_numpy(data), rate


def _subtype_for_wav(dtype: Any, encoding: Optional[str], bits: Optional[int]) -> str:
    if not encoding:
        if not bits:
            subtype = {torch.uint8: "PCM_U8", torch.int16: "PCM_16", torch.int32: "PCM_32", torch.float32: "FLOAT",
                       torch.float64: "DOUBLE"}.get(dtype)
            if not subtype:
                raise ValueError(f"Unsupported dtype for wav: {dtype}")
            return subtype
        return "PCM_U8" if bits == 8 else f"PCM_{bits}"
    if encoding == "PCM_S":
        if not bits:
            return "PCM_32"
        if bits == 8:
            raise ValueError("wav does not support 8-bit signed PCM encoding.")
        return f"PCM_{bits}"
    if encoding == "PCM_U":
        if bits in (None, 8):
            return "PCM_U8"
        raise ValueError("wav only supports 8-bit unsigned PCM encoding.")
    if encoding == "PCM_F":
        if bits in (None, 32):
            return "FLOAT"
        if bits == 64:
            return "DOUBLE"
        raise ValueError("wav only supports 32/64-bit float PCM encoding.")
    if encoding in ("ULAW", "ALAW"):
        if bits in (None, 8):
            return encoding
        raise ValueError(f"wav only supports 8-bit {'mu-law' if encoding == 'ULAW' else 'a-law'} encoding.")
    raise ValueError(f"wav does not support {encoding}.")


def _subtype(dtype: Any, fmt: str, encoding: Optional[str], bits: Optional[int]) -> str:
    if fmt == "wav":
        return _subtype_for_wav(dtype, encoding, bits)
    if fmt == "flac":
        if encoding:
            raise ValueError("flac does not support encoding.")
        if not bits:
            return "PCM_16"
        if bits > 24:
            raise ValueError("flac does not support bits_per_sample > 24.")
        return "PCM_S8" if bits == 8 else f"PCM_{bits}"
    if fmt in ("ogg", "vorbis"):
        if encoding or bits:
            raise ValueError("ogg/vorbis does not support encoding/bits_per_sample.")
        return "VORBIS"
    if fmt in ("sph", "nis", "nist"):
        return "PCM_16" if not bits else f"PCM_{bits}"
    raise ValueError(f"Unsupported file type: {fmt}")


def save(filepath: PathOrFile, src: torch.Tensor, sample_rate: int, channels_first: bool = True,
         compression: Optional[float] = None, format: Optional[str] = None,  # noqa: A002
         encoding: Optional[str] = None, bits_per_sample: Optional[int] = None) -> None:
    """Save a 2-D tensor ((channels, frames), or (frames, channels) with channels_first=False) as audio.

    Paths are written atomically: to a temporary file beside the target, renamed over it only on success.
    """
    if src.ndim != 2:
        raise ValueError(f"Expected 2D Tensor, got {src.ndim}D.")
    if compression is not None:
        warnings.warn('The argument "compression" is not supported by the soundfile backend and is ignored.')
    is_file_obj = hasattr(filepath, "write")
    if is_file_obj:
        if format is None:
            raise RuntimeError("`format` is required when saving to file object.")
        ext = format.lower()
    else:
        ext = (format or str(filepath).rsplit(".", 1)[-1]).lower()
    if bits_per_sample not in (None, 8, 16, 24, 32, 64):
        raise ValueError("Invalid bits_per_sample.")
    subtype = _subtype(src.dtype, ext, encoding, bits_per_sample)
    sf_format = {"sph": "NIST", "nis": "NIST", "nist": "NIST", "ogg": "OGG", "vorbis": "OGG"}.get(ext, ext.upper())
    data = np.asarray(src.detach() if hasattr(src, "detach") else src)
    if channels_first:
        data = data.T
    if data.dtype == np.uint8:  # soundfile writes no uint8: convert to the equivalent int16 samples
        data = ((data.astype(np.int16) - 128) << 8).astype(np.int16)
    if is_file_obj:
        soundfile.write(filepath, data, sample_rate, subtype=subtype, format=sf_format)
        return
    path = os.fspath(filepath)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix="." + ext, dir=folder)
    os.close(fd)
    try:
        soundfile.write(tmp, data, sample_rate, subtype=subtype, format=sf_format)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
