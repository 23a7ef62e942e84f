"""torch.utils.data.DataLoader on Python/numpy worker processes (not mindspore.dataset: DESIGN.md §5).

Design
- Batches are assembled as numpy (collate.py) wherever they are built and become mindtorch tensors only in
  the main process, zero-copy. Workers therefore never launch MindSpore kernels. Measured on MindSpore 2.10
  CPU: in a child forked after the parent ran any op in MindSpore's default asynchronous mode, the first op
  hangs forever (creating host tensors and `asnumpy` are fine). User code that runs mindtorch ops inside
  `__getitem__` needs either `mindspore.runtime.launch_blocking()` called before the first op of the program,
  or spawn workers (`ENABLE_FORK_UTILS=0`).
- Start method: `multiprocessing_context` when given, else the `ENABLE_FORK_UTILS` environment variable of the
  mindtorch manual: `1` (default) = fork where the platform has it, `0` = spawn.
- Failure handling (torch's contract): an exception in a worker is re-raised in the main process as
  "Caught <Type> in DataLoader worker process <id>. Original Traceback ..."; a worker that dies is reported as
  `RuntimeError: DataLoader worker (pid(s) ...) exited unexpectedly` at once (EOF on its own result pipe, see
  _utils/worker.py) or within ~1 s (liveness poll); `timeout=` is honoured;
  KeyboardInterrupt, exhaustion, errors and garbage collection shut the workers down (terminate after a
  bounded wait), so no worker process outlives its iterator. Deviation from torch: after a worker error
  the iterator is finished (its workers are shut down) rather than able to continue.
"""
from __future__ import annotations

import atexit
import itertools
import multiprocessing
import multiprocessing.connection
import os
import pickle
import threading
import time
import warnings
import weakref
from typing import Any, Callable, Generic, List, Optional, TypeVar

from ._utils import collate as _collate
from ._utils import worker as _worker
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, _np_rng

T_co = TypeVar("T_co", covariant=True)

__all__ = ["DataLoader", "get_worker_info", "default_collate", "default_convert"]

get_worker_info = _worker.get_worker_info
default_collate = _collate.default_collate
default_convert = _collate.default_convert

_SHUTDOWN_WAIT = 2.0  # seconds a worker gets to exit after the shutdown signal before it is terminated


class _InfiniteConstantSampler(Sampler):
    """Index source for IterableDataset: None forever (the dataset decides when to stop)."""

    def __iter__(self):
        while True:
            yield None


def _default_context() -> Any:
    """fork unless ENABLE_FORK_UTILS=0 (the mindtorch manual's switch) or the platform lacks fork."""
    use_fork = os.environ.get("ENABLE_FORK_UTILS", "1").strip() not in ("0", "false", "False")
    if use_fork and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class DataLoader(Generic[T_co]):
    """torch.utils.data.DataLoader: iterate `dataset` in (shuffled) batches, optionally in worker processes.

    Each batch is `collate_fn([dataset[i] for i in batch_indices])`; with the default collate, a batch of
    `(x[3,32,32], label)` samples becomes `[Tensor[B,3,32,32], Tensor[B]]`. `pin_memory` is accepted and has no
    effect (one device per process, DESIGN.md §2).
    """

    def __init__(self, dataset: Dataset[T_co], batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Optional[Callable] = None, pin_memory: bool = False, drop_last: bool = False,
                 timeout: float = 0, worker_init_fn: Optional[Callable] = None, multiprocessing_context: Any = None,
                 generator: Any = None, *, prefetch_factor: Optional[int] = None, persistent_workers: bool = False,
                 pin_memory_device: str = "") -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor not in (None, 2):
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing.")
        if prefetch_factor is not None and prefetch_factor <= 0:
            raise AssertionError("prefetch_factor option should be positive")  # 1.12: assert prefetch_factor > 0
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = 2 if prefetch_factor is None else prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.generator = generator
        self.persistent_workers = persistent_workers

        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            if shuffle not in (False, None):
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                 f"but got batch_sampler={batch_sampler}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)  # type: ignore[arg-type]
            else:
                sampler = SequentialSampler(dataset)  # type: ignore[arg-type]
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = _collate.default_collate if self._auto_collation else _collate.default_convert
        self.collate_fn = collate_fn
        self._iterator: Optional[_BaseDataLoaderIter] = None
        self._initialized = True

    def __setattr__(self, attr: str, val: Any) -> None:
        # torch: these define the iteration and are fixed once the loader is built
        if self.__dict__.get("_initialized", False) and attr in (
                "batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def multiprocessing_context(self) -> Any:
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context: Any) -> None:
        # validated (and a start-method name resolved to its context) when set, with torch's errors
        if multiprocessing_context is not None:
            if self.num_workers == 0:
                raise ValueError("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={self.num_workers}")
            if isinstance(multiprocessing_context, (str, bytes)):
                valid_start_methods = multiprocessing.get_all_start_methods()
                if multiprocessing_context not in valid_start_methods:
                    raise ValueError("multiprocessing_context option should specify a valid start method in "
                                     f"{valid_start_methods!r}, but got "
                                     f"multiprocessing_context={multiprocessing_context!r}")
                multiprocessing_context = multiprocessing.get_context(multiprocessing_context)
            if not isinstance(multiprocessing_context, multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context object or a string "
                                "specifying the start method, but got "
                                f"multiprocessing_context={multiprocessing_context}")
        self._multiprocessing_context = multiprocessing_context

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self) -> "_BaseDataLoaderIter":
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def check_worker_number_rationality(self) -> None:
        """torch 1.12's warning when more workers are asked for than CPUs this process may run on."""
        if not self.num_workers:
            return
        max_num_worker_suggest, cpuset_checked = None, False
        if hasattr(os, "sched_getaffinity"):
            try:
                max_num_worker_suggest, cpuset_checked = len(os.sched_getaffinity(0)), True
            except Exception:  # as torch: fall back to the CPU count
                pass
        if max_num_worker_suggest is None:
            max_num_worker_suggest = os.cpu_count()
        if max_num_worker_suggest is not None and self.num_workers <= max_num_worker_suggest:
            return
        if max_num_worker_suggest is None:
            suggested = "DataLoader is not able to compute a suggested max number of worker in current system."
        else:
            cpuset_note = "" if cpuset_checked else " (`cpuset` is not taken into account)"
            suggested = (f"Our suggested max number of worker in current system is {max_num_worker_suggest}"
                         f"{cpuset_note}, which is smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. {suggested} "
                      "Please be aware that excessive worker creation might get DataLoader running slow or even "
                      "freeze, lower the worker number to avoid potential slowness/freeze if necessary.")

    def __iter__(self) -> "_BaseDataLoaderIter":
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None or self._iterator._shutdown:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def __len__(self) -> int:
        if self._is_iterable:
            length = len(self.dataset)  # type: ignore[arg-type]
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)

    def __del__(self) -> None:
        it = self.__dict__.get("_iterator")
        if it is not None:
            it._shutdown_workers()


