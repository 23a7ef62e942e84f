"""torchvision.transforms (0.13) classes: composable image transforms for PIL images and tensors.

Random transforms draw from mindtorch's global generator (`torch.rand`, `torch.randint`, `torch.randperm`,
`torch.empty(1).uniform_`) through `_rng`, so `torch.manual_seed(s)` fixes the augmentation.
"""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from typing import Any, List, Optional, Tuple

import numpy as np

from .. import _rng
from .._bridge import from_numpy, is_tensor, to_numpy
from .._module import Module
from . import functional as F
from .functional import InterpolationMode, _interpolation_modes_from_int

__all__ = [
    "Compose", "ToTensor", "PILToTensor", "ConvertImageDtype", "ToPILImage", "Normalize", "Resize", "Scale",
    "CenterCrop", "Pad", "Lambda", "RandomApply", "RandomChoice", "RandomOrder", "RandomCrop",
    "RandomHorizontalFlip", "RandomVerticalFlip", "RandomResizedCrop", "RandomSizedCrop", "FiveCrop", "TenCrop",
    "LinearTransformation", "ColorJitter", "RandomRotation", "RandomAffine", "Grayscale", "RandomGrayscale",
    "RandomPerspective", "RandomErasing", "GaussianBlur", "InterpolationMode", "RandomInvert", "RandomPosterize",
    "RandomSolarize", "RandomAdjustSharpness", "RandomAutocontrast", "RandomEqualize",
]


class Compose:
    """Chain transforms: Compose([t1, t2])(x) == t2(t1(x))."""

    def __init__(self, transforms: List[Any]) -> None:
        self.transforms = transforms

    def __call__(self, img: Any) -> Any:
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + "("
        for t in self.transforms:
            format_string += "\n"
            format_string += f"    {t}"
        format_string += "\n)"
        return format_string


class ToTensor:
    """PIL image / HWC ndarray -> float CHW tensor in [0, 1] (uint8 data scaled by 1/255)."""

    def __call__(self, pic: Any) -> Any:
        return F.to_tensor(pic)

    def __repr__(self) -> str:
        return self.__class__.__name__ + "()"


class PILToTensor:
    """PIL image -> CHW tensor of the same dtype, not scaled."""

    def __call__(self, pic: Any) -> Any:
        return F.pil_to_tensor(pic)

    def __repr__(self) -> str:
        return self.__class__.__name__ + "()"


class ConvertImageDtype(Module):
    def __init__(self, dtype: Any) -> None:
        super().__init__()
        self.dtype = dtype

    def forward(self, image: Any) -> Any:
        return F.convert_image_dtype(image, self.dtype)


class ToPILImage:
    def __init__(self, mode: Optional[str] = None) -> None:
        self.mode = mode

    def __call__(self, pic: Any) -> Any:
        return F.to_pil_image(pic, self.mode)

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + "("
        if self.mode is not None:
            format_string += f"mode={self.mode}"
        format_string += ")"
        return format_string


class Normalize(Module):
    """output[c] = (input[c] - mean[c]) / std[c] on a float (..., C, H, W) tensor."""

    def __init__(self, mean: Sequence, std: Sequence, inplace: bool = False) -> None:
        super().__init__()
        self.mean = mean
        self.std = std
        self.inplace = inplace

    def forward(self, tensor: Any) -> Any:
        return F.normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


def _interp(interpolation: Any) -> InterpolationMode:
    if isinstance(interpolation, int):
        warnings.warn(
            "Argument interpolation should be of type InterpolationMode instead of int. "
            "Please, use InterpolationMode enum."
        )
        interpolation = _interpolation_modes_from_int(interpolation)
    return interpolation


class Resize(Module):
    """Resize to `size`: an int matches the smaller edge (aspect kept), (h, w) is exact."""

    def __init__(self, size: Any, interpolation: InterpolationMode = InterpolationMode.BILINEAR,
                 max_size: Optional[int] = None, antialias: Optional[bool] = None) -> None:
        super().__init__()
        if not isinstance(size, (int, Sequence)):
            raise TypeError(f"Size should be int or sequence. Got {type(size)}")
        if isinstance(size, Sequence) and len(size) not in (1, 2):
            raise ValueError("If size is a sequence, it should have 1 or 2 values")
        self.size = size
        self.max_size = max_size
        self.interpolation = _interp(interpolation)
        self.antialias = antialias

    def forward(self, img: Any) -> Any:
        return F.resize(img, self.size, self.interpolation, self.max_size, self.antialias)

    def __repr__(self) -> str:
        detail = f"(size={self.size}, interpolation={self.interpolation.value}, max_size={self.max_size}, " \
                 f"antialias={self.antialias})"
        return f"{self.__class__.__name__}{detail}"


