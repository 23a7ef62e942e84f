"""roi_align / RoIAlign (Mask R-CNN): torchvision's CPU kernel as a differentiable gather (see `roi_align`)."""
from __future__ import annotations

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


def _axis_samples(start: np.ndarray, bin_size: np.ndarray, pooled: int, grid: int, size: int):
    """Per-axis bilinear taps of torchvision's CPU kernel for K rois: (low, high) indices and weights, each
    (K, pooled, grid), computed in the rois' float dtype as the kernel does; samples outside [-1, size] weigh 0."""
    dt = start.dtype
    p = np.arange(pooled, dtype=dt)[None, :, None]
    i = np.arange(grid, dtype=dt)[None, None, :]
    b = bin_size[:, None, None]
    s = start[:, None, None] + p * b + (i + dt.type(0.5)) * b / dt.type(grid)
    valid = (s >= -1.0) & (s <= size)
    s = np.maximum(s, 0)
    low = s.astype(np.int64)
    at_edge = low >= size - 1
    low = np.where(at_edge, size - 1, low)
    high = np.where(at_edge, size - 1, low + 1)
    s = np.where(at_edge, low.astype(dt), s)
    frac = s - low
    return low, high, (1 - frac) * valid, frac * valid


def roi_align(input: Any, boxes: Any, output_size: Union[int, Sequence[int]], spatial_scale: float = 1.0,
              sampling_ratio: int = -1, aligned: bool = False) -> Any:
    """RoI Align: (N, C, H, W) features + K boxes -> (K, C, out_h, out_w) bilinearly pooled features.

    Differentiable in `input` (like torchvision's kernel, boxes get no gradient): the sampling positions and
    bilinear weights follow torchvision's CPU kernel (computed in numpy); the pooling gathers the channels-last
    feature rows of every bin's taps (`index_select`) and weighs them with one batched matmul, so autograd runs
    through core ops. RoIs are grouped by their sampling grid (adaptive when `sampling_ratio <= 0`) and processed
    in chunks to bound memory.
    """
    import mindtorch.torch as torch

    n_img, channels, height, width = (int(s) for s in input.shape)
    rois = convert_boxes_to_roi_format(boxes)
    if not np.issubdtype(rois.dtype, np.floating):
        rois = rois.astype(np.float32)
    ph_n, pw_n = _pair(output_size)
    k = rois.shape[0]
    if k == 0:
        return input.new_zeros((0, channels, ph_n, pw_n))
    dt = rois.dtype.type
    offset = dt(0.5) if aligned else dt(0.0)
    scale = dt(spatial_scale)
    start_w, start_h = rois[:, 1] * scale - offset, rois[:, 2] * scale - offset
    roi_w, roi_h = rois[:, 3] * scale - offset - start_w, rois[:, 4] * scale - offset - start_h
    if not aligned:
        roi_w, roi_h = np.maximum(roi_w, dt(1.0)), np.maximum(roi_h, dt(1.0))
    bin_h, bin_w = roi_h / dt(ph_n), roi_w / dt(pw_n)
    if sampling_ratio > 0:
        grid_h = np.full(k, sampling_ratio, dtype=np.int64)
        grid_w = grid_h
    else:
        grid_h = np.ceil(roi_h / dt(ph_n)).astype(np.int64)
        grid_w = np.ceil(roi_w / dt(pw_n)).astype(np.int64)
    batch = rois[:, 0].astype(np.int64)
    # channels-last rows: one gather of (taps, C) rows per output bin, then one batched (1, taps) @ (taps, C)
    flat = input.permute(0, 2, 3, 1).reshape(n_img * height * width, channels)
    pieces, order = [], []
    for gh, gw in sorted(set(zip(grid_h.tolist(), grid_w.tolist()))):
        sel = np.nonzero((grid_h == gh) & (grid_w == gw))[0]
        if gh <= 0 or gw <= 0:  # empty sampling grid: the kernel outputs zeros
            pieces.append(input.new_zeros((sel.size * ph_n * pw_n, channels)))
            order.append(sel)
            continue
        y_lo, y_hi, wy_lo, wy_hi = _axis_samples(start_h[sel], bin_h[sel], ph_n, gh, height)
        x_lo, x_hi, wx_lo, wx_hi = _axis_samples(start_w[sel], bin_w[sel], pw_n, gw, width)
        # (R, PH, PW, GH, GW) per corner -> (R, PH, PW, 4 * GH * GW)
        base = (batch[sel] * height * width)[:, None, None, None, None]
        idx, wts = [], []
        for yi, wy in ((y_lo, wy_lo), (y_hi, wy_hi)):
            for xi, wx in ((x_lo, wx_lo), (x_hi, wx_hi)):
                idx.append(base + yi[:, :, None, :, None] * width + xi[:, None, :, None, :])
                wts.append(wy[:, :, None, :, None] * wx[:, None, :, None, :])
        taps = 4 * gh * gw
        count = dt(max(gh * gw, 1))
        idx_all = np.stack(idx, -1).reshape(sel.size * ph_n * pw_n, taps)
        w_all = (np.stack(wts, -1) / count).astype(rois.dtype).reshape(sel.size * ph_n * pw_n, 1, taps)
        chunk = max(1, (1 << 24) // max(1, channels * ph_n * pw_n * taps))  # ~16M gathered values at a time
        for c0 in range(0, sel.size, chunk):
            rows = slice(c0 * ph_n * pw_n, (c0 + chunk) * ph_n * pw_n)
            ii = from_numpy(np.ascontiguousarray(idx_all[rows]).ravel())
            ww = from_numpy(np.ascontiguousarray(w_all[rows])).to(input.dtype)
            vals = flat.index_select(0, ii).reshape(ww.shape[0], taps, channels)
            pieces.append(torch.bmm(ww, vals).reshape(ww.shape[0], channels))
            order.append(sel[c0:c0 + chunk])
    res = torch.cat(pieces, 0) if len(pieces) > 1 else pieces[0]
    res = res.reshape(k, ph_n, pw_n, channels)
    perm = np.concatenate(order)
    if not np.array_equal(perm, np.arange(k)):
        res = res.index_select(0, from_numpy(np.argsort(perm, kind="stable")))
    return res.permute(0, 3, 1, 2).contiguous()


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
