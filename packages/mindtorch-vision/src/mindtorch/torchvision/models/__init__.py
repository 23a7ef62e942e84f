"""torchvision.models (0.13.1): the classification architectures with torchvision's class structure, parameter
names and builders (`resnet18(weights=None, progress=True, **kwargs)`, legacy `pretrained=`), and the `*_Weights`
enums whose files load from the torch hub cache; `models.segmentation` (FCN, DeepLabV3, LR-ASPP) and
`models.detection` (Faster/Mask/Keypoint R-CNN, RetinaNet, FCOS, SSD, SSDlite). Video, optical flow and quantized
models are not provided (see the package README).
"""
from . import detection, segmentation  # noqa: E402,F401  (after the backbones they build on)
from ._api import Weights, WeightsEnum, get_model, get_model_weights, get_weight, list_models
from .alexnet import *  # noqa: F403
from .convnext import *  # noqa: F403
from .densenet import *  # noqa: F403
from .efficientnet import *  # noqa: F403
from .googlenet import *  # noqa: F403
from .inception import *  # noqa: F403
from .mnasnet import *  # noqa: F403
from .mobilenet import *  # noqa: F403
from .regnet import *  # noqa: F403
from .resnet import *  # noqa: F403
from .shufflenetv2 import *  # noqa: F403
from .squeezenet import *  # noqa: F403
from .swin_transformer import *  # noqa: F403
from .vgg import *  # noqa: F403
from .vision_transformer import *  # noqa: F403

_NOT_PROVIDED = ("video", "optical_flow", "quantization", "feature_extraction")


def __getattr__(name: str):
    if name in _NOT_PROVIDED:
        raise NotImplementedError(
            f"torchvision.models.{name} is not provided by mindtorch.torchvision (only the classification models "
            "are): define the model with mindtorch.torch.nn and load its weights with torch.load + load_state_dict")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
