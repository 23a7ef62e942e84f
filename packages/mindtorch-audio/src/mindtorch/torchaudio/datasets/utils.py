"""torchaudio.datasets.utils: download with progress + checksum, archive extraction.

Downloads stream into a temporary file next to the destination and are renamed into place only after the
whole body arrived and the checksum matched, so a failure never leaves a partial file behind. Extraction
unpacks into a temporary folder inside the target and moves the entries into place at the end, so a corrupt
archive leaves nothing half-extracted; members that would land outside the target are refused.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from typing import Any, BinaryIO, List, Optional

_CHUNK = 1 << 20


def validate_file(fileobj: BinaryIO, hash_value: str, hash_type: str = "sha256") -> bool:
    """Whether the content of `fileobj` has the given hash (hex digest or a prefix of it)."""
    if hash_type not in ("sha256", "md5"):
        raise ValueError(f"hash_type must be 'sha256' or 'md5', but got '{hash_type}'")
    h = hashlib.sha256() if hash_type == "sha256" else hashlib.md5()
    for chunk in iter(lambda: fileobj.read(_CHUNK), b""):
        h.update(chunk)
    return h.hexdigest().startswith(hash_value.lower())


def download_url_to_file(url: str, dst: str, hash_prefix: Optional[str] = None, progress: bool = True,
                         timeout: float = 60.0) -> None:
    """Download `url` to `dst` (torch.hub.download_url_to_file's contract, used by torchaudio 0.12's datasets).

    `hash_prefix`: a prefix of the expected SHA256 hex digest. A tqdm progress bar is shown when `progress`.
    Raises RuntimeError naming the URL on network errors, truncated bodies and checksum mismatches; `dst` is
    written only when everything succeeded.
    """
    dst = os.path.expanduser(str(dst))
    folder = os.path.dirname(os.path.abspath(dst))
    os.makedirs(folder, exist_ok=True)
    try:
        response = urllib.request.urlopen(urllib.request.Request(url, headers={"User-Agent": "mindtorch"}),
                                          timeout=timeout)
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"torchaudio: cannot download '{url}': HTTP {e.code} {e.reason}") from e
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise RuntimeError(f"torchaudio: cannot download '{url}': {getattr(e, 'reason', e)} "
                           f"(network unreachable? download the file by hand to '{dst}')") from e
    size = response.headers.get("Content-Length")
    total = int(size) if size and size.isdigit() else None
    sha = hashlib.sha256()
    fd, tmp = tempfile.mkstemp(prefix=".download-", suffix=".part", dir=folder)
    received = 0
    try:
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=os.path.basename(dst))
        try:
            with os.fdopen(fd, "wb") as f, response:
                while True:
                    try:
                        chunk = response.read(_CHUNK)
                    except (OSError, urllib.error.URLError) as e:
                        raise RuntimeError(f"torchaudio: download of '{url}' failed after {received} bytes: "
                                           f"{e}") from e
                    if not chunk:
                        break
                    f.write(chunk)
                    sha.update(chunk)
                    received += len(chunk)
                    if bar is not None:
                        bar.update(len(chunk))
        finally:
            if bar is not None:
                bar.close()
        if total is not None and received != total:
            raise RuntimeError(f"torchaudio: download of '{url}' is incomplete: got {received} of {total} bytes")
        if hash_prefix is not None:
            digest = sha.hexdigest()
            if not digest.startswith(hash_prefix.lower()):
                raise RuntimeError(f"torchaudio: checksum mismatch for '{url}': expected SHA256 starting with "
                                   f"'{hash_prefix}', got '{digest}'; the download was discarded")
        os.replace(tmp, dst)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def download_url(url: str, download_folder: str, filename: Optional[str] = None, hash_value: Optional[str] = None,
                 hash_type: str = "sha256", progress_bar: bool = True, resume: bool = False) -> None:
    """torchaudio 0.12's older helper: download `url` into `download_folder` (checked against `hash_value`)."""
    filename = filename or os.path.basename(url)
    path = os.path.join(download_folder, filename)
    if hash_type == "sha256":
        download_url_to_file(url, path, hash_value, progress_bar)
        return
    download_url_to_file(url, path, None, progress_bar)
    if hash_value is not None:
        with open(path, "rb") as f:
            ok = validate_file(f, hash_value, hash_type)
        if not ok:
            os.remove(path)
            raise RuntimeError(f"torchaudio: checksum mismatch for '{url}' ({hash_type}); the download was discarded")


def _safe_target(root: str, name: str, archive: str) -> str:
    target = os.path.realpath(os.path.join(root, name))
    if not (target == os.path.realpath(root) or target.startswith(os.path.realpath(root) + os.sep)):
        raise RuntimeError(f"torchaudio: archive '{archive}' has a member outside the target folder: '{name}'")
    return target


def extract_archive(from_path: str, to_path: Optional[str] = None, overwrite: bool = False) -> List[str]:
    """Extract a .tar/.tar.gz/.tgz/.tar.bz2/.tar.xz or .zip archive; returns the extracted member paths.

    Existing files are kept unless `overwrite`. Raises RuntimeError naming the archive when it is corrupt or
    not an archive, FileNotFoundError when it does not exist."""
    from_path = str(from_path)
    if to_path is None:
        to_path = os.path.dirname(from_path)
    if not os.path.isfile(from_path):
        raise FileNotFoundError(f"torchaudio: no such archive: '{from_path}'")
    os.makedirs(to_path, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".extract-", dir=to_path)
    files: List[str] = []
    try:
        try:
            if zipfile.is_zipfile(from_path):
                with zipfile.ZipFile(from_path) as z:
                    bad = z.testzip()
                    if bad is not None:
                        raise RuntimeError(f"torchaudio: corrupt zip archive '{from_path}' (bad member '{bad}')")
                    names = z.namelist()
                    for n in names:
                        _safe_target(staging, n, from_path)
                    z.extractall(staging)
                    members = [n for n in names if not n.endswith("/")]
            elif tarfile.is_tarfile(from_path):
                with tarfile.open(from_path, "r:*") as tar:
                    entries: List[Any] = tar.getmembers()
                    for m in entries:
                        _safe_target(staging, m.name, from_path)
                        if m.issym() or m.islnk():
                            _safe_target(staging, os.path.join(os.path.dirname(m.name), m.linkname), from_path)
                    tar.extractall(staging)
                    members = [m.name for m in entries if m.isfile()]
            else:
                raise RuntimeError(f"torchaudio: '{from_path}' is not a tar or zip archive (or it is corrupt)")
        except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as e:
            raise RuntimeError(f"torchaudio: cannot extract '{from_path}': corrupt or truncated archive ({e})") from e
        for name in members:
            src = os.path.join(staging, name)
            dst = os.path.join(to_path, name)
            files.append(dst)
            if os.path.exists(dst) and not overwrite:
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.replace(src, dst)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return files


def _load_waveform(root: str, filename: str, exp_sample_rate: int) -> Any:
    from ..backend.soundfile_backend import load

    path = os.path.join(root, filename)
    waveform, sample_rate = load(path)
    if exp_sample_rate != sample_rate:
        raise ValueError(f"sample rate should be {exp_sample_rate}, but got {sample_rate} in '{path}'")
    return waveform
