"""Box operations of torchvision.ops (0.13): NMS, IoU variants, conversions.

Computed in numpy (inference/data-side use: new tensors): nms and batched_nms follow torchvision's CPU kernel
(IoU > threshold suppresses; indices sorted by decreasing score), the IoU family follows torchvision's formulas in
the input's floating dtype. When a box tensor requires grad (a DETR-style `1 - generalized_box_iou(...)` loss) the
IoU family, box_area, box_convert and clip_boxes_to_image run torchvision's formulas as torch ops instead
(`_torch_*`), so the gradient flows as in torchvision.
"""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

import mindtorch.torch as torch

from .._bridge import from_numpy, records_grad, to_numpy


def _torch_area(b: Any) -> Any:
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def _torch_inter_union(b1: Any, b2: Any) -> Tuple[Any, Any]:
    area1, area2 = _torch_area(b1), _torch_area(b2)
    lt = torch.max(b1[:, None, :2], b2[:, :2])
    rb = torch.min(b1[:, None, 2:], b2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter, area1[:, None] + area2 - inter


def _torch_enclosing_wh(b1: Any, b2: Any) -> Any:
    lti = torch.min(b1[:, None, :2], b2[:, :2])
    rbi = torch.max(b1[:, None, 2:], b2[:, 2:])
    return (rbi - lti).clamp(min=0)


def _torch_diou_iou(b1: Any, b2: Any, eps: float) -> Tuple[Any, Any]:
    inter, union = _torch_inter_union(b1, b2)
    iou = inter / union
    whi = _torch_enclosing_wh(b1, b2)
    diagonal_distance_squared = (whi[:, :, 0] ** 2) + (whi[:, :, 1] ** 2) + eps
    x_p, y_p = (b1[:, 0] + b1[:, 2]) / 2, (b1[:, 1] + b1[:, 3]) / 2
    x_g, y_g = (b2[:, 0] + b2[:, 2]) / 2, (b2[:, 1] + b2[:, 3]) / 2
    centers_distance_squared = (x_p[:, None] - x_g[None, :]) ** 2 + (y_p[:, None] - y_g[None, :]) ** 2
    return iou - (centers_distance_squared / diagonal_distance_squared), iou


def _upcast(a: np.ndarray) -> np.ndarray:
    # protects from numerical overflows in multiplications by upcasting to the equivalent higher type
    if a.dtype.kind == "f":
        return a if a.dtype in (np.float32, np.float64) else a.astype(np.float32)
    return a if a.dtype in (np.int32, np.int64) else a.astype(np.int32)


def _boxes(b: Any, name: str = "boxes") -> np.ndarray:
    a = np.asarray(to_numpy(b))
    if a.ndim != 2 or a.shape[-1] != 4:
        raise ValueError(f"{name} should be a (N, 4) tensor, got shape {tuple(a.shape)}")
    return a


def _nms_np(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    if boxes.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = (x2 - x1) * (y2 - y1)
    order = np.argsort(-scores, kind="stable")
    suppressed = np.zeros(boxes.shape[0], dtype=bool)
    keep = []
    for _i in range(order.shape[0]):
        i = order[_i]
        if suppressed[i]:
            continue
        keep.append(i)
        rest = order[_i + 1:]
        rest = rest[~suppressed[rest]]
        if rest.size == 0:
            continue
        xx1 = np.maximum(x1[i], x1[rest])
        yy1 = np.maximum(y1[i], y1[rest])
        xx2 = np.minimum(x2[i], x2[rest])
        yy2 = np.minimum(y2[i], y2[rest])
        w = np.maximum(0, xx2 - xx1)
        h = np.maximum(0, yy2 - yy1)
        inter = w * h
        with np.errstate(divide="ignore", invalid="ignore"):  # degenerate boxes: NaN/inf never suppress, as in C++
            ovr = inter / (areas[i] + areas[rest] - inter)
        suppressed[rest[ovr > iou_threshold]] = True
    return np.asarray(keep, dtype=np.int64)


def nms(boxes: Any, scores: Any, iou_threshold: float) -> Any:
    """Indices (int64, by decreasing score) of the boxes kept by non-maximum suppression.

    boxes: (N, 4) in (x1, y1, x2, y2); scores: (N,). A box is dropped when its IoU with a kept, higher-scoring box
    is > iou_threshold.
    """
    b = _boxes(boxes)
    s = np.asarray(to_numpy(scores))
    if s.shape != (b.shape[0],):
        raise ValueError(f"scores should be a (N,) tensor matching boxes, got {tuple(s.shape)} for {b.shape[0]} boxes")
    return from_numpy(_nms_np(b, s, iou_threshold))


def batched_nms(boxes: Any, scores: Any, idxs: Any, iou_threshold: float) -> Any:
    """NMS done independently per category `idxs`; indices sorted by decreasing score."""
    b = _boxes(boxes)
    s = np.asarray(to_numpy(scores))
    ids = np.asarray(to_numpy(idxs))
    if b.shape[0] == 0:
        return from_numpy(np.zeros(0, dtype=np.int64))
    keep_mask = np.zeros(s.shape, dtype=bool)
    for class_id in np.unique(ids):
        curr_indices = np.nonzero(ids == class_id)[0]
        curr_keep = _nms_np(b[curr_indices], s[curr_indices], iou_threshold)
        keep_mask[curr_indices[curr_keep]] = True
    keep_indices = np.nonzero(keep_mask)[0]
    return from_numpy(keep_indices[np.argsort(-s[keep_indices], kind="stable")].astype(np.int64))


def remove_small_boxes(boxes: Any, min_size: float) -> Any:
    """Indices of the boxes whose both sides are >= min_size."""
    b = _boxes(boxes)
    ws, hs = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    keep = (ws >= min_size) & (hs >= min_size)
    return from_numpy(np.nonzero(keep)[0].astype(np.int64))


def clip_boxes_to_image(boxes: Any, size: Tuple[int, int]) -> Any:
    """Clip (..., 4) xyxy boxes to an image of size (height, width)."""
    if records_grad(boxes):
        height, width = size
        x = boxes[..., 0::2].clamp(min=0, max=width)
        y = boxes[..., 1::2].clamp(min=0, max=height)
        return torch.stack((x, y), dim=boxes.dim()).reshape(boxes.shape)
    b = np.asarray(to_numpy(boxes))
    height, width = size
    out = b.copy()
    out[..., 0::2] = np.clip(b[..., 0::2], 0, width)
    out[..., 1::2] = np.clip(b[..., 1::2], 0, height)
    return from_numpy(out)


def _to_xyxy(b: np.ndarray, fmt: str) -> np.ndarray:
    if fmt == "xyxy":
        return b
    if fmt == "xywh":
        x, y, w, h = (b[..., i] for i in range(4))
        return np.stack([x, y, x + w, y + h], axis=-1)
    cx, cy, w, h = (b[..., i] for i in range(4))
    half = b.dtype.type(0.5) if b.dtype.kind == "f" else 0.5
    out = np.stack([cx - half * w, cy - half * h, cx + half * w, cy + half * h], axis=-1)
    return out.astype(b.dtype) if b.dtype.kind == "f" else _int_result(out, b)


def _from_xyxy(b: np.ndarray, fmt: str) -> np.ndarray:
    if fmt == "xyxy":
        return b
    x1, y1, x2, y2 = (b[..., i] for i in range(4))
    if fmt == "xywh":
        return np.stack([x1, y1, x2 - x1, y2 - y1], axis=-1)
    return np.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], axis=-1).astype(
        b.dtype if b.dtype.kind == "f" else np.float32)


