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
import warnings
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
    "all_reduce_coalesced", "all_gather_coalesced", "P2POp", "batch_isend_irecv", "DebugLevel", "get_debug_level",
    "set_debug_level", "set_debug_level_from_env", "GradBucket",
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


class _EnumValue:
    """A member of one of c10d's enums, behaving as torch 1.12's pybind11 enum member: repr `<ReduceOp.SUM: 0>`,
    str `ReduceOp.SUM`, `int()`, `.name`/`.value`, hashable, equal only to itself (a pybind11 enum without
    arithmetic does not compare equal to ints)."""

    __slots__ = ("name", "value")
    _ENUM = ""  # the enum class's name in this module

    def __init__(self, name: str, value: int) -> None:
        self.name = name
        self.value = value

    def __repr__(self) -> str:
        return f"<{self._ENUM}.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"{self._ENUM}.{self.name}"

    def __int__(self) -> int:
        return self.value

    __index__ = __int__

    def __hash__(self) -> int:
        return self.value

    def __reduce__(self) -> tuple:
        return getattr, (globals()[self._ENUM], self.name)  # unpickles (and deep-copies) to the same member


class _ReduceOpValue(_EnumValue):
    __slots__ = ()
    _ENUM = "ReduceOp"


class _DebugLevelValue(_EnumValue):
    __slots__ = ()
    _ENUM = "DebugLevel"


class ReduceOp:
    """torch.distributed.ReduceOp (c10d's values; torch 2.13's RedOpType has the same). SUM/AVG on
    float32/float16 use MindSpore's AllReduce; the others (which MindSpore's CPU AllReduce refuses) reduce
    gathered values locally, with the same result. As in torch 1.12, the gloo backend refuses AVG."""

    SUM = _ReduceOpValue("SUM", 0)
    AVG = _ReduceOpValue("AVG", 1)
    PRODUCT = _ReduceOpValue("PRODUCT", 2)
    MIN = _ReduceOpValue("MIN", 3)
    MAX = _ReduceOpValue("MAX", 4)
    BAND = _ReduceOpValue("BAND", 5)
    BOR = _ReduceOpValue("BOR", 6)
    BXOR = _ReduceOpValue("BXOR", 7)
    __members__ = {m.name: m for m in (SUM, AVG, PRODUCT, MIN, MAX, BAND, BOR, BXOR)}


reduce_op = ReduceOp  # torch's deprecated alias


def _op_name(op: Any) -> str:
    if isinstance(op, _ReduceOpValue):
        return op.name.lower()
    raise RuntimeError(f"Invalid reduce op {op!r}: expected a member of torch.distributed.ReduceOp")


def _reduce_op_name(op: Any, g: "ProcessGroup", tensors: Sequence[Any]) -> str:
    """`op`'s name after torch's checks of the op against the backend and the dtypes. Every reduction calls it
    before communicating: a check failing on one rank after the transfer began would desynchronise the group."""
    name = _op_name(op)
    if name == "avg" and g.name() == Backend.GLOO:
        # torch 1.12's ProcessGroupGloo, for every dtype (2.x takes AVG on floating types, and refuses integer
        # ones with "result type Float can't be cast to the desired output type Long").
        raise RuntimeError("Cannot use ReduceOp.AVG with Gloo")
    for t in tensors:
        if name in ("band", "bor", "bxor") and (t.dtype.is_floating_point or t.dtype.is_complex):
            raise RuntimeError(f"Cannot use {op} with non-integral dtype")  # ProcessGroupGloo's text
        if name == "avg" and t.dtype == ms.bool_:
            raise RuntimeError("Cannot use ReduceOp.AVG with boolean inputs")  # ProcessGroupNCCL's text
    return name


def _check_complex_op(op: Any, tensors: Sequence[Any], fn: str) -> None:
    """torch's all_reduce sums complex tensors as pairs of reals; ordering and bitwise ops have no meaning there."""
    if _op_name(op) not in ("sum", "avg") and any(t.dtype.is_complex for t in tensors):
        raise RuntimeError(f"{fn} does not support {op} on complex tensors")


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

    def get_future(self) -> Any:
        """A completed Future whose value is the list of the collective's output tensors (torch's)."""
        return _completed_future(self._result)


def _completed_future(value: Any) -> Any:
    """A completed torch.futures.Future of `value` (imported here: the launcher imports this package without
    mindtorch.torch)."""
    from mindtorch.torch.futures import Future

    return Future.completed(value)


