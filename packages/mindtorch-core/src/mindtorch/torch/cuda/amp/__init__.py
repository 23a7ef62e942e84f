"""torch.cuda.amp: autocast (device 'cuda' = the MindSpore device this process runs on), GradScaler,
custom_fwd/custom_bwd."""
from typing import Any, Optional

from ...amp import autocast_mode as _autocast_mode
from ...amp.autocast_mode import custom_bwd, custom_fwd  # noqa: F401
from ...amp.grad_scaler import GradScaler  # noqa: F401


class autocast(_autocast_mode.autocast):
    """torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)."""

    def __init__(self, enabled: bool = True, dtype: Optional[Any] = None, cache_enabled: bool = True) -> None:
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
