"""torch.distributed's process groups and collectives (torch/distributed/distributed_c10d.py) on MindSpore.

The process group is MindSpore's communication layer (`mindspore.communication.init`: HCCL on Ascend,
NCCL on GPU, MCCL on CPU), which forms its cluster through a scheduler process and the MS_ROLE /
MS_SCHED_HOST / MS_SCHED_PORT / MS_WORKER_NUM / MS_NODE_ID variables. `init_process_group` translates
torch's rendezvous (env:// or tcp://) into those variables and, on rank 0, starts the scheduler.

Every collective is built from AllReduce(SUM) and AllGather (see `_transport.py` for why); results are
written into the caller's tensors in place through core's `write_back`, so views see them as in torch.
All calls block; `async_op=True` returns an already-completed `Work`.
"""
from __future__ import annotations

import atexit
import collections
import datetime
import io
import os
import pickle
import signal
import socket
import subprocess
import sys
import time
from typing import Any, Deque, Dict, List, Optional, Sequence
from urllib.parse import urlparse

import mindspore as ms
import numpy as np

from . import _transport as tr
from . import _watchdog

__all__ = [
    "Backend", "ReduceOp", "ProcessGroup", "GroupMember", "group", "Work", "default_pg_timeout",
    "init_process_group", "destroy_process_group", "is_initialized", "is_available", "is_mpi_available",
    "is_nccl_available", "is_gloo_available", "is_hccl_available", "is_torchelastic_launched",
    "get_rank", "get_world_size", "get_backend", "new_group", "barrier", "monitored_barrier",
    "all_reduce", "broadcast", "all_gather", "all_gather_into_tensor", "reduce", "reduce_scatter",
    "reduce_scatter_tensor", "gather", "scatter", "send", "recv", "isend", "irecv", "all_to_all",
    "all_to_all_single", "broadcast_object_list", "all_gather_object", "gather_object", "scatter_object_list",
]

default_pg_timeout = datetime.timedelta(minutes=30)

_MS_BACKEND_OF_TARGET = {"CPU": "mccl", "GPU": "nccl", "Ascend": "hccl"}


class Backend(str):
    """Backend names torch accepts. All of them run on the device target's MindSpore backend:
    gloo/mpi/mccl on CPU -> MCCL, nccl -> NCCL on GPU, hccl -> HCCL on Ascend."""

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"
    HCCL = "hccl"
    MCCL = "mccl"

    def __new__(cls, name: str) -> "Backend":
        if not isinstance(name, str):
            raise ValueError(f"Backend name must be a string, but got: {name}")
        value = name.lower()
        if value not in ("gloo", "nccl", "mpi", "hccl", "mccl"):
            raise ValueError(f"Invalid backend: '{name}'")
        return str.__new__(cls, value)


class _ReduceOpValue:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<ReduceOp.{self.name}>"


class ReduceOp:
    """torch.distributed.ReduceOp. SUM/AVG on float32/float16 use MindSpore's AllReduce; the others
    (which MindSpore's CPU AllReduce refuses) reduce gathered values locally, with the same result."""

    SUM = _ReduceOpValue("SUM")
    AVG = _ReduceOpValue("AVG")
    PRODUCT = _ReduceOpValue("PRODUCT")
    MIN = _ReduceOpValue("MIN")
    MAX = _ReduceOpValue("MAX")
    BAND = _ReduceOpValue("BAND")
    BOR = _ReduceOpValue("BOR")
    BXOR = _ReduceOpValue("BXOR")


reduce_op = ReduceOp  # torch's deprecated alias


def _op_name(op: Any) -> str:
    if isinstance(op, _ReduceOpValue):
        return op.name.lower()
    raise RuntimeError(f"Invalid reduce op {op!r}: expected a member of torch.distributed.ReduceOp")


class ProcessGroup:
    """A set of global ranks and the MindSpore communication group that connects them."""

    def __init__(self, ranks: Sequence[int], ms_group: Optional[str], backend: str,
                 timeout: Optional[float] = None) -> None:
        self.ranks = list(ranks)
        self.ms_group = ms_group
        self._backend = backend
        self.timeout = timeout  # seconds; None: the default group's

    def rank(self) -> int:
        return self.ranks.index(_state.rank)

    def size(self) -> int:
        return len(self.ranks)

    def name(self) -> str:
        return self._backend

    def __repr__(self) -> str:
        return f"ProcessGroup(ranks={self.ranks}, backend={self._backend!r})"


class GroupMember:
    """torch's group sentinels: WORLD is the default group, NON_GROUP_MEMBER what `new_group` returns
    on ranks outside the new group."""

    WORLD: Optional[ProcessGroup] = None
    NON_GROUP_MEMBER = object()


group = GroupMember  # torch.distributed.group.WORLD


