"""Small torch-level checks (torch/__init__.py's own helpers in PyTorch)."""
from __future__ import annotations

from typing import Any


def _assert(condition: Any, message: str) -> None:
    """torch._assert: raise AssertionError(message) unless `condition` is true (a function, so it also runs under
    `python -O`, and torch.fx can trace it); a tensor condition must have one element (bool())."""
    if not condition:
        raise AssertionError(message)
