"""torch._six (torch 1.12): the Python 2/3 shims old scripts and libraries still import."""
import math
import sys
from typing import Any

inf = math.inf
nan = math.nan
string_classes = (str, bytes)
PY37 = sys.version_info >= (3, 7)


def with_metaclass(meta: type, *bases: Any) -> type:
    """A base class whose subclasses are created by `meta` (`class A(with_metaclass(Meta, Base))`)."""
    return meta("temporary_class", bases, {})
