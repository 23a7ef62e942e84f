"""torch.distributed: a thin lazy forward to the separately installed `mindtorch.distributed`
(DESIGN.md §1). Without that package, any use raises ImportError naming the install command, and
`is_available()` returns False, as torch's does when built without distributed support."""
from __future__ import annotations

import importlib
from typing import Any, List

_MISSING = ("torch.distributed needs the mindtorch-distributed package: pip install mindtorch-distributed")


def _impl() -> Any:
    try:
        import mindtorch.distributed as impl
    except ImportError as e:
        raise ImportError(_MISSING) from e
    return impl


def is_available() -> bool:
    """True when mindtorch-distributed is installed and MindSpore's communication layer imports."""
    try:
        impl = _impl()
    except ImportError:
        return False
    return bool(impl.is_available())


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    impl = _impl()
    try:
        return getattr(impl, name)
    except AttributeError:
        # a submodule not imported yet (`from torch.distributed import run`, `torch.distributed.elastic`)
        try:
            return importlib.import_module(f"{impl.__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{impl.__name__}.{name}":
                raise
        raise


def __dir__() -> List[str]:
    try:
        return sorted(set(dir(_impl())) | {"is_available"})
    except ImportError:
        return ["is_available"]
