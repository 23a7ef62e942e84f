"""torch.utils.dlpack: exchange tensors with other frameworks through DLPack capsules, zero-copy, through
MindSpore's own DLPack support (`mindspore.utils.dlpack`)."""
from __future__ import annotations

from typing import Any

import mindspore as ms

__all__ = ["to_dlpack", "from_dlpack"]


def to_dlpack(tensor: Any) -> Any:
    """A DLPack capsule sharing `tensor`'s memory (consumable once, by any DLPack importer)."""
    from mindspore.utils import dlpack

    if not isinstance(tensor, ms.Tensor):
        raise TypeError(f"to_dlpack: expected a Tensor, got {type(tensor).__name__}")
    return dlpack.to_dlpack(tensor)


def from_dlpack(ext_tensor: Any) -> Any:
    """A mindtorch tensor sharing the memory of `ext_tensor`: a DLPack capsule or an object with `__dlpack__`
    (a numpy array, a torch/JAX/CuPy tensor...).

    Tested with real PyTorch's capsules and numpy arrays; MindSpore's importer reads DLPack 0.x capsules."""
    import numpy as np
    from mindspore.utils import dlpack

    from .._tensor import Tensor

    if isinstance(ext_tensor, np.ndarray):
        # MindSpore 2.10's importer crashes (segfault) on numpy's capsules; numpy's memory is host memory that
        # from_numpy shares directly
        from .._ops._registry import FUNCTIONS

        return FUNCTIONS["from_numpy"](ext_tensor)
    capsule = ext_tensor.__dlpack__() if hasattr(ext_tensor, "__dlpack__") else ext_tensor
    try:
        out = dlpack.from_dlpack(capsule)
    except (RuntimeError, TypeError, ValueError) as e:
        raise RuntimeError(f"from_dlpack: {str(e).splitlines()[0]}") from e
    out.__class__ = Tensor
    return out
