"""mindtorch.torch: PyTorch 1.12's API on MindSpore.

Re-exports only (like jax/numpy/__init__.py): the functions come from the op table (`_ops`), the classes and
helpers from their own modules.
"""
from . import _ms  # noqa: F401  (first: the private-API boundary)
from ._dtype import (  # noqa: F401
    bfloat16, bool, cdouble, cfloat, complex64, complex128, double, dtype, finfo, float, float16, float32,
    float64, get_default_dtype, half, iinfo, int, int8, int16, int32, int64, long, promote_types,
    set_default_dtype, set_default_tensor_type, short, uint8,
)
from ._device import device  # noqa: F401
from ._tensor import Size, Tensor  # noqa: F401
from ._ops import FUNCTIONS as _FUNCTIONS
from ._ops import _registry as _registry

_registry.install_methods(Tensor)
globals().update(_FUNCTIONS)

__version__ = "1.12.1"
del _FUNCTIONS
