"""Convert a PyTorch `.pth` state_dict into a MindSpore `.ckpt` (`mindspore.load_checkpoint` reads it).

    mindtorch-pth2ckpt in.pth out.ckpt            (or: python -m mindtorch.tools.pth2ckpt in.pth out.ckpt)

The checkpoint is read with mindtorch's `torch.load` (PyTorch is not needed; weights_only by default). A
top-level dict holding a `state_dict` / `model_state_dict` / `model` entry is unwrapped. Parameter names are
kept as they are: mindtorch modules use torch's key names, so `load_state_dict` / `load_checkpoint` match.
Entries that are not tensors (e.g. `num_batches_tracked` stays: it is a tensor; an `epoch` int does not) are
skipped and listed.
"""
from __future__ import annotations

import argparse
import collections
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

import mindspore as ms

__all__ = ["convert", "main"]

_WRAPPER_KEYS = ("state_dict", "model_state_dict", "model")


def _flatten(obj: Any, prefix: str = "") -> Tuple[Dict[str, ms.Tensor], List[str]]:
    tensors: Dict[str, ms.Tensor] = collections.OrderedDict()
    skipped: List[str] = []
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, ms.Tensor):
            tensors[name] = value
        elif isinstance(value, dict):
            sub, sub_skipped = _flatten(value, name + ".")
            tensors.update(sub)
            skipped += sub_skipped
        else:
            skipped.append(name)
    return tensors, skipped


def convert(src: str, dst: str, weights_only: bool = True) -> Tuple[List[str], List[str]]:
    """Write the tensors of the state_dict in `src` to the MindSpore checkpoint `dst`.

    Returns (converted names, skipped names).
    """
    from mindtorch.torch.serialization import load

    obj = load(src, weights_only=weights_only)
    if not isinstance(obj, dict):
        raise ValueError(f"{src}: expected a state_dict (a dict of tensors), got {type(obj).__name__}")
    for key in _WRAPPER_KEYS:
        if isinstance(obj.get(key), dict):
            obj = obj[key]
            break
    tensors, skipped = _flatten(obj)
    if not tensors:
        raise ValueError(f"{src}: no tensors found")
    # Plain ms.Tensor copies: MindSpore's checkpoint writer expects its own classes.
    params = [{"name": name, "data": ms.Tensor(t.asnumpy(), dtype=t.dtype) if t.dtype != ms.bfloat16
               else ms.Tensor(t)} for name, t in tensors.items()]
    ms.save_checkpoint(params, dst)
    return list(tensors), skipped


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="mindtorch-pth2ckpt",
                                     description="Convert a PyTorch .pth state_dict to a MindSpore .ckpt")
    parser.add_argument("src", help="input .pth / .pt file (torch.save format)")
    parser.add_argument("dst", help="output .ckpt file")
    parser.add_argument("--unsafe", action="store_true",
                        help="load with weights_only=False (runs arbitrary pickle code: trusted files only)")
    args = parser.parse_args(argv)
    try:
        names, skipped = convert(args.src, args.dst, weights_only=not args.unsafe)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"mindtorch-pth2ckpt: error: {e}", file=sys.stderr)
        return 1
    print(f"wrote {len(names)} tensors to {args.dst}")
    if skipped:
        print(f"skipped {len(skipped)} non-tensor entries: {', '.join(skipped)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
