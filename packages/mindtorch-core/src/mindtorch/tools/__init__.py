"""mindtorch.tools: the import hook and the conversion tools.

`from mindtorch.tools import mstorch_enable` turns the hook on (importing the name is the switch, as the
manual shows); `from mindtorch.tools import pytorch_enable` turns it off again. Both can be repeated in any
order, so neither name is ever cached on this package.
"""
import importlib
from typing import Any

_SWITCHES = ("mstorch_enable", "pytorch_enable")


def __getattr__(name: str) -> Any:
    if name in _SWITCHES:
        module = importlib.import_module(f"{__name__}.{name}")  # the first import runs the switch
        globals().pop(name, None)  # ...and later imports come back here
        from ._import_hook import disable, enable

        (enable if name == "mstorch_enable" else disable)()
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
