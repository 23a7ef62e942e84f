"""torchvision.models.segmentation (0.13.1) on mindtorch: FCN, DeepLabV3 and LR-ASPP builders with their weights
enums (the files load from the torch hub cache)."""
from .deeplabv3 import *  # noqa: F403
from .fcn import *  # noqa: F403
from .lraspp import *  # noqa: F403
