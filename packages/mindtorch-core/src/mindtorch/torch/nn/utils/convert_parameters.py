"""torch.nn.utils.convert_parameters: parameters_to_vector / vector_to_parameters."""
from __future__ import annotations

from typing import Any, Iterable

import mindspore as ms
from mindspore import ops

from ..._ops import _registry
from ..._tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Any]) -> Tensor:
    """All parameters flattened and concatenated into one 1-D Tensor (differentiable w.r.t. them)."""
    vec = [ops.reshape(p, (-1,)) for p in parameters]
    out = ops.cat(vec)
    out.__class__ = Tensor
    return out


def vector_to_parameters(vec: Any, parameters: Iterable[Any]) -> None:
    """Copy consecutive slices of the 1-D `vec` into the parameters (in place, outside autograd)."""
    if not isinstance(vec, ms.Tensor):
        from ..modules.module import typename

        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    from ..._grad_mode import no_grad

    pointer = 0
    with no_grad():
        for param in parameters:
            num_param = 1
            for s in param.shape:
                num_param *= s
            chunk = ops.reshape(vec[pointer:pointer + num_param], tuple(param.shape))
            _registry.write_back(param, chunk)
            pointer += num_param
