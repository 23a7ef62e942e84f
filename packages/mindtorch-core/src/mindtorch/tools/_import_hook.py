"""The `sys.meta_path` finder that makes `import torch` mean `import mindtorch.torch`.

`torch`, `torch.*`, `torchvision(.*)` and `torchaudio(.*)` resolve to the `mindtorch.*` module of the same
path. The alias module object IS the mindtorch module (registered in `sys.modules` under both names), so
`torch.nn is mindtorch.torch.nn` and state is never duplicated.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Optional, Sequence

# alias top-level name -> (mindtorch module, distribution that provides it)
ALIASES = {
    "torch": ("mindtorch.torch", "mindtorch-core"),
    "torchvision": ("mindtorch.torchvision", "mindtorch-vision"),
    "torchaudio": ("mindtorch.torchaudio", "mindtorch-audio"),
}


# submodules that live in another distribution than their parent's alias: `torch.distributed` itself is
# mindtorch-core's lazy forward, its submodules (`torch.distributed.algorithms.ddp_comm_hooks`, `.run`) are
# mindtorch-distributed's modules
SUBMODULE_ALIASES = {"torch.distributed.": "mindtorch.distributed."}


def _target(fullname: str) -> Optional[str]:
    for prefix, base in SUBMODULE_ALIASES.items():
        if fullname.startswith(prefix):
            return base + fullname[len(prefix):]
    top, _, rest = fullname.partition(".")
    if top not in ALIASES:
        return None
    base = ALIASES[top][0]
    return f"{base}.{rest}" if rest else base


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, alias: str, target: str) -> None:
        self.alias, self.target = alias, target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        top = self.alias.partition(".")[0]
        try:
            module = importlib.import_module(self.target)
        except ModuleNotFoundError as e:
            base, dist = ALIASES[top]
            if e.name and (e.name == base or e.name == "mindtorch" or base.startswith(e.name + ".")):
                raise ModuleNotFoundError(
                    f"No module named '{self.alias}': the import hook maps it to '{self.target}', which is "
                    f"provided by the '{dist}' distribution; install it with `pip install {dist}`",
                    name=self.alias) from e
            if e.name == self.target:
                raise ModuleNotFoundError(
                    f"No module named '{self.alias}': mindtorch does not provide '{self.target}' (yet)",
                    name=self.alias) from e
            raise
        self._original = {k: module.__dict__.get(k) for k in ("__spec__", "__loader__", "__package__")}
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The module is the already-executed mindtorch module: undo importlib's attribute stamping so it keeps
        # its real identity (relative imports, reload, pickling by name), and register the alias name.
        module.__dict__.update(self._original)
        sys.modules[self.alias] = module


class MindTorchFinder(importlib.abc.MetaPathFinder):
    """Maps torch/torchvision/torchaudio imports to mindtorch.*."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]] = None,
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        tgt = _target(fullname)
        if tgt is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(fullname, tgt), is_package=True)
        return spec


_FINDER = MindTorchFinder()


def _is_alias_entry(name: str) -> bool:
    return name.partition(".")[0] in ALIASES


def enable() -> None:
    """Install the finder first on sys.meta_path and drop any real torch modules already imported."""
    if _FINDER not in sys.meta_path:
        for name in [n for n in sys.modules if _is_alias_entry(n)]:
            mod = sys.modules[name]
            if not getattr(mod, "__name__", "").startswith("mindtorch."):
                _saved_real[name] = sys.modules.pop(name)
        sys.meta_path.insert(0, _FINDER)


def disable() -> None:
    """Remove the finder and the aliased entries so that real PyTorch can be imported next to mindtorch."""
    while _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name in [n for n in sys.modules if _is_alias_entry(n)]:
        if getattr(sys.modules[name], "__name__", "").startswith("mindtorch."):
            del sys.modules[name]
    sys.modules.update(_saved_real)
    _saved_real.clear()


def is_enabled() -> bool:
    return _FINDER in sys.meta_path


_saved_real: dict = {}
