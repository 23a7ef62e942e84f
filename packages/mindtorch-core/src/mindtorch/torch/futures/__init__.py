"""torch.futures: Future, collect_all, wait_all.

A Future is a value that a producer completes once (`set_result` / `set_exception`); `wait()` blocks until then
(re-raising the exception), `then(cb)` chains a callback returning a new Future. mindtorch's asynchronous APIs
(torch.jit.fork, the collectives of torch.distributed, DDP communication hooks) complete their futures before
returning them, but user code that makes its own (a comm hook's `Future()` + `set_result`, a thread pool handing
results over) gets torch's blocking semantics.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Generic, List, Optional, TypeVar

__all__ = ["Future", "collect_all", "wait_all"]

T = TypeVar("T")
S = TypeVar("S")


class Future(Generic[T]):
    """torch.futures.Future (torch._C.Future): completed once, by `set_result` or `set_exception`."""

    def __init__(self, *, devices: Optional[List[Any]] = None) -> None:
        self._cond = threading.Condition()
        self._done = False
        self._value: Any = None
        self._error: Optional[BaseException] = None
        self._callbacks: List[Callable[["Future[T]"], None]] = []

    def done(self) -> bool:
        """Whether the future holds a value or an exception."""
        return self._done

    def wait(self) -> T:
        """Block until the future completes; its value (or its exception raised)."""
        with self._cond:
            while not self._done:
                self._cond.wait()
        if self._error is not None:
            raise self._error
        return self._value

    def value(self) -> T:
        """The value of a completed future (its exception raised); torch's error before completion."""
        if not self._done:
            raise RuntimeError("Future::value() called on an incomplete future")  # (torch asserts here)
        if self._error is not None:
            raise self._error
        return self._value

    def _complete(self, value: Any, error: Optional[BaseException]) -> None:
        with self._cond:
            if self._done:
                raise RuntimeError("Future can only be marked completed once.")
            self._value, self._error, self._done = value, error, True
            callbacks, self._callbacks = self._callbacks, []
            self._cond.notify_all()
        for cb in callbacks:
            cb(self)

    def set_result(self, result: T) -> None:
        """Complete the future with `result` (runs the callbacks added so far)."""
        self._complete(result, None)

    def set_exception(self, result: BaseException) -> None:
        """Complete the future with an exception that `wait()` / `value()` raise."""
        if not isinstance(result, BaseException):
            raise TypeError(f"{result} is of type {type(result)}, not an Exception.")
        self._complete(None, result)

    def add_done_callback(self, callback: Callable[["Future[T]"], None]) -> None:
        """Run `callback(self)` when the future completes (now if it has)."""
        with self._cond:
            if not self._done:
                self._callbacks.append(callback)
                return
        callback(self)

    def then(self, callback: Callable[["Future[T]"], S]) -> "Future[S]":
        """A new future completed with `callback(self)` once this one completes (its exception if it raises)."""
        out: Future[S] = Future()

        def run(fut: "Future[T]") -> None:
            try:
                out.set_result(callback(fut))
            except Exception as e:  # torch hands the callback's error to the chained future
                out.set_exception(e)

        self.add_done_callback(run)
        return out

    @classmethod
    def completed(cls, value: Any) -> "Future":
        """A future already holding `value` (mindtorch's blocking asynchronous APIs return these)."""
        fut: Future = cls()
        fut.set_result(value)
        return fut


def collect_all(futures: List[Future]) -> Future[List[Future]]:
    """A future completed with the list of `futures` once all of them are."""
    out: Future[List[Future]] = Future()
    remaining = [len(futures)]
    lock = threading.Lock()
    if not futures:
        out.set_result([])
        return out

    def one_done(_: Future) -> None:
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            out.set_result(list(futures))

    for f in futures:
        f.add_done_callback(one_done)
    return out


def wait_all(futures: List[Future]) -> List[Any]:
    """The values of all `futures` (waiting for each; the first exception raised)."""
    return [f.wait() for f in futures]
