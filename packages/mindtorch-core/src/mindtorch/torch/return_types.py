"""torch.return_types: the named tuples returned by max(dim), min(dim), median(dim), sort, topk, ...

They print like torch's (`torch.return_types.max(\nvalues=tensor(...),\nindices=tensor(...))`) and unpack as
plain tuples.
"""
from __future__ import annotations

from collections import namedtuple
from typing import Any, Tuple

__all__ = [
    "max", "min", "median", "nanmedian", "mode", "kthvalue", "sort", "topk", "cummax", "cummin", "aminmax",
    "std_mean", "var_mean", "slogdet", "qr", "svd", "eig", "eigh", "lu_unpack", "frexp", "histogram",
]


def _make(name: str, fields: Tuple[str, ...]) -> type:
    base = namedtuple(name, fields)

    def __repr__(self: Any) -> str:
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"torch.return_types.{name}(\n{body})"

    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__str__": __repr__,
                               "__module__": "torch.return_types"})
    return cls


max = _make("max", ("values", "indices"))  # noqa: A001 - torch's names
min = _make("min", ("values", "indices"))  # noqa: A001
median = _make("median", ("values", "indices"))
nanmedian = _make("nanmedian", ("values", "indices"))
mode = _make("mode", ("values", "indices"))
kthvalue = _make("kthvalue", ("values", "indices"))
sort = _make("sort", ("values", "indices"))
topk = _make("topk", ("values", "indices"))
cummax = _make("cummax", ("values", "indices"))
cummin = _make("cummin", ("values", "indices"))
aminmax = _make("aminmax", ("min", "max"))
std_mean = _make("std_mean", ("std", "mean"))  # torch returns plain tuples for these two; kept for symmetry
var_mean = _make("var_mean", ("var", "mean"))
slogdet = _make("slogdet", ("sign", "logabsdet"))
qr = _make("qr", ("Q", "R"))
svd = _make("svd", ("U", "S", "V"))
eig = _make("eig", ("eigenvalues", "eigenvectors"))
eigh = _make("eigh", ("eigenvalues", "eigenvectors"))
lu_unpack = _make("lu_unpack", ("P", "L", "U"))
frexp = _make("frexp", ("mantissa", "exponent"))
histogram = _make("histogram", ("hist", "bin_edges"))
