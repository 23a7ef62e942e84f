"""Reductions against real PyTorch: values, dtypes, shapes, dim forms (int/tuple/list/negative), keepdim,
0-d and empty tensors, int/bool inputs, named-tuple results, error types."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

RS = np.random.RandomState(0)
F32 = RS.randn(3, 4, 5).astype(np.float32)
I64 = RS.randint(-5, 6, size=(3, 4)).astype(np.int64)
BOOL = RS.rand(3, 4) > 0.5
F16 = RS.randn(4, 3).astype(np.float16)
NAN = np.array([[1.0, np.nan, 3.0, 0.5], [2.0, 4.0, np.nan, np.nan]], np.float32)
SCALAR = np.array(2.5, np.float32)
EMPTY = np.zeros((0, 3), np.float32)
ARRAYS = {"f32": F32, "i64": I64, "bool": BOOL, "f16": F16, "nan": NAN, "0d": SCALAR, "empty": EMPTY}


def check(reftorch, fn, arr, rtol=1e-5, atol=1e-5):
    """fn(lib, tensor) on both libraries: same result (incl. named tuples) or the same error type."""
    try:
        ref = fn(reftorch, reftorch.from_numpy(arr.copy()))
    except Exception as e:  # noqa: BLE001 - the reference decides the error type
        exc = RuntimeError if isinstance(e, RuntimeError) else type(e)
        with pytest.raises(exc):
            fn(torch, torch.from_numpy(arr.copy()))
        return
    mine = fn(torch, torch.from_numpy(arr.copy()))
    if hasattr(ref, "_fields"):  # torch.return_types: same field names and values
        assert type(mine).__name__ == type(ref).__name__
        assert mine._fields == ref._fields
    assert_same(mine, ref, rtol=rtol, atol=atol)


def _tol(kind):
    return dict(rtol=3e-3, atol=3e-3) if kind == "f16" else {}


DIMS = [None, 0, -1, (0, 1), [0, -1], ()]


@pytest.mark.parametrize("kind", ["f32", "i64", "bool", "f16", "0d"])
@pytest.mark.parametrize("dim", DIMS, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_like(reftorch, kind, dim, keepdim):
    a = ARRAYS[kind]
    if a.ndim == 0 and dim not in (None, 0, -1):
        return
    if dim is None:
        check(reftorch, lambda T, x: T.sum(x), a, **_tol(kind))
        check(reftorch, lambda T, x: x.sum(), a, **_tol(kind))
        return
    for name in ("sum", "nansum", "mean", "nanmean", "amax", "amin", "logsumexp", "count_nonzero"):
        if name == "logsumexp" and dim == ():
            continue  # torch 2.13 fails on dim=() (a shape bug); 1.12 reduced over nothing: not comparable
        if name == "count_nonzero":
            if not keepdim:
                check(reftorch, lambda T, x: T.count_nonzero(x, dim), a)
            continue
        if name in ("mean", "nanmean") and kind != "f32":
            check(reftorch, lambda T, x: getattr(T, name)(x, dim, keepdim), a)  # ints: torch's RuntimeError
            continue
        check(reftorch, lambda T, x: getattr(T, name)(x, dim, keepdim), a, **_tol(kind))
        check(reftorch, lambda T, x: getattr(x, name)(dim, keepdim=keepdim), a, **_tol(kind))


@pytest.mark.parametrize("kind", ["f32", "i64", "bool", "f16", "0d"])
def test_sum_dtype_and_aliases(reftorch, kind):
    a = ARRAYS[kind]
    check(reftorch, lambda T, x: T.sum(x, dtype=T.float64), a)
    check(reftorch, lambda T, x: T.mean(x, dtype=T.float64), a)
    check(reftorch, lambda T, x: T.prod(x), a, **_tol(kind))
    check(reftorch, lambda T, x: T.prod(x, 0, keepdim=True), a, **_tol(kind))
    check(reftorch, lambda T, x: T.prod(x, -1, dtype=T.float64), a)
    check(reftorch, lambda T, x: T.all(x), a)
    check(reftorch, lambda T, x: T.any(x), a)
    check(reftorch, lambda T, x: T.all(x, 0), a)
    check(reftorch, lambda T, x: T.any(x, -1, keepdim=True), a)
    check(reftorch, lambda T, x: x.sum(axis=0, keepdims=True) if x.dim() else x.sum(), a, **_tol(kind))


def test_all_any_uint8(reftorch):
    a = np.array([[0, 3], [1, 1]], np.uint8)
    check(reftorch, lambda T, x: T.all(x), a)
    check(reftorch, lambda T, x: T.any(x, 1), a)


def test_empty_reductions(reftorch):
    check(reftorch, lambda T, x: T.sum(x), EMPTY)
    check(reftorch, lambda T, x: T.sum(x, 0), EMPTY)
    check(reftorch, lambda T, x: T.mean(x), EMPTY)
    check(reftorch, lambda T, x: T.prod(x), EMPTY)
    check(reftorch, lambda T, x: T.amax(x, 1), EMPTY)
    check(reftorch, lambda T, x: T.max(x), EMPTY)
    check(reftorch, lambda T, x: T.argmax(x), EMPTY)
    check(reftorch, lambda T, x: T.max(x, 0), EMPTY)
    check(reftorch, lambda T, x: T.all(x), EMPTY)
    check(reftorch, lambda T, x: T.any(x, 1), EMPTY)


@pytest.mark.parametrize("name", ["std", "var"])
def test_std_var(reftorch, name):
    for kw in ({}, {"unbiased": False}, {"correction": 0}, {"correction": 2}):
        check(reftorch, lambda T, x: getattr(T, name)(x, **kw), F32)
        for dim in (0, -1, (0, 2), [1]):
            check(reftorch, lambda T, x: getattr(T, name)(x, dim, **kw), F32)
            check(reftorch, lambda T, x: getattr(x, name)(dim, keepdim=True, **kw), F32)
    check(reftorch, lambda T, x: getattr(T, name)(x, 1, False), F32)  # positional unbiased
    check(reftorch, lambda T, x: getattr(T, name)(x, False), F32)  # the (input, unbiased) overload
    check(reftorch, lambda T, x: getattr(T, name)(x), I64)  # ints: torch's RuntimeError
    check(reftorch, lambda T, x: getattr(T, name)(x), np.ones(1, np.float32))  # one element: nan
    check(reftorch, lambda T, x: getattr(T, f"{name}_mean")(x, 1), F32)
    check(reftorch, lambda T, x: getattr(T, f"{name}_mean")(x, (0, 1), keepdim=True, unbiased=False), F32)
    check(reftorch, lambda T, x: getattr(T, f"{name}_mean")(x), F32)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("kind", ["f32", "i64", "bool", "f16", "0d"])
def test_max_min(reftorch, name, kind):
    a = ARRAYS[kind]
    check(reftorch, lambda T, x: getattr(T, name)(x), a)
    check(reftorch, lambda T, x: getattr(x, name)(), a)
    for dim in (0, -1):
        for keepdim in (False, True):
            check(reftorch, lambda T, x: getattr(T, name)(x, dim, keepdim), a)
            check(reftorch, lambda T, x: getattr(x, name)(dim=dim, keepdim=keepdim), a)
    check(reftorch, lambda T, x: getattr(T, name)(x, x), a)  # the binary overload
    check(reftorch, lambda T, x: getattr(T, name)(x, 5), a)  # out of range dim: IndexError


def test_return_types_behave_like_torch(reftorch):
    x = torch.from_numpy(F32[0].copy())
    r = torch.max(x, 1)
    values, indices = r
    assert r.values is values and r.indices is indices
    assert type(r).__module__ == "torch.return_types"
    ref = reftorch.max(reftorch.from_numpy(F32[0].copy()), 1)
    assert repr(r).splitlines()[0] == repr(ref).splitlines()[0] == "torch.return_types.max("
    assert repr(r) == repr(ref)
    assert isinstance(r, tuple) and len(r) == 2
    assert torch.return_types.max is type(r)


@pytest.mark.parametrize("kind", ["f32", "i64", "bool", "f16"])
def test_arg_and_aminmax(reftorch, kind):
    a = ARRAYS[kind]
    for name in ("argmax", "argmin"):
        check(reftorch, lambda T, x: getattr(T, name)(x), a)
        check(reftorch, lambda T, x: getattr(T, name)(x, 0), a)
        check(reftorch, lambda T, x: getattr(x, name)(-1, keepdim=True), a)
        check(reftorch, lambda T, x: getattr(T, name)(x, keepdim=True), a)
    check(reftorch, lambda T, x: T.aminmax(x), a)
    check(reftorch, lambda T, x: T.aminmax(x, dim=0), a)
    check(reftorch, lambda T, x: T.aminmax(x, dim=-1, keepdim=True), a)


def test_argmax_0d_and_ties(reftorch):
    check(reftorch, lambda T, x: T.argmax(x), SCALAR)
    check(reftorch, lambda T, x: T.argmax(x, 0), SCALAR)
    ties = np.array([[1, 3, 3, 0], [2, 2, 1, 2]], np.int64)
    check(reftorch, lambda T, x: T.argmax(x, 1), ties)
    check(reftorch, lambda T, x: T.argmin(x, 1), ties)
    check(reftorch, lambda T, x: T.max(x, 1), ties)


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("kind", ["f32", "i64", "nan", "0d"])
def test_median(reftorch, name, kind):
    a = ARRAYS[kind]
    if kind == "i64":
        a = np.arange(12, dtype=np.int64)[::-1].reshape(3, 4) * 3 % 7  # distinct per row: indices are unique
    check(reftorch, lambda T, x: getattr(T, name)(x), a)
    check(reftorch, lambda T, x: getattr(T, name)(x, 0), a)
    check(reftorch, lambda T, x: getattr(x, name)(-1, keepdim=True), a)


def test_median_even_count_is_lower(reftorch):
    check(reftorch, lambda T, x: T.median(x), np.array([4.0, 1.0, 3.0, 2.0], np.float32))
    check(reftorch, lambda T, x: T.median(x, 0), np.array([4.0, 1.0, 3.0, 2.0], np.float32))


def test_mode(reftorch):
    a = np.array([[1, 2, 2, 3, 3], [5, 5, 1, 1, 0]], np.int64)
    check(reftorch, lambda T, x: T.mode(x), a)
    check(reftorch, lambda T, x: T.mode(x, 0), a)
    check(reftorch, lambda T, x: x.mode(1, keepdim=True), a.astype(np.float32))


@pytest.mark.parametrize("p", ["fro", 2, 1, 3, 0, float("inf"), float("-inf"), "nuc"], ids=str)
def test_norm(reftorch, p):
    a = F32[0]
    check(reftorch, lambda T, x: T.norm(x, p), a, rtol=1e-4)
    if p != "nuc":
        check(reftorch, lambda T, x: T.norm(x, p, dim=1), a, rtol=1e-4)
        check(reftorch, lambda T, x: x.norm(p, dim=(0, 1), keepdim=True), a, rtol=1e-4)
    else:
        check(reftorch, lambda T, x: T.norm(x, p, dim=(0, 1)), a, rtol=1e-4)
    check(reftorch, lambda T, x: T.norm(x), F32, rtol=1e-4)
    check(reftorch, lambda T, x: T.norm(x, p, dim=(1, 2)) if p == "nuc" else T.norm(x, p, dim=-1), F32, rtol=1e-4)


def test_norm_errors(reftorch):
    check(reftorch, lambda T, x: T.norm(x), I64)


@pytest.mark.parametrize("kind", ["f32", "i64", "bool", "f16", "0d"])
def test_cumulative(reftorch, kind):
    a = ARRAYS[kind]
    for dim in (0, -1):
        check(reftorch, lambda T, x: T.cumsum(x, dim), a, **_tol(kind))
        check(reftorch, lambda T, x: x.cumsum(dim=dim), a, **_tol(kind))
        check(reftorch, lambda T, x: T.cumprod(x, dim), a, **_tol(kind))
        check(reftorch, lambda T, x: T.cummax(x, dim), a)
        check(reftorch, lambda T, x: T.cummin(x, dim), a)
        if kind in ("f32", "0d", "f16"):
            check(reftorch, lambda T, x: T.logcumsumexp(x, dim), a, **_tol(kind))
    check(reftorch, lambda T, x: T.cumsum(x, 0, dtype=T.float64), a)
    check(reftorch, lambda T, x: T.cumprod(x, 0, dtype=T.float64), a)
    check(reftorch, lambda T, x: T.cumsum(x, 3), a)  # IndexError


def test_cumsum_in_place(reftorch):
    def run(T):
        x = T.from_numpy(F32[0].copy())
        r = x.cumsum_(1)
        assert r is x
        return x
    assert_same(run(torch), run(reftorch))


def test_dim_errors(reftorch):
    check(reftorch, lambda T, x: T.sum(x, 3), I64)
    check(reftorch, lambda T, x: T.sum(x, (0, 0)), I64)
    check(reftorch, lambda T, x: T.amax(x, -3), I64)
    check(reftorch, lambda T, x: T.sum(x, 1), SCALAR)
