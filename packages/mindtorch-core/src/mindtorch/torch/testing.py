"""torch.testing: `assert_close` (and the deprecated `assert_allclose`), `make_tensor`, as in torch 1.12.

Values are compared on the host in float64/complex128, integers and bools in int64 (torch 1.12 promotes to those
before comparing and reports its differences in them; torch 2.x reports them in the input dtype) with torch's rule
`|actual - expected| <= atol + rtol * |expected|`, the default tolerances chosen from the dtypes (torch's table),
and torch 1.12's messages: a failure names the mismatch count, the greatest absolute and relative differences and
where they are; 0-d tensors and Python numbers are reported as "Scalars" with their two differences.
"""
from __future__ import annotations

import cmath
import collections.abc
import math
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import mindspore as ms
import numpy as np

from . import _dtype as D

__all__ = ["assert_close", "assert_allclose", "make_tensor"]

# torch.testing._comparison's default (rtol, atol) per dtype; other dtypes compare exactly.
_DEFAULT_TOLERANCES = {
    D.float16: (1e-3, 1e-5), D.bfloat16: (1.6e-2, 1e-5), D.float32: (1.3e-6, 1e-5), D.float64: (1e-7, 1e-7),
    D.complex64: (1.3e-6, 1e-5), D.complex128: (1e-7, 1e-7),
}


_NUMBER_DTYPES = {int: D.int64, float: D.float64, complex: D.complex128}  # torch 1.12's NumberPair._TYPE_TO_DTYPE


