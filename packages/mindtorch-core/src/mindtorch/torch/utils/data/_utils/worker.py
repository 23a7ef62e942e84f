"""DataLoader worker processes (torch.utils.data._utils.worker): get_worker_info and the worker loop.

A worker receives `(task_idx, indices)` on its own index queue, fetches and collates the samples, and sends
`(task_idx, numpy-only batch)` back on its OWN result pipe (written by a sender thread, so the worker keeps
computing ahead). One pipe per worker, whose only write end lives in that worker: if the worker dies, even in
the middle of writing a batch, the main process reads EOF on that pipe at once instead of waiting forever for
the rest of a message (a shared multiprocessing.Queue can hang exactly there). The worker never launches a
MindSpore kernel itself (see collate.py); exceptions travel back as `ExceptionWrapper`s with the traceback.
"""
from __future__ import annotations

import os
import pickle
import queue
import random
import signal
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Callable, List, Optional

import numpy as np

from . import collate as _collate

MP_STATUS_CHECK_INTERVAL = 1.0  # seconds between liveness checks while waiting on a queue

__all__ = ["WorkerInfo", "get_worker_info", "ExceptionWrapper"]


@dataclass(frozen=True)
class WorkerInfo:
    """What `get_worker_info()` returns inside a worker: id, num_workers, seed, dataset (this worker's copy)."""

    id: int
    num_workers: int
    seed: int
    dataset: Any


_worker_info: Optional[WorkerInfo] = None


def get_worker_info() -> Optional[WorkerInfo]:
    """The current worker's WorkerInfo, or None in the main process."""
    return _worker_info


class KeyErrorMessage(str):
    """KeyError quotes its message; this str keeps the traceback readable."""

    def __repr__(self) -> str:
        return self


class ExceptionWrapper:
    """An exception caught in a worker, re-raised in the main process with the original traceback text."""

    def __init__(self, exc_info: Any = None, where: str = "in background") -> None:
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self) -> None:
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except TypeError:
            raise RuntimeError(msg) from None
        raise exception


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """Sent to persistent workers at a new epoch; echoed back so stale results can be told apart."""

    epoch: int


class _MapFetcher:
    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Callable, drop_last: bool) -> None:
        from ..dataset import TensorDataset

        self.dataset, self.auto_collation, self.collate_fn = dataset, auto_collation, collate_fn
        # TensorDataset + the default collate: one numpy take per tensor instead of a row per sample and a stack
        # (the same batch)
        self.gather = (isinstance(dataset, TensorDataset) and auto_collation
                       and collate_fn in (_collate.default_collate, _collate.collate_numpy))

    def fetch(self, index: Any) -> Any:
        if self.gather:
            batch = self.dataset._gather(index)
            return _collate.from_wire(batch) if self.collate_fn is _collate.default_collate else batch
        if self.auto_collation:
            getitems = getattr(self.dataset, "__getitems__", None)
            data = getitems(index) if getitems else [self.dataset[i] for i in index]
        else:
            data = self.dataset[index]
        return self.collate_fn(data)


class _IterableFetcher:
    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Callable, drop_last: bool) -> None:
        self.dataset, self.auto_collation, self.collate_fn = dataset, auto_collation, collate_fn
        self.drop_last = drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, index: Any) -> Any:
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if not data or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def create_fetcher(is_iterable: bool, dataset: Any, auto_collation: bool, collate_fn: Callable,
                   drop_last: bool) -> Any:
    cls = _IterableFetcher if is_iterable else _MapFetcher
    return cls(dataset, auto_collation, collate_fn, drop_last)


def wire_collate(collate_fn: Callable) -> Callable:
    """The numpy-only stage of `collate_fn`: the defaults collate straight to numpy payloads; a user
    collate_fn runs as given and any MindSpore tensor in its output is turned into numpy."""
    if collate_fn is _collate.default_collate:
        return _collate.collate_numpy
    if collate_fn is _collate.default_convert:
        return _collate.convert_numpy

    def run(batch: Any) -> Any:
        return _collate.to_wire(collate_fn(batch))

    return run


