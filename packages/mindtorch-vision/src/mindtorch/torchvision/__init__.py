"""mindtorch.torchvision: torchvision 0.13's API (the release paired with torch 1.12) on mindtorch."""
from . import datasets, io, models, ops, transforms, utils  # noqa: F401

__version__ = "0.13.1"

_image_backend = "PIL"


def set_image_backend(backend: str) -> None:
    """Only 'PIL' is available ('accimage' is not packaged for mindtorch)."""
    global _image_backend
    if backend not in ["PIL", "accimage"]:
        raise ValueError(f"Invalid backend '{backend}'. Options are 'PIL' and 'accimage'")
    if backend == "accimage":
        raise NotImplementedError("torchvision.set_image_backend('accimage'): accimage is not supported by "
                                  "mindtorch.torchvision; use the default 'PIL' backend")
    _image_backend = backend


def get_image_backend() -> str:
    return _image_backend


def set_video_backend(backend: str) -> None:
    raise NotImplementedError("torchvision.set_video_backend: video IO is not supported by mindtorch.torchvision")


def get_video_backend() -> str:
    return "pyav"
