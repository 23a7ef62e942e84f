"""torch.linalg: the op table's `linalg_*` entries under torch's public names (norm, inv, svd, qr, ...).

Decompositions and solvers run on the host with numpy (no autograd through them); norms, matrix_power and cross
are MindSpore ops (differentiable). See _ops/linalg.py.
"""
from typing import Any as _Any

from ._ops import _registry as _registry

globals().update({(k[len("linalg_"):] if k.startswith("linalg_") else k): v
                  for k, v in _registry.namespace("linalg").items()})


def __getattr__(name: str) -> _Any:
    from ._unsupported import unsupported

    raise unsupported("linalg", name)
