"""`from mindtorch.tools import mstorch_enable`: from now on `import torch` means `import mindtorch.torch`.

Importing this module is the switch (the manual's idiom); `mindtorch.tools.__getattr__` re-runs it on every
`from mindtorch.tools import mstorch_enable`, so it can switch back after `pytorch_enable`.
"""
from ._import_hook import enable

enable()
