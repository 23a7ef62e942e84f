"""`nn.DistributedGradReducer(optimizer.parameters)`: the manual's functional-style data parallelism.

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
    grad_reducer = nn.DistributedGradReducer(optimizer.parameters)
    (loss, _), grads = grad_fn(data, label)
    grads = grad_reducer(grads)       # averaged over ranks
    optimizer(grads)

MindSpore's own `mindspore.nn.DistributedGradReducer` does the work (AllReduce, fused, also inside
`ms.jit`); this subclass only gives torch-minded defaults.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import mindspore as ms


class DistributedGradReducer(ms.nn.DistributedGradReducer):
    """Average (mean=True) or sum (mean=False) a tuple of gradients over the ranks of `group`.

    Differences from MindSpore's class: `mean` defaults to True (MindSpore reads it from
    `set_auto_parallel_context(gradients_mean=...)`, default False, which would SUM the gradients of the
    ranks: not what a torch DDP user expects); `group` defaults to the world group of the backend in use
    (MindSpore's default argument is fixed to HCCL's name at import time).
    """

    def __init__(self, parameters: Sequence[Any], mean: Optional[bool] = True, degree: Optional[int] = None,
                 fusion_type: int = 1, group: Optional[str] = None) -> None:
        from mindspore.communication import GlobalComm

        if not GlobalComm.INITED:
            raise RuntimeError("DistributedGradReducer needs the communication layer: call "
                               "torch.distributed.init_process_group() (or mindspore.communication.init()) first")
        if mean is None:
            mean = bool(ms.get_auto_parallel_context("gradients_mean"))
        super().__init__(parameters, mean=mean, degree=degree, fusion_type=fusion_type,
                         group=group or GlobalComm.WORLD_COMM_GROUP)
