"""Internals of torch.utils.data (collate, worker), mirroring torch/utils/data/_utils."""
from . import collate, worker  # noqa: F401

MP_STATUS_CHECK_INTERVAL = worker.MP_STATUS_CHECK_INTERVAL
