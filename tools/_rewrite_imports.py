#!/usr/bin/env python3
"""Token-aware import rewriter shared by the ``tools/replace_import_*.sh`` scripts.

Only the tokens that name a module inside ``import`` / ``from ... import``
statements are edited; every other byte of a file (strings, docstrings,
comments, whitespace, line endings, encoding declaration, BOM) is preserved.

Modes
-----
``torch``      torch / torchvision / torchaudio  ->  mindtorch.torch / ...
``msadapter``  msadapter.pytorch / msadapter.torchvision  ->  mindtorch.torch / mindtorch.torchvision

Rules of the ``torch`` mode (``X`` is torch, torchvision or torchaudio)::

    import X                  -> import mindtorch.X as X
    import X as A             -> import mindtorch.X as A
    import X.sub as A         -> import mindtorch.X.sub as A
    import X.sub              -> import mindtorch.X as X, mindtorch.X.sub
    from X[.sub] import names -> from mindtorch.X[.sub] import names

The bare ``import X.sub`` form keeps binding the name ``X`` (now to
``mindtorch.X``) and still loads the submodule, so ``X.sub.attr`` keeps
working.  It stays a single import statement (no ``;`` is added), which is
valid wherever the original statement was.  Every rewritten module path
starts with ``mindtorch``, which is never matched again, so the rewrite is
idempotent.

Rules of the ``msadapter`` mode (``P`` = pytorch -> torch, torchvision -> torchvision)::

    import msadapter.P[.sub] as A    -> import mindtorch.T[.sub] as A
    from msadapter.P[.sub] import n  -> from mindtorch.T[.sub] import n
    from msadapter import pytorch    -> from mindtorch import torch as pytorch
    import msadapter.P[.sub]         -> import mindtorch.T[.sub]  (and, in that file, the
                                        code references ``msadapter.P`` -> ``mindtorch.T``)
"""

import argparse
import ast
import difflib
import io
import os
import stat
import sys
import tempfile
import tokenize

TORCH_TOP_LEVEL = ("torch", "torchvision", "torchaudio")
MSADAPTER_SUBPACKAGES = {"pytorch": "torch", "torchvision": "torchvision"}
SKIPPED_DIR_NAMES = {".git", ".hg", ".svn", "__pycache__"}

EXIT_OK = 0
EXIT_ERRORS = 1
EXIT_USAGE = 2


class SkipFile(Exception):
    """The file cannot be rewritten safely; it is left untouched."""


# --------------------------------------------------------------------------- output


def _emit(stream, text):
    """Write ``text`` (may contain surrogate-escaped path bytes) without crashing."""
    stream.flush()
    stream.buffer.write(os.fsencode(text))
    stream.buffer.flush()


def _emit_bytes(stream, data):
    stream.flush()
    stream.buffer.write(data)
    stream.buffer.flush()


# --------------------------------------------------------------------------- tokens


def _is_op(tok, value):
    return tok.type == tokenize.OP and tok.string == value


def _is_name(tok, value=None):
    return tok.type == tokenize.NAME and (value is None or tok.string == value)


def _significant_tokens(lines):
    it = iter(lines)
    result = []
    for tok in tokenize.generate_tokens(lambda: next(it, "")):
        if tok.type == tokenize.ERRORTOKEN:
            raise SkipFile(f"line {tok.start[0]}: cannot tokenize {tok.string!r}")
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        result.append(tok)
    return result


def _parse_dotted(toks, j):
    """Parse ``NAME ('.' NAME)*`` starting at ``toks[j]``; return (name tokens, next index)."""
    if not _is_name(toks[j]):
        return None, j
    names = [toks[j]]
    j += 1
    while _is_op(toks[j], ".") and _is_name(toks[j + 1]):
        names.append(toks[j + 1])
        j += 2
    return names, j


def _ends_statement(tok):
    return tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or _is_op(tok, ";")