class Work:
    """Handle returned by `async_op=True`. Collectives here complete before they return, so the handle
    is already complete: `wait()` returns True at once."""

    def __init__(self, result: Optional[List[Any]] = None) -> None:
        self._result = result or []

    def wait(self, timeout: Optional[datetime.timedelta] = None) -> bool:
        return True

    def is_completed(self) -> bool:
        return True

    def is_success(self) -> bool:
        return True

    def exception(self) -> None:
        return None

    def result(self) -> List[Any]:
        return self._result

    def synchronize(self) -> None:
        return None


class _State:
    def __init__(self) -> None:
        self.initialized = False
        self.destroyed = False
        self.rank = -1
        self.world_size = -1
        self.backend = ""
        self.scheduler: Optional[subprocess.Popen] = None
        self.group_count = 0
        self.p2p_groups: Dict[tuple, str] = {}
        self.inbox: Dict[int, Deque[np.ndarray]] = collections.defaultdict(collections.deque)


_state = _State()


# ------------------------------------------------------------------------------------------------ set-up
def _device_target() -> str:
    from mindtorch.torch import _ms

    return _ms.device_target()


def is_available() -> bool:
    """MindSpore's communication layer is importable."""
    try:
        import mindspore.communication  # noqa: F401
    except ImportError:  # pragma: no cover
        return False
    return True


def is_mpi_available() -> bool:
    return False


def is_nccl_available() -> bool:
    return _device_target() == "GPU"


def is_hccl_available() -> bool:
    return _device_target() == "Ascend"


def is_gloo_available() -> bool:
    """gloo is accepted and runs on MindSpore's CPU backend (MCCL)."""
    return True


def is_torchelastic_launched() -> bool:
    return os.environ.get("TORCHELASTIC_RUN_ID") is not None


def _ms_inited() -> bool:
    from mindspore.communication import GlobalComm

    return bool(GlobalComm.INITED)


def is_initialized() -> bool:
    """Whether the default process group exists (also true after a direct `mindspore.communication.init()`,
    the manual's style)."""
    if _state.destroyed:
        return False
    if not _state.initialized and _ms_inited():
        _adopt_ms_init()
    return _state.initialized


def _adopt_ms_init(backend: Optional[str] = None) -> None:
    from mindspore.communication import GlobalComm, get_group_size, get_rank

    _state.rank = int(get_rank())
    _state.world_size = int(get_group_size())
    _state.backend = backend or str(GlobalComm.BACKEND).lower()
    GroupMember.WORLD = ProcessGroup(range(_state.world_size), str(GlobalComm.WORLD_COMM_GROUP), _state.backend)
    _state.initialized = True


def _env(name: str, method: str) -> str:
    value = os.environ.get(name)
    if value is None:
        raise ValueError(f"Error initializing torch.distributed using {method} rendezvous: environment variable "
                         f"{name} expected, but not set")
    return value


def _rendezvous(init_method: Optional[str], rank: int, world_size: int) -> tuple:
    """(master_addr, master_port, rank, world_size) from torch's init_method."""
    if init_method is None or init_method.startswith("env://"):
        if "RANK" not in os.environ and "OMPI_COMM_WORLD_RANK" in os.environ:
            # Started by OpenMPI's mpirun (the manual's launcher): rank and size come from it. On one node
            # the scheduler defaults to 127.0.0.1:29500 (torch's default port); set MASTER_ADDR/MASTER_PORT
            # (mpirun -x) to change them, and always across nodes.
            single_node = os.environ.get("OMPI_COMM_WORLD_LOCAL_SIZE") == os.environ.get("OMPI_COMM_WORLD_SIZE")
            addr = os.environ.get("MASTER_ADDR", "127.0.0.1" if single_node else None) or _env("MASTER_ADDR",
                                                                                              "env://")
            port = int(os.environ.get("MASTER_PORT", "29500"))
            rank = int(os.environ["OMPI_COMM_WORLD_RANK"]) if rank < 0 else rank
            world_size = int(os.environ["OMPI_COMM_WORLD_SIZE"]) if world_size < 0 else world_size
            return addr, port, rank, world_size
        addr = _env("MASTER_ADDR", "env://")
        port = int(_env("MASTER_PORT", "env://"))
        rank = int(_env("RANK", "env://")) if rank < 0 else rank
        world_size = int(_env("WORLD_SIZE", "env://")) if world_size < 0 else world_size
        return addr, port, rank, world_size
    if init_method.startswith("tcp://"):
        url = urlparse(init_method)
        if url.hostname is None or url.port is None:
            raise ValueError(f"tcp:// init_method needs host and port: {init_method}")
        if rank < 0 or world_size < 0:
            raise ValueError("rank and world_size must be given with a tcp:// init_method")
        return url.hostname, url.port, rank, world_size
    raise NotImplementedError(
        f"init_process_group(init_method={init_method!r}): only env:// and tcp:// rendezvous are supported on "
        "MindSpore (its cluster forms through a TCP scheduler); use env:// (MASTER_ADDR/MASTER_PORT) or tcp://")


