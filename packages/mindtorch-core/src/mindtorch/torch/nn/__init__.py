"""torch.nn: modules, parameters, init, functional and utils on MindSpore (re-exports only)."""
# ruff: noqa: F401, F403, I001
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .modules import *
from .modules import Container, Module, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from . import init
from . import utils
from . import functional
from . import grad
from . import parallel


def __getattr__(name: str):
    # The manual's `nn.DistributedGradReducer(optimizer.parameters)` and `nn.DataParallel` live in the separately
    # installed mindtorch-distributed; forward lazily so `import torch.nn` never needs it.
    if name in ("DataParallel", "DistributedGradReducer"):
        try:
            import mindtorch.distributed as _dist
        except ImportError as e:
            raise ImportError(f"torch.nn.{name} needs the mindtorch-distributed package: "
                              "pip install mindtorch-distributed") from e
        return getattr(_dist, name)
    raise AttributeError(f"module 'torch.nn' has no attribute '{name}'")
