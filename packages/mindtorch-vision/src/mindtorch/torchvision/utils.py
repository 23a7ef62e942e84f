"""torchvision.utils (0.13): make_grid, save_image, draw_bounding_boxes, draw_segmentation_masks, draw_keypoints."""
from __future__ import annotations

import math
import warnings
from typing import Any, BinaryIO, List, Optional, Tuple, Union

import numpy as np
from PIL import Image, ImageColor, ImageDraw, ImageFont

from ._bridge import from_numpy, is_tensor, to_numpy

__all__ = ["make_grid", "save_image", "draw_bounding_boxes", "draw_segmentation_masks", "draw_keypoints"]


def make_grid(tensor: Any, nrow: int = 8, padding: int = 2, normalize: bool = False,
              value_range: Optional[Tuple[float, float]] = None, scale_each: bool = False, pad_value: float = 0.0,
              **kwargs: Any) -> Any:
    """Tile a (B, C, H, W) tensor (or a list of (C, H, W) tensors) into one (3 or C, H', W') image grid.

    `nrow` images per row, `padding` pixels of `pad_value` between them; `normalize` maps `value_range`
    (default: min..max, per image with `scale_each`) to [0, 1].
    """
    if not (is_tensor(tensor) or (isinstance(tensor, list) and all(is_tensor(t) for t in tensor))):
        raise TypeError(f"tensor or list of tensors expected, got {type(tensor)}")
    if "range" in kwargs.keys():
        warnings.warn("The parameter 'range' is deprecated since 0.12 and will be removed in 0.14. "
                      "Please use 'value_range' instead.")
        value_range = kwargs["range"]
    # if list of tensors, convert to a 4D mini-batch Tensor
    if isinstance(tensor, list):
        arr = np.stack([to_numpy(t) for t in tensor], axis=0)
    else:
        arr = to_numpy(tensor)
    if arr.ndim == 2:  # single image H x W
        arr = arr[None]
    if arr.ndim == 3:  # single image
        if arr.shape[0] == 1:  # if single-channel, convert to 3-channel
            arr = np.concatenate((arr, arr, arr), 0)
        arr = arr[None]
    if arr.ndim == 4 and arr.shape[1] == 1:  # single-channel images
        arr = np.concatenate((arr, arr, arr), 1)
    if normalize is True:
        arr = arr.copy()  # avoid modifying tensor in-place
        if value_range is not None and not isinstance(value_range, tuple):
            raise TypeError("value_range has to be a tuple (min, max) if specified. min and max are numbers")

        def norm_ip(img: np.ndarray, low: float, high: float) -> None:
            np.clip(img, low, high, out=img)
            img -= img.dtype.type(low)
            img /= img.dtype.type(max(high - low, 1e-5))

        def norm_range(t: np.ndarray, value_range: Optional[Tuple[float, float]]) -> None:
            if value_range is not None:
                norm_ip(t, value_range[0], value_range[1])
            else:
                norm_ip(t, float(t.min()), float(t.max()))

        if scale_each is True:
            for t in arr:  # loop over mini-batch dimension
                norm_range(t, value_range)
        else:
            norm_range(arr, value_range)
    if arr.shape[0] == 1:
        return from_numpy(arr[0])
    # make the mini-batch of images into a grid
    nmaps = arr.shape[0]
    xmaps = min(nrow, nmaps)
    ymaps = int(math.ceil(float(nmaps) / xmaps))
    height, width = int(arr.shape[2] + padding), int(arr.shape[3] + padding)
    num_channels = arr.shape[1]
    grid = np.full((num_channels, height * ymaps + padding, width * xmaps + padding), pad_value, dtype=arr.dtype)
    k = 0
    for y in range(ymaps):
        for x in range(xmaps):
            if k >= nmaps:
                break
            grid[:, y * height + padding:(y + 1) * height, x * width + padding:(x + 1) * width] = arr[k]
            k = k + 1
    return from_numpy(grid)


def save_image(tensor: Any, fp: Union[str, BinaryIO], format: Optional[str] = None, **kwargs: Any) -> None:
    """make_grid(tensor, **kwargs), scaled to [0, 255] (rounded), saved with Pillow."""
    grid = to_numpy(make_grid(tensor, **kwargs))
    # Add 0.5 after unnormalizing to [0, 255] to round to nearest integer
    ndarr = np.clip(grid * grid.dtype.type(255) + grid.dtype.type(0.5), 0, 255).transpose(1, 2, 0)
    im = Image.fromarray(np.ascontiguousarray(ndarr.astype(np.uint8)))
    im.save(fp, format=format)


def _generate_color_palette(num_objects: int) -> List[Tuple[int, int, int]]:
    palette = np.array([2**25 - 1, 2**15 - 1, 2**21 - 1], dtype=np.int64)
    return [tuple(int(v) for v in (i * palette) % 255) for i in range(num_objects)]


def _check_uint8_image(image: Any) -> np.ndarray:
    if not is_tensor(image):
        raise TypeError(f"Tensor expected, got {type(image)}")
    arr = to_numpy(image)
    if arr.dtype != np.uint8:
        raise ValueError(f"Tensor uint8 expected, got torch.{arr.dtype}")
    if arr.ndim != 3:
        raise ValueError("Pass individual images, not batches")
    return arr


