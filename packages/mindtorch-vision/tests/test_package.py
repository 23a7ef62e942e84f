"""The package installs into the mindtorch namespace next to mindtorch-core."""
import importlib


def test_namespace_import():
    mod = importlib.import_module("mindtorch.torchvision")
    core = importlib.import_module("mindtorch.torch")
    assert core.__version__ == "1.12.1"
    assert mod.__name__ == "mindtorch.torchvision"


def test_models_not_provided_message():
    # classification, segmentation and detection models are provided (tests/test_vision_models.py,
    # tests/test_vision_detection.py); video & co. are not
    import pytest

    from mindtorch.torchvision import models

    assert models.detection.fasterrcnn_resnet50_fpn is not None
    with pytest.raises(NotImplementedError, match="video"):
        models.video  # noqa: B018


def test_image_backend():
    import pytest

    import mindtorch.torchvision as tv

    assert tv.get_image_backend() == "PIL"
    with pytest.raises(NotImplementedError, match="accimage"):
        tv.set_image_backend("accimage")
    with pytest.raises(ValueError):
        tv.set_image_backend("cv2")
