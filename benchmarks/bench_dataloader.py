"""DataLoader throughput: mindtorch vs real PyTorch on CIFAR-sized samples, same process, same dataset.

    python benchmarks/bench_dataloader.py [--rounds 5] [--samples 4096]

Each sample is a 3x32x32 uint8 image normalised to float32 in numpy (ToTensor + Normalize done by hand) plus
an int label; batch 128, shuffle=True, one full epoch per measurement (worker start-up included, as a
non-persistent loader pays it every epoch). Rounds interleave mindtorch and torch; the table shows medians
and the throughput ratio mindtorch / torch (> 1: mindtorch faster).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

os.environ.setdefault("GLOG_v", "3")

MEAN = np.array([0.4914, 0.4822, 0.4465], np.float32).reshape(3, 1, 1)
STD = np.array([0.2470, 0.2435, 0.2616], np.float32).reshape(3, 1, 1)


class Cifar:
    """In-memory CIFAR-like images; item i = (normalised float32 [3,32,32] array, int label)."""

    def __init__(self, n: int) -> None:
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, (n, 3, 32, 32), dtype=np.uint8)
        self.labels = rng.integers(0, 10, n).tolist()

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        x = (self.images[i].astype(np.float32) / 255.0 - MEAN) / STD
        return x, self.labels[i]


def epoch_seconds(loader_cls, ds, num_workers: int) -> float:
    loader = loader_cls(ds, batch_size=128, shuffle=True, num_workers=num_workers)
    start = time.perf_counter()
    n = 0
    for x, y in loader:
        n += int(x.shape[0])
    assert n == len(ds)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=4096)
    args = parser.parse_args()

    import torch as real_torch  # the reference (the import hook is not enabled here)

    import mindtorch.torch as mtorch

    ds = Cifar(args.samples)
    impls = {"mindtorch": mtorch.utils.data.DataLoader, "torch": real_torch.utils.data.DataLoader}
    times = {(impl, nw): [] for impl in impls for nw in (0, 2)}
    for impl in impls:  # warm-up (imports, first fork)
        epoch_seconds(impls[impl], Cifar(256), 2)
    for _ in range(args.rounds):
        for nw in (0, 2):
            for impl, cls in impls.items():
                times[(impl, nw)].append(epoch_seconds(cls, ds, nw))
    print(f"DataLoader, {args.samples} CIFAR-sized samples/epoch, batch 128, shuffle, medians of {args.rounds} "
          f"interleaved rounds, {os.cpu_count()} cores\n")
    print("| num_workers | mindtorch samples/s | torch samples/s | ratio (mindtorch/torch) |")
    print("|---|---|---|---|")
    for nw in (0, 2):
        ours = args.samples / statistics.median(times[("mindtorch", nw)])
        ref = args.samples / statistics.median(times[("torch", nw)])
        print(f"| {nw} | {ours:,.0f} | {ref:,.0f} | {ours / ref:.2f} |")


if __name__ == "__main__":
    main()