def _start_scheduler(env: Dict[str, str]) -> subprocess.Popen:
    """MindSpore's scheduler ("meta server") for the cluster: a process whose `init()` with
    MS_ROLE=MS_SCHED serves the workers' registration and exits when they have all finished."""
    env = dict(env, MS_ROLE="MS_SCHED")
    env.pop("MS_NODE_ID", None)
    log = os.environ.get("MINDTORCH_SCHEDULER_LOG")
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 - kept for the child's lifetime
    return subprocess.Popen([sys.executable, "-c", "from mindspore.communication import init; init()"],
                            env=env, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)


def _die_with_parent() -> None:
    """In the scheduler child: get SIGKILL when rank 0 dies, however it dies (Linux prctl), so no scheduler
    outlives its job. It also stays in rank 0's process group, so killing that group ends it."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:  # pragma: no cover - not Linux/glibc: rely on the process group and atexit
        pass


def _stop_scheduler() -> None:
    proc = _state.scheduler
    if proc is None:
        return
    _state.scheduler = None
    if _state.initialized:
        # This handler runs before MindSpore's own exit hooks finalise this worker, and the scheduler only
        # exits once every worker has: finalise now so that it can.
        try:
            from mindspore.communication import release

            release()
        except Exception:  # noqa: BLE001 - best effort at exit; the scheduler is killed below anyway
            pass
    try:
        proc.wait(timeout=5)  # it exits by itself once every worker has finalised
    except subprocess.TimeoutExpired:
        try:
            proc.kill()
        except ProcessLookupError:
            pass
        proc.wait()


def _wait_for_scheduler(host: str, port: int, seconds: float) -> None:
    """Block until MindSpore's scheduler accepts connections (at most `seconds`).

    Why: a worker whose first attempts to reach the scheduler fail (it is still importing MindSpore, ~10 s on
    a loaded machine) falls into MindSpore's reconnect back-off and can finish forming the cluster a minute
    after its peers, which by then have given up waiting for its MCCL address (measured: "Failed to fetch the
    address of the rank MCCL_COLLECTIVE_RANK_MS_WORKER_1"). Connecting only once the scheduler listens avoids
    that back-off. Formation errors are still reported by MindSpore's own init."""
    if not port or "MS_ROLE" in os.environ and os.environ["MS_ROLE"] != "MS_WORKER":
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1.0):
                return
        except OSError:
            time.sleep(0.2)


def _kill_scheduler() -> None:
    if _state.scheduler is not None and _state.scheduler.poll() is None:
        _state.scheduler.kill()


# MindSpore 2.10's graph compiler refuses these modes on CPU (step_parallel_utils.cc GetCommInfo): "Invalid
# communication backend: CPU for semi_auto_parallel/auto_parallel mode, currently only support Ascend/GPU backend."
_GRAPH_PARALLEL_MODES = ("auto_parallel", "semi_auto_parallel")


def _check_parallel_mode() -> None:
    """Fail at init, not at the first jitted step, when the parallel mode cannot run on this target."""
    mode = ms.get_auto_parallel_context("parallel_mode")
    if mode in _GRAPH_PARALLEL_MODES and _device_target() == "CPU":
        raise NotImplementedError(
            f"parallel_mode={mode!r} (mindspore.set_auto_parallel_context) needs Ascend or GPU: MindSpore's graph "
            "compiler rejects it on CPU ('Invalid communication backend: CPU for semi_auto_parallel/auto_parallel "
            "mode'). On CPU use data parallelism: DistributedDataParallel, or ParallelMode.DATA_PARALLEL with "
            "nn.DistributedGradReducer (also inside mindspore.jit).")


