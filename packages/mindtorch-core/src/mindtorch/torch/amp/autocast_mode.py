"""torch.autocast: run the ops torch lists for autocast in lower precision, others in float32.

Mechanism: entering an autocast region re-binds the op-table entries of the listed ops to casting wrappers
(`_registry.TABLE[name].bound`), and leaving it restores them. Ops that are not listed, and every op when no
autocast region is active, pay nothing. The casts are ordinary differentiable MindSpore casts, so gradients
flow back to the float32 parameters as in torch.

Lists: torch 1.12's CUDA autocast lists (docs: "Autocast Op Reference"), restricted to the ops mindtorch
implements: lower precision for matmul-like and convolution ops, float32 for numerically sensitive ones,
widest-type promotion for mixed-input ops.

Devices: one process runs on one MindSpore target (DESIGN.md §2), so `device_type` 'cuda', 'npu' and 'cpu'
all mean that target. MindSpore's CPU target has no bfloat16 matmul/softmax kernels: asking for bfloat16
there (torch's CPU default) falls back to float16 with a one-time warning instead of failing inside
MindSpore.
"""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, Dict, List, Optional

import mindspore as ms

from .. import _dtype as D
from .. import _ms
from .._ops import _registry

LOWER_PRECISION_OPS = (
    "matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "addr", "mv", "chain_matmul", "linear",
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu",
    "__matmul__", "__rmatmul__",
)
FP32_OPS = (
    "acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p", "reciprocal", "rsqrt",
    "sinh", "tan", "pow", "softplus", "layer_norm", "group_norm", "norm", "nuclear_norm", "cosine_similarity",
    "poisson_nll_loss", "cosine_embedding_loss", "nll_loss", "hinge_embedding_loss", "kl_div", "l1_loss",
    "smooth_l1_loss", "huber_loss", "mse_loss", "margin_ranking_loss", "multilabel_margin_loss",
    "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss", "binary_cross_entropy_with_logits", "dist",
    "pdist", "cdist", "renorm", "logsumexp", "softmax", "log_softmax", "softmin", "cross_entropy", "cumprod",
    "cumsum", "prod", "sum", "normalize", "__pow__", "__rpow__", "__rtruediv__",
)
PROMOTE_OPS = ("addcdiv", "addcmul", "atan2", "bilinear", "cross", "dot", "grid_sample", "index_put",
               "scatter_add", "tensordot", "cat", "stack")

_FLOATS = (D.float16, D.bfloat16, D.float32, D.float64)
_stack: List["autocast"] = []
_saved: Dict[str, Optional[Callable]] = {}
_warned_bf16 = False


def _cast_args(args: tuple, kwargs: dict, to: Any) -> tuple:
    def c(x: Any) -> Any:
        if isinstance(x, ms.Tensor) and x.dtype in _FLOATS and x.dtype != to:
            return ms.ops.cast(x, to)
        if isinstance(x, (list, tuple)) and x and isinstance(x[0], ms.Tensor):
            return type(x)(c(v) for v in x)
        return x

    return tuple(c(a) for a in args), {k: c(v) for k, v in kwargs.items()}


def _widest(args: tuple, kwargs: dict) -> Any:
    best = None
    for x in (*args, *kwargs.values()):
        xs = x if isinstance(x, (list, tuple)) else (x,)
        for t in xs:
            if isinstance(t, ms.Tensor) and t.dtype in _FLOATS:
                best = t.dtype if best is None else D.promote_types(best, t.dtype)
    return best


