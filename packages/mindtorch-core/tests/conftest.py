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


@pytest.fixture
def pin_kernel(monkeypatch):
    """pin_kernel(op, kernel): force the measured kernel choice of `op` (mindtorch.torch._ops._autotune) to
    `kernel` for this test, starting from an empty choice table; the table is cleared again afterwards."""
    from mindtorch.torch._ops import _autotune

    ops_pinned = []

    def pin(op: str, kernel: str) -> None:
        monkeypatch.setenv(f"MINDTORCH_KERNEL_{op.upper()}", kernel)
        monkeypatch.setitem(_autotune._CHOSEN, op, {})
        ops_pinned.append(op)

    yield pin
    for op in ops_pinned:
        _autotune._CHOSEN.pop(op, None)