def init_process_group(backend: Optional[str] = None, init_method: Optional[str] = None,
                       timeout: datetime.timedelta = default_pg_timeout, world_size: int = -1, rank: int = -1,
                       store: Any = None, group_name: str = "", pg_options: Any = None) -> None:
    """Join the default process group.

    Launched by `mindtorch.distributed.run` or msrun (MS_ROLE already set), this only initialises
    MindSpore's communication. Launched torchrun-style (MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE), or with
    tcp://, it sets MindSpore's dynamic-cluster variables from them; rank 0 starts the scheduler on
    MASTER_ADDR:MASTER_PORT. `timeout` bounds cluster formation (MS_TOPO_TIMEOUT) and every collective.

    Parallel modes: data parallelism (DDP, or DATA_PARALLEL + DistributedGradReducer) runs on every target;
    MindSpore's AUTO_PARALLEL / SEMI_AUTO_PARALLEL run on Ascend and GPU only: on CPU, when one is already set,
    this raises NotImplementedError (set after init, MindSpore raises RuntimeError at the first jit compile).
    """
    if _state.initialized:
        raise RuntimeError("trying to initialize the default process group twice!")
    _check_parallel_mode()
    if _ms_inited() and not _state.destroyed:
        # The script already ran `mindspore.communication.init()` (the manual's style): join that group.
        _adopt_ms_init(str(Backend(backend)) if backend is not None else None)
        return
    if _state.destroyed:
        raise RuntimeError("MindSpore cannot re-initialise its communication layer in a process after "
                           "destroy_process_group(); start a new process instead")
    if store is not None:
        raise NotImplementedError("init_process_group(store=...): torch Stores are not available on MindSpore; "
                                  "use init_method='env://' or 'tcp://host:port'")
    target = _device_target()
    ms_backend = _MS_BACKEND_OF_TARGET.get(target, "mccl")
    user_backend = str(Backend(backend)) if backend is not None else ms_backend
    seconds = timeout.total_seconds() if isinstance(timeout, datetime.timedelta) else float(timeout)
    _watchdog.set_timeout(seconds)
    _watchdog.use_group_timeout(None)

    if "MS_ROLE" not in os.environ:
        addr, port, rank, world_size = _rendezvous(init_method, rank, world_size)
        if not 0 <= rank < world_size:
            raise ValueError(f"Invalid rank {rank} for world_size {world_size}")
        env = {"MS_SCHED_HOST": addr, "MS_SCHED_PORT": str(port), "MS_WORKER_NUM": str(world_size),
               "MS_TOPO_TIMEOUT": str(max(1, int(seconds)))}
        os.environ.update(env)
        if rank == 0:
            _state.scheduler = _start_scheduler(dict(os.environ))
            atexit.register(_stop_scheduler)
            _watchdog.on_abort(_kill_scheduler)
        os.environ["MS_ROLE"] = "MS_WORKER"
        os.environ["MS_NODE_ID"] = str(rank)
    else:
        os.environ.setdefault("MS_TOPO_TIMEOUT", str(max(1, int(seconds))))

    from mindspore.communication import init

    _wait_for_scheduler(os.environ.get("MS_SCHED_HOST", "127.0.0.1"), int(os.environ.get("MS_SCHED_PORT", "0")),
                        seconds)
    with _watchdog.watch("init_process_group", f"init_process_group: the {os.environ.get('MS_WORKER_NUM')} "
                         f"ranks did not all join within the timeout of {seconds:.0f} s (scheduler "
                         f"{os.environ.get('MS_SCHED_HOST')}:{os.environ.get('MS_SCHED_PORT')})"):
        try:
            init()
        except Exception as e:
            _kill_scheduler()
            raise RuntimeError(f"init_process_group failed: MindSpore could not form the {ms_backend} cluster "
                               f"(backend {user_backend!r}, device target {target}): {e}") from e
    _adopt_ms_init(user_backend)
    if rank >= 0 and _state.rank != rank:
        raise RuntimeError(f"MindSpore assigned rank {_state.rank} to the process launched as rank {rank}")


def destroy_process_group(group: Optional[ProcessGroup] = None) -> None:
    """Destroy a group; with no argument, the default group (MindSpore's communication is released)."""
    if group is None or group is GroupMember.WORLD:
        if not is_initialized():
            raise RuntimeError("Default process group has not been initialized, please make sure to call "
                               "init_process_group.")
        from mindspore.communication import destroy_group, release

        for name in list(_state.p2p_groups.values()):
            destroy_group(name)
        _state.p2p_groups.clear()
        release()
        _state.initialized = False
        _state.destroyed = True
        GroupMember.WORLD = None
        return
    if group is GroupMember.NON_GROUP_MEMBER:
        return
    if group.ms_group is not None and group.ms_group != GroupMember.WORLD.ms_group:
        from mindspore.communication import destroy_group

        destroy_group(group.ms_group)
        group.ms_group = None


# ------------------------------------------------------------------------------------------------ groups
def _world() -> ProcessGroup:
    if not is_initialized():
        raise RuntimeError("Default process group has not been initialized, please make sure to call "
                           "init_process_group.")
    return GroupMember.WORLD


def _group(g: Any) -> Optional[ProcessGroup]:
    """The ProcessGroup to run on, or None when this rank is not a member (torch then returns at once)."""
    world = _world()
    if g is None or g is GroupMember.WORLD:
        g = world
    if g is GroupMember.NON_GROUP_MEMBER:
        return None
    if not isinstance(g, ProcessGroup):
        raise RuntimeError(f"Invalid process group {g!r}")
    _watchdog.use_group_timeout(g.timeout)  # the collective about to run is bounded by its group's timeout
    return g


def get_rank(group: Optional[ProcessGroup] = None) -> int:
    """This process's rank in `group` (-1 if it is not a member)."""
    g = _group(group)
    return -1 if g is None else g.rank()


def get_world_size(group: Optional[ProcessGroup] = None) -> int:
    g = _group(group)
    return -1 if g is None else g.size()


def get_backend(group: Optional[ProcessGroup] = None) -> str:
    g = _group(group)
    if g is None:
        raise RuntimeError("Invalid process group specified")
    return g.name()


