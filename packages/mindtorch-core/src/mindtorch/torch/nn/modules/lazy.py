"""torch.nn.modules.lazy: LazyModuleMixin, the base of modules whose parameter shapes come from the first input
(LazyLinear, LazyConv*, LazyBatchNorm*, ...)."""
from __future__ import annotations

import itertools
import warnings
from typing import Any, Dict, List

from ..._grad_mode import no_grad
from ..parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """A module whose parameters are `UninitializedParameter`s until its first forward: a forward pre-hook calls
    `initialize_parameters(*input)`, which materializes them from the input's shape, and then the module becomes
    `cls_to_become` (LazyLinear -> Linear). Loading a state dict materializes them from the checkpoint's shapes."""

    cls_to_become: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)  # type: ignore[attr-defined]
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)  # type: ignore[attr-defined]
        warnings.warn("Lazy modules are a new feature under heavy development so changes to the API or "
                      "functionality can happen at any moment.")

    def _save_to_state_dict(self, destination: Dict[str, Any], prefix: str, keep_vars: bool) -> None:
        # uninitialized entries are saved as themselves (torch: they round-trip into another lazy module)
        for name, param in self._parameters.items():  # type: ignore[attr-defined]
            if param is not None:
                destination[prefix + name] = param if (is_lazy(param) or keep_vars) else param.detach()
        for name, buf in self._buffers.items():  # type: ignore[attr-defined]
            if buf is not None and name not in self._non_persistent_buffers_set:  # type: ignore[attr-defined]
                destination[prefix + name] = buf if (is_lazy(buf) or keep_vars) else buf.detach()

    def _lazy_load_hook(self, state_dict: Dict[str, Any], prefix: str, local_metadata: Dict[str, Any], strict: bool,
                        missing_keys: List[str], unexpected_keys: List[str], error_msgs: List[str]) -> None:
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):  # type: ignore
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param):
                input_param = state_dict[key]
                if not is_lazy(input_param):  # a trained checkpoint: take its shapes
                    with no_grad():
                        param.materialize(tuple(input_param.shape))

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Materialize the parameters from the first input (each lazy layer defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {type(self).__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether some parameter or buffer of this module (not its children) is still uninitialized."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(),  # type: ignore[attr-defined]
                                                        self._buffers.values()))  # type: ignore[attr-defined]

    def _infer_parameters(self, module: Any, input: Any) -> None:
        module.initialize_parameters(*input)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")  # type: ignore
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self) -> None:
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. Run a dummy "
                           "forward pass to correctly initialize the modules")
