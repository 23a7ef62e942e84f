"""mindtorch benchmarks: every figure is a ratio measured in one run (interleaved rounds, medians).

    nox -s benchmarks                    # everything, writes benchmarks/RESULTS.md
    python benchmarks/run.py --quick     # fewer rounds
    python benchmarks/run.py --only train,dispatch

Sections: training steps (mindtorch backward / functional vs native MindSpore PyNative and @ms.jit vs real
PyTorch), graph mode (the manual's @ms.jit / GRAPH_MODE train step vs its PyNative run), per-op dispatch
overhead vs raw mindspore.mint, import time, DataLoader throughput, memory (peak RSS vs native MindSpore, leak
check over 1,000 steps). Absolute times are printed for context only.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import mindspore

    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, MindSpore {mindspore.__version__}, "
            f"{platform.system()} {platform.release()}")


def interleaved(variants: Dict[str, Callable[[], None]], rounds: int, steps: int, warmup: int = 2) -> Dict[str, float]:
    """Median seconds per call of each variant, measured in interleaved rounds."""
    for fn in variants.values():
        for _ in range(warmup):
            fn()
    samples: Dict[str, List[float]] = {k: [] for k in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            t = time.perf_counter()
            for _ in range(steps):
                fn()
            samples[name].append((time.perf_counter() - t) / steps)
    return {k: statistics.median(v) for k, v in samples.items()}


# ------------------------------------------------------------------------------------------- train steps
def train_variants(model_name: str, with_torch: bool, with_jit: bool = True,
                   only: str = "") -> Dict[str, Callable[[], None]]:
    """The train-step callables of one model; `only` builds just that variant (memory runs)."""
    import mindspore as ms
    import numpy as np
    from models import SHAPES, mindspore_models, torch_models

    import mindtorch.torch as mt

    shape, kind = SHAPES[model_name]
    rng = np.random.RandomState(0)
    x_np = rng.randint(0, 1000, shape).astype(np.int64) if kind == "tokens" else rng.randn(*shape).astype(np.float32)
    y_np = rng.randint(0, 10, (shape[0],)).astype(np.int64)
    out: Dict[str, Callable[[], None]] = {}

    def wanted(label: str) -> bool:
        return not only or only == label

    crit = mt.nn.CrossEntropyLoss()
    xb, yb = mt.from_numpy(x_np), mt.from_numpy(y_np)

    def mt_step(style: str) -> Callable[[], None]:
        """mindtorch backward style, or the manual's functional style (value_and_grad + optimizer(grads))."""
        mt.manual_seed(0)
        net = getattr(torch_models(mt), model_name)()
        opt = mt.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
        if style == "backward":
            def step():
                loss = crit(net(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                loss.item()
            return step

        def forward_fn(data, label):
            logits = net(data)
            return crit(logits, label), logits

        grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters, has_aux=True)

        def fstep():
            (loss, _), grads = grad_fn(xb, yb)
            opt(grads)
            loss.asnumpy()
        return fstep

    for style in ("backward", "functional"):
        if wanted(f"mindtorch {style}"):
            out[f"mindtorch {style}"] = mt_step(style)

    # native MindSpore
    msm = mindspore_models()
    xm, ym = ms.Tensor(x_np), ms.Tensor(y_np.astype(np.int32))
    loss_fn = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    def native_step(jit: bool) -> Callable[[], None]:
        net = getattr(msm, model_name)()
        opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)

        def fwd(d, lab):
            return loss_fn(net(d), lab)

        gfn = ms.value_and_grad(fwd, None, opt.parameters)

        def step(d, lab):
            loss, grads = gfn(d, lab)
            opt(grads)
            return loss

        stepj = ms.jit(step) if jit else step
        return lambda: stepj(xm, ym).asnumpy()

    for label, jit in (("MindSpore PyNative", False), ("MindSpore @jit", True)):
        if ((jit and not with_jit) or not wanted(label)):
            continue
        out[label] = native_step(jit)

    if with_torch:
        import torch

        torch.set_num_threads(os.cpu_count() or 1)
        net_t = getattr(torch_models(torch), model_name)()
        opt_t = torch.optim.SGD(net_t.parameters(), lr=0.01, momentum=0.9)
        crit_t = torch.nn.CrossEntropyLoss()
        xt, yt = torch.from_numpy(x_np), torch.from_numpy(y_np)

        def torch_step():
            loss = crit_t(net_t(xt), yt)
            opt_t.zero_grad()
            loss.backward()
            opt_t.step()
            loss.item()

        out["PyTorch eager"] = torch_step
    return out


