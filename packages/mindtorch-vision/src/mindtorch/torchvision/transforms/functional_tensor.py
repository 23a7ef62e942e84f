"""Tensor-image kernels of torchvision.transforms.functional, computed in numpy.

Every function takes and returns a numpy array laid out like a torch image tensor, `(..., C, H, W)`, and follows
torchvision 0.13's functional_tensor step by step: the same intermediate dtypes (uint8 images are computed in
float32, results are truncated where torch's `.to(dtype)` truncates and rounded where torchvision rounds), the same
coordinate conventions (`interpolate(..., align_corners=False)`, `grid_sample(..., align_corners=False)`).
`functional.py` converts mindtorch tensors to/from these arrays.
"""
from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from .._bridge import is_float, max_value

_INT_TYPES = (np.uint8, np.int8, np.int16, np.int32, np.int64)


def _assert_image_tensor(img: np.ndarray) -> None:
    if img.ndim < 2:
        raise TypeError("Tensor is not a torch image.")


def get_dimensions(img: np.ndarray) -> List[int]:
    _assert_image_tensor(img)
    channels = 1 if img.ndim == 2 else img.shape[-3]
    height, width = img.shape[-2:]
    return [channels, height, width]


def _assert_channels(img: np.ndarray, permitted: List[int]) -> None:
    c = get_dimensions(img)[0]
    if c not in permitted:
        raise TypeError(f"Input image tensor permitted channel values are {permitted}, but found {c}")


def _cast_squeeze_in(img: np.ndarray, req_dtypes: Sequence[Any]) -> Tuple[np.ndarray, bool, bool, np.dtype]:
    need_squeeze = False
    if img.ndim < 4:
        img = img[None]
        need_squeeze = True
    out_dtype = img.dtype
    need_cast = False
    if out_dtype not in [np.dtype(d) for d in req_dtypes]:
        need_cast = True
        img = img.astype(req_dtypes[0])
    return img, need_cast, need_squeeze, out_dtype


def _cast_squeeze_out(img: np.ndarray, need_cast: bool, need_squeeze: bool, out_dtype: np.dtype) -> np.ndarray:
    if need_squeeze:
        img = img[0]
    if need_cast:
        if out_dtype in [np.dtype(d) for d in _INT_TYPES]:
            # torch.round then .to(): round half to even, then cast
            img = np.rint(img)
        img = img.astype(out_dtype)
    return img


def _compute_dtype(img: np.ndarray) -> np.dtype:
    return img.dtype if is_float(img.dtype) else np.dtype(np.float32)


