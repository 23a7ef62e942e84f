"""generalized_box_iou_loss (Rezatofighi et al. 2019), differentiable."""
from __future__ import annotations

from typing import Any

import mindtorch.torch as torch

from ._box_loss_utils import _coords, _loss_inter_union, _reduce, _upcast_non_float


def generalized_box_iou_loss(boxes1: Any, boxes2: Any, reduction: str = "none", eps: float = 1e-7) -> Any:
    """1 - GIoU of matching (N, 4) xyxy boxes; reduction none | mean | sum."""
    boxes1 = _upcast_non_float(boxes1)
    boxes2 = _upcast_non_float(boxes2)
    intsctk, unionk = _loss_inter_union(boxes1, boxes2)
    iouk = intsctk / (unionk + eps)
    x1, y1, x2, y2 = _coords(boxes1)
    x1g, y1g, x2g, y2g = _coords(boxes2)
    # smallest enclosing box
    xc1 = torch.min(x1, x1g)
    yc1 = torch.min(y1, y1g)
    xc2 = torch.max(x2, x2g)
    yc2 = torch.max(y2, y2g)
    area_c = (xc2 - xc1) * (yc2 - yc1)
    miouk = iouk - ((area_c - unionk) / (area_c + eps))
    return _reduce(1 - miouk, reduction)
