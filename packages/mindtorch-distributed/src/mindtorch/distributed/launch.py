"""`python -m mindtorch.distributed.launch` (torch.distributed.launch, torch 1.12): like `run`, but each
worker also gets `--local_rank=N` as its first argument unless `--use_env` is given."""
from __future__ import annotations

import sys
from typing import Optional, Sequence

from .run import get_args_parser, launch


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = get_args_parser()
    parser.prog = "python -m mindtorch.distributed.launch"
    parser.add_argument("--use_env", "--use-env", action="store_true",
                        help="read LOCAL_RANK from the environment instead of passing --local_rank")
    args = parser.parse_args(argv)
    extra = None if args.use_env else (lambda local_rank: [f"--local_rank={local_rank}"])
    return launch(args, extra)


if __name__ == "__main__":
    sys.exit(main())