def _parse_import(toks, i):
    """``import a.b as c, d`` at ``toks[i]``; return (items, end) or (None, end)."""
    j = i + 1
    items = []
    while True:
        names, j = _parse_dotted(toks, j)
        if names is None:
            return None, j
        alias = None
        if _is_name(toks[j], "as") and _is_name(toks[j + 1]):
            alias = toks[j + 1]
            j += 2
        items.append((names, alias))
        if _is_op(toks[j], ","):
            j += 1
            continue
        break
    if not _ends_statement(toks[j]):
        return None, j
    return items, j


def _parse_from(toks, i):
    """``from ..a.b import (c as d, e)`` at ``toks[i]``; return (dots, module, names, end)."""
    j = i + 1
    dots = 0
    while toks[j].type == tokenize.OP and toks[j].string in (".", "..."):
        dots += len(toks[j].string)
        j += 1
    module = []
    if not _is_name(toks[j], "import"):
        module, j = _parse_dotted(toks, j)
        if module is None:
            return None, j
    if not _is_name(toks[j], "import"):
        return None, j
    j += 1
    imported = []
    if _is_op(toks[j], "*"):
        imported.append((toks[j], None))
        j += 1
    else:
        paren = _is_op(toks[j], "(")
        if paren:
            j += 1
        while _is_name(toks[j]):
            name, alias = toks[j], None
            j += 1
            if _is_name(toks[j], "as") and _is_name(toks[j + 1]):
                alias = toks[j + 1]
                j += 2
            imported.append((name, alias))
            if not _is_op(toks[j], ","):
                break
            j += 1
        if paren:
            if not _is_op(toks[j], ")"):
                return None, j
            j += 1
    if not imported or not _ends_statement(toks[j]):
        return None, j
    return (dots, module, imported), j


# --------------------------------------------------------------------------- rules


class Rewriter:
    """Collects edits ``(start_tok, end_tok, replacement)`` for one file."""

    def __init__(self, mode, display_path, warn):
        self.mode = mode
        self.display_path = display_path
        self.warn = warn
        self.edits = []
        self.rewrite_references = False

    def edit(self, first, last, text):
        self.edits.append((first, last, text))

    # -- torch mode -----------------------------------------------------------------

    def torch_import(self, names, alias):
        top = names[0]
        if top.string not in TORCH_TOP_LEVEL:
            return
        target = "mindtorch." + top.string
        if alias is not None:
            self.edit(top, top, target)
        elif len(names) == 1:
            self.edit(top, top, f"{target} as {top.string}")
        else:
            # ``import torch.nn`` binds ``torch`` and loads ``torch.nn``.
            self.edit(top, top, f"{target} as {top.string}, {target}")

    def torch_from(self, dots, module, imported):
        if dots or not module or module[0].string not in TORCH_TOP_LEVEL:
            return
        self.edit(module[0], module[0], "mindtorch." + module[0].string)

    # -- msadapter mode -------------------------------------------------------------

    @staticmethod
    def _msadapter_target(names):
        if len(names) >= 2 and names[0].string == "msadapter":
            return MSADAPTER_SUBPACKAGES.get(names[1].string)
        return None

    def msadapter_import(self, names, alias):
        target = self._msadapter_target(names)
        if target is None:
            return
        self.edit(names[0], names[1], "mindtorch." + target)
        if alias is None:
            # ``import msadapter.pytorch`` bound ``msadapter``; the new statement binds
            # ``mindtorch``, so the code references are rewritten too.
            self.rewrite_references = True

    def msadapter_from(self, dots, module, imported):
        if dots or not module:
            return
        target = self._msadapter_target(module)
        if target is not None:
            self.edit(module[0], module[1], "mindtorch." + target)
            return
        if len(module) != 1 or module[0].string != "msadapter":
            return
        hits = [name.string in MSADAPTER_SUBPACKAGES for name, _ in imported]
        if not any(hits):
            return
        if not all(hits):
            self.warn(
                f"{self.display_path}:{module[0].start[0]}: 'from msadapter import ...' mixes"
                " pytorch/torchvision with other names; left unchanged, please split it by hand"
            )
            return
        self.edit(module[0], module[0], "mindtorch")
        for name, alias in imported:
            new = MSADAPTER_SUBPACKAGES[name.string]
            if new == name.string:
                continue
            self.edit(name, name, new if alias is not None else f"{new} as {name.string}")

    def msadapter_references(self, toks, claimed):
        for k in range(len(toks) - 2):
            if k in claimed or not _is_name(toks[k], "msadapter"):
                continue
            if k > 0 and _is_op(toks[k - 1], "."):
                continue
            if not _is_op(toks[k + 1], ".") or not _is_name(toks[k + 2]):
                continue
            target = MSADAPTER_SUBPACKAGES.get(toks[k + 2].string)
            if target is not None:
                self.edit(toks[k], toks[k + 2], "mindtorch." + target)

    # -- driver ---------------------------------------------------------------------

    def run(self, toks):
        claimed = set()
        depth = 0
        prev = None
        i = 0
        while i < len(toks):
            tok = toks[i]
            at_statement_start = (
                prev is None
                or prev.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
                or _is_op(prev, ";")
                or (depth == 0 and _is_op(prev, ":"))
            )
            if at_statement_start and _is_name(tok, "import"):
                items, end = _parse_import(toks, i)
                if items is not None:
                    for names, alias in items:
                        if self.mode == "torch":
                            self.torch_import(names, alias)
                        else:
                            self.msadapter_import(names, alias)
                    claimed.update(range(i, end))
                    prev, i = toks[end - 1], end
                    continue
            elif at_statement_start and _is_name(tok, "from"):
                parsed, end = _parse_from(toks, i)
                if parsed is not None:
                    if self.mode == "torch":
                        self.torch_from(*parsed)
                    else:
                        self.msadapter_from(*parsed)
                    claimed.update(range(i, end))
                    prev, i = toks[end - 1], end
                    continue
            if tok.type == tokenize.OP:
                if tok.string in "([{":
                    depth += 1
                elif tok.string in ")]}":
                    depth = max(depth - 1, 0)
            prev = tok
            i += 1
        if self.rewrite_references:
            self.msadapter_references(toks, claimed)