class Scale(Resize):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn("The use of the transforms.Scale transform is deprecated, please use transforms.Resize instead.")
        super().__init__(*args, **kwargs)


def _setup_size(size: Any, error_msg: str) -> Tuple[int, int]:
    if isinstance(size, numbers.Number):
        return int(size), int(size)
    if isinstance(size, Sequence) and len(size) == 1:
        return size[0], size[0]
    if len(size) != 2:
        raise ValueError(error_msg)
    return size


class CenterCrop(Module):
    def __init__(self, size: Any) -> None:
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")

    def forward(self, img: Any) -> Any:
        return F.center_crop(img, self.size)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size})"


class Pad(Module):
    def __init__(self, padding: Any, fill: Any = 0, padding_mode: str = "constant") -> None:
        super().__init__()
        if not isinstance(padding, (numbers.Number, tuple, list)):
            raise TypeError("Got inappropriate padding arg")
        if not isinstance(fill, (numbers.Number, str, tuple)):
            raise TypeError("Got inappropriate fill arg")
        if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
            raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
        if isinstance(padding, Sequence) and len(padding) not in [1, 2, 4]:
            raise ValueError(
                f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple"
            )
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def forward(self, img: Any) -> Any:
        return F.pad(img, self.padding, self.fill, self.padding_mode)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(padding={self.padding}, fill={self.fill}, padding_mode={self.padding_mode})"


class Lambda:
    def __init__(self, lambd: Any) -> None:
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img: Any) -> Any:
        return self.lambd(img)

    def __repr__(self) -> str:
        return self.__class__.__name__ + "()"


class RandomTransforms:
    def __init__(self, transforms: Sequence) -> None:
        if not isinstance(transforms, Sequence):
            raise TypeError("Argument transforms should be a sequence")
        self.transforms = transforms

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.__call__: RandomTransforms is an abstract base class")

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + "("
        for t in self.transforms:
            format_string += "\n"
            format_string += f"    {t}"
        format_string += "\n)"
        return format_string


class RandomApply(Module):
    """Apply the list of transforms together with probability p."""

    def __init__(self, transforms: Sequence, p: float = 0.5) -> None:
        super().__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, img: Any) -> Any:
        if self.p < _rng.rand1():
            return img
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + "("
        format_string += f"\n    p={self.p}"
        for t in self.transforms:
            format_string += "\n"
            format_string += f"    {t}"
        format_string += "\n)"
        return format_string


class RandomOrder(RandomTransforms):
    def __call__(self, img: Any) -> Any:
        order = _rng.randperm(len(self.transforms))
        for i in order:
            img = self.transforms[i](img)
        return img


class RandomChoice(RandomTransforms):
    def __init__(self, transforms: Sequence, p: Optional[List[float]] = None) -> None:
        super().__init__(transforms)
        if p is not None and not isinstance(p, Sequence):
            raise TypeError("Argument p should be a sequence")
        self.p = p

    def __call__(self, *args: Any) -> Any:
        if self.p is None:
            idx = _rng.randint1(0, len(self.transforms))
        else:
            # torch.multinomial(torch.tensor(p), 1): one draw weighted by p
            w = np.asarray(self.p, dtype=np.float64)
            cdf = np.cumsum(w / w.sum())
            idx = int(min(np.searchsorted(cdf, _rng.rand1(), side="right"), len(w) - 1))
        return self.transforms[idx](*args)

    def __repr__(self) -> str:
        return f"{super().__repr__()}(p={self.p})"