def new_group(ranks: Optional[Sequence[int]] = None, timeout: Optional[datetime.timedelta] = None,
              backend: Optional[str] = None, pg_options: Any = None) -> Any:
    """A group of `ranks` (global ranks). Like torch, every rank must call it, members or not."""
    world = _world()
    _state.group_count += 1
    if ranks is None:
        ranks = world.ranks
    ranks = sorted(int(r) for r in ranks)
    for r in ranks:
        if not 0 <= r < world.size():
            raise RuntimeError(f"The new group's rank should be within the world_size set by init_process_group, "
                               f"got {r}")
    name = str(Backend(backend)) if backend is not None else world.name()
    seconds = timeout.total_seconds() if timeout is not None else None
    if _state.rank not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    if ranks == world.ranks:
        return ProcessGroup(ranks, world.ms_group, name, seconds)
    if len(ranks) == 1:
        return ProcessGroup(ranks, None, name, seconds)  # a group of one needs no communication
    from mindspore.communication import create_group

    ms_name = f"mindtorch_group_{_state.group_count}"
    create_group(ms_name, ranks)
    return ProcessGroup(ranks, ms_name, name, seconds)


def _group_rank(g: ProcessGroup, global_rank: int) -> int:
    if global_rank not in g.ranks:
        raise RuntimeError(f"The global rank {global_rank} is not part of the group {g}")
    return g.ranks.index(global_rank)


# ------------------------------------------------------------------------------------------------ helpers
def _check_tensor(t: Any, name: str) -> None:
    if not isinstance(t, ms.Tensor):
        raise RuntimeError(f"Invalid function argument. Expected parameter `{name}` to be of type torch.Tensor.")


def _check_tensor_list(ts: Any, name: str) -> None:
    if not isinstance(ts, (list, tuple)) or not all(isinstance(t, ms.Tensor) for t in ts):
        raise RuntimeError(f"Invalid function argument. Expected parameter `{name}` to be of type "
                           "List[torch.Tensor].")


def _write(dst: Any, arr: np.ndarray) -> None:
    """In place, as torch does: through core's write_back (works on views), outside autograd."""
    _write_tensor(dst, tr.from_numpy(np.asarray(arr).reshape(tuple(dst.shape)), dst))


def _write_tensor(dst: Any, value: Any) -> None:
    from mindtorch.torch import _ms
    from mindtorch.torch._ops._registry import write_back

    was = _ms.enable_grad_state()
    _ms.set_enable_grad(False)  # collectives are not recorded by autograd (torch's c10d ops neither)
    try:
        write_back(dst, value)
    finally:
        _ms.set_enable_grad(was)


def _done(async_op: bool, tensors: Sequence[Any] = ()) -> Optional[Work]:
    return Work(list(tensors)) if async_op else None


def _gather_np(t: Any, g: ProcessGroup, name: str) -> np.ndarray:
    return tr.allgather_array(tr.to_numpy(t), g.ms_group, g.size(), name)


# ------------------------------------------------------------------------------------------------ collectives
def all_reduce(tensor: Any, op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
               async_op: bool = False) -> Optional[Work]:
    """Reduce `tensor` across the group; every rank gets the result in place."""
    _check_tensor(tensor, "tensor")
    name = _op_name(op)
    g = _group(group)
    if g is None:
        return None
    if g.size() > 1:
        if name in ("sum", "avg") and tr.can_sum_natively(tensor.dtype):
            from mindspore import ops

            # AllReduce reads the tensor's memory as dense: give it a dense copy of a strided view.
            dense = ms.Tensor.is_contiguous(tensor) and tensor.ndim
            src = tensor if dense else ms.Tensor(tr.to_numpy(tensor).reshape(-1))
            out = tr.allreduce_sum_native(src, g.ms_group)
            if name == "avg":
                out = out / g.size()
            _write_tensor(tensor, ops.reshape(out, tuple(tensor.shape)))
        else:
            _write(tensor, tr.reduce_arrays(_gather_np(tensor, g, "all_reduce"), name))
    return _done(async_op, [tensor])


def broadcast(tensor: Any, src: int, group: Optional[ProcessGroup] = None, async_op: bool = False) -> Optional[Work]:
    """Copy rank `src`'s tensor into `tensor` on every rank of the group."""
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return None
    root = _group_rank(g, src)
    out = tr.broadcast_array(tr.to_numpy(tensor), root, g.ms_group, g.size(), g.ms_group == _world().ms_group)
    if _state.rank != src:
        _write(tensor, out)
    return _done(async_op, [tensor])


def all_gather(tensor_list: List[Any], tensor: Any, group: Optional[ProcessGroup] = None,
               async_op: bool = False) -> Optional[Work]:
    """tensor_list[i] <- rank i's `tensor` (group ranks)."""
    _check_tensor_list(tensor_list, "tensor_list")
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return None
    if len(tensor_list) != g.size():
        raise RuntimeError(f"all_gather: tensor_list has {len(tensor_list)} tensors, the group has {g.size()} ranks")
    stack = _gather_np(tensor, g, "all_gather")
    for dst, row in zip(tensor_list, stack):
        _write(dst, row)
    return _done(async_op, tensor_list)


