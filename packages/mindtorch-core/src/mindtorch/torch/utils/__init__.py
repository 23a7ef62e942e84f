"""torch.utils: data loading (`torch.utils.data`)."""
from . import checkpoint, data  # noqa: F401
