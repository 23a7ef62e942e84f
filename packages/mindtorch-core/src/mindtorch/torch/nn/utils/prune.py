"""torch.nn.utils.prune: torch 1.12's pruning by reparametrization.

Pruning `module.<name>` moves the parameter to `<name>_orig`, stores the binary mask in the buffer `<name>_mask`,
and sets `module.<name> = <name>_mask * <name>_orig` as a plain tensor attribute, recomputed by a forward pre-hook
(the pruning method object itself) before every call. Pruning the same tensor again combines the masks through a
`PruningContainer`; `remove` makes the pruning permanent (`<name>` is a Parameter again, holding the pruned values).

Masks are built out of place and then written with indexed assignment on fresh tensors: in-place writes through a
view (torch's `mask.view(-1)[idx] = 0`) are not reliable on MindSpore CPU (DESIGN.md §2).
"""
from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, Dict, Iterator, Optional, Tuple

from ..._ops import _registry
from ..modules.module import rename_parameters_in_place
from .convert_parameters import parameters_to_vector

__all__ = [
    "BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured", "L1Unstructured",
    "RandomStructured", "LnStructured", "CustomFromMask", "identity", "random_unstructured", "l1_unstructured",
    "random_structured", "ln_structured", "global_unstructured", "custom_from_mask", "remove", "is_pruned",
]

_F = _registry.FUNCTIONS  # torch's functions by name (ones_like, topk, rand, ...), filled by the op table


class BasePruningMethod(ABC):
    """Abstract base class for new pruning techniques: subclasses define `compute_mask` and `PRUNING_TYPE`
    ('unstructured', 'structured' (with a `dim` attribute) or 'global')."""

    _tensor_name: str
    PRUNING_TYPE: str

    def __call__(self, module: Any, inputs: Any) -> None:
        """Forward pre-hook: re-apply the mask (`module.<name> = <name>_mask * <name>_orig`)."""
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        """The mask for tensor `t`, starting from `default_mask` (the mask of previous pruning iterations)."""

    def apply_mask(self, module: Any) -> Any:
        """`<name>_mask * <name>_orig` (the mask cast to the parameter's dtype)."""
        assert self._tensor_name is not None, f"Module {module} has to be pruned"  # this gets set in apply()
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module: Any, name: str, *args: Any, importance_scores: Any = None, **kwargs: Any) -> Any:
        """Add the pruning reparametrization of `module.<name>` (or combine with an existing one)."""

        def _get_composite_method(cls: Any, module: Any, name: str, *args: Any, **kwargs: Any) -> Any:
            # A tensor already pruned has one pruning hook: combine the new method with it in a container.
            old_method = None
            found = 0
            hooks_to_remove = []
            for k, hook in module._forward_pre_hooks.items():
                if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                    old_method = hook
                    hooks_to_remove.append(k)
                    found += 1
            assert found <= 1, (f"Avoid adding multiple pruning hooks to the same tensor {name} of module {module}. "
                                "Use a PruningContainer.")
            for k in hooks_to_remove:
                del module._forward_pre_hooks[k]

            method = cls(*args, **kwargs)
            method._tensor_name = name
            if old_method is not None:
                if isinstance(old_method, PruningContainer):
                    old_method.add_pruning_method(method)
                    method = old_method
                elif isinstance(old_method, BasePruningMethod):
                    container = PruningContainer(old_method)
                    container.add_pruning_method(method)
                    method = container
            return method

        method = _get_composite_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is not None:
            assert importance_scores.shape == orig.shape, (
                f"importance_scores should have the same shape as parameter {name} of {module}")
        else:
            importance_scores = orig

        if not isinstance(method, PruningContainer):
            # First pruning of this tensor: the parameter moves to `<name>_orig`.
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            # Keep the MindSpore name equal to the torch path (`weight_orig`), as every registered parameter.
            rename_parameters_in_place(module)
            default_mask = _F["ones_like"](orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()

        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception as e:
            if not isinstance(method, PruningContainer):
                orig = getattr(module, name + "_orig")
                module.register_parameter(name, orig)
                del module._parameters[name + "_orig"]
                rename_parameters_in_place(module)
            raise e
        return method

    def prune(self, t: Any, default_mask: Any = None, importance_scores: Any = None) -> Any:
        """`t` times the mask computed from `importance_scores` (default: `t`), without touching any module."""
        if importance_scores is not None:
            assert importance_scores.shape == t.shape, "importance_scores should have the same shape as tensor t"
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else _F["ones_like"](t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Any) -> None:
        """Make the pruning permanent: `<name>` becomes the `<name>_orig` Parameter holding the pruned values;
        `<name>_orig` and `<name>_mask` are removed."""
        assert self._tensor_name is not None, f"Module {module} has to be pruned before pruning can be removed"
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.detach()
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)
        rename_parameters_in_place(module)