def bench_train(models: List[str], rounds: int, with_torch: bool) -> List[str]:
    lines = ["## Training step (same model, same batch; ratios of median step time)", "",
             "| model | mindtorch backward / MindSpore PyNative | mindtorch functional / MindSpore PyNative | "
             "backward / functional | mindtorch backward / MindSpore @jit | mindtorch backward / PyTorch eager | "
             "step ms (mindtorch backward, MS PyNative, PyTorch) |",
             "|---|---|---|---|---|---|---|"]
    for name in models:
        try:
            variants = train_variants(name, with_torch)
            steps = 3 if name == "ResNet18" else 10
            med = interleaved(variants, rounds, steps)
        except Exception as e:  # noqa: BLE001 - a benchmark row reports its failure
            lines.append(f"| {name} | failed: {type(e).__name__}: {str(e).splitlines()[0][:120]} |||||")
            continue
        b, f = med["mindtorch backward"], med["mindtorch functional"]
        pn, jit = med["MindSpore PyNative"], med.get("MindSpore @jit")
        pt = med.get("PyTorch eager")
        lines.append(
            f"| {name} | {b / pn:.2f}x | {f / pn:.2f}x | {b / f:.2f}x | {f'{b / jit:.2f}x' if jit else '-'} | "
            f"{f'{b / pt:.2f}x' if pt else '-'} | {b * 1e3:.1f}, {pn * 1e3:.1f}, {f'{pt * 1e3:.1f}' if pt else '-'} |")
        print(lines[-1], flush=True)
    return lines


# ------------------------------------------------------------------------------------------- graph mode
def graph_variants(model_name: str) -> Dict[str, Callable[[], None]]:
    """The manual's functional train step (value_and_grad + optimizer(grads)) of one mindtorch model in the
    manual's three ways: PyNative, `@ms.jit` on the step, `ms.set_context(mode=ms.GRAPH_MODE)` (set around each
    call so that the other variants stay PyNative)."""
    import mindspore as ms
    import numpy as np
    from models import SHAPES, torch_models

    import mindtorch.torch as mt

    shape, kind = SHAPES[model_name]
    rng = np.random.RandomState(0)
    x_np = rng.randint(0, 1000, shape).astype(np.int64) if kind == "tokens" else rng.randn(*shape).astype(np.float32)
    y_np = rng.randint(0, 10, (shape[0],)).astype(np.int64)
    xb, yb = mt.from_numpy(x_np), mt.from_numpy(y_np)
    out: Dict[str, Callable[[], None]] = {}

    def mt_step(form: str) -> Callable[[], None]:
        mt.manual_seed(0)
        net = getattr(torch_models(mt), model_name)()
        crit = mt.nn.CrossEntropyLoss()
        opt = mt.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
        if form == "graph":
            ms.set_context(mode=ms.GRAPH_MODE)  # value_and_grad reads the mode when it is built
        try:
            grad_fn = ms.value_and_grad(lambda d, t: crit(net(d), t), None, opt.parameters)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)

        def step(d: Any, t: Any) -> Any:
            loss, grads = grad_fn(d, t)
            opt(grads)
            return loss

        if form == "jit":
            stepj = ms.jit(step)
            return lambda: stepj(xb, yb).asnumpy()
        if form == "graph":
            def graph_step() -> None:
                ms.set_context(mode=ms.GRAPH_MODE)
                try:
                    step(xb, yb).asnumpy()
                finally:
                    ms.set_context(mode=ms.PYNATIVE_MODE)
            return graph_step
        return lambda: step(xb, yb).asnumpy()

    for form in ("pynative", "jit", "graph"):
        out[f"mindtorch {form}"] = mt_step(form)
    return out


def bench_graph(models: List[str], rounds: int) -> List[str]:
    lines = ["## Graph mode (the manual's functional train step; ratios of median step time to its PyNative run)", "",
             "mindtorch code runs eagerly under `@ms.jit` / GRAPH_MODE (docs/graph_mode.md): ~1.0x is the expected "
             "figure (the fallback's cost is a few microseconds per step).", "",
             "| model | mindtorch @ms.jit step / PyNative | mindtorch GRAPH_MODE step / PyNative | "
             "step ms (mindtorch PyNative) |",
             "|---|---|---|---|"]
    for name in models:
        try:
            variants = graph_variants(name)
            med = interleaved(variants, rounds, 3 if name == "ResNet18" else 10)
        except Exception as e:  # noqa: BLE001 - a benchmark row reports its failure
            lines.append(f"| {name} | failed: {type(e).__name__}: {str(e).splitlines()[0][:120]} |||")
            continue
        p = med["mindtorch pynative"]
        jit, graph = med["mindtorch jit"] / p, med["mindtorch graph"] / p
        lines.append(f"| {name} | {jit:.2f}x | {graph:.2f}x | {p * 1e3:.1f} |")
        print(lines[-1], flush=True)
    return lines


