"""torch.onnx: export is not available on MindSpore; `is_in_onnx_export()` (which model code checks) is False."""
from __future__ import annotations

from typing import Any

from .._unsupported import UnsupportedAPIError

__all__ = ["export", "is_in_onnx_export"]


def is_in_onnx_export() -> bool:
    """Whether an ONNX export is running: never, since mindtorch cannot export (see `export`)."""
    return False


def export(*args: Any, **kwargs: Any) -> None:
    """Not supported: raises, naming the way out."""
    raise UnsupportedAPIError(
        "torch.onnx.export is not supported by mindtorch: MindSpore exports its own graphs "
        "(mindspore.export(cell, *inputs, file_name=..., file_format='MINDIR')); for ONNX, save the weights with "
        "torch.save(model.state_dict(), path), load them into the same model under real PyTorch and export there.")
