"""A restricted unpickler for dataset files that are pickles (CIFAR batches): numpy arrays and builtins only.

The CIFAR archives are Python pickles; `pickle.load` on a tampered file would run arbitrary code. Only the
globals needed to rebuild numpy arrays are allowed.
"""
from __future__ import annotations

import pickle
from typing import Any, BinaryIO

_ALLOWED = {
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("_codecs", "encode"),
    ("builtins", "bytearray"),
}


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"global '{module}.{name}' is not allowed in a dataset file")


def load(f: BinaryIO, path: str, encoding: str = "latin1") -> Any:
    """Unpickle dataset data from `f`; errors name `path`."""
    try:
        return _RestrictedUnpickler(f, encoding=encoding).load()
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError) as e:
        raise RuntimeError(f"{path} is not a valid dataset pickle (corrupt or tampered): {e}") from e
