"""torch.utils.data.DistributedSampler lives here; core's torch.utils.data forwards to it lazily."""
from .distributed import DistributedSampler

__all__ = ["DistributedSampler"]
