"""torchvision.io image functions (0.13 API), implemented with Pillow.

Tensors are uint8: encoded data is a 1-d tensor of bytes, images are (C, H, W). torchvision 0.13 decodes with
libpng/libjpeg; Pillow decodes PNG identically (lossless) and JPEG with libjpeg(-turbo) too, so JPEG pixels can
differ by a few levels from torchvision's on some files (different IDCT/upsampling choices).
"""
from __future__ import annotations

import io
import os
from enum import Enum
from typing import Any

import numpy as np
from PIL import Image, UnidentifiedImageError

from .._bridge import from_numpy, is_tensor, to_numpy


class ImageReadMode(Enum):
    """UNCHANGED keeps the file's channels; the others convert (GRAY=1, GRAY_ALPHA=2, RGB=3, RGB_ALPHA=4 ch)."""

    UNCHANGED = 0
    GRAY = 1
    GRAY_ALPHA = 2
    RGB = 3
    RGB_ALPHA = 4


_MODE_TO_PIL = {ImageReadMode.GRAY: "L", ImageReadMode.GRAY_ALPHA: "LA", ImageReadMode.RGB: "RGB",
                ImageReadMode.RGB_ALPHA: "RGBA"}


def read_file(path: str) -> Any:
    """The raw bytes of `path` as a 1-d uint8 tensor."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise RuntimeError(f"[Errno 2] No such file or directory: '{path}'")
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        raise RuntimeError(f"Expected a non empty file: {path}")
    return from_numpy(np.frombuffer(data, dtype=np.uint8).copy())


def write_file(filename: str, data: Any) -> None:
    """Write the 1-d uint8 tensor `data` to `filename`."""
    arr = to_numpy(data)
    if arr.dtype != np.uint8 or arr.ndim != 1:
        raise RuntimeError(f"Input tensor must be a 1-D uint8 tensor, got {arr.ndim}-D {arr.dtype}")
    with open(filename, "wb") as f:
        f.write(arr.tobytes())


def _bytes_of(input: Any) -> bytes:
    if not is_tensor(input):
        raise TypeError(f"Expected a torch.Tensor of uint8 bytes, got {type(input)}")
    arr = to_numpy(input)
    if arr.dtype != np.uint8 or arr.ndim != 1:
        raise RuntimeError(f"Expected a 1-D uint8 tensor of encoded bytes, got {arr.ndim}-D {arr.dtype}")
    return arr.tobytes()


def _decode(data: bytes, mode: ImageReadMode, expect: str, what: str = "the data") -> Any:
    try:
        img = Image.open(io.BytesIO(data))
        fmt = img.format
        if expect and fmt != expect:
            raise RuntimeError(f"Expected a {expect} image in {what}, got {fmt}")
        img.load()
    except UnidentifiedImageError as e:
        raise RuntimeError(f"Unsupported or corrupt image data in {what}: not a PNG or JPEG file") from e
    except (OSError, SyntaxError, ValueError) as e:
        raise RuntimeError(f"Corrupt or truncated {expect or 'image'} data in {what}: {e}") from e
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        # 16-bit PNG: torchvision 0.13 strips to the 8 most significant bits
        arr = (np.asarray(img, dtype=np.int64) >> 8).astype(np.uint8)
        img = Image.fromarray(arr, mode="L")
    elif img.mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif img.mode in ("1", "CMYK", "YCbCr", "RGBX", "PA"):
        img = img.convert("RGBA" if img.mode == "PA" else ("L" if img.mode == "1" else "RGB"))
    if mode != ImageReadMode.UNCHANGED:
        if not isinstance(mode, ImageReadMode):
            raise TypeError(f"mode should be an ImageReadMode, got {mode!r}")
        img = img.convert(_MODE_TO_PIL[mode])
    arr = np.asarray(img, dtype=np.uint8)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    return from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))


def decode_png(input: Any, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> Any:
    """PNG bytes (1-d uint8 tensor) -> (C, H, W) uint8 tensor."""
    return _decode(_bytes_of(input), mode, "PNG")


def decode_jpeg(input: Any, mode: ImageReadMode = ImageReadMode.UNCHANGED, device: str = "cpu") -> Any:
    """JPEG bytes (1-d uint8 tensor) -> (C, H, W) uint8 tensor."""
    return _decode(_bytes_of(input), mode, "JPEG")


def decode_image(input: Any, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> Any:
    """PNG or JPEG bytes -> (C, H, W) uint8 tensor (format detected from the data)."""
    data = _bytes_of(input)
    if data[:8] != b"\x89PNG\r\n\x1a\n" and data[:3] != b"\xff\xd8\xff":
        raise RuntimeError("Unsupported image file. Only jpeg and png are currently supported.")
    return _decode(data, mode, "")


def read_image(path: str, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> Any:
    """Read a PNG or JPEG file into a (C, H, W) uint8 tensor; errors name the file."""
    data = read_file(path)
    raw = _bytes_of(data)
    if raw[:8] != b"\x89PNG\r\n\x1a\n" and raw[:3] != b"\xff\xd8\xff":
        raise RuntimeError(f"Unsupported image file {path}. Only jpeg and png are currently supported.")
    return _decode(raw, mode, "", what=os.fspath(path))


def _image_for_encoding(input: Any, what: str) -> Image.Image:
    if not is_tensor(input):
        raise TypeError(f"Expected a torch.Tensor, got {type(input)}")
    arr = to_numpy(input)
    if arr.dtype != np.uint8:
        raise RuntimeError(f"Input tensor dtype should be uint8, got {arr.dtype}")
    if arr.ndim != 3:
        raise RuntimeError(f"Input data should be a 3-dimensional tensor (C, H, W), got {arr.ndim} dimensions")
    if arr.shape[0] not in (1, 3):
        raise RuntimeError(f"The number of channels should be 1 or 3, got: {arr.shape[0]} ({what})")
    hwc = np.ascontiguousarray(arr.transpose(1, 2, 0))
    return Image.fromarray(hwc[:, :, 0] if arr.shape[0] == 1 else hwc)


def encode_png(input: Any, compression_level: int = 6) -> Any:
    """(C, H, W) uint8 tensor (C = 1 or 3) -> PNG bytes as a 1-d uint8 tensor."""
    if compression_level < 0 or compression_level > 9:
        raise ValueError("Compression level should be between 0 and 9")
    img = _image_for_encoding(input, "encode_png")
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=compression_level)
    return from_numpy(np.frombuffer(buf.getvalue(), dtype=np.uint8).copy())


def write_png(input: Any, filename: str, compression_level: int = 6) -> None:
    write_file(filename, encode_png(input, compression_level))


def encode_jpeg(input: Any, quality: int = 75) -> Any:
    """(C, H, W) uint8 tensor (C = 1 or 3) -> JPEG bytes as a 1-d uint8 tensor."""
    if quality < 1 or quality > 100:
        raise ValueError("Image quality should be a positive number between 1 and 100")
    img = _image_for_encoding(input, "encode_jpeg")
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=quality)
    return from_numpy(np.frombuffer(buf.getvalue(), dtype=np.uint8).copy())


def write_jpeg(input: Any, filename: str, quality: int = 75) -> None:
    write_file(filename, encode_jpeg(input, quality))
