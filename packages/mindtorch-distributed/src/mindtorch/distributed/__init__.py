"""mindtorch.distributed: torch.distributed on MindSpore's collectives (HCCL / NCCL / MCCL)."""


def is_available() -> bool:
    """torch.distributed.is_available(): MindSpore's communication layer is importable."""
    try:
        import mindspore.communication  # noqa: F401
    except ImportError:  # pragma: no cover
        return False
    return True
