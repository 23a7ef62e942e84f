"""torch.amp: autocast and GradScaler on MindSpore (issue 9; see autocast_mode.py for the design).

MindSpore's own whole-network mixed precision (`mindspore.amp.auto_mixed_precision(model, 'O2'/'O3')`) also
works on mindtorch models, as the manual's §3.1 shows: follow it with `torch.cast_to_adapter_tensor(logits)`.
`torch.amp.auto_mixed_precision` is that function, re-exported for the manual's §4.4.1 example.
"""
from mindspore.amp import auto_mixed_precision  # noqa: F401

from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_enabled  # noqa: F401
from .grad_scaler import GradScaler  # noqa: F401