def _generate_state(base_seed: int, worker_id: int) -> List[int]:
    """torch's numpy seed for a worker (torch >= 1.9, so 1.12 too): numpy's SeedSequence hashing of
    [worker_id, base_seed low 32 bits, high 32 bits, 0] into 4 words, written out so that the same base seed
    gives the same numpy stream as torch."""
    init_a, mult_a, init_b, mult_b = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
    mix_mult_l, mix_mult_r, xshift, mask32 = 0xCA01F9DD, 0x4973F715, 16, 0xFFFFFFFF
    entropy = [worker_id, base_seed & mask32, base_seed >> 32, 0]
    hash_const_a = init_a

    def hash_a(value: int) -> int:
        nonlocal hash_const_a
        value = (value ^ hash_const_a) & mask32
        hash_const_a = (hash_const_a * mult_a) & mask32
        value = (value * hash_const_a) & mask32
        return (value ^ (value >> xshift)) & mask32

    def mix(x: int, y: int) -> int:
        result = ((mix_mult_l * x) & mask32) - ((mix_mult_r * y) & mask32)
        result &= mask32
        return (result ^ (result >> xshift)) & mask32

    pool = [hash_a(e) for e in entropy]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash_a(pool[i_src]))
    hash_const_b = init_b
    state = []
    for i in range(4):
        data_val = pool[i]
        data_val = (data_val ^ hash_const_b) & mask32
        hash_const_b = (hash_const_b * mult_b) & mask32
        data_val = (data_val * hash_const_b) & mask32
        state.append((data_val ^ (data_val >> xshift)) & mask32)
    return state


def _seed_worker(base_seed: int, worker_id: int) -> None:
    """torch's worker seeding: `random` and the torch generator get base_seed + worker_id, numpy gets
    _generate_state(base_seed, worker_id) (so forked workers do not share numpy's stream)."""
    seed = base_seed + worker_id
    random.seed(seed)
    np.random.seed(_generate_state(base_seed, worker_id))
    try:  # mindtorch's global generator (host-side numpy stream; no kernel launch)
        from .... import _random

        _random.default_generator.manual_seed(seed)
    except ImportError:
        pass


class _Sender:
    """Pickles and writes results to the worker's result pipe from a daemon thread (keeps the worker's main
    thread computing the next batch while the main process has not read the previous one yet)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.items: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def put(self, item: Any) -> None:
        self.items.put(item)

    def _run(self) -> None:
        while True:
            item = self.items.get()
            try:
                payload = pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # an unpicklable batch: report it instead of losing the task
                payload = pickle.dumps((item[0], ExceptionWrapper(where="in DataLoader worker (pickling the batch)")))
            try:
                self.conn.send_bytes(payload)
            except OSError:  # the main process closed its end: nothing more to do
                return

    def cancel_join_thread(self) -> None:
        """Exit without flushing (the thread is a daemon: the process just ends)."""


def _worker_loop(is_iterable: bool, dataset: Any, index_queue: Any, result_conn: Any, auto_collation: bool,
                 collate_fn: Callable, drop_last: bool, base_seed: int, init_fn: Optional[Callable], worker_id: int,
                 num_workers: int, parent_pid: int) -> None:
    """Body of one worker process (picklable target for both fork and spawn)."""
    global _worker_info
    # Ctrl-C reaches the whole process group: the main process handles it and shuts workers down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    seed = base_seed + worker_id
    _seed_worker(base_seed, worker_id)
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    where = f"in DataLoader worker process {worker_id}"
    data_queue = _Sender(result_conn)
    collate = wire_collate(collate_fn)
    init_exception = None
    fetcher = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = create_fetcher(is_iterable, dataset, auto_collation, collate, drop_last)
    except Exception:
        init_exception = ExceptionWrapper(where=where)
    iteration_end = False
    while True:
        try:
            r = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
        except queue.Empty:
            if os.getppid() != parent_pid:  # the main process died: nobody will read our results
                data_queue.cancel_join_thread()
                return
            continue
        if r is None:  # shutdown: the main process reads no more results, do not block flushing them
            data_queue.cancel_join_thread()
            return
        if isinstance(r, _ResumeIteration):
            iteration_end = False
            try:
                fetcher = create_fetcher(is_iterable, dataset, auto_collation, collate, drop_last)
            except Exception:
                init_exception = ExceptionWrapper(where=where)
            data_queue.put((r, None))
            continue
        idx, index = r
        if init_exception is not None:
            data, init_exception = init_exception, None
        elif iteration_end:
            data = _IterableDatasetStopIteration(worker_id)
        else:
            try:
                data = fetcher.fetch(index)
            except StopIteration:
                if not is_iterable:
                    data = ExceptionWrapper(where=where)
                else:
                    data = _IterableDatasetStopIteration(worker_id)
                    iteration_end = True
            except Exception:
                data = ExceptionWrapper(where=where)
        data_queue.put((idx, data))
