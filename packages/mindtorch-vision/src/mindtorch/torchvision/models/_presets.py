"""The inference transforms attached to classification weights (torchvision.transforms._presets of 0.13.1,
BSD-3-Clause): `Weights.transforms()` returns an `ImageClassification` preset."""
from __future__ import annotations

from typing import Any, Tuple

import mindtorch.torch as torch
from mindtorch.torch import Tensor

from .._module import Module
from ..transforms import functional as F
from ..transforms.functional import InterpolationMode

__all__ = ["ImageClassification", "InterpolationMode"]


class ImageClassification(Module):
    """resize(resize_size) -> center_crop(crop_size) -> float in [0, 1] -> normalize(mean, std).

    A `nn.Module` (vision's base, whose `str()` is this repr). Accepts PIL images and (C, H, W) / (B, C, H, W)
    tensors; returns float (..., 3, crop_size, crop_size) tensors.
    """

    def __init__(
        self,
        *,
        crop_size: int,
        resize_size: int = 256,
        mean: Tuple[float, ...] = (0.485, 0.456, 0.406),
        std: Tuple[float, ...] = (0.229, 0.224, 0.225),
        interpolation: InterpolationMode = InterpolationMode.BILINEAR,
    ) -> None:
        super().__init__()
        self.crop_size = [crop_size]
        self.resize_size = [resize_size]
        self.mean = list(mean)
        self.std = list(std)
        self.interpolation = interpolation

    def forward(self, img: Any) -> Tensor:
        img = F.resize(img, self.resize_size, interpolation=self.interpolation)
        img = F.center_crop(img, self.crop_size)
        if not isinstance(img, Tensor):
            img = F.pil_to_tensor(img)
        img = F.convert_image_dtype(img, torch.float)
        img = F.normalize(img, mean=self.mean, std=self.std)
        return img

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + "("
        format_string += f"\n    crop_size={self.crop_size}"
        format_string += f"\n    resize_size={self.resize_size}"
        format_string += f"\n    mean={self.mean}"
        format_string += f"\n    std={self.std}"
        format_string += f"\n    interpolation={self.interpolation}"
        format_string += "\n)"
        return format_string

    def describe(self) -> str:
        return (
            "Accepts ``PIL.Image``, batched ``(B, C, H, W)`` and single ``(C, H, W)`` image ``torch.Tensor`` objects. "
            f"The images are resized to ``resize_size={self.resize_size}`` using "
            f"``interpolation={self.interpolation}``, "
            f"followed by a central crop of ``crop_size={self.crop_size}``. Finally the values are first rescaled to "
            f"``[0.0, 1.0]`` and then normalized using ``mean={self.mean}`` and ``std={self.std}``."
        )
