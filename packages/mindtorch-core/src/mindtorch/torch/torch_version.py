"""`torch.__version__`: a str that compares as a version number, as torch's `TorchVersion` does.

Scripts gate features on it (`if torch.__version__ >= "1.10"`); a plain str compares "1.12.1" < "1.9".
"""
from __future__ import annotations

import re
from typing import Any, Tuple

__all__ = ["TorchVersion"]

_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "rc": 2, "c": 2}
_VERSION = re.compile(r"v?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|rc|c)[-_.]?(\d*))?")


def _key(v: Any) -> Tuple[tuple, tuple, tuple]:
    """(release numbers, pre-release rank, local segment), ordered as PEP 440 orders versions: a final release
    after its pre-releases, `1.12.1+cpu` after `1.12.1`."""
    if isinstance(v, (tuple, list)):
        return tuple(int(x) for x in v), (3,), ()
    if isinstance(v, (int, float)):
        return _key(str(v))
    if not isinstance(v, str):
        raise TypeError(f"can't compare a version with {type(v).__name__}")
    public, _, local = v.strip().partition("+")
    m = _VERSION.fullmatch(public)
    if m is None:
        raise ValueError(f"Invalid version: '{v}'")
    release = tuple(int(x) for x in m.group(1).split("."))
    pre = (_PRE[m.group(2)], int(m.group(3) or 0)) if m.group(2) else (3,)
    # local parts: numbers sort after words (PEP 440)
    loc = tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in re.split(r"[._-]", local)) if local else ()
    return release, pre, loc


def _cmp(a: Any, b: Any) -> int:
    (ra, pa, la), (rb, pb, lb) = _key(a), _key(b)
    n = max(len(ra), len(rb))
    ka = (ra + (0,) * (n - len(ra)), pa, la)  # "1.12" == "1.12.0"
    kb = (rb + (0,) * (n - len(rb)), pb, lb)
    return (ka > kb) - (ka < kb)


class TorchVersion(str):
    """A version string comparable with version strings, tuples of ints and numbers."""

    def __gt__(self, other: Any) -> bool:
        return _cmp(self, other) > 0

    def __ge__(self, other: Any) -> bool:
        return _cmp(self, other) >= 0

    def __lt__(self, other: Any) -> bool:
        return _cmp(self, other) < 0

    def __le__(self, other: Any) -> bool:
        return _cmp(self, other) <= 0

    def __eq__(self, other: Any) -> bool:
        try:
            return _cmp(self, other) == 0
        except (TypeError, ValueError):
            return False

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__
