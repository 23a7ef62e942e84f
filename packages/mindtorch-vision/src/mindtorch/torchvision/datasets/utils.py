"""Downloading, verifying and extracting dataset files (torchvision.datasets.utils, 0.13 API).

`download_url` streams over HTTP(S) with urllib into `<file>.part`, shows a tqdm progress bar, retries, resumes a
partial `.part` with an HTTP Range request when the server supports it (206), verifies the MD5, and only then
renames the file into place: a failed download never leaves a file that looks complete, and a checksum mismatch
leaves nothing. Mirrors: the environment variable MINDTORCH_DATASET_MIRROR (one or more base URLs separated by
commas or spaces) is tried first, with the file name appended; then the dataset's own URL(s).
"""
from __future__ import annotations

import bz2
import gzip
import hashlib
import http.client
import lzma
import os
import os.path
import shutil
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from typing import Any, Callable, Iterable, List, Optional, Tuple, TypeVar

from tqdm import tqdm

USER_AGENT = "mindtorch/vision"
MIRROR_ENV = "MINDTORCH_DATASET_MIRROR"
_CHUNK = 1024 * 32

T = TypeVar("T", str, bytes)


def calculate_md5(fpath: str, chunk_size: int = 1024 * 1024) -> str:
    md5 = hashlib.md5(usedforsecurity=False)
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            md5.update(chunk)
    return md5.hexdigest()


def check_md5(fpath: str, md5: str, **kwargs: Any) -> bool:
    return md5 == calculate_md5(fpath, **kwargs)


def check_integrity(fpath: str, md5: Optional[str] = None) -> bool:
    """True when `fpath` is a file and (if given) its MD5 is `md5`."""
    if not os.path.isfile(fpath):
        return False
    if md5 is None:
        return True
    return check_md5(fpath, md5)


def env_mirrors() -> List[str]:
    """Base URLs from MINDTORCH_DATASET_MIRROR, in order (empty when unset)."""
    raw = os.environ.get(MIRROR_ENV, "")
    return [m for m in raw.replace(",", " ").split() if m]


def _mirror_url(base: str, filename: str) -> str:
    return base if base.endswith(filename) else base.rstrip("/") + "/" + filename


def _fetch(url: str, part: str, timeout: float) -> None:
    """Stream `url` into `part`, resuming from its current size when the server honours Range."""
    start = os.path.getsize(part) if os.path.exists(part) else 0
    headers = {"User-Agent": USER_AGENT}
    if start:
        headers["Range"] = f"bytes={start}-"
    req = urllib.request.Request(url, headers=headers)
    try:
        response = urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as e:
        if e.code == 416 and start:
            # "range not satisfiable": the partial file is already complete (or stale) -> let MD5 decide
            return
        raise
    with response:
        status = getattr(response, "status", 200)
        mode = "ab" if (start and status == 206) else "wb"
        if mode == "wb":
            start = 0
        length = response.headers.get("Content-Length")
        total = start + int(length) if length is not None else None
        with open(part, mode) as fh, tqdm(total=total, initial=start, unit="B", unit_scale=True,
                                          desc=os.path.basename(part)[:-5], disable=None) as bar:
            for chunk in iter(lambda: response.read(_CHUNK), b""):
                fh.write(chunk)
                bar.update(len(chunk))
        if total is not None and os.path.getsize(part) < total:
            raise urllib.error.URLError(f"connection closed after {os.path.getsize(part)} of {total} bytes")


