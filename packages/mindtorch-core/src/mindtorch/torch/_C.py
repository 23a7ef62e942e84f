"""torch._C: PyTorch's C++ extension module is not part of mindtorch. The two entry points library code calls to
ask about its environment answer as torch does when nothing is tracing or logging; any other name raises an
AttributeError that says so."""
from __future__ import annotations

from typing import Any, Optional


def _get_tracing_state() -> Optional[Any]:
    """The active torch.jit tracer: never one (mindtorch's torch.jit.trace runs eagerly, see torch.jit)."""
    return None


def _log_api_usage_once(event: str) -> None:
    """torch's one-time API-usage logging hook; mindtorch logs no usage, so the event goes nowhere."""


def __getattr__(name: str) -> Any:
    raise AttributeError(f"torch._C.{name}: PyTorch's C++ internals are not part of mindtorch")
