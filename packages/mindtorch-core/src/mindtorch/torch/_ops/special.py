"""torch.special: torch's special functions. Most are existing entries under their special.* names (one
implementation each, exposed through `_registry.expose`); the rest are compositions of differentiable ops or
MindSpore kernels with CPU support and derivatives:

- i0e, i1, i1e, bessel_j0, bessel_j1: MindSpore's Bessel kernels (bessel_j0/j1 are accurate to ~4e-7 absolute,
  float32 level, also in float64);
- igamma/igammac (special.gammainc/gammaincc), zeta: MindSpore's Igamma/Igammac/Zeta kernels (~1e-6 relative in
  float64); as in torch only `other` is differentiable, backward through `input` raises NotImplementedError;
- erfcx, log_ndtr: compositions accurate in both tails (computed in float64 for float32 inputs).
"""
from __future__ import annotations

import math
from typing import Any

import mindspore as ms
import numpy as np
from mindspore import mint, ops

from .. import _dtype as D
from .. import _ms
from ..autograd.function import Function
from . import pointwise as P
from ._args import scalar_arg
from ._host import _host_op
from ._registry import expose, kernel, register

_NS = ("special",)


def _float(x: Any) -> Any:
    return x if x.dtype in D.all_float_type else ops.cast(x, D.get_default_dtype())


@register("special_entr", method=False, function=False, namespaces=_NS)
def entr(input: Any) -> Any:
    """-x * log(x) for x > 0, 0 at x == 0, -inf for x < 0."""
    x = _float(input)
    safe = mint.where(x > 0, x, ops.ones_like(x))
    out = mint.neg(mint.mul(x, mint.log(safe)))
    out = mint.where(x == 0, ops.zeros_like(x), out)
    return mint.where(x < 0, ops.full_like(x, -math.inf), out)


@register("special_ndtr", method=False, function=False, namespaces=_NS)
def ndtr(input: Any) -> Any:
    """The standard normal CDF: (1 + erf(x / sqrt(2))) / 2."""
    x = _float(input)
    return mint.mul(mint.add(mint.erf(mint.mul(x, scalar_arg(1.0 / math.sqrt(2.0), x))), 1.0), 0.5)


@register("special_ndtri", method=False, function=False, namespaces=_NS)
def ndtri(input: Any) -> Any:
    """The inverse of ndtr: sqrt(2) * erfinv(2p - 1), with torch's finite tails (see `_ndtri_tails`)."""
    p = _float(input)
    if not (_ms.HOST_MEMORY and id(p.dtype) in _NDTRI_HOST):
        return mint.mul(kernel("erfinv")(mint.sub(mint.mul(p, 2.0), 1.0)), scalar_arg(math.sqrt(2.0), p))
    # on the host in float64: 2p - 1 in float32 keeps only ~1e-7 of p (ndtri(1e-5) was 7e-5 off relative), and
    # the tails need their own evaluation; one node whose backward is torch's d ndtri/dp = sqrt(2 pi) e^(x^2/2)

    def compute(x: Any) -> Any:
        host = _ms.host_view(x)
        p64 = host.astype(np.float64)
        with _ms.quiet_fp():  # (+-inf at 0 and 1, nan outside [0, 1], as torch, without a warning)
            vals = math.sqrt(2.0) * P._np_erfinv(2.0 * p64 - 1.0)
        _ndtri_tails(p64, vals)
        return ms.Tensor.from_numpy(np.ascontiguousarray(vals.astype(host.dtype)))

    def vjp(inputs: Any, out: Any, grad: Any) -> Any:
        slope = mint.mul(kernel("exp")(mint.mul(mint.mul(out, out), 0.5)), scalar_arg(math.sqrt(2.0 * math.pi), out))
        return (mint.mul(grad, slope),)

    return _host_op(compute, vjp, p) if _ms.records_grad(p) else compute(p)


_NDTRI_HOST = frozenset(map(id, (D.float32, D.float64)))
_NDTRI_TAIL = 1e-7  # 2p - 1 rounds to -1 (an infinite result) from ~3e-8 (float32) / ~1e-16 (float64)


