"""torch.cpu.amp: autocast with device_type 'cpu' (bfloat16 by default, as torch 1.12's)."""
from typing import Any, Optional

from ...amp import autocast_mode as _autocast_mode


class autocast(_autocast_mode.autocast):
    """torch.cpu.amp.autocast(enabled=True, dtype=torch.bfloat16, cache_enabled=True)."""

    def __init__(self, enabled: bool = True, dtype: Optional[Any] = None, cache_enabled: bool = True) -> None:
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