class GradBucket:
    """torch.distributed.GradBucket: what DistributedDataParallel hands a communication hook. Here one bucket holds
    the gradients of every parameter of one dtype, flattened in parameter order into `buffer()`."""

    def __init__(self, index: int, buffer: Any, is_last: bool, parameters: List[Any]) -> None:
        self._index = index
        self._buffer = buffer
        self._is_last = is_last
        self._parameters = parameters

    def index(self) -> int:
        return self._index

    def buffer(self) -> Any:
        """The flat gradient tensor (1-d, the parameters' dtype)."""
        return self._buffer

    def set_buffer(self, buffer: Any) -> None:
        self._buffer = buffer

    def is_last(self) -> bool:
        """Whether this is the last bucket of the backward pass (torch: the bucket holding the first parameters)."""
        return self._is_last

    def parameters(self) -> List[Any]:
        return list(self._parameters)

    def gradients(self) -> List[Any]:
        """Each parameter's gradient as a view of `buffer()`, in the parameter's shape."""
        out, offset = [], 0
        for p in self._parameters:
            n = int(np.prod(tuple(p.shape)))
            out.append(self._buffer[offset:offset + n].view(tuple(p.shape)))
            offset += n
        return out


class DebugLevel:
    """torch.distributed.DebugLevel, set from TORCH_DISTRIBUTED_DEBUG. Recorded only: the collectives here
    already check shapes and dtypes before communicating, and log nothing more at INFO/DETAIL."""

    OFF = _DebugLevelValue("OFF", 0)
    INFO = _DebugLevelValue("INFO", 1)
    DETAIL = _DebugLevelValue("DETAIL", 2)
    __members__ = {m.name: m for m in (OFF, INFO, DETAIL)}


_debug_level: Optional[_DebugLevelValue] = None


def set_debug_level(level: _DebugLevelValue) -> None:
    global _debug_level
    if not isinstance(level, _DebugLevelValue):
        raise TypeError(f"set_debug_level(): expected a torch.distributed.DebugLevel, got {level!r}")
    _debug_level = level


def set_debug_level_from_env() -> None:
    """The level named by TORCH_DISTRIBUTED_DEBUG (case-insensitive; OFF when unset), as torch reads it."""
    value = os.environ.get("TORCH_DISTRIBUTED_DEBUG")
    level = DebugLevel.__members__.get(value.upper()) if value is not None else DebugLevel.OFF
    if level is None:
        raise ValueError("The value of TORCH_DISTRIBUTED_DEBUG must be OFF, INFO, or DETAIL.")
    set_debug_level(level)


def get_debug_level() -> _DebugLevelValue:
    """torch reads TORCH_DISTRIBUTED_DEBUG when torch.distributed is imported; here at the first call, so
    that a bad value fails this call and not the import of the launcher."""
    if _debug_level is None:
        set_debug_level_from_env()
    return _debug_level


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


def _check_same_dtype(*tensors: Any) -> None:
    """torch's _ensure_all_tensors_same_dtype (a complex dtype may mix with its element type). torch 2.x raises
    ValueError; torch 1.12 had no such check and its ProcessGroupGloo raised RuntimeError: that type is kept."""
    first = None
    for t in (t for ts in tensors for t in (ts if isinstance(ts, (list, tuple)) else [ts])):
        dtype = t.dtype
        if dtype.is_complex:  # (torch maps complex128 to itself, so only complex64 mixes with float32)
            dtype = ms.float32 if dtype == ms.complex64 else ms.complex128
        if first is None:
            first = dtype
        elif dtype != first:
            raise RuntimeError(f"Invalid usage of tensors with different dtypesFound {first} and  {t.dtype}")


def _shape_str(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(int(d)) for d in shape) + ")"  # c10d's format: (2, 3), (6), ()


def _check_sizes(g: ProcessGroup, fn: str, expected: Sequence[int], tensors: Sequence[Any]) -> None:
    """ProcessGroupGloo's assertSizesMatch: every tensor of the list has the shape `expected`."""
    for i, t in enumerate(tensors):
        if tuple(t.shape) != tuple(expected):
            raise RuntimeError(f"{_pg_class(g)}::{fn}: invalid tensor size at index {i} (expected "
                               f"{_shape_str(expected)}, got {_shape_str(t.shape)})")


