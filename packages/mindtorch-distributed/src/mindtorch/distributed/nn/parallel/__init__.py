"""torch.nn.parallel: DistributedDataParallel and DataParallel."""
from .data_parallel import DataParallel
from .distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]
