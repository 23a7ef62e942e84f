"""torch.device.

One process runs on one MindSpore device target (DESIGN.md §2). `device=` arguments and `.to(device)` are
accepted and recorded so that code written for torch runs unchanged; they do not move data. A tensor reports
`cpu` on the CPU target and `cuda:0` / `npu:0` on GPU / Ascend, which is what torch code checks for.
"""
from __future__ import annotations

from typing import Any, Optional, Union

from . import _ms

_TARGET_TYPE = {"CPU": "cpu", "GPU": "cuda", "Ascend": "npu"}
_KNOWN_TYPES = ("cpu", "cuda", "npu", "meta", "mps", "xpu")


class device:
    """torch.device('cuda:0'), torch.device('cpu'), torch.device('cuda', 1)."""

    __slots__ = ("type", "index")

    def __init__(self, type: Union[str, "device", int], index: Optional[int] = None) -> None:  # noqa: A002
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int):
            # torch 1.12: an integer is a CUDA device index (`x.to(args.gpu)`, `map_location=0`), also on a
            # machine without CUDA, like `.cuda(0)` reports; on Ascend the accelerator is npu. (torch >= 2.x maps
            # it to the current accelerator and raises when there is none.)
            kind = default_device_type()
            self.type, self.index = ("cuda" if kind == "cpu" else kind), type
            return
        if not isinstance(type, str):
            raise TypeError(f"device(): argument 'type' must be str, not {type.__class__.__name__}")
        if ":" in type:
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was passed explicitly: {type}")
            type, _, idx = type.partition(":")
            try:
                index = int(idx)
            except ValueError:
                raise RuntimeError(f"Invalid device string: '{type}:{idx}'") from None
        if type not in _KNOWN_TYPES:
            raise RuntimeError(
                f"Expected one of cpu, cuda, npu, meta, mps, xpu device type at start of device string: {type}")
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative, got {index}")
        self.type, self.index = type, index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


def default_device_type() -> str:
    """'cpu', 'cuda' or 'npu' for the MindSpore target this process runs on."""
    return _TARGET_TYPE.get(_ms.device_target(), "cpu")


def current_device() -> device:
    kind = default_device_type()
    return device(kind) if kind == "cpu" else device(kind, 0)


def as_device(d: Any) -> Optional[device]:
    """Normalise a device argument (None, str, int, device) without moving anything."""
    if d is None or isinstance(d, device):
        return d
    return device(d)
