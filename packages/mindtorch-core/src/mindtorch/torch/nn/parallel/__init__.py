"""torch.nn.parallel: DistributedDataParallel and DataParallel, forwarded lazily to mindtorch-distributed
(DESIGN.md §1); without that package they raise ImportError naming the install command."""
from __future__ import annotations

from typing import Any

__all__ = ["DataParallel", "DistributedDataParallel"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        try:
            from mindtorch.distributed.nn import parallel
        except ImportError as e:
            raise ImportError(f"torch.nn.parallel.{name} needs the mindtorch-distributed package: "
                              "pip install mindtorch-distributed") from e
        return getattr(parallel, name)
    raise AttributeError(f"module 'torch.nn.parallel' has no attribute '{name}'")