class PruningContainer(BasePruningMethod):
    """A sequence of pruning methods applied iteratively to the same tensor; each new method prunes only what
    the previous ones kept."""

    def __init__(self, *args: Any) -> None:
        self._pruning_methods: Tuple[BasePruningMethod, ...] = tuple()
        if not isinstance(args, Iterable):  # only 1 item
            self._tensor_name = args._tensor_name
            self.add_pruning_method(args)
        elif len(args) == 1:  # only 1 item in a tuple
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:  # manual construction from a list of methods
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method: Any) -> None:
        """Append a pruning method acting on the same tensor."""
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        elif method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on "
                             f"the parameter named '{self._tensor_name}' to PruningContainer {self}."
                             f" Found '{method._tensor_name}'")
        self._pruning_methods += (method,)  # type: ignore[operator]

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Iterator[BasePruningMethod]:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: int) -> BasePruningMethod:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        """Apply the latest method to the entries (unstructured) or channels (structured) the current mask keeps,
        and combine its mask with `default_mask`."""

        def _combine_masks(method: Any, t: Any, mask: Any) -> Any:
            new_mask = mask.to(dtype=t.dtype).clone()
            if method.PRUNING_TYPE == "unstructured":
                # Only the unpruned units (the entries where mask == 1) are pruned further.
                slc: Any = mask == 1
            elif method.PRUNING_TYPE == "structured":
                if not hasattr(method, "dim"):
                    raise AttributeError("Pruning methods of PRUNING_TYPE "
                                         '"structured" need to have the attribute `dim` defined.')
                n_dims = t.dim()
                dim = method.dim
                if dim < 0:
                    dim = n_dims + dim
                if dim < 0:
                    raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
                # The channels along `dim` with at least one unpruned entry.
                keep_channel = mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
                slc = [slice(None)] * n_dims
                slc[dim] = keep_channel
            elif method.PRUNING_TYPE == "global":
                slc = [slice(None)] * len(t.shape)
            else:
                raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
            if isinstance(slc, list):
                slc = tuple(slc)
            partial_mask = method.compute_mask(t[slc], default_mask=mask[slc])
            new_mask[slc] = partial_mask.to(dtype=new_mask.dtype)
            return new_mask

        method = self._pruning_methods[-1]
        return _combine_masks(method, t, default_mask)


