"""torch.autograd.grad_mode: the grad-mode switches (defined once in `torch._grad_mode`)."""
from .._grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