# ---------------------------------------------------------------------------------------------- dispatch
def _interleaved_cpu(variants: Dict[str, Callable[[], None]], rounds: int, steps: int) -> Dict[str, float]:
    """`interleaved` timed in CPU time of the calling thread (`time.thread_time`): the few microseconds a dispatch
    row compares drown in wall-clock noise when other processes share the cores (measured: 0.6x-2.5x swings for
    one row under load), while the calling thread's CPU time is what the dispatch layer costs. Kernel work done
    by MindSpore's worker threads is not counted, which can only make a large-tensor ratio look larger."""
    for fn in variants.values():
        for _ in range(20):
            fn()
    samples: Dict[str, List[float]] = {k: [] for k in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            t = time.thread_time()
            for _ in range(steps):
                fn()
            samples[name].append((time.thread_time() - t) / steps)
    return {k: statistics.median(v) for k, v in samples.items()}


def bench_dispatch(rounds: int) -> List[str]:
    """mindtorch's call on mindtorch tensors vs the raw `mindspore.mint` call on exact `mindspore.Tensor`s holding
    the same data (what a MindSpore user would write), small (16) and large (512*512) float32 tensors.

    The ratio includes everything mindtorch adds: the op table's dispatcher and type promotion, torch semantics
    MindSpore's kernels lack (relu's NaN), and MindSpore's own extra cost for any Tensor subclass argument (~2-4 us
    a call, measured interleaved against `class Sub(mindspore.Tensor): pass`). Rows with autograd have both sides'
    inputs require grad (MindSpore records the op: a training step's forward)."""
    import mindspore as ms
    import numpy as np
    from mindspore import mint

    import mindtorch.torch as mt
    import mindtorch.torch.nn.functional as F

    lines = ["## Per-op dispatch overhead (mindtorch call on mindtorch tensors / raw mindspore.mint call on "
             "mindspore.Tensor, same data; CPU time of the calling thread, medians)", "",
             "| op | size | autograd | mindtorch / raw mint | raw mint us (CPU) | mindtorch us (CPU) |",
             "|---|---|---|---|---|---|"]
    for size, grad in ((16, False), (512 * 512, False), (16, True), (512 * 512, True)):
        a_np, b_np = np.random.rand(size).astype(np.float32), np.random.rand(size).astype(np.float32)
        a_ms, b_ms = ms.Tensor(a_np), ms.Tensor(b_np)
        a_mt, b_mt = mt.from_numpy(a_np.copy()), mt.from_numpy(b_np.copy())
        if grad:  # both sides recorded by MindSpore's autograd (a training step's forward)
            for t in (a_ms, b_ms, a_mt, b_mt):
                t.requires_grad_(True)
        cases = {
            "torch.add(a, b)": (lambda: mint.add(a_ms, b_ms), lambda: mt.add(a_mt, b_mt)),
            "a + b": (lambda: mint.add(a_ms, b_ms), lambda: a_mt + b_mt),
            "x.mul(2.0)": (lambda: mint.mul(a_ms, 2.0), lambda: a_mt.mul(2.0)),
            "x.sum()": (lambda: mint.sum(a_ms), lambda: a_mt.sum()),
            "F.relu(x)": (lambda: mint.nn.functional.relu(a_ms), lambda: F.relu(a_mt)),
        }
        for op, (raw, ours) in cases.items():
            med = _interleaved_cpu({"raw": raw, "ours": ours}, 5 * rounds, 100 if size == 16 else 10)
            lines.append(f"| {op} | {size} | {'yes' if grad else 'no'} | {med['ours'] / med['raw']:.2f}x | "
                         f"{med['raw'] * 1e6:.1f} | {med['ours'] * 1e6:.1f} |")
            print(lines[-1], flush=True)
    return lines


# ------------------------------------------------------------------------------------------- import time
def bench_import(rounds: int) -> List[str]:
    """Fresh interpreters, interleaved, with Python's bytecode cache on as an installed package has it (an
    environment with PYTHONDONTWRITEBYTECODE=1 recompiles mindtorch's ~200 modules on every import: +0.55 s
    measured); a first import fills the cache."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["GLOG_v"] = "3"

    def once(stmt: str) -> float:
        r = subprocess.run([sys.executable, "-c", f"import time; t=time.perf_counter(); {stmt}; "
                            "print(time.perf_counter()-t)"], capture_output=True, text=True, env=env)
        return float(r.stdout.strip().splitlines()[-1])

    once("import mindtorch.torch")
    times: Dict[str, List[float]] = {"ms": [], "mt": []}
    for _ in range(rounds):
        times["ms"].append(once("import mindspore"))
        times["mt"].append(once("import mindtorch.torch"))
    ms_t, mt_t = statistics.median(times["ms"]), statistics.median(times["mt"])
    return ["## Import time", "", "| import mindspore | import mindtorch.torch | added by mindtorch |", "|---|---|---|",
            f"| {ms_t:.2f} s | {mt_t:.2f} s | {mt_t - ms_t:+.2f} s |"]


# ------------------------------------------------------------------------------------------------ memory
def rss_run(model: str, variant: str, steps: int) -> None:
    """Child process: train `steps` steps, print peak RSS (MB) and RSS at step 100 (or steps/2 if fewer) and at the
    last step."""
    import resource

    import psutil

    variants = train_variants(model, with_torch=False, with_jit=False, only=variant)
    fn = variants[variant]
    proc = psutil.Process()
    first = min(100, steps // 2)
    at = {}
    for i in range(1, steps + 1):
        fn()
        if i in (first, steps):
            at[i] = proc.memory_info().rss / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"RSS {peak:.1f} {at.get(first, 0):.1f} {at.get(steps, 0):.1f}")


def bench_memory(steps: int, models: List[str]) -> List[str]:
    lines = ["## Memory (separate processes; peak RSS ratio vs native MindSpore, RSS growth step 100 -> last)", "",
             "The leak check runs mindtorch for `steps` LeNet steps (1,000 by default) and a sixth of that for "
             "ResNet-18; native MindSpore, whose CPU convolution is far slower here, runs only enough steps for its "
             "peak (growth from step n/2 when it runs fewer than 200).", "",
             "| model | variant | steps | peak RSS MB | peak / MindSpore PyNative | RSS growth 100->last |",
             "|---|---|---|---|---|---|"]
    for model in [m for m in ("LeNet", "ResNet18") if m in models]:
        base = None
        for variant in ("MindSpore PyNative", "mindtorch backward", "mindtorch functional"):
            if variant == "MindSpore PyNative":
                n = 120 if model == "LeNet" else 12
            else:
                n = steps if model == "LeNet" else max(120, steps // 6)
            r = subprocess.run([sys.executable, __file__, "--rss", model, variant, str(n)], capture_output=True,
                               text=True, env={**os.environ, "GLOG_v": "3"})
            got = [ln for ln in r.stdout.splitlines() if ln.startswith("RSS ")]
            if not got:
                lines.append(f"| {model} | {variant} | {n} | failed: {r.stderr.strip().splitlines()[-1][:100]} | | |")
                continue
            peak, r100, rlast = map(float, got[-1].split()[1:])
            base = peak if variant == "MindSpore PyNative" else base
            growth = (rlast - r100) / r100 if r100 else 0.0
            ratio = f"{peak / base:.2f}x" if base else "-"
            lines.append(f"| {model} | {variant} | {n} | {peak:.0f} | {ratio} | {growth:+.1%} |")
            print(lines[-1], flush=True)
    return lines


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="train,transformer,graph,dispatch,import,dataloader,memory")
    ap.add_argument("--models", default="MLP,LeNet,LSTM,ResNet18")
    ap.add_argument("--out", default=str(HERE / "RESULTS.md"))
    ap.add_argument("--rss", nargs=3, metavar=("MODEL", "VARIANT", "STEPS"))
    args = ap.parse_args()

    import mindspore as ms

    ms.set_device("CPU")
    if args.rss:
        rss_run(args.rss[0], args.rss[1], int(args.rss[2]))
        return 0
    try:
        import torch  # noqa: F401

        with_torch = True
    except ImportError:
        with_torch = False
    rounds = 3 if args.quick else 7
    only = set(args.only.split(","))
    sections = [f"# mindtorch benchmark results\n\nMachine: {machine()}\n\n"
                f"Each ratio is measured within one run ({rounds} interleaved rounds, medians). "
                f"Below 1.0x means mindtorch is faster.\n"]
    if "train" in only:
        sections.append("\n".join(bench_train(args.models.split(","), rounds, with_torch)))
    if "transformer" in only and with_torch:
        r = subprocess.run([sys.executable, str(HERE / "bench_transformer.py"), "--rounds", str(rounds)],
                           capture_output=True, text=True)
        sections.append("## Transformer training step vs PyTorch (`bench_transformer.py`)\n\n"
                        + (r.stdout.strip() or r.stderr.strip()[-500:]))
    if "graph" in only:
        sections.append("\n".join(bench_graph(args.models.split(","), rounds)))
    if "dispatch" in only:
        sections.append("\n".join(bench_dispatch(rounds)))
    if "import" in only:
        sections.append("\n".join(bench_import(3 if args.quick else 5)))
    if "dataloader" in only and (HERE / "bench_dataloader.py").exists():
        r = subprocess.run([sys.executable, str(HERE / "bench_dataloader.py")], capture_output=True, text=True)
        sections.append("## DataLoader throughput\n\n" + (r.stdout.strip() or r.stderr.strip()[-500:]))
    if "memory" in only:
        sections.append("\n".join(bench_memory(200 if args.quick else 1000, args.models.split(","))))
    Path(args.out).write_text("\n\n".join(sections) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
