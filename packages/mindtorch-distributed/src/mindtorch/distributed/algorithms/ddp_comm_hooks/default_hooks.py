"""torch.distributed.algorithms.ddp_comm_hooks.default_hooks (torch 1.12's code, on mindtorch's collectives).

A hook gets (state, bucket) and returns a Future of the bucket's reduced flat gradient; `state` is the process
group (None: the default group). Collectives here complete before they return, so the futures are complete too.
"""
from __future__ import annotations

from typing import Any, Optional

from ... import distributed_c10d as dist


def _allreduce_fut(process_group: Optional[dist.ProcessGroup], tensor: Any) -> dist.Future:
    """Averages the input gradient tensor by allreduce and returns a future."""
    group_to_use = process_group if process_group is not None else dist.group.WORLD
    # Apply the division first to avoid overflow, especially for FP16.
    tensor.div_(group_to_use.size())
    return dist.all_reduce(tensor, group=group_to_use, async_op=True).get_future().then(lambda fut: fut.value()[0])


def allreduce_hook(process_group: Optional[dist.ProcessGroup], bucket: dist.GradBucket) -> dist.Future:
    """DDP's own reduction as a hook: the bucket's mean over the ranks."""
    return _allreduce_fut(process_group, bucket.buffer())


def _compress_hook(dtype: Any, process_group: Optional[dist.ProcessGroup], bucket: dist.GradBucket) -> dist.Future:
    group_to_use = process_group if process_group is not None else dist.group.WORLD
    compressed_tensor = bucket.buffer().to(dtype).div_(group_to_use.size())
    fut = dist.all_reduce(compressed_tensor, group=group_to_use, async_op=True).get_future()

    def decompress(fut: dist.Future) -> Any:
        decompressed_tensor = bucket.buffer()
        # Decompress in place to reduce the peak memory (torch's comment: pytorch/pytorch#45968).
        decompressed_tensor.copy_(fut.value()[0])
        return decompressed_tensor

    return fut.then(decompress)


def fp16_compress_hook(process_group: Optional[dist.ProcessGroup], bucket: dist.GradBucket) -> dist.Future:
    """Casts the bucket to float16, averages it over the ranks, and casts the result back."""
    from mindtorch.torch import float16

    return _compress_hook(float16, process_group, bucket)


def bf16_compress_hook(process_group: Optional[dist.ProcessGroup], bucket: dist.GradBucket) -> dist.Future:
    """Casts the bucket to bfloat16, averages it over the ranks, and casts the result back."""
    from mindtorch.torch import bfloat16

    return _compress_hook(bfloat16, process_group, bucket)