class RandomCrop(Module):
    """Crop at a random location; optional padding first (`pad_if_needed` pads images smaller than size)."""

    @staticmethod
    def get_params(img: Any, output_size: Tuple[int, int]) -> Tuple[int, int, int, int]:
        _, h, w = F.get_dimensions(img)
        th, tw = output_size
        if h + 1 < th or w + 1 < tw:
            raise ValueError(f"Required crop size {(th, tw)} is larger then input image size {(h, w)}")
        if w == tw and h == th:
            return 0, 0, h, w
        i = _rng.randint1(0, h - th + 1)
        j = _rng.randint1(0, w - tw + 1)
        return i, j, th, tw

    def __init__(self, size: Any, padding: Any = None, pad_if_needed: bool = False, fill: Any = 0,
                 padding_mode: str = "constant") -> None:
        super().__init__()
        self.size = tuple(_setup_size(size, error_msg="Please provide only two dimensions (h, w) for size."))
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def forward(self, img: Any) -> Any:
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        _, height, width = F.get_dimensions(img)
        if self.pad_if_needed and width < self.size[1]:
            padding = [self.size[1] - width, 0]
            img = F.pad(img, padding, self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            padding = [0, self.size[0] - height]
            img = F.pad(img, padding, self.fill, self.padding_mode)
        i, j, h, w = self.get_params(img, self.size)
        return F.crop(img, i, j, h, w)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size}, padding={self.padding})"


class RandomHorizontalFlip(Module):
    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.hflip(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomVerticalFlip(Module):
    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.vflip(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomPerspective(Module):
    def __init__(self, distortion_scale: float = 0.5, p: float = 0.5,
                 interpolation: InterpolationMode = InterpolationMode.BILINEAR, fill: Any = 0) -> None:
        super().__init__()
        self.p = p
        self.interpolation = _interp(interpolation)
        self.distortion_scale = distortion_scale
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill

    def forward(self, img: Any) -> Any:
        fill = self.fill
        channels, height, width = F.get_dimensions(img)
        if is_tensor(img):
            if isinstance(fill, (int, float)):
                fill = [float(fill)] * channels
            else:
                fill = [float(f) for f in fill]
        if _rng.rand1() < self.p:
            startpoints, endpoints = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, startpoints, endpoints, self.interpolation, fill)
        return img

    @staticmethod
    def get_params(width: int, height: int, distortion_scale: float) -> Tuple[List[List[int]], List[List[int]]]:
        half_height = height // 2
        half_width = width // 2
        topleft = [
            _rng.randint1(0, int(distortion_scale * half_width) + 1),
            _rng.randint1(0, int(distortion_scale * half_height) + 1),
        ]
        topright = [
            _rng.randint1(width - int(distortion_scale * half_width) - 1, width),
            _rng.randint1(0, int(distortion_scale * half_height) + 1),
        ]
        botright = [
            _rng.randint1(width - int(distortion_scale * half_width) - 1, width),
            _rng.randint1(height - int(distortion_scale * half_height) - 1, height),
        ]
        botleft = [
            _rng.randint1(0, int(distortion_scale * half_width) + 1),
            _rng.randint1(height - int(distortion_scale * half_height) - 1, height),
        ]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        endpoints = [topleft, topright, botright, botleft]
        return startpoints, endpoints

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomResizedCrop(Module):
    """Crop a random area (`scale` of the image, aspect `ratio`) and resize it to `size`."""

    def __init__(self, size: Any, scale: Tuple[float, float] = (0.08, 1.0),
                 ratio: Tuple[float, float] = (3.0 / 4.0, 4.0 / 3.0),
                 interpolation: InterpolationMode = InterpolationMode.BILINEAR) -> None:
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")
        if not isinstance(scale, Sequence):
            raise TypeError("Scale should be a sequence")
        if not isinstance(ratio, Sequence):
            raise TypeError("Ratio should be a sequence")
        if (scale[0] > scale[1]) or (ratio[0] > ratio[1]):
            warnings.warn("Scale and ratio should be of kind (min, max)")
        self.interpolation = _interp(interpolation)
        self.scale = scale
        self.ratio = ratio

    @staticmethod
    def get_params(img: Any, scale: List[float], ratio: List[float]) -> Tuple[int, int, int, int]:
        _, height, width = F.get_dimensions(img)
        area = height * width
        log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
        for _ in range(10):
            target_area = area * _rng.uniform(scale[0], scale[1])
            aspect_ratio = math.exp(_rng.uniform(log_ratio[0], log_ratio[1]))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                i = _rng.randint1(0, height - h + 1)
                j = _rng.randint1(0, width - w + 1)
                return i, j, h, w
        # Fallback to central crop
        in_ratio = float(width) / float(height)
        if in_ratio < min(ratio):
            w = width
            h = int(round(w / min(ratio)))
        elif in_ratio > max(ratio):
            h = height
            w = int(round(h * max(ratio)))
        else:  # whole image
            w = width
            h = height
        i = (height - h) // 2
        j = (width - w) // 2
        return i, j, h, w

    def forward(self, img: Any) -> Any:
        i, j, h, w = self.get_params(img, self.scale, self.ratio)
        return F.resized_crop(img, i, j, h, w, self.size, self.interpolation)

    def __repr__(self) -> str:
        interpolate_str = self.interpolation.value
        format_string = self.__class__.__name__ + f"(size={self.size}"
        format_string += f", scale={tuple(round(s, 4) for s in self.scale)}"
        format_string += f", ratio={tuple(round(r, 4) for r in self.ratio)}"
        format_string += f", interpolation={interpolate_str})"
        return format_string


class RandomSizedCrop(RandomResizedCrop):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn("The use of the transforms.RandomSizedCrop transform is deprecated, "
                      "please use transforms.RandomResizedCrop instead.")
        super().__init__(*args, **kwargs)


class FiveCrop(Module):
    def __init__(self, size: Any) -> None:
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")

    def forward(self, img: Any) -> Any:
        return F.five_crop(img, self.size)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size})"


