"""AutoAugment, RandAugment, TrivialAugmentWide and AugMix (torchvision 0.13), on PIL images and tensors."""
from __future__ import annotations

import math
from enum import Enum
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .. import _rng
from .._bridge import from_numpy, is_tensor, to_numpy
from .._module import Module
from . import functional as F
from .functional import InterpolationMode

__all__ = ["AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide", "AugMix"]


def _linspace(start: float, end: float, steps: int) -> np.ndarray:
    """torch.linspace in float32."""
    return np.linspace(start, end, steps, dtype=np.float64).astype(np.float32)


def _posterize_bins(num_bins: int, top: int, div: float) -> np.ndarray:
    # 8 - (torch.arange(n) / ((n - 1) / div)).round().int()
    return top - np.rint(np.arange(num_bins, dtype=np.float32) / np.float32((num_bins - 1) / div)).astype(np.int32)


def _scalar() -> np.ndarray:
    return np.asarray(0.0, dtype=np.float32)


def _apply_op(img: Any, op_name: str, magnitude: float, interpolation: InterpolationMode,
              fill: Optional[List[float]]) -> Any:
    if op_name == "ShearX":
        # torchvision 0.13 passes the magnitude as an angle in radians, sheared about the image centre (0.14
        # changed this to atan(magnitude) about the corner, the paper's matrix); 0.13's behaviour is kept
        img = F.affine(img, angle=0.0, translate=[0, 0], scale=1.0, shear=[math.degrees(magnitude), 0.0],
                       interpolation=interpolation, fill=fill)
    elif op_name == "ShearY":
        img = F.affine(img, angle=0.0, translate=[0, 0], scale=1.0, shear=[0.0, math.degrees(magnitude)],
                       interpolation=interpolation, fill=fill)
    elif op_name == "TranslateX":
        img = F.affine(img, angle=0.0, translate=[int(magnitude), 0], scale=1.0, interpolation=interpolation,
                       shear=[0.0, 0.0], fill=fill)
    elif op_name == "TranslateY":
        img = F.affine(img, angle=0.0, translate=[0, int(magnitude)], scale=1.0, interpolation=interpolation,
                       shear=[0.0, 0.0], fill=fill)
    elif op_name == "Rotate":
        img = F.rotate(img, magnitude, interpolation=interpolation, fill=fill)
    elif op_name == "Brightness":
        img = F.adjust_brightness(img, 1.0 + magnitude)
    elif op_name == "Color":
        img = F.adjust_saturation(img, 1.0 + magnitude)
    elif op_name == "Contrast":
        img = F.adjust_contrast(img, 1.0 + magnitude)
    elif op_name == "Sharpness":
        img = F.adjust_sharpness(img, 1.0 + magnitude)
    elif op_name == "Posterize":
        img = F.posterize(img, int(magnitude))
    elif op_name == "Solarize":
        img = F.solarize(img, magnitude)
    elif op_name == "AutoContrast":
        img = F.autocontrast(img)
    elif op_name == "Equalize":
        img = F.equalize(img)
    elif op_name == "Invert":
        img = F.invert(img)
    elif op_name == "Identity":
        pass
    else:
        raise ValueError(f"The provided operator {op_name} is not recognized.")
    return img


def _tensor_fill(img: Any, fill: Any, channels: int) -> Any:
    if is_tensor(img):
        if isinstance(fill, (int, float)):
            return [float(fill)] * channels
        if fill is not None:
            return [float(f) for f in fill]
    return fill


