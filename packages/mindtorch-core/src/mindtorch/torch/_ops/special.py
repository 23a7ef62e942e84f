"""torch.special: torch's special functions. Most are existing entries under their special.* names (one
implementation each, exposed through `_registry.expose`); the rest are compositions of differentiable ops."""
from __future__ import annotations

import math
from typing import Any

from mindspore import mint, ops

from .. import _dtype as D
from ._registry import expose, register

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
    return mint.mul(mint.add(mint.erf(mint.mul(x, 1.0 / math.sqrt(2.0))), 1.0), 0.5)


@register("special_ndtri", method=False, function=False, namespaces=_NS)
def ndtri(input: Any) -> Any:
    """The inverse of ndtr: sqrt(2) * erfinv(2p - 1)."""
    p = _float(input)
    return mint.mul(mint.erfinv(mint.sub(mint.mul(p, 2.0), 1.0)), math.sqrt(2.0))


@register("special_xlog1py", method=False, function=False, namespaces=_NS)
def xlog1py(input: Any, other: Any) -> Any:
    """x * log1p(y), 0 where x == 0 (and y is not nan)."""
    if isinstance(input, (int, float)):
        input = ops.full_like(_float(other), float(input))
    x = _float(input)
    y = _float(other if not isinstance(other, (int, float)) else ops.full_like(x, float(other)))
    out = mint.mul(x, mint.log1p(y))
    return mint.where(mint.logical_and(x == 0, mint.logical_not(mint.isnan(y))), ops.zeros_like(out), out)


expose("special", {
    "expit": "sigmoid", "logit": "logit", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv", "expm1": "expm1",
    "exp2": "exp2", "log1p": "log1p", "sinc": "sinc", "i0": "i0", "xlogy": "xlogy", "gammaln": "lgamma",
    "digamma": "digamma", "psi": "digamma", "polygamma": "polygamma", "multigammaln": "mvlgamma",
    "round": "round", "logsumexp": "logsumexp", "softmax": "softmax", "log_softmax": "log_softmax",
})