def rewrite_source(text, mode, display_path, warn):
    """Return the rewritten ``text``; raise ``SkipFile`` when it cannot be done safely."""
    lines = io.StringIO(text, newline="").readlines()
    # Old Mac line endings: tokenize sees "\n" instead (same length, same offsets).
    token_lines = [line[:-1] + "\n" if line.endswith("\r") else line for line in lines]
    try:
        toks = _significant_tokens(token_lines)
    except SkipFile:
        raise
    except (tokenize.TokenError, SyntaxError, ValueError) as exc:
        raise SkipFile(f"cannot tokenize: {exc}") from None

    rewriter = Rewriter(mode, display_path, warn)
    rewriter.run(toks)
    if not rewriter.edits:
        return text

    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(pos):
        return starts[pos[0] - 1] + pos[1]

    spans = []
    for first, last, replacement in rewriter.edits:
        begin, end = offset(first.start), offset(last.end)
        if text[offset(first.start) : offset(first.end)] != first.string or (
            text[offset(last.start) : end] != last.string
        ):
            raise SkipFile("internal error: token positions do not match the source")
        spans.append((begin, end, replacement))
    spans.sort()
    pieces = []
    cursor = 0
    for begin, end, replacement in spans:
        if begin < cursor:
            raise SkipFile("internal error: overlapping edits")
        pieces.append(text[cursor:begin])
        pieces.append(replacement)
        cursor = end
    pieces.append(text[cursor:])
    new_text = "".join(pieces)

    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return new_text  # not parseable by this interpreter; token-level edit only
    try:
        ast.parse(new_text)
    except (SyntaxError, ValueError) as exc:
        raise SkipFile(f"internal error: rewritten code does not parse ({exc})") from None
    return new_text


# --------------------------------------------------------------------------- files


