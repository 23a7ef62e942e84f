"""torch.backends.cudnn flags. They are recorded so scripts can set and read them; MindSpore chooses its own
kernels, so they do not change results."""
enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    from ..cuda import is_available as cuda_available

    return cuda_available()


def version() -> None:
    return None
