"""Vision test setup: device target, real-torchvision reference values (tests/fixtures), helpers."""
import os
import sys
from pathlib import Path

import mindspore as ms
import numpy as np
import pytest

ms.set_device(os.environ.get("MINDTORCH_DEVICE_TARGET", "CPU"))
sys.path.insert(0, str(Path(__file__).parent))

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def tvref():
    """Outputs of real torchvision 0.29.1 (see fixtures/make_fixtures.py), keyed by case name."""
    return np.load(FIXTURES / "tv_reference.npz")


@pytest.fixture(scope="session")
def reftorch():
    """Real PyTorch (2.13.0, CPU) as the reference; tests using it skip cleanly when it is absent."""
    return pytest.importorskip("torch")

