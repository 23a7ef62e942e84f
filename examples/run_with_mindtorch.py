"""Run any unmodified PyTorch script on MindSpore: `python run_with_mindtorch.py SCRIPT [ARGS...]`.

Turns on the import hook (the manual's `from mindtorch.tools import mstorch_enable`), then executes SCRIPT as
`__main__` with ARGS, so `import torch` / `torchvision` / `torchaudio` inside it resolve to mindtorch.
"""
import runpy
import sys
from pathlib import Path

from mindtorch.tools import mstorch_enable  # noqa: F401


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    script = Path(sys.argv[1])
    if not script.exists():
        script = Path(__file__).parent / "pytorch_original" / sys.argv[1]
    sys.argv = [str(script), *sys.argv[2:]]
    sys.path.insert(0, str(script.parent))
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
