"""Shared test setup for mindtorch-audio."""
import os
import sys
from pathlib import Path

import mindspore as ms

ms.set_device(os.environ.get("MINDTORCH_DEVICE_TARGET", "CPU"))
sys.path.insert(0, str(Path(__file__).parent))
