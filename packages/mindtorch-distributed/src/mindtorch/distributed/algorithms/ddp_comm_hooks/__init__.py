"""torch.distributed.algorithms.ddp_comm_hooks: the hooks `DistributedDataParallel.register_comm_hook` takes."""
from . import default_hooks  # noqa: F401
