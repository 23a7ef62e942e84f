"""complete_box_iou_loss (Zheng et al. 2020), differentiable."""
from __future__ import annotations

import math
from typing import Any

import mindtorch.torch as torch

from ._box_loss_utils import _coords, _diou_iou_loss, _reduce, _upcast_non_float


def complete_box_iou_loss(boxes1: Any, boxes2: Any, reduction: str = "none", eps: float = 1e-7) -> Any:
    """Distance IoU loss plus the aspect-ratio consistency term, for matching (N, 4) xyxy boxes."""
    boxes1 = _upcast_non_float(boxes1)
    boxes2 = _upcast_non_float(boxes2)
    diou_loss, iou = _diou_iou_loss(boxes1, boxes2, eps)
    x1, y1, x2, y2 = _coords(boxes1)
    x1g, y1g, x2g, y2g = _coords(boxes2)
    # width and height of boxes
    w_pred = x2 - x1
    h_pred = y2 - y1
    w_gt = x2g - x1g
    h_gt = y2g - y1g
    v = (4 / (math.pi ** 2)) * torch.pow((torch.atan(w_gt / h_gt) - torch.atan(w_pred / h_pred)), 2)
    with torch.no_grad():
        alpha = v / (1 - iou + v + eps)
    return _reduce(diou_loss + alpha * v, reduction)