def decode_source(data):
    """Decode ``data`` following PEP 263 (UTF-8 by default); return (text, encoding)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SkipFile(f"bad encoding declaration: {exc}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SkipFile("not valid {}: {}".format("UTF-8" if encoding.startswith("utf-8") else encoding, exc)) from None
    if text.encode(encoding) != data:
        raise SkipFile(f"{encoding} decoding does not round-trip byte for byte")
    return text, encoding


def write_atomically(path, data):
    """Replace ``path`` by ``data`` via a temp file in the same directory, keeping the mode."""
    st = os.stat(path)
    directory, base = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + base + ".", suffix=".rewrite-tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if hasattr(os, "chown"):
            tmp_st = os.stat(tmp)
            if (tmp_st.st_uid, tmp_st.st_gid) != (st.st_uid, st.st_gid):
                try:
                    os.chown(tmp, st.st_uid, st.st_gid)
                except OSError:
                    pass
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def iter_python_files(root, warn):
    """Yield (path, path relative to root) of every regular ``*.py`` file, sorted."""
    if not os.path.isdir(root):
        if root.endswith(".py") and os.path.isfile(root):
            yield root, os.path.basename(root)
        else:
            warn(f"{root} is not a directory or a *.py file; nothing to do")
        return

    def onerror(exc):
        warn(f"cannot read directory {exc.filename}: {exc.strerror}")

    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror):
        kept = []
        for name in sorted(dirnames):
            sub = os.path.join(dirpath, name)
            if name in SKIPPED_DIR_NAMES or os.path.islink(sub):
                continue
            if os.path.isfile(os.path.join(sub, "pyvenv.cfg")):
                continue  # a virtual environment: never rewrite installed packages
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith(".py") and os.path.isfile(path) and not os.path.islink(path):
                yield path, os.path.relpath(path, root)


def unified_diff(old, new, rel, encoding):
    old_lines = io.StringIO(old, newline="").readlines()
    new_lines = io.StringIO(new, newline="").readlines()
    rel = rel.replace(os.sep, "/")
    chunks = []
    for line in difflib.unified_diff(old_lines, new_lines, "a/" + rel, "b/" + rel, n=3):
        if line.startswith(("--- ", "+++ ")):
            if " " in rel:  # like git: a trailing TAB lets patch(1) read names with spaces
                line = line[:-1] + "\t\n"
            chunks.append(os.fsencode(line))
            continue
        data = line.encode(encoding)
        if not line.endswith(("\n", "\r")):
            data += b"\n\\ No newline at end of file\n"
        chunks.append(data)
    return b"".join(chunks)


def main(argv=None):
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--mode", choices=("torch", "msadapter"), required=True)
    parser.add_argument("--prog", default="rewrite_imports")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("path")
    args = parser.parse_args(argv)
    prog = args.prog
    root = args.path

    def warn(message):
        _emit(sys.stderr, f"{prog}: warning: {message}\n")

    if not os.path.exists(root):
        _emit(sys.stderr, f"{prog}: error: path does not exist: {root}\n")
        return EXIT_USAGE

    scanned = changed = skipped = failed = 0
    for path, rel in iter_python_files(root, warn):
        scanned += 1
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            text, encoding = decode_source(data)
            new_text = rewrite_source(text, args.mode, path, warn)
        except SkipFile as exc:
            skipped += 1
            warn(f"skipping {path} (left unchanged): {exc}")
            continue
        except OSError as exc:
            failed += 1
            warn(f"cannot read {path}: {exc.strerror or exc}")
            continue
        if new_text == text:
            continue
        changed += 1
        if args.dry_run:
            _emit_bytes(sys.stdout, unified_diff(text, new_text, rel, encoding))
            continue
        try:
            write_atomically(path, new_text.encode(encoding))
        except OSError as exc:
            changed -= 1
            failed += 1
            warn(f"cannot write {path}: {exc.strerror or exc}")
            continue
        _emit(sys.stdout, f"rewrote {path}\n")

    verb = "would be changed (dry run, nothing written)" if args.dry_run else "changed"
    summary = f"{prog}: {changed} of {scanned} Python file(s) {verb}"
    if skipped:
        summary += f", {skipped} skipped with warnings"
    if failed:
        summary += f", {failed} failed"
    _emit(sys.stdout, summary + "\n")
    return EXIT_ERRORS if failed else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
