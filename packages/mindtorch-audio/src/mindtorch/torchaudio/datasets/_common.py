"""Shared pieces of the dataset classes: the Dataset base, download-then-extract, a clear missing-data error."""
from __future__ import annotations

import os
from typing import Optional

from mindtorch.torch.utils.data import Dataset  # noqa: F401  (re-exported for the dataset modules)

from .utils import download_url_to_file, extract_archive


def fetch(url: str, archive: str, checksum: Optional[str], extract_to: str) -> None:
    """Download `url` to `archive` (unless present) and extract it into `extract_to`."""
    if not os.path.isfile(archive):
        download_url_to_file(url, archive, hash_prefix=checksum)
    extract_archive(archive, extract_to)


def missing(name: str, path: str) -> RuntimeError:
    return RuntimeError(f"{name}: dataset not found at '{path}'. Please set `download=True` to download it, or "
                        f"put the extracted data there")