class Identity(BasePruningMethod):
    """Utility pruning method that does not prune any units but generates the pruning parametrization with a
    mask of ones."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return default_mask

    @classmethod
    def apply(cls, module: Any, name: str) -> Any:  # type: ignore[override]
        return super().apply(module, name)


def _mask_flat_indices(default_mask: Any, indices: Any) -> Any:
    """A copy of `default_mask` with the entries at flat positions `indices` set to 0."""
    flat = default_mask.reshape(-1).clone()
    flat[indices] = 0
    return flat.reshape(default_mask.shape)


def _unstructured_mask(amount: Any, t: Any, default_mask: Any, scores: Any, largest: bool) -> Any:
    """`default_mask` with the `amount` units of t whose `scores()` are largest (or smallest) zeroed; `scores` is
    only called when something is pruned (the random method draws from the RNG there, as torch)."""
    tensor_size = t.nelement()
    nparams_toprune = _compute_nparams_toprune(amount, tensor_size)
    _validate_pruning_amount(nparams_toprune, tensor_size)
    if nparams_toprune == 0:  # k=0 not supported by topk
        return default_mask.clone()
    topk = scores().reshape(-1).topk(k=nparams_toprune, largest=largest)
    return _mask_flat_indices(default_mask, topk.indices)


class RandomUnstructured(BasePruningMethod):
    """Prune `amount` units of a tensor at random (int: number of units; float in [0, 1]: fraction)."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: Any) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return _unstructured_mask(self.amount, t, default_mask, lambda: _F["rand_like"](t), largest=True)

    @classmethod
    def apply(cls, module: Any, name: str, amount: Any) -> Any:  # type: ignore[override]
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    """Prune `amount` units of a tensor with the lowest absolute values."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: Any) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return _unstructured_mask(self.amount, t, default_mask, t.abs, largest=False)

    @classmethod
    def apply(cls, module: Any, name: str, amount: Any,  # type: ignore[override]
              importance_scores: Any = None) -> Any:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _channel_mask(t: Any, dim: int, channels: Any) -> Any:
    """A mask shaped like `t`: ones on the `channels` (bool mask or indices) along `dim`, zeros elsewhere."""
    mask = _F["zeros_like"](t)
    slc: list = [slice(None)] * len(t.shape)
    slc[dim] = channels
    mask[tuple(slc)] = 1
    return mask


class RandomStructured(BasePruningMethod):
    """Prune entire (currently unpruned) channels along `dim` at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: Any, dim: int = -1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)
        if nparams_toprune == 0:
            return default_mask
        # Keep the channels whose random draw is above the k-th smallest one.
        prob = _F["rand"](tensor_size)
        threshold = _F["kthvalue"](prob, k=nparams_toprune).values
        mask = _channel_mask(t, self.dim, prob > threshold)
        return mask * default_mask.to(dtype=mask.dtype)

    @classmethod
    def apply(cls, module: Any, name: str, amount: Any, dim: int = -1) -> Any:  # type: ignore[override]
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prune entire channels along `dim` with the lowest L`n`-norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: Any, n: Any, dim: int = -1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        nparams_tokeep = tensor_size - nparams_toprune
        _validate_pruning_amount(nparams_toprune, tensor_size)
        if nparams_toprune == 0:
            return default_mask
        norm = _compute_norm(t, self.n, self.dim)
        topk = norm.topk(k=nparams_tokeep, largest=True)
        mask = _channel_mask(t, self.dim, topk.indices)
        return mask * default_mask.to(dtype=mask.dtype)

    @classmethod
    def apply(cls, module: Any, name: str, amount: Any, n: Any, dim: int,  # type: ignore[override]
              importance_scores: Any = None) -> Any:
        return super().apply(module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prune with a user-given mask (combined with the current one)."""

    PRUNING_TYPE = "global"

    def __init__(self, mask: Any) -> None:
        self.mask = mask

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        assert default_mask.shape == self.mask.shape
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Any, name: str, mask: Any) -> Any:  # type: ignore[override]
        return super().apply(module, name, mask=mask)


def identity(module: Any, name: str) -> Any:
    """Apply the pruning reparametrization to `module.<name>` without pruning any unit (mask of ones)."""
    Identity.apply(module, name)
    return module


def random_unstructured(module: Any, name: str, amount: Any) -> Any:
    """Prune `amount` (int count or float fraction) random units of `module.<name>`."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: Any, name: str, amount: Any, importance_scores: Any = None) -> Any:
    """Prune the `amount` units of `module.<name>` with the lowest L1 norm (of `importance_scores` if given)."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Any, name: str, amount: Any, dim: int) -> Any:
    """Prune `amount` random channels of `module.<name>` along `dim`."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module: Any, name: str, amount: Any, n: Any, dim: int, importance_scores: Any = None) -> Any:
    """Prune the `amount` channels of `module.<name>` along `dim` with the lowest L`n`-norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters: Iterable, pruning_method: Any, importance_scores: Optional[Dict] = None,
                        **kwargs: Any) -> None:
    """Prune the tensors `parameters` ((module, name) pairs) together, as one flattened tensor, with the
    unstructured `pruning_method` class (e.g. `L1Unstructured`, amount=...)."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    parameters = list(parameters)  # iterated three times below (a generator would be exhausted)
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")

    relevant_importance_scores = parameters_to_vector(
        [importance_scores.get((module, name), getattr(module, name)) for (module, name) in parameters])
    # The current masks (ones where a tensor has not been pruned yet).
    default_mask = parameters_to_vector(
        [getattr(module, name + "_mask", _F["ones_like"](getattr(module, name))) for (module, name) in parameters])

    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for '
                        f"the `pruning_method`. Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container.add_pruning_method(method)
    final_mask = container.compute_mask(relevant_importance_scores, default_mask)

    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        num_param = param.numel()
        param_mask = final_mask[pointer: pointer + num_param].reshape(param.shape)
        custom_from_mask(module, name, mask=param_mask)
        pointer += num_param


def custom_from_mask(module: Any, name: str, mask: Any) -> Any:
    """Prune `module.<name>` with the given `mask` (combined with any existing mask)."""
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module: Any, name: str) -> Any:
    """Make the pruning of `module.<name>` permanent (drop `<name>_orig`, `<name>_mask` and the hook)."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module: Any) -> bool:
    """Whether `module` or any submodule carries a pruning pre-hook."""
    for _, submodule in module.named_modules():
        for hook in getattr(submodule, "_forward_pre_hooks", {}).values():
            if isinstance(hook, BasePruningMethod):
                return True
    return False


def _validate_pruning_amount_init(amount: Any) -> None:
    """`amount` must be a non-negative int or a float in [0, 1] (checked before the tensor is known)."""
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and amount < 0) or (
            not isinstance(amount, numbers.Integral) and (float(amount) > 1.0 or float(amount) < 0.0)):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer")


def _validate_pruning_amount(amount: Any, tensor_size: int) -> None:
    """An int `amount` cannot exceed the number of units."""
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={tensor_size}")


def _validate_structured_pruning(t: Any) -> None:
    shape = t.shape
    if len(shape) <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. Found tensor of shape "
                         f"{shape} with {len(shape)} dims")


def _compute_nparams_toprune(amount: Any, tensor_size: int) -> int:
    """The number of units to prune: `amount` itself (int) or round(amount * tensor_size) (float)."""
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_pruning_dim(t: Any, dim: int) -> None:
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _compute_norm(t: Any, n: Any, dim: int) -> Any:
    """The L`n`-norm of every channel of `t` along `dim` (over all the other dims)."""
    dims = list(range(t.dim()))
    if dim < 0:
        dim = dims[dim]
    dims.remove(dim)
    return _F["norm"](t, p=n, dim=dims)