def draw_bounding_boxes(image: Any, boxes: Any, labels: Optional[List[str]] = None, colors: Any = None,
                        fill: Optional[bool] = False, width: int = 1, font: Optional[str] = None,
                        font_size: int = 10) -> Any:
    """Draw (xmin, ymin, xmax, ymax) boxes on a (C, H, W) uint8 image (C = 1 or 3); returns a (3, H, W) image."""
    arr = _check_uint8_image(image)
    if arr.shape[0] not in {1, 3}:
        raise ValueError("Only grayscale and RGB images are supported")
    box_arr = to_numpy(boxes)
    num_boxes = box_arr.shape[0]
    if num_boxes == 0:
        warnings.warn("boxes doesn't contain any box. No box was drawn")
        return image
    if labels is None:
        labels = [None] * num_boxes  # type: ignore[list-item]
    elif len(labels) != num_boxes:
        raise ValueError(
            f"Number of boxes ({num_boxes}) and labels ({len(labels)}) mismatch. Please specify labels for each box."
        )
    if colors is None:
        colors = _generate_color_palette(num_boxes)
    elif isinstance(colors, list):
        if len(colors) < num_boxes:
            raise ValueError(f"Number of colors ({len(colors)}) is less than number of boxes ({num_boxes}). ")
    else:  # colors specifies a single color for all boxes
        colors = [colors] * num_boxes
    colors = [(ImageColor.getrgb(color) if isinstance(color, str) else tuple(color)) for color in colors]
    # Handle Grayscale images
    if arr.shape[0] == 1:
        arr = np.tile(arr, (3, 1, 1))
    img_to_draw = Image.fromarray(np.ascontiguousarray(arr.transpose(1, 2, 0)))
    img_boxes = np.trunc(box_arr).astype(np.int64).tolist()
    draw = ImageDraw.Draw(img_to_draw, "RGBA") if fill else ImageDraw.Draw(img_to_draw)
    txt_font = ImageFont.load_default() if font is None else ImageFont.truetype(font=font, size=font_size)
    for bbox, color, label in zip(img_boxes, colors, labels):
        if fill:
            fill_color = color + (100,)
            draw.rectangle(bbox, width=width, outline=color, fill=fill_color)
        else:
            draw.rectangle(bbox, width=width, outline=color)
        if label is not None:
            margin = width + 1
            draw.text((bbox[0] + margin, bbox[1] + margin), label, fill=color, font=txt_font)
    return from_numpy(np.ascontiguousarray(np.array(img_to_draw).transpose(2, 0, 1)))


def draw_segmentation_masks(image: Any, masks: Any, alpha: float = 0.8, colors: Any = None) -> Any:
    """Blend boolean masks (N, H, W) or (H, W) onto a (3, H, W) uint8 image with opacity `alpha`."""
    arr = _check_uint8_image(image)
    if arr.shape[0] != 3:
        raise ValueError("Pass an RGB image. Other Image formats are not supported")
    m = to_numpy(masks)
    if m.ndim == 2:
        m = m[None, :, :]
    if m.ndim != 3:
        raise ValueError("masks must be of shape (H, W) or (batch_size, H, W)")
    if m.dtype != np.bool_:
        raise ValueError(f"The masks must be of dtype bool. Got torch.{m.dtype}")
    if m.shape[-2:] != arr.shape[-2:]:
        raise ValueError("The image and the masks must have the same height and width")
    num_masks = m.shape[0]
    if colors is not None and num_masks > len(colors):
        raise ValueError(f"There are more masks ({num_masks}) than colors ({len(colors)})")
    if num_masks == 0:
        warnings.warn("masks doesn't contain any mask. No mask was drawn")
        return image
    if colors is None:
        colors = _generate_color_palette(num_masks)
    if not isinstance(colors, list):
        colors = [colors]
    if not isinstance(colors[0], (tuple, str)):
        raise ValueError("colors must be a tuple or a string, or a list thereof")
    if isinstance(colors[0], tuple) and len(colors[0]) != 3:
        raise ValueError("It seems that you passed a tuple of colors instead of a list of colors")
    colors_ = [np.asarray(ImageColor.getrgb(c) if isinstance(c, str) else c, dtype=np.uint8) for c in colors]
    img_to_draw = arr.copy()
    for mask, color in zip(m, colors_):
        img_to_draw[:, mask] = color[:, None]
    # torch: uint8 * python float -> float32, then .to(uint8) truncates
    out = arr.astype(np.float32) * np.float32(1 - alpha) + img_to_draw.astype(np.float32) * np.float32(alpha)
    return from_numpy(np.trunc(out).astype(np.uint8))


def draw_keypoints(image: Any, keypoints: Any, connectivity: Optional[List[Tuple[int, int]]] = None,
                   colors: Any = None, radius: int = 2, width: int = 3) -> Any:
    """Draw keypoints (num_instances, K, 2) as filled circles (and `connectivity` lines) on a (3, H, W) image."""
    arr = _check_uint8_image(image)
    if arr.shape[0] != 3:
        raise ValueError("Pass an RGB image. Other Image formats are not supported")
    kp = to_numpy(keypoints)
    if kp.ndim != 3:
        raise ValueError("keypoints must be of shape (num_instances, K, 2)")
    img_to_draw = Image.fromarray(np.ascontiguousarray(arr.transpose(1, 2, 0)))
    draw = ImageDraw.Draw(img_to_draw)
    img_kpts = np.trunc(kp).astype(np.int64).tolist()
    for kpt_inst in img_kpts:
        for kpt in kpt_inst:
            x1, x2 = kpt[0] - radius, kpt[0] + radius
            y1, y2 = kpt[1] - radius, kpt[1] + radius
            draw.ellipse([x1, y1, x2, y2], fill=colors, outline=None, width=0)
        if connectivity:
            for connection in connectivity:
                start = kpt_inst[connection[0]]
                end = kpt_inst[connection[1]]
                draw.line(((start[0], start[1]), (end[0], end[1])), width=width)
    return from_numpy(np.ascontiguousarray(np.array(img_to_draw).transpose(2, 0, 1)))
