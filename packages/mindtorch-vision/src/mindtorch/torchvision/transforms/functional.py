"""torchvision.transforms.functional (0.13): one function per transform, on PIL images and tensors.

PIL images go through `functional_pil` (Pillow's own operations, exactly as torchvision calls them); tensors
`(..., C, H, W)` go through `functional_tensor`, which computes in numpy and reproduces torchvision's tensor
kernels; the result is a mindtorch tensor of the input's dtype.
"""
from __future__ import annotations

import math
import numbers
import warnings
from enum import Enum
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np
from PIL import Image

import mindtorch.torch as torch

from .._bridge import from_numpy, is_tensor, records_grad, to_numpy, torch_to_np_dtype, write_back
from . import functional_pil as F_pil
from . import functional_tensor as F_t


class InterpolationMode(Enum):
    """Interpolation modes. Tensors support NEAREST, BILINEAR, BICUBIC; PIL images all of them."""

    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    # For PIL compatibility
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


def _interpolation_modes_from_int(i: int) -> InterpolationMode:
    inverse_modes_mapping = {
        0: InterpolationMode.NEAREST,
        2: InterpolationMode.BILINEAR,
        3: InterpolationMode.BICUBIC,
        4: InterpolationMode.BOX,
        5: InterpolationMode.HAMMING,
        1: InterpolationMode.LANCZOS,
    }
    return inverse_modes_mapping[i]


pil_modes_mapping = {
    InterpolationMode.NEAREST: 0,
    InterpolationMode.BILINEAR: 2,
    InterpolationMode.BICUBIC: 3,
    InterpolationMode.BOX: 4,
    InterpolationMode.HAMMING: 5,
    InterpolationMode.LANCZOS: 1,
}


def _check_interpolation(interpolation: Any, name: str = "interpolation") -> InterpolationMode:
    if isinstance(interpolation, int):
        warnings.warn(
            "Argument interpolation should be of type InterpolationMode instead of int. "
            "Please, use InterpolationMode enum."
        )
        return _interpolation_modes_from_int(interpolation)
    if not isinstance(interpolation, InterpolationMode):
        raise TypeError("Argument interpolation should be a InterpolationMode")
    return interpolation


def _is_pil_image(img: Any) -> bool:
    return isinstance(img, Image.Image)


def _is_numpy(img: Any) -> bool:
    return isinstance(img, np.ndarray)


def _is_numpy_image(img: Any) -> bool:
    return img.ndim in {2, 3}


def _apply(img: Any, fn_t, fn_pil, *args: Any, **kwargs: Any) -> Any:
    """Dispatch: tensor -> numpy kernel -> tensor; PIL -> PIL kernel; anything else -> TypeError."""
    if is_tensor(img):
        return from_numpy(fn_t(to_numpy(img), *args, **kwargs))
    if _is_pil_image(img):
        return fn_pil(img, *args, **kwargs)
    raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")


def get_dimensions(img: Any) -> List[int]:
    """[channels, height, width] of a PIL image or a (..., C, H, W) tensor."""
    if is_tensor(img):
        return F_t.get_dimensions(to_numpy(img))
    return F_pil.get_dimensions(img)


def get_image_size(img: Any) -> List[int]:
    """[width, height]."""
    if is_tensor(img):
        _, h, w = F_t.get_dimensions(to_numpy(img))
        return [w, h]
    return F_pil.get_image_size(img)


def get_image_num_channels(img: Any) -> int:
    if is_tensor(img):
        return F_t.get_dimensions(to_numpy(img))[0]
    return F_pil.get_image_num_channels(img)


