"""distance_box_iou_loss (Zheng et al. 2020), differentiable."""
from __future__ import annotations

from typing import Any

from ._box_loss_utils import _diou_iou_loss, _reduce, _upcast_non_float


def distance_box_iou_loss(boxes1: Any, boxes2: Any, reduction: str = "none", eps: float = 1e-7) -> Any:
    """1 - IoU + normalised squared centre distance, for matching (N, 4) xyxy boxes."""
    boxes1 = _upcast_non_float(boxes1)
    boxes2 = _upcast_non_float(boxes2)
    loss, _ = _diou_iou_loss(boxes1, boxes2, eps)
    return _reduce(loss, reduction)
