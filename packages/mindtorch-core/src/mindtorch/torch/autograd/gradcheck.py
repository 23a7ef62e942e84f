"""torch.autograd.gradcheck / gradgradcheck: compare analytical gradients with central finite differences.

    torch.autograd.gradcheck(fn, (x,))          # x: float64 tensors with requires_grad=True -> True or raises

The analytical Jacobian takes one `torch.autograd.grad` per output element (on a kept graph), the numerical one
two evaluations of `fn` per input element, so (as in torch) it is meant for small inputs. torch's extra checks
that need vmap or forward-mode AD (`check_batched_grad`, `check_forward_ad`, `check_batched_forward_grad`) are
refused with NotImplementedError; `fast_mode=True` runs the full (slow-mode) check, which decides the same way.
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple

import mindspore as ms
import numpy as np

from ._tensor_mixin import _as_torch

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]

_MsTensor = ms.Tensor


class GradcheckError(RuntimeError):
    """Raised by gradcheck/gradgradcheck when a check fails (a RuntimeError, as in torch)."""


def _as_tuple(x: Any) -> Tuple[Any, ...]:
    if isinstance(x, _MsTensor):
        return (x,)
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _diff_outputs(fn: Callable[..., Any], inputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
    outs = _as_tuple(fn(*inputs))
    return tuple(o for o in outs if isinstance(o, _MsTensor))


def _numerical_jacobian(fn: Callable[..., Any], inputs: Tuple[Any, ...], idx: List[int], eps: float
                        ) -> List[List[np.ndarray]]:
    """J[i][j]: (numel(out_j), numel(in_i)) central differences, the inputs rebuilt for every evaluation."""
    base = [t.detach().numpy().copy() if isinstance(t, _MsTensor) else t for t in inputs]

    def evaluate(i: int, flat_k: int, delta: float) -> List[np.ndarray]:
        args = []
        for n, (t, b) in enumerate(zip(inputs, base)):
            if isinstance(t, _MsTensor):
                arr = b.copy()
                if n == i:
                    arr.reshape(-1)[flat_k] += delta
                # the same requires_grad as the original: gradgradcheck's function differentiates inside
                args.append(_as_torch(_MsTensor(arr, dtype=t.dtype)).requires_grad_(bool(t.requires_grad)))
            else:
                args.append(t)
        return [o.detach().numpy().astype(np.float64).reshape(-1) for o in _diff_outputs(fn, tuple(args))]

    jac: List[List[np.ndarray]] = []
    for i in idx:
        n = int(np.prod(base[i].shape)) if base[i].shape else 1
        cols: List[List[np.ndarray]] = []
        for k in range(n):
            plus, minus = evaluate(i, k, eps), evaluate(i, k, -eps)
            cols.append([(p - m) / (2 * eps) for p, m in zip(plus, minus)])
        n_out = len(cols[0]) if cols else 0
        jac.append([np.stack([c[j] for c in cols], 1) if cols else np.zeros((0, 0)) for j in range(n_out)])
    return jac


def _analytical_jacobian(outputs: Tuple[Any, ...], inputs: Tuple[Any, ...], idx: List[int]
                         ) -> List[List[np.ndarray]]:
    from . import grad

    diff_in = tuple(inputs[i] for i in idx)
    jac = [[np.zeros((int(np.prod(o.shape)) if o.shape else 1, int(np.prod(t.shape)) if t.shape else 1))
            for o in outputs] for t in diff_in]
    for j, o in enumerate(outputs):
        if not o.requires_grad:
            continue
        n = int(np.prod(o.shape)) if o.shape else 1
        for k in range(n):
            seed = np.zeros(n, dtype=np.float64)
            seed[k] = 1.0
            g_out = _as_torch(_MsTensor(seed.reshape(tuple(o.shape)), dtype=o.dtype))
            grads = grad((o,), diff_in, (g_out,), retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    jac[i][j][k, :] = g.detach().numpy().astype(np.float64).reshape(-1)
    # stored as (out, in) like the numerical one
    return jac


def _fail(msg: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(msg)
    return False


def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, check_sparse_nnz: bool = False, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False) -> bool:
    """True when the gradients of `func` w.r.t. the inputs that require grad match finite differences
    (|analytical - numerical| <= atol + rtol * |numerical|); else raises GradcheckError (or returns False)."""
    for flag, name in ((check_batched_grad, "check_batched_grad"), (check_forward_ad, "check_forward_ad"),
                       (check_batched_forward_grad, "check_batched_forward_grad"),
                       (check_sparse_nnz, "check_sparse_nnz")):
        if flag:
            raise NotImplementedError(f"torch.autograd.gradcheck({name}=True) is not supported by mindtorch (no vmap, "
                                      f"forward-mode AD or sparse tensors on MindSpore): call it with {name}=False")
    tupled = _as_tuple(inputs)
    idx = [i for i, t in enumerate(tupled) if isinstance(t, _MsTensor) and t.requires_grad]
    if not idx:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i in idx:
        if tupled[i].dtype != ms.float64 and tupled[i].dtype != ms.complex128:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point "
                          "or complex. ")
    outputs = _diff_outputs(func, tupled)
    if not check_backward_ad:
        return True
    analytical = _analytical_jacobian(outputs, tupled, idx)
    numerical = _numerical_jacobian(func, tupled, idx, eps)
    for a_in, n_in, i in zip(analytical, numerical, idx):
        for j, (a, n) in enumerate(zip(a_in, n_in)):
            if a.shape != n.shape or not np.allclose(a, n, rtol=rtol, atol=atol):
                return _fail(f"Jacobian mismatch for output {j} with respect to input {i},\nnumerical:{n}\n"
                             f"analytical:{a}\n", raise_exception)
    return True


def gradgradcheck(func: Callable[..., Any], inputs: Any, grad_outputs: Optional[Sequence[Any]] = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False) -> bool:
    """gradcheck of the first-order gradients of `func` (its second derivatives), the grad_outputs (random
    when None) taking part as inputs, as in torch."""
    from . import grad

    if check_fwd_over_rev:
        raise NotImplementedError("torch.autograd.gradgradcheck(check_fwd_over_rev=True) is not supported by mindtorch "
                                  "(no forward-mode AD on MindSpore): call it with check_fwd_over_rev=False")
    tupled = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _diff_outputs(func, tupled)
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            _as_torch(_MsTensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype)).requires_grad_(True)
            for o in outs if o.requires_grad)
    tupled_go = _as_tuple(grad_outputs)
    n_in = len(tupled)

    def new_func(*args: Any) -> Tuple[Any, ...]:
        ins, gos = args[:n_in], args[n_in:]
        outs = tuple(o for o in _diff_outputs(func, ins) if o.requires_grad)
        diff_ins = tuple(t for t in ins if isinstance(t, _MsTensor) and t.requires_grad)
        grads = grad(outs, diff_ins, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    if not check_rev_over_rev:
        return True
    return gradcheck(new_func, tupled + tupled_go, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception,
                     nondet_tol=nondet_tol, check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode)
