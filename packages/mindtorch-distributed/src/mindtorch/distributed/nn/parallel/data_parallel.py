"""torch.nn.DataParallel. One mindtorch process drives one MindSpore device (DESIGN.md §2), so there are
no other local devices to replicate onto: like torch's DataParallel with a single (or no) visible device, it
runs the wrapped module as is. It is a real `nn.Module` holding the model as its submodule `module`, so its
state_dict keys carry torch's `module.` prefix. Use DistributedDataParallel (one process per device,
`python -m mindtorch.distributed.run`) to train on several devices."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from mindtorch.torch.nn import Module


class DataParallel(Module):
    """`DataParallel(module, device_ids=None, output_device=None, dim=0)`: forward is `module(*inputs)`,
    outputs have the shapes the module gives (no scatter along `dim`, no gather onto `output_device`)."""

    def __init__(self, module: Module, device_ids: Optional[Sequence[Any]] = None, output_device: Any = None,
                 dim: int = 0) -> None:
        super().__init__()
        self.module = module
        # torch keeps device_ids=[] when no accelerator is visible, and then forwards to the module directly.
        self.device_ids: List[Any] = list(device_ids) if device_ids is not None else []
        self.output_device = output_device
        self.dim = dim

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