class TenCrop(Module):
    def __init__(self, size: Any, vertical_flip: bool = False) -> None:
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")
        self.vertical_flip = vertical_flip

    def forward(self, img: Any) -> Any:
        return F.ten_crop(img, self.size, self.vertical_flip)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size}, vertical_flip={self.vertical_flip})"


class LinearTransformation(Module):
    """Flatten the (C, H, W) tensor, subtract mean_vector, multiply by transformation_matrix (whitening)."""

    def __init__(self, transformation_matrix: Any, mean_vector: Any) -> None:
        super().__init__()
        tm = to_numpy(transformation_matrix)
        mv = to_numpy(mean_vector)
        if tm.shape[0] != tm.shape[1]:
            raise ValueError(
                "transformation_matrix should be square. Got "
                f"{tuple(tm.shape)} rectangular matrix."
            )
        if mv.shape[0] != tm.shape[0]:
            raise ValueError(
                f"mean_vector should have the same length {mv.shape[0]}"
                f" as any one of the dimensions of the transformation_matrix [{tuple(tm.shape)}]"
            )
        self.transformation_matrix = transformation_matrix
        self.mean_vector = mean_vector

    def forward(self, tensor: Any) -> Any:
        arr = to_numpy(tensor)
        shape = arr.shape
        n = shape[-3] * shape[-2] * shape[-1]
        tm = to_numpy(self.transformation_matrix)
        mv = to_numpy(self.mean_vector)
        if n != tm.shape[0]:
            raise ValueError(
                "Input tensor and transformation matrix have incompatible shape."
                f"[{shape[-3]} x {shape[-2]} x {shape[-1]}] != {tm.shape[0]}"
            )
        if arr.dtype != tm.dtype:
            raise ValueError(
                "Input tensor should have the same dtype as transformation matrix and mean vector, "
                f"but got {arr.dtype} and {tm.dtype}."
            )
        flat = arr.reshape(-1, n) - mv
        out = (flat @ tm).astype(arr.dtype)
        return from_numpy(out.reshape(shape))

    def __repr__(self) -> str:
        s = (
            f"{self.__class__.__name__}(transformation_matrix="
            f"{self.transformation_matrix.tolist()}"
            f", mean_vector={self.mean_vector.tolist()})"
        )
        return s


