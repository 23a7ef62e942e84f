"""Helpers of torch.distributions.utils: broadcasting parameters, probs <-> logits."""
from __future__ import annotations

from typing import Any, Tuple

import mindtorch.torch as torch
import mindtorch.torch.nn.functional as F


def broadcast_all(*values: Any) -> Tuple[Any, ...]:
    """Tensors and numbers -> tensors of one broadcast shape (numbers take the default float dtype)."""
    like = next((v for v in values if isinstance(v, torch.Tensor)), None)
    dtype = like.dtype if like is not None and like.is_floating_point() else torch.get_default_dtype()
    tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=dtype) for v in values]
    return tuple(torch.broadcast_tensors(*tensors))


def clamp_probs(probs: Any) -> Any:
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Any:
    ps = clamp_probs(probs)
    return torch.log(ps) - torch.log1p(-ps) if is_binary else torch.log(ps)


def logits_to_probs(logits: Any, is_binary: bool = False) -> Any:
    return torch.sigmoid(logits) if is_binary else F.softmax(logits, dim=-1)
