"""What DataParallel and DistributedDataParallel share: a module wrapper whose state is the wrapped
module's, seen under the `module.` prefix as in torch (so checkpoints interchange with torch's)."""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Tuple


def module_parameters(module: Any) -> list:
    """The wrapped module's parameters (a mindtorch nn.Module, or a plain MindSpore Cell)."""
    if hasattr(module, "parameters") and callable(module.parameters):
        return list(module.parameters())
    return list(module.trainable_params())


def module_buffers(module: Any) -> list:
    buffers = getattr(module, "buffers", None)
    return list(buffers()) if callable(buffers) else []


class ModuleWrapper:
    """Forward passthrough to `self.module`, with torch's `module.`-prefixed state."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.forward(*inputs, **kwargs)

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)

    def parameters(self, recurse: bool = True) -> Iterator[Any]:
        return iter(module_parameters(self.module))

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> Iterator[Tuple[str, Any]]:
        for name, p in self.module.named_parameters():
            yield (f"{prefix}.module.{name}" if prefix else f"module.{name}"), p

    def buffers(self, recurse: bool = True) -> Iterator[Any]:
        return iter(module_buffers(self.module))

    def children(self) -> Iterator[Any]:
        yield self.module

    def state_dict(self, *args: Any, **kwargs: Any) -> Dict[str, Any]:
        state = self.module.state_dict(*args, **kwargs)
        return type(state)((f"module.{k}", v) for k, v in state.items())

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> Any:
        inner = type(state_dict)((k[len("module."):] if k.startswith("module.") else k, v)
                                 for k, v in state_dict.items())
        return self.module.load_state_dict(inner, strict=strict)

    def train(self, mode: bool = True) -> "ModuleWrapper":
        self.module.train(mode)
        return self

    def eval(self) -> "ModuleWrapper":
        return self.train(False)

    def zero_grad(self, set_to_none: bool = False) -> None:
        self.module.zero_grad(set_to_none=set_to_none)

    def to(self, *args: Any, **kwargs: Any) -> "ModuleWrapper":
        self.module.to(*args, **kwargs)
        return self

    @property
    def training(self) -> bool:
        return bool(getattr(self.module, "training", True))
