"""torch.autograd.functional: vjp, jvp, vhp, hvp, jacobian, hessian (reverse mode, vectorize=False).

Built on `torch.autograd.grad` over MindSpore's tape. `jvp`/`hvp` use the double-vjp trick (as torch does);
`jacobian` takes one backward per output element on a kept graph, so it suits small problems (vectorize=True
and strategy="forward-mode" give the same Jacobian by the same row loop).
"""
from __future__ import annotations

from typing import Any, Callable, List, Tuple

import mindspore as ms
import numpy as np
from mindspore import ops

from ._tensor_mixin import _as_torch

__all__ = ["vjp", "jvp", "vhp", "hvp", "jacobian", "hessian"]

_MsTensor = ms.Tensor


def _tuple(x: Any) -> Tuple[bool, Tuple[Any, ...]]:
    if isinstance(x, _MsTensor):
        return False, (x,)
    return True, tuple(x)


def _grad_preprocess(inputs: Tuple[Any, ...], create_graph: bool) -> Tuple[Any, ...]:
    from .._grad_mode import enable_grad

    out = []
    with enable_grad():
        for t in inputs:
            if not isinstance(t, _MsTensor):
                raise TypeError(f"The inputs given to the function must be Tensors, got {type(t).__name__}")
            d = _as_torch(ops.stop_gradient(t))
            if create_graph and t._requires_grad:
                d = _as_torch(t * 1)  # keep the link to the caller's graph (torch uses view_as)
            else:
                d.requires_grad_(True)
            out.append(d)
    return tuple(out)


def _grads(outputs: Tuple[Any, ...], inputs: Tuple[Any, ...], grad_outputs: Tuple[Any, ...],
           create_graph: bool, retain_graph: bool = True) -> Tuple[Any, ...]:
    from . import grad

    outs, gos = [], []
    for o, g in zip(outputs, grad_outputs):
        if o._requires_grad:
            outs.append(o)
            gos.append(g)
    if not outs:
        return (None,) * len(inputs)
    return grad(tuple(outs), inputs, tuple(gos), retain_graph=retain_graph, create_graph=create_graph,
                allow_unused=True)


def _fill_zeros(grads: Tuple[Any, ...], refs: Tuple[Any, ...]) -> Tuple[Any, ...]:
    return tuple(_as_torch(ops.zeros_like(r)) if g is None else g for g, r in zip(grads, refs))


def _detach_all(x: Tuple[Any, ...], create_graph: bool) -> Tuple[Any, ...]:
    return x if create_graph else tuple(_as_torch(ops.stop_gradient(t)) for t in x)


def _out(is_tuple: bool, x: Tuple[Any, ...]) -> Any:
    return x if is_tuple else x[0]


def _check_outputs(outs: Tuple[Any, ...], strict: bool) -> None:
    """strict=True: every output must depend on the inputs (torch's `_check_requires_grad(..., "outputs")`)."""
    for i, o in enumerate(outs):
        if not isinstance(o, _MsTensor):
            raise TypeError(f"The outputs of the user-provided function given to the function must be either a Tensor "
                            f"or a tuple of Tensors but the given outputs of the user-provided function has an element "
                            f"of invalid type {type(o).__name__} (at index {i}).")
        if strict and not o._requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict "
                               "mode.")


def _check_strict_grads(grads: Tuple[Any, ...], strict: bool, what: str = "output") -> None:
    """strict=True: no input may be independent of the outputs (torch's `_fill_in_zeros` with strict)."""
    if strict:
        for i, g in enumerate(grads):
            if g is None:
                raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                                   "not allowed in strict mode.")


