"""Helpers for the nn tests: run a function on mindtorch and on real torch with the same numpy inputs and
compare outputs and input gradients (ours through `mindspore.grad`, theirs through `backward`)."""
from typing import Any, Callable, Sequence

import mindspore as ms
import numpy as np
from _compare import assert_same

import mindtorch.torch as mt


def mine(a: np.ndarray) -> Any:
    return mt.from_numpy(np.array(a))


def ref(reftorch: Any, a: np.ndarray, grad: bool = False) -> Any:
    t = reftorch.from_numpy(np.array(a))
    if grad:
        t.requires_grad_(True)
    return t


def as_ref(reftorch: Any, x: Any) -> Any:
    """Our tensor (or nested tuple of them) as a real torch tensor with the same dtype/shape/values, so that
    `assert_same` compares through numpy only (independent of our Tensor's numpy protocol)."""
    if isinstance(x, (tuple, list)):
        return type(x)(as_ref(reftorch, v) for v in x)
    if isinstance(x, ms.Tensor):
        if x.dtype == ms.bfloat16:
            return reftorch.from_numpy(ms.Tensor.asnumpy(x.astype(ms.float32))).to(reftorch.bfloat16)
        return reftorch.from_numpy(np.array(ms.Tensor.asnumpy(x)))
    return x


def same(reftorch: Any, mine_out: Any, ref_out: Any, **kw: Any) -> None:
    """assert_same(ours, torch's) with ours converted through numpy."""
    if hasattr(ref_out, "detach"):
        ref_out = ref_out.detach()
    elif isinstance(ref_out, (tuple, list)):
        ref_out = type(ref_out)(r.detach() if hasattr(r, "detach") else r for r in ref_out)
    assert_same(as_ref(reftorch, mine_out), ref_out, **kw)


def _first(out: Any) -> Any:
    return out[0] if isinstance(out, (tuple, list)) else out


def check_fn(reftorch: Any, fn_mine: Callable, fn_ref: Callable, inputs: Sequence[np.ndarray],
             grad_argnums: Sequence[int] = (), rtol: float = 1e-5, atol: float = 1e-5, check_dtype: bool = True,
             seed: int = 0) -> None:
    """Same outputs, and same gradients of sum(out * cotangent) w.r.t. inputs[grad_argnums]."""
    ours = [mine(a) for a in inputs]
    theirs = [ref(reftorch, a, i in grad_argnums) for i, a in enumerate(inputs)]
    out_ref = fn_ref(*theirs)
    out_mine = fn_mine(*ours)
    same(reftorch, out_mine, out_ref, rtol=rtol, atol=atol, check_dtype=check_dtype)
    if not grad_argnums:
        return
    r = _first(out_ref)
    cot = np.asarray(np.random.RandomState(seed).randn(*r.shape)).astype(np.float32)
    (r * reftorch.from_numpy(cot).to(r.dtype)).sum().backward()

    def loss(*args: Any) -> Any:
        o = _first(fn_mine(*args))
        return ms.ops.sum(ms.ops.mul(o, ms.Tensor(cot).astype(o.dtype)))

    g = ms.grad(loss, grad_position=tuple(grad_argnums))(*ours)
    if len(grad_argnums) == 1:
        g = (g,)
    for gi, i in zip(g, grad_argnums):
        same(reftorch, gi, theirs[i].grad, rtol=max(rtol, 1e-4), atol=max(atol, 1e-4), check_dtype=False)
