"""The op table, one module per family. Importing this package fills `_registry.TABLE`."""
from . import (  # noqa: F401  (registration side effects)
    _expand,
    _registry,  # noqa: F401
    comparison,
    creation,
    dunder,
    fft,
    foreach,
    indexing,
    inplace,
    linalg,
    misc,
    nn_ops,
    pointwise,
    random,
    reduction,
    shape,
    special,
    spectral,
    views,
)

_registry.export_inplace_functions()
_expand.install(_registry.TABLE)  # CPU: large broadcasts of elementwise ops expanded on the host
FUNCTIONS = _registry.FUNCTIONS
METHODS = _registry.METHODS
TABLE = _registry.TABLE
