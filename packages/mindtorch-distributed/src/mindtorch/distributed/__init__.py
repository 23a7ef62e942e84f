"""mindtorch.distributed: torch.distributed on MindSpore's collectives (HCCL / NCCL / MCCL).

Seen by users as `torch.distributed` (core forwards to it). Launch with `python -m mindtorch.distributed.run`
(torchrun's flags), msrun, or torchrun-style environment variables.
"""
from typing import Any

from .distributed_c10d import (  # noqa: F401
    Backend,
    DebugLevel,
    GradBucket,
    GroupMember,
    P2POp,
    ProcessGroup,
    ReduceOp,
    Work,
    _all_gather_base,
    _reduce_scatter_base,
    all_gather,
    all_gather_coalesced,
    all_gather_into_tensor,
    all_gather_object,
    all_reduce,
    all_reduce_coalesced,
    all_to_all,
    all_to_all_single,
    barrier,
    batch_isend_irecv,
    broadcast,
    broadcast_object_list,
    default_pg_timeout,
    destroy_process_group,
    gather,
    gather_object,
    get_backend,
    get_debug_level,
    get_rank,
    get_world_size,
    group,
    init_process_group,
    irecv,
    is_available,
    is_gloo_available,
    is_hccl_available,
    is_initialized,
    is_mpi_available,
    is_nccl_available,
    is_torchelastic_launched,
    isend,
    monitored_barrier,
    new_group,
    recv,
    reduce,
    reduce_op,
    reduce_scatter,
    reduce_scatter_tensor,
    scatter,
    scatter_object_list,
    send,
    set_debug_level,
    set_debug_level_from_env,
)
from .grad_reducer import DistributedGradReducer  # noqa: F401
from .utils.data import DistributedSampler  # noqa: F401

# The DDP modules are nn.Modules, so importing them imports mindtorch.torch; the launcher
# (`python -m mindtorch.distributed.run`) imports this package and stays light without them.
_LAZY = {"DataParallel", "DistributedDataParallel"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from .nn import parallel

        return getattr(parallel, name)
    if name == "algorithms":  # torch.distributed.algorithms (DDP communication hooks): imports mindtorch.torch too
        import importlib

        return importlib.import_module(".algorithms", __name__)
    raise AttributeError(f"module 'mindtorch.distributed' has no attribute '{name}'")
