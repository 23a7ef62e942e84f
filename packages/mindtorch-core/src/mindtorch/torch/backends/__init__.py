"""torch.backends: flags torch scripts set (`torch.backends.cudnn.benchmark = True`)."""
from . import cudnn, mps  # noqa: F401