class _BaseDataLoaderIter:
    def __init__(self, loader: DataLoader) -> None:
        self._dataset = loader.dataset
        self._is_iterable = loader._is_iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._collate_fn = loader.collate_fn
        self._timeout = loader.timeout
        self._generator = loader.generator
        self._sampler_iter = iter(self._index_sampler)
        # Drawn for every iterator, workers or not (as torch): the global RNG then advances the same way whatever
        # num_workers is, so a seeded shuffle gives the same order with and without workers.
        self._base_seed = int(_np_rng(loader.generator).integers(0, 2 ** 62))
        self._num_yielded = 0
        self._shutdown = False

    def __iter__(self) -> "_BaseDataLoaderIter":
        return self

    def _reset(self, loader: DataLoader, first_iter: bool = False) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0

    def _next_index(self) -> Any:
        return next(self._sampler_iter)

    def __next__(self) -> Any:
        data = self._next_data()
        self._num_yielded += 1
        return data

    def next(self) -> Any:
        """torch 1.12's Python-2 alias (removed in 1.13), still in the 1.12 cifar10 tutorial's
        `dataiter.next()`."""
        return self.__next__()

    def __len__(self) -> int:
        return len(self._index_sampler)

    def _shutdown_workers(self, wait: float = _SHUTDOWN_WAIT) -> None:
        self._shutdown = True


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        # In the main process collate_fn runs as given (no numpy round trip): a user collate_fn's tensors come
        # back as the same objects, and default_collate stacks tensors with autograd kept, as in torch.
        self._fetcher = _worker.create_fetcher(self._is_iterable, self._dataset, self._auto_collation,
                                               self._collate_fn, self._drop_last)

    def _next_data(self) -> Any:
        index = self._next_index()
        return self._fetcher.fetch(index)


# Live multi-process iterators, shut down at interpreter exit (a daemon worker must not outlive us either).
_LIVE_ITERATORS: "weakref.WeakSet[_MultiProcessingDataLoaderIter]" = weakref.WeakSet()


