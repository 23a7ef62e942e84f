"""torch.autograd.profiler: `record_function` (used inside model code) and `profile`, as torch.profiler's."""
from ..profiler import profile, record_function  # noqa: F401

__all__ = ["profile", "record_function"]
