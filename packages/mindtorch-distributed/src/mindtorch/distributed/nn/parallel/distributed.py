"""torch.nn.parallel.DistributedDataParallel on MindSpore's tape.

DDP is an `nn.Module` (so a `mindspore.nn.Cell`) whose one submodule is the wrapped model, `module`: its
state_dict keys are torch's (`module.` + the model's keys), and parameters(), train()/eval(), to() reach the
model. Construction broadcasts rank 0's parameters and buffers. Each parameter gets a gradient hook; the first
hook that fires in a backward queues a callback at the end of that backward pass
(`_ms.queue_backward_final_callback`), which averages every parameter's `.grad` across the ranks with one
fused AllReduce per dtype. So after `loss.backward()` returns, `.grad` holds the mean over ranks, as in
torch, whatever the optimizer does next. `no_sync()` skips that averaging (local accumulation); the next
synchronised backward averages the accumulated gradients, which is what torch's buckets do.
`register_comm_hook(state, hook)` replaces that averaging by the hook, called once per dtype bucket.
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import numpy as np

from mindtorch.torch.nn import Module

from ... import _transport as tr
from ... import distributed_c10d as c10d


class DistributedDataParallel(Module):
    """Data parallelism over the ranks of `process_group` (default: all ranks).

    `find_unused_parameters` is accepted for both values: a parameter that got no gradient on a rank takes
    part in the average with zeros, so unused parameters never stall the reduction. `broadcast_buffers=True`
    re-broadcasts rank 0's buffers (BatchNorm statistics) at every forward, as torch does. `device_ids`,
    `output_device`, `dim`, bucket and graph options are recorded; one process drives one device.
    """

    def __init__(self, module: Any, device_ids: Optional[Sequence[Any]] = None, output_device: Any = None,
                 dim: int = 0, broadcast_buffers: bool = True, process_group: Any = None, bucket_cap_mb: int = 25,
                 find_unused_parameters: bool = False, check_reduction: bool = False,
                 gradient_as_bucket_view: bool = False, static_graph: bool = False) -> None:
        super().__init__()
        self.module = module
        self.process_group = c10d._group(process_group)
        if self.process_group is None:
            raise RuntimeError("DistributedDataParallel: this rank is not a member of process_group")
        self.device_ids = list(device_ids) if device_ids is not None else None
        self.output_device = output_device
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.require_backward_grad_sync = True
        # (Cell owns the name `_params`: the registry dict.)
        self._ddp_params: List[Any] = [p for p in self.parameters() if bool(getattr(p, "requires_grad", True))]
        if not self._ddp_params:
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter "
                               "that requires a gradient.")
        self._armed = False
        self._queued = False
        self._comm_hook: Optional[tuple] = None
        self._sync_tensors(self._ddp_params + list(self.buffers()))
        self._hook_handles = [p.register_hook(self._grad_hook) for p in self._ddp_params]

    # -------------------------------------------------------------------------------------------- sync
    def _sync_tensors(self, tensors: Sequence[Any]) -> None:
        """Broadcast the tensors of the group's first rank, one flat transfer per dtype."""
        c10d._group(self.process_group)  # bound the transfers by the group's timeout
        src = self.process_group.ranks[0]
        by_dtype: Dict[Any, List[Any]] = {}
        for t in tensors:
            by_dtype.setdefault(t.dtype, []).append(t)
        for group in by_dtype.values():
            arrays = [tr.to_numpy(t) for t in group]
            flat = tr.concat_flat(arrays).astype(arrays[0].dtype, copy=False)
            out = tr.broadcast_array(flat, self.process_group.ranks.index(src), self.process_group.ms_group,
                                     self.process_group.size(), self.process_group.ms_group == c10d._world().ms_group,
                                     "DistributedDataParallel broadcast")
            if c10d.get_rank() != src:
                offset = 0
                for t, a in zip(group, arrays):
                    c10d._write(t, out[offset:offset + a.size])
                    offset += a.size

    def _grad_hook(self, grad: Any) -> Any:
        if self._armed and not self._queued:
            from mindtorch.torch import _ms

            _ms.queue_backward_final_callback(self._reduce_grads)
            self._queued = True
        return grad

    def _reduce_grads(self) -> None:
        """End of backward: .grad <- mean over ranks (parameters without a grad contribute zeros)."""
        self._queued = False
        self._armed = False
        n = self.process_group.size()
        if n == 1:
            return
        c10d._group(self.process_group)  # bound the all-reduce by the group's timeout
        by_dtype: Dict[Any, List[Any]] = {}
        for p in self._ddp_params:
            by_dtype.setdefault(p.dtype, []).append(p)
        for index, params in enumerate(by_dtype.values()):
            grads = [p.grad for p in params]
            arrays = [tr.to_numpy(g) if g is not None else np.zeros(tuple(p.shape), tr.to_numpy(p).dtype)
                      for p, g in zip(params, grads)]
            flat = tr.concat_flat(arrays).astype(arrays[0].dtype, copy=False)
            if self._comm_hook is not None:
                out = self._run_comm_hook(index, index == len(by_dtype) - 1, flat, params)
            else:
                out = (self._sum_flat(flat, params[0].dtype) / n).astype(flat.dtype, copy=False)
            offset = 0
            for p, g, a in zip(params, grads, arrays):
                piece = out[offset:offset + a.size].reshape(a.shape)
                offset += a.size
                if g is not None:
                    c10d._write(g, piece)
                elif piece.any():  # used on another rank only: torch gives this rank the averaged grad too
                    p.grad = tr.from_numpy(piece, p)

    def _sum_flat(self, flat: np.ndarray, dtype: Any) -> np.ndarray:
        """The sum over the ranks of a flat gradient array."""
        if tr.can_sum_natively(dtype):
            import mindspore as ms

            return ms.Tensor.asnumpy(tr.allreduce_sum_native(ms.Tensor(flat), self.process_group.ms_group,
                                                             "DistributedDataParallel all_reduce"))
        return tr.reduce_arrays(tr.allgather_array(flat, self.process_group.ms_group, self.process_group.size(),
                                                   "DistributedDataParallel all_reduce"), "sum")

    def _run_comm_hook(self, index: int, is_last: bool, flat: np.ndarray, params: List[Any]) -> np.ndarray:
        """The registered hook's reduction of one bucket (the flat gradients of `params`), as a flat array."""
        from mindtorch.torch import from_numpy

        buffer = from_numpy(flat.copy())
        if buffer.dtype != params[0].dtype:  # bfloat16 travels through numpy as float32
            buffer = buffer.to(params[0].dtype)
        state, hook = self._comm_hook
        result = hook(state, c10d.GradBucket(index, buffer, is_last, params)).wait()
        return tr.to_numpy(result).reshape(-1).astype(flat.dtype, copy=False)

    # -------------------------------------------------------------------------------------------- torch API
    def register_comm_hook(self, state: Any, hook: Callable[[Any, Any], Any]) -> None:
        """Reduce the gradients with `hook(state, bucket)` (a Future of the bucket's reduced flat gradient, e.g.
        torch.distributed.algorithms.ddp_comm_hooks.default_hooks.allreduce_hook) instead of DDP's averaging.
        What the Future holds is written into `.grad` as it is: the hook divides by the world size itself."""
        if not callable(hook):
            raise TypeError("Communication hook must be callable.")
        if self._comm_hook is not None:
            raise RuntimeError("register_comm_hook or register_builtin_comm_hook can only be called once.")
        self._comm_hook = (state, hook)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """`module(*inputs, **kwargs)`; arms the gradient averaging of the backward pass that follows."""
        # torch decides at forward time whether the coming backward synchronises.
        self._armed = self.require_backward_grad_sync
        self._queued = False
        if self.broadcast_buffers:
            buffers = list(self.buffers())
            if buffers:
                self._sync_tensors(buffers)
        return self.module(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Backward passes inside accumulate gradients locally, without averaging across ranks."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old
