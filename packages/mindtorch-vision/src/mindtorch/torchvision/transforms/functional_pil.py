"""PIL-image kernels of torchvision.transforms.functional (torchvision 0.13's functional_pil)."""
from __future__ import annotations

import numbers
from typing import Any, Dict, List, Sequence, Union

import numpy as np
from PIL import Image, ImageEnhance, ImageOps


def _is_pil_image(img: Any) -> bool:
    return isinstance(img, Image.Image)


def _check(img: Any) -> None:
    if not _is_pil_image(img):
        raise TypeError(f"img should be PIL Image. Got {type(img)}")


def get_dimensions(img: Any) -> List[int]:
    """[channels, height, width]."""
    _check(img)
    channels = len(img.getbands()) if hasattr(img, "getbands") else img.channels
    width, height = img.size
    return [channels, height, width]


def get_image_size(img: Any) -> List[int]:
    _check(img)
    return list(img.size)


def get_image_num_channels(img: Any) -> int:
    _check(img)
    return len(img.getbands())


def hflip(img: Any) -> Any:
    _check(img)
    return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def vflip(img: Any) -> Any:
    _check(img)
    return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def adjust_brightness(img: Any, brightness_factor: float) -> Any:
    _check(img)
    return ImageEnhance.Brightness(img).enhance(brightness_factor)


def adjust_contrast(img: Any, contrast_factor: float) -> Any:
    _check(img)
    return ImageEnhance.Contrast(img).enhance(contrast_factor)


def adjust_saturation(img: Any, saturation_factor: float) -> Any:
    _check(img)
    return ImageEnhance.Color(img).enhance(saturation_factor)


def adjust_hue(img: Any, hue_factor: float) -> Any:
    if not (-0.5 <= hue_factor <= 0.5):
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    _check(img)
    input_mode = img.mode
    if input_mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    np_h = np.array(h, dtype=np.uint8)
    # uint8 addition takes care of rotation across boundaries (same expression as torchvision)
    with np.errstate(over="ignore"):
        np_h += np.array(hue_factor * 255).astype(np.uint8)
    h = Image.fromarray(np_h, "L")
    return Image.merge("HSV", (h, s, v)).convert(input_mode)


def adjust_gamma(img: Any, gamma: float, gain: float = 1.0) -> Any:
    _check(img)
    if gamma < 0:
        raise ValueError("Gamma should be a non-negative real number")
    input_mode = img.mode
    img = img.convert("RGB")
    gamma_map = [int((255 + 1 - 1e-3) * gain * pow(ele / 255.0, gamma)) for ele in range(256)] * 3
    img = img.point(gamma_map)
    return img.convert(input_mode)


def _parse_fill(fill: Any, img: Any, name: str = "fillcolor") -> Dict[str, Any]:
    """fill -> PIL's fill argument for `img` (a tuple per band, ints unless mode F)."""
    num_channels = get_image_num_channels(img)
    if fill is None:
        fill = 0
    if isinstance(fill, (int, float)) and num_channels > 1:
        fill = tuple([fill] * num_channels)
    if isinstance(fill, (list, tuple)):
        if len(fill) != num_channels:
            msg = "The number of elements in 'fill' does not match the number of channels of the image ({} != {})"
            raise ValueError(msg.format(len(fill), num_channels))
        fill = tuple(fill)
    if img.mode != "F":
        if isinstance(fill, (list, tuple)):
            fill = tuple(int(x) for x in fill)
        else:
            fill = int(fill)
    return {name: fill}


