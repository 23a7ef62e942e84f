"""Shared test setup: the device target from nox, and helpers to compare with real PyTorch."""
import os
import sys
from pathlib import Path

import mindspore as ms
import pytest

ms.set_device(os.environ.get("MINDTORCH_DEVICE_TARGET", "CPU"))
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def reftorch():
    """Real PyTorch (2.13.0, CPU) as the reference; tests using it skip cleanly when it is absent."""
    return pytest.importorskip("torch")
