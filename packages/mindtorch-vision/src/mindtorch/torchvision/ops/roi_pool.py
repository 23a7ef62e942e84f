"""roi_pool / RoIPool (Fast R-CNN), forward in numpy following torchvision's CPU kernel (no autograd)."""
from __future__ import annotations

import math
from typing import Any, Sequence, Union

import numpy as np

from .._bridge import from_numpy, to_numpy
from .._module import Module
from .roi_align import _pair, convert_boxes_to_roi_format


def _round(v: float) -> int:
    # std::round: half away from zero
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


def roi_pool(input: Any, boxes: Any, output_size: Union[int, Sequence[int]], spatial_scale: float = 1.0) -> Any:
    """RoI max pooling: (N, C, H, W) features + K boxes -> (K, C, out_h, out_w)."""
    x = np.asarray(to_numpy(input))
    rois = convert_boxes_to_roi_format(boxes).astype(np.float64)
    ph_n, pw_n = _pair(output_size)
    _, c, height, width = x.shape
    out = np.zeros((rois.shape[0], c, ph_n, pw_n), dtype=x.dtype)
    for n, roi in enumerate(rois):
        plane = x[int(roi[0])]
        start_w, start_h = _round(roi[1] * spatial_scale), _round(roi[2] * spatial_scale)
        end_w, end_h = _round(roi[3] * spatial_scale), _round(roi[4] * spatial_scale)
        roi_w, roi_h = max(end_w - start_w + 1, 1), max(end_h - start_h + 1, 1)
        bin_h, bin_w = roi_h / ph_n, roi_w / pw_n
        for ph in range(ph_n):
            hstart = min(max(int(math.floor(ph * bin_h)) + start_h, 0), height)
            hend = min(max(int(math.ceil((ph + 1) * bin_h)) + start_h, 0), height)
            for pw in range(pw_n):
                wstart = min(max(int(math.floor(pw * bin_w)) + start_w, 0), width)
                wend = min(max(int(math.ceil((pw + 1) * bin_w)) + start_w, 0), width)
                if hend <= hstart or wend <= wstart:
                    continue  # empty bin -> 0
                out[n, :, ph, pw] = plane[:, hstart:hend, wstart:wend].max(axis=(1, 2))
    return from_numpy(out)


class RoIPool(Module):
    """Module form of roi_pool."""

    def __init__(self, output_size: Union[int, Sequence[int]], spatial_scale: float) -> None:
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, input: Any, rois: Any) -> Any:
        return roi_pool(input, rois, self.output_size, self.spatial_scale)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(output_size={self.output_size}, spatial_scale={self.spatial_scale})"
