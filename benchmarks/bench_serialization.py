"""torch.save / torch.load memory and time: a ~500 MB state_dict, mindtorch vs real PyTorch.

    python benchmarks/bench_serialization.py [--mb 500]

Each measurement runs in a fresh subprocess: build (or import) what is needed, record RSS, reset the peak
(`/proc/self/clear_refs` 5 -> VmHWM = current RSS), run save or load, read VmHWM. "peak over baseline" /
"size" is the memory overhead factor the brief bounds at 1.5x (load must hold the result itself: 1.0x is the
floor there; save needs no copy: 0x is the floor).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

CHILD = textwrap.dedent("""
    import json, os, sys, time
    import numpy as np
    os.environ.setdefault("GLOG_v", "3")
    impl, op, path, mb = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

    def status(key):
        for line in open("/proc/self/status"):
            if line.startswith(key):
                return int(line.split()[1]) * 1024
        raise KeyError(key)

    if impl == "torch":
        import torch
        def make(a): return torch.from_numpy(a)
    else:
        import mindtorch.torch as torch
        from mindtorch.torch._tensor import from_numpy_array as make
    n_tensors = 20
    numel = mb * (1 << 20) // 4 // n_tensors
    if op == "save":
        sd = {f"layer{i}.weight": make(np.full(numel, i, np.float32)) for i in range(n_tensors)}
    base = status("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    t0 = time.perf_counter()
    if op == "save":
        torch.save(sd, path)
    else:
        sd = torch.load(path)
        assert len(sd) == n_tensors
    dt = time.perf_counter() - t0
    peak = status("VmHWM")
    print(json.dumps({"seconds": dt, "peak_over_base": peak - base, "bytes": n_tensors * numel * 4}))
""")


def run(impl: str, op: str, path: str, mb: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, impl, op, path, str(mb)], capture_output=True, text=True,
                         env=dict(os.environ, GLOG_v="3"), timeout=600)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where to write the files (default: a temp dir)")
    args = parser.parse_args()
    results: dict = {}
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        for _ in range(args.rounds):  # interleaved rounds: a busy machine hits both implementations alike
            for impl in ("mindtorch", "torch"):
                path = os.path.join(d, f"{impl}.pth")
                results.setdefault((impl, "save"), []).append(run(impl, "save", path, args.mb))
                results.setdefault((impl, "load"), []).append(run(impl, "load", path, args.mb))
            results.setdefault(("mindtorch (torch's file)", "load"), []).append(
                run("mindtorch", "load", os.path.join(d, "torch.pth"), args.mb))
    rows = []
    for (impl, op), runs in results.items():
        rows.append((impl, op, {"seconds": statistics.median(r["seconds"] for r in runs),
                                "peak_over_base": max(r["peak_over_base"] for r in runs),
                                "bytes": runs[0]["bytes"]}))
    print(f"torch.save/torch.load of a {args.mb} MB float32 state_dict (20 tensors); fresh process per run; "
          f"median seconds and worst peak of {args.rounds} interleaved rounds\n")
    print("| implementation | op | seconds | peak RSS over baseline (MB) | overhead / size |")
    print("|---|---|---|---|---|")
    for impl, op, r in rows:
        print(f"| {impl} | {op} | {r['seconds']:.2f} | {r['peak_over_base'] / 2**20:.0f} | "
              f"{r['peak_over_base'] / r['bytes']:.2f}x |")


if __name__ == "__main__":
    main()