def _check_v(v: Any, refs: Tuple[Any, ...], what: str) -> None:
    """torch: v may be None only when the function's `what` is a single one-element tensor."""
    if v is None and (len(refs) != 1 or int(np.prod(tuple(refs[0].shape))) != 1):
        if what == "input":
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a "
                               "single Tensor with a single element.")
        raise RuntimeError("The vector v can only be None if the user-provided function returns a single Tensor "
                           "with a single element.")


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> Tuple[Any, Any]:
    """(func(inputs), v^T J): `v` shaped like the outputs (may be None for a single-element output)."""
    in_tuple, ins = _tuple(inputs)
    ins = _grad_preprocess(ins, create_graph)
    out_tuple, outs = _tuple(func(*ins))
    _check_outputs(outs, strict)
    _check_v(v, outs, "output")
    if v is None:
        vs = (None,) * len(outs)
    else:
        vs = _tuple(v)[1]
    g = _grads(outs, ins, vs, create_graph)
    _check_strict_grads(g, strict)
    g = _fill_zeros(g, ins)
    return _out(out_tuple, _detach_all(outs, create_graph)), _out(in_tuple, _detach_all(g, create_graph))


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> Tuple[Any, Any]:
    """(func(inputs), J v): `v` shaped like the inputs (double-vjp trick)."""
    in_tuple, ins = _tuple(inputs)
    _check_v(v, ins, "input")
    ins = _grad_preprocess(ins, create_graph)
    out_tuple, outs = _tuple(func(*ins))
    _check_outputs(outs, strict)
    vs = _tuple(v)[1] if v is not None else tuple(_as_torch(ops.ones_like(t)) for t in ins)
    us = tuple(_as_torch(ops.zeros_like(o)).requires_grad_(True) for o in outs)
    g = _grads(outs, ins, us, create_graph=True)
    _check_strict_grads(g, strict)
    pairs = [(gi, vi) for gi, vi in zip(g, vs) if gi is not None]
    if not pairs:
        res = tuple(_as_torch(ops.zeros_like(o)) for o in outs)
    else:
        res = _fill_zeros(_grads(tuple(p[0] for p in pairs), us, tuple(p[1] for p in pairs), create_graph), outs)
    return _out(out_tuple, _detach_all(outs, create_graph)), _out(out_tuple, _detach_all(res, create_graph))


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """J[i][j] of shape out_i.shape + in_j.shape (a tensor when func has one input and one output)."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
                         'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer '
                         'to use "reverse-mode".')
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is only "
                                  "implemented for `vectorize=True`.")
    if strict and (vectorize or strategy == "forward-mode"):
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorize=True` are not "
                           "supported together. Please either set `strict=False` or `vectorize=False`.")
    # vectorize=True / forward-mode are torch's speed options (vmap over the rows, forward AD): the Jacobian is the
    # same, so it is computed row by row in reverse mode here.
    in_tuple, ins = _tuple(inputs)
    ins = _grad_preprocess(ins, create_graph)
    out_tuple, outs = _tuple(func(*ins))
    _check_outputs(outs, strict)
    result: List[Tuple[Any, ...]] = []
    for o in outs:
        oshape = tuple(o.shape)
        n = int(np.prod(oshape)) if oshape else 1
        rows: List[List[Any]] = [[] for _ in ins]
        for k in range(n):
            if o._requires_grad:
                e = np.zeros(n, dtype=np.float32)
                e[k] = 1
                seed = _MsTensor(e.reshape(oshape), dtype=o.dtype)
                g = _grads((o,), ins, (seed,), create_graph)
                if strict:
                    for j, gj in enumerate(g):
                        if gj is None:
                            raise RuntimeError(f"Output {len(result)} of the user-provided function is independent "
                                               f"of input {j}. This is not allowed in strict mode.")
                g = _fill_zeros(g, ins)
            else:
                g = tuple(ops.zeros_like(t) for t in ins)
            for j, gj in enumerate(g):
                rows[j].append(gj)
        per_in = []
        for j, t in enumerate(ins):
            stacked = ops.stack(rows[j], 0) if n > 1 or oshape else rows[j][0]
            per_in.append(_as_torch(ops.reshape(stacked, oshape + tuple(t.shape))))
        result.append(_detach_all(tuple(per_in), create_graph))
    if not out_tuple:
        return _out(in_tuple, result[0])
    return tuple(_out(in_tuple, r) for r in result)


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar function: shape in_i.shape + in_j.shape (a tensor for a single input)."""
    in_tuple, ins = _tuple(inputs)

    def jac_func(*inp: Any) -> Any:
        out = func(*inp)
        if out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single element Tensor")
        return _fill_zeros(_grads((out,), inp, (None,), create_graph=True), inp)

    res = jacobian(jac_func, ins, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    if not in_tuple:
        return res[0][0]
    return res


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> Tuple[Any, Any]:
    """(func(inputs), v^T H)."""
    in_tuple, ins = _tuple(inputs)
    _check_v(v, ins, "input")
    ins = _grad_preprocess(ins, create_graph)
    out = func(*ins)
    out_tuple, outs = _tuple(out)
    _check_outputs(outs, strict)
    if out_tuple or int(np.prod(tuple(outs[0].shape))) != 1:
        raise RuntimeError("The function given to vhp/hvp should return a single Tensor with a single element")
    out = outs[0]
    g = _grads((out,), ins, (None,), create_graph=True)
    _check_strict_grads(g, strict)
    g = _fill_zeros(g, ins)
    vs = _tuple(v)[1] if v is not None else tuple(_as_torch(ops.ones_like(t)) for t in ins)
    pairs = [(gi, vi) for gi, vi in zip(g, vs) if gi._requires_grad]
    res = _fill_zeros(_grads(tuple(p[0] for p in pairs), ins, tuple(p[1] for p in pairs), create_graph), ins) \
        if pairs else tuple(_as_torch(ops.zeros_like(t)) for t in ins)
    return _detach_all((out,), create_graph)[0], _out(in_tuple, _detach_all(res, create_graph))


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> Tuple[Any, Any]:
    """(func(inputs), H v) (H is symmetric for twice-differentiable func, so this equals vhp)."""
    return vhp(func, inputs, v, create_graph, strict)
