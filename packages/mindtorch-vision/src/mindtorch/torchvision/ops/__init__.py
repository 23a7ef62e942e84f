"""torchvision.ops (0.13): boxes, NMS, RoI pooling, focal loss, stochastic depth, small building blocks and the
detection models' FeaturePyramidNetwork / MultiScaleRoIAlign."""
import importlib
from typing import Any

from .boxes import (  # noqa: F401
    batched_nms,
    box_area,
    box_convert,
    box_iou,
    clip_boxes_to_image,
    complete_box_iou,
    distance_box_iou,
    generalized_box_iou,
    masks_to_boxes,
    nms,
    remove_small_boxes,
)
from .ciou_loss import complete_box_iou_loss  # noqa: F401
from .diou_loss import distance_box_iou_loss  # noqa: F401
from .focal_loss import sigmoid_focal_loss  # noqa: F401
from .giou_loss import generalized_box_iou_loss  # noqa: F401
from .roi_align import RoIAlign, roi_align  # noqa: F401
from .roi_pool import RoIPool, roi_pool  # noqa: F401
from .stochastic_depth import StochasticDepth, stochastic_depth  # noqa: F401

# the nn-layer blocks load on first use, so `import torchvision` does not depend on every core nn layer
_MISC = ("MLP", "Conv2dNormActivation", "Conv3dNormActivation", "ConvNormActivation", "FrozenBatchNorm2d",
         "SqueezeExcitation")


_LAZY = {"FeaturePyramidNetwork": ".feature_pyramid_network", "MultiScaleRoIAlign": ".poolers"}


def __getattr__(name: str) -> Any:
    if name in _MISC:
        return getattr(importlib.import_module(".misc", __name__), name)
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