def box_convert(boxes: Any, in_fmt: str, out_fmt: str) -> Any:
    """Convert between 'xyxy', 'xywh' (corner + size) and 'cxcywh' (centre + size)."""
    allowed_fmts = ("xyxy", "xywh", "cxcywh")
    if in_fmt not in allowed_fmts or out_fmt not in allowed_fmts:
        raise ValueError("Unsupported Bounding Box Conversions for given in_fmt and out_fmt")
    b = np.asarray(to_numpy(boxes))
    if in_fmt == out_fmt:
        return from_numpy(b.copy())
    if records_grad(boxes):
        return _torch_box_convert(boxes, in_fmt, out_fmt)
    return from_numpy(np.ascontiguousarray(_from_xyxy(_to_xyxy(b, in_fmt), out_fmt)))


def _torch_box_convert(boxes: Any, in_fmt: str, out_fmt: str) -> Any:
    """torchvision's _box_convert formulas as torch ops (through xyxy)."""
    if in_fmt == "xywh":
        x, y, w, h = boxes.unbind(-1)
        boxes = torch.stack([x, y, x + w, y + h], dim=-1)
    elif in_fmt == "cxcywh":
        cx, cy, w, h = boxes.unbind(-1)
        boxes = torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)
    if out_fmt == "xywh":
        x1, y1, x2, y2 = boxes.unbind(-1)
        return torch.stack([x1, y1, x2 - x1, y2 - y1], dim=-1)
    if out_fmt == "cxcywh":
        x1, y1, x2, y2 = boxes.unbind(-1)
        return torch.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], dim=-1)
    return boxes