def pad(img: Any, padding: Union[int, Sequence[int]], fill: Any = 0, padding_mode: str = "constant") -> Any:
    _check(img)
    if not isinstance(padding, (numbers.Number, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (numbers.Number, str, tuple, list)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, list):
        padding = tuple(padding)
    if isinstance(padding, tuple) and len(padding) not in [1, 2, 4]:
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if isinstance(padding, tuple) and len(padding) == 1:
        padding = padding[0]
    if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")

    if isinstance(padding, int):
        pad_left = pad_right = pad_top = pad_bottom = padding
    elif len(padding) == 2:
        pad_left = pad_right = padding[0]
        pad_top = pad_bottom = padding[1]
    else:
        pad_left, pad_top, pad_right, pad_bottom = padding
    p = [pad_left, pad_top, pad_right, pad_bottom]

    if padding_mode == "constant":
        opts = _parse_fill(fill, img, name="fill")
        if min(p) >= 0:
            if img.mode == "P":
                palette = img.getpalette()
                image = ImageOps.expand(img, border=tuple(p), **opts)
                image.putpalette(palette)
                return image
            return ImageOps.expand(img, border=tuple(p), **opts)
    cropping = -np.minimum(p, 0)
    if cropping.any():
        crop_left, crop_top, crop_right, crop_bottom = (int(c) for c in cropping)
        img = img.crop((crop_left, crop_top, img.width - crop_right, img.height - crop_bottom))
    pad_left, pad_top, pad_right, pad_bottom = (int(v) for v in np.maximum(p, 0))
    np_mode = "constant" if padding_mode == "constant" else padding_mode
    kwargs = {}
    if padding_mode == "constant":
        kwargs["constant_values"] = fill if isinstance(fill, numbers.Number) else 0
    if img.mode == "P":
        palette = img.getpalette()
        arr = np.asarray(img)
        arr = np.pad(arr, ((pad_top, pad_bottom), (pad_left, pad_right)), np_mode, **kwargs)
        out = Image.fromarray(arr)
        out.putpalette(palette)
        return out
    mode = img.mode
    arr = np.asarray(img)
    if arr.ndim == 3:
        if padding_mode == "constant" and not isinstance(fill, numbers.Number):
            arr = np.stack([np.pad(arr[..., c], ((pad_top, pad_bottom), (pad_left, pad_right)), "constant",
                                   constant_values=fill[c]) for c in range(arr.shape[2])], axis=2)
        else:
            arr = np.pad(arr, ((pad_top, pad_bottom), (pad_left, pad_right), (0, 0)), np_mode, **kwargs)
    else:
        arr = np.pad(arr, ((pad_top, pad_bottom), (pad_left, pad_right)), np_mode, **kwargs)
    if mode in ("1", "L", "RGB", "RGBA", "I", "F", "LA"):
        return Image.fromarray(arr, mode=mode)
    return Image.fromarray(arr)


def crop(img: Any, top: int, left: int, height: int, width: int) -> Any:
    _check(img)
    return img.crop((left, top, left + width, top + height))


def resize(img: Any, size: Union[Sequence[int], int], interpolation: int = Image.BILINEAR,
           max_size: Any = None) -> Any:
    _check(img)
    if not (isinstance(size, int) or (isinstance(size, Sequence) and len(size) in (1, 2))):
        raise TypeError(f"Got inappropriate size arg: {size}")
    if isinstance(size, Sequence) and len(size) == 1:
        size = size[0]
    if isinstance(size, int):
        w, h = img.size
        short, long = (w, h) if w <= h else (h, w)
        new_short, new_long = size, int(size * long / short)
        if max_size is not None:
            if max_size <= size:
                raise ValueError(
                    f"max_size = {max_size} must be strictly greater than the requested "
                    f"size for the smaller edge size = {size}"
                )
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
        if (w, h) == (new_w, new_h):
            return img
        return img.resize((new_w, new_h), interpolation)
    if max_size is not None:
        raise ValueError(
            "max_size should only be passed if size specifies the length of the smaller edge, "
            "i.e. size should be an int or a sequence of length 1 in torchscript mode."
        )
    return img.resize(tuple(size[::-1]), interpolation)


def affine(img: Any, matrix: List[float], interpolation: int = Image.NEAREST, fill: Any = None) -> Any:
    _check(img)
    output_size = img.size
    opts = _parse_fill(fill, img)
    return img.transform(output_size, Image.AFFINE, matrix, interpolation, **opts)


def rotate(img: Any, angle: float, interpolation: int = Image.NEAREST, expand: bool = False, center: Any = None,
           fill: Any = None) -> Any:
    _check(img)
    opts = _parse_fill(fill, img)
    return img.rotate(angle, interpolation, expand, center, **opts)


def perspective(img: Any, perspective_coeffs: List[float], interpolation: int = Image.BICUBIC,
                fill: Any = None) -> Any:
    _check(img)
    opts = _parse_fill(fill, img)
    return img.transform(img.size, Image.PERSPECTIVE, perspective_coeffs, interpolation, **opts)


def to_grayscale(img: Any, num_output_channels: int) -> Any:
    _check(img)
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        img = img.convert("L")
        np_img = np.array(img, dtype=np.uint8)
        np_img = np.dstack([np_img, np_img, np_img])
        return Image.fromarray(np_img, "RGB")
    raise ValueError("num_output_channels should be either 1 or 3")


def invert(img: Any) -> Any:
    _check(img)
    return ImageOps.invert(img)


def posterize(img: Any, bits: int) -> Any:
    _check(img)
    return ImageOps.posterize(img, bits)


def solarize(img: Any, threshold: int) -> Any:
    _check(img)
    return ImageOps.solarize(img, threshold)


def adjust_sharpness(img: Any, sharpness_factor: float) -> Any:
    _check(img)
    return ImageEnhance.Sharpness(img).enhance(sharpness_factor)


def autocontrast(img: Any) -> Any:
    _check(img)
    return ImageOps.autocontrast(img)


def equalize(img: Any) -> Any:
    _check(img)
    return ImageOps.equalize(img)
