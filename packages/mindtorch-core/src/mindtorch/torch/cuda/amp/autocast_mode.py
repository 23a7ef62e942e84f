"""torch.cuda.amp.autocast_mode (torch 1.12's module): autocast on device 'cuda', custom_fwd/custom_bwd."""
from typing import Any, Optional

from ...amp import autocast_mode as _autocast_mode
from ...amp.autocast_mode import custom_bwd, custom_fwd  # noqa: F401

__all__ = ["autocast", "custom_fwd", "custom_bwd"]


class autocast(_autocast_mode.autocast):
    """torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)."""

    def __init__(self, enabled: bool = True, dtype: Optional[Any] = None, cache_enabled: bool = True) -> None:
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
