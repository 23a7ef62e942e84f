"""The op table, one module per family. Importing this package fills `_registry.TABLE`."""
from . import _registry  # noqa: F401
from . import creation, pointwise, reduction, shape  # noqa: F401  (registration side effects)

FUNCTIONS = _registry.FUNCTIONS
METHODS = _registry.METHODS
TABLE = _registry.TABLE