class ColorJitter(Module):
    """Random brightness, contrast, saturation and hue changes, applied in a random order."""

    def __init__(self, brightness: Any = 0, contrast: Any = 0, saturation: Any = 0, hue: Any = 0) -> None:
        super().__init__()
        self.brightness = self._check_input(brightness, "brightness")
        self.contrast = self._check_input(contrast, "contrast")
        self.saturation = self._check_input(saturation, "saturation")
        self.hue = self._check_input(hue, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False)

    @staticmethod
    def _check_input(value: Any, name: str, center: float = 1, bound: Tuple[float, float] = (0, float("inf")),
                     clip_first_on_zero: bool = True) -> Optional[List[float]]:
        if isinstance(value, numbers.Number):
            if value < 0:
                raise ValueError(f"If {name} is a single number, it must be non negative.")
            value = [center - float(value), center + float(value)]
            if clip_first_on_zero:
                value[0] = max(value[0], 0.0)
        elif not (isinstance(value, (tuple, list)) and len(value) == 2):
            raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}")
        # if value is 0 or (1., 1.) for brightness/contrast/saturation or (0., 0.) for hue, do nothing
        if value[0] == value[1] == center:
            value = None
        return value

    @staticmethod
    def get_params(brightness: Optional[List[float]], contrast: Optional[List[float]],
                   saturation: Optional[List[float]], hue: Optional[List[float]]) -> Tuple[Any, ...]:
        fn_idx = _rng.randperm(4)
        b = None if brightness is None else _rng.uniform(brightness[0], brightness[1])
        c = None if contrast is None else _rng.uniform(contrast[0], contrast[1])
        s = None if saturation is None else _rng.uniform(saturation[0], saturation[1])
        h = None if hue is None else _rng.uniform(hue[0], hue[1])
        return fn_idx, b, c, s, h

    def forward(self, img: Any) -> Any:
        fn_idx, brightness_factor, contrast_factor, saturation_factor, hue_factor = self.get_params(
            self.brightness, self.contrast, self.saturation, self.hue
        )
        for fn_id in fn_idx:
            if fn_id == 0 and brightness_factor is not None:
                img = F.adjust_brightness(img, brightness_factor)
            elif fn_id == 1 and contrast_factor is not None:
                img = F.adjust_contrast(img, contrast_factor)
            elif fn_id == 2 and saturation_factor is not None:
                img = F.adjust_saturation(img, saturation_factor)
            elif fn_id == 3 and hue_factor is not None:
                img = F.adjust_hue(img, hue_factor)
        return img

    def __repr__(self) -> str:
        s = (
            f"{self.__class__.__name__}("
            f"brightness={self.brightness}"
            f", contrast={self.contrast}"
            f", saturation={self.saturation}"
            f", hue={self.hue})"
        )
        return s


def _check_sequence_input(x: Any, name: str, req_sizes: Sequence[int]) -> None:
    msg = req_sizes[0] if len(req_sizes) < 2 else " or ".join([str(s) for s in req_sizes])
    if not isinstance(x, Sequence):
        raise TypeError(f"{name} should be a sequence of length {msg}.")
    if len(x) not in req_sizes:
        raise ValueError(f"{name} should be sequence of length {msg}.")


def _setup_angle(x: Any, name: str, req_sizes: Sequence[int] = (2,)) -> List[float]:
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    else:
        _check_sequence_input(x, name, req_sizes)
    return [float(d) for d in x]


class RandomRotation(Module):
    def __init__(self, degrees: Any, interpolation: InterpolationMode = InterpolationMode.NEAREST,
                 expand: bool = False, center: Any = None, fill: Any = 0, resample: Optional[int] = None) -> None:
        super().__init__()
        if resample is not None:
            warnings.warn("The parameter 'resample' is deprecated since 0.12 and will be removed in 0.14. "
                          "Please use 'interpolation' instead.")
            interpolation = _interpolation_modes_from_int(resample)
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center
        self.resample = self.interpolation = _interp(interpolation)
        self.expand = expand
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill

    @staticmethod
    def get_params(degrees: List[float]) -> float:
        return _rng.uniform(float(degrees[0]), float(degrees[1]))

    def forward(self, img: Any) -> Any:
        fill = self.fill
        channels, _, _ = F.get_dimensions(img)
        if is_tensor(img):
            if isinstance(fill, (int, float)):
                fill = [float(fill)] * channels
            else:
                fill = [float(f) for f in fill]
        angle = self.get_params(self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, fill)

    def __repr__(self) -> str:
        interpolate_str = self.interpolation.value
        format_string = self.__class__.__name__ + f"(degrees={self.degrees}"
        format_string += f", interpolation={interpolate_str}"
        format_string += f", expand={self.expand}"
        if self.center is not None:
            format_string += f", center={self.center}"
        if self.fill is not None:
            format_string += f", fill={self.fill}"
        format_string += ")"
        return format_string