@atexit.register
def _shutdown_all() -> None:
    for it in list(_LIVE_ITERATORS):
        it._shutdown_workers()


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Worker processes + one result queue; batches are returned in sampler order (a reorder buffer)."""

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        self._persistent_workers = loader.persistent_workers
        ctx = loader.multiprocessing_context
        if ctx is None:
            ctx = _default_context()
        self._ctx = ctx
        self._result_conns: List[Any] = []  # one result pipe per worker (read ends)
        self._index_queues: List[Any] = []
        self._workers: List[Any] = []
        self._lock = threading.Lock()
        self._epoch = 0
        _LIVE_ITERATORS.add(self)
        try:
            for i in range(self._num_workers):
                index_queue = ctx.Queue()
                index_queue.cancel_join_thread()  # never block the main process on unread task indices
                reader, writer = ctx.Pipe(duplex=False)
                w = ctx.Process(
                    target=_worker._worker_loop,
                    args=(self._is_iterable, self._dataset, index_queue, writer,
                          self._auto_collation, self._collate_fn, self._drop_last, self._base_seed,
                          loader.worker_init_fn, i, self._num_workers, os.getpid()),
                    daemon=True)
                w.start()
                writer.close()  # the worker holds the only write end: its death means EOF here
                self._result_conns.append(reader)
                self._index_queues.append(index_queue)
                self._workers.append(w)
        except BaseException:
            self._shutdown_workers()
            raise
        self._reset(loader, first_iter=True)

    # ----------------------------------------------------------------------------------------- epochs
    def _reset(self, loader: DataLoader, first_iter: bool = False) -> None:
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info: dict = {}
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:  # persistent workers: tell every worker a new epoch starts, drop stale results
            self._epoch += 1
            marker = _worker._ResumeIteration(self._epoch)
            for q in self._index_queues:
                q.put(marker)
            pending = self._num_workers
            while pending:
                idx, _ = self._get_data()
                if isinstance(idx, _worker._ResumeIteration) and idx.epoch == self._epoch:
                    pending -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self) -> None:
        if self._tasks_outstanding >= self._prefetch_factor * self._num_workers:
            return
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return  # every worker has finished its iterable dataset
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_id,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    # -------------------------------------------------------------------------------------- receiving
    def _get_data(self) -> Any:
        """One (task_idx, data) from the workers; raises if a worker died or `timeout` passed."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait = _worker.MP_STATUS_CHECK_INTERVAL
            if deadline is not None:
                wait = max(0.0, min(wait, deadline - time.monotonic()))
            for conn in multiprocessing.connection.wait(self._result_conns, timeout=wait):
                try:
                    return pickle.loads(conn.recv_bytes())
                except (EOFError, OSError):  # the worker is gone (possibly in the middle of a message)
                    self._raise_dead(self._workers[self._result_conns.index(conn)])
            dead = [w for i, w in enumerate(self._workers) if self._workers_status[i] and not w.is_alive()]
            if dead:
                self._raise_dead(*dead)
            if deadline is not None and time.monotonic() >= deadline:
                self._shutdown_workers(wait=0.0)  # a worker is stuck: terminate now, do not wait for it
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")

    def _raise_dead(self, *workers: Any) -> None:
        for w in workers:
            w.join(timeout=1.0)  # let the exit code settle
        pids = ", ".join(str(w.pid) for w in workers)
        codes = ", ".join(str(w.exitcode) for w in workers)
        self._shutdown_workers()
        raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly (exit code(s) {codes})")

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except KeyboardInterrupt:
            self._shutdown_workers()
            raise

    def _next_data(self) -> Any:
        if self._shutdown:
            raise StopIteration
        while True:
            while self._rcvd_idx < self._send_idx:
                info = self._task_info[self._rcvd_idx]
                if len(info) == 2 or self._workers_status[info[0]]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:
                return self._process_data(self._task_info.pop(self._rcvd_idx)[1])
            idx, data = self._get_data()
            if isinstance(idx, _worker._ResumeIteration):
                continue  # a late echo from an earlier epoch
            self._tasks_outstanding -= 1
            if isinstance(data, _worker._IterableDatasetStopIteration):
                self._workers_status[data.worker_id] = False
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                self._task_info[idx] += (data,)
            else:
                del self._task_info[idx]
                return self._process_data(data)

    def _process_data(self, data: Any) -> Any:
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            self._shutdown_workers()
            data.reraise()
        return _collate.from_wire(data)

    # --------------------------------------------------------------------------------------- shutdown
    def _shutdown_workers(self, wait: float = _SHUTDOWN_WAIT) -> None:
        """Stop every worker: ask politely, wait up to `wait` seconds, then terminate/kill. Idempotent."""
        with self._lock:
            if self._shutdown:
                return
            self._shutdown = True
        _LIVE_ITERATORS.discard(self)
        for q in self._index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + wait
        for w in self._workers:
            w.join(timeout=max(0.0, deadline - time.monotonic()))
        for w in self._workers:
            if w.is_alive():
                w.terminate()
                w.join(timeout=1.0)
            if w.is_alive():
                w.kill()
                w.join(timeout=1.0)
        for q in self._index_queues:
            try:
                q.cancel_join_thread()
                q.close()
            except (OSError, ValueError):
                pass
        for conn in self._result_conns:
            conn.close()

    def __del__(self) -> None:
        if not self.__dict__.get("_shutdown", True):
            self._shutdown_workers()


