"""torch.nn.utils.weight_norm / remove_weight_norm: torch 1.12's hook-based weight normalization.

`weight_norm(module, 'weight', dim)` replaces the parameter `weight` by two parameters, `weight_g` (the
magnitude, `norm_except_dim(weight, 2, dim)`) and `weight_v` (the direction, initially `weight`), and recomputes
`weight = v * (g / ||v||)` as a plain tensor attribute in a forward pre-hook before every call. The recomputation
is recorded by autograd, so gradients land on `weight_g` / `weight_v` both with `loss.backward()` and with
`mindspore.value_and_grad(fn, None, optimizer.parameters)`.

torch 2.x re-implemented this as a parametrization (`torch.nn.utils.parametrizations.weight_norm`, state_dict keys
`parametrizations.weight.original0/1`); this is 1.12's version, whose state_dict keys are `weight_g` / `weight_v`.
"""
from __future__ import annotations

from typing import Any, Optional, TypeVar

from ..parameter import Parameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm", "norm_except_dim"]

T_module = TypeVar("T_module")


def norm_except_dim(v: Any, pow: float = 2, dim: int = 0) -> Any:
    """torch.norm_except_dim: the `pow`-norm of `v` over every dimension except `dim`, shaped to broadcast
    against `v` (size 1 everywhere but `dim`); `dim == -1` means the norm of the whole tensor (a 0-d tensor)."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        output_size = (v.shape[0],) + (1,) * (v.ndim - 1)
        return v.reshape(v.shape[0], -1).norm(pow, 1).reshape(output_size)
    if dim == v.ndim - 1:
        output_size = (1,) * (v.ndim - 1) + (v.shape[-1],)
        return v.reshape(-1, v.shape[-1]).norm(pow, 0).reshape(output_size)
    # Any other dim: move it to the front, as torch's ATen kernel does.
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v: Any, g: Any, dim: int = 0) -> Any:
    """torch._weight_norm: `v * (g / norm_except_dim(v, 2, dim))`."""
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook that recomputes `module.<name>` from `<name>_g` and `<name>_v` (torch 1.12)."""

    name: str
    dim: int

    def __init__(self, name: str, dim: Optional[int]) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Any) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Any, name: str, dim: Optional[int]) -> "WeightNorm":
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        # Remove w from the parameter list; express it as g/||v|| * v.
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).detach()))
        module.register_parameter(name + "_v", Parameter(weight.detach()))
        setattr(module, name, fn.compute_weight(module))
        # Recompute the weight before every forward().
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Any) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.detach()))

    def __call__(self, module: Any, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: T_module, name: str = "weight", dim: Optional[int] = 0) -> T_module:
    r"""Apply weight normalization to the parameter `name` of `module`:

    .. math:: \mathbf{w} = g \dfrac{\mathbf{v}}{\|\mathbf{v}\|}

    Args:
        module: the module holding the parameter.
        name: name of the weight parameter. Default: ``'weight'``.
        dim: dimension over which the norm is NOT taken (one magnitude per slice of it); ``None`` normalizes the
            whole tensor (one scalar magnitude). Default: ``0``.

    Returns:
        The module, with parameters ``<name>_g`` and ``<name>_v`` and a forward pre-hook.
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    """Remove the weight normalization of `name`: `module.<name>` is a Parameter again, holding the current
    normalized value. Raises ValueError when `name` has no weight norm."""
    hooks = module._forward_pre_hooks  # type: ignore[attr-defined]
    for k, hook in hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
