"""torch.nn.modules.adaptive: AdaptiveLogSoftmaxWithLoss (Grave et al., "Efficient softmax approximation for GPUs")."""
from __future__ import annotations

from collections import namedtuple
from typing import Any, Sequence

import numpy as np

from ... import cat, from_numpy  # the dispatchers (bound before torch.nn is imported)
from ..._tensor import Tensor
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Adaptive softmax: the frequent classes `[0, cutoffs[0])` and one entry per tail cluster share the head; the
    rarer classes of cluster i (`[cutoffs[i], cutoffs[i+1])`) are scored by a smaller projection
    (in_features // div_value ** (i + 1)) and added to their cluster's head log-probability.

    forward(input (N, in_features) or (in_features,), target (N,) or ()) -> (output, loss): output (N,) the target
    log-probabilities, loss the mean of -output. `log_prob(input)` -> (N, n_classes), `predict(input)` -> (N,).
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Sequence[int], div_value: float = 4.0,
                 head_bias: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if (cutoffs != sorted(cutoffs) or min(cutoffs, default=0) <= 0 or max(cutoffs, default=0) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        kw = {"device": device, "dtype": dtype}
        self.head = Linear(in_features, self.head_size, bias=head_bias, **kw)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(in_features, hsz, bias=False, **kw), Linear(hsz, osz, bias=False, **kw)))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        tdim = target_.dim()
        if tdim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError("Input and target should have the same size in the batch dimension.")
            if input_.dim() != 2:
                raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with size",
                                   input_.size())
        elif tdim == 0:
            if input_.dim() != 1:
                raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with size",
                                   input_.size())
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        batched = tdim > 0
        inp = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)

        t = target.numpy().astype(np.int64)
        if t.size and (t.min() < 0 or t.max() >= self.n_classes):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{t.min()}, {t.max()}] were found. ")
        # the head scores each row's shortlist class, or its cluster's entry; a tail cluster adds the class's
        # log-probability within the cluster (computed for that cluster's rows only)
        cluster = np.searchsorted(np.asarray(self.cutoffs), t, side="right")  # 0: shortlist, i: tail cluster i-1
        head_col = np.where(cluster == 0, t, self.shortlist_size + cluster - 1)
        head_logprob = F.log_softmax(self.head(inp), dim=1)
        output = head_logprob.gather(1, from_numpy(head_col[:, None].astype(np.int64))).squeeze(1)
        for i in range(1, self.n_clusters + 1):
            rows = np.flatnonzero(cluster == i)
            if rows.size == 0:
                continue
            row_t = from_numpy(rows.astype(np.int64))
            local = from_numpy((t[rows] - self.cutoffs[i - 1])[:, None].astype(np.int64))
            cluster_logprob = F.log_softmax(self.tail[i - 1](inp.index_select(0, row_t)), dim=1)
            output = output.index_add(0, row_t, cluster_logprob.gather(1, local).squeeze(1))
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _get_full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        head_logprob = F.log_softmax(head_output, dim=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i, module in enumerate(self.tail):
            cluster_logprob = F.log_softmax(module(input), dim=1)
            parts.append(cluster_logprob + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return cat(parts, dim=1)

    def log_prob(self, input: Tensor) -> Tensor:
        """Log-probabilities of every class: (N, in_features) -> (N, n_classes), or (in_features,) -> (n_classes,)."""
        batched = input.dim() > 1
        inp = input if batched else input.unsqueeze(0)
        out = self._get_full_log_prob(inp, self.head(inp))
        return out if batched else out.squeeze(0)

    def predict(self, input: Tensor) -> Tensor:
        """The most likely class of each row: (N, in_features) -> (N,), or (in_features,) -> ()."""
        return self.log_prob(input).argmax(dim=-1)
