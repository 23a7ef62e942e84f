"""torch.multiprocessing.spawn: run fn(i, *args) in nprocs processes and surface a child's failure in the parent."""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import sys
import traceback
from typing import Any, Callable, List, Optional, Tuple


class ProcessException(Exception):
    __slots__ = ("error_index", "error_pid")

    def __init__(self, msg: str, error_index: int, pid: int) -> None:
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self) -> Any:
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A child raised: the message carries its traceback."""


class ProcessExitedException(ProcessException):
    """A child exited with a non-zero code or a signal."""

    __slots__ = ("exit_code", "signal_name")

    def __init__(self, msg: str, error_index: int, error_pid: int, exit_code: int,
                 signal_name: Optional[str] = None) -> None:
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self) -> Any:
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


def _wrap(fn: Callable, i: int, args: Tuple, error_queue: Any) -> None:
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass  # the parent is shutting the group down
    except Exception:  # noqa: BLE001 - every failure is reported to the parent
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class ProcessContext:
    """The spawned processes; `join()` waits, and raises for the first child that failed (terminating the rest)."""

    def __init__(self, processes: List[Any], error_queues: List[Any]) -> None:
        self.error_queues = error_queues
        self.processes = processes
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self) -> List[int]:
        return [int(p.pid) for p in self.processes]

    def join(self, timeout: Optional[float] = None) -> bool:
        """True when every process has exited successfully; False if some still run after `timeout`."""
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(self.sentinels.keys(), timeout=timeout)
        error_index = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            process = self.processes[index]
            process.join()
            if process.exitcode != 0:
                error_index = index
                break
        if error_index is None:
            return not self.sentinels
        for process in self.processes:  # one failed: stop the others
            if process.is_alive():
                process.terminate()
            process.join()
        failed = self.processes[error_index]
        if self.error_queues[error_index].empty():
            code = failed.exitcode
            if code < 0:
                name = signal.Signals(-code).name
                raise ProcessExitedException(f"process {error_index} terminated with signal {name}", error_index,
                                             failed.pid, code, name)
            raise ProcessExitedException(f"process {error_index} terminated with exit code {code}", error_index,
                                         failed.pid, code)
        original = self.error_queues[error_index].get()
        msg = f"\n\n-- Process {error_index} terminated with the following error:\n{original}"
        raise ProcessRaisedException(msg, error_index, failed.pid)


def start_processes(fn: Callable, args: Tuple = (), nprocs: int = 1, join: bool = True, daemon: bool = False,
                    start_method: str = "spawn") -> Optional[ProcessContext]:
    """Start `nprocs` processes running fn(i, *args) with the given start method."""
    ctx = multiprocessing.get_context(start_method)
    error_queues, processes = [], []
    for i in range(nprocs):
        error_queue = ctx.SimpleQueue()
        process = ctx.Process(target=_wrap, args=(fn, i, args, error_queue), daemon=daemon)
        process.start()
        error_queues.append(error_queue)
        processes.append(process)
    context = ProcessContext(processes, error_queues)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn: Callable, args: Tuple = (), nprocs: int = 1, join: bool = True, daemon: bool = False,
          start_method: str = "spawn") -> Optional[ProcessContext]:
    """torch.multiprocessing.spawn: `fn(i, *args)` for i in range(nprocs) in fresh processes; with join, waits and
    raises ProcessRaisedException (the child's traceback) if one fails. Returns the ProcessContext otherwise."""
    if start_method != "spawn":
        import warnings

        warnings.warn(f"This method only supports start_method=spawn (got: {start_method}).\nTo use a different "
                      "start_method use:\n\t\t torch.multiprocessing.start_processes(...)", FutureWarning)
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