def _tolerances(*dtypes: Any, rtol: Optional[float], atol: Optional[float]) -> Tuple[float, float]:
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}.")
    if rtol is not None:
        return float(rtol), float(atol)
    pairs = [_DEFAULT_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _is_tensor_like(x: Any) -> bool:
    return isinstance(x, (ms.Tensor, np.ndarray))


def _type(x: Any) -> str:
    return "<class 'torch.Tensor'>" if isinstance(x, ms.Tensor) else str(type(x))


def _as_host(x: Any) -> Tuple[np.ndarray, Any, tuple]:
    """(values, torch dtype, shape) of a tensor or ndarray."""
    if isinstance(x, np.ndarray):
        return x, D._FROM_NUMPY.get(x.dtype, x.dtype), tuple(x.shape)
    shape = tuple(ms.Tensor.shape.fget(x))
    d = x.dtype
    if d == D.bfloat16:
        values = x.astype(D.float32).asnumpy()
    else:
        values = x.asnumpy()
    return values, d, shape


def _fail(exc: type, default: str, msg: Union[str, Callable[[str], str], None], path: str) -> None:
    text = default if not path else f"{default}\n\nThe failure occurred for item {path}"
    if callable(msg):
        text = msg(text)
    elif msg is not None:
        text = msg
    raise exc(text)


def _mismatch_msg(kind: str, exact: bool, extra: Optional[str], abs_diff: Any, abs_idx: Optional[tuple],
                  atol: float, rel_diff: Any, rel_idx: Optional[tuple], rtol: float) -> str:
    """torch 1.12's _make_mismatch_msg, to the character (its trailing newline included; 2.x strips it)."""
    def line(what: str, diff: Any, idx: Optional[tuple], tol: float) -> str:
        if idx is None:
            text = f"{what.title()} difference: {diff}"
        else:
            text = f"Greatest {what} difference: {diff} at index {idx}"
        if not exact:
            text += f" (up to {tol} allowed)"
        return text + "\n"

    text = f"{kind} are not {'equal' if exact else 'close'}!\n\n"
    if extra:
        text += f"{extra}\n"
    return text + line("absolute", abs_diff, abs_idx, atol) + line("relative", rel_diff, rel_idx, rtol)


def _scalar_msg(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    """torch 1.12's make_scalar_mismatch_msg (Python numbers: an int difference prints as an int). torch 2.x adds
    an "Expected ... but got ..." line that 1.12 does not have."""
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", rtol == 0 and atol == 0, None, abs_diff, None, atol, rel_diff, None, rtol)


def _compare_values(a: np.ndarray, b: np.ndarray, rtol: float, atol: float, equal_nan: bool, msg: Any,
                    path: str) -> None:
    """torch 1.12's TensorLikePair._compare_regular_values: both promoted to the widest dtype of their kind
    (complex128, float64, or int64 for integers and bools), compared with torch.isclose's rule; a 0-d pair is
    reported as scalars, others with the mismatch count and the greatest differences (integer absolute
    differences print as integers, their relative ones are a float32 division, as torch's int64 true division)."""
    if np.iscomplexobj(a) or np.iscomplexobj(b):
        kind = np.complex128
    elif a.dtype.kind == "f" or b.dtype.kind == "f":
        kind = np.float64
    else:
        kind = np.int64
    a, b = a.astype(kind), b.astype(kind)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        diff = np.abs(a - b)
        close = a == b
        if rtol or atol:
            close |= np.isfinite(diff) & (diff <= atol + rtol * np.abs(b))
        if equal_nan and kind is not np.int64:
            close |= np.isnan(a) & np.isnan(b)
    if close.all():
        return
    if a.ndim == 0:
        _fail(AssertionError, _scalar_msg(a.item(), b.item(), rtol, atol), msg, path)
    total = close.size
    n = int((~close).sum())
    extra = f"Mismatched elements: {n} / {total} ({n / total:.1%})"
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.where(close, 0, diff)
        if kind is np.int64:
            rel = diff.astype(np.float32) / np.abs(b).astype(np.float32)
        else:
            rel = diff / np.abs(b)
        rel = np.where(close, 0, rel)

    def greatest(values: np.ndarray) -> Tuple[Any, tuple]:
        """torch.max over the flat values: a NaN wins (the first one), else the first maximum."""
        flat = values.reshape(-1)
        nans = np.flatnonzero(np.isnan(flat)) if flat.dtype.kind == "f" else ()
        k = int(nans[0]) if len(nans) else int(np.argmax(flat))
        return flat[k].item(), tuple(int(v) for v in np.unravel_index(k, values.shape))

    abs_diff, abs_idx = greatest(diff)
    rel_diff, rel_idx = greatest(rel)
    _fail(AssertionError, _mismatch_msg("Tensor-likes", rtol == 0 and atol == 0, extra, abs_diff, abs_idx, atol,
                                        rel_diff, rel_idx, rtol), msg, path)


def _assert_pair(actual: Any, expected: Any, rtol: Optional[float], atol: Optional[float], equal_nan: bool,
                 check_dtype: bool, allow_subclasses: bool, msg: Any, path: str) -> None:
    if actual is None or expected is None:
        if actual is not expected:
            _fail(AssertionError, f"None mismatch: {actual} is not {expected}", msg, path)
        return
    if _is_tensor_like(actual) and _is_tensor_like(expected):
        if not allow_subclasses and type(actual) is not type(expected):
            _fail(TypeError, f"Except for Python scalars, type equality is required if allow_subclasses=False, "
                  f"but got {_type(actual)} and {_type(expected)} instead.", msg, path)
        a, da, sa = _as_host(actual)
        b, db, sb = _as_host(expected)
        if sa != sb:
            _fail(AssertionError, f"The values for attribute 'shape' do not match: torch.Size({list(sa)}) != "
                  f"torch.Size({list(sb)}).", msg, path)
        if check_dtype and da != db:
            _fail(AssertionError, f"The values for attribute 'dtype' do not match: {D.torch_name(da)} != "
                  f"{D.torch_name(db)}.", msg, path)
        r, t = _tolerances(da, db, rtol=rtol, atol=atol)
        _compare_values(np.asarray(a), np.asarray(b), r, t, equal_nan, msg, path)
        return
    numbers = (bool, int, float, complex, np.number, np.bool_)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        if isinstance(actual, (bool, np.bool_)) != isinstance(expected, (bool, np.bool_)):
            _fail(TypeError, f"No comparison pair was able to handle inputs of type {_type(actual)} and "
                  f"{_type(expected)}.", msg, path)
        if isinstance(actual, (bool, np.bool_)):
            if bool(actual) != bool(expected):
                _fail(AssertionError, f"Booleans mismatch: {actual} is not {expected}", msg, path)
            return
        # torch 1.12's NumberPair: numpy numbers as their Python values, tolerances from each type's dtype
        actual = actual.item() if isinstance(actual, np.generic) else actual
        expected = expected.item() if isinstance(expected, np.generic) else expected
        if check_dtype and type(actual) is not type(expected):
            _fail(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", msg, path)
        r, t = _tolerances(*(_NUMBER_DTYPES.get(type(x), D.float64) for x in (actual, expected)), rtol=rtol,
                           atol=atol)
        if actual == expected or (equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
            return
        abs_diff = abs(actual - expected)
        if cmath.isfinite(abs_diff) and abs_diff <= t + r * abs(expected):
            return
        _fail(AssertionError, _scalar_msg(actual, expected, r, t), msg, path)
        return
    if isinstance(actual, str) or isinstance(expected, str):
        _fail(TypeError, f"No comparison pair was able to handle inputs of type {_type(actual)} and "
              f"{_type(expected)}.", msg, path)
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            _fail(AssertionError, f"The keys of the mappings do not match:\nMissing keys in the actual mapping: "
                  f"{sorted(set(expected) - set(actual), key=str)}\nExtra keys in the actual mapping: "
                  f"{sorted(set(actual) - set(expected), key=str)}", msg, path)
        for k in expected:
            _assert_pair(actual[k], expected[k], rtol, atol, equal_nan, check_dtype, allow_subclasses, msg,
                         f"{path}[{k!r}]")
        return
    if isinstance(actual, collections.abc.Sequence) and isinstance(expected, collections.abc.Sequence):
        if len(actual) != len(expected):
            _fail(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", msg,
                  path)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _assert_pair(x, y, rtol, atol, equal_nan, check_dtype, allow_subclasses, msg, f"{path}[{i}]")
        return
    _fail(TypeError, f"No comparison pair was able to handle inputs of type {_type(actual)} and {_type(expected)}.",
          msg, path)


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol: Optional[float] = None,
                 atol: Optional[float] = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg: Union[str, Callable[[str], str], None] = None) -> None:
    """Raise AssertionError unless `actual` and `expected` (tensors, arrays, numbers, or nested sequences /
    mappings of them) are close: same shape and (with `check_dtype`) dtype, and `|a - e| <= atol + rtol * |e|`
    elementwise, with defaults from the dtype (float32: rtol 1.3e-6, atol 1e-5; integers exact)."""
    _assert_pair(actual, expected, rtol, atol, equal_nan, check_dtype, allow_subclasses, msg, "")


def assert_allclose(actual: Any, expected: Any, rtol: Optional[float] = None, atol: Optional[float] = None,
                    equal_nan: bool = True, msg: str = "") -> None:
    """Deprecated torch 1.12 form: `expected` is converted to a tensor like `actual`, dtypes are not checked,
    NaNs compare equal by default."""
    from . import tensor as _tensor

    if not isinstance(actual, ms.Tensor):
        actual = _tensor(actual)
    if not isinstance(expected, ms.Tensor):
        expected = _tensor(expected, dtype=actual.dtype)
    _assert_pair(actual, expected, rtol, atol, equal_nan, False, True, msg or None, "")


def make_tensor(*shape: Any, dtype: Any, device: Any = None, low: Optional[float] = None,
                high: Optional[float] = None, requires_grad: bool = False, noncontiguous: bool = False,
                exclude_zero: bool = False) -> Any:
    """A random tensor of `shape` and `dtype`, uniform in [low, high) (defaults: [-9, 9] for numbers, as torch)."""
    from . import tensor as _tensor

    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = tuple(shape[0])
    rng = np.random.default_rng()
    if dtype == D.bool:
        values = rng.integers(0, 2, shape).astype(np.bool_)
    elif dtype in D.all_int_type:
        info = np.iinfo(D.to_numpy_dtype(dtype))
        lo = max(int(math.ceil(low)) if low is not None else -9, info.min)
        hi = min(int(math.ceil(high)) if high is not None else 10, info.max)
        values = rng.integers(lo, max(hi, lo + 1), shape).astype(D.to_numpy_dtype(dtype))
        if exclude_zero:
            values[values == 0] = 1
    else:
        lo = -9.0 if low is None else float(low)
        hi = 9.0 if high is None else float(high)
        values = rng.uniform(lo, hi, shape)
        if dtype in D.all_complex_type:
            values = values + 1j * rng.uniform(lo, hi, shape)
        if exclude_zero:
            values[values == 0] = np.finfo(np.float32).eps
    out = _tensor(values, dtype=dtype)
    if noncontiguous and out.numel() > 1:
        out = out.repeat_interleave(2, dim=-1)[..., ::2]
    if requires_grad:
        out.requires_grad_(True)
    return out