class RandomAffine(Module):
    def __init__(self, degrees: Any, translate: Any = None, scale: Any = None, shear: Any = None,
                 interpolation: InterpolationMode = InterpolationMode.NEAREST, fill: Any = 0,
                 fillcolor: Any = None, resample: Optional[int] = None, center: Any = None) -> None:
        super().__init__()
        if resample is not None:
            warnings.warn("The parameter 'resample' is deprecated since 0.12 and will be removed in 0.14. "
                          "Please use 'interpolation' instead.")
            interpolation = _interpolation_modes_from_int(resample)
        if fillcolor is not None:
            warnings.warn("The parameter 'fillcolor' is deprecated since 0.12 and will be removed in 0.14. "
                          "Please use 'fill' instead.")
            fill = fillcolor
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        if translate is not None:
            _check_sequence_input(translate, "translate", req_sizes=(2,))
            for t in translate:
                if not (0.0 <= t <= 1.0):
                    raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            _check_sequence_input(scale, "scale", req_sizes=(2,))
            for s in scale:
                if s <= 0:
                    raise ValueError("scale values should be positive")
        self.scale = scale
        if shear is not None:
            self.shear = _setup_angle(shear, name="shear", req_sizes=(2, 4))
        else:
            self.shear = shear
        self.resample = self.interpolation = _interp(interpolation)
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fillcolor = self.fill = fill
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center

    @staticmethod
    def get_params(degrees: List[float], translate: Optional[List[float]], scale_ranges: Optional[List[float]],
                   shears: Optional[List[float]], img_size: List[int]) -> Tuple[float, Tuple[int, int], float,
                                                                                 Tuple[float, float]]:
        angle = _rng.uniform(float(degrees[0]), float(degrees[1]))
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            tx = int(round(_rng.uniform(-max_dx, max_dx)))
            ty = int(round(_rng.uniform(-max_dy, max_dy)))
            translations = (tx, ty)
        else:
            translations = (0, 0)
        if scale_ranges is not None:
            scale = _rng.uniform(scale_ranges[0], scale_ranges[1])
        else:
            scale = 1.0
        shear_x = shear_y = 0.0
        if shears is not None:
            shear_x = _rng.uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = _rng.uniform(shears[2], shears[3])
        shear = (shear_x, shear_y)
        return angle, translations, scale, shear

    def forward(self, img: Any) -> Any:
        fill = self.fill
        channels, height, width = F.get_dimensions(img)
        if is_tensor(img):
            if isinstance(fill, (int, float)):
                fill = [float(fill)] * channels
            else:
                fill = [float(f) for f in fill]
        img_size = [width, height]  # flip for keeping BC on get_params call
        ret = self.get_params(self.degrees, self.translate, self.scale, self.shear, img_size)
        return F.affine(img, *ret, interpolation=self.interpolation, fill=fill, center=self.center)

    def __repr__(self) -> str:
        s = f"{self.__class__.__name__}(degrees={self.degrees}"
        s += f", translate={self.translate}" if self.translate is not None else ""
        s += f", scale={self.scale}" if self.scale is not None else ""
        s += f", shear={self.shear}" if self.shear is not None else ""
        s += f", interpolation={self.interpolation.value}" if self.interpolation != InterpolationMode.NEAREST else ""
        s += f", fill={self.fill}" if self.fill != 0 else ""
        s += f", center={self.center}" if self.center is not None else ""
        s += ")"
        return s


class Grayscale(Module):
    def __init__(self, num_output_channels: int = 1) -> None:
        super().__init__()
        self.num_output_channels = num_output_channels

    def forward(self, img: Any) -> Any:
        return F.rgb_to_grayscale(img, num_output_channels=self.num_output_channels)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(num_output_channels={self.num_output_channels})"


