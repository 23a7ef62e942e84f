"""roi_align / RoIAlign (Mask R-CNN), forward in numpy following torchvision's CPU kernel (no autograd)."""
from __future__ import annotations

import math
from typing import Any, List, Sequence, Union

import numpy as np

from .._bridge import from_numpy, is_tensor, to_numpy
from .._module import Module


def _pair(v: Union[int, Sequence[int]]) -> List[int]:
    return [int(v), int(v)] if isinstance(v, (int, float)) else [int(v[0]), int(v[1])]


def convert_boxes_to_roi_format(boxes: Any) -> np.ndarray:
    """A (K, 5) [batch_index, x1, y1, x2, y2] array from a tensor (K, 5) or a list of (L_i, 4) tensors."""
    if is_tensor(boxes) or isinstance(boxes, np.ndarray):
        rois = np.asarray(to_numpy(boxes))
        if rois.ndim != 2 or rois.shape[1] != 5:
            raise ValueError(f"The boxes tensor shape is not correct as Tensor[K, 5], got {tuple(rois.shape)}")
        return rois
    if isinstance(boxes, (list, tuple)):
        parts = []
        for i, b in enumerate(boxes):
            a = np.asarray(to_numpy(b))
            if a.ndim != 2 or a.shape[1] != 4:
                raise ValueError("The shape of the tensor in the boxes list is not correct as List[Tensor[L, 4]]")
            parts.append(np.concatenate([np.full((a.shape[0], 1), i, dtype=a.dtype), a], axis=1))
        return np.concatenate(parts, axis=0) if parts else np.zeros((0, 5), dtype=np.float32)
    raise TypeError("boxes is expected to be a Tensor[L, 5] or a List[Tensor[K, 4]]")


def _bilinear(plane: np.ndarray, y: float, x: float) -> np.ndarray:
    c, height, width = plane.shape
    if y < -1.0 or y > height or x < -1.0 or x > width:
        return np.zeros(c, dtype=np.float64)
    y = max(y, 0.0)
    x = max(x, 0.0)
    y_low, x_low = int(y), int(x)
    if y_low >= height - 1:
        y_high = y_low = height - 1
        y = float(y_low)
    else:
        y_high = y_low + 1
    if x_low >= width - 1:
        x_high = x_low = width - 1
        x = float(x_low)
    else:
        x_high = x_low + 1
    ly, lx = y - y_low, x - x_low
    hy, hx = 1.0 - ly, 1.0 - lx
    return (hy * hx * plane[:, y_low, x_low] + hy * lx * plane[:, y_low, x_high]
            + ly * hx * plane[:, y_high, x_low] + ly * lx * plane[:, y_high, x_high])


def roi_align(input: Any, boxes: Any, output_size: Union[int, Sequence[int]], spatial_scale: float = 1.0,
              sampling_ratio: int = -1, aligned: bool = False) -> Any:
    """RoI Align: (N, C, H, W) features + K boxes -> (K, C, out_h, out_w) bilinearly pooled features."""
    x = np.asarray(to_numpy(input))
    rois = convert_boxes_to_roi_format(boxes).astype(np.float64)
    ph_n, pw_n = _pair(output_size)
    out = np.zeros((rois.shape[0], x.shape[1], ph_n, pw_n), dtype=np.float64)
    offset = 0.5 if aligned else 0.0
    xf = x.astype(np.float64)
    for n, roi in enumerate(rois):
        plane = xf[int(roi[0])]
        start_w, start_h = roi[1] * spatial_scale - offset, roi[2] * spatial_scale - offset
        end_w, end_h = roi[3] * spatial_scale - offset, roi[4] * spatial_scale - offset
        roi_w, roi_h = end_w - start_w, end_h - start_h
        if not aligned:
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / ph_n, roi_w / pw_n
        grid_h = sampling_ratio if sampling_ratio > 0 else math.ceil(roi_h / ph_n)
        grid_w = sampling_ratio if sampling_ratio > 0 else math.ceil(roi_w / pw_n)
        count = max(grid_h * grid_w, 1)
        for ph in range(ph_n):
            for pw in range(pw_n):
                acc = np.zeros(x.shape[1], dtype=np.float64)
                for iy in range(grid_h):
                    yy = start_h + ph * bin_h + (iy + 0.5) * bin_h / grid_h
                    for ix in range(grid_w):
                        xx = start_w + pw * bin_w + (ix + 0.5) * bin_w / grid_w
                        acc += _bilinear(plane, yy, xx)
                out[n, :, ph, pw] = acc / count
    return from_numpy(out.astype(x.dtype))


class RoIAlign(Module):
    """Module form of roi_align."""

    def __init__(self, output_size: Union[int, Sequence[int]], spatial_scale: float, sampling_ratio: int,
                 aligned: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale
        self.sampling_ratio = sampling_ratio
        self.aligned = aligned

    def forward(self, input: Any, rois: Any) -> Any:
        return roi_align(input, rois, self.output_size, self.spatial_scale, self.sampling_ratio, self.aligned)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(output_size={self.output_size}, spatial_scale={self.spatial_scale}, "
                f"sampling_ratio={self.sampling_ratio}, aligned={self.aligned})")