def download_url(url: str, root: str, filename: Optional[str] = None, md5: Optional[str] = None,
                 max_redirect_hops: int = 3, retries: int = 3, timeout: float = 30.0) -> None:
    """Download `url` to `root/filename` (default: the URL's basename), verifying `md5` if given.

    Raises RuntimeError naming every URL tried when all fail (no network, HTTP error, bad checksum).
    """
    root = os.path.expanduser(root)
    if not filename:
        filename = os.path.basename(url)
    fpath = os.path.join(root, filename)
    os.makedirs(root, exist_ok=True)
    if check_integrity(fpath, md5):
        print("Using downloaded and verified file: " + fpath)
        return
    part = fpath + ".part"
    candidates = [_mirror_url(m, filename) for m in env_mirrors()] + [url]
    errors: List[str] = []
    for candidate in candidates:
        for attempt in range(max(1, retries)):
            try:
                _fetch(candidate, part, timeout)
            except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as e:
                reason = getattr(e, "reason", e)
                errors.append(f"{candidate}: {reason}")
                if isinstance(e, urllib.error.HTTPError) and 400 <= e.code < 500 and e.code != 429:
                    break  # a client error will not go away by retrying
                if attempt + 1 < retries:
                    time.sleep(min(0.1 * 2 ** attempt, 2.0))
                continue
            if md5 is not None and not check_md5(part, md5):
                actual = calculate_md5(part)
                os.remove(part)
                errors.append(f"{candidate}: MD5 mismatch (got {actual}, expected {md5})")
                break
            os.replace(part, fpath)
            return
        # a partial file from a failed source must not be resumed from another source
        if os.path.exists(part):
            os.remove(part)
    if os.path.exists(part):
        os.remove(part)
    raise RuntimeError(f"Failed to download {filename} to {fpath}:\n  " + "\n  ".join(errors))


def list_dir(root: str, prefix: bool = False) -> List[str]:
    root = os.path.expanduser(root)
    directories = [p for p in os.listdir(root) if os.path.isdir(os.path.join(root, p))]
    if prefix is True:
        directories = [os.path.join(root, d) for d in directories]
    return directories


def list_files(root: str, suffix: str, prefix: bool = False) -> List[str]:
    root = os.path.expanduser(root)
    files = [p for p in os.listdir(root) if os.path.isfile(os.path.join(root, p)) and p.endswith(suffix)]
    if prefix is True:
        files = [os.path.join(root, d) for d in files]
    return files


def download_file_from_google_drive(file_id: str, root: str, filename: Optional[str] = None,
                                    md5: Optional[str] = None) -> None:
    """Download a publicly shared Google Drive file (small files; large ones need a confirmation page)."""
    url = f"https://drive.google.com/uc?export=download&id={file_id}"
    download_url(url, root, filename or file_id, md5)


def _safe_members(tar: tarfile.TarFile, to_path: str) -> Iterable[tarfile.TarInfo]:
    base = os.path.realpath(to_path)
    for member in tar.getmembers():
        target = os.path.realpath(os.path.join(to_path, member.name))
        if not (target == base or target.startswith(base + os.sep)):
            raise RuntimeError(f"refusing to extract {member.name!r}: it would be written outside {to_path}")
        if member.issym() or member.islnk():
            link = os.path.realpath(os.path.join(os.path.dirname(target), member.linkname))
            if not link.startswith(base + os.sep):
                raise RuntimeError(f"refusing to extract link {member.name!r} -> {member.linkname!r}")
        yield member


def _extract_tar(from_path: str, to_path: str, compression: Optional[str]) -> None:
    with tarfile.open(from_path, f"r:{compression[1:]}" if compression else "r") as tar:
        members = list(_safe_members(tar, to_path))
        if hasattr(tarfile, "data_filter"):
            tar.extractall(to_path, members=members, filter="data")
        else:
            tar.extractall(to_path, members=members)


def _extract_zip(from_path: str, to_path: str, compression: Optional[str]) -> None:
    with zipfile.ZipFile(from_path, "r") as zf:
        bad = zf.testzip()
        if bad is not None:
            raise zipfile.BadZipFile(f"bad CRC for member {bad}")
        base = os.path.realpath(to_path)
        for name in zf.namelist():
            target = os.path.realpath(os.path.join(to_path, name))
            if not (target == base or target.startswith(base + os.sep)):
                raise RuntimeError(f"refusing to extract {name!r}: it would be written outside {to_path}")
        zf.extractall(to_path)


_ARCHIVE_EXTRACTORS = {".tar": _extract_tar, ".zip": _extract_zip}
_COMPRESSED_FILE_OPENERS: dict = {".bz2": bz2.open, ".gz": gzip.open, ".xz": lzma.open}
_FILE_TYPE_ALIASES = {".tbz": (".tar", ".bz2"), ".tbz2": (".tar", ".bz2"), ".tgz": (".tar", ".gz")}


