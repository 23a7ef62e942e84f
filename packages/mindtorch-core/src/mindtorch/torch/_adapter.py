"""Conversions between MindSpore tensors and mindtorch tensors (the manual's §3.1 and §4.5).

Outputs of MindSpore-native code (`auto_mixed_precision` models, `mindspore.ops`) are plain `ms.Tensor`;
`cast_to_adapter_tensor` turns them (and nested tuples/lists/dicts of them) into mindtorch tensors,
zero-copy. `cast_to_ms_tensor` goes the other way for code that insists on exact `ms.Tensor` objects.
"""
from __future__ import annotations

from typing import Any

import mindspore as ms

from ._ops._registry import wrap


def cast_to_adapter_tensor(obj: Any) -> Any:
    """ms.Tensor (or nested tuple/list/dict of them) -> mindtorch Tensor(s), sharing memory."""
    if isinstance(obj, dict):
        return {k: cast_to_adapter_tensor(v) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)) and not hasattr(obj, "_fields"):
        return type(obj)(cast_to_adapter_tensor(v) for v in obj)
    if isinstance(obj, ms.Tensor) and type(obj) is not ms.Tensor:
        return obj
    return wrap(obj)


def cast_to_ms_tensor(obj: Any) -> Any:
    """mindtorch Tensor (or nested tuple/list/dict of them) -> plain ms.Tensor, sharing memory."""
    if isinstance(obj, dict):
        return {k: cast_to_ms_tensor(v) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)) and not hasattr(obj, "_fields"):
        return type(obj)(cast_to_ms_tensor(v) for v in obj)
    if isinstance(obj, ms.Tensor) and type(obj) is not ms.Tensor and not isinstance(obj, ms.Parameter):
        return ms.Tensor(obj)  # a new MindSpore object over the same memory; the caller's tensor is untouched
    return obj
