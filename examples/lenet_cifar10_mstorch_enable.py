"""Form (a): the unmodified PyTorch script (pytorch_original/lenet_cifar10.py) run on MindSpore.

The only addition is the first line of the manual's Step 1: after it, `import torch` / `torchvision` in the
original file resolve to mindtorch. The original file is executed as it is, byte for byte.
"""
import runpy  # noqa: E402
from pathlib import Path  # noqa: E402

from mindtorch.tools import mstorch_enable  # noqa: F401  (must come before the script imports torch)

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).parent / "pytorch_original" / "lenet_cifar10.py"), run_name="__main__")
