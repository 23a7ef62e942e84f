#!/usr/bin/env bash
# Rewrite torch / torchvision / torchaudio imports of a Python project to mindtorch.
set -euo pipefail

PROG="$(basename -- "$0")"
SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"

usage_head() {
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
USAGE
}

# shellcheck source=tools/_replace_common.sh
source "${SCRIPT_DIR}/_replace_common.sh"
run_rewriter torch "$@"
