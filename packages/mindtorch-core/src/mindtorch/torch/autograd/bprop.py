"""The manual's custom backward for modules: `Module.bprop(self, *inputs, out, dout)` (user manual §4.4.1).

    class CustomNet(torch.nn.Module):
        def forward(self, a, b):
            return a.mm(b)

        def bprop(self, a, b, out, dout):
            return dout.mm(b.t()), a.t().mm(dout)

`nn.Module.__call__` calls `call_with_bprop` for every module class that defines `bprop`. The forward runs
without recording and one custom node is put on MindSpore's C++ tape whose backward calls `bprop`; that node
is honoured by `loss.backward()` and by `mindspore.value_and_grad` alike (MindSpore's own `Cell.bprop`
machinery cannot be used: it fails on the backward-style tape with "top_cell_ is null").

As with MindSpore's `Cell.bprop`, gradients flow only to the forward inputs: parameters used inside a module
with a custom bprop get no gradient from it. `bprop` returns one gradient per positional input (a tensor when
there is one input); keyword arguments are passed to forward and are not differentiated.
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

from .function import Function


class _ModuleBprop(Function):
    @staticmethod
    def forward(ctx: Any, module: Any, kwargs: Dict[str, Any], *inputs: Any) -> Any:
        out = module.forward(*inputs, **kwargs)
        ctx.module = module
        ctx.inputs = inputs
        ctx.out = out
        return out

    @staticmethod
    def backward(ctx: Any, *douts: Any) -> Any:
        dout = douts[0] if len(douts) == 1 else douts
        grads = ctx.module.bprop(*ctx.inputs, ctx.out, dout)
        if not isinstance(grads, (tuple, list)):
            grads = (grads,)
        n = len(ctx.inputs)
        if len(grads) != n:
            raise RuntimeError(
                f"{type(ctx.module).__name__}.bprop returned {len(grads)} gradients, but forward got {n} "
                "inputs: return one gradient (or None) per positional input")
        return (None, None, *grads)


def call_with_bprop(module: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    """Run `module.forward(*args, **kwargs)` with `module.bprop` as its backward (both autograd styles)."""
    return _ModuleBprop.apply(module, dict(kwargs), *args)
