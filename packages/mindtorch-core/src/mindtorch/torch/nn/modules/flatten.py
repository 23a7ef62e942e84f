"""torch.nn.modules.flatten: Flatten, Unflatten."""
from __future__ import annotations

from typing import Any, Sequence, Union

from ..._tensor import Tensor
from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flatten dims start_dim..end_dim into one: (N, *) -> (N, prod(*)) by default."""

    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        shape = list(input.shape)
        n = max(len(shape), 1)
        s = self.start_dim + n if self.start_dim < 0 else self.start_dim
        e = self.end_dim + n if self.end_dim < 0 else self.end_dim
        if not shape:
            return input.reshape([1])
        merged = 1
        for v in shape[s:e + 1]:
            merged *= v
        return input.reshape(shape[:s] + [merged] + shape[e + 1:])

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Expand dim `dim` into `unflattened_size`: (*, S, *) -> (*, s1, s2, ..., *)."""

    NamedShape = Any
    __constants__ = ["dim", "unflattened_size"]

    def __init__(self, dim: Union[int, str], unflattened_size: Sequence[Any]) -> None:
        super().__init__()
        if isinstance(dim, int):
            if not isinstance(unflattened_size, (tuple, list)):
                raise TypeError(f"unflattened_size must be tuple of ints, but found type "
                                f"{type(unflattened_size).__name__}")
            for idx, elem in enumerate(unflattened_size):
                if not isinstance(elem, int):
                    raise TypeError(f"unflattened_size must be tuple of ints, but found element of type "
                                    f"{type(elem).__name__} at pos {idx}")
        else:
            raise TypeError("invalid argument type for dim parameter (named tensors are not supported)")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        shape = list(input.shape)
        d = self.dim if self.dim >= 0 else self.dim + len(shape)
        new = shape[:d] + list(self.unflattened_size) + shape[d + 1:]
        return input.reshape(new)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
