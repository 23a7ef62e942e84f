"""Shared pieces of the IoU losses, written with mindtorch tensor ops so that they are differentiable."""
from __future__ import annotations

from typing import Any, Tuple

import mindtorch.torch as torch


def _coords(boxes: Any) -> Tuple[Any, Any, Any, Any]:
    # indexing instead of unbind(): core's backward through unbind fails on CPU (reported)
    return boxes[..., 0], boxes[..., 1], boxes[..., 2], boxes[..., 3]


def _upcast_non_float(t: Any) -> Any:
    # protects from numerical overflows in multiplications by upcasting to the equivalent higher type
    if t.dtype not in (torch.float32, torch.float64):
        return t.float()
    return t


def _loss_inter_union(boxes1: Any, boxes2: Any) -> Tuple[Any, Any]:
    """Element-wise intersection and union areas of two (..., 4) xyxy box tensors."""
    x1, y1, x2, y2 = _coords(boxes1)
    x1g, y1g, x2g, y2g = _coords(boxes2)
    xkis1 = torch.max(x1, x1g)
    ykis1 = torch.max(y1, y1g)
    xkis2 = torch.min(x2, x2g)
    ykis2 = torch.min(y2, y2g)
    # torchvision masks (ykis2 > ykis1) & (xkis2 > xkis1); clamping at 0 gives the same values
    intsctk = (xkis2 - xkis1).clamp(min=0) * (ykis2 - ykis1).clamp(min=0)
    unionk = (x2 - x1) * (y2 - y1) + (x2g - x1g) * (y2g - y1g) - intsctk
    return intsctk, unionk


def _diou_iou_loss(boxes1: Any, boxes2: Any, eps: float = 1e-7) -> Tuple[Any, Any]:
    intsct, union = _loss_inter_union(boxes1, boxes2)
    iou = intsct / (union + eps)
    x1, y1, x2, y2 = _coords(boxes1)
    x1g, y1g, x2g, y2g = _coords(boxes2)
    # smallest enclosing box
    xc1 = torch.min(x1, x1g)
    yc1 = torch.min(y1, y1g)
    xc2 = torch.max(x2, x2g)
    yc2 = torch.max(y2, y2g)
    diagonal_distance_squared = ((xc2 - xc1) ** 2) + ((yc2 - yc1) ** 2) + eps
    # centers of boxes
    x_p = (x2 + x1) / 2
    y_p = (y2 + y1) / 2
    x_g = (x1g + x2g) / 2
    y_g = (y1g + y2g) / 2
    centers_distance_squared = ((x_p - x_g) ** 2) + ((y_p - y_g) ** 2)
    loss = 1 - iou + (centers_distance_squared / diagonal_distance_squared)
    return loss, iou


def _reduce(loss: Any, reduction: str) -> Any:
    if reduction == "mean":
        return loss.mean() if loss.numel() > 0 else 0.0 * loss.sum()
    if reduction == "sum":
        return loss.sum()
    if reduction != "none":
        raise ValueError(
            f"Invalid Value for arg 'reduction': '{reduction} \n Supported reduction modes: 'none', 'mean', 'sum'"
        )
    return loss
