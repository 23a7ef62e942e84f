"""torch.utils.checkpoint: activation checkpointing (recompute in backward instead of storing activations).

Built on MindSpore's own PyNative recomputation, `mindspore.recompute(block, *args, use_reentrant=False)`: it
runs `block` once, keeps only its inputs (through saved-tensors hooks on the same autograd tape that
`loss.backward()` drives), and runs `block` again during backward to rebuild the activations. So memory IS saved,
gradients are the ones of a plain forward (tests/test_core_gaps.py checks both, and that the block runs twice).

torch's `use_reentrant=True` (1.12's default) and `False` both map onto MindSpore's non-reentrant mechanism
(its reentrant variant only accepts Cells and no nested outputs). Deviation: with `use_reentrant=True` and no
input requiring grad, torch 1.12 warns and returns an output that does not require grad (parameters inside get
no gradients); we give the same warning but still compute the gradients.
`preserve_rng_state=True` replays mindtorch's RNG state and the seed counters of MindSpore's random ops during
the recomputation, so dropout masks match (if MindSpore's global seed is unset, a random one is set first:
unseeded MindSpore random ops cannot be replayed).
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Callable, Iterable, Sequence, Union

import mindspore as ms

from .. import _ms
from .._ops._registry import wrap
from .._random import get_rng_state, set_mindspore_seed, set_rng_state

__all__ = ["checkpoint", "checkpoint_sequential"]


def _any_requires_grad(args: Sequence[Any]) -> bool:
    return any(isinstance(a, ms.Tensor) and bool(getattr(a, "requires_grad", False)) for a in args)


def _rng_state() -> tuple:
    """mindtorch's generator state plus the seed counters of MindSpore's random ops (dropout draws from those)."""
    if ms.get_seed() is None:
        # Unseeded, MindSpore draws a fresh kernel seed at every call and nothing could be replayed: give it a
        # random global seed (numpy's and Python's global states are kept).
        set_mindspore_seed(int.from_bytes(os.urandom(4), "little"))
    return get_rng_state(), _ms.random_op_state()


def _set_rng_state(state: tuple) -> None:
    set_rng_state(state[0])
    _ms.set_random_op_state(state[1])


def checkpoint(function: Callable, *args: Any, use_reentrant: bool = True, preserve_rng_state: bool = True,
               **kwargs: Any) -> Any:
    """`function(*args, **kwargs)`, its intermediate activations recomputed during backward.

    Returns what `function` returns (tensors, or tuples/lists of them). Outside autograd recording (no_grad, or
    nothing requires grad) it is a plain call.
    """
    if use_reentrant and kwargs:  # torch 1.12: keyword arguments reach `function` only with use_reentrant=False
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant and not _any_requires_grad(args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")
    if not _ms.is_recording():
        return function(*args, **kwargs)
    rng = _rng_state() if preserve_rng_state else None
    calls = [0]

    def block(*a: Any, **kw: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1 or rng is None:
            return function(*a, **kw)
        # the recomputation in backward: replay the forward's random numbers, then restore the current state
        current = _rng_state()
        _set_rng_state(rng)
        try:
            return function(*a, **kw)
        finally:
            _set_rng_state(current)

    return wrap(ms.recompute(block, *args, use_reentrant=False, **kwargs))


def checkpoint_sequential(functions: Union[Any, Iterable[Callable]], segments: int, input: Any,
                          use_reentrant: bool = True, **kwargs: Any) -> Any:
    """Run a Sequential (or list of modules/functions) in `segments` chunks, checkpointing all but the last.

    input: the first function's input; returns the last function's output (torch 1.12's algorithm).
    """
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if hasattr(functions, "children") and callable(functions.children):
        functions = list(functions.children())
    functions = list(functions)

    def run_function(start: int, end: int) -> Callable:
        def forward(x: Any) -> Any:
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1)(input)
