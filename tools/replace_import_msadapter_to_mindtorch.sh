#!/usr/bin/env bash
# Rewrite msadapter.pytorch / msadapter.torchvision imports of a Python project to mindtorch.
set -euo pipefail

PROG="$(basename -- "$0")"
SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"

usage_head() {
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
USAGE
}

# shellcheck source=tools/_replace_common.sh
source "${SCRIPT_DIR}/_replace_common.sh"
run_rewriter msadapter "$@"