def _detect_file_type(file: str) -> Tuple[str, Optional[str], Optional[str]]:
    """(suffix, archive type, compression) of `file`, e.g. ('.tar.gz', '.tar', '.gz')."""
    suffixes = [s.lower() for s in __import__("pathlib").Path(file).suffixes]
    if not suffixes:
        raise RuntimeError(
            f"File '{file}' has no suffixes that could be used to detect the archive type and compression."
        )
    suffix = suffixes[-1]
    if suffix in _FILE_TYPE_ALIASES:
        return (suffix, *_FILE_TYPE_ALIASES[suffix])
    if suffix in _ARCHIVE_EXTRACTORS:
        return suffix, suffix, None
    if suffix in _COMPRESSED_FILE_OPENERS:
        if len(suffixes) > 1:
            suffix2 = suffixes[-2]
            if suffix2 in _ARCHIVE_EXTRACTORS:
                return suffix2 + suffix, suffix2, suffix
        return suffix, None, suffix
    valid_suffixes = sorted(set(_FILE_TYPE_ALIASES) | set(_ARCHIVE_EXTRACTORS) | set(_COMPRESSED_FILE_OPENERS))
    raise RuntimeError(f"Unknown compression or archive type: '{suffix}'.\nKnown suffixes are: '{valid_suffixes}'.")


def _decompress(from_path: str, to_path: Optional[str] = None, remove_finished: bool = False) -> str:
    suffix, archive_type, compression = _detect_file_type(from_path)
    if not compression:
        raise RuntimeError(f"Couldn't detect a compression from suffix {suffix}.")
    if to_path is None:
        to_path = from_path.replace(suffix, archive_type if archive_type is not None else "")
    opener = _COMPRESSED_FILE_OPENERS[compression]
    part = to_path + ".part"
    try:
        with opener(from_path, "rb") as rfh, open(part, "wb") as wfh:
            shutil.copyfileobj(rfh, wfh)
    except BaseException:
        if os.path.exists(part):
            os.remove(part)
        raise
    os.replace(part, to_path)
    if remove_finished:
        os.remove(from_path)
    return to_path


def extract_archive(from_path: str, to_path: Optional[str] = None, remove_finished: bool = False) -> str:
    """Extract a .tar(.gz/.bz2/.xz)/.tgz/.zip archive, or decompress a single .gz/.bz2/.xz file.

    Returns the folder (archives) or the file (single compressed files) written. A corrupt archive raises
    RuntimeError naming the file.
    """
    if to_path is None:
        to_path = os.path.dirname(from_path)
    try:
        suffix, archive_type, compression = _detect_file_type(from_path)
        if not archive_type:
            return _decompress(from_path, os.path.join(to_path, os.path.basename(from_path).replace(suffix, "")),
                               remove_finished=remove_finished)
        _ARCHIVE_EXTRACTORS[archive_type](from_path, to_path, compression)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, lzma.LZMAError, ValueError) as e:
        raise RuntimeError(f"Cannot extract {from_path}: the archive is corrupt or truncated ({e})") from e
    if remove_finished:
        os.remove(from_path)
    return to_path


def download_and_extract_archive(url: str, download_root: str, extract_root: Optional[str] = None,
                                 filename: Optional[str] = None, md5: Optional[str] = None,
                                 remove_finished: bool = False) -> None:
    download_root = os.path.expanduser(download_root)
    if extract_root is None:
        extract_root = download_root
    if not filename:
        filename = os.path.basename(url)
    download_url(url, download_root, filename, md5)
    archive = os.path.join(download_root, filename)
    print(f"Extracting {archive} to {extract_root}")
    extract_archive(archive, extract_root, remove_finished)


def iterable_to_str(iterable: Iterable) -> str:
    return "'" + "', '".join([str(item) for item in iterable]) + "'"


def verify_str_arg(value: T, arg: Optional[str] = None, valid_values: Optional[Iterable[T]] = None,
                   custom_msg: Optional[str] = None) -> T:
    if not isinstance(value, str):
        if arg is None:
            msg = "Expected type str, but got type {type}."
        else:
            msg = "Expected type str for argument {arg}, but got type {type}."
        msg = msg.format(type=type(value), arg=arg)
        raise ValueError(msg)
    if valid_values is None:
        return value
    if value not in valid_values:
        if custom_msg is not None:
            msg = custom_msg
        else:
            msg = "Unknown value '{value}' for argument {arg}. Valid values are {{{valid_values}}}."
            msg = msg.format(value=value, arg=arg, valid_values=iterable_to_str(valid_values))
        raise ValueError(msg)
    return value


def _call_or_none(fn: Optional[Callable], x: Any) -> Any:
    return fn(x) if fn is not None else x
