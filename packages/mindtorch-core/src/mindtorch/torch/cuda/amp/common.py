"""torch.cuda.amp.common (torch 1.12's module)."""
from ... import cuda


def amp_definitely_not_available() -> bool:
    """True when there is no 'cuda' device: torch.cuda maps to the MindSpore GPU/Ascend target this process runs
    on, so only MindSpore's CPU target has none (torch 1.12 also accepts torch_xla, which has no counterpart)."""
    return not cuda.is_available()
