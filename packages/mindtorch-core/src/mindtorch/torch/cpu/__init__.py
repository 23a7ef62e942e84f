"""torch.cpu (torch 1.12: the `amp` submodule)."""
from . import amp  # noqa: F401
