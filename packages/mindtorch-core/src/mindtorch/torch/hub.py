"""torch.hub: the download cache for pretrained weights (`load_state_dict_from_url`, `download_url_to_file`) and
`load`/`list`/`help` for LOCAL hub repositories (a directory with a `hubconf.py`).

Files live where PyTorch keeps them: `get_dir()` = `$TORCH_HOME/hub` (TORCH_HOME defaults to
`$XDG_CACHE_HOME/torch`, i.e. `~/.cache/torch`), checkpoints in `<hub dir>/checkpoints/<file name>`. A cache filled
by real PyTorch is reused as is, and a machine without network can be given the files by copying them there.
Downloads are atomic (a temporary file in the target directory, renamed into place once complete and verified),
so an interrupted download never leaves a file that looks complete.

Not supported: fetching hub repositories from GitHub (`source='github'`): clone the repository and call
`torch.hub.load(<directory>, <entrypoint>, source='local')`.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
import tempfile
import urllib.error
import urllib.request
import warnings
import zipfile
from typing import Any, Callable, Dict, List, Optional
from urllib.parse import urlparse

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url", "set_dir"]

# torch.hub's convention: `<name>-<first hex digits of the file's sha256>.<ext>`
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
MODULE_HUBCONF = "hubconf.py"
VAR_DEPENDENCY = "dependencies"
_READ_CHUNK = 8192

_hub_dir: Optional[str] = None


def _get_torch_home() -> str:
    return os.path.expanduser(
        os.getenv("TORCH_HOME", os.path.join(os.getenv("XDG_CACHE_HOME", "~/.cache"), "torch")))


def get_dir() -> str:
    """The hub cache directory: set_dir()'s value, else `$TORCH_HOME/hub` (default `~/.cache/torch/hub`)."""
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead")
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d: str) -> None:
    """Use `d` as the hub cache directory for the rest of the process."""
    global _hub_dir
    _hub_dir = os.path.expanduser(os.fspath(d))


def _progress_bar(total: Optional[int], enabled: bool) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm is optional: no bar then
        return None
    return tqdm(total=total, disable=not enabled, unit="B", unit_scale=True, unit_divisor=1024)


def download_url_to_file(url: str, dst: str, hash_prefix: Optional[str] = None, progress: bool = True) -> None:
    """Download `url` to the file `dst` (atomically), checking that its sha256 starts with `hash_prefix`.

    Raises RuntimeError on a hash mismatch (nothing is left at `dst`), and urllib's URLError/HTTPError when the
    download itself fails (as torch does).
    """
    dst = os.path.expanduser(dst)
    dst_dir = os.path.dirname(os.path.abspath(dst))
    os.makedirs(dst_dir, exist_ok=True)
    req = urllib.request.Request(url, headers={"User-Agent": "mindtorch.hub"})
    tmp = tempfile.NamedTemporaryFile(delete=False, dir=dst_dir, prefix=os.path.basename(dst) + ".", suffix=".partial")
    try:
        sha256 = hashlib.sha256() if hash_prefix is not None else None
        with urllib.request.urlopen(req) as u:
            length = u.headers.get("Content-Length")
            bar = _progress_bar(int(length) if length else None, progress)
            try:
                while True:
                    buf = u.read(_READ_CHUNK)
                    if not buf:
                        break
                    tmp.write(buf)
                    if sha256 is not None:
                        sha256.update(buf)
                    if bar is not None:
                        bar.update(len(buf))
            finally:
                if bar is not None:
                    bar.close()
        tmp.close()
        if sha256 is not None:
            digest = sha256.hexdigest()
            if digest[:len(hash_prefix)] != hash_prefix:
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
        os.replace(tmp.name, dst)
    finally:
        tmp.close()
        if os.path.exists(tmp.name):
            os.remove(tmp.name)


class _DownloadError(RuntimeError, urllib.error.URLError):
    """A download that got no answer (no network, refused, timed out). A RuntimeError whose message names the URL
    and the cache path to put the file at by hand (working offline), and still the URLError torch raises
    there, so `except urllib.error.URLError` (or OSError) catches it as with torch."""

    def __init__(self, message: str, reason: Any) -> None:
        RuntimeError.__init__(self, message)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.args[0])


def _is_legacy_zip_format(filename: str) -> bool:
    """torch < 1.6 hub checkpoints: a zip holding exactly one file (torch.save's own zip holds several)."""
    if zipfile.is_zipfile(filename):
        infolist = zipfile.ZipFile(filename).infolist()
        return len(infolist) == 1 and not infolist[0].is_dir()
    return False