def all_gather_into_tensor(output_tensor: Any, input_tensor: Any, group: Optional[ProcessGroup] = None,
                           async_op: bool = False) -> Optional[Work]:
    """output_tensor <- the ranks' inputs concatenated along dim 0 (or stacked, if output has that shape)."""
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    g = _group(group)
    if g is None:
        return None
    if int(np.prod(output_tensor.shape)) != g.size() * int(np.prod(input_tensor.shape)):
        raise RuntimeError("output tensor size must be equal to world_size times input tensor size")
    _write(output_tensor, _gather_np(input_tensor, g, "all_gather_into_tensor"))
    return _done(async_op, [output_tensor])


_all_gather_base = all_gather_into_tensor  # torch 1.12's name


def reduce(tensor: Any, dst: int, op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
           async_op: bool = False) -> Optional[Work]:
    """Reduce into rank `dst`'s tensor; the other ranks' tensors are left unchanged."""
    _check_tensor(tensor, "tensor")
    name = _op_name(op)
    g = _group(group)
    if g is None:
        return None
    _group_rank(g, dst)
    result = tr.reduce_arrays(_gather_np(tensor, g, "reduce"), name)
    if _state.rank == dst:
        _write(tensor, result)
    return _done(async_op, [tensor])


def _reduce_scatter_flat(flat: Any, chunk: int, name: str, g: ProcessGroup) -> np.ndarray:
    """Reduce a flat [size*chunk] array across the group and return this rank's chunk."""
    me = g.rank()
    if name in ("sum", "avg") and flat.dtype in (np.float32, np.float16):
        out = tr.allreduce_sum_native(ms.Tensor(flat), g.ms_group, "reduce_scatter")
        mine = ms.Tensor.asnumpy(out)[me * chunk:(me + 1) * chunk]
        return mine / g.size() if name == "avg" else mine
    stack = tr.allgather_array(flat, g.ms_group, g.size(), "reduce_scatter")
    return tr.reduce_arrays(stack[:, me * chunk:(me + 1) * chunk], name)


def reduce_scatter(output: Any, input_list: List[Any], op: Any = ReduceOp.SUM,
                   group: Optional[ProcessGroup] = None, async_op: bool = False) -> Optional[Work]:
    """output <- reduction over ranks of input_list[this rank]."""
    _check_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    name = _op_name(op)
    g = _group(group)
    if g is None:
        return None
    if len(input_list) != g.size():
        raise RuntimeError(f"reduce_scatter: input_list has {len(input_list)} tensors, the group has {g.size()} ranks")
    arrays = [tr.to_numpy(t) for t in input_list]
    if any(a.size != arrays[0].size for a in arrays):
        raise RuntimeError("reduce_scatter: every tensor of input_list must have the same number of elements")
    flat = tr.concat_flat(arrays).astype(arrays[0].dtype, copy=False)
    _write(output, _reduce_scatter_flat(flat, arrays[0].size, name, g))
    return _done(async_op, [output])


def reduce_scatter_tensor(output: Any, input: Any, op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
                          async_op: bool = False) -> Optional[Work]:
    """output <- reduction over ranks of this rank's chunk of `input` (dim 0 split in group-size chunks)."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    name = _op_name(op)
    g = _group(group)
    if g is None:
        return None
    flat = tr.to_numpy(input).reshape(-1)
    if flat.size != g.size() * int(np.prod(output.shape)):
        raise RuntimeError("input tensor must be the same size as output size times world size")
    _write(output, _reduce_scatter_flat(flat, flat.size // g.size(), name, g))
    return _done(async_op, [output])


_reduce_scatter_base = reduce_scatter_tensor  # torch 1.12's name


def gather(tensor: Any, gather_list: Optional[List[Any]] = None, dst: int = 0,
           group: Optional[ProcessGroup] = None, async_op: bool = False) -> Optional[Work]:
    """gather_list[i] <- rank i's tensor, on rank `dst` only."""
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return None
    _group_rank(g, dst)
    if _state.rank == dst:
        _check_tensor_list(gather_list, "gather_list")
        if len(gather_list) != g.size():
            raise RuntimeError(f"gather: gather_list has {len(gather_list)} tensors, the group has {g.size()} ranks")
    elif gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
    stack = _gather_np(tensor, g, "gather")
    if _state.rank == dst:
        for t, row in zip(gather_list, stack):
            _write(t, row)
    return _done(async_op, [tensor])