def to_tensor(pic: Any) -> Any:
    """PIL image or HWC ndarray -> CHW tensor; uint8 data becomes float in [0, 1] (default dtype)."""
    if not (_is_pil_image(pic) or _is_numpy(pic)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if _is_numpy(pic) and not _is_numpy_image(pic):
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    default_float_dtype = torch_to_np_dtype(torch.get_default_dtype())
    if isinstance(pic, np.ndarray):
        if pic.ndim == 2:
            pic = pic[:, :, None]
        img = np.ascontiguousarray(pic.transpose((2, 0, 1)))
        if img.dtype == np.uint8:
            return from_numpy((img.astype(default_float_dtype) / default_float_dtype.type(255)))
        return from_numpy(img)
    mode_to_nptype = {"I": np.int32, "I;16": np.int16, "F": np.float32}
    img = np.array(pic, mode_to_nptype.get(pic.mode, np.uint8), copy=True)
    if pic.mode == "1":
        img = 255 * img
    img = img.reshape(pic.size[1], pic.size[0], len(pic.getbands()))
    img = np.ascontiguousarray(img.transpose((2, 0, 1)))
    if img.dtype == np.uint8:
        return from_numpy(img.astype(default_float_dtype) / default_float_dtype.type(255))
    return from_numpy(img)


def pil_to_tensor(pic: Any) -> Any:
    """PIL image -> CHW tensor of the image's own dtype (no scaling)."""
    if not _is_pil_image(pic):
        raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
    img = np.array(pic, copy=True)
    if img.dtype == np.uint16:
        # torch 1.12 has no uint16: I;16 data fits int32 exactly
        img = img.astype(np.int32)
    img = img.reshape(pic.size[1], pic.size[0], len(pic.getbands()))
    return from_numpy(np.ascontiguousarray(img.transpose((2, 0, 1))))


def convert_image_dtype(image: Any, dtype: Any = torch.float) -> Any:
    """Convert a tensor image to `dtype`, rescaling values (float images live in [0, 1])."""
    if not is_tensor(image):
        raise TypeError("Input img should be Tensor Image")
    return from_numpy(F_t.convert_image_dtype(to_numpy(image), torch_to_np_dtype(dtype)))


def to_pil_image(pic: Any, mode: Optional[str] = None) -> Any:
    """CHW tensor or HWC ndarray -> PIL image (mode inferred as torchvision does)."""
    if not (is_tensor(pic) or isinstance(pic, np.ndarray)):
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    if is_tensor(pic):
        arr = to_numpy(pic)
        if arr.ndim not in {2, 3}:
            raise ValueError(f"pic should be 2/3 dimensional. Got {arr.ndim} dimensions.")
        if arr.ndim == 2:
            arr = arr[None]
        if arr.shape[-3] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {arr.shape[-3]} channels.")
        if arr.dtype.kind == "f" and mode != "F":
            # pic.mul(255).byte(): truncation, and wrap-around outside [0, 255] like torch's byte()
            arr = np.trunc(arr * arr.dtype.type(255)).astype(np.int64).astype(np.uint8)
        npimg = np.transpose(arr, (1, 2, 0))
    else:
        npimg = pic
        if npimg.ndim not in {2, 3}:
            raise ValueError(f"pic should be 2/3 dimensional. Got {npimg.ndim} dimensions.")
        if npimg.ndim == 2:
            npimg = np.expand_dims(npimg, 2)
        if npimg.shape[-1] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {npimg.shape[-1]} channels.")

    if npimg.shape[2] == 1:
        expected_mode = None
        npimg = npimg[:, :, 0]
        if npimg.dtype == np.uint8:
            expected_mode = "L"
        elif npimg.dtype == np.int16:
            expected_mode = "I;16"
        elif npimg.dtype == np.int32:
            expected_mode = "I"
        elif npimg.dtype == np.float32:
            expected_mode = "F"
        if mode is not None and mode != expected_mode:
            raise ValueError(
                f"Incorrect mode ({mode}) supplied for input type {npimg.dtype}. Should be {expected_mode}")
        mode = expected_mode
    elif npimg.shape[2] == 2:
        permitted_2_channel_modes = ["LA"]
        if mode is not None and mode not in permitted_2_channel_modes:
            raise ValueError(f"Only modes {permitted_2_channel_modes} are supported for 2D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "LA"
    elif npimg.shape[2] == 4:
        permitted_4_channel_modes = ["RGBA", "CMYK", "RGBX"]
        if mode is not None and mode not in permitted_4_channel_modes:
            raise ValueError(f"Only modes {permitted_4_channel_modes} are supported for 4D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "RGBA"
    else:
        permitted_3_channel_modes = ["RGB", "YCbCr", "HSV"]
        if mode is not None and mode not in permitted_3_channel_modes:
            raise ValueError(f"Only modes {permitted_3_channel_modes} are supported for 3D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "RGB"
    if mode is None:
        raise TypeError(f"Input type {npimg.dtype} is not supported")
    npimg = np.ascontiguousarray(npimg)
    if mode == "I;16":
        return Image.frombytes("I;16", (npimg.shape[1], npimg.shape[0]), npimg.astype("<u2").tobytes())
    if mode in ("CMYK", "RGBX", "YCbCr", "HSV"):
        return Image.frombytes(mode, (npimg.shape[1], npimg.shape[0]), npimg.astype(np.uint8).tobytes())
    return Image.fromarray(npimg, mode=mode)


def normalize(tensor: Any, mean: Sequence[float], std: Sequence[float], inplace: bool = False) -> Any:
    """(tensor - mean) / std per channel of a float (..., C, H, W) tensor; `inplace` writes into `tensor`."""
    if not is_tensor(tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    if records_grad(tensor):
        if not tensor.is_floating_point():
            raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
        if tensor.ndim < 3:
            raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                             f"{tensor.size()}")
        m = torch.as_tensor(mean, dtype=tensor.dtype)
        sd = torch.as_tensor(std, dtype=tensor.dtype)
        if (sd == 0).any():
            raise ValueError(f"std evaluated to zero after conversion to {tensor.dtype}, leading to division by zero.")
        m, sd = (m.view(-1, 1, 1) if m.ndim == 1 else m), (sd.view(-1, 1, 1) if sd.ndim == 1 else sd)
        return tensor.sub_(m).div_(sd) if inplace else tensor.sub(m).div(sd)
    out = F_t.normalize(to_numpy(tensor), mean, std)
    if inplace:
        return write_back(tensor, out)
    return from_numpy(out)


def resize(img: Any, size: Union[int, List[int]], interpolation: InterpolationMode = InterpolationMode.BILINEAR,
           max_size: Optional[int] = None, antialias: Optional[bool] = None) -> Any:
    """Resize to `size` (int: the smaller edge; (h, w): exact). PIL images always antialias (Pillow)."""
    interpolation = _check_interpolation(interpolation)
    if not is_tensor(img):
        if antialias is not None and not antialias:
            warnings.warn("Anti-alias option is always applied for PIL Image input. Argument antialias is ignored.")
        return F_pil.resize(img, size=size, interpolation=pil_modes_mapping[interpolation], max_size=max_size)
    if records_grad(img):
        out_size = F_t.resize_output_size(tuple(img.shape[-2:]), size, interpolation.value, max_size, antialias)
        if out_size is None:
            return img
        x = img if img.ndim >= 4 else img.unsqueeze(0)
        align = False if interpolation.value in ("bilinear", "bicubic") else None
        lead = x.shape[:-3]
        y = torch.nn.functional.interpolate(x.reshape(-1, *x.shape[-3:]), size=out_size, mode=interpolation.value,
                                            align_corners=align, antialias=bool(antialias))
        y = y.reshape(*lead, *y.shape[-3:])
        return y if img.ndim >= 4 else y.squeeze(0)
    return from_numpy(F_t.resize(to_numpy(img), size=size, interpolation=interpolation.value, max_size=max_size,
                                 antialias=antialias))


def scale(*args: Any, **kwargs: Any) -> Any:
    warnings.warn("The use of the transforms.Scale transform is deprecated, please use transforms.Resize instead.")
    return resize(*args, **kwargs)


def pad(img: Any, padding: Union[int, List[int]], fill: Any = 0, padding_mode: str = "constant") -> Any:
    """Pad the borders (int, [lr, tb] or [l, t, r, b]); modes constant, edge, reflect, symmetric."""
    if is_tensor(img):
        return from_numpy(F_t.pad(to_numpy(img), padding=padding, fill=fill, padding_mode=padding_mode))
    return F_pil.pad(img, padding=padding, fill=fill, padding_mode=padding_mode)


def crop(img: Any, top: int, left: int, height: int, width: int) -> Any:
    """The (top, left, height, width) box; outside the image is zero-padded."""
    if records_grad(img):
        h, w = img.shape[-2:]
        right, bottom = left + width, top + height
        box = img[..., max(top, 0):bottom, max(left, 0):right]
        if left < 0 or top < 0 or right > w or bottom > h:
            pad_lrtb = [max(-left, 0), max(right - w, 0), max(-top, 0), max(bottom - h, 0)]
            return torch.nn.functional.pad(box, pad_lrtb, mode="constant", value=0.0)
        return box
    return _apply(img, F_t.crop, F_pil.crop, top, left, height, width)


def center_crop(img: Any, output_size: Any) -> Any:
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    elif isinstance(output_size, (tuple, list)) and len(output_size) == 1:
        output_size = (output_size[0], output_size[0])
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = output_size
    if crop_width > image_width or crop_height > image_height:
        padding_ltrb = [
            (crop_width - image_width) // 2 if crop_width > image_width else 0,
            (crop_height - image_height) // 2 if crop_height > image_height else 0,
            (crop_width - image_width + 1) // 2 if crop_width > image_width else 0,
            (crop_height - image_height + 1) // 2 if crop_height > image_height else 0,
        ]
        img = pad(img, padding_ltrb, fill=0)
        _, image_height, image_width = get_dimensions(img)
        if crop_width == image_width and crop_height == image_height:
            return img
    crop_top = int(round((image_height - crop_height) / 2.0))
    crop_left = int(round((image_width - crop_width) / 2.0))
    return crop(img, crop_top, crop_left, crop_height, crop_width)


def resized_crop(img: Any, top: int, left: int, height: int, width: int, size: List[int],
                 interpolation: InterpolationMode = InterpolationMode.BILINEAR) -> Any:
    img = crop(img, top, left, height, width)
    return resize(img, size, interpolation)


def hflip(img: Any) -> Any:
    return img.flip(-1) if records_grad(img) else _apply(img, F_t.hflip, F_pil.hflip)


def vflip(img: Any) -> Any:
    return img.flip(-2) if records_grad(img) else _apply(img, F_t.vflip, F_pil.vflip)


def _get_perspective_coeffs(startpoints: List[List[int]], endpoints: List[List[int]]) -> List[float]:
    """The 8 coefficients of the perspective transform mapping endpoints to startpoints (least squares)."""
    a_matrix = np.zeros((2 * len(startpoints), 8), dtype=np.float32)
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a_matrix[2 * i, :] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a_matrix[2 * i + 1, :] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    b_matrix = np.asarray(startpoints, dtype=np.float32).reshape(8)
    res = np.linalg.lstsq(a_matrix.astype(np.float64), b_matrix.astype(np.float64), rcond=None)[0]
    return [float(v) for v in res.astype(np.float32)]


def perspective(img: Any, startpoints: List[List[int]], endpoints: List[List[int]],
                interpolation: InterpolationMode = InterpolationMode.BILINEAR,
                fill: Optional[List[float]] = None) -> Any:
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    interpolation = _check_interpolation(interpolation)
    if not is_tensor(img):
        return F_pil.perspective(img, coeffs, interpolation=pil_modes_mapping[interpolation], fill=fill)
    return from_numpy(F_t.perspective(to_numpy(img), coeffs, interpolation=interpolation.value, fill=fill))


def five_crop(img: Any, size: Any) -> Tuple[Any, Any, Any, Any, Any]:
    """(top-left, top-right, bottom-left, bottom-right, center) crops."""
    if isinstance(size, numbers.Number):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2:
        raise ValueError("Please provide only two dimensions (h, w) for size.")
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = size
    if crop_width > image_width or crop_height > image_height:
        msg = "Requested crop size {} is bigger than input size {}"
        raise ValueError(msg.format(size, (image_height, image_width)))
    tl = crop(img, 0, 0, crop_height, crop_width)
    tr = crop(img, 0, image_width - crop_width, crop_height, crop_width)
    bl = crop(img, image_height - crop_height, 0, crop_height, crop_width)
    br = crop(img, image_height - crop_height, image_width - crop_width, crop_height, crop_width)
    center = center_crop(img, [crop_height, crop_width])
    return tl, tr, bl, br, center


def ten_crop(img: Any, size: Any, vertical_flip: bool = False) -> Tuple[Any, ...]:
    if isinstance(size, numbers.Number):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2:
        raise ValueError("Please provide only two dimensions (h, w) for size.")
    first_five = five_crop(img, size)
    img = vflip(img) if vertical_flip else hflip(img)
    second_five = five_crop(img, size)
    return first_five + second_five


def adjust_brightness(img: Any, brightness_factor: float) -> Any:
    return _apply(img, F_t.adjust_brightness, F_pil.adjust_brightness, brightness_factor)


def adjust_contrast(img: Any, contrast_factor: float) -> Any:
    return _apply(img, F_t.adjust_contrast, F_pil.adjust_contrast, contrast_factor)


def adjust_saturation(img: Any, saturation_factor: float) -> Any:
    return _apply(img, F_t.adjust_saturation, F_pil.adjust_saturation, saturation_factor)


def adjust_hue(img: Any, hue_factor: float) -> Any:
    return _apply(img, F_t.adjust_hue, F_pil.adjust_hue, hue_factor)


def adjust_gamma(img: Any, gamma: float, gain: float = 1) -> Any:
    return _apply(img, F_t.adjust_gamma, F_pil.adjust_gamma, gamma, gain)


def _get_inverse_affine_matrix(center: List[float], angle: float, translate: List[float], scale: float,
                               shear: List[float], inverted: bool = True) -> List[float]:
    # Affine matrix is: M = T * C * RotateScaleShear * C^-1 (torchvision's derivation)
    rot = math.radians(angle)
    sx = math.radians(shear[0])
    sy = math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    if inverted:
        matrix = [d, -b, 0.0, -c, a, 0.0]
        matrix = [x / scale for x in matrix]
        matrix[2] += matrix[0] * (-cx - tx) + matrix[1] * (-cy - ty)
        matrix[5] += matrix[3] * (-cx - tx) + matrix[4] * (-cy - ty)
        matrix[2] += cx
        matrix[5] += cy
    else:
        matrix = [a, b, 0.0, c, d, 0.0]
        matrix = [x * scale for x in matrix]
        matrix[2] += matrix[0] * (-cx) + matrix[1] * (-cy)
        matrix[5] += matrix[3] * (-cx) + matrix[4] * (-cy)
        matrix[2] += cx + tx
        matrix[5] += cy + ty
    return matrix


def rotate(img: Any, angle: float, interpolation: InterpolationMode = InterpolationMode.NEAREST,
           expand: bool = False, center: Optional[List[int]] = None, fill: Optional[List[float]] = None,
           resample: Optional[int] = None) -> Any:
    """Rotate counter-clockwise by `angle` degrees about `center` (default: the image centre)."""
    if resample is not None:
        warnings.warn("The parameter 'resample' is deprecated since 0.12 and will be removed in 0.14. "
                      "Please use 'interpolation' instead.")
        interpolation = _interpolation_modes_from_int(resample)
    interpolation = _check_interpolation(interpolation)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if not is_tensor(img):
        return F_pil.rotate(img, angle=angle, interpolation=pil_modes_mapping[interpolation], expand=expand,
                            center=center, fill=fill)
    center_f = [0.0, 0.0]
    if center is not None:
        _, height, width = get_dimensions(img)
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    # rotate and affine turn in opposite directions in torchvision's conventions: hence -angle
    matrix = _get_inverse_affine_matrix(center_f, -angle, [0.0, 0.0], 1.0, [0.0, 0.0])
    return from_numpy(F_t.rotate(to_numpy(img), matrix=matrix, interpolation=interpolation.value, expand=expand,
                                 fill=fill))


def affine(img: Any, angle: float, translate: List[int], scale: float, shear: Any,
           interpolation: InterpolationMode = InterpolationMode.NEAREST, fill: Optional[List[float]] = None,
           resample: Optional[int] = None, fillcolor: Optional[List[float]] = None,
           center: Optional[List[int]] = None) -> Any:
    """Affine transform keeping the image centre invariant: rotation, translation, scale, shear."""
    if resample is not None:
        warnings.warn("The parameter 'resample' is deprecated since 0.12 and will be removed in 0.14. "
                      "Please use 'interpolation' instead.")
        interpolation = _interpolation_modes_from_int(resample)
    interpolation = _check_interpolation(interpolation)
    if fillcolor is not None:
        warnings.warn("The parameter 'fillcolor' is deprecated since 0.12 and will be removed in 0.14. "
                      "Please use 'fill' instead.")
        fill = fillcolor
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    if isinstance(angle, int):
        angle = float(angle)
    translate = list(translate)
    if isinstance(shear, numbers.Number):
        shear = [shear, 0.0]
    shear = list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    _, height, width = get_dimensions(img)
    if not is_tensor(img):
        # the centre without the 0.5 offset, as torchvision (matches torch.rot90 for 90 degrees)
        center_p = [width * 0.5, height * 0.5] if center is None else list(center)
        matrix = _get_inverse_affine_matrix(center_p, angle, translate, scale, shear)
        return F_pil.affine(img, matrix=matrix, interpolation=pil_modes_mapping[interpolation], fill=fill)
    center_f = [0.0, 0.0]
    if center is not None:
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    translate_f = [1.0 * t for t in translate]
    matrix = _get_inverse_affine_matrix(center_f, angle, translate_f, scale, shear)
    return from_numpy(F_t.affine(to_numpy(img), matrix=matrix, interpolation=interpolation.value, fill=fill))


def to_grayscale(img: Any, num_output_channels: int = 1) -> Any:
    if _is_pil_image(img):
        return F_pil.to_grayscale(img, num_output_channels)
    raise TypeError("Input should be PIL Image")


def rgb_to_grayscale(img: Any, num_output_channels: int = 1) -> Any:
    """ITU-R 601-2 luma (0.2989 R + 0.587 G + 0.114 B)."""
    if not is_tensor(img):
        return F_pil.to_grayscale(img, num_output_channels)
    return from_numpy(F_t.rgb_to_grayscale(to_numpy(img), num_output_channels))


def erase(img: Any, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Any:
    """Set img[..., i:i+h, j:j+w] = v (a scalar or a tensor broadcastable to the box)."""
    if not is_tensor(img):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    arr = to_numpy(img).copy()
    arr[..., i:i + h, j:j + w] = to_numpy(v) if is_tensor(v) else v
    if inplace:
        return write_back(img, arr)
    return from_numpy(arr)


def gaussian_blur(img: Any, kernel_size: List[int], sigma: Optional[List[float]] = None) -> Any:
    if not isinstance(kernel_size, (int, list, tuple)):
        raise TypeError(f"kernel_size should be int or a sequence of integers. Got {type(kernel_size)}")
    if isinstance(kernel_size, int):
        kernel_size = [kernel_size, kernel_size]
    if len(kernel_size) != 2:
        raise ValueError(f"If kernel_size is a sequence its length should be 2. Got {len(kernel_size)}")
    for ksize in kernel_size:
        if ksize % 2 == 0 or ksize < 0:
            raise ValueError(f"kernel_size should have odd and positive integers. Got {kernel_size}")
    if sigma is None:
        sigma = [ksize * 0.15 + 0.35 for ksize in kernel_size]
    if sigma is not None and not isinstance(sigma, (int, float, list, tuple)):
        raise TypeError(f"sigma should be either float or sequence of floats. Got {type(sigma)}")
    if isinstance(sigma, (int, float)):
        sigma = [float(sigma), float(sigma)]
    if isinstance(sigma, (list, tuple)) and len(sigma) == 1:
        sigma = [sigma[0], sigma[0]]
    if len(sigma) != 2:
        raise ValueError(f"If sigma is a sequence, its length should be 2. Got {len(sigma)}")
    for s in sigma:
        if s <= 0.0:
            raise ValueError(f"sigma should have positive values. Got {sigma}")
    if is_tensor(img):
        return from_numpy(F_t.gaussian_blur(to_numpy(img), list(kernel_size), list(sigma)))
    if not _is_pil_image(img):
        raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")
    # torchvision blurs PIL images with the tensor kernel too
    out = F_t.gaussian_blur(to_numpy(pil_to_tensor(img)), list(kernel_size), list(sigma))
    return to_pil_image(from_numpy(out), mode=img.mode)


def invert(img: Any) -> Any:
    return _apply(img, F_t.invert, F_pil.invert)


def posterize(img: Any, bits: int) -> Any:
    if not (0 <= bits <= 8):
        raise ValueError(f"The number if bits should be between 0 and 8. Got {bits}")
    return _apply(img, F_t.posterize, F_pil.posterize, bits)


def solarize(img: Any, threshold: float) -> Any:
    return _apply(img, F_t.solarize, F_pil.solarize, threshold)


def adjust_sharpness(img: Any, sharpness_factor: float) -> Any:
    return _apply(img, F_t.adjust_sharpness, F_pil.adjust_sharpness, sharpness_factor)


def autocontrast(img: Any) -> Any:
    return _apply(img, F_t.autocontrast, F_pil.autocontrast)


def equalize(img: Any) -> Any:
    return _apply(img, F_t.equalize, F_pil.equalize)
