#!/usr/bin/env bash
# Rewrite torch / torchvision / torchaudio imports of a Python project to mindtorch.
set -euo pipefail

PROG="$(basename -- "$0")"
SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"

usage() {
    cat <<USAGE
Usage: ${PROG} [--dry-run] [--help] [PROJECT_PATH]

Rewrite the imports of torch, torchvision and torchaudio in every *.py file
under PROJECT_PATH (default: ./) to their mindtorch equivalents:

  import torch                      -> import mindtorch.torch as torch
  import torch as T                 -> import mindtorch.torch as T
  import torch.nn as nn             -> import mindtorch.torch.nn as nn
  import torch.nn                   -> import mindtorch.torch as torch, mindtorch.torch.nn
  from torch import nn              -> from mindtorch.torch import nn
  from torchvision.models import m  -> from mindtorch.torchvision.models import m
  (torchvision and torchaudio follow the same rules)

The rewrite is token-aware: strings, docstrings, comments and modules that
merely contain "torch" in their name (torchmetrics, torch_geometric, ...) are
left alone, and every other byte of a file is preserved. Running it twice
changes nothing the second time. Files are replaced atomically and keep their
permission bits. Files that are not valid UTF-8 (or do not follow their PEP 263
coding declaration) or cannot be tokenized are left untouched with a warning.
Directories .git, .hg, .svn, __pycache__, symlinks and virtual environments
(directories containing pyvenv.cfg) are skipped.

Options:
  -n, --dry-run   print a unified diff of the changes, write nothing
  -h, --help      show this help and exit

Environment:
  MINDTORCH_TOOLS_PYTHON  Python interpreter to use (default: python3)

Exit status: 0 on success, 1 if some file could not be written, 2 on usage
errors (unknown option, missing PROJECT_PATH).
USAGE
}

dry_run=()
project_path=""
path_given=0
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        -n | --dry-run) dry_run=(--dry-run) ;;
        --) shift; break ;;
        -*) echo "${PROG}: error: unknown option: $1" >&2; usage >&2; exit 2 ;;
        *)
            if ((path_given)); then
                echo "${PROG}: error: only one PROJECT_PATH is accepted (got '${project_path}' and '$1')" >&2
                exit 2
            fi
            project_path="$1"; path_given=1 ;;
    esac
    shift
done
if (($#)); then
    if ((path_given)) || (($# > 1)); then
        echo "${PROG}: error: only one PROJECT_PATH is accepted" >&2
        exit 2
    fi
    project_path="$1"; path_given=1
fi
((path_given)) || project_path="./"

if [[ ! -e "${project_path}" ]]; then
    echo "${PROG}: error: path does not exist: ${project_path}" >&2
    exit 2
fi

python_bin="${MINDTORCH_TOOLS_PYTHON:-python3}"
if ! command -v "${python_bin}" >/dev/null 2>&1; then
    echo "${PROG}: error: Python interpreter not found: ${python_bin}" >&2
    exit 2
fi

exec "${python_bin}" "${SCRIPT_DIR}/_rewrite_imports.py" --mode torch --prog "${PROG}" \
    ${dry_run[@]+"${dry_run[@]}"} -- "${project_path}"