def _pg_class(g: ProcessGroup) -> str:
    """The c10d class torch names in its messages for this backend."""
    return {"gloo": "ProcessGroupGloo", "nccl": "ProcessGroupNCCL", "mpi": "ProcessGroupMPI"}.get(
        g.name(), f"ProcessGroup{g.name().upper()}")


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
def _all_reduce_flat(flat: np.ndarray, name: str, g: ProcessGroup, fn: str) -> np.ndarray:
    """The group's reduction of a flat array (same size and dtype on every rank), in its dtype."""
    if name in ("sum", "avg") and flat.dtype in (np.float32, np.float16):
        out = ms.Tensor.asnumpy(tr.allreduce_sum_native(ms.Tensor(flat), g.ms_group, fn))
        return out / np.asarray(g.size(), out.dtype) if name == "avg" else out
    return tr.reduce_arrays(tr.allgather_array(flat, g.ms_group, g.size(), fn), name)


def all_reduce(tensor: Any, op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
               async_op: bool = False) -> Optional[Work]:
    """Reduce `tensor` across the group; every rank gets the result in place."""
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return None
    _check_complex_op(op, [tensor], "all_reduce")
    name = _reduce_op_name(op, g, [tensor])
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


def _deprecated_coalesced(fn: str) -> None:
    warnings.warn(f"torch.distributed.{fn} will be deprecated. If you must use it, please revisit our "
                  "documentation later at https://pytorch.org/docs/master/distributed.html#collective-functions")


def all_reduce_coalesced(tensors: List[Any], op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
                         async_op: bool = False) -> Optional[Any]:
    """all_reduce of several tensors (one dtype) in one transfer (torch 1.12, deprecated there).
    With async_op=True, returns a completed Future of the tensors, as torch does."""
    _deprecated_coalesced("all_reduce_coalesced")
    _check_tensor_list(tensors, "tensor")
    g = _group(group)
    if g is None:
        return None
    _check_same_dtype(tensors)
    _check_complex_op(op, tensors, "all_reduce")
    name = _reduce_op_name(op, g, tensors)
    if tensors and g.size() > 1:
        arrays = [tr.to_numpy(t) for t in tensors]
        out = _all_reduce_flat(tr.concat_flat(arrays).astype(arrays[0].dtype, copy=False), name, g,
                               "all_reduce_coalesced")
        offset = 0
        for t, a in zip(tensors, arrays):
            _write(t, out[offset:offset + a.size])
            offset += a.size
    return _completed_future(list(tensors)) if async_op else None


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
    _check_same_dtype(tensor_list, tensor)
    if len(tensor_list) != g.size():
        raise RuntimeError(f"{_pg_class(g)}::allgather: invalid output tensor list at index 0 (expected length "
                           f"{g.size()}, got {len(tensor_list)})")
    _check_sizes(g, "allgather", tensor.shape, tensor_list)
    stack = _gather_np(tensor, g, "all_gather")
    for dst, row in zip(tensor_list, stack):
        _write(dst, row)
    return _done(async_op, tensor_list)


def all_gather_coalesced(output_tensor_lists: List[List[Any]], input_tensor_list: List[Any],
                         group: Optional[ProcessGroup] = None, async_op: bool = False) -> Optional[Any]:
    """output_tensor_lists[i][j] <- rank i's input_tensor_list[j], in one transfer (torch 1.12, deprecated
    there). With async_op=True, returns a completed Future of the output lists, as torch does."""
    _deprecated_coalesced("all_gather_coalesced")
    g = _group(group)
    if g is None:
        return None
    _check_tensor_list(input_tensor_list, "tensor_list")
    if not isinstance(output_tensor_lists, list):
        raise RuntimeError("Invalid function argument: output_tensor_lists should be a list")
    for outputs in output_tensor_lists:
        _check_tensor_list(outputs, "output_tensor_lists")
    _check_same_dtype([t for ts in output_tensor_lists for t in ts], input_tensor_list)
    if len(output_tensor_lists) != g.size():
        raise RuntimeError(f"{_pg_class(g)}::allgather_coalesced: invalid output tensor list: expected "
                           f"{g.size()} lists, got {len(output_tensor_lists)}")
    for i, outputs in enumerate(output_tensor_lists):
        if len(outputs) != len(input_tensor_list):
            raise RuntimeError(f"{_pg_class(g)}::allgather_coalesced: invalid output tensor list at index {i} "
                               f"(expected length {len(input_tensor_list)}, got {len(outputs)})")
        for t, like in zip(outputs, input_tensor_list):
            _check_sizes(g, "allgather_coalesced", like.shape, [t])
    arrays = [tr.to_numpy(t) for t in input_tensor_list]
    if arrays:
        flat = tr.concat_flat(arrays).astype(arrays[0].dtype, copy=False)
        stack = tr.allgather_array(flat, g.ms_group, g.size(), "all_gather_coalesced")
        for row, outputs in zip(stack, output_tensor_lists):
            offset = 0
            for t, a in zip(outputs, arrays):
                _write(t, row[offset:offset + a.size])
                offset += a.size
    return _completed_future(output_tensor_lists) if async_op else None


