"""torch.Generator, manual_seed, seed, initial_seed, get_rng_state, set_rng_state.

Random numbers are drawn on the host by numpy's PCG64 (a counter-style generator: fast, reproducible, with a
compact state) and handed to MindSpore as tensors. The streams are NOT bit-identical to torch's; the
distributions are, and the same seed always gives the same numbers. `manual_seed` also seeds MindSpore's own
global seed (`mindspore.set_seed`) so that MindSpore ops that draw random numbers themselves (dropout kernels,
initialisers) are reproducible too.
"""
from __future__ import annotations

import json
import random as _py_random
import time
from typing import Any, Optional

import mindspore as ms
import numpy as np

_MASK64 = (1 << 64) - 1
_STATE_BYTES = 40  # 128-bit state, 128-bit increment, has_uint32 flag (4 bytes), uinteger (4 bytes)


class Generator:
    """torch.Generator(device='cpu'): an independent random stream (seed/manual_seed/get_state/set_state)."""

    def __init__(self, device: Any = "cpu") -> None:
        from ._device import as_device

        self.device = as_device(device)
        self._initial_seed = 67280421310721  # torch's default_generator seed
        self._np = np.random.Generator(np.random.PCG64(self._initial_seed))

    # ------------------------------------------------------------------------------------------ seeding
    def manual_seed(self, seed: int) -> "Generator":
        seed = int(seed)
        if seed < 0:  # torch accepts negative seeds, mapping them into uint64
            seed &= _MASK64
        self._initial_seed = seed
        self._np = np.random.Generator(np.random.PCG64(seed))
        return self

    def seed(self) -> int:
        """Re-seed from a non-deterministic source and return the seed."""
        s = int(np.random.SeedSequence().entropy) & _MASK64 ^ time.time_ns() & _MASK64
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._initial_seed

    # ------------------------------------------------------------------------------------------- state
    def get_state(self) -> Any:
        """The generator state as a uint8 tensor (torch returns a ByteTensor too; the layout is ours)."""
        from ._tensor import from_numpy_array

        st = self._np.bit_generator.state
        s, inc = st["state"]["state"], st["state"]["inc"]
        raw = (s.to_bytes(16, "little") + inc.to_bytes(16, "little")
               + int(st["has_uint32"]).to_bytes(4, "little") + int(st["uinteger"]).to_bytes(4, "little"))
        return from_numpy_array(np.frombuffer(raw, dtype=np.uint8).copy())

    def set_state(self, new_state: Any) -> "Generator":
        arr = np.asarray(new_state.asnumpy() if isinstance(new_state, ms.Tensor) else new_state, dtype=np.uint8)
        if arr.size != _STATE_BYTES:
            raise RuntimeError(f"Expected a RNG state of {_STATE_BYTES} bytes (from get_state()), got {arr.size}")
        raw = arr.tobytes()
        bg = np.random.PCG64()
        bg.state = {
            "bit_generator": "PCG64",
            "state": {"state": int.from_bytes(raw[:16], "little"), "inc": int.from_bytes(raw[16:32], "little")},
            "has_uint32": int.from_bytes(raw[32:36], "little"),
            "uinteger": int.from_bytes(raw[36:40], "little"),
        }
        self._np = np.random.Generator(bg)
        return self

    def __repr__(self) -> str:
        return "<torch._C.Generator object>"


default_generator = Generator()


def numpy_generator(generator: Optional[Generator] = None) -> np.random.Generator:
    """The numpy stream an op draws from: `generator=` when given, else the global one."""
    if generator is None:
        return default_generator._np
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a torch.Generator, got {type(generator).__name__}")
    return generator._np


def set_mindspore_seed(seed: int) -> None:
    """Set MindSpore's global seed (its own random ops: dropout kernels, initialisers) and nothing else.

    `mindspore.set_seed` also reseeds numpy's and Python's global RNGs (`np.random.seed`, `random.seed`);
    torch.manual_seed touches neither, and scripts that seed numpy first (`np.random.seed(1);
    torch.manual_seed(0)`) or keep drawing from numpy across a reseed must keep their streams, so both
    states are put back."""
    np_state, py_state = np.random.get_state(), _py_random.getstate()
    ms.set_seed(int(seed) & 0x7FFFFFFF)  # MindSpore only takes seeds in [0, 2**31)
    np.random.set_state(np_state)
    _py_random.setstate(py_state)


def manual_seed(seed: int) -> Generator:
    """Seed the global generator (and MindSpore's global seed); returns the global generator."""
    seed = int(seed)
    default_generator.manual_seed(seed)
    set_mindspore_seed(seed)
    return default_generator


def seed() -> int:
    s = default_generator.seed()
    set_mindspore_seed(s)
    return s


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    """The global random state as a uint8 tensor: the default generator's state, then the seed counters of
    MindSpore's own random kernels (dropout's masks, rrelu's slopes), so that set_rng_state and fork_rng
    replay dropout too, as torch's single CPU generator does."""
    from . import _ms
    from ._tensor import from_numpy_array

    # (JSON, not pickle: a state read from a checkpoint must not be able to run code when restored)
    kernels = json.dumps([[list(k), v] for k, v in _ms.random_op_state().items()]).encode()
    gen = np.asarray(default_generator.get_state().asnumpy(), dtype=np.uint8)
    return from_numpy_array(np.concatenate([gen, np.frombuffer(kernels, dtype=np.uint8)]))


def set_rng_state(new_state: Any) -> None:
    from . import _ms

    arr = np.asarray(new_state.asnumpy() if isinstance(new_state, ms.Tensor) else new_state, dtype=np.uint8)
    default_generator.set_state(arr[:_STATE_BYTES])
    if arr.size > _STATE_BYTES:  # (a state from Generator.get_state() has no kernel counters: left as they are)
        try:
            items = {tuple(k): int(v) for k, v in json.loads(arr[_STATE_BYTES:].tobytes())}
        except (ValueError, TypeError) as e:
            raise RuntimeError("set_rng_state: not a state from torch.get_rng_state()") from e
        _ms.set_random_op_state(items)
