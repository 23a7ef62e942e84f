"""torch.backends: flags torch scripts set (`torch.backends.cudnn.benchmark = True`)."""
from . import cuda, cudnn, mps  # noqa: F401
