"""torch.special: the op table's entries registered with namespaces=("special",) (e.g. erf, expit, logit).

Table keys of special-only functions follow torch's native names (`special_<name>`) and are exposed without the
prefix, like torch.linalg and torch.fft.
"""
from typing import Any as _Any

from ._ops import _registry as _registry

globals().update({(k[len("special_"):] if k.startswith("special_") else k): v
                  for k, v in _registry.namespace("special").items()})


def __getattr__(name: str) -> _Any:
    from ._unsupported import unsupported

    raise unsupported("special", name)
