"""torch.cuda.amp.grad_scaler (torch 1.12's module): GradScaler with 1.12's signature, on device 'cuda'."""
from ...amp.grad_scaler import GradScaler as _GradScaler
from ...amp.grad_scaler import OptState  # noqa: F401  (torch 1.12 defines it here)

__all__ = ["GradScaler"]


class GradScaler(_GradScaler):
    """torch.cuda.amp.GradScaler(init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
    enabled=True). 'cuda' is the MindSpore GPU/Ascend device this process runs on; without one
    (`torch.cuda.is_available()` False) it warns "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.
    Disabling." and works as `enabled=False`, as torch 1.12 does."""

    _warn_stacklevel = 3

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)
