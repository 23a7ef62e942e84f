"""Random sampling: rand, randn, randint, randperm, normal, bernoulli, multinomial, poisson, the *_like
variants and the in-place samplers (uniform_, normal_, random_, exponential_, geometric_, bernoulli_, cauchy_,
log_normal_).

Numbers are drawn by numpy from the global or the given `torch.Generator` (`_random.py`) and turned into
tensors; reproducible per seed, not bit-identical to torch's streams. Samples carry no autograd history (as in
torch, where sampling is not differentiable w.r.t. the distribution's parameters except through `normal`'s
reparametrisation, which we do not provide: `normal(mean_tensor, std_tensor)` is a leaf here).
"""
from __future__ import annotations

import math
from typing import Any, Optional

import mindspore as ms
import numpy as np

from .. import _dtype as D
from .._random import numpy_generator
from ._args import shape_args
from ._registry import register
from .creation import _finish, np_to_ms

_MsTensor = ms.Tensor


def _np(t: Any) -> np.ndarray:
    """Host copy of a tensor (bf16 widened) for sampling parameters."""
    if t.dtype == D.bfloat16:
        t = t.astype(D.float32)
    return t.asnumpy()


def _float_dtype(dtype: Any, kernel: str = "check_uniform_bounds") -> Any:
    return _floating(D.to_dtype(dtype) or D.get_default_dtype(), kernel, complex_ok=True)


def _floating(d: Any, kernel: str, complex_ok: bool = False) -> Any:
    """`d` if it is a floating (or, for rand/randn and their _like, complex) dtype; else torch's error for
    continuous samplers (1.12 dispatches them over those types only: `rand(2, dtype=torch.long)` raises instead
    of returning zeros)."""
    if d not in D.all_float_type and not (complex_ok and d in D.all_complex_type):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.scalar_name(d)}'")
    return d


def _draw(g: Any, shape: Any, d: Any, normal: bool) -> np.ndarray:
    """U[0, 1) or N(0, 1) samples; for a complex dtype torch draws the real and imaginary parts independently
    (each N(0, 1/2) for randn, so that E|z|^2 = 1)."""
    shape = tuple(shape)
    if d in D.all_complex_type:
        if normal:
            return (g.standard_normal(shape) + 1j * g.standard_normal(shape)) * math.sqrt(0.5)
        return g.random(shape) + 1j * g.random(shape)
    return g.standard_normal(shape) if normal else g.random(shape)


