"""Op family: random (see _registry.py for how entries are written)."""
from __future__ import annotations