def _ndtri_tails(p: np.ndarray, out: np.ndarray) -> None:
    """Overwrite `out` (ndtri of p, a fresh result) where p < 1e-7 or 1 - p < 1e-7: there 2p - 1 loses p, and
    erfinv gave +-inf where torch's (Cephes') ndtri is finite (ndtri(1e-10) = -6.3613). Abramowitz-Stegun
    26.2.23 as the start, then Newton steps on Phi(x) = q with math.erfc (accurate relative to tiny q)."""
    flat_p, flat_out = p.reshape(-1), out.reshape(-1)
    q = np.minimum(flat_p.astype(np.float64), 1.0 - flat_p.astype(np.float64))
    idx = np.nonzero((q > 0) & (q < _NDTRI_TAIL))[0]
    for i in idx:
        qi = float(q[i])
        t = math.sqrt(-2.0 * math.log(qi))
        x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t)
              / (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3))
        for _ in range(4):
            phi = math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
            x -= (0.5 * math.erfc(-x / math.sqrt(2.0)) - qi) / phi
        flat_out[i] = x if flat_p[i] < 0.5 else -x


@register("special_xlog1py", method=False, function=False, namespaces=_NS)
def xlog1py(input: Any, other: Any) -> Any:
    """x * log1p(y), 0 where x == 0 (and y is not nan)."""
    if isinstance(input, (int, float)):
        input = ops.full_like(_float(other), float(input))
    x = _float(input)
    y = _float(other if not isinstance(other, (int, float)) else ops.full_like(x, float(other)))
    out = mint.mul(x, kernel("log1p")(y))
    return mint.where(mint.logical_and(x == 0, mint.logical_not(mint.isnan(y))), ops.zeros_like(out), out)


expose("special", {
    "expit": "sigmoid", "logit": "logit", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv", "expm1": "expm1",
    "exp2": "exp2", "log1p": "log1p", "sinc": "sinc", "i0": "i0", "xlogy": "xlogy", "gammaln": "lgamma",
    "digamma": "digamma", "psi": "digamma", "polygamma": "polygamma", "multigammaln": "mvlgamma",
    "round": "round", "logsumexp": "logsumexp", "softmax": "softmax", "log_softmax": "log_softmax",
})


# ------------------------------------------------------------------------ Bessel, gamma and zeta functions
class _NoDerivative(Function):
    """Identity whose backward raises torch's NotImplementedError: marks an argument torch has no derivative
    for (igamma's `input`, zeta's `input`), so backward through it fails as in torch instead of silently
    using a derivative MindSpore happens to define."""

    @staticmethod
    def forward(ctx: Any, x: Any, what: str) -> Any:
        ctx.what = what
        return mint.add(x, 0)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        raise NotImplementedError(f"the derivative for '{ctx.what}' is not implemented.")


def _no_derivative(x: Any, what: str) -> Any:
    if _ms.records_grad(x):
        return _NoDerivative.apply(x, what)
    return x