def _legacy_zip_load(filename: str, model_dir: str, map_location: Any, **load_kwargs: Any) -> Any:
    from .serialization import load as torch_load

    with zipfile.ZipFile(filename) as f:
        members = f.infolist()
        if len(members) != 1:
            raise RuntimeError("Only one file(not dir) is allowed in the zipfile")
        f.extractall(model_dir)
        extracted = os.path.join(model_dir, members[0].filename)
    return torch_load(extracted, map_location=map_location, **load_kwargs)


def load_state_dict_from_url(url: str, model_dir: Optional[str] = None, map_location: Any = None,
                             progress: bool = True, check_hash: bool = False, file_name: Optional[str] = None,
                             **load_kwargs: Any) -> Dict[str, Any]:
    """The object (usually a state_dict) saved at `url` by torch.save, through the hub cache.

    The file is `<model_dir or get_dir()/checkpoints>/<file_name or the URL's file name>`; it is downloaded only
    when absent. `check_hash`: the file name's `-<hex>.` part must prefix the file's sha256 (torch's rule).
    Without network, a RuntimeError (also a urllib URLError, as torch raises) names the URL and the cache path
    where the file can be put by hand; an HTTP error answer (404...) raises urllib's HTTPError, as in torch.
    Extra keyword arguments (e.g. `weights_only`) go to `torch.load`.
    """
    from .serialization import load as torch_load

    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead")
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stderr.write(f'Downloading: "{url}" to {cached_file}\n')
        hash_prefix = None
        if check_hash:
            match = HASH_REGEX.search(filename)
            hash_prefix = match.group(1) if match else None
        try:
            download_url_to_file(url, cached_file, hash_prefix, progress=progress)
        except urllib.error.HTTPError:
            raise  # the server answered (404, 403...): urllib's HTTPError goes through as in torch
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            reason = getattr(e, "reason", e)
            raise _DownloadError(f"could not download {url} ({reason}); without network, put the file at "
                                f"{cached_file} (TORCH_HOME or torch.hub.set_dir select the cache root)",
                                reason) from e
    if _is_legacy_zip_format(cached_file):
        return _legacy_zip_load(cached_file, model_dir, map_location, **load_kwargs)
    return torch_load(cached_file, map_location=map_location, **load_kwargs)


# ------------------------------------------------------------------------------------ local hub repositories
def _github_unsupported(api: str) -> NotImplementedError:
    return NotImplementedError(
        f"torch.hub.{api} with source='github' is not supported by mindtorch (no GitHub downloads): clone the "
        f"repository and call torch.hub.{api}(<its directory>, ..., source='local')")


def _load_hubconf(repo_dir: str) -> Any:
    path = os.path.join(os.path.expanduser(repo_dir), MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"Cannot find {MODULE_HUBCONF} in {repo_dir}")
    spec = importlib.util.spec_from_file_location("hubconf", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(path))  # hubconf imports its repository's modules, as in torch
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(os.path.dirname(path))
    missing = [d for d in getattr(module, VAR_DEPENDENCY, []) if importlib.util.find_spec(d) is None]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    return module


def _entry(module: Any, model: str) -> Callable:
    func = getattr(module, model, None)
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def list(github: str, force_reload: bool = False, skip_validation: bool = False, trust_repo: Any = None,
         source: str = "github") -> List[str]:
    """The entrypoints (public callables) of a local repository's hubconf.py (`source='local'`)."""
    if source != "local":
        raise _github_unsupported("list")
    module = _load_hubconf(github)
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(github: str, model: str, force_reload: bool = False, skip_validation: bool = False,  # noqa: A001
         trust_repo: Any = None, source: str = "github") -> Optional[str]:
    """The docstring of entrypoint `model` of a local repository (`source='local'`)."""
    if source != "local":
        raise _github_unsupported("help")
    return _entry(_load_hubconf(github), model).__doc__


def load(repo_or_dir: str, model: str, *args: Any, source: str = "github", trust_repo: Any = None,
         force_reload: bool = False, verbose: bool = True, skip_validation: bool = False, **kwargs: Any) -> Any:
    """`model(*args, **kwargs)` from the hubconf.py of a local directory (`source='local'`).

    GitHub repositories (`source='github'`, torch's default) raise NotImplementedError: clone the repository
    and pass its directory with source='local'.
    """
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source != "local":
        raise _github_unsupported("load")
    return _entry(_load_hubconf(repo_or_dir), model)(*args, **kwargs)