def _box_area(b: np.ndarray) -> np.ndarray:
    b = _upcast(b)
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def box_area(boxes: Any) -> Any:
    """(x2 - x1) * (y2 - y1) per box."""
    if records_grad(boxes):
        return _torch_area(boxes)
    return from_numpy(_box_area(_boxes(boxes)))


def _box_inter_union(b1: np.ndarray, b2: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    area1, area2 = _box_area(b1), _box_area(b2)
    lt = np.maximum(b1[:, None, :2], b2[:, :2])
    rb = np.minimum(b1[:, None, 2:], b2[:, 2:])
    wh = np.clip(_upcast(rb - lt), 0, None)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    return inter, union


def _int_result(r: np.ndarray, src: np.ndarray) -> np.ndarray:
    """torch divides integer tensors in the default float dtype (float32); numpy's int / int is float64."""
    return r.astype(np.float32) if src.dtype.kind in "iub" and r.dtype == np.float64 else r


def _iou(b1: np.ndarray, b2: np.ndarray) -> np.ndarray:
    inter, union = _box_inter_union(b1, b2)
    return _int_result(inter / union, b1)


def box_iou(boxes1: Any, boxes2: Any) -> Any:
    """(N, M) IoU matrix of two sets of xyxy boxes."""
    if records_grad(boxes1, boxes2):
        inter, union = _torch_inter_union(boxes1, boxes2)
        return inter / union
    return from_numpy(_iou(_boxes(boxes1, "boxes1"), _boxes(boxes2, "boxes2")))


def _enclosing_wh(b1: np.ndarray, b2: np.ndarray) -> np.ndarray:
    lti = np.minimum(b1[:, None, :2], b2[:, :2])
    rbi = np.maximum(b1[:, None, 2:], b2[:, 2:])
    return np.clip(_upcast(rbi - lti), 0, None)


def generalized_box_iou(boxes1: Any, boxes2: Any) -> Any:
    """(N, M) generalized IoU (Rezatofighi et al. 2019)."""
    if records_grad(boxes1, boxes2):
        inter, union = _torch_inter_union(boxes1, boxes2)
        whi = _torch_enclosing_wh(boxes1, boxes2)
        areai = whi[:, :, 0] * whi[:, :, 1]
        return inter / union - (areai - union) / areai
    b1, b2 = _boxes(boxes1, "boxes1"), _boxes(boxes2, "boxes2")
    inter, union = _box_inter_union(b1, b2)
    iou = inter / union
    whi = _enclosing_wh(b1, b2)
    areai = whi[:, :, 0] * whi[:, :, 1]
    return from_numpy(_int_result(iou - (areai - union) / areai, b1))


def _box_diou_iou(b1: np.ndarray, b2: np.ndarray, eps: float) -> Tuple[np.ndarray, np.ndarray]:
    iou = _iou(b1, b2)
    whi = _enclosing_wh(b1, b2)
    t = whi.dtype.type
    diagonal_distance_squared = (whi[:, :, 0] ** 2) + (whi[:, :, 1] ** 2) + t(eps)
    x_p = (b1[:, 0] + b1[:, 2]) / 2
    y_p = (b1[:, 1] + b1[:, 3]) / 2
    x_g = (b2[:, 0] + b2[:, 2]) / 2
    y_g = (b2[:, 1] + b2[:, 3]) / 2
    centers_distance_squared = (_upcast(x_p[:, None] - x_g[None, :]) ** 2) + (_upcast(y_p[:, None] - y_g[None, :]) ** 2)
    return iou - (centers_distance_squared / diagonal_distance_squared), iou


def distance_box_iou(boxes1: Any, boxes2: Any, eps: float = 1e-7) -> Any:
    """(N, M) distance IoU (Zheng et al. 2020): IoU minus the normalised squared centre distance."""
    if records_grad(boxes1, boxes2):
        return _torch_diou_iou(boxes1, boxes2, eps)[0]
    b1, b2 = _upcast(_boxes(boxes1, "boxes1")), _upcast(_boxes(boxes2, "boxes2"))
    diou, _ = _box_diou_iou(b1, b2, eps)
    return from_numpy(_int_result(diou, b1))


def complete_box_iou(boxes1: Any, boxes2: Any, eps: float = 1e-7) -> Any:
    """(N, M) complete IoU (Zheng et al. 2020): distance IoU minus an aspect-ratio consistency term."""
    if records_grad(boxes1, boxes2):
        diou, iou = _torch_diou_iou(boxes1, boxes2, eps)
        w_pred = boxes1[:, None, 2] - boxes1[:, None, 0]
        h_pred = boxes1[:, None, 3] - boxes1[:, None, 1]
        w_gt, h_gt = boxes2[:, 2] - boxes2[:, 0], boxes2[:, 3] - boxes2[:, 1]
        v = (4 / (torch.pi ** 2)) * torch.pow(torch.atan(w_pred / h_pred) - torch.atan(w_gt / h_gt), 2)
        with torch.no_grad():
            alpha = v / (1 - iou + v + eps)
        return diou - alpha * v
    b1, b2 = _upcast(_boxes(boxes1, "boxes1")), _upcast(_boxes(boxes2, "boxes2"))
    diou, iou = _box_diou_iou(b1, b2, eps)
    w_pred = b1[:, None, 2] - b1[:, None, 0]
    h_pred = b1[:, None, 3] - b1[:, None, 1]
    w_gt = b2[:, 2] - b2[:, 0]
    h_gt = b2[:, 3] - b2[:, 1]
    t = diou.dtype.type
    v = t(4 / (np.pi ** 2)) * (np.arctan(w_pred / h_pred) - np.arctan(w_gt / h_gt)) ** 2
    alpha = v / (t(1) - iou + v + t(eps))
    return from_numpy(_int_result((diou - alpha * v).astype(diou.dtype), b1))


def masks_to_boxes(masks: Any) -> Any:
    """(N, H, W) masks -> (N, 4) float boxes (x1, y1, x2, y2) enclosing the non-zero pixels."""
    m = np.asarray(to_numpy(masks))
    if m.size == 0:
        return from_numpy(np.zeros((0, 4), dtype=np.float32))
    out = np.zeros((m.shape[0], 4), dtype=np.float32)
    for index, mask in enumerate(m):
        y, x = np.nonzero(mask != 0)
        if y.size == 0:
            raise RuntimeError(f"masks_to_boxes: mask {index} is empty (torch.min of an empty tensor)")
        out[index] = [x.min(), y.min(), x.max(), y.max()]
    return from_numpy(out)
