"""torch.nn.DataParallel. One mindtorch process drives one MindSpore device (DESIGN.md §2), so there are
no other local devices to replicate onto: like torch's DataParallel without visible GPUs, it runs the
module as is, keeping torch's `module.` prefix in state_dict. Use DistributedDataParallel (one process per
device, `python -m mindtorch.distributed.run`) to train on several devices."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from ._wrapper import ModuleWrapper


class DataParallel(ModuleWrapper):
    def __init__(self, module: Any, device_ids: Optional[Sequence[Any]] = None, output_device: Any = None,
                 dim: int = 0) -> None:
        super().__init__(module)
        self.device_ids = list(device_ids) if device_ids is not None else []
        self.output_device = output_device
        self.dim = dim
