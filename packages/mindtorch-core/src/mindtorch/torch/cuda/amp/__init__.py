"""torch.cuda.amp: autocast (device 'cuda' = the MindSpore device this process runs on), GradScaler,
custom_fwd/custom_bwd; the submodules are torch 1.12's (autocast_mode, grad_scaler, common)."""
from . import common  # noqa: F401
from .autocast_mode import autocast, custom_bwd, custom_fwd  # noqa: F401
from .grad_scaler import GradScaler  # noqa: F401