def scatter(tensor: Any, scatter_list: Optional[List[Any]] = None, src: int = 0,
            group: Optional[ProcessGroup] = None, async_op: bool = False) -> Optional[Work]:
    """tensor <- scatter_list[this rank] of rank `src`."""
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return None
    root = _group_rank(g, src)
    like = tr.to_numpy(tensor)
    if _state.rank == src:
        _check_tensor_list(scatter_list, "scatter_list")
        if len(scatter_list) != g.size():
            raise RuntimeError(f"scatter: scatter_list has {len(scatter_list)} tensors, the group has {g.size()} ranks")
        stack = np.stack([tr.to_numpy(t).astype(like.dtype, copy=False).reshape(like.shape) for t in scatter_list])
    else:
        if scatter_list:
            raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
        stack = np.zeros((g.size(),) + like.shape, like.dtype)
    out = tr.broadcast_array(stack, root, g.ms_group, g.size(), g.ms_group == _world().ms_group, "scatter")
    _write(tensor, out[g.rank()])
    return _done(async_op, [tensor])


def all_to_all(output_tensor_list: List[Any], input_tensor_list: List[Any], group: Optional[ProcessGroup] = None,
               async_op: bool = False) -> Optional[Work]:
    """output_tensor_list[j] <- rank j's input_tensor_list[this rank]."""
    _check_tensor_list(output_tensor_list, "output_tensor_list")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    g = _group(group)
    if g is None:
        return None
    if len(input_tensor_list) != g.size() or len(output_tensor_list) != g.size():
        raise RuntimeError("all_to_all: both tensor lists must have one tensor per rank of the group")
    blobs = tr.allgather_bytes(pickle.dumps([tr.to_numpy(t) for t in input_tensor_list]), g.ms_group, g.size(),
                               "all_to_all")
    me = g.rank()
    for dst, blob in zip(output_tensor_list, blobs):
        _write(dst, pickle.loads(blob)[me])
    return _done(async_op, output_tensor_list)


def all_to_all_single(output: Any, input: Any, output_split_sizes: Optional[List[int]] = None,
                      input_split_sizes: Optional[List[int]] = None, group: Optional[ProcessGroup] = None,
                      async_op: bool = False) -> Optional[Work]:
    """Split `input` along dim 0 (equally, or by input_split_sizes), send piece j to rank j, concatenate the
    pieces received into `output`."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    g = _group(group)
    if g is None:
        return None
    arr = tr.to_numpy(input)
    n = g.size()
    if input_split_sizes is None:
        if arr.shape[0] % n:
            raise RuntimeError("all_to_all_single: input dim 0 must be divisible by the group size")
        input_split_sizes = [arr.shape[0] // n] * n
    pieces = np.split(arr, np.cumsum(input_split_sizes)[:-1])
    blobs = tr.allgather_bytes(pickle.dumps(pieces), g.ms_group, n, "all_to_all_single")
    me = g.rank()
    _write(output, np.concatenate([pickle.loads(b)[me] for b in blobs]))
    return _done(async_op, [output])


def barrier(group: Optional[ProcessGroup] = None, async_op: bool = False,
            device_ids: Optional[List[int]] = None) -> Optional[Work]:
    """Block until every rank of the group reaches the barrier."""
    g = _group(group)
    if g is None:
        return None
    tr.allgather_array(np.zeros(1, np.int32), g.ms_group, g.size(), "barrier")
    return _done(async_op)


def monitored_barrier(group: Optional[ProcessGroup] = None, timeout: Optional[datetime.timedelta] = None,
                      wait_all_ranks: bool = False) -> None:
    """A barrier bounded by `timeout` (the process-group timeout when None)."""
    old = _watchdog.get_timeout()
    if timeout is not None:
        _watchdog.set_timeout(timeout.total_seconds())
    try:
        barrier(group)
    finally:
        _watchdog.set_timeout(old)


# ------------------------------------------------------------------------------------------------ point to point
def _p2p_group(peer: int) -> str:
    """The MindSpore group joining this rank and `peer` (the world group when there are only two ranks).
    MindSpore's CPU backend has no send/recv kernel (measured), so a transfer is an AllGather in it."""
    world = _world()
    if not 0 <= peer < world.size() or peer == _state.rank:
        raise RuntimeError(f"Invalid peer rank {peer} for point-to-point communication from rank {_state.rank}")
    if world.size() == 2:
        return world.ms_group
    key = tuple(sorted((_state.rank, peer)))
    name = _state.p2p_groups.get(key)
    if name is None:
        from mindspore.communication import create_group

        name = _state.p2p_groups[key] = f"mindtorch_p2p_{key[0]}_{key[1]}"
        create_group(name, list(key))
    return name


def _exchange(peer: int, payload: bytes, name: str) -> bytes:
    """Swap byte strings with `peer`. Both sides of a send/recv pair call it once; a message that arrives
    while this rank itself is sending (both ranks send first, as with isend/irecv) is kept in an inbox
    for the matching recv."""
    blobs = tr.allgather_bytes(payload, _p2p_group(peer), 2, name)
    return blobs[1] if _state.rank < peer else blobs[0]


