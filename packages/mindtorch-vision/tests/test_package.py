"""The package installs into the mindtorch namespace next to mindtorch-core."""
import importlib


def test_namespace_import():
    mod = importlib.import_module("mindtorch.torchvision")
    core = importlib.import_module("mindtorch.torch")
    assert core.__version__ == "1.12.1"
    assert mod.__name__ == "mindtorch.torchvision"