class RandomGrayscale(Module):
    def __init__(self, p: float = 0.1) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        num_output_channels, _, _ = F.get_dimensions(img)
        if _rng.rand1() < self.p:
            return F.rgb_to_grayscale(img, num_output_channels=num_output_channels)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomErasing(Module):
    """Erase a random rectangle of a (..., C, H, W) tensor (Zhong et al., Random Erasing)."""

    def __init__(self, p: float = 0.5, scale: Tuple[float, float] = (0.02, 0.33),
                 ratio: Tuple[float, float] = (0.3, 3.3), value: Any = 0, inplace: bool = False) -> None:
        super().__init__()
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError("Argument value should be either a number or str or a sequence")
        if isinstance(value, str) and value != "random":
            raise ValueError("If value is str, it should be 'random'")
        if not isinstance(scale, (tuple, list)):
            raise TypeError("Scale should be a sequence")
        if not isinstance(ratio, (tuple, list)):
            raise TypeError("Ratio should be a sequence")
        if (scale[0] > scale[1]) or (ratio[0] > ratio[1]):
            warnings.warn("Scale and ratio should be of kind (min, max)")
        if scale[0] < 0 or scale[1] > 1:
            raise ValueError("Scale should be between 0 and 1")
        if p < 0 or p > 1:
            raise ValueError("Random erasing probability should be between 0 and 1")
        self.p = p
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    @staticmethod
    def get_params(img: Any, scale: Tuple[float, float], ratio: Tuple[float, float],
                   value: Optional[List[float]] = None) -> Tuple[int, int, int, int, Any]:
        img_c, img_h, img_w = to_numpy(img).shape[-3:]
        area = img_h * img_w
        log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
        for _ in range(10):
            erase_area = area * _rng.uniform(scale[0], scale[1])
            aspect_ratio = math.exp(_rng.uniform(log_ratio[0], log_ratio[1]))
            h = int(round(math.sqrt(erase_area * aspect_ratio)))
            w = int(round(math.sqrt(erase_area / aspect_ratio)))
            if not (h < img_h and w < img_w):
                continue
            if value is None:
                v = _rng.generator().standard_normal((img_c, h, w)).astype(np.float32)
            else:
                v = np.asarray(value, dtype=np.float32)[:, None, None]
            i = _rng.randint1(0, img_h - h + 1)
            j = _rng.randint1(0, img_w - w + 1)
            return i, j, h, w, from_numpy(v)
        # Return original image
        return 0, 0, img_h, img_w, img

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            if isinstance(self.value, (int, float)):
                value = [self.value]
            elif isinstance(self.value, str):
                value = None
            elif isinstance(self.value, tuple):
                value = list(self.value)
            else:
                value = self.value
            if value is not None and len(value) not in (1, to_numpy(img).shape[-3]):
                raise ValueError(
                    "If value is a sequence, it should have either a single value or "
                    f"{to_numpy(img).shape[-3]} (number of input channels)"
                )
            x, y, h, w, v = self.get_params(img, scale=self.scale, ratio=self.ratio, value=value)
            return F.erase(img, x, y, h, w, v, self.inplace)
        return img

    def __repr__(self) -> str:
        s = (
            f"{self.__class__.__name__}"
            f"(p={self.p}, "
            f"scale={self.scale}, "
            f"ratio={self.ratio}, "
            f"value={self.value}, "
            f"inplace={self.inplace})"
        )
        return s


class GaussianBlur(Module):
    def __init__(self, kernel_size: Any, sigma: Any = (0.1, 2.0)) -> None:
        super().__init__()
        self.kernel_size = _setup_size(kernel_size, "Kernel size should be a tuple/list of two integers")
        for ks in self.kernel_size:
            if ks <= 0 or ks % 2 == 0:
                raise ValueError("Kernel size value should be an odd and positive number.")
        if isinstance(sigma, numbers.Number):
            if sigma <= 0:
                raise ValueError("If sigma is a single number, it must be positive.")
            sigma = (sigma, sigma)
        elif isinstance(sigma, Sequence) and len(sigma) == 2:
            if not 0.0 < sigma[0] <= sigma[1]:
                raise ValueError("sigma values should be positive and of the form (min, max).")
        else:
            raise ValueError("sigma should be a single number or a list/tuple with length 2.")
        self.sigma = sigma

    @staticmethod
    def get_params(sigma_min: float, sigma_max: float) -> float:
        return _rng.uniform(sigma_min, sigma_max)

    def forward(self, img: Any) -> Any:
        sigma = self.get_params(self.sigma[0], self.sigma[1])
        return F.gaussian_blur(img, self.kernel_size, [sigma, sigma])

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(kernel_size={self.kernel_size}, sigma={self.sigma})"


class RandomInvert(Module):
    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.invert(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomPosterize(Module):
    def __init__(self, bits: int, p: float = 0.5) -> None:
        super().__init__()
        self.bits = bits
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.posterize(img, self.bits)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(bits={self.bits},p={self.p})"


class RandomSolarize(Module):
    def __init__(self, threshold: float, p: float = 0.5) -> None:
        super().__init__()
        self.threshold = threshold
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.solarize(img, self.threshold)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(threshold={self.threshold},p={self.p})"


class RandomAdjustSharpness(Module):
    def __init__(self, sharpness_factor: float, p: float = 0.5) -> None:
        super().__init__()
        self.sharpness_factor = sharpness_factor
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.adjust_sharpness(img, self.sharpness_factor)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(sharpness_factor={self.sharpness_factor},p={self.p})"


class RandomAutocontrast(Module):
    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.autocontrast(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomEqualize(Module):
    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        if _rng.rand1() < self.p:
            return F.equalize(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"