def _lower(impl: Callable) -> Callable:
    @functools.wraps(impl)
    def run(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = _cast_args(args, kwargs, _active_region().fast_dtype)
        return impl(*args, **kwargs)
    return run


def _fp32(impl: Callable) -> Callable:
    @functools.wraps(impl)
    def run(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = _cast_args(args, kwargs, D.float32)
        return impl(*args, **kwargs)
    return run


def _promote(impl: Callable) -> Callable:
    @functools.wraps(impl)
    def run(*args: Any, **kwargs: Any) -> Any:
        to = _widest(args, kwargs)
        if to is not None:
            args, kwargs = _cast_args(args, kwargs, to)
        return impl(*args, **kwargs)
    return run


def _install() -> None:
    for names, wrapper in ((LOWER_PRECISION_OPS, _lower), (FP32_OPS, _fp32), (PROMOTE_OPS, _promote)):
        for name in names:
            entry = _registry.TABLE.get(name)
            if entry is None or name in _saved:
                continue
            _saved[name] = entry.bound
            entry.bound = wrapper(entry.bound or entry.bind())


def _uninstall() -> None:
    for name, bound in _saved.items():
        _registry.TABLE[name].bound = bound
    _saved.clear()


class _GlobalState:
    """The autocast state outside every region, per side (accelerator / CPU), which torch 1.12's
    torch.set_autocast_enabled / set_autocast_cpu_enabled / set_autocast_*_dtype set directly."""

    def __init__(self, device: str, dtype: Any) -> None:
        self.device, self.fast_dtype, self._enabled = device, dtype, False


_GLOBAL = {False: _GlobalState("cuda", D.float16), True: _GlobalState("cpu", D.bfloat16)}
_nesting = 0


def _active_region() -> Any:
    """What decides the casts: the innermost region, else the global state enabled by the setters."""
    if _stack:
        return _stack[-1]
    for state in _GLOBAL.values():
        if state._enabled:
            return state
    return None


def _refresh() -> None:
    """Make the table match the innermost region: casting wrappers while an enabled region is innermost."""
    region = _active_region()
    active = region is not None and region._enabled
    if active and not _saved:
        _install()
    elif not active and _saved:
        _uninstall()


class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None): context manager/decorator."""

    def __init__(self, device_type: str = "cuda", dtype: Optional[Any] = None, enabled: bool = True,
                 cache_enabled: Optional[bool] = None) -> None:
        global _warned_bf16
        if device_type not in ("cuda", "cpu", "npu", "xpu"):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self.device = device_type
        dtype = D.to_dtype(dtype) if dtype is not None else (D.bfloat16 if device_type == "cpu" else D.float16)
        if dtype not in (D.float16, D.bfloat16):
            warnings.warn(f"In autocast, but the target dtype is not supported ({D.torch_name(dtype)}). "
                          "Disabling autocast. Only float16 and bfloat16 are supported.")
            enabled = False
        if dtype == D.bfloat16 and _ms.device_target() == "CPU":
            if not _warned_bf16:
                warnings.warn("mindtorch: MindSpore's CPU target has no bfloat16 matmul/softmax kernels; autocast "
                              "runs in float16 instead (pass dtype=torch.float16 to silence this warning).")
                _warned_bf16 = True
            dtype = D.float16
        self.fast_dtype = dtype
        self._enabled = bool(enabled)

    def __enter__(self) -> "autocast":
        _stack.append(self)
        _refresh()
        return self

    def __exit__(self, *exc: Any) -> None:
        _stack.remove(self)
        _refresh()

    def __call__(self, func: Callable) -> Callable:
        @functools.wraps(func)
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with autocast(self.device, self.fast_dtype, self._enabled):
                return func(*args, **kwargs)
        return decorated


def _innermost(cpu: bool) -> Any:
    """The innermost region for CPU (`cpu=True`) or for the accelerators (torch keeps the two states apart),
    else that side's global state."""
    for region in reversed(_stack):
        if (region.device == "cpu") == cpu:
            return region
    return _GLOBAL[cpu]


def is_autocast_enabled() -> bool:
    """torch.is_autocast_enabled(): the accelerator ('cuda'/'npu'/'xpu') autocast state, as in torch 1.12."""
    return _innermost(cpu=False)._enabled


def is_autocast_cpu_enabled() -> bool:
    return _innermost(cpu=True)._enabled


def get_autocast_gpu_dtype() -> Any:
    return _innermost(cpu=False).fast_dtype


def get_autocast_cpu_dtype() -> Any:
    """bfloat16 by default, as torch; inside a CPU region on MindSpore's CPU target the float16 it really runs."""
    return _innermost(cpu=True).fast_dtype


# torch 1.12's setters change the current state directly (what `autocast.__enter__` does in torch): here the
# innermost region of that side, or the global state outside every region. A region's exit restores the state
# that was current before it, as torch's does.
def set_autocast_enabled(enabled: bool) -> None:
    _innermost(cpu=False)._enabled = bool(enabled)
    _refresh()


def set_autocast_cpu_enabled(enabled: bool) -> None:
    _innermost(cpu=True)._enabled = bool(enabled)
    _refresh()


def _autocast_dtype(dtype: Any) -> Any:
    dtype = D.to_dtype(dtype)
    if dtype not in (D.float16, D.bfloat16):
        raise RuntimeError(f"Currently, AutoCast only supports float16 and bfloat16 as the autocast dtype, "
                           f"but got {D.torch_name(dtype)}")  # mindtorch's check (torch 1.12 accepts any)
    return dtype


def set_autocast_gpu_dtype(dtype: Any) -> None:
    _innermost(cpu=False).fast_dtype = _autocast_dtype(dtype)


def set_autocast_cpu_dtype(dtype: Any) -> None:
    _innermost(cpu=True).fast_dtype = _autocast_dtype(dtype)


def autocast_increment_nesting() -> int:
    """torch's count of entered autocast regions (torch.autocast.__enter__ calls it); returns the new count."""
    global _nesting
    _nesting += 1
    return _nesting


def autocast_decrement_nesting() -> int:
    """Returns the new count; torch clears the autocast cache when it reaches 0 (mindtorch keeps none)."""
    global _nesting
    _nesting = max(_nesting - 1, 0)
    if _nesting == 0:
        clear_autocast_cache()
    return _nesting


_cache_enabled = True


def is_autocast_cache_enabled() -> bool:
    return _cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Recorded for `is_autocast_cache_enabled`; mindtorch's autocast casts per op and keeps no weight cache, so
    the setting changes no result (it only trades memory for speed in torch)."""
    global _cache_enabled
    _cache_enabled = bool(enabled)


def clear_autocast_cache() -> None:
    """torch frees the cast copies of weights kept during a region; mindtorch keeps none, so none to free."""


def custom_fwd(fwd: Optional[Callable] = None, *, cast_inputs: Optional[Any] = None) -> Callable:
    """torch.cuda.amp.custom_fwd for autograd.Function.forward: with cast_inputs, floating inputs are cast
    and the forward runs with autocast off (torch's semantics); without, it runs under the caller's state."""
    if fwd is None:
        return functools.partial(custom_fwd, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args: Any, **kwargs: Any) -> Any:
        if cast_inputs is None or not is_autocast_enabled():
            return fwd(*args, **kwargs)
        args, kwargs = _cast_args(args, kwargs, D.to_dtype(cast_inputs))
        with autocast(enabled=False):
            return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd: Callable) -> Callable:
    """torch.cuda.amp.custom_bwd: the backward runs with autocast off (mindtorch runs backward outside any
    autocast region's op wrappers already, so this only restores torch's decorator API)."""
    @functools.wraps(bwd)
    def decorate_bwd(*args: Any, **kwargs: Any) -> Any:
        with autocast(enabled=False):
            return bwd(*args, **kwargs)
    return decorate_bwd