def _to_dtype(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """torch's `.to(dtype)` from float: truncation toward zero for integer targets."""
    if np.dtype(dtype).kind in "iu" and is_float(x.dtype):
        x = np.trunc(x)
    return x.astype(dtype)


def convert_image_dtype(image: np.ndarray, dtype: np.dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if image.dtype == dtype:
        return image
    if is_float(image.dtype):
        if is_float(dtype):
            return image.astype(dtype)
        if (image.dtype == np.float32 and dtype in (np.int32, np.int64)) or (
                image.dtype == np.float64 and dtype == np.int64):
            raise RuntimeError(f"The cast from torch.{image.dtype} to torch.{dtype} cannot be performed safely.")
        # 1 - eps keeps 1.0 from overflowing to max+1 (torchvision's trick)
        eps = 1e-3
        max_val = float(max_value(dtype))
        result = image * image.dtype.type(max_val + 1.0 - eps)
        return _to_dtype(result, dtype)
    input_max = float(max_value(image.dtype))
    if is_float(dtype):
        return (image.astype(dtype) / dtype.type(input_max)).astype(dtype)
    output_max = float(max_value(dtype))
    if input_max > output_max:
        factor = int((input_max + 1) // (output_max + 1))
        return (image.astype(np.int64) // factor).astype(dtype)
    factor = int((output_max + 1) // (input_max + 1))
    return image.astype(dtype) * dtype.type(factor)


def vflip(img: np.ndarray) -> np.ndarray:
    _assert_image_tensor(img)
    return np.ascontiguousarray(img[..., ::-1, :])


def hflip(img: np.ndarray) -> np.ndarray:
    _assert_image_tensor(img)
    return np.ascontiguousarray(img[..., ::-1])


def crop(img: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    _assert_image_tensor(img)
    _, h, w = get_dimensions(img)
    right = left + width
    bottom = top + height
    if left < 0 or top < 0 or right > w or bottom > h:
        padding_ltrb = [max(-left, 0), max(-top, 0), max(right - w, 0), max(bottom - h, 0)]
        return pad(img[..., max(top, 0):bottom, max(left, 0):right], padding_ltrb, fill=0)
    return img[..., top:bottom, left:right].copy()


def rgb_to_grayscale(img: np.ndarray, num_output_channels: int = 1) -> np.ndarray:
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.shape[-3] == 3:
        cd = _compute_dtype(img)
        r, g, b = (img[..., i, :, :].astype(cd) for i in range(3))
        l_img = cd.type(0.2989) * r + cd.type(0.587) * g + cd.type(0.114) * b
        l_img = _to_dtype(l_img, img.dtype)[..., None, :, :]
    else:
        l_img = img.copy()
    if num_output_channels == 3:
        return np.ascontiguousarray(np.broadcast_to(l_img, img.shape[:-3] + (3,) + img.shape[-2:]))
    return l_img


def _blend(img1: np.ndarray, img2: np.ndarray, ratio: float) -> np.ndarray:
    ratio = float(ratio)
    bound = 1.0 if is_float(img1.dtype) else 255.0
    cd = _compute_dtype(img1)
    out = cd.type(ratio) * img1.astype(cd) + cd.type(1.0 - ratio) * np.asarray(img2).astype(cd)
    return _to_dtype(np.clip(out, 0, bound), img1.dtype)


def adjust_brightness(img: np.ndarray, brightness_factor: float) -> np.ndarray:
    if brightness_factor < 0:
        raise ValueError(f"brightness_factor ({brightness_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    return _blend(img, np.zeros_like(img), brightness_factor)


def adjust_contrast(img: np.ndarray, contrast_factor: float) -> np.ndarray:
    if contrast_factor < 0:
        raise ValueError(f"contrast_factor ({contrast_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [3, 1])
    c = get_dimensions(img)[0]
    dtype = _compute_dtype(img)
    src = rgb_to_grayscale(img) if c == 3 else img
    mean = np.mean(src.astype(dtype), axis=(-3, -2, -1), keepdims=True, dtype=np.float64).astype(dtype)
    return _blend(img, mean, contrast_factor)


def adjust_saturation(img: np.ndarray, saturation_factor: float) -> np.ndarray:
    if saturation_factor < 0:
        raise ValueError(f"saturation_factor ({saturation_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if get_dimensions(img)[0] == 1:
        return img
    return _blend(img, rgb_to_grayscale(img), saturation_factor)


def _rgb2hsv(img: np.ndarray) -> np.ndarray:
    r, g, b = img[..., 0, :, :], img[..., 1, :, :], img[..., 2, :, :]
    maxc = img.max(axis=-3)
    minc = img.min(axis=-3)
    eqc = maxc == minc
    cr = maxc - minc
    ones = np.ones_like(maxc)
    s = cr / np.where(eqc, ones, maxc)
    cr_divisor = np.where(eqc, ones, cr)
    rc = (maxc - r) / cr_divisor
    gc = (maxc - g) / cr_divisor
    bc = (maxc - b) / cr_divisor
    t = img.dtype.type
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (t(2.0) + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (t(4.0) + gc - rc)
    h = (hr + hg + hb).astype(img.dtype)
    h = np.fmod((h / t(6.0) + t(1.0)), t(1.0))
    return np.stack((h, s, maxc), axis=-3)


def _hsv2rgb(img: np.ndarray) -> np.ndarray:
    t = img.dtype.type
    h, s, v = img[..., 0, :, :], img[..., 1, :, :], img[..., 2, :, :]
    i = np.floor(h * t(6.0))
    f = (h * t(6.0)) - i
    i = i.astype(np.int32)
    p = np.clip((v * (t(1.0) - s)), 0.0, 1.0)
    q = np.clip((v * (t(1.0) - s * f)), 0.0, 1.0)
    tt = np.clip((v * (t(1.0) - s * (t(1.0) - f))), 0.0, 1.0)
    i = i % 6
    a1 = np.stack((v, q, p, p, tt, v), axis=-3)
    a2 = np.stack((tt, v, v, q, p, p), axis=-3)
    a3 = np.stack((p, p, tt, v, v, q), axis=-3)
    out = np.stack([np.take_along_axis(a, i[..., None, :, :], axis=-3)[..., 0, :, :] for a in (a1, a2, a3)],
                   axis=-3)
    return out.astype(img.dtype)


def adjust_hue(img: np.ndarray, hue_factor: float) -> np.ndarray:
    if not (-0.5 <= hue_factor <= 0.5):
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if get_dimensions(img)[0] == 1:
        return img
    orig_dtype = img.dtype
    if img.dtype == np.uint8:
        img = img.astype(np.float32) / np.float32(255.0)
    elif not is_float(img.dtype):
        img = img.astype(np.float32)
    img = _rgb2hsv(img)
    t = img.dtype.type
    h = np.mod(img[..., 0, :, :] + t(hue_factor), t(1.0))
    img = np.stack((h, img[..., 1, :, :], img[..., 2, :, :]), axis=-3)
    out = _hsv2rgb(img)
    if orig_dtype == np.uint8:
        out = _to_dtype(out * np.float32(255.0), orig_dtype)
    return out


def adjust_gamma(img: np.ndarray, gamma: float, gain: float = 1.0) -> np.ndarray:
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if gamma < 0:
        raise ValueError("Gamma should be a non-negative real number")
    dtype = img.dtype
    result = img if is_float(dtype) else convert_image_dtype(img, np.float32)
    t = result.dtype.type
    result = np.clip(t(gain) * result ** t(gamma), 0, 1).astype(result.dtype)
    return convert_image_dtype(result, dtype)


def pad(img: np.ndarray, padding: Any, fill: Any = 0, padding_mode: str = "constant") -> np.ndarray:
    _assert_image_tensor(img)
    if fill is None:
        fill = 0
    if not isinstance(padding, (int, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (int, float)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, tuple):
        padding = list(padding)
    if isinstance(padding, list) and len(padding) not in [1, 2, 4]:
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    if isinstance(padding, int):
        pad_left = pad_right = pad_top = pad_bottom = padding
    elif len(padding) == 1:
        pad_left = pad_right = pad_top = pad_bottom = padding[0]
    elif len(padding) == 2:
        pad_left = pad_right = padding[0]
        pad_top = pad_bottom = padding[1]
    else:
        pad_left, pad_top, pad_right, pad_bottom = padding
    p = [pad_left, pad_right, pad_top, pad_bottom]
    if padding_mode == "symmetric" and min(p) < 0:
        raise ValueError("Padding can not be negative for symmetric padding_mode")
    h, w = img.shape[-2:]
    if padding_mode == "reflect" and (max(pad_left, pad_right) >= w or max(pad_top, pad_bottom) >= h):
        # torch's reflection pad has the same limit
        raise RuntimeError("Padding size should be less than the corresponding input dimension, "
                           f"but got: padding ({pad_left}, {pad_right}) at dimension 3 of input {list(img.shape)}")
    # negative padding crops (as torch.nn.functional.pad does)
    img = img[..., max(-pad_top, 0):h - max(-pad_bottom, 0), max(-pad_left, 0):w - max(-pad_right, 0)]
    pt, pb, pl, pr = (max(v, 0) for v in (pad_top, pad_bottom, pad_left, pad_right))
    widths = [(0, 0)] * (img.ndim - 2) + [(pt, pb), (pl, pr)]
    if padding_mode == "constant":
        out_dtype = img.dtype
        value = float(fill)
        if not is_float(out_dtype):
            value = int(value)
        return np.pad(img, widths, mode="constant", constant_values=value).astype(out_dtype)
    np_mode = {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[padding_mode]
    return np.pad(img, widths, mode=np_mode)


# ---------------------------------------------------------------- resize: torch.nn.functional.interpolate kernels

def _nearest_matrix(in_size: int, out_size: int) -> np.ndarray:
    scale = np.float32(in_size) / np.float32(out_size)
    idx = np.minimum(np.floor(np.arange(out_size, dtype=np.float32) * scale).astype(np.int64), in_size - 1)
    m = np.zeros((out_size, in_size))
    m[np.arange(out_size), idx] = 1.0
    return m


def _linear_matrix(in_size: int, out_size: int) -> np.ndarray:
    scale = in_size / out_size
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        src = max(scale * (i + 0.5) - 0.5, 0.0)
        i0 = int(src)
        i1 = i0 + 1 if i0 < in_size - 1 else i0
        lam = src - i0
        m[i, i0] += 1.0 - lam
        m[i, i1] += lam
    return m


def _cubic_matrix(in_size: int, out_size: int, a: float = -0.75) -> np.ndarray:
    def c1(x: float) -> float:
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def c2(x: float) -> float:
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    scale = in_size / out_size
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        src = scale * (i + 0.5) - 0.5
        i0 = math.floor(src)
        t = src - i0
        ws = (c2(t + 1), c1(t), c1(1 - t), c2(2 - t))
        for k, wk in enumerate(ws):
            m[i, min(max(i0 - 1 + k, 0), in_size - 1)] += wk
    return m


def _aa_matrix(in_size: int, out_size: int, interp_size: int, kernel: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """torch's antialiased (PIL-like) separable weights, `_upsample_*_aa` with align_corners=False."""
    scale = in_size / out_size
    support = (interp_size * 0.5) * scale if scale >= 1.0 else interp_size * 0.5
    invscale = 1.0 / scale if scale >= 1.0 else 1.0
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        center = scale * (i + 0.5)
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size)
        j = np.arange(xmin, xmax, dtype=np.float64)
        w = kernel((j - center + 0.5) * invscale)
        total = w.sum()
        if total != 0.0:
            w = w / total
        m[i, xmin:xmax] = w
    return m


def _aa_linear(x: np.ndarray) -> np.ndarray:
    return np.maximum(0.0, 1.0 - np.abs(x))


def _aa_cubic(x: np.ndarray, a: float = -0.5) -> np.ndarray:
    x = np.abs(x)
    return np.where(x < 1.0, ((a + 2) * x - (a + 3)) * x * x + 1,
                    np.where(x < 2.0, (((x - 5) * x + 8) * x - 4) * a, 0.0))


def _interp_matrix(in_size: int, out_size: int, mode: str, antialias: bool) -> np.ndarray:
    if mode == "nearest":
        return _nearest_matrix(in_size, out_size)
    if antialias:
        if mode == "bilinear":
            return _aa_matrix(in_size, out_size, 2, _aa_linear)
        return _aa_matrix(in_size, out_size, 4, _aa_cubic)
    if mode == "bilinear":
        return _linear_matrix(in_size, out_size)
    return _cubic_matrix(in_size, out_size)


def interpolate(img: np.ndarray, size: Sequence[int], mode: str, antialias: bool = False) -> np.ndarray:
    """`torch.nn.functional.interpolate(img, size, mode, align_corners=False, antialias)` on (N, C, H, W)."""
    new_h, new_w = size
    h, w = img.shape[-2:]
    mh = _interp_matrix(h, new_h, mode, antialias)
    mw = _interp_matrix(w, new_w, mode, antialias)
    x = img.astype(np.float64)
    x = np.einsum("ij,...jw->...iw", mh, x)
    x = np.einsum("...hj,ij->...hi", x, mw)
    return x.astype(img.dtype)


def resize_output_size(hw: Tuple[int, int], size: Any, interpolation: str = "bilinear",
                       max_size: Optional[int] = None, antialias: Optional[bool] = None) -> Optional[List[int]]:
    """torchvision 0.13's argument checks and output size of a tensor resize of an (h, w) image: [new_h, new_w],
    or None when the image already has it (resize then returns its input)."""
    if not isinstance(size, (int, tuple, list)):
        raise TypeError("Got inappropriate size arg")
    if not isinstance(interpolation, str):
        raise TypeError("Got inappropriate interpolation arg")
    if interpolation not in ["nearest", "bilinear", "bicubic"]:
        raise ValueError("This interpolation mode is unsupported with Tensor input")
    if isinstance(size, tuple):
        size = list(size)
    if isinstance(size, list):
        if len(size) not in [1, 2]:
            raise ValueError(
                f"Size must be an int or a 1 or 2 element tuple/list, not a {len(size)} element tuple/list")
        if max_size is not None and len(size) != 1:
            raise ValueError(
                "max_size should only be passed if size specifies the length of the smaller edge, "
                "i.e. size should be an int or a sequence of length 1 in torchscript mode."
            )
    if antialias is None:
        antialias = False
    if antialias and interpolation not in ["bilinear", "bicubic"]:
        raise ValueError("Antialias option is supported for bilinear and bicubic interpolation modes only")
    h, w = hw
    if isinstance(size, int) or len(size) == 1:
        requested_new_short = size if isinstance(size, int) else size[0]
        short, long = (w, h) if w <= h else (h, w)
        new_short, new_long = requested_new_short, int(requested_new_short * long / short)
        if max_size is not None:
            if max_size <= requested_new_short:
                raise ValueError(
                    f"max_size = {max_size} must be strictly greater than the requested "
                    f"size for the smaller edge size = {size}"
                )
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
        if (w, h) == (new_w, new_h):
            return None
    else:
        new_h, new_w = size
    return [new_h, new_w]


def resize(img: np.ndarray, size: Any, interpolation: str = "bilinear", max_size: Optional[int] = None,
           antialias: Optional[bool] = None) -> np.ndarray:
    _assert_image_tensor(img)
    out_size = resize_output_size(tuple(get_dimensions(img)[1:]), size, interpolation, max_size, antialias)
    if out_size is None:
        return img
    new_h, new_w = out_size
    antialias = bool(antialias)
    x, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [np.float32, np.float64])
    x = interpolate(x, [new_h, new_w], interpolation, antialias)
    if interpolation == "bicubic" and out_dtype == np.uint8:
        x = np.clip(x, 0, 255)
    return _cast_squeeze_out(x, need_cast, need_squeeze, out_dtype)


# ---------------------------------------------------------------- geometric transforms via grid_sample

def _grid_sample(img: np.ndarray, grid: np.ndarray, mode: str) -> np.ndarray:
    """torch.nn.functional.grid_sample(img, grid, mode, padding_mode='zeros', align_corners=False).

    img: (N, C, H, W); grid: (N, OH, OW, 2) of normalised (x, y) in [-1, 1].
    """
    n, c, h, w = img.shape
    # unnormalise in the grid's dtype (float32 for float32/uint8 images), as torch's kernel does
    t = grid.dtype.type
    gx, gy = grid[..., 0], grid[..., 1]
    ix = (((gx + t(1)) * t(w) - t(1)) / t(2)).astype(np.float64)
    iy = (((gy + t(1)) * t(h) - t(1)) / t(2)).astype(np.float64)
    out = np.zeros((n, c) + grid.shape[1:3], dtype=np.float64)
    x = img.astype(np.float64)
    bidx = np.arange(n)[:, None, None]

    def tap(yy: np.ndarray, xx: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        valid = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
        vals = x[bidx, :, np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]  # (N, OH, OW, C)
        return np.moveaxis(vals, -1, 1), valid[:, None]

    if mode == "nearest":
        xn = np.rint(ix).astype(np.int64)
        yn = np.rint(iy).astype(np.int64)
        vals, valid = tap(yn, xn)
        out = np.where(valid, vals, 0.0)
    else:
        x0 = np.floor(ix).astype(np.int64)
        y0 = np.floor(iy).astype(np.int64)
        wx1 = ix - x0
        wy1 = iy - y0
        for dy, wy in ((0, 1 - wy1), (1, wy1)):
            for dx, wx in ((0, 1 - wx1), (1, wx1)):
                vals, valid = tap(y0 + dy, x0 + dx)
                out = out + np.where(valid, vals, 0.0) * (wy * wx)[:, None]
    return out.astype(img.dtype)


def _apply_grid_transform(img: np.ndarray, grid: np.ndarray, mode: str, fill: Any) -> np.ndarray:
    img, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [grid.dtype])
    if img.shape[0] > 1:
        grid = np.broadcast_to(grid, (img.shape[0],) + grid.shape[1:])
    if fill is not None:
        dummy = np.ones((img.shape[0], 1) + img.shape[2:], dtype=img.dtype)
        img = np.concatenate((img, dummy), axis=1)
    img = _grid_sample(img, grid, mode)
    if fill is not None:
        mask = np.broadcast_to(img[:, -1:], img[:, :-1].shape)
        img = img[:, :-1]
        len_fill = len(fill) if isinstance(fill, (tuple, list)) else 1
        fill_img = np.broadcast_to(np.asarray(fill, dtype=img.dtype).reshape(1, len_fill, 1, 1), img.shape)
        if mode == "nearest":
            img = np.where(mask < 0.5, fill_img, img)
        else:
            img = (img * mask + (1.0 - mask) * fill_img).astype(img.dtype)
    return _cast_squeeze_out(img, need_cast, need_squeeze, out_dtype)


def _gen_affine_grid(theta: np.ndarray, w: int, h: int, ow: int, oh: int) -> np.ndarray:
    d = 0.5
    dt = theta.dtype
    base = np.empty((1, oh, ow, 3), dtype=dt)
    base[..., 0] = np.linspace(-ow * 0.5 + d, ow * 0.5 + d - 1, num=ow).astype(dt)
    base[..., 1] = np.linspace(-oh * 0.5 + d, oh * 0.5 + d - 1, num=oh).astype(dt)[:, None]
    base[..., 2] = 1
    rescaled_theta = theta.transpose(0, 2, 1) / np.asarray([0.5 * w, 0.5 * h], dtype=dt)
    return _bmm3(base, rescaled_theta[0]).reshape(1, oh, ow, 2)


def _bmm3(base: np.ndarray, m: np.ndarray) -> np.ndarray:
    """base (1, OH, OW, 3) @ m (3, 2), summed term by term in base's dtype (as torch's float32 bmm)."""
    return np.stack([base[..., 0] * m[0, k] + base[..., 1] * m[1, k] + base[..., 2] * m[2, k] for k in range(2)],
                    axis=-1).astype(base.dtype)


def _assert_grid_transform_inputs(img: np.ndarray, matrix: Optional[List[float]], interpolation: str, fill: Any,
                                  supported_interpolation_modes: List[str],
                                  coeffs: Optional[List[float]] = None) -> None:
    if matrix is not None and not isinstance(matrix, list):
        raise TypeError("Argument matrix should be a list")
    if matrix is not None and len(matrix) != 6:
        raise ValueError("Argument matrix should have 6 float values")
    if coeffs is not None and len(coeffs) != 8:
        raise ValueError("Argument coeffs should have 8 float values")
    if fill is not None and not isinstance(fill, (int, float, tuple, list)):
        raise TypeError("Argument fill should be either int, float, tuple or list")
    num_channels = get_dimensions(img)[0]
    if isinstance(fill, (tuple, list)) and (len(fill) > 1 and len(fill) != num_channels):
        msg = ("The number of elements in 'fill' cannot broadcast to match the number of "
               "channels of the image ({} != {})")
        raise ValueError(msg.format(len(fill), num_channels))
    if interpolation not in supported_interpolation_modes:
        raise ValueError(f"Interpolation mode '{interpolation}' is unsupported with Tensor input")


def affine(img: np.ndarray, matrix: List[float], interpolation: str = "nearest", fill: Any = None) -> np.ndarray:
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    dtype = _compute_dtype(img)
    theta = np.asarray(matrix, dtype=dtype).reshape(1, 2, 3)
    h, w = img.shape[-2:]
    grid = _gen_affine_grid(theta, w=w, h=h, ow=w, oh=h)
    return _apply_grid_transform(img, grid, interpolation, fill=fill)


def _compute_affine_output_size(matrix: List[float], w: int, h: int) -> Tuple[int, int]:
    pts = np.array([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                    [0.5 * w, -0.5 * h, 1.0]], dtype=np.float32)
    theta = np.asarray(matrix, dtype=np.float32).reshape(2, 3)
    new_pts = pts @ theta.T
    # shifted to the [0, w] x [0, h] frame so that the size matches PIL's rotate(expand=True)
    min_vals = new_pts.min(axis=0) + np.asarray([w * 0.5, h * 0.5], dtype=np.float32)
    max_vals = new_pts.max(axis=0) + np.asarray([w * 0.5, h * 0.5], dtype=np.float32)
    # don't use math.ceil/floor directly: tiny float errors would add a pixel (torchvision's tolerance)
    tol = np.float32(1e-4)
    cmax = np.ceil(np.trunc(max_vals / tol) * tol)
    cmin = np.floor(np.trunc(min_vals / tol) * tol)
    size = cmax - cmin
    return int(size[0]), int(size[1])


def rotate(img: np.ndarray, matrix: List[float], interpolation: str = "nearest", expand: bool = False,
           fill: Any = None) -> np.ndarray:
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    h, w = img.shape[-2:]
    ow, oh = _compute_affine_output_size(matrix, w, h) if expand else (w, h)
    dtype = _compute_dtype(img)
    theta = np.asarray(matrix, dtype=dtype).reshape(1, 2, 3)
    grid = _gen_affine_grid(theta, w=w, h=h, ow=ow, oh=oh)
    return _apply_grid_transform(img, grid, interpolation, fill=fill)


def _perspective_grid(coeffs: List[float], ow: int, oh: int, dtype: np.dtype) -> np.ndarray:
    theta1 = np.asarray([[[coeffs[0], coeffs[1], coeffs[2]], [coeffs[3], coeffs[4], coeffs[5]]]], dtype=dtype)
    theta2 = np.asarray([[[coeffs[6], coeffs[7], 1.0], [coeffs[6], coeffs[7], 1.0]]], dtype=dtype)
    d = 0.5
    base = np.empty((1, oh, ow, 3), dtype=dtype)
    base[..., 0] = np.linspace(d, ow * 1.0 + d - 1.0, num=ow).astype(dtype)
    base[..., 1] = np.linspace(d, oh * 1.0 + d - 1.0, num=oh).astype(dtype)[:, None]
    base[..., 2] = 1
    rescaled_theta1 = theta1.transpose(0, 2, 1) / np.asarray([0.5 * ow, 0.5 * oh], dtype=dtype)
    g1 = base.reshape(1, oh * ow, 3) @ rescaled_theta1
    g2 = base.reshape(1, oh * ow, 3) @ theta2.transpose(0, 2, 1)
    return (g1 / g2 - dtype.type(1.0)).reshape(1, oh, ow, 2)


def perspective(img: np.ndarray, perspective_coeffs: List[float], interpolation: str = "bilinear",
                fill: Any = None) -> np.ndarray:
    _assert_grid_transform_inputs(img, None, interpolation, fill, ["nearest", "bilinear"],
                                  coeffs=perspective_coeffs)
    h, w = img.shape[-2:]
    dtype = _compute_dtype(img)
    grid = _perspective_grid(perspective_coeffs, ow=w, oh=h, dtype=np.dtype(dtype))
    return _apply_grid_transform(img, grid, interpolation, fill=fill)


# ---------------------------------------------------------------- filters

def _get_gaussian_kernel1d(kernel_size: int, sigma: float) -> np.ndarray:
    ksize_half = (kernel_size - 1) * 0.5
    x = np.linspace(-ksize_half, ksize_half, num=kernel_size, dtype=np.float32)
    pdf = np.exp(np.float32(-0.5) * (x / np.float32(sigma)) ** 2)
    return (pdf / pdf.sum()).astype(np.float32)


def _conv2d_depthwise(img: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Valid cross-correlation of every (H, W) plane of `img` with the 2-D `kernel` (conv2d, groups=C)."""
    kh, kw = kernel.shape
    h, w = img.shape[-2:]
    oh, ow = h - kh + 1, w - kw + 1
    acc = np.zeros(img.shape[:-2] + (oh, ow), dtype=np.float64)
    x = img.astype(np.float64)
    for i in range(kh):
        for j in range(kw):
            acc += float(kernel[i, j]) * x[..., i:i + oh, j:j + ow]
    return acc.astype(img.dtype)


def gaussian_blur(img: np.ndarray, kernel_size: List[int], sigma: List[float]) -> np.ndarray:
    _assert_image_tensor(img)
    dtype = _compute_dtype(img)
    kx = _get_gaussian_kernel1d(kernel_size[0], sigma[0]).astype(dtype)
    ky = _get_gaussian_kernel1d(kernel_size[1], sigma[1]).astype(dtype)
    kernel = ky[:, None] * kx[None, :]
    x, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [kernel.dtype])
    padding = [kernel_size[0] // 2, kernel_size[0] // 2, kernel_size[1] // 2, kernel_size[1] // 2]
    x = np.pad(x, [(0, 0), (0, 0), (padding[2], padding[3]), (padding[0], padding[1])], mode="reflect")
    x = _conv2d_depthwise(x, kernel)
    return _cast_squeeze_out(x, need_cast, need_squeeze, out_dtype)


def invert(img: np.ndarray) -> np.ndarray:
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    bound = 1.0 if is_float(img.dtype) else 255
    return (img.dtype.type(bound) - img).astype(img.dtype)


def posterize(img: np.ndarray, bits: int) -> np.ndarray:
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    if img.dtype != np.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found torch.{img.dtype}")
    _assert_channels(img, [1, 3])
    mask = -int(2 ** (8 - bits))
    return img & np.uint8(mask & 0xFF)


def solarize(img: np.ndarray, threshold: float) -> np.ndarray:
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    bound = 1.0 if is_float(img.dtype) else 255.0
    if threshold > bound:
        raise TypeError("Threshold should be less than bound of img.")
    return np.where(img >= threshold, invert(img), img)


def _blurred_degenerate_image(img: np.ndarray) -> np.ndarray:
    dtype = _compute_dtype(img)
    kernel = np.ones((3, 3), dtype=dtype)
    kernel[1, 1] = 5.0
    kernel /= kernel.sum()
    x, need_cast, need_squeeze, out_dtype = _cast_squeeze_in(img, [kernel.dtype])
    x = _conv2d_depthwise(x, kernel)
    x = _cast_squeeze_out(x, need_cast, need_squeeze, out_dtype)
    result = img.copy()
    result[..., 1:-1, 1:-1] = x
    return result


def adjust_sharpness(img: np.ndarray, sharpness_factor: float) -> np.ndarray:
    if sharpness_factor < 0:
        raise ValueError(f"sharpness_factor ({sharpness_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if img.shape[-1] <= 2 or img.shape[-2] <= 2:
        return img
    return _blend(img, _blurred_degenerate_image(img), sharpness_factor)


def autocontrast(img: np.ndarray) -> np.ndarray:
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    bound = 1.0 if is_float(img.dtype) else 255.0
    dtype = _compute_dtype(img)
    minimum = img.min(axis=(-2, -1), keepdims=True).astype(dtype)
    maximum = img.max(axis=(-2, -1), keepdims=True).astype(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = dtype.type(bound) / (maximum - minimum)
    eq_idxs = ~np.isfinite(scale)
    minimum[eq_idxs] = 0.0
    scale[eq_idxs] = 1.0
    return _to_dtype(np.clip((img.astype(dtype) - minimum) * scale, 0, bound), img.dtype)


def _scale_channel(img_chan: np.ndarray) -> np.ndarray:
    hist = np.bincount(img_chan.reshape(-1), minlength=256).astype(np.int64)
    nonzero_hist = hist[hist != 0]
    step = nonzero_hist[:-1].sum() // 255
    if step == 0:
        return img_chan
    lut = (np.cumsum(hist) + step // 2) // step
    lut = np.clip(np.concatenate([[0], lut])[:-1], 0, 255)
    return lut[img_chan.astype(np.int64)].astype(np.uint8)


def equalize(img: np.ndarray) -> np.ndarray:
    _assert_image_tensor(img)
    if not (3 <= img.ndim <= 4):
        raise TypeError(f"Input image tensor should have 3 or 4 dimensions, but found {img.ndim}")
    if img.dtype != np.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found torch.{img.dtype}")
    _assert_channels(img, [1, 3])
    if img.ndim == 3:
        return np.stack([_scale_channel(img[c]) for c in range(img.shape[0])])
    return np.stack([np.stack([_scale_channel(x[c]) for c in range(x.shape[0])]) for x in img])


def normalize(tensor: np.ndarray, mean: Sequence[float], std: Sequence[float]) -> np.ndarray:
    if not is_float(tensor.dtype):
        raise TypeError(f"Input tensor should be a float tensor. Got torch.{tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError(
            f"Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = {tensor.shape}"
        )
    dtype = tensor.dtype
    mean_a = np.asarray(mean, dtype=dtype)
    std_a = np.asarray(std, dtype=dtype)
    if (std_a == 0).any():
        raise ValueError(f"std evaluated to zero after conversion to torch.{dtype}, leading to division by zero.")
    if mean_a.ndim == 1:
        mean_a = mean_a.reshape(-1, 1, 1)
    if std_a.ndim == 1:
        std_a = std_a.reshape(-1, 1, 1)
    return ((tensor - mean_a) / std_a).astype(dtype)