@register("rand", method=False)
def rand(*size: Any, generator: Any = None, out: Any = None, dtype: Any = None, layout: Any = None,
         device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Uniform samples in [0, 1), shape `size`, default dtype."""
    d = _float_dtype(dtype)
    return _finish(np_to_ms(_draw(numpy_generator(generator), shape_args(size), d, False), d), requires_grad, device)


@register("randn", method=False)
def randn(*size: Any, generator: Any = None, out: Any = None, dtype: Any = None, layout: Any = None,
          device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """Standard normal samples, shape `size`, default dtype."""
    d = _float_dtype(dtype, "normal_kernel_cpu")
    return _finish(np_to_ms(_draw(numpy_generator(generator), shape_args(size), d, True), d), requires_grad, device)


@register("randint", method=False)
def randint(*args: Any, size: Any = None, generator: Any = None, out: Any = None, dtype: Any = None,
            layout: Any = None, device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """randint(high, size) / randint(low, high, size): integers in [low, high), int64 by default."""
    args = list(args)
    if size is None:
        if not args or not isinstance(args[-1], (tuple, list)):
            raise TypeError("randint() missing required argument 'size'")
        size = args.pop()
    if len(args) == 1:
        low, high = 0, args[0]
    elif len(args) == 2:
        low, high = args
    else:
        raise TypeError("randint() takes (high, size) or (low, high, size)")
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    d = D.to_dtype(dtype) or D.int64
    arr = numpy_generator(generator).integers(low, high, size=shape_args((size,)))
    return _finish(np_to_ms(arr, d), requires_grad, device)


@register("randperm", method=False)
def randperm(n: int, *, generator: Any = None, out: Any = None, dtype: Any = None, layout: Any = None,
             device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Any:
    """A random permutation of 0..n-1 (int64)."""
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    arr = numpy_generator(generator).permutation(int(n))
    return _finish(np_to_ms(arr, D.to_dtype(dtype) or D.int64), requires_grad, device)


@register("normal", method=False)
def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *, generator: Any = None, out: Any = None,
           dtype: Any = None, layout: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Any:
    """normal(mean, std[, size]): the 4 torch overloads (tensor/tensor, tensor/float, float/tensor, float/float+size).

    With tensor arguments the result has their broadcast shape and dtype."""
    g = numpy_generator(generator)
    mt, st = isinstance(mean, _MsTensor), isinstance(std, _MsTensor)
    if not mt and not st:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments: size is required for float "
                            "mean and std")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        arr = g.normal(float(mean), float(std), shape_args((size,)))
        return _finish(np_to_ms(arr, _float_dtype(dtype, "normal_kernel_cpu")), requires_grad, device)
    dt = mean.dtype if mt else std.dtype
    if dt not in D.all_float_type and dt not in D.all_complex_type:
        raise RuntimeError(f"normal expects floating point tensors, got {D.torch_name(dt)}")
    m = _np(mean) if mt else float(mean)
    s = _np(std) if st else float(std)
    if np.any(np.asarray(s) < 0):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    # no autograd: torch's normal(mean, std) has zero gradients for both (derivatives.yaml); reparameterised
    # sampling is torch.distributions.Normal.rsample
    return np_to_ms(g.normal(0.0, 1.0, shape) * s + m, dt)


@register("bernoulli")
def bernoulli(input: Any, p: Any = None, *, generator: Any = None, out: Any = None) -> Any:
    """Samples 0/1 with probability `input` (or the scalar `p`), same shape and dtype as input."""
    probs = _np(input) if p is None else np.broadcast_to(_np(p) if isinstance(p, _MsTensor) else float(p),
                                                          tuple(input.shape))
    if np.any((probs < 0) | (probs > 1)):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    arr = numpy_generator(generator).random(tuple(input.shape)) < probs
    return np_to_ms(arr, input.dtype)


@register("multinomial")
def multinomial(input: Any, num_samples: int, replacement: bool = False, *, generator: Any = None,
                out: Any = None) -> Any:
    """Indices sampled from the rows of `input` (unnormalised weights), shape (..., num_samples), int64."""
    w = _np(input).astype(np.float64)
    if w.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if np.any(w < 0) or not np.all(np.isfinite(w)):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    rows = w.reshape(-1, w.shape[-1])
    if not replacement and num_samples > rows.shape[1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    g = numpy_generator(generator)
    res = np.empty((rows.shape[0], num_samples), dtype=np.int64)
    for i, r in enumerate(rows):
        tot = r.sum()
        if tot <= 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if replacement:
            res[i] = g.choice(r.shape[0], size=num_samples, replace=True, p=r / tot)
        else:
            # torch's algorithm (since 1.x): top-k of p / q with q ~ Exp(1); zero-weight categories come last.
            keys = r / g.exponential(1.0, r.shape[0])
            res[i] = np.argsort(-keys, kind="stable")[:num_samples]
    return np_to_ms(res.reshape(*w.shape[:-1], num_samples), D.int64)


@register("poisson", method=False)
def poisson(input: Any, generator: Any = None) -> Any:
    """Poisson samples with rates `input`, same shape/dtype."""
    return np_to_ms(numpy_generator(generator).poisson(_np(input)).astype(np.float64), input.dtype)


def _like(input: Any, dtype: Any) -> Any:
    return D.to_dtype(dtype) or input.dtype


@register("rand_like", method=False)
def rand_like(input: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Any:
    d = _floating(_like(input, dtype), "check_uniform_bounds", complex_ok=True)
    return _finish(np_to_ms(_draw(numpy_generator(), input.shape, d, False), d), requires_grad, device)


@register("randn_like", method=False)
def randn_like(input: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Any:
    d = _floating(_like(input, dtype), "normal_kernel_cpu", complex_ok=True)
    return _finish(np_to_ms(_draw(numpy_generator(), input.shape, d, True), d), requires_grad, device)


@register("randint_like", method=False)
def randint_like(input: Any, low: int = 0, high: Optional[int] = None, *, dtype: Any = None, layout: Any = None,
                 device: Any = None, requires_grad: bool = False, memory_format: Any = None) -> Any:
    """randint_like(input, high) or randint_like(input, low, high): same shape, input's dtype."""
    if high is None:
        low, high = 0, low
    arr = numpy_generator().integers(int(low), int(high), size=tuple(input.shape))
    return _finish(np_to_ms(arr, _like(input, dtype)), requires_grad, device)


# ------------------------------------------------------------------------------------- in-place samplers
# writes_self: the implementation returns the new value of `self`; the dispatcher writes it back (true in
# place, through views) and returns self.
@register("uniform_", function=False, writes_self=True)
def uniform_(self: Any, a: float = 0.0, b: float = 1.0, *, generator: Any = None, **kw: Any) -> Any:
    """Fill with U(a, b) samples (torch names them from/to)."""
    a, b = kw.get("from", a), kw.get("to", b)
    _floating(self.dtype, "check_uniform_bounds")
    return np_to_ms(numpy_generator(generator).uniform(float(a), float(b), tuple(self.shape)), self.dtype)


@register("normal_", function=False, writes_self=True)
def normal_(self: Any, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Any:
    _floating(self.dtype, "normal_kernel_cpu")
    return np_to_ms(numpy_generator(generator).normal(float(mean), float(std), tuple(self.shape)), self.dtype)


@register("random_", function=False, writes_self=True)
def random_(self: Any, a: Optional[int] = None, b: Optional[int] = None, *, generator: Any = None,
            **kw: Any) -> Any:
    """random_() -> [0, 2**mantissa] for floats / dtype range for ints; random_(to); random_(from, to)."""
    a, b = kw.get("from", a), kw.get("to", b)
    if a is not None and b is None:
        low, high = 0, int(a)
    elif a is not None:
        low, high = int(a), int(b)
    else:
        d = self.dtype
        if d in D.all_float_type:
            high = {D.float16: 2 ** 11, D.bfloat16: 2 ** 8, D.float32: 2 ** 24, D.float64: 2 ** 53}[d] + 1
        elif d == D.bool:
            high = 2
        else:
            high = int(np.iinfo(D.to_numpy_dtype(d)).max) + 1
        low = 0
    arr = numpy_generator(generator).integers(low, high, size=tuple(self.shape), dtype=np.int64)
    return np_to_ms(arr, self.dtype)


@register("exponential_", function=False, writes_self=True)
def exponential_(self: Any, lambd: float = 1.0, *, generator: Any = None) -> Any:
    _floating(self.dtype, "exponential_cpu")
    return np_to_ms(numpy_generator(generator).exponential(1.0 / float(lambd), tuple(self.shape)), self.dtype)


@register("geometric_", function=False, writes_self=True)
def geometric_(self: Any, p: float, *, generator: Any = None) -> Any:
    return np_to_ms(numpy_generator(generator).geometric(float(p), tuple(self.shape)).astype(np.float64),
                    self.dtype)


@register("bernoulli_", function=False, writes_self=True)
def bernoulli_(self: Any, p: Any = 0.5, *, generator: Any = None) -> Any:
    probs = _np(p) if isinstance(p, _MsTensor) else float(p)
    arr = numpy_generator(generator).random(tuple(self.shape)) < probs
    return np_to_ms(arr, self.dtype)


@register("cauchy_", function=False, writes_self=True)
def cauchy_(self: Any, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None) -> Any:
    _floating(self.dtype, "cauchy_cpu")
    arr = float(median) + float(sigma) * numpy_generator(generator).standard_cauchy(tuple(self.shape))
    return np_to_ms(arr, self.dtype)


@register("log_normal_", function=False, writes_self=True)
def log_normal_(self: Any, mean: float = 1.0, std: float = 2.0, *, generator: Any = None) -> Any:
    _floating(self.dtype, "log_normal_cpu")
    return np_to_ms(numpy_generator(generator).lognormal(float(mean), float(std), tuple(self.shape)), self.dtype)


@register("binomial", method=False)
def binomial(count: Any, prob: Any, generator: Any = None) -> Any:
    """Samples of Binomial(count, prob), elementwise (broadcast), in count's floating dtype."""
    n, p = np.broadcast_arrays(_np(count), _np(prob))
    if np.any(n < 0) or np.any((p < 0) | (p > 1)):
        raise RuntimeError("binomial: expected count >= 0 and 0 <= prob <= 1")
    arr = numpy_generator(generator).binomial(n.astype(np.int64), p.astype(np.float64))
    return np_to_ms(arr.astype(np.float64), count.dtype)
