"""torch.nn.modules.utils: argument expanders shared by the layers (_single, _pair, _triple...)."""
from __future__ import annotations

import collections.abc
from itertools import repeat
from typing import Any, Callable, List


def _ntuple(n: int, name: str = "parse") -> Callable[[Any], tuple]:
    def parse(x: Any) -> tuple:
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t: tuple, n: int) -> tuple:
    """(1, 2) with n=2 -> (2, 2, 1, 1): the F.pad order of a per-dim padding tuple."""
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size: List[Any], defaults: List[int]) -> List[int]:
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]