class AutoAugmentPolicy(Enum):
    """AutoAugment policies learned on different datasets."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class AutoAugment(Module):
    """AutoAugment (Cubuk et al. 2019): one of the policy's sub-policies, each op applied with its probability."""

    def __init__(self, policy: AutoAugmentPolicy = AutoAugmentPolicy.IMAGENET,
                 interpolation: InterpolationMode = InterpolationMode.NEAREST,
                 fill: Optional[List[float]] = None) -> None:
        super().__init__()
        self.policy = policy
        self.interpolation = interpolation
        self.fill = fill
        self.policies = self._get_policies(policy)

    def _get_policies(self, policy: AutoAugmentPolicy) -> List[Tuple[Tuple[str, float, Optional[int]], ...]]:
        if policy == AutoAugmentPolicy.IMAGENET:
            return [
                (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)),
                (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
                (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
                (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
                (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
                (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
                (("Solarize", 0.6, 3), ("Equalize", 0.6, None)),
                (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
                (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)),
                (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
                (("Rotate", 0.8, 8), ("Color", 0.4, 0)),
                (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
                (("Equalize", 0.0, None), ("Equalize", 0.8, None)),
                (("Invert", 0.6, None), ("Equalize", 1.0, None)),
                (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
                (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
                (("Color", 0.8, 8), ("Solarize", 0.8, 7)),
                (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
                (("ShearX", 0.6, 5), ("Equalize", 1.0, None)),
                (("Color", 0.4, 0), ("Equalize", 0.6, None)),
                (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
                (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
                (("Invert", 0.6, None), ("Equalize", 1.0, None)),
                (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
                (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
            ]
        if policy == AutoAugmentPolicy.CIFAR10:
            return [
                (("Invert", 0.1, None), ("Contrast", 0.2, 6)),
                (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
                (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)),
                (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
                (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)),
                (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
                (("Color", 0.4, 3), ("Brightness", 0.6, 7)),
                (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
                (("Equalize", 0.6, None), ("Equalize", 0.5, None)),
                (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
                (("Color", 0.7, 7), ("TranslateX", 0.5, 8)),
                (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
                (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)),
                (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
                (("Solarize", 0.5, 2), ("Invert", 0.0, None)),
                (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
                (("Equalize", 0.2, None), ("Equalize", 0.6, None)),
                (("Color", 0.9, 9), ("Equalize", 0.6, None)),
                (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)),
                (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
                (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)),
                (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
                (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)),
                (("Equalize", 0.8, None), ("Invert", 0.1, None)),
                (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
            ]
        if policy == AutoAugmentPolicy.SVHN:
            return [
                (("ShearX", 0.9, 4), ("Invert", 0.2, None)),
                (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
                (("Equalize", 0.6, None), ("Solarize", 0.6, 6)),
                (("Invert", 0.9, None), ("Equalize", 0.6, None)),
                (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
                (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
                (("ShearY", 0.9, 8), ("Invert", 0.4, None)),
                (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
                (("Invert", 0.9, None), ("AutoContrast", 0.8, None)),
                (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
                (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)),
                (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
                (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)),
                (("Invert", 0.9, None), ("Equalize", 0.6, None)),
                (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)),
                (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
                (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)),
                (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
                (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)),
                (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
                (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)),
                (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
                (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)),
                (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
                (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
            ]
        raise ValueError(f"The provided policy {policy} is not recognized.")

    def _augmentation_space(self, num_bins: int, image_size: Tuple[int, int]) -> Dict[str, Tuple[np.ndarray, bool]]:
        return {
            # op_name: (magnitudes, signed)
            "ShearX": (_linspace(0.0, 0.3, num_bins), True),
            "ShearY": (_linspace(0.0, 0.3, num_bins), True),
            "TranslateX": (_linspace(0.0, 150.0 / 331.0 * image_size[0], num_bins), True),
            "TranslateY": (_linspace(0.0, 150.0 / 331.0 * image_size[1], num_bins), True),
            "Rotate": (_linspace(0.0, 30.0, num_bins), True),
            "Brightness": (_linspace(0.0, 0.9, num_bins), True),
            "Color": (_linspace(0.0, 0.9, num_bins), True),
            "Contrast": (_linspace(0.0, 0.9, num_bins), True),
            "Sharpness": (_linspace(0.0, 0.9, num_bins), True),
            "Posterize": (_posterize_bins(num_bins, 8, 4), False),
            "Solarize": (_linspace(255.0, 0.0, num_bins), False),
            "AutoContrast": (_scalar(), False),
            "Equalize": (_scalar(), False),
            "Invert": (_scalar(), False),
        }

    @staticmethod
    def get_params(transform_num: int) -> Tuple[int, np.ndarray, np.ndarray]:
        """(policy id, two probabilities, two signs)."""
        policy_id = _rng.randint1(0, transform_num)
        probs = _rng.rand(2)
        signs = _rng.randint(0, 2, (2,))
        return policy_id, probs, signs

    def forward(self, img: Any) -> Any:
        channels, height, width = F.get_dimensions(img)
        fill = _tensor_fill(img, self.fill, channels)
        transform_id, probs, signs = self.get_params(len(self.policies))
        op_meta = self._augmentation_space(10, (width, height))
        for i, (op_name, p, magnitude_id) in enumerate(self.policies[transform_id]):
            if probs[i] <= p:
                magnitudes, signed = op_meta[op_name]
                magnitude = float(magnitudes[magnitude_id]) if magnitude_id is not None else 0.0
                if signed and signs[i] == 0:
                    magnitude *= -1.0
                img = _apply_op(img, op_name, magnitude, interpolation=self.interpolation, fill=fill)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(policy={self.policy}, fill={self.fill})"


class RandAugment(Module):
    """RandAugment (Cubuk et al. 2020): `num_ops` random ops at a fixed `magnitude`."""

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 interpolation: InterpolationMode = InterpolationMode.NEAREST,
                 fill: Optional[List[float]] = None) -> None:
        super().__init__()
        self.num_ops = num_ops
        self.magnitude = magnitude
        self.num_magnitude_bins = num_magnitude_bins
        self.interpolation = interpolation
        self.fill = fill

    def _augmentation_space(self, num_bins: int, image_size: Tuple[int, int]) -> Dict[str, Tuple[np.ndarray, bool]]:
        return {
            "Identity": (_scalar(), False),
            "ShearX": (_linspace(0.0, 0.3, num_bins), True),
            "ShearY": (_linspace(0.0, 0.3, num_bins), True),
            "TranslateX": (_linspace(0.0, 150.0 / 331.0 * image_size[0], num_bins), True),
            "TranslateY": (_linspace(0.0, 150.0 / 331.0 * image_size[1], num_bins), True),
            "Rotate": (_linspace(0.0, 30.0, num_bins), True),
            "Brightness": (_linspace(0.0, 0.9, num_bins), True),
            "Color": (_linspace(0.0, 0.9, num_bins), True),
            "Contrast": (_linspace(0.0, 0.9, num_bins), True),
            "Sharpness": (_linspace(0.0, 0.9, num_bins), True),
            "Posterize": (_posterize_bins(num_bins, 8, 4), False),
            "Solarize": (_linspace(255.0, 0.0, num_bins), False),
            "AutoContrast": (_scalar(), False),
            "Equalize": (_scalar(), False),
        }

    def forward(self, img: Any) -> Any:
        channels, height, width = F.get_dimensions(img)
        fill = _tensor_fill(img, self.fill, channels)
        op_meta = self._augmentation_space(self.num_magnitude_bins, (width, height))
        for _ in range(self.num_ops):
            op_index = _rng.randint1(0, len(op_meta))
            op_name = list(op_meta.keys())[op_index]
            magnitudes, signed = op_meta[op_name]
            magnitude = float(magnitudes[self.magnitude]) if magnitudes.ndim > 0 else 0.0
            if signed and _rng.randint1(0, 2):
                magnitude *= -1.0
            img = _apply_op(img, op_name, magnitude, interpolation=self.interpolation, fill=fill)
        return img

    def __repr__(self) -> str:
        s = (
            f"{self.__class__.__name__}("
            f"num_ops={self.num_ops}"
            f", magnitude={self.magnitude}"
            f", num_magnitude_bins={self.num_magnitude_bins}"
            f", interpolation={self.interpolation}"
            f", fill={self.fill}"
            f")"
        )
        return s


class TrivialAugmentWide(Module):
    """TrivialAugment Wide (Müller & Hutter 2021): one random op at a random magnitude."""

    def __init__(self, num_magnitude_bins: int = 31, interpolation: InterpolationMode = InterpolationMode.NEAREST,
                 fill: Optional[List[float]] = None) -> None:
        super().__init__()
        self.num_magnitude_bins = num_magnitude_bins
        self.interpolation = interpolation
        self.fill = fill

    def _augmentation_space(self, num_bins: int) -> Dict[str, Tuple[np.ndarray, bool]]:
        return {
            "Identity": (_scalar(), False),
            "ShearX": (_linspace(0.0, 0.99, num_bins), True),
            "ShearY": (_linspace(0.0, 0.99, num_bins), True),
            "TranslateX": (_linspace(0.0, 32.0, num_bins), True),
            "TranslateY": (_linspace(0.0, 32.0, num_bins), True),
            "Rotate": (_linspace(0.0, 135.0, num_bins), True),
            "Brightness": (_linspace(0.0, 0.99, num_bins), True),
            "Color": (_linspace(0.0, 0.99, num_bins), True),
            "Contrast": (_linspace(0.0, 0.99, num_bins), True),
            "Sharpness": (_linspace(0.0, 0.99, num_bins), True),
            "Posterize": (_posterize_bins(num_bins, 8, 6), False),
            "Solarize": (_linspace(255.0, 0.0, num_bins), False),
            "AutoContrast": (_scalar(), False),
            "Equalize": (_scalar(), False),
        }

    def forward(self, img: Any) -> Any:
        channels, height, width = F.get_dimensions(img)
        fill = _tensor_fill(img, self.fill, channels)
        op_meta = self._augmentation_space(self.num_magnitude_bins)
        op_index = _rng.randint1(0, len(op_meta))
        op_name = list(op_meta.keys())[op_index]
        magnitudes, signed = op_meta[op_name]
        magnitude = float(magnitudes[_rng.randint1(0, len(magnitudes))]) if magnitudes.ndim > 0 else 0.0
        if signed and _rng.randint1(0, 2):
            magnitude *= -1.0
        return _apply_op(img, op_name, magnitude, interpolation=self.interpolation, fill=fill)

    def __repr__(self) -> str:
        s = (
            f"{self.__class__.__name__}("
            f"num_magnitude_bins={self.num_magnitude_bins}"
            f", interpolation={self.interpolation}"
            f", fill={self.fill}"
            f")"
        )
        return s


class AugMix(Module):
    """AugMix (Hendrycks et al. 2020): a Dirichlet/Beta-weighted mix of `mixture_width` augmentation chains."""

    def __init__(self, severity: int = 3, mixture_width: int = 3, chain_depth: int = -1, alpha: float = 1.0,
                 all_ops: bool = True, interpolation: InterpolationMode = InterpolationMode.BILINEAR,
                 fill: Optional[List[float]] = None) -> None:
        super().__init__()
        self._PARAMETER_MAX = 10
        if not (1 <= severity <= self._PARAMETER_MAX):
            raise ValueError(f"The severity must be between [1, {self._PARAMETER_MAX}]. Got {severity} instead.")
        self.severity = severity
        self.mixture_width = mixture_width
        self.chain_depth = chain_depth
        self.alpha = alpha
        self.all_ops = all_ops
        self.interpolation = interpolation
        self.fill = fill

    def _augmentation_space(self, num_bins: int, image_size: Tuple[int, int]) -> Dict[str, Tuple[np.ndarray, bool]]:
        s = {
            "ShearX": (_linspace(0.0, 0.3, num_bins), True),
            "ShearY": (_linspace(0.0, 0.3, num_bins), True),
            "TranslateX": (_linspace(0.0, image_size[0] / 3.0, num_bins), True),
            "TranslateY": (_linspace(0.0, image_size[1] / 3.0, num_bins), True),
            "Rotate": (_linspace(0.0, 30.0, num_bins), True),
            "Posterize": (_posterize_bins(num_bins, 4, 4), False),
            "Solarize": (_linspace(255.0, 0.0, num_bins), False),
            "AutoContrast": (_scalar(), False),
            "Equalize": (_scalar(), False),
        }
        if self.all_ops:
            s.update({
                "Brightness": (_linspace(0.0, 0.9, num_bins), True),
                "Color": (_linspace(0.0, 0.9, num_bins), True),
                "Contrast": (_linspace(0.0, 0.9, num_bins), True),
                "Sharpness": (_linspace(0.0, 0.9, num_bins), True),
            })
        return s

    def _sample_dirichlet(self, params: np.ndarray) -> np.ndarray:
        """Dirichlet samples, one row per row of `params` (from a generator seeded by the torch stream)."""
        gen = _rng.generator()
        g = gen.standard_gamma(params)
        return (g / g.sum(axis=-1, keepdims=True)).astype(np.float32)

    def forward(self, orig_img: Any) -> Any:
        channels, height, width = F.get_dimensions(orig_img)
        if is_tensor(orig_img):
            img = orig_img
            fill = _tensor_fill(orig_img, self.fill, channels)
        else:
            img = F.pil_to_tensor(orig_img)
            fill = self.fill
        op_meta = self._augmentation_space(self._PARAMETER_MAX, (width, height))
        arr = to_numpy(img)
        orig_dims = list(arr.shape)
        batch = arr.reshape([1] * max(4 - arr.ndim, 0) + orig_dims)
        n = batch.shape[0]
        batch_dims = [n] + [1] * (batch.ndim - 1)
        m = self._sample_dirichlet(np.full((n, 2), self.alpha, dtype=np.float64))
        combined_weights = self._sample_dirichlet(
            np.full((n, self.mixture_width), self.alpha, dtype=np.float64)) * m[:, 1].reshape(n, -1)
        mix = m[:, 0].reshape(batch_dims) * batch.astype(np.float32)
        batch_t = from_numpy(batch)
        for i in range(self.mixture_width):
            aug = batch_t
            depth = self.chain_depth if self.chain_depth > 0 else _rng.randint1(1, 4)
            for _ in range(depth):
                op_index = _rng.randint1(0, len(op_meta))
                op_name = list(op_meta.keys())[op_index]
                magnitudes, signed = op_meta[op_name]
                magnitude = float(magnitudes[_rng.randint1(0, self.severity)]) if magnitudes.ndim > 0 else 0.0
                if signed and _rng.randint1(0, 2):
                    magnitude *= -1.0
                aug = _apply_op(aug, op_name, magnitude, interpolation=self.interpolation, fill=fill)
            mix = mix + combined_weights[:, i].reshape(batch_dims) * to_numpy(aug).astype(np.float32)
        out = mix.reshape(orig_dims)
        if arr.dtype.kind in "iu":
            out = np.trunc(out)
        out = from_numpy(out.astype(arr.dtype))
        if not is_tensor(orig_img):
            return F.to_pil_image(out)
        return out

    def __repr__(self) -> str:
        s = (
            f"{self.__class__.__name__}("
            f"severity={self.severity}"
            f", mixture_width={self.mixture_width}"
            f", chain_depth={self.chain_depth}"
            f", alpha={self.alpha}"
            f", all_ops={self.all_ops}"
            f", interpolation={self.interpolation}"
            f", fill={self.fill}"
            f")"
        )
        return s
