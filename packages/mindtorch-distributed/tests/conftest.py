"""Shared test setup for mindtorch-distributed: the reference PyTorch fixture and the launch helpers' path."""
import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("GLOG_v", "3")
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def reftorch():
    """Real PyTorch (2.13.0, CPU) as the reference; tests using it skip cleanly when it is absent."""
    return pytest.importorskip("torch")