def _float_pair(name: str, input: Any, other: Any, ints: bool) -> tuple:
    """Both operands as tensors of torch's floating result dtype (integers promoted to the default dtype when
    `ints`, as torch's zeta; igamma has no integer kernel), broadcast to a common shape."""
    d = P.result_dtype(input, other)
    if ints and d not in D.all_complex_type:
        d = P._float_dtype(d)
    if d not in (D.float16, D.float32, D.float64):
        raise P.not_implemented(f"{name}_cpu", d)
    a, b = P._as(input, d), P._as(other, d)
    try:
        shape = tuple(np.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    except ValueError as e:
        raise RuntimeError(f"The size of tensor a {tuple(a.shape)} must match the size of tensor b "
                           f"{tuple(b.shape)} at non-singleton dimension") from e
    return ops.broadcast_to(a, shape), ops.broadcast_to(b, shape)


def _unary_float(name: str, kernel: Any, doc: str) -> None:
    def impl(input: Any) -> Any:
        if input.dtype in D.all_complex_type:
            raise P.not_implemented(f"{name}_cpu", input.dtype)
        return kernel(_float(input))
    impl.__name__ = f"special_{name}"
    impl.__doc__ = doc
    register(f"special_{name}", method=False, function=False, namespaces=_NS)(impl)


# MindSpore's Bessel kernels (CPU, float32/float64, with derivatives: i0e' = i1e - sign(x) i0e, ...).
_unary_float("i0e", ops.bessel_i0e, "Exponentially scaled modified Bessel function of order 0: exp(-|x|) i0(x).")
_unary_float("i1", ops.bessel_i1, "Modified Bessel function of the first kind of order 1.")
_unary_float("i1e", ops.bessel_i1e, "Exponentially scaled modified Bessel function of order 1: exp(-|x|) i1(x).")
# torch has no derivative for bessel_j0/j1 (the result does not require grad); MindSpore's correct one
# (j0' = -j1, j1' = j0 - j1/x) is kept.
_unary_float("bessel_j0", ops.bessel_j0, "Bessel function of the first kind of order 0.")
_unary_float("bessel_j1", ops.bessel_j1, "Bessel function of the first kind of order 1.")

_SQRT_PI = math.sqrt(math.pi)
# erfcx: exp(x^2) erfc(x) is accurate (relative error ~x^2 eps) below this point; above it erfc underflows
# and the continued fraction of erfc (evaluated backwards) converges in few terms.
_ERFCX_SWITCH = 5.0
_ERFCX_TERMS = 40


def _k(value: float, like: Any) -> Any:
    """A constant of like's dtype: MindSpore computes `float64 tensor * python float` with a float32 scalar
    (measured: 3.0 * 0.1 off by 4e-9), so the compositions below never pass Python floats to an op."""
    return ms.Tensor(value, dtype=like.dtype)


def _log1p(x: Any) -> Any:
    """log(1 + x) accurate for tiny x (MindSpore 2.10's CPU log1p returns 0 for |x| < eps): with u = 1 + x
    rounded, log(u) * x / (u - 1) cancels the rounding error (Goldberg); x itself where u == 1."""
    one = _k(1.0, x)
    u = mint.add(x, one)
    d = mint.sub(u, one)
    exact = mint.eq(d, 0)
    safe_d = mint.where(exact, one, d)
    return mint.where(exact, x, mint.mul(mint.log(u), mint.div(x, safe_d)))


def _in_float64(fn: Any) -> Any:
    """Run a composition in float64 and cast back: in float32 the tail terms (log near 1, exp(x^2)) lose
    digits that torch's dedicated float32 kernels keep."""
    def impl(input: Any) -> Any:
        if input.dtype in D.all_complex_type:
            raise P.not_implemented(f"{fn.__name__}_cpu", input.dtype)
        x = _float(input)
        if x.dtype == D.float64:
            return fn(x)
        return ops.cast(fn(ops.cast(x, D.float64)), x.dtype)
    impl.__name__, impl.__doc__ = fn.__name__, fn.__doc__
    return impl


@register("special_erfcx", method=False, function=False, namespaces=_NS)
@_in_float64
def erfcx(x: Any) -> Any:
    """Scaled complementary error function exp(x^2) * erfc(x), same shape; differentiable composition.

    x < 5: exp(x^2) erfc(x) (overflows to inf below about -26 (float64) / -9.4 (float32), as torch);
    x >= 5: erfcx(x) = 1/sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))), truncated after 40 terms
    (relative error below float64 eps for x >= 5)."""
    small = mint.lt(x, _k(_ERFCX_SWITCH, x))
    xs = mint.where(small, x, ops.zeros_like(x))  # each branch sees inputs where it is finite (clean gradients)
    xl = mint.where(small, ops.full_like(x, _ERFCX_SWITCH), x)
    direct = mint.mul(kernel("exp")(mint.mul(xs, xs)), mint.erfc(xs))
    frac = xl
    for k in range(_ERFCX_TERMS, 0, -1):
        frac = mint.add(xl, mint.div(_k(k / 2.0, x), frac))
    return mint.where(small, direct, mint.div(_k(1.0 / _SQRT_PI, x), frac))


@register("special_log_ndtr", method=False, function=False, namespaces=_NS)
@_in_float64
def log_ndtr(x: Any) -> Any:
    """log of the standard normal CDF, same shape; differentiable composition, accurate in both tails:
    x > -1: log1p(-erfc(x / sqrt2) / 2); x <= -1: log(erfcx(-x / sqrt2) / 2) - x^2 / 2."""
    upper = mint.gt(x, _k(-1.0, x))
    xu = mint.where(upper, x, ops.zeros_like(x))
    xl = mint.where(upper, ops.full_like(x, -1.0), x)
    hi = _log1p(mint.mul(mint.erfc(mint.mul(xu, _k(1.0 / math.sqrt(2.0), x))), _k(-0.5, x)))
    lo = mint.sub(mint.log(mint.mul(erfcx(mint.mul(xl, _k(-1.0 / math.sqrt(2.0), x))), _k(0.5, x))),
                  mint.mul(mint.mul(xl, xl), _k(0.5, x)))
    return mint.where(upper, hi, lo)


@register("igamma", inplace=True)
def igamma(input: Any, other: Any) -> Any:
    """Regularized lower incomplete gamma P(input, other) (MindSpore's Igamma kernel); like torch, only
    `other` is differentiable (backward through `input` raises NotImplementedError)."""
    a, x = _float_pair("igamma", input, other, False)
    return _igamma_at_zero("igamma", ops.igamma, a, x, 1.0)


@register("igammac", inplace=True)
def igammac(input: Any, other: Any) -> Any:
    """Regularized upper incomplete gamma Q(input, other) = 1 - P(input, other); only `other` is
    differentiable, as in torch."""
    a, x = _float_pair("igammac", input, other, False)
    return _igamma_at_zero("igammac", ops.igammac, a, x, 0.0)


def _igamma_at_zero(name: str, kernel: Any, a: Any, x: Any, at_zero: float) -> Any:
    """MindSpore's Igamma/Igammac kernel at (a, x) with torch's edges: at a == 0 and x > 0 the limit (P = 1, Q = 0;
    the kernel gives NaN), at a == 0 == x NaN (the kernel gave P = 0), with a zero gradient w.r.t. x there (the
    kernel runs on a = 1 in those places, so its derivative cannot leak a NaN). float16 is computed in float32 (no
    half kernel), as torch's CPU does."""
    d = a.dtype
    if d is D.float16:
        a, x = P._as(a, D.float32), P._as(x, D.float32)
    zero_a = mint.eq(a, 0)
    one = ms.Tensor(1.0, a.dtype)
    out = kernel(_no_derivative(mint.where(zero_a, one, a), f"{name}: input"), x)
    edge = mint.where(mint.gt(x, 0), ms.Tensor(at_zero, out.dtype), ms.Tensor(math.nan, out.dtype))
    out = mint.where(zero_a, mint.add(edge, mint.mul(x, 0)) if x._requires_grad else edge, out)
    return out if d is not D.float16 else P._as(out, D.float16)


@register("special_zeta", method=False, function=False, namespaces=_NS)
def zeta(input: Any, other: Any) -> Any:
    """Hurwitz zeta function zeta(x, q) (MindSpore's Zeta kernel); either argument may be a Python number.
    Like torch, only `other` (q) is differentiable: d/dq zeta(x, q) = -x zeta(x + 1, q)."""
    x, q = _float_pair("zeta", input, other, True)
    if _ms.records_grad(x):
        return _ZetaNode.apply(x, q)
    return ops.Zeta()(x, q)


class _ZetaNode(Function):
    """zeta(x, q) while x requires grad: MindSpore's Zeta bprop never reaches x's producer (so an identity guard
    on x, as for igamma, would not fire); this node raises torch's error for x and gives q's derivative."""

    @staticmethod
    def forward(ctx: Any, x: Any, q: Any) -> Any:
        ctx.save_for_backward(x, q)
        return ops.Zeta()(x, q)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        if ctx.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        x, q = ctx.saved_tensors
        return None, mint.mul(grad, mint.neg(mint.mul(x, ops.Zeta()(mint.add(x, _k(1.0, x)), q))))


expose("special", {"gammainc": "igamma", "gammaincc": "igammac"})
