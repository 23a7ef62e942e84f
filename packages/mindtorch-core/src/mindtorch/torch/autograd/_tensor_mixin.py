"""Tensor's autograd members (backward, grad, requires_grad, is_leaf, grad_fn, detach, register_hook, ...).

A mixin base of `mindtorch.torch.Tensor`, kept apart from `_tensor.py` so that autograd lives in one place.
"""
from __future__ import annotations


class TensorAutogradMixin:
    """Filled in by the autograd work (issue 5)."""

    __slots__ = ()