def all_gather_into_tensor(output_tensor: Any, input_tensor: Any, group: Optional[ProcessGroup] = None,
                           async_op: bool = False) -> Optional[Work]:
    """output_tensor <- the ranks' inputs concatenated along dim 0, or stacked (torch's two accepted shapes)."""
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    g = _group(group)
    if g is None:
        return None
    _check_same_dtype(output_tensor, input_tensor)
    shape = tuple(input_tensor.shape)
    stacked = (g.size(),) + shape
    concatenated = (g.size() * shape[0],) + shape[1:] if shape else stacked
    if tuple(output_tensor.shape) not in (concatenated, stacked):
        raise RuntimeError(f"all_gather_into_tensor: the output tensor of shape {_shape_str(output_tensor.shape)} "
                           f"is neither the concatenation {_shape_str(concatenated)} nor the stack "
                           f"{_shape_str(stacked)} of {g.size()} inputs of shape {_shape_str(shape)}")
    _write(output_tensor, _gather_np(input_tensor, g, "all_gather_into_tensor"))
    return _done(async_op, [output_tensor])


_all_gather_base = all_gather_into_tensor  # torch 1.12's name


def reduce(tensor: Any, dst: int, op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
           async_op: bool = False) -> Optional[Work]:
    """Reduce into rank `dst`'s tensor; the other ranks' tensors are left unchanged."""
    _check_tensor(tensor, "tensor")
    g = _group(group)
    if g is None:
        return None
    name = _reduce_op_name(op, g, [tensor])
    _group_rank(g, dst)
    result = tr.reduce_arrays(_gather_np(tensor, g, "reduce"), name)
    if _state.rank == dst:
        _write(tensor, result)
    return _done(async_op, [tensor])


def _reduce_scatter_flat(flat: Any, chunk: int, name: str, g: ProcessGroup) -> np.ndarray:
    """Reduce a flat [size*chunk] array across the group and return this rank's chunk."""
    me = g.rank()
    return _all_reduce_flat(flat, name, g, "reduce_scatter")[me * chunk:(me + 1) * chunk]


def reduce_scatter(output: Any, input_list: List[Any], op: Any = ReduceOp.SUM,
                   group: Optional[ProcessGroup] = None, async_op: bool = False) -> Optional[Work]:
    """output <- reduction over ranks of input_list[this rank]."""
    _check_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    g = _group(group)
    if g is None:
        return None
    _check_same_dtype(output, input_list)
    name = _reduce_op_name(op, g, [output])
    if len(input_list) != g.size():
        raise RuntimeError(f"reduce_scatter: input_list has {len(input_list)} tensors, the group has {g.size()} ranks")
    size = int(np.prod(output.shape))
    if any(int(np.prod(t.shape)) != size for t in input_list):
        raise RuntimeError("All tensor operands to scatter/gather must have the same number of elements")
    arrays = [tr.to_numpy(t) for t in input_list]
    flat = tr.concat_flat(arrays).astype(arrays[0].dtype, copy=False)
    _write(output, _reduce_scatter_flat(flat, size, name, g))
    return _done(async_op, [output])


