"""The two collectives everything else is built from: AllReduce(SUM) and AllGather, on MindSpore's ops.

Why only these two: on CPU (MCCL, MindSpore 2.10, measured) AllReduce supports only SUM and only
float16/float32, ReduceScatter, Reduce, AllToAll, AllGatherIntoTensor and send/recv have no kernel, and
a collective that fails on one rank leaves the ring out of step for every later call. AllGather and
Broadcast accept float16/32/64 and int32/64, but float64 goes through float32 (measured: 1e8+1 arrives as
1e8, 0.1 as 0.10000000149) and int64 through int32 (2**62+1 arrives as 1). So tensors travel either natively
(float16/32, int32: exact) or as their raw bytes viewed as int32, which is exact for every dtype; reductions
other than a float SUM are computed locally from the gathered values. On GPU/Ascend the same ops exist, so
one path serves all.

Each call blocks until the result is on the host (`asnumpy`), which also surfaces MindSpore's async
errors at the collective that caused them. A watchdog (see `_watchdog.py`) bounds how long one call may
block.
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import mindspore as ms
import numpy as np
from mindspore import ops

from ._watchdog import watch

# dtypes MindSpore's CPU AllGather / Broadcast carry exactly (measured). float64 and int64 are accepted too,
# but narrowed to float32 / int32 on the way, so they travel as raw bytes.
_NATIVE_GATHER = (np.float16, np.float32, np.int32)
# dtypes CPU AllReduce(SUM) accepts (measured: float64 and all integer types are refused).
_NATIVE_SUM = (np.float16, np.float32)

_allgather_ops: Dict[str, Any] = {}
_allreduce_ops: Dict[str, Any] = {}
_broadcast_ops: Dict[Tuple[str, int], Any] = {}


def dense(arr: Any) -> np.ndarray:
    """`arr` as a C-contiguous array of the same shape (np.ascontiguousarray would turn 0-d into (1,))."""
    return np.asarray(arr, order="C")


def to_numpy(t: Any) -> np.ndarray:
    """Host copy of a MindSpore/mindtorch tensor (bfloat16, which numpy lacks, is widened to float32)."""
    if t.dtype == ms.bfloat16:
        t = ops.cast(t, ms.float32)
    return dense(ms.Tensor.asnumpy(t))


def from_numpy(arr: np.ndarray, like: Any) -> ms.Tensor:
    """A MindSpore tensor holding `arr` (its shape, 0-d included) with the dtype of `like`."""
    out = ms.Tensor(dense(arr))
    if out.dtype != like.dtype:
        out = ops.cast(out, like.dtype)
    return out


def _allgather_op(group: str) -> Any:
    op = _allgather_ops.get(group)
    if op is None:
        op = _allgather_ops[group] = ops.AllGather(group=group)
    return op


def _allreduce_op(group: str) -> Any:
    op = _allreduce_ops.get(group)
    if op is None:
        op = _allreduce_ops[group] = ops.AllReduce(ops.ReduceOp.SUM, group=group)
    return op


def allgather_array(arr: np.ndarray, group: str, world: int, name: str = "all_gather") -> np.ndarray:
    """Gather `arr` (same shape and dtype on every rank) -> array [world, *arr.shape]."""
    arr = dense(arr)
    if world == 1:
        return arr[None].copy()
    if arr.dtype.type in _NATIVE_GATHER and arr.ndim:
        with watch(name):
            out = ms.Tensor.asnumpy(_allgather_op(group)(ms.Tensor(arr)))
        return out.reshape((world,) + arr.shape)
    # Everything else travels as raw bytes: exact, and AllGather's int32 kernel exists everywhere.
    raw = arr.reshape(-1).view(np.uint8)
    pad = (-raw.size) % 4
    words = np.concatenate([raw, np.zeros(pad + (4 if raw.size + pad == 0 else 0), np.uint8)]).view(np.int32)
    with watch(name):
        got = ms.Tensor.asnumpy(_allgather_op(group)(ms.Tensor(words)))
    got = got.reshape(world, -1).view(np.uint8)[:, :raw.size]
    return dense(got).view(arr.dtype).reshape((world,) + arr.shape)


def allreduce_sum_native(t: Any, group: str, name: str = "all_reduce") -> ms.Tensor:
    """MindSpore's AllReduce(SUM) on a float16/float32 tensor; returns the summed tensor."""
    with watch(name):
        out = _allreduce_op(group)(t)
        ms.Tensor.asnumpy(out)  # block here, so a failure is reported by this call
    return out


def can_sum_natively(dtype: Any) -> bool:
    return dtype in (ms.float32, ms.float16)


def broadcast_array(arr: np.ndarray, src_group_rank: int, group: str, world: int, is_world: bool,
                    name: str = "broadcast") -> np.ndarray:
    """Every rank passes an array of the same shape/dtype; all get the one of group rank `src_group_rank`."""
    if world == 1:
        return arr
    if is_world and arr.dtype.type in _NATIVE_GATHER and arr.ndim:
        key = (group, src_group_rank)
        op = _broadcast_ops.get(key)
        if op is None:
            op = _broadcast_ops[key] = ops.Broadcast(src_group_rank, group=group)
        with watch(name):
            return ms.Tensor.asnumpy(op((ms.Tensor(dense(arr)),))[0])
    # Sub-groups (root numbering differs between backends) and other dtypes: gather, keep the root's.
    return allgather_array(arr, group, world, name)[src_group_rank]


def allgather_bytes(payload: bytes, group: str, world: int, name: str = "all_gather_object") -> List[bytes]:
    """Gather one byte string of any length from every rank (sizes exchanged first)."""
    sizes = allgather_array(np.array([len(payload)], np.int64), group, world, name)[:, 0]
    longest = int(sizes.max()) if world else 0
    buf = np.zeros(max(longest, 1), np.uint8)
    buf[:len(payload)] = np.frombuffer(payload, np.uint8)
    got = allgather_array(buf, group, world, name)
    return [got[i, :int(sizes[i])].tobytes() for i in range(world)]


def reduce_arrays(stack: np.ndarray, op: str) -> np.ndarray:
    """Reduce [world, ...] along axis 0 with torch's ReduceOp semantics, keeping the dtype."""
    dtype = stack.dtype
    if op == "sum":
        out = np.logical_or.reduce(stack, 0) if dtype == np.bool_ else stack.sum(0, dtype=dtype)
    elif op == "avg":
        out = stack.sum(0, dtype=dtype) / stack.shape[0]
    elif op == "product":
        out = np.logical_and.reduce(stack, 0) if dtype == np.bool_ else stack.prod(0, dtype=dtype)
    elif op == "max":
        out = stack.max(0)
    elif op == "min":
        out = stack.min(0)
    elif op == "band":
        out = np.bitwise_and.reduce(stack, 0)
    elif op == "bor":
        out = np.bitwise_or.reduce(stack, 0)
    elif op == "bxor":
        out = np.bitwise_xor.reduce(stack, 0)
    else:  # pragma: no cover - ReduceOp validates first
        raise ValueError(f"unknown reduce op {op}")
    return np.asarray(out).astype(dtype, copy=False)


def concat_flat(arrays: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate([dense(a).reshape(-1) for a in arrays]) if arrays else np.zeros(0)
