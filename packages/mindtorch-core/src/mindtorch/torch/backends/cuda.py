"""torch.backends.cuda flags (`torch.backends.cuda.matmul.allow_tf32 = True`). Recorded so scripts can set and read
them, as torch.backends.cudnn's; MindSpore picks its own matmul precision, so they do not change results."""


class _MatmulFlags:
    """torch.backends.cuda.matmul: allow_tf32 (torch 1.12's default False), allow_fp16_reduced_precision_reduction."""

    def __init__(self) -> None:
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True


matmul = _MatmulFlags()


def is_built() -> bool:
    """Whether this build has CUDA support: mindtorch has none of its own (MindSpore drives the device)."""
    return False
