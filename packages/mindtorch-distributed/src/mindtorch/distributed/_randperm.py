"""torch.randperm(n, generator=torch.Generator().manual_seed(seed)) on CPU, bit for bit, without torch.

DistributedSampler must hand each rank the same indices real torch would (a job mixing torch and mindtorch
workers, or reproducing a torch run, depends on it), and mindtorch's own RNG is MindSpore's, not torch's.
torch's CPU generator is a 32-bit Mersenne Twister (mt19937) whose state `manual_seed(s)` fills with the
standard init_genrand(s & 0xffffffff); for n < 2**32 / 20 its randperm is the Fisher-Yates shuffle
    for i in range(n - 1): z = random() % (n - i); swap(r[i], r[i + z])
with `random()` one raw 32-bit mt19937 output (aten/src/ATen/native/TensorFactories.cpp, randperm_cpu).
numpy's MT19937 is the same engine, so we load that state into it and draw the raw outputs.
Verified equal to torch 2.13 (tests/test_sampler.py). For n >= 2**32 / 20 torch draws 64-bit values
(`random64()`: two outputs, the first as the high word); that branch follows the same source.
"""
from __future__ import annotations

from typing import List

import numpy as np

_SMALL_N = (2 ** 32 - 1) // 20


def _mt19937_state(seed: int) -> np.ndarray:
    """init_genrand(seed): the 624-word state torch's CPUGeneratorImpl gets from manual_seed(seed)."""
    state = [0] * 624
    state[0] = seed & 0xFFFFFFFF
    for j in range(1, 624):
        prev = state[j - 1]
        state[j] = (1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF
    return np.array(state, dtype=np.uint32)


def randperm(n: int, seed: int) -> List[int]:
    """The permutation torch.randperm(n, generator=Generator().manual_seed(seed)) returns, as a list."""
    bits = np.random.MT19937()
    bits.state = {"bit_generator": "MT19937", "state": {"key": _mt19937_state(int(seed)), "pos": 624}}
    perm = list(range(n))
    if n < 2:
        return perm
    raw = bits.random_raw(n - 1 if n < _SMALL_N else 2 * (n - 1)).astype(np.uint64)
    if n >= _SMALL_N:
        raw = (raw[0::2] << np.uint64(32)) | raw[1::2]
    draws = raw.tolist()
    for i in range(n - 1):
        z = i + draws[i] % (n - i)
        perm[i], perm[z] = perm[z], perm[i]
    return perm
