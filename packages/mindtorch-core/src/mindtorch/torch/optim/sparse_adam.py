"""torch.optim.SparseAdam: lazy Adam, which updates a parameter's moments and values only at the rows its gradient
holds (an embedding's looked-up words), as torch 1.12's `F.sparse_adam`.

torch feeds it sparse gradients (`nn.Embedding(..., sparse=True)`). mindtorch's embedding gradients are dense (as
MindSpore's), so the rows a dense gradient holds are its rows with a non-zero entry; a sparse COO gradient
(`torch.sparse_coo_tensor`) gives its indices. The arithmetic is torch's, on those rows only.
"""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, Tuple

import mindspore as ms
import numpy as np

from .optimizer import _T, Optimizer, assign_

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam for sparse gradients: moments and parameters change only at the gradient's rows (dim 0)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: Tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        sparse = [i for i, p in enumerate(p for g in self.param_groups for p in g["params"])
                  if getattr(p, "is_sparse", False)]
        if sparse:
            raise ValueError(f"Sparse params at indices {sparse}: SparseAdam requires dense parameter tensors")

    def _update(self, p: Any, grad: Any, group: Dict[str, Any], state: Dict[str, Any]) -> None:
        if getattr(grad, "is_sparse", False):
            grad = grad.coalesce()
            rows = np.unique(ms.Tensor.asnumpy(grad._indices())[0])
            g = ms.Tensor.asnumpy(grad.to_dense())
        else:
            g = ms.Tensor.asnumpy(grad)
            rows = np.nonzero(g.reshape(g.shape[0], -1).any(axis=1))[0] if g.ndim else np.zeros(0, np.int64)
        w = ms.Tensor.asnumpy(p).copy()
        if not state:
            state.update(step=0, exp_avg=_T(ms.Tensor.from_numpy(np.zeros_like(w))),
                         exp_avg_sq=_T(ms.Tensor.from_numpy(np.zeros_like(w))))
        state["step"] += 1
        if g.ndim == 0 or rows.size == 0:
            return
        gr = -g[rows] if group["maximize"] else g[rows]
        beta1, beta2 = group["betas"]
        exp_avg, exp_avg_sq = ms.Tensor.asnumpy(state["exp_avg"]).copy(), ms.Tensor.asnumpy(state["exp_avg_sq"]).copy()
        exp_avg[rows] += (gr - exp_avg[rows]) * (1 - beta1)  # old <- b old + (1 - b) new, as torch writes it
        exp_avg_sq[rows] += (gr * gr - exp_avg_sq[rows]) * (1 - beta2)
        step = state["step"]
        step_size = group["lr"] * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
        w[rows] -= step_size * exp_avg[rows] / (np.sqrt(exp_avg_sq[rows]) + group["eps"])
        for t, value in ((state["exp_avg"], exp_avg), (state["exp_avg_sq"], exp_avg_sq), (p, w)):
            assign_(t, ms.Tensor.from_numpy(value))  # in place: the same state tensors and parameter
