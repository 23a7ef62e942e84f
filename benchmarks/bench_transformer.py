"""Training step of a small GPT-like transformer: mindtorch vs real PyTorch (CPU eager), same process.

    python benchmarks/bench_transformer.py [--rounds 7] [--steps 3]

The model is plain PyTorch code (token + position embeddings, 2 pre-LayerNorm blocks of causal self-attention with
a masked_fill'ed score matrix, softmax, GELU MLP; vocabulary 512, width 128, 4 heads, context 64, batch 32) trained
with AdamW and cross_entropy; it exercises the CPU paths of layer_norm, gelu, matmul on views, softmax,
masked_fill, division and contiguous copies. Rounds interleave the two frameworks; the table shows medians and
the ratio mindtorch / torch (< 1: mindtorch faster). Both start from the same weights (copied from torch's).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any, Callable, Dict, List

import numpy as np

os.environ.setdefault("GLOG_v", "3")

V, D, H, L, T, B = 512, 128, 4, 2, 64, 32


def build(torch: Any) -> Any:
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
            self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
            self.fc1, self.fc2 = nn.Linear(D, 4 * D), nn.Linear(4 * D, D)

        def forward(self, x: Any) -> Any:
            b, t, d = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(D, dim=-1)
            q, k, v = (z.view(b, t, H, d // H).transpose(1, 2) for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) / (d // H) ** 0.5
            mask = torch.tril(torch.ones(t, t)).view(1, 1, t, t)
            att = F.softmax(att.masked_fill(mask == 0, float("-inf")), dim=-1)
            y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
            x = x + self.proj(y)
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class GPT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.tok, self.pos = nn.Embedding(V, D), nn.Embedding(T, D)
            self.blocks = nn.Sequential(*[Block() for _ in range(L)])
            self.ln, self.head = nn.LayerNorm(D), nn.Linear(D, V)

        def forward(self, idx: Any) -> Any:
            x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
            return self.head(self.ln(self.blocks(x)))

    return GPT()


def step_fn(torch: Any, model: Any, idx: np.ndarray, tgt: np.ndarray) -> Callable[[], float]:
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = torch.from_numpy(idx), torch.from_numpy(tgt)

    def step() -> float:
        loss = torch.nn.functional.cross_entropy(model(x).view(-1, V), y.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return float(loss.detach())

    return step


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--steps", type=int, default=3)
    args = ap.parse_args()

    import torch

    import mindtorch.torch as mt

    torch.set_num_threads(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
    torch.manual_seed(0)
    ref = build(torch)
    mine = build(mt)
    mine.load_state_dict({k: mt.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})
    rng = np.random.default_rng(0)
    idx, tgt = rng.integers(0, V, (B, T)), rng.integers(0, V, (B, T))
    steps: Dict[str, Callable[[], float]] = {"mindtorch": step_fn(mt, mine, idx, tgt),
                                             "torch": step_fn(torch, ref, idx, tgt)}
    first = {k: f() for k, f in steps.items()}  # also the warm-up
    for f in steps.values():
        f()
    samples: Dict[str, List[float]] = {k: [] for k in steps}
    for _ in range(args.rounds):
        for name, f in steps.items():
            t = time.perf_counter()
            for _ in range(args.steps):
                f()
            samples[name].append((time.perf_counter() - t) / args.steps)
    med = {k: statistics.median(v) * 1e3 for k, v in samples.items()}
    print("| model | mindtorch / PyTorch eager | step ms (mindtorch, PyTorch) | first-step loss (mindtorch, PyTorch) |")
    print("|---|---|---|---|")
    print(f"| GPT-like (2 blocks, d=128, T=64, batch 32) | {med['mindtorch'] / med['torch']:.2f}x | "
          f"{med['mindtorch']:.1f}, {med['torch']:.1f} | {first['mindtorch']:.5f}, {first['torch']:.5f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
