"""torch.optim.LBFGS: a port of torch 1.12's lbfgs.py (including the strong-Wolfe line search).

All parameters are handled as one flat vector (MindSpore `ops.cat` of reshaped grads); scalar
quantities (dot products, losses) are Python floats, as torch reads them with `.item()`.
`step(closure)` requires a closure that zeroes the grads, recomputes the loss and calls `backward()`.
The functional call `optimizer(grads)` is refused: L-BFGS needs to re-evaluate the loss.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from mindspore import mint, ops

from .. import _ms
from ..autograd._tensor_mixin import leaf_grad
from ._math import add, mul
from .optimizer import _T, Optimizer, _as_number, assign_, step_tensor

__all__ = ["LBFGS"]


def _dot(a: Any, b: Any) -> float:
    return float(mint.sum(mint.mul(a, b)).asnumpy())


def _cubic_interpolate(x1: float, f1: float, g1: float, x2: float, f2: float, g2: float,
                       bounds: Optional[Tuple[float, float]] = None) -> float:
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square ** 0.5
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.


def _strong_wolfe(obj_func: Callable[..., Tuple[float, Any]], x: List[Any], t: float, d: Any, f: float, g: Any,
                  gtd: float, c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> Tuple[float, Any, float, int]:
    d_norm = float(mint.max(mint.abs(d)).asnumpy())
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = _dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new], [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new, gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
        bracket_gtd = [gtd, gtd_new]

    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new, gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos], bracket_gtd[high_pos] = bracket_g[low_pos], bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new, gtd_new
    t = bracket[low_pos]
    return bracket_f[low_pos], bracket_g[low_pos], t, ls_func_evals


class LBFGS(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1, max_iter: int = 20, max_eval: Optional[int] = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: Optional[str] = None) -> None:
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                        tolerance_change=tolerance_change, history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def __setstate__(self, state: Dict[str, Any]) -> None:
        super().__setstate__(state)
        self._params = self.param_groups[0]["params"]

    # torch keeps `ro` (1 / y.s per stored pair) and `H_diag` as 0-d tensors; they are floats here while training.
    def _export_scalar(self, name: str, value: Any) -> Any:
        if name in ("ro", "al"):
            return [step_tensor(v) if isinstance(v, float) else v for v in value]
        if name == "H_diag" and isinstance(value, float):
            return step_tensor(value)
        return value

    def _cast_state(self, p: Any, name: str, value: Any) -> Any:
        if name in ("ro", "al"):
            return [None if v is None else _as_number(v) for v in value]
        if name in ("H_diag", "t", "prev_loss") and value is not None:
            return _as_number(value)
        return super()._cast_state(p, name, value)

    def _gather_flat_grad(self) -> Any:
        views = []
        for p in self._params:
            g = leaf_grad(p)
            views.append(ops.zeros(p.numel(), p.dtype) if g is None else mint.reshape(g, (-1,)))
        return ops.cat(views, 0)

    def _add_grad(self, step_size: float, update: Any) -> None:
        offset = 0
        for p in self._params:
            n = p.numel()
            assign_(p, add(p, mint.reshape(update[offset:offset + n], tuple(p.shape)), alpha=step_size))
            offset += n

    def _clone_param(self) -> List[Any]:
        return [p + 0 for p in self._params]

    def _set_param(self, params_data: List[Any]) -> None:
        for p, pdata in zip(self._params, params_data):
            assign_(p, pdata)

    def _directional_evaluate(self, closure: Callable[[], Any], x: List[Any], t: float,
                              d: Any) -> Tuple[float, Any]:
        self._add_grad(t, d)
        loss = float(self._eval(closure))
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def _eval(self, closure: Callable[[], Any]) -> Any:
        prev = _ms.enable_grad_state()
        _ms.enable_grad_recording()
        _ms.set_enable_grad(True)
        try:
            return closure()
        finally:
            _ms.set_enable_grad(prev)

    def __call__(self, grads: Any) -> bool:  # type: ignore[override]
        raise NotImplementedError(
            "LBFGS cannot be called with precomputed grads (optimizer(grads)): it re-evaluates the loss several "
            "times per step. Use optimizer.step(closure) with a closure that calls loss.backward().")

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:  # noqa: C901 - mirrors torch
        if closure is None:
            raise RuntimeError("LBFGS requires a closure: optimizer.step(closure)")
        prev = _ms.enable_grad_state()
        _ms.set_enable_grad(False)
        try:
            return self._step(closure)
        finally:
            _ms.set_enable_grad(prev)
            _ms.enable_grad_recording()

    def _step(self, closure: Callable[[], Any]) -> Any:
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        state: Dict[str, Any] = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = self._eval(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        opt_cond = float(mint.max(mint.abs(flat_grad)).asnumpy()) <= tolerance_grad
        if opt_cond:
            return orig_loss

        d = state.get("d")
        t = state.get("t")
        old_dirs = state.get("old_dirs")
        old_stps = state.get("old_stps")
        ro = state.get("ro")
        H_diag = state.get("H_diag")
        prev_flat_grad = state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = mint.neg(flat_grad)
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1.0
            else:
                y = mint.sub(flat_grad, prev_flat_grad)
                s = mul(d, t)
                ys = _dot(y, s)
                if ys > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(_T(y))
                    old_stps.append(_T(s))
                    ro.append(1. / ys)
                    H_diag = ys / _dot(y, y)
                num_old = len(old_dirs)
                # torch keeps this scratch list in the state (history_size slots, None until first used)
                al: List[Optional[float]] = state.setdefault("al", [None] * history_size)
                q = mint.neg(flat_grad)
                for i in range(num_old - 1, -1, -1):
                    al[i] = _dot(old_stps[i], q) * ro[i]
                    q = add(q, old_dirs[i], alpha=-al[i])
                d = r = mul(q, H_diag)
                for i in range(num_old):
                    be_i = _dot(old_dirs[i], r) * ro[i]
                    r = add(r, old_stps[i], alpha=al[i] - be_i)
                d = r
            prev_flat_grad = flat_grad + 0
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(1., 1. / float(mint.sum(mint.abs(flat_grad)).asnumpy())) * lr
            else:
                t = lr
            gtd = _dot(flat_grad, d)
            if gtd > -tolerance_change:
                break
            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = self._clone_param()

                def obj_func(x: List[Any], t_: float, d_: Any) -> Tuple[float, Any]:
                    return self._directional_evaluate(closure, x, t_, d_)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd)
                self._add_grad(t, d)
                opt_cond = float(mint.max(mint.abs(flat_grad)).asnumpy()) <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    loss = float(self._eval(closure))
                    flat_grad = self._gather_flat_grad()
                    opt_cond = float(mint.max(mint.abs(flat_grad)).asnumpy()) <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if float(mint.max(mint.abs(mul(d, t))).asnumpy()) <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        state.update(d=_T(d), t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=H_diag,
                     prev_flat_grad=_T(prev_flat_grad), prev_loss=prev_loss)
        return orig_loss


