"""The op table, one module per family. Importing this package fills `_registry.TABLE`."""
from . import _registry  # noqa: F401
from . import (  # noqa: F401  (registration side effects)
    comparison,
    creation,
    fft,
    indexing,
    linalg,
    misc,
    nn_ops,
    pointwise,
    random,
    reduction,
    shape,
)

FUNCTIONS = _registry.FUNCTIONS
METHODS = _registry.METHODS
TABLE = _registry.TABLE
