"""torch.autograd.Function on MindSpore's custom-function node (`mindspore._Function`, via `_ms.MsFunction`).

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):            # runs without recording, as in torch
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):        # grad: Tensor shaped like the output
            (y,) = ctx.saved_tensors
            return grad * y             # one gradient (or None) per forward input

    y = Exp.apply(x)

The node sits on MindSpore's C++ tape, so it is honoured by `loss.backward()`, `torch.autograd.grad` and by
`mindspore.value_and_grad` alike. ctx offers save_for_backward / saved_tensors / needs_input_grad /
mark_non_differentiable / mark_dirty / set_materialize_grads and any Python attribute (`ctx.k = 3`).
Gradients of unused outputs arrive as zeros (materialized), as torch does by default.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import mindspore as ms

from .. import _ms
from .._grad_mode import no_grad
from ._tensor_mixin import _as_torch

_MsTensor = ms.Tensor
_SAVED = _ms.MsFunction.__mro__[1].saved_tensors  # the C++ slot of FunctionBase

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


def _wrap_out(x: Any) -> Any:
    if type(x) is _MsTensor:
        return _as_torch(x)
    if type(x) in (tuple, list):
        return type(x)(_wrap_out(v) for v in x)
    return x


# MindSpore keeps the shape a parameter had when it first required grad for the gradient check of custom autograd
# nodes ("grad tensor should be broadcast to expected shape ... {old shape}"), with no way to refresh it. A parameter
# whose data took another shape (`p.data = t`) is marked, and enters a Function through a recorded identity; the
# flag below keeps that scan off the hot path until the first such parameter exists.
_STALE_GRAD_SHAPES = [False]


def mark_stale_grad_shape(param: Any) -> None:
    """Record that `param`'s data changed shape while it requires grad (see `_STALE_GRAD_SHAPES`)."""
    param.__dict__["_mt_stale_grad_shape"] = True
    _STALE_GRAD_SHAPES[0] = True


class FunctionCtx:
    """Type of the `ctx` torch passes to forward/backward (here the Function node itself; kept for
    `isinstance` checks and type annotations)."""


class Function(_ms.MsFunction):
    """Base class of custom differentiable operations (see the module docstring)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bw = cls.__dict__.get("backward")
        if bw is not None:
            fn = bw.__func__ if isinstance(bw, staticmethod) else bw

            @functools.wraps(fn)
            def backward(ctx: Any, *grads: Any) -> Any:
                res = fn(ctx, *(_wrap_out(g) for g in grads))
                n = ctx.__dict__.get("_mt_num_inputs")
                if n is not None:
                    res = _check_num_grads(cls.__name__, res, n)
                return res

            cls.backward = staticmethod(backward)
        fw = cls.__dict__.get("forward")
        if fw is not None and not isinstance(fw, staticmethod):
            raise RuntimeError(
                "Legacy autograd function with non-static forward method is deprecated. Please use new-style "
                "autograd function with static forward method. (Example: "
                "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")
        if fw is not None:
            ffn = fw.__func__

            @functools.wraps(ffn)
            def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
                ctx.__dict__["_mt_num_inputs"] = len(args)  # for torch's check on backward's result
                return ffn(ctx, *args, **kwargs)

            cls.forward = staticmethod(forward)
        if "vjp" in cls.__dict__ and "backward" not in cls.__dict__:
            cls.backward = cls.__dict__["vjp"]

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it "
            "with backward mode AD.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        _ms.enable_grad_recording()
        if _STALE_GRAD_SHAPES[0]:  # a parameter's data changed shape somewhere (rare): scan the arguments
            args = tuple(ms.ops.mul(a, 1) if "_mt_stale_grad_shape" in getattr(a, "__dict__", ()) else a
                         for a in args)
        out = _wrap_out(super().apply(*args, **kwargs))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, _MsTensor) and t._requires_grad:
                # MindSpore cannot hand out this node once backward has freed the ctx ("Try to get grad node of
                # custom function which ctx has been freed!"); torch's `y.grad_fn` still works then: keep it.
                t.__dict__["_mt_grad_node"] = _ms.grad_node(t)
        return out

    # ctx API (ctx is the node instance) ----------------------------------------------------------------
    @property
    def saved_tensors(self) -> tuple:
        return tuple(_wrap_out(t) for t in _SAVED.__get__(self))

    @saved_tensors.setter
    def saved_tensors(self, value: tuple) -> None:
        _SAVED.__set__(self, value)

    saved_variables = saved_tensors


def _check_num_grads(name: str, res: Any, n: int) -> Any:
    """torch's rule on what backward returns: one gradient (or None) per forward input; extra trailing Nones are
    dropped, anything else is an error (MindSpore silently ignored extra gradients)."""
    grads = res if isinstance(res, tuple) else (res,)
    if len(grads) > n and all(g is None for g in grads[n:]):
        grads = grads[:n]
    if len(grads) != n:
        raise RuntimeError(f"function {name}Backward returned an incorrect number of gradients (expected {n}, got "
                           f"{len(grads)})")
    return grads if isinstance(res, tuple) else grads[0]


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a `backward`: it runs without recording (its result cannot be differentiated again)."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with no_grad():
            return fn(ctx, *args)
    return wrapper