def reduce_scatter_tensor(output: Any, input: Any, op: Any = ReduceOp.SUM, group: Optional[ProcessGroup] = None,
                          async_op: bool = False) -> Optional[Work]:
    """output <- reduction over ranks of this rank's chunk of `input` (dim 0 split in group-size chunks)."""
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    g = _group(group)
    if g is None:
        return None
    _check_same_dtype(output, input)
    name = _reduce_op_name(op, g, [input])
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
        _check_same_dtype(tensor, gather_list)
        if len(gather_list) != g.size():
            raise RuntimeError(f"gather: gather_list has {len(gather_list)} tensors, the group has {g.size()} ranks")
        _check_sizes(g, "gather", tensor.shape, gather_list)
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
        _check_same_dtype(tensor, scatter_list)
        if len(scatter_list) != g.size():
            raise RuntimeError(f"scatter: scatter_list has {len(scatter_list)} tensors, the group has {g.size()} ranks")
        _check_sizes(g, "scatter", tensor.shape, scatter_list)
        stack = np.stack([tr.to_numpy(t) for t in scatter_list])
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
    _check_same_dtype(output_tensor_list, input_tensor_list)
    if len(input_tensor_list) != g.size() or len(output_tensor_list) != g.size():
        raise RuntimeError("all_to_all: both tensor lists must have one tensor per rank of the group")
    if g.name() == Backend.GLOO:
        # ProcessGroupGloo's alltoall takes one shape for every tensor (NCCL's pairs sends and receives of any size).
        _check_sizes(g, "alltoall", input_tensor_list[0].shape, input_tensor_list)
        _check_sizes(g, "alltoall", output_tensor_list[0].shape, output_tensor_list)
        if tuple(input_tensor_list[0].shape) != tuple(output_tensor_list[0].shape):
            raise RuntimeError(f"{_pg_class(g)}::alltoall: input and output tensors must have the same size")
    blobs = tr.allgather_bytes(pickle.dumps([tr.to_numpy(t) for t in input_tensor_list]), g.ms_group, g.size(),
                               "all_to_all")
    me = g.rank()
    pieces = [pickle.loads(blob)[me] for blob in blobs]
    for j, (dst, piece) in enumerate(zip(output_tensor_list, pieces)):
        if piece.size != int(np.prod(dst.shape)):
            raise RuntimeError(f"all_to_all: rank {g.ranks[j]} sent {piece.size} elements for output tensor {j}, "
                               f"which holds {int(np.prod(dst.shape))}")
    for dst, piece in zip(output_tensor_list, pieces):
        _write(dst, piece)
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
    _check_same_dtype(output, input)
    arr = tr.to_numpy(input)
    n = g.size()
    if input_split_sizes is None:
        if arr.shape[0] % n:
            raise RuntimeError("all_to_all_single: input dim 0 must be divisible by the group size")
        input_split_sizes = [arr.shape[0] // n] * n
    pieces = np.split(arr, np.cumsum(input_split_sizes)[:-1])
    blobs = tr.allgather_bytes(pickle.dumps(pieces), g.ms_group, n, "all_to_all_single")
    me = g.rank()
    got = np.concatenate([pickle.loads(b)[me] for b in blobs])
    if got.size != int(np.prod(output.shape)):
        raise RuntimeError(f"all_to_all_single: received {got.size} elements, the output tensor holds "
                           f"{int(np.prod(output.shape))}")
    _write(output, got)
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


class P2POp:
    """One point-to-point operation of a `batch_isend_irecv` batch: `op` is isend or irecv."""

    def __new__(cls, op: Any, tensor: Any, peer: int, group: Optional[ProcessGroup] = None, tag: int = 0) -> "P2POp":
        # torch 1.12's checks and types (2.x raises ValueError for a bad op)
        if op not in (isend, irecv):
            raise RuntimeError("Invalid ``op``. Expected ``op`` to be of type ``torch.distributed.isend`` or "
                               "``torch.distributed.irecv``.")
        _check_tensor(tensor, "tensor")
        return object.__new__(cls)

    def __init__(self, op: Any, tensor: Any, peer: int, group: Optional[ProcessGroup] = None, tag: int = 0) -> None:
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag


def batch_isend_irecv(p2p_op_list: List[P2POp]) -> List[Work]:
    """Run a batch of isend/irecv; returns their Works (already complete), in the list's order.

    As in torch, the order of sends and receives inside the batch does not matter. Here each transfer is a
    blocking exchange between two ranks, so the batch runs the operations peer by peer in increasing peer rank
    (one order on every rank, hence no cycle of ranks waiting on each other), each peer's sends before its
    receives (a receive whose message came with an earlier exchange finds it in the inbox)."""
    if not isinstance(p2p_op_list, list) or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise RuntimeError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                           "``torch.distributed.P2POp``.")
    backend = get_backend(p2p_op_list[0].group)
    if not all(get_backend(p.group) == backend for p in p2p_op_list):
        raise RuntimeError("All groups need to use the same backend.")
    order = sorted(range(len(p2p_op_list)),
                   key=lambda i: (p2p_op_list[i].peer, p2p_op_list[i].op is irecv, i))
    works: Dict[int, Work] = {}
    for i in order:
        p = p2p_op_list[i]
        works[i] = p.op(p.tensor, p.peer, p.group, p.tag)
    return [works[i] for i in range(len(p2p_op_list))]


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

