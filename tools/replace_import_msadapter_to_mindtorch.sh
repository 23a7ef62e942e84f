#!/usr/bin/env bash
# Rewrite msadapter.pytorch / msadapter.torchvision imports of a Python project to mindtorch.
set -euo pipefail

PROG="$(basename -- "$0")"
SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"

usage() {
    cat <<USAGE
Usage: ${PROG} [--dry-run] [--help] [PROJECT_PATH]

Rewrite the imports of msadapter.pytorch and msadapter.torchvision (at any
depth) in every *.py file under PROJECT_PATH (default: ./) to mindtorch:

  import msadapter.pytorch as torch            -> import mindtorch.torch as torch
  import msadapter.pytorch.nn.functional as F  -> import mindtorch.torch.nn.functional as F
  from msadapter.pytorch.nn import Module      -> from mindtorch.torch.nn import Module
  from msadapter.torchvision import transforms -> from mindtorch.torchvision import transforms
  from msadapter import pytorch                -> from mindtorch import torch as pytorch
  import msadapter.pytorch                     -> import mindtorch.torch
      (a file with such a bare import also gets its code references
       msadapter.pytorch.X / msadapter.torchvision.X rewritten to
       mindtorch.torch.X / mindtorch.torchvision.X)

The rewrite is token-aware: strings, docstrings and comments are left alone
and every other byte of a file is preserved. Running it twice changes nothing
the second time. Files are replaced atomically and keep their permission
bits. Files that are not valid UTF-8 (or do not follow their PEP 263 coding
declaration) or cannot be tokenized are left untouched with a warning.
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

exec "${python_bin}" "${SCRIPT_DIR}/_rewrite_imports.py" --mode msadapter --prog "${PROG}" \
    ${dry_run[@]+"${dry_run[@]}"} -- "${project_path}"