def send(tensor: Any, dst: int, group: Optional[ProcessGroup] = None, tag: int = 0) -> None:
    """Send `tensor` to rank `dst` (which must call recv/irecv)."""
    _check_tensor(tensor, "tensor")
    if _group(group) is None:
        return None
    got = _exchange(dst, pickle.dumps(tr.to_numpy(tensor)), "send")
    if got:
        _state.inbox[dst].append(pickle.loads(got))
    return None


def recv(tensor: Any, src: Optional[int] = None, group: Optional[ProcessGroup] = None, tag: int = 0) -> int:
    """Receive into `tensor` from rank `src`; returns the sender's rank."""
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return -1
    if src is None:
        others = [r for r in _world().ranks if r != _state.rank]
        if len(others) != 1:
            raise NotImplementedError("recv(src=None) (receive from any rank) needs a wildcard receive that "
                                      "MindSpore's backends lack; pass src= explicitly")
        src = others[0]
    if _state.inbox[src]:
        arr = _state.inbox[src].popleft()
    else:
        got = _exchange(src, b"", "recv")
        if not got:
            raise RuntimeError(f"recv: rank {src} was receiving from rank {_state.rank} at the same time "
                               "(both ranks called recv first: a deadlock in torch)")
        arr = pickle.loads(got)
    if arr.size != int(np.prod(tensor.shape)):
        raise RuntimeError(f"recv: got {arr.size} elements from rank {src}, the tensor holds "
                           f"{int(np.prod(tensor.shape))}")
    _write(tensor, arr)
    return src


def isend(tensor: Any, dst: int, group: Optional[ProcessGroup] = None, tag: int = 0) -> Work:
    """send(); the transfer is complete when it returns."""
    send(tensor, dst, group, tag)
    return Work([tensor])


def irecv(tensor: Any, src: Optional[int] = None, group: Optional[ProcessGroup] = None, tag: int = 0) -> Work:
    """recv(); the transfer is complete when it returns."""
    recv(tensor, src, group, tag)
    return Work([tensor])


# ------------------------------------------------------------------------------------------------ objects
def _dumps(obj: Any) -> bytes:
    buf = io.BytesIO()
    pickle.Pickler(buf).dump(obj)
    return buf.getvalue()


def broadcast_object_list(object_list: List[Any], src: int = 0, group: Optional[ProcessGroup] = None,
                          device: Any = None) -> None:
    """object_list[:] <- rank src's objects (picklable), in place."""
    g = _group(group)
    if g is None:
        return None
    root = _group_rank(g, src)
    payload = _dumps(list(object_list)) if _state.rank == src else b""
    blobs = tr.allgather_bytes(payload, g.ms_group, g.size(), "broadcast_object_list")
    if _state.rank != src:
        objs = pickle.loads(blobs[root])
        object_list[:len(objs)] = objs
    return None


def all_gather_object(object_list: List[Any], obj: Any, group: Optional[ProcessGroup] = None) -> None:
    """object_list[i] <- rank i's `obj`."""
    g = _group(group)
    if g is None:
        return None
    if len(object_list) != g.size():
        raise RuntimeError(f"all_gather_object: object_list has {len(object_list)} slots, the group has "
                           f"{g.size()} ranks")
    for i, blob in enumerate(tr.allgather_bytes(_dumps(obj), g.ms_group, g.size(), "all_gather_object")):
        object_list[i] = pickle.loads(blob)
    return None


def gather_object(obj: Any, object_gather_list: Optional[List[Any]] = None, dst: int = 0,
                  group: Optional[ProcessGroup] = None) -> None:
    """object_gather_list[i] <- rank i's `obj`, on rank dst."""
    g = _group(group)
    if g is None:
        return None
    _group_rank(g, dst)
    blobs = tr.allgather_bytes(_dumps(obj), g.ms_group, g.size(), "gather_object")
    if _state.rank == dst:
        if object_gather_list is None or len(object_gather_list) != g.size():
            raise RuntimeError("gather_object: object_gather_list must have one slot per rank on the destination")
        for i, blob in enumerate(blobs):
            object_gather_list[i] = pickle.loads(blob)
    return None


def scatter_object_list(scatter_object_output_list: List[Any], scatter_object_input_list: Optional[List[Any]] = None,
                        src: int = 0, group: Optional[ProcessGroup] = None) -> None:
    """scatter_object_output_list[0] <- rank src's scatter_object_input_list[this rank]."""
    g = _group(group)
    if g is None:
        return None
    root = _group_rank(g, src)
    if not isinstance(scatter_object_output_list, list) or len(scatter_object_output_list) < 1:
        raise RuntimeError("Expected argument scatter_object_output_list to be a list of size at least 1.")
    payload = _dumps(list(scatter_object_input_list)) if _state.rank == src else b""
    blobs = tr.allgather_bytes(payload, g.ms_group, g.size(), "scatter_object_list")
    scatter_object_output_list[0] = pickle.loads(blobs[root])[g.rank()]
    return None

