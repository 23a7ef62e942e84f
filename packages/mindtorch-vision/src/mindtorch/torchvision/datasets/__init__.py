"""torchvision.datasets (0.13 API): local files in the original formats, optional download."""
from .cifar import CIFAR10, CIFAR100
from .coco import CocoCaptions, CocoDetection
from .fakedata import FakeData
from .folder import DatasetFolder, ImageFolder
from .mnist import EMNIST, KMNIST, MNIST, FashionMNIST
from .stl10 import STL10
from .svhn import SVHN
from .vision import VisionDataset
from .voc import VOCDetection, VOCSegmentation

__all__ = (
    "CIFAR10", "CIFAR100", "CocoCaptions", "CocoDetection", "DatasetFolder", "EMNIST", "FakeData", "FashionMNIST",
    "ImageFolder", "KMNIST", "MNIST", "STL10", "SVHN", "VOCDetection", "VOCSegmentation", "VisionDataset",
)
