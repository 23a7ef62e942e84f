"""torchvision.io (0.13): image read/decode/encode/write. Video IO is not provided (raises NotImplementedError)."""
from typing import Any

from .image import (  # noqa: F401
    ImageReadMode,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    read_file,
    read_image,
    write_file,
    write_jpeg,
    write_png,
)


def read_video(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("torchvision.io.read_video is not supported by mindtorch.torchvision: decode frames "
                              "with PyAV/imageio and convert them with torch.from_numpy")


def write_video(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("torchvision.io.write_video is not supported by mindtorch.torchvision: encode frames "
                              "with PyAV/imageio")
