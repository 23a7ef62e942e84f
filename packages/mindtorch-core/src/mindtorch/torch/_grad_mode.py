"""Grad mode: no_grad, enable_grad, set_grad_enabled, inference_mode (torch/autograd/grad_mode.py).

All of them switch MindSpore's own executor flag (`set_enable_grad`, what `mindspore._no_grad` toggles), so
operations run under `no_grad()` are not recorded on MindSpore's C++ tape at all: their results have no
`grad_fn`, `requires_grad=False`, and cost nothing to record. Each works as a context manager and as a
decorator; `set_grad_enabled(False)` also works as a plain function call, as in torch.
"""
from __future__ import annotations

import functools
import inspect
import threading
from typing import Any, Callable, TypeVar

from . import _ms

__all__ = [
    "no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
    "is_inference_mode_enabled",
]

F = TypeVar("F", bound=Callable[..., Any])
_state = threading.local()


def is_grad_enabled() -> bool:
    """Whether operations are currently recorded for autograd (False inside `no_grad()`)."""
    return _ms.enable_grad_state()


def is_inference_mode_enabled() -> bool:
    return getattr(_state, "inference", 0) > 0


class _DecoratorContextManager:
    """A context manager that can also decorate functions and generator functions (torch's helper)."""

    def __call__(self, func: F) -> F:
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
                gen = func(*args, **kwargs)
                with self.clone():
                    try:
                        request = gen.send(None)
                    except StopIteration as e:
                        return e.value
                while True:
                    try:
                        response = yield request
                    except GeneratorExit:
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException:
                        with self.clone():
                            request = gen.throw(*__import__("sys").exc_info())
                        continue
                    with self.clone():
                        try:
                            request = gen.send(response)
                        except StopIteration as e:
                            return e.value
            return gen_wrapper  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)
        return wrapper  # type: ignore[return-value]

    def clone(self) -> "_DecoratorContextManager":
        return self.__class__()

    def __enter__(self) -> None:
        raise NotImplementedError(f"{type(self).__name__}.__enter__ must be defined by the subclass")

    def __exit__(self, *exc: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__}.__exit__ must be defined by the subclass")


class no_grad(_DecoratorContextManager):
    """Disable recording: results of operations inside do not require grad (`with torch.no_grad():`)."""

    def __init__(self) -> None:
        self.prev = True

    def __enter__(self) -> None:
        self.prev = _ms.enable_grad_state()
        _ms.set_enable_grad(False)

    def __exit__(self, *exc: Any) -> None:
        _ms.set_enable_grad(self.prev)


class enable_grad(_DecoratorContextManager):
    """Re-enable recording inside a `no_grad()` block."""

    def __init__(self) -> None:
        self.prev = True

    def __enter__(self) -> None:
        self.prev = _ms.enable_grad_state()
        _ms.enable_grad_recording()
        _ms.set_enable_grad(True)

    def __exit__(self, *exc: Any) -> None:
        _ms.set_enable_grad(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """`set_grad_enabled(mode)`: takes effect immediately (function form) and is undone on `__exit__`."""

    def __init__(self, mode: bool) -> None:
        self.prev = _ms.enable_grad_state()
        self.mode = bool(mode)
        if self.mode:
            _ms.enable_grad_recording()
        _ms.set_enable_grad(self.mode)

    def __enter__(self) -> None:
        pass  # already applied in __init__, as in torch

    def __exit__(self, *exc: Any) -> None:
        _ms.set_enable_grad(self.prev)

    def clone(self) -> "set_grad_enabled":
        return self.__class__(self.mode)

    def __call__(self, func: F) -> F:
        # Used as a decorator: undo the immediate effect of __init__, apply it per call instead.
        _ms.set_enable_grad(self.prev)
        return super().__call__(func)


class inference_mode(_DecoratorContextManager):
    """`inference_mode(mode=True)`: like `no_grad()` on MindSpore (there is no separate inference tensor kind;
    tensors made inside are ordinary tensors that do not require grad)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)
        self.prev = True

    def __enter__(self) -> None:
        self.prev = _ms.enable_grad_state()
        if self.mode:
            _state.inference = getattr(_state, "inference", 0) + 1
            _ms.set_enable_grad(False)

    def __exit__(self, *exc: Any) -> None:
        if self.mode:
            _state.inference -= 1
        _ms.set_enable_grad(self.prev)

    def clone(self) -> "inference_mode":
        return self.__class__(self.mode)
