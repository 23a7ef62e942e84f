"""torch.utils.tensorboard: `SummaryWriter` writes TensorBoard event files, as torch's does.

Like torch, it needs the `tensorboard` package (the event-file writer and protobuf definitions come from it; it is
not a mindtorch dependency): without it, importing this module raises torch's ImportError.
"""
try:
    import tensorboard  # noqa: F401
except ImportError as e:
    raise ImportError("TensorBoard logging requires TensorBoard version 1.15 or above") from e

from .writer import FileWriter, SummaryWriter  # noqa: E402

__all__ = ["FileWriter", "SummaryWriter"]
