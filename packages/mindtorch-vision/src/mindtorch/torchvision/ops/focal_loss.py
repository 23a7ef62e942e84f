"""sigmoid_focal_loss (RetinaNet), written with mindtorch tensor ops so that it is differentiable."""
from __future__ import annotations

from typing import Any

import mindtorch.torch as torch


def sigmoid_focal_loss(inputs: Any, targets: Any, alpha: float = 0.25, gamma: float = 2,
                       reduction: str = "none") -> Any:
    """Focal loss of Lin et al. (2017) on logits `inputs` and binary `targets` of the same shape.

    alpha weights positives (alpha) vs negatives (1 - alpha), -1 disables it; reduction: none | mean | sum.
    """
    import mindtorch.torch.nn.functional as F

    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    elif reduction != "none":
        raise ValueError(
            f"Invalid Value for arg 'reduction': '{reduction} \n Supported reduction modes: 'none', 'mean', 'sum'"
        )
    return loss
