"""`from mindtorch.tools import pytorch_enable`: stop mapping torch to mindtorch, so real PyTorch imports.

Names already bound in user code stay what they are: `torch` imported before keeps meaning mindtorch,
`import torch as pytorch` after this gives real PyTorch (the manual's FAQ example).
"""
from ._import_hook import disable

disable()
