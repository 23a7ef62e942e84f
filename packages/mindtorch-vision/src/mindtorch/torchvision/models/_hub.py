"""`load_state_dict_from_url` (torch.hub's, which torchvision's weights use): a cached download + torch.load.

Files live in `$TORCH_HOME/hub/checkpoints/<file name of the url>` (TORCH_HOME defaults to `$XDG_CACHE_HOME/torch`,
i.e. `~/.cache/torch`), exactly where PyTorch keeps them, so a cache filled by real PyTorch is reused as is, and
machines without network can be given the files by copying them there.
"""
from __future__ import annotations

import hashlib
import os
import re
from typing import Any, Dict, Optional
from urllib.parse import urlparse

import mindtorch.torch as torch

from ..datasets.utils import download_url

# torch.hub's convention: `<name>-<first hex digits of the file's sha256>.<ext>`
_HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")


def get_dir() -> str:
    """torch.hub.get_dir(): `$TORCH_HOME/hub`."""
    torch_home = os.path.expanduser(
        os.getenv("TORCH_HOME", os.path.join(os.getenv("XDG_CACHE_HOME", "~/.cache"), "torch")))
    return os.path.join(torch_home, "hub")


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def load_state_dict_from_url(url: str, model_dir: Optional[str] = None, map_location: Any = None,
                             progress: bool = True, check_hash: bool = False, file_name: Optional[str] = None,
                             weights_only: bool = True) -> Dict[str, Any]:
    """The state_dict at `url`: read from the hub cache, downloaded there first if absent.

    Raises RuntimeError naming the URL and the cache path when the download fails (e.g. no network): placing the
    file at that path makes the call work offline. `check_hash` compares the sha256 prefix in the file name.
    `progress` is accepted for torch's signature (the vision downloader always shows its tqdm bar).
    """
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    filename = file_name or os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        try:
            download_url(url, model_dir, filename)
        except RuntimeError as e:
            raise RuntimeError(
                f"could not download the weights {url} ({e}); without network, put the file at {cached_file} "
                "(TORCH_HOME selects the cache root)") from None
    if check_hash:
        match = _HASH_REGEX.search(filename)
        prefix = match.group(1) if match else None
        if prefix and not _sha256(cached_file).startswith(prefix):
            raise RuntimeError(f'invalid hash value (expected "{prefix}") for {cached_file}: delete the file and '
                               "download it again")
    return torch.load(cached_file, map_location=map_location, weights_only=weights_only)
