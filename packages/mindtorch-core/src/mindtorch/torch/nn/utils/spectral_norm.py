"""torch.nn.utils.spectral_norm / remove_spectral_norm: torch 1.12's hook-based spectral normalization.

`spectral_norm(module, 'weight')` moves the parameter to `weight_orig`, adds buffers `weight_u` / `weight_v` (the
approximate first left/right singular vectors of the weight seen as a matrix) and, in a forward pre-hook, sets
`module.weight = weight_orig / sigma` with `sigma = u^T W v`. In training mode the hook first runs
`n_power_iterations` steps of power iteration, writing the new u, v into the buffers in place (outside autograd);
in eval mode it uses the stored u, v unchanged.

State-dict compatibility is torch's: the version (1) is stored in the state-dict metadata under `spectral_norm`,
and loading a version-0 state dict (which had `weight` but no `weight_v`) solves for v, as torch does.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, TypeVar

from ... import _grad_mode
from ..._ops.random import randn
from ..functional import normalize
from ..parameter import Parameter

__all__ = ["SpectralNorm", "SpectralNormStateDictHook", "SpectralNormLoadStateDictPreHook", "spectral_norm",
           "remove_spectral_norm"]

T_module = TypeVar("T_module")


class SpectralNorm:
    """The forward pre-hook that sets `module.<name> = <name>_orig / sigma` (torch 1.12)."""

    # Version 1 (torch >= 1.1): `<name>_v` is a buffer and `<name>` is not in the state dict.
    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Any) -> Any:
        """`weight` as a (size(dim), -1) matrix, `dim` moved to the front."""
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.ndim) if d != self.dim])
        height = weight_mat.shape[0]
        return weight_mat.reshape(height, -1)

    def compute_weight(self, module: Any, do_power_iteration: bool) -> Any:
        """`<name>_orig / sigma`; with `do_power_iteration`, first refines u and v (written into the buffers)."""
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)

        if do_power_iteration:
            with _grad_mode.no_grad():
                for _ in range(self.n_power_iterations):
                    # sigma(W) = u^T W v with u, v the first left/right singular vectors; power iteration
                    # approximates them.
                    v_new = normalize(weight_mat.t().mv(u), dim=0, eps=self.eps)
                    u_new = normalize(weight_mat.mv(v_new), dim=0, eps=self.eps)
                    u = u_new
                    v = v_new
                # torch writes into the buffers with `out=` and then clones, so that the buffers (updated in place
                # on the next call) never alias tensors autograd saved for this call's backward. Fresh tensors
                # u, v are used here, and the buffers get a copy of them.
                getattr(module, self.name + "_u").copy_(u)
                getattr(module, self.name + "_v").copy_(v)

        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def remove(self, module: Any) -> None:
        with _grad_mode.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Any, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat: Any, u: Any, target_sigma: Any) -> Any:
        """A v with `u = normalize(W v)` and `u^T W v = target_sigma` (pinverse, in case W^T W is singular)."""
        v = weight_mat.t().mm(weight_mat).pinverse().mm(weight_mat.t()).mm(u.unsqueeze(1)).squeeze(1)
        return v * (target_sigma / u.dot(weight_mat.mv(v)))

    @staticmethod
    def apply(module: Any, name: str, n_power_iterations: int, dim: int, eps: float) -> "SpectralNorm":
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")

        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]

        with _grad_mode.no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            # Random initial u and v (standard normal, normalized), as torch.
            u = normalize(randn(h, dtype=weight.dtype), dim=0, eps=fn.eps)
            v = normalize(randn(w, dtype=weight.dtype), dim=0, eps=fn.eps)

        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # `module.<name>` must still exist (weight initializers read it), as a plain tensor: assigning the
        # Parameter itself would register it again.
        setattr(module, fn.name, weight.detach())
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)

        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Converts a version-0 state dict (`weight`, `weight_orig`, `weight_u`, no `weight_v`) when loading.

    With u = normalize(W_orig v) and W = W_orig / sigma, v is recovered by solving W_orig x = u and rescaling
    x so that u^T W_orig v = sigma = mean(W_orig / W)."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, state_dict: Dict[str, Any], prefix: str, local_metadata: Dict[str, Any], strict: bool,
                 missing_keys: List[str], unexpected_keys: List[str], error_msgs: List[str]) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            if version is None and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v")) and \
                    weight_key not in state_dict:
                # An up-to-date state dict without metadata (e.g. crafted by hand): nothing to convert.
                return
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            with _grad_mode.no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                v = fn._solve_v_and_rescale(weight_mat, u, sigma)
                state_dict[weight_key + "_v"] = v


class SpectralNormStateDictHook:
    """Records the spectral-norm version in the state dict's metadata (`metadata['spectral_norm']`)."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, module: Any, state_dict: Dict[str, Any], prefix: str, local_metadata: Dict[str, Any]) -> None:
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: Optional[int] = None) -> T_module:
    r"""Apply spectral normalization to the parameter `name` of `module`:

    .. math:: \mathbf{W}_{SN} = \dfrac{\mathbf{W}}{\sigma(\mathbf{W})}

    with :math:`\sigma` estimated by power iteration (one step per training-mode forward by default).

    Args:
        module: the module holding the parameter.
        name: name of the weight parameter. Default: ``'weight'``.
        n_power_iterations: power-iteration steps per training forward. Default: ``1``.
        eps: epsilon for numerical stability of the norms. Default: ``1e-12``.
        dim: the output dimension; ``None`` means 1 for ConvTranspose{1,2,3}d and 0 otherwise.

    Returns:
        The module, with parameter ``<name>_orig``, buffers ``<name>_u`` / ``<name>_v`` and a forward pre-hook.
    """
    if dim is None:
        from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    """Remove the spectral normalization of `name`: `module.<name>` is a Parameter again (the current normalized
    value). Raises ValueError when `name` has no spectral norm."""
    mod: Any = module
    for k, hook in mod._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(mod)
            del mod._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")

    for k, hook in mod._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del mod._state_dict_hooks[k]
            break

    for k, hook in mod._load_state_dict_pre_hooks.items():
        if isinstance(hook, SpectralNormLoadStateDictPreHook) and hook.fn.name == name:
            del mod._load_state_dict_pre_hooks[k]
            break
    return module
