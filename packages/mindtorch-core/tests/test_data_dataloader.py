"""DataLoader: same batches as real torch's, worker processes, failures, timeouts, shutdown (real processes)."""
import _thread
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info


class Samples:
    """Map-style dataset usable by both loaders: dict samples of numpy/python values (no framework tensors)."""

    def __init__(self, n=10):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x = np.arange(6, dtype=np.float32).reshape(2, 3) * (i + 1)
        return {"x": x, "label": i % 3, "w": float(i) / 2, "name": f"s{i}", "pair": (np.int64(i), np.uint8(i))}


class Pid(Dataset):
    def __init__(self, n=8, sleep=0.0):
        self.n, self.sleep = n, sleep

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(self.sleep)
        return os.getpid()


class Raises(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise ValueError(f"bad sample {i}")
        return i


class Dies(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            os._exit(3)
        return i


class Slow(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(30 if i == 2 else 0)
        return i


def _sharded_iterable(base):
    class Sharded(base):
        """Each worker yields its own slice, per get_worker_info (torch's documented pattern)."""

        def __init__(self, n):
            self.n = n

        def __iter__(self):
            info = (get_worker_info if base is IterableDataset else _ref_worker_info())()
            if info is None:
                return iter(range(self.n))
            return iter(range(info.id, self.n, info.num_workers))
    return Sharded


def _ref_worker_info():
    import torch as real_torch

    return real_torch.utils.data.get_worker_info


def _assert_gone(pids, timeout=5.0):
    deadline = time.monotonic() + timeout
    for pid in pids:
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not os.path.exists(f"/proc/{pid}"), f"worker {pid} left behind"
    assert not multiprocessing.active_children()


def _tree_equal(mine, ref):
    if hasattr(ref, "shape") and type(ref).__module__.startswith("torch"):
        assert_same(mine, ref, rtol=0, atol=0)
    elif isinstance(ref, dict):
        assert list(mine) == list(ref)
        for k in ref:
            _tree_equal(mine[k], ref[k])
    elif isinstance(ref, (list, tuple)):
        assert type(mine) is type(ref) and len(mine) == len(ref)
        for m, r in zip(mine, ref):
            _tree_equal(m, r)
    else:
        assert mine == ref


@pytest.mark.parametrize("num_workers", [0, 2])
@pytest.mark.parametrize("batch_size,drop_last", [(3, False), (3, True), (None, False)])
def test_batches_equal_torch(reftorch, num_workers, batch_size, drop_last):
    ds = Samples(10)
    mine = DataLoader(ds, batch_size=batch_size, shuffle=False, num_workers=num_workers, drop_last=drop_last)
    ref = reftorch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=False, num_workers=num_workers,
                                         drop_last=drop_last)
    got, expected = list(mine), list(ref)
    assert len(mine) == len(ref) == len(got) == len(expected)
    for m, r in zip(got, expected):
        _tree_equal(m, r)


def test_shuffle_is_a_seeded_permutation(reftorch):
    ds = Samples(10)

    def labels_of(seed):
        torch.manual_seed(seed)
        return [int(i) for b in DataLoader(ds, batch_size=4, shuffle=True) for i in (b["w"] * 2).tolist()]

    first = labels_of(0)
    assert sorted(first) == list(range(10)) and first != list(range(10))
    assert labels_of(0) == first
    g = torch.Generator().manual_seed(1)
    order = [int(v * 2) for b in DataLoader(ds, batch_size=4, shuffle=True, generator=g) for v in b["w"].tolist()]
    assert sorted(order) == list(range(10))


def test_tensor_dataset_yields_tensors(reftorch):
    x = np.random.default_rng(0).standard_normal((7, 3)).astype(np.float32)
    y = np.arange(7)
    mine = list(DataLoader(torch.utils.data.TensorDataset(torch.tensor(x), torch.tensor(y)), batch_size=3,
                           num_workers=2))
    ref = list(reftorch.utils.data.DataLoader(
        reftorch.utils.data.TensorDataset(reftorch.tensor(x), reftorch.tensor(y)), batch_size=3))
    for m, r in zip(mine, ref):
        assert isinstance(m[0], torch.Tensor)
        _tree_equal(m, r)


def test_iterable_dataset_sharded_by_worker_info(reftorch):
    for nw in (0, 2):
        mine = [b.tolist() for b in DataLoader(_sharded_iterable(IterableDataset)(11), batch_size=2, num_workers=nw)]
        ref = [b.tolist() for b in reftorch.utils.data.DataLoader(
            _sharded_iterable(reftorch.utils.data.IterableDataset)(11), batch_size=2, num_workers=nw)]
        assert mine == ref


def test_worker_info_and_init_fn():
    seen = multiprocessing.get_context("fork").Queue()

    class Info(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            info = get_worker_info()
            return np.array([info.id, info.num_workers, info.seed % 1000, int(info.dataset is self)])

    def init_fn(worker_id):
        seen.put(worker_id)

    rows = np.concatenate([b.numpy() for b in DataLoader(Info(), batch_size=1, num_workers=2, worker_init_fn=init_fn)])
    assert sorted({int(r) for r in rows[:, 0]}) == [0, 1] and set(rows[:, 1].tolist()) == {2}
    assert set(rows[:, 3].tolist()) == {1}
    assert sorted([seen.get(timeout=5), seen.get(timeout=5)]) == [0, 1]
    assert get_worker_info() is None


def test_worker_exception_is_reraised_with_traceback():
    pids = []
    with pytest.raises(ValueError) as err:
        for b in DataLoader(Raises(), batch_size=1, num_workers=2):
            pids.append(b)
    msg = str(err.value)
    assert "Caught ValueError in DataLoader worker process 1" in msg
    assert "Original Traceback" in msg and "bad sample 5" in msg
    assert multiprocessing.active_children() == []


def test_dead_worker_raises_within_bounded_time():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly"):
        list(DataLoader(Dies(), batch_size=1, num_workers=2))
    assert time.monotonic() - start < 10
    assert multiprocessing.active_children() == []


def test_timeout():
    loader = DataLoader(Slow(), batch_size=1, num_workers=1, timeout=0.5)
    it = iter(loader)
    assert next(it).tolist() == [0]
    assert next(it).tolist() == [1]
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.5 seconds"):
        next(it)
    assert time.monotonic() - start < 5
    _assert_gone([w.pid for w in it._workers])


def test_persistent_workers_reuse_processes():
    loader = DataLoader(Pid(6), batch_size=2, num_workers=2, persistent_workers=True)
    first = {int(p) for b in loader for p in b.tolist()}
    second = {int(p) for b in loader for p in b.tolist()}
    assert first == second and len(first) == 2 and os.getpid() not in first
    partial = iter(loader)  # an epoch abandoned half-way: the next epoch still yields exactly its batches
    next(partial)
    assert len([b for b in loader]) == 3
    it = loader._iterator
    del loader
    it._shutdown_workers()
    _assert_gone(first)


def test_exhausted_and_abandoned_iterators_leave_no_process():
    pids = {int(p) for b in DataLoader(Pid(6), batch_size=2, num_workers=2) for p in b.tolist()}
    _assert_gone(pids)
    it = iter(DataLoader(Pid(40), batch_size=2, num_workers=2))
    pids = {int(p) for p in next(it).tolist()}
    workers = [w.pid for w in it._workers]
    del it
    _assert_gone(set(workers) | pids)


def test_keyboard_interrupt_shuts_workers_down():
    # Python-level KeyboardInterrupt in the main process (see the next test for a real Ctrl-C).
    it = iter(DataLoader(Pid(40, sleep=0.2), batch_size=1, num_workers=2))
    next(it)
    workers = [w.pid for w in it._workers]
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    timer.join()
    _assert_gone(workers)


_CTRL_C_SCRIPT = """
import os, sys, time
import mindtorch.torch as torch
from mindtorch.torch.utils.data import DataLoader, Dataset
import mindspore, numpy as np
mindspore.ops.add(mindspore.Tensor(np.ones(2, np.float32)), 1).asnumpy()  # MindSpore's runtime is up

class Slow(Dataset):
    def __len__(self):
        return 10000
    def __getitem__(self, i):
        time.sleep(0.05)
        return i

it = iter(DataLoader(Slow(), batch_size=1, num_workers=2))
next(it)
print(" ".join(str(w.pid) for w in it._workers), flush=True)
for _ in it:
    pass
"""


def test_real_ctrl_c_leaves_no_worker_behind():
    # Measured: once MindSpore has run an op, SIGINT ends the process with SIGTERM (MindSpore's own handler)
    # instead of raising KeyboardInterrupt; the workers must still go away (they watch their parent).
    proc = subprocess.Popen([sys.executable, "-c", _CTRL_C_SCRIPT], stdout=subprocess.PIPE,
                            env=dict(os.environ, GLOG_v="3"))
    try:
        workers = [int(p) for p in proc.stdout.readline().split()]
        assert len(workers) == 2
        os.kill(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _assert_gone(workers, timeout=10)


def test_spawn_start_method(monkeypatch):
    monkeypatch.setenv("ENABLE_FORK_UTILS", "0")  # the manual's switch: 0 = spawn
    loader = DataLoader(Samples(4), batch_size=2, num_workers=1)
    it = iter(loader)
    assert it._ctx.get_start_method() == "spawn"
    batches = [next(it), next(it)]
    assert batches[1]["x"].shape == (2, 2, 3) and batches[1]["name"] == ["s2", "s3"]
    with pytest.raises(StopIteration):
        next(it)
    _assert_gone([w.pid for w in it._workers])


def test_argument_errors_match_torch(reftorch):
    ds = Samples(4)
    it_ds = _sharded_iterable(IterableDataset)(3)
    ref_it_ds = _sharded_iterable(reftorch.utils.data.IterableDataset)(3)
    cases = [
        ({"num_workers": -1}, ValueError), ({"timeout": -1}, ValueError),
        ({"persistent_workers": True}, ValueError), ({"shuffle": True, "sampler": [0, 1]}, ValueError),
        ({"batch_sampler": [[0]], "batch_size": 2}, ValueError), ({"batch_size": None, "drop_last": True}, ValueError),
    ]
    for kwargs, exc in cases:
        with pytest.raises(exc):
            reftorch.utils.data.DataLoader(ds, **kwargs)
        with pytest.raises(exc):
            DataLoader(ds, **kwargs)
    with pytest.raises(ValueError):
        reftorch.utils.data.DataLoader(ref_it_ds, shuffle=True)
    with pytest.raises(ValueError):
        DataLoader(it_ds, shuffle=True)


class KernelInWorker(Dataset):
    """Runs a MindSpore kernel inside the (forked) worker and returns a mindtorch tensor."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        import mindspore

        t = mindspore.ops.add(mindspore.Tensor(np.full(3, i, np.float32)), 1)
        t.__class__ = torch.Tensor
        return t


def test_mindspore_kernels_in_forked_workers():
    # A kernel launched in a child forked after the parent ran MindSpore ops hangs in MindSpore's default async
    # mode; mindtorch switches to blocking launch at import (torch/_ms.py), which makes forked workers safe.
    torch.ones(2)  # the parent has run ops
    batches = list(DataLoader(KernelInWorker(), batch_size=2, num_workers=2, timeout=30))
    ref = [np.stack([np.full(3, i, np.float32) + 1 for i in idx]) for idx in ([0, 1], [2, 3])]  # numpy reference
    for b, r in zip(batches, ref):
        assert isinstance(b, torch.Tensor) and b.dtype == torch.float32
        np.testing.assert_array_equal(b.numpy(), r)


def _sum_collate(batch):
    """A user collate_fn that builds mindtorch tensors itself (runs inside the workers)."""
    xs = np.stack([b["x"] for b in batch]).sum(axis=(1, 2))
    return torch.from_numpy(xs), [b["name"] for b in batch]


def _ref_sum_collate(batch):
    import torch as real_torch

    return real_torch.from_numpy(np.stack([b["x"] for b in batch]).sum(axis=(1, 2))), [b["name"] for b in batch]


@pytest.mark.parametrize("num_workers", [0, 2])
def test_samplers_and_custom_collate_equal_torch(reftorch, num_workers):
    ds = Samples(6)
    for kwargs in ({"sampler": [3, 1, 2, 5], "batch_size": 3}, {"batch_sampler": [[0, 2], [5], [1, 4, 3]]}):
        mine = list(DataLoader(ds, num_workers=num_workers, **kwargs))
        ref = list(reftorch.utils.data.DataLoader(ds, num_workers=num_workers, **kwargs))
        assert len(mine) == len(ref)
        for m, r in zip(mine, ref):
            _tree_equal(m, r)
    mine = list(DataLoader(ds, batch_size=4, num_workers=num_workers, collate_fn=_sum_collate))
    ref = list(reftorch.utils.data.DataLoader(ds, batch_size=4, num_workers=num_workers,
                                               collate_fn=_ref_sum_collate))
    for m, r in zip(mine, ref):
        assert isinstance(m[0], torch.Tensor)
        _tree_equal(list(m), list(r))
