"""torch.utils.data.distributed: the module where torch defines DistributedSampler (the imagenet example does
`import torch.utils.data.distributed` and uses `torch.utils.data.distributed.DistributedSampler`). The class
lives in mindtorch-distributed; this reuses torch.utils.data's lazy forward (DESIGN.md §1)."""
from typing import Any

__all__ = ["DistributedSampler"]  # noqa: F822 (provided lazily by __getattr__ below)


def __getattr__(name: str) -> Any:
    if name == "DistributedSampler":
        from mindtorch.torch.utils import data

        return data.DistributedSampler
    raise AttributeError(f"module 'torch.utils.data.distributed' has no attribute '{name}'")
