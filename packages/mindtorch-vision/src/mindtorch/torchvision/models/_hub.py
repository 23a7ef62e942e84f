"""`load_state_dict_from_url` for the weights enums: core's `torch.hub` (as torchvision uses torch's), plus a
sha256 check of an already cached file when `check_hash` is asked for.

Files live in `$TORCH_HOME/hub/checkpoints/<file name of the url>` (TORCH_HOME defaults to `$XDG_CACHE_HOME/torch`,
i.e. `~/.cache/torch`), exactly where PyTorch keeps them, so a cache filled by real PyTorch is reused as is, and
machines without network can be given the files by copying them there.
"""
from __future__ import annotations

import hashlib
import os
from typing import Any, Dict, Optional
from urllib.parse import urlparse

from mindtorch.torch import hub
from mindtorch.torch.hub import get_dir  # noqa: F401  (re-exported: torchvision code imports it from here)


def _sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def load_state_dict_from_url(url: str, model_dir: Optional[str] = None, map_location: Any = None,
                             progress: bool = True, check_hash: bool = False, file_name: Optional[str] = None,
                             weights_only: bool = True) -> Dict[str, Any]:
    """The state_dict at `url`: read from the hub cache, downloaded there first if absent (`torch.hub`).

    Raises RuntimeError naming the URL and the cache path when the download fails (e.g. no network): placing the
    file at that path makes the call work offline. `check_hash` compares the sha256 prefix in the file name,
    also for a file that is already cached (torch checks only while downloading).
    """
    if check_hash:
        filename = file_name or os.path.basename(urlparse(url).path)
        cached_file = os.path.join(model_dir or os.path.join(hub.get_dir(), "checkpoints"), filename)
        match = hub.HASH_REGEX.search(filename)
        prefix = match.group(1) if match else None
        if prefix and os.path.exists(cached_file) and not _sha256(cached_file).startswith(prefix):
            raise RuntimeError(f'invalid hash value (expected "{prefix}") for {cached_file}: delete the file and '
                               "download it again")
    return hub.load_state_dict_from_url(url, model_dir, map_location, progress, check_hash, file_name,
                                        weights_only=weights_only)
