"""Parameter/buffer construction for the layer modules (torch's `factory_kwargs` = device, dtype)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ... import _dtype as D
from ..._tensor import Tensor, from_numpy_array


def empty(shape: Sequence[int], dtype: Any = None, device: Any = None) -> Tensor:
    """A zero-filled tensor of `shape` (torch.empty's contents are undefined; zeros are a valid choice)."""
    return full(shape, 0, dtype, device)


def full(shape: Sequence[int], value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A tensor of `shape` filled with `value` (default dtype unless given)."""
    d = D.to_dtype(dtype) or D.get_default_dtype()
    t = from_numpy_array(np.full(tuple(int(s) for s in shape), value,
                                 dtype=np.float32 if d == D.bfloat16 else D.to_numpy_dtype(d)),
                         d if d == D.bfloat16 else None)
    if device is not None:
        from ..._device import as_device

        t._device = as_device(device)
    return t

