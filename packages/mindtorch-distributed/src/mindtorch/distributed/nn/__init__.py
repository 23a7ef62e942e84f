"""torch.nn pieces that belong to the distributed package (forwarded from core's torch.nn)."""
from ..grad_reducer import DistributedGradReducer
from .parallel import DataParallel, DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel", "DistributedGradReducer"]
