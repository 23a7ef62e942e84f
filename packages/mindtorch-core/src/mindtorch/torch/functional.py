"""torch.functional: the module torch 1.12 defines its Python-level functions in (einsum, split, norm, meshgrid,
stft, unique, ...). Code imports them from here (`from torch.functional import einsum`); they are the same
objects as the top-level `torch.<name>`."""
from typing import Any as _Any

from . import _ops as _ops  # noqa: F401  (fills the op table)
from ._ops._registry import FUNCTIONS as _F
from ._ops.shape import broadcast_shapes

# torch 1.12's torch/functional.py __all__
__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "align_tensors", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "histogramdd", "istft", "lu", "norm",
    "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot", "unique", "unique_consecutive",
]

atleast_1d, atleast_2d, atleast_3d = _F["atleast_1d"], _F["atleast_2d"], _F["atleast_3d"]
broadcast_tensors, cartesian_prod, block_diag = _F["broadcast_tensors"], _F["cartesian_prod"], _F["block_diag"]
cdist, chain_matmul, einsum, histogramdd = _F["cdist"], _F["chain_matmul"], _F["einsum"], _F["histogramdd"]
istft, lu, norm, meshgrid, split, stft = _F["istft"], _F["lu"], _F["norm"], _F["meshgrid"], _F["split"], _F["stft"]
tensordot, unique, unique_consecutive = _F["tensordot"], _F["unique"], _F["unique_consecutive"]
pca_lowrank, svd_lowrank = _F["pca_lowrank"], _F["svd_lowrank"]


def align_tensors(*tensors: _Any) -> _Any:
    """Named tensors only; torch 1.12 raises this same error."""
    raise RuntimeError("`align_tensors` not yet implemented.")
