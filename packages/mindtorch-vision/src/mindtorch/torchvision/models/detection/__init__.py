"""torchvision.models.detection (0.13.1) on mindtorch: Faster / Mask / Keypoint R-CNN, RetinaNet, FCOS, SSD and
SSDlite builders with their weights enums (the files load from the torch hub cache).

Ported from torchvision (BSD-3-Clause, Copyright (c) Soumith Chintala 2016, and the torchvision contributors).
"""
from .faster_rcnn import *  # noqa: F403
from .fcos import *  # noqa: F403
from .keypoint_rcnn import *  # noqa: F403
from .mask_rcnn import *  # noqa: F403
from .retinanet import *  # noqa: F403
from .ssd import *  # noqa: F403
from .ssdlite import *  # noqa: F403
