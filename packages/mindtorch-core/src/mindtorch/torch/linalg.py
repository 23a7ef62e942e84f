"""torch.linalg: the op table's `linalg_*` entries under torch's public names (norm, inv, svd, qr, ...).

inv, solve, cholesky, lu (and their _ex forms), the triangular solvers, matrix_exp, products and norms are
differentiable; det, slogdet, svd, qr, eigh, pinv, lstsq, matrix_rank, eig/eigvals run on the host with numpy
without autograd. See _ops/linalg.py. `LinAlgError` (a RuntimeError) is raised for singular / non-positive-definite
input as torch does.
"""
from typing import Any as _Any

from ._ops import _registry as _registry
from ._ops.linalg import LinAlgError  # noqa: F401  (torch.linalg.LinAlgError)

globals().update({(k[len("linalg_"):] if k.startswith("linalg_") else k): v
                  for k, v in _registry.namespace("linalg").items()})


def __getattr__(name: str) -> _Any:
    from ._unsupported import unsupported

    raise unsupported("linalg", name)
