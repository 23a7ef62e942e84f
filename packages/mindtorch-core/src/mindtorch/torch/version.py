"""torch.version: the build description scripts read (`torch.version.cuda is None` means a CPU-only build; MindSpore
picks the device, not a CUDA toolkit linked into mindtorch)."""
from .torch_version import TorchVersion

__version__ = TorchVersion("1.12.1")
debug = False
cuda = None
hip = None
git_version = "unknown"
