"""How tensors print: torch's `tensor([...], dtype=...)` layout."""
from __future__ import annotations

from typing import Any


def tensor_repr(t: Any) -> str:
    """Placeholder until the printing work lands: numpy's layout inside torch's wrapper."""
    from . import _dtype as D

    body = str(t.__array__()) if t.numel() else "[]"
    return f"tensor({body}, dtype={D.torch_name(t.dtype)})"
