"""torch.utils: data loading (`torch.utils.data`)."""
from . import checkpoint, data, dlpack  # noqa: F401
