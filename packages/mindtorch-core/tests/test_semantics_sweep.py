"""A systematic sweep of tensor semantics against real PyTorch, generated as matrices: type promotion of binary ops
over every pair of the nine common dtypes (n-d and 0-d tensors, Python scalars on either side), torch.tensor dtype
inference, in-place casting rules and `out=`, integer edge cases (division by zero, wraparound, shifts, pow),
torch 1.12's truncating floor_divide, NaN/inf/-0.0 semantics and indexing corner cases.

Each case runs on both libraries and must give the same dtype, shape and values, or the same exception type.
The reference is torch 2.13; where torch 1.12 (mindtorch's reference version) differs, the case says so and
compares with 1.12's meaning.
"""
import itertools
import operator
import warnings

import numpy as np
import pytest
from _compare import assert_same_error

import mindtorch.torch as torch
from mindtorch.torch import _dtype as D
from mindtorch.torch._ops import pointwise as P

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


# ------------------------------------------------------------------------------------------------ comparing
def _summary(t, lib):
    """(dtype name, shape, values) of a tensor of either library; nested tuples/lists element-wise."""
    if isinstance(t, (tuple, list)):
        return [_summary(x, lib) for x in t]
    if not hasattr(t, "shape"):
        return t
    name = str(t.dtype)[6:] if lib is not torch else D.torch_name(t.dtype)[6:]
    return name, tuple(t.shape), np.asarray(t.detach().numpy() if lib is not torch else t.numpy())


def _assert_same(mine, ref, what):
    if isinstance(ref, list):
        assert isinstance(mine, list) and len(mine) == len(ref), what
        for m, r in zip(mine, ref):
            _assert_same(m, r, what)
        return
    if not isinstance(ref, tuple):
        assert mine == ref or (mine != mine and ref != ref), f"{what}: {mine} != {ref}"
        return
    assert mine[:2] == ref[:2], f"{what}: dtype/shape {mine[:2]} != {ref[:2]}"
    m, r = mine[2], ref[2]
    if r.dtype.kind in "fc":
        np.testing.assert_allclose(m.astype(np.complex128), r.astype(np.complex128), rtol=2e-3, atol=1e-3,
                                   equal_nan=True, err_msg=what)
        if r.dtype.kind == "f":  # the sign of zeros and infinities too
            keep = ~np.isnan(r)  # a NaN's sign bit is not portable
            assert np.array_equal(np.signbit(m)[keep], np.signbit(r)[keep]), f"{what}: sign {m} != {r}"
    else:
        assert np.array_equal(m, r), f"{what}: {m.tolist()} != {r.tolist()}"


def _run(fn, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _summary(fn(lib), lib), None
        except Exception as e:  # noqa: BLE001 - the reference decides which error is right
            return None, e


def same(reftorch, fn, what="", ref_fn=None):
    """fn(lib) gives the same result (or exception type) with mindtorch as ref_fn (default fn) with torch."""
    ref, rerr = _run(ref_fn or fn, reftorch)
    mine, merr = _run(fn, torch)
    if rerr is not None:
        assert merr is not None, f"{what}: torch raised {type(rerr).__name__}: {rerr}; mindtorch gave {mine}"
        assert isinstance(merr, type(rerr)), \
            f"{what}: torch raised {type(rerr).__name__}: {rerr}; mindtorch {type(merr).__name__}: {merr}"
        return
    assert merr is None, f"{what}: mindtorch raised {type(merr).__name__}: {merr}; torch gave {ref}"
    _assert_same(mine, ref, what)


def sweep(reftorch, cases, ref_cases=None):
    """Run `same` over {name: fn}; collect every difference, then fail once listing them all."""
    bad = []
    for name, fn in cases.items():
        try:
            same(reftorch, fn, name, (ref_cases or {}).get(name))
        except AssertionError as e:
            bad.append(str(e).splitlines()[0][:300])
    assert not bad, f"{len(bad)} of {len(cases)} differ:\n" + "\n".join(bad[:40])


# --------------------------------------------------------------------------------------- 1. type promotion
def _arr(dt, nd=True):
    """Values that exercise the dtype: negatives for signed types, > 127 for uint8, fractions for floats."""
    if dt == "bool":
        a = np.array([True, False, True])
    elif dt == "uint8":
        a = np.array([3, 250, 7], np.uint8)
    elif dt.startswith("int"):
        a = np.array([-3, 5, 7]).astype(dt)
    else:
        a = np.array([-2.5, 1.5, 3.0]).astype(dt)
    return a if nd else a[1:2].reshape(())


def _t(lib, x):
    return lib.from_numpy(x.copy()) if isinstance(x, np.ndarray) else x


# torch 1.12: floor_divide, `//` and `//=` truncate (1.13+ floors): the 2.13 reference computes 1.12's values with
# div(rounding_mode='trunc') (a scalar dividend becomes a 0-d tensor, as torch's __rfloordiv__ did)
def _trunc_div(a, b):
    import torch as real

    return real.div(a if isinstance(a, real.Tensor) else real.tensor(a), b, rounding_mode="trunc")


BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<<": operator.lshift, ">>": operator.rshift, "==": operator.eq, "<": operator.lt,
    "maximum": lambda a, b, L: L.maximum(a, b), "minimum": lambda a, b, L: L.minimum(a, b),
    "atan2": lambda a, b, L: L.atan2(a, b), "fmod": lambda a, b, L: L.fmod(a, b),
    "remainder": lambda a, b, L: L.remainder(a, b), "add": lambda a, b, L: L.add(a, b),
    "sub": lambda a, b, L: L.sub(a, b), "mul": lambda a, b, L: L.mul(a, b), "div": lambda a, b, L: L.div(a, b),
    "div_trunc": lambda a, b, L: L.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda a, b, L: L.div(a, b, rounding_mode="floor"),
    "true_divide": lambda a, b, L: L.true_divide(a, b), "floor_divide": lambda a, b, L: L.floor_divide(a, b),
    "pow": lambda a, b, L: L.pow(a, b),
    "where": lambda a, b, L: L.where(L.tensor([True, False, True]), a, b),
    "lerp": lambda a, b, L: L.lerp(a, b, 0.5), "addcmul": lambda a, b, L: L.addcmul(a, b, b),
}
_OPERATORS = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "==", "<"}
# ops whose computation is the same as an operator's: a reduced dtype set keeps the file fast
_ALIASES = {"add", "sub", "mul", "true_divide", "where"}
_ZERO_DIM_DTYPES = {"bool", "uint8", "int8", "int64", "float16", "float64"}


def _binary_cases(name):
    op = BINARY[name]
    takes_lib = name not in _OPERATORS

    def call(a, b, L):
        a, b = _t(L, a), _t(L, b)
        return op(a, b, L) if takes_lib else op(a, b)

    def ref_call(a, b, L):
        if name in ("//", "floor_divide"):
            return _trunc_div(_t(L, a), _t(L, b))
        return call(a, b, L)

    dts = ["bool", "uint8", "int32", "float16", "float64"] if name in _ALIASES else DTYPES
    cases, refs = {}, {}
    for da, db in itertools.product(dts, dts):
        # 0-d operands over one dtype per size and category (keeps the file fast)
        shapes = ((True, True), (True, False), (False, True)) if da in _ZERO_DIM_DTYPES and db in _ZERO_DIM_DTYPES \
            else ((True, True),)
        for na, nb in shapes:
            key = f"{da}{'' if na else '(0d)'} {name} {db}{'' if nb else '(0d)'}"
            a, b = _arr(da, na), _arr(db, nb)
            cases[key] = lambda L, a=a, b=b: call(a, b, L)
            refs[key] = lambda L, a=a, b=b: ref_call(a, b, L)
    for da in dts:
        for s in (True, 2, -1, 1.5):
            a = _arr(da)
            cases[f"{da} {name} {s!r}"] = lambda L, a=a, s=s: call(a, s, L)
            refs[f"{da} {name} {s!r}"] = lambda L, a=a, s=s: ref_call(a, s, L)
            if name in _OPERATORS:
                cases[f"{s!r} {name} {da}"] = lambda L, a=a, s=s: call(s, a, L)
                refs[f"{s!r} {name} {da}"] = lambda L, a=a, s=s: ref_call(s, a, L)
    return cases, refs


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_promotion_matrix(reftorch, name):
    """dtype x dtype (n-d/n-d, n-d/0-d: a 0-d tensor does not promote an n-d one of its category), and Python
    bool/int/float scalars on either side: result dtype, values (with wraparound) and exception types."""
    cases, refs = _binary_cases(name)
    sweep(reftorch, cases, refs)


def test_promotion_special_pairs(reftorch):
    cases = {
        "int32 + 0-d float64": lambda L: L.tensor([1, 2], dtype=L.int32) + L.tensor(1.5, dtype=L.float64),
        "float16 + 0-d float64": lambda L: L.ones(2, dtype=L.float16) + L.tensor(1.5, dtype=L.float64),
        "0-d int64 + 0-d float16": lambda L: L.tensor(2) + L.tensor(1.5, dtype=L.float16),
        "uint8 + 0-d int8": lambda L: L.tensor([1, 200], dtype=L.uint8) + L.tensor(-1, dtype=L.int8),
        "int8 + 0-d uint8": lambda L: L.tensor([1, -2], dtype=L.int8) + L.tensor(200, dtype=L.uint8),
        "bool + 0-d int": lambda L: L.tensor([True, False]) + L.tensor(3),
        "int8 + 300 (scalar wraps)": lambda L: L.tensor([1, -2], dtype=L.int8) + 300,
        "uint8 * -1": lambda L: L.tensor([1, 200], dtype=L.uint8) * -1,
        "uint8 fmod -1": lambda L: L.fmod(L.tensor([3, 250], dtype=L.uint8), -1),
        "int64 + np.float64": lambda L: L.tensor([1, 2]) + np.float64(0.5),
        "int32 * np.int64": lambda L: L.tensor([1, 2], dtype=L.int32) * np.int64(3),
        "float16 * 1e5": lambda L: L.ones(2, dtype=L.float16) * 1e5,
        "complex + float64": lambda L: L.tensor([1j]) + L.ones(1, dtype=L.float64),
        "float32 + 1j": lambda L: L.ones(1) + 1j,
        "int + 1j": lambda L: L.ones(1, dtype=L.int64) + 1j,
        "result_type": lambda L: L.tensor(L.result_type(L.tensor([1], dtype=L.int8), 2.5) == L.float32),
        "promote_types": lambda L: L.tensor(L.promote_types(L.uint8, L.int8) == L.int16),
        "addcdiv int8/0-d": lambda L: L.addcdiv(L.tensor([1, 2], dtype=L.int8), L.tensor(3.0), L.tensor(2.0)),
        "addcmul value": lambda L: L.addcmul(L.ones(2), L.ones(2), L.ones(2) * 3, value=0.5),
        "lerp tensor weight dtype": lambda L: L.lerp(L.ones(2), L.zeros(2), L.ones(2, dtype=L.float64)),
        "lerp int": lambda L: L.lerp(L.ones(2, dtype=L.int64), L.zeros(2, dtype=L.int64), 0.5),
        "where scalar/scalar": lambda L: L.where(L.tensor([True, False]), 1.0, 0),
        "where int/float scalar": lambda L: L.where(L.tensor([True, False]), L.tensor([1, 2]), 0.5),
        "clamp int by float": lambda L: L.clamp(L.tensor([-5, 0, 5]), -2.5, 3.5),
        "int - True": lambda L: L.tensor([1, 2]) - True,
        "True - int tensor": lambda L: True - L.tensor([1, 2]),
        "float - bool tensor": lambda L: L.ones(2) - L.tensor([True, False]),
    }
    sweep(reftorch, cases)


def test_scalar_alpha_and_mixed_dtype_rules(reftorch):
    """Scalars out of the tensor's range, alpha's dtype rules, clamp's checked bound conversion, matmul's same-dtype
    rule, and the dtypes of reductions/unary ops over small integer types."""
    cases = {
        "int8 == 300": lambda L: L.tensor([44, 1], dtype=L.int8) == 300,
        "uint8 == -1": lambda L: L.tensor([255, 1], dtype=L.uint8) == -1,
        "uint8 < -1": lambda L: L.tensor([255, 1], dtype=L.uint8) < -1,
        "int8 < 0-d int64 300": lambda L: L.tensor([44, 1], dtype=L.int8) < L.tensor(300),
        "int == 1.5": lambda L: L.tensor([1, 2]) == 1.5,
        "bool == 2": lambda L: L.tensor([True, False]) == 2,
        "float32 == 0.1": lambda L: L.tensor([0.1]) == 0.1,
        "float64 == 0.1": lambda L: L.tensor([0.1], dtype=L.float64) == 0.1,
        "int8 == uint8": lambda L: L.eq(L.tensor([-1], dtype=L.int8), L.tensor([255], dtype=L.uint8)),
        "clamp uint8 by -1": lambda L: L.clamp(L.tensor([5, 0], dtype=L.uint8), -1, 3),
        "clamp int8 max=300 (overflow)": lambda L: L.clamp(L.tensor([5, 0], dtype=L.int8), max=300),
        "maximum int, 0-d float": lambda L: L.maximum(L.tensor([5, 0]), L.tensor(2.5)),
        "where uint8 condition": lambda L: L.where(L.tensor([1, 0], dtype=L.uint8), 1.0, 0.0),
        "where int64 condition": lambda L: L.where(L.tensor([1, 0]), 1.0, 0.0),
        "where bool, int": lambda L: L.where(L.tensor([True, False]), L.tensor([True, True]), L.tensor([3, 4])),
        "add bool alpha=2": lambda L: L.add(L.tensor([True, False]), L.tensor([True, True]), alpha=2),
        "add bool alpha=False": lambda L: L.add(L.tensor([True, False]), L.tensor([True, True]), alpha=False),
        "add int alpha=0.5": lambda L: L.add(L.tensor([1, 2]), L.tensor([1, 1]), alpha=0.5),
        "add float alpha=0.5": lambda L: L.add(L.tensor([1.0, 2]), L.tensor([1.0, 1]), alpha=0.5),
        "add float64 alpha=0.1": lambda L: L.add(L.ones(2, dtype=L.float64), L.ones(2, dtype=L.float64), alpha=0.1),
        "add int scalar alpha=2": lambda L: L.add(L.tensor([1, 2]), 3, alpha=2),
        "sub int alpha=True": lambda L: L.sub(L.tensor([1, 2]), L.tensor([1, 1]), alpha=True),
        "sub float, int alpha=0.5": lambda L: L.sub(L.tensor([1.0, 2]), L.tensor([1, 2]), alpha=0.5),
        "add_ int32 by int64 alpha=3": lambda L: L.ones(2, dtype=L.int32).add_(L.ones(2, dtype=L.int64), alpha=3),
        "rsub int, 1.5": lambda L: L.rsub(L.tensor([1, 2]), 1.5),
        "matmul int @ float": lambda L: L.ones(2, 2, dtype=L.int64) @ L.ones(2, 2),
        "matmul int @ int": lambda L: L.ones(2, 2, dtype=L.int64) @ L.ones(2, 2, dtype=L.int64),
        "matmul 0-d": lambda L: L.ones(2) @ L.tensor(2.0),
        "-uint8": lambda L: -L.tensor([1, 2], dtype=L.uint8),
        "~int8": lambda L: ~L.tensor([0, -1, 5], dtype=L.int8),
        "~uint8": lambda L: ~L.tensor([0, 255, 5], dtype=L.uint8),
        "~float": lambda L: ~L.tensor([0.0]),
        "sum bool": lambda L: L.tensor([True, True]).sum(),
        "sum uint8": lambda L: L.tensor([200, 100], dtype=L.uint8).sum(),
        "sum int8": lambda L: L.tensor([100, 100], dtype=L.int8).sum(),
        "sum int32": lambda L: L.tensor([2 ** 30, 2 ** 30], dtype=L.int32).sum(),
        "cumsum int8": lambda L: L.tensor([100, 100], dtype=L.int8).cumsum(0),
        "prod int32": lambda L: L.tensor([2 ** 20, 2 ** 20], dtype=L.int32).prod(),
        "mean int (RuntimeError)": lambda L: L.tensor([1, 2]).mean(),
        "mean int dtype=float64": lambda L: L.tensor([1, 2]).mean(dtype=L.float64),
        "bool & True": lambda L: L.tensor([True, False]) & True,
        "int & bool tensor": lambda L: L.tensor([3, 2]) & L.tensor([True, False]),
        "int & 1.5": lambda L: L.tensor([3, 2]) & 1.5,
        "int8 << 0-d int64": lambda L: L.tensor([1], dtype=L.int8) << L.tensor(3),
        "remainder(5, tensor)": lambda L: L.remainder(5, L.tensor([3, -3])),
        "int ** True": lambda L: L.tensor([2, 3]) ** True,
        "int ** 0-d float": lambda L: L.tensor([2, 3]) ** L.tensor(0.5),
        "float ** int tensor": lambda L: L.tensor([2.0, 3.0]) ** L.tensor([2, -1]),
        "0-d int ** float tensor": lambda L: L.tensor(2) ** L.tensor([0.5]),
        "int8 ** negative int8": lambda L: L.tensor([2, 1, -1], dtype=L.int8) ** L.tensor([-1, -3, -3], dtype=L.int8),
        "div floor int8 min / -1": lambda L: L.div(L.tensor([-128], dtype=L.int8), L.tensor([-1], dtype=L.int8),
                                                  rounding_mode="floor"),
        "div trunc int8 min / -1": lambda L: L.div(L.tensor([-128], dtype=L.int8), L.tensor([-1], dtype=L.int8),
                                                  rounding_mode="trunc"),
        "int8 min % -1": lambda L: L.tensor([-128], dtype=L.int8) % L.tensor([-1], dtype=L.int8),
    }
    sweep(reftorch, cases)


def test_tensor_dtype_inference(reftorch):
    cases = {
        "[True, 2]": lambda L: L.tensor([True, 2]),
        "[True, 2.5]": lambda L: L.tensor([True, 2.5]),
        "[[1, 2], [3.5, 4]]": lambda L: L.tensor([[1, 2], [3.5, 4]]),
        "[1, 2j]": lambda L: L.tensor([1, 2j]),
        "[]": lambda L: L.tensor([]),
        "[[], []]": lambda L: L.tensor([[], []]),
        "2**40": lambda L: L.tensor([2 ** 40]),
        "((1, 2), (3, 4))": lambda L: L.tensor(((1, 2), (3, 4))),
        "ragged": lambda L: L.tensor([[1, 2], [3]]),
        "float -> int64 truncates": lambda L: L.tensor([1.7, -1.7], dtype=L.int64),
        "int -> bool": lambda L: L.tensor([0, 2, -1], dtype=L.bool),
        "np.float64 scalar": lambda L: L.tensor(np.float64(1.5)),
        "np.float16 scalar": lambda L: L.tensor(np.float16(1.5)),
        "np.int32 scalar": lambda L: L.tensor(np.int32(3)),
        "np.uint8 scalar": lambda L: L.tensor(np.uint8(3)),
        "np.bool_ scalar": lambda L: L.tensor(np.bool_(True)),
        "[np.float64, np.float64]": lambda L: L.tensor([np.float64(1.5), np.float64(2)]),
        "[np.int32, np.int32]": lambda L: L.tensor([np.int32(1), np.int32(2)]),
        "[np.int32, 2.5]": lambda L: L.tensor([np.int32(1), 2.5]),
        "[int32 arrays]": lambda L: L.tensor([np.array([1, 2], np.int32), np.array([3, 4], np.int32)]),
        "[0-d tensors]": lambda L: L.tensor([L.tensor(1.5), L.tensor(2.0)]),
        "tensor(tensor)": lambda L: L.tensor(L.tensor([1, 2], dtype=L.int16)),
    }
    for dt in DTYPES + ["complex64", "complex128"]:
        arr = np.array([1, 0, 3]).astype(dt)
        cases[f"as_tensor({dt} array)"] = lambda L, a=arr: L.as_tensor(a.copy())
        cases[f"tensor({dt} array)"] = lambda L, a=arr: L.tensor(a.copy())
        cases[f"from_numpy({dt} array)"] = lambda L, a=arr: L.from_numpy(a.copy())
    sweep(reftorch, cases)


@pytest.mark.parametrize("default", ["float64", "float16"])
def test_default_dtype_changes(reftorch, default):
    def under(f):
        def run(L):
            old = L.get_default_dtype()
            L.set_default_dtype(getattr(L, default))
            try:
                return f(L)
            finally:
                L.set_default_dtype(old)
        return run

    cases = {
        "tensor([1.5, 2])": under(lambda L: L.tensor([1.5, 2])),
        "tensor([1j])": under(lambda L: L.tensor([1j])),
        "int + 1.5": under(lambda L: L.tensor([1, 2]) + 1.5),
        "int / 2": under(lambda L: L.tensor([1, 2]) / 2),
        "float32 + 1.5": under(lambda L: L.ones(2, dtype=L.float32) + 1.5),
        "bool * 2.5": under(lambda L: L.tensor([True]) * 2.5),
        "arange(0., 3.)": under(lambda L: L.arange(0.0, 3.0)),
        "zeros": under(lambda L: L.zeros(2)),
        "full(1.5)": under(lambda L: L.full((2,), 1.5)),
        "sqrt(int)": under(lambda L: L.sqrt(L.tensor([4]))),
        "as_tensor([1.5])": under(lambda L: L.as_tensor([1.5])),
        "get_default_dtype": under(lambda L: L.tensor(L.get_default_dtype() == getattr(L, default))),
    }
    if default == "float16":  # torch's complex32 (float16's complex) is not supported by torch.tensor nor here
        cases.pop("tensor([1j])")
    sweep(reftorch, cases)


# -------------------------------------------------------------------------------------- 2. in-place rules
def _inplace(op, data, other, dtype=None):
    def f(L):
        x = L.tensor(data, dtype=getattr(L, dtype) if dtype else None)
        op(x, other(L) if callable(other) else other)
        return x
    return f


def test_inplace_type_rules(reftorch):
    I, F, U8, B = [1, 2, 3], [1.0, 2.0, 3.0], [1, 2, 250], [True, False, True]
    cases = {
        "int += 1.5 (RuntimeError)": _inplace(operator.iadd, I, 1.5),
        "int *= 1.5": _inplace(operator.imul, I, 1.5),
        "int /= 2": _inplace(operator.itruediv, I, 2),
        "int += 0-d float": _inplace(operator.iadd, I, lambda L: L.tensor(1.5)),
        "int **= 0.5": _inplace(operator.ipow, I, 0.5),
        "float += int tensor": _inplace(operator.iadd, F, lambda L: L.tensor([1, 2, 3])),
        "int += bool tensor": _inplace(operator.iadd, I, lambda L: L.tensor([True, False, True])),
        "float16 += float64 tensor": _inplace(operator.iadd, F, lambda L: L.ones(3, dtype=L.float64), "float16"),
        "int32 += big int64": _inplace(operator.iadd, I, lambda L: L.tensor([2 ** 31, 2, 3]), "int32"),
        "uint8 -= 5 (wraps)": _inplace(operator.isub, U8, 5, "uint8"),
        "uint8 -= uint8": _inplace(operator.isub, U8, lambda L: L.tensor([2, 3, 4], dtype=L.uint8), "uint8"),
        "uint8 += 300": _inplace(operator.iadd, U8, 300, "uint8"),
        "uint8 *= int64": _inplace(operator.imul, U8, lambda L: L.tensor([100, 100, 100]), "uint8"),
        "bool += bool": _inplace(operator.iadd, B, lambda L: L.tensor([True, True, False])),
        "bool += 1": _inplace(operator.iadd, B, 1),
        "bool *= 2": _inplace(operator.imul, B, 2),
        "bool -= bool": _inplace(operator.isub, B, lambda L: L.tensor([True, True, False])),
        "bool |= bool": _inplace(operator.ior, B, lambda L: L.tensor([False, True, False])),
        "bool &= 1": _inplace(operator.iand, B, 1),
        "int %= -3": _inplace(operator.imod, [-7, 7, -8], -3),
        "int **= 2": _inplace(operator.ipow, [-7, 7, -8], 2),
        "int <<= 2": _inplace(operator.ilshift, [-7, 7, -8], 2),
        "float &= 1": _inplace(operator.iand, F, 1),
        "add_ broadcasting self": lambda L: L.ones(3).add_(L.ones(2, 3)),
        "add_ broadcast ok": lambda L: L.ones(2, 3).add_(L.ones(3)),
        "mul_ int by float tensor": lambda L: L.ones(2, dtype=L.int64).mul_(L.ones(2)),
        "clamp_ int by float": lambda L: L.tensor([1, 2, 3]).clamp_(0.5, 2.5),
        "sqrt_ int": lambda L: L.tensor([4]).sqrt_(),
        "out int from float add": lambda L: L.add(L.ones(3), L.ones(3), out=L.zeros(3, dtype=L.int64)),
        "out float from int add": lambda L: L.add(L.ones(3, dtype=L.int64), 1, out=L.zeros(3)),
        "out float16 from float32": lambda L: L.add(L.ones(3), 1, out=L.zeros(3, dtype=L.float16)),
        "out bool from int": lambda L: L.mul(L.ones(3, dtype=L.int64), 2, out=L.zeros(3, dtype=L.bool)),
        "out float from eq": lambda L: L.eq(L.ones(3), 1, out=L.zeros(3)),
        "out int32 from lt": lambda L: L.lt(L.ones(3), 2, out=L.zeros(3, dtype=L.int32)),
        "out int from true div": lambda L: L.div(L.ones(3, dtype=L.int64), 2, out=L.zeros(3, dtype=L.int64)),
    }
    sweep(reftorch, cases)


# ------------------------------------------------------------------------------------ 3. integer edge cases
def test_integer_edge_cases(reftorch):
    cases = {
        "int // 0": lambda L: L.div(L.tensor([5, 3]), 0, rounding_mode="floor"),
        "int // tensor with 0": lambda L: L.div(L.tensor([5, 3]), L.tensor([1, 0]), rounding_mode="floor"),
        "int % 0": lambda L: L.tensor([5, 3]) % 0,
        "fmod int 0": lambda L: L.fmod(L.tensor([5, 3]), 0),
        "remainder by tensor with 0": lambda L: L.remainder(L.tensor([5, 3]), L.tensor([0, 1])),
        "div trunc int 0": lambda L: L.div(L.tensor([5, 3]), 0, rounding_mode="trunc"),
        "int / 0 (float)": lambda L: L.tensor([5, 0, -3]) / 0,
        "float // 0": lambda L: L.div(L.tensor([5.0, 0.0, -3.0]), 0, rounding_mode="floor"),
        "float % 0": lambda L: L.tensor([5.0, 0.0, -3.0]) % 0,
        "int8 add wraps": lambda L: L.tensor([127, -128, 100], dtype=L.int8) + L.tensor([1, -1, 100], dtype=L.int8),
        "int8 mul wraps": lambda L: L.tensor([127, -128, 100], dtype=L.int8) * 3,
        "uint8 add wraps": lambda L: L.tensor([255, 0, 200], dtype=L.uint8) + 10,
        "uint8 sub wraps": lambda L: L.tensor([0, 1], dtype=L.uint8) - 2,
        "uint8 mul wraps": lambda L: L.tensor([200, 16], dtype=L.uint8) * L.tensor([2, 16], dtype=L.uint8),
        "int32 add wraps": lambda L: L.tensor([2 ** 31 - 1], dtype=L.int32) + 1,
        "int32 mul wraps": lambda L: L.tensor([2 ** 30, 65536], dtype=L.int32) * L.tensor([4, 65536], dtype=L.int32),
        "int64 mul wraps": lambda L: L.tensor([2 ** 62]) * 4,
        "neg int8 min": lambda L: -L.tensor([-128], dtype=L.int8),
        "abs int8 min": lambda L: L.abs(L.tensor([-128, 5], dtype=L.int8)),
        "abs int32 min": lambda L: L.tensor([-2 ** 31, 5], dtype=L.int32).abs(),
        "abs int64 min": lambda L: L.abs(L.tensor([-2 ** 63, 5])),
        "<< 2": lambda L: L.tensor([1, 3, -1]) << 2,
        "<< tensor": lambda L: L.tensor([1, 3, -1]) << L.tensor([1, 62, 3]),
        "int8 << 7, 8": lambda L: L.tensor([1, 3], dtype=L.int8) << L.tensor([7, 8], dtype=L.int8),
        "int32 << 40, -1": lambda L: L.tensor([2, 3], dtype=L.int32) << L.tensor([40, -1], dtype=L.int32),
        ">> negative": lambda L: L.tensor([-8, 8, -1]) >> 1,
        "uint8 >> 3": lambda L: L.tensor([255, 8], dtype=L.uint8) >> 3,
        "int32 >> 40": lambda L: L.tensor([-8, 8], dtype=L.int32) >> L.tensor([40, 40], dtype=L.int32),
        "1 << tensor": lambda L: 1 << L.tensor([1, 2, 3]),
        "float << 1": lambda L: L.tensor([1.0, 2.0]) << 1,
        "% signs int": lambda L: L.tensor([-7, 7, -7, 7]) % L.tensor([3, -3, -3, 3]),
        "% signs float": lambda L: L.tensor([-7.0, 7.0, -7.0, 7.0]) % L.tensor([3.0, -3.0, -3.0, 3.0]),
        "fmod signs int": lambda L: L.fmod(L.tensor([-7, 7, -7, 7]), L.tensor([3, -3, -3, 3])),
        "fmod signs float": lambda L: L.fmod(L.tensor([-7.0, 7.0, -7.0, 7.0]), L.tensor([3.0, -3.0, -3.0, 3.0])),
        "int % -3": lambda L: L.tensor([-7, 7]) % -3,
        "7 % tensor": lambda L: 7 % L.tensor([-3, 3, 2]),
        "7.5 % int tensor": lambda L: 7.5 % L.tensor([-3, 3, 2]),
        "uint8 % 3": lambda L: L.tensor([250, 7], dtype=L.uint8) % 3,
        "int ** negative tensor": lambda L: L.tensor([2, 3, 1, -1, -1, 0]) ** L.tensor([-1, 2, -5, -3, -2, 3]),
        "int ** -1 (raises)": lambda L: L.tensor([2, 3]) ** -1,
        "int ** 40 wraps": lambda L: L.tensor([3, 2]) ** 40,
        "int8 ** 5 wraps": lambda L: L.tensor([3, -2], dtype=L.int8) ** 5,
        "uint8 ** uint8": lambda L: L.tensor([250, 3, 2], dtype=L.uint8) ** L.tensor([2, 5, 9], dtype=L.uint8),
        "int32 ** int32": lambda L: L.tensor([7, -3], dtype=L.int32) ** L.tensor([12, 21], dtype=L.int32),
        "int ** 0": lambda L: L.tensor([0, -3]) ** 0,
        "2 ** int tensor": lambda L: 2 ** L.tensor([3, 10, 62, -1]),
        "2.5 ** int tensor": lambda L: 2.5 ** L.tensor([3, 1]),
        "0 ** 0, 0 ** -1": lambda L: L.tensor([0, 0.0]) ** L.tensor([0, -1.0]),
        "bool ** bool": lambda L: L.tensor([True]) ** L.tensor([False]),
        "negative floats .long()": lambda L: L.tensor([-1.7, 1.7, -0.5, 2.5]).long(),
        "negative floats .int()": lambda L: L.tensor([-1.7, 1.7, -0.5, 2.5]).int(),
        "floats .byte()": lambda L: L.tensor([1.7, 200.9]).byte(),
        "floats .bool()": lambda L: L.tensor([0.0, -0.0, 0.1, float("nan")]).bool(),
        "round half to even": lambda L: L.round(L.tensor([0.5, 1.5, 2.5, -0.5, -1.5, -2.5])),
        "round int": lambda L: L.round(L.tensor([3, -2])),
        "clamp int": lambda L: L.clamp(L.tensor([-5, 0, 5]), -2, 3),
        "clamp int by 0-d int tensors": lambda L: L.clamp(L.tensor([-5, 0, 5]), L.tensor(-2), L.tensor(3)),
        "clamp uint8": lambda L: L.clamp(L.tensor([5, 0, 250], dtype=L.uint8), 3, 200),
        "clamp min > max": lambda L: L.clamp(L.tensor([-5.0, 0.0, 5.0]), 3, 1),
        "clamp float by int tensor": lambda L: L.clamp(L.tensor([-5.0, 0.0, 5.0]), L.tensor([1, 1, 1]), None),
        "clamp_ int by float": lambda L: L.tensor([1, 2, 3]).clamp_(0.5, 2.5),
    }
    sweep(reftorch, cases)


def test_float_to_int_of_nan_inf_and_overflow(reftorch):
    """Out-of-range float -> int casts are undefined in C++; torch and MindSpore use the same CPU conversion
    (x86: INT_MIN for int32/int64, 0 for narrower types), so they agree on one machine."""
    vals = [float("nan"), float("inf"), -float("inf"), 1e20, -1e20, 3.9, -3.9]
    sweep(reftorch, {f"float32 -> {dt}": (lambda L, dt=dt: L.tensor(vals).to(getattr(L, dt)))
                     for dt in ("int64", "int32", "int16", "int8", "uint8", "bool")})


# ----------------------------------------------------------------------------- 4. floor_divide (1.12 semantics)
def test_floor_divide_truncates_like_torch_1_12(reftorch):
    """torch 1.12's floor_divide, `//`, `__rfloordiv__` and `//=` round toward zero (torch >= 1.13 floors, so the
    2.13 reference values come from div(rounding_mode='trunc')); div(rounding_mode='floor') floors in both."""
    a = [-7, 7, -8, 5, 0]
    b = [2, -2, 3, 5, -3]
    cases = {
        "floor_divide int": lambda L: L.floor_divide(L.tensor(a), L.tensor(b)),
        "floor_divide float": lambda L: L.floor_divide(L.tensor(a, dtype=L.float32), L.tensor(b, dtype=L.float32)),
        "// int scalar": lambda L: L.tensor(a) // 2,
        "// float scalar": lambda L: L.tensor(a) // 2.5,
        "scalar // tensor": lambda L: -7 // L.tensor(b),
        "method": lambda L: L.tensor(a, dtype=L.float64).floor_divide(-3),
        "//= int": _inplace(operator.ifloordiv, a, 2),
        "floor_divide_ float": lambda L: L.tensor(a, dtype=L.float32).floor_divide_(L.tensor(b, dtype=L.float32)),
        "uint8 // int8 (int16)": lambda L: L.tensor([250, 3], dtype=L.uint8) // L.tensor([-3, 2], dtype=L.int8),
    }
    refs = {
        "floor_divide int": lambda L: _trunc_div(L.tensor(a), L.tensor(b)),
        "floor_divide float": lambda L: _trunc_div(L.tensor(a, dtype=L.float32), L.tensor(b, dtype=L.float32)),
        "// int scalar": lambda L: _trunc_div(L.tensor(a), 2),
        "// float scalar": lambda L: _trunc_div(L.tensor(a), 2.5),
        "scalar // tensor": lambda L: _trunc_div(-7, L.tensor(b)),
        "method": lambda L: _trunc_div(L.tensor(a, dtype=L.float64), -3),
        "//= int": lambda L: _trunc_div(L.tensor(a), 2),
        "floor_divide_ float": lambda L: _trunc_div(L.tensor(a, dtype=L.float32), L.tensor(b, dtype=L.float32)),
        "uint8 // int8 (int16)": lambda L: _trunc_div(L.tensor([250, 3], dtype=L.uint8),
                                                     L.tensor([-3, 2], dtype=L.int8)),
    }
    sweep(reftorch, cases, refs)
    # the documented 1.12 -> 1.13 difference: torch 2.13 floors where 1.12 (and mindtorch) truncate
    mine = torch.floor_divide(torch.tensor([-7]), 2)
    ref = reftorch.floor_divide(reftorch.tensor([-7]), 2)
    assert int(mine) == -3 and int(ref) == -4
    # rounding_mode='floor' floors (both versions)
    same(reftorch, lambda L: L.div(L.tensor(a), L.tensor(b), rounding_mode="floor"), "div floor")


def test_floor_divide_warns_once_per_call_site(monkeypatch):
    """TORCH_WARN_ONCE in torch 1.12's floor_divide and (a separate site) floor_divide_out, used by floor_divide_
    and `//=`: each warns once per process, whatever the Python warning filters say."""
    monkeypatch.setitem(P.floor_divide_warned, "floor_divide", False)
    monkeypatch.setitem(P.floor_divide_warned, "floor_divide_", False)
    x = torch.tensor([-7, 7])
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        x // 2
        torch.floor_divide(x, 2)
        3 // x
        x.floor_divide(2)
    assert [str(w.message) for w in rec] == [P.FLOOR_DIVIDE_WARNING]
    assert rec[0].category is UserWarning
    assert str(rec[0].message).startswith("floor_divide is deprecated, and will be removed in a future version of "
                                          "pytorch. It currently rounds toward 0 (like the 'trunc' function NOT "
                                          "'floor').")
    assert rec[0].filename == __file__  # points at the caller
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        y = torch.tensor([-7, 7])
        y //= 2
        y.floor_divide_(2)
        torch.div(y, 2, rounding_mode="floor")
        torch.div(y, 2, rounding_mode="trunc")
    assert [str(w.message) for w in rec] == [P.FLOOR_DIVIDE_WARNING]
    assert y.tolist() == [-1, 1]  # -7 -> -3 -> -1 (truncating twice)


# ------------------------------------------------------------------------------------ 5. NaN / inf / -0.0
def test_nan_inf_and_signed_zero(reftorch):
    nan, inf = float("nan"), float("inf")
    M2 = [[1.0, nan, 3.0], [2.0, 1.0, 0.0]]
    cases = {
        "max(all) NaN": lambda L: L.max(L.tensor([1.0, nan, 3.0, -inf])),
        "min(all) NaN": lambda L: L.min(L.tensor([1.0, nan, 3.0, -inf])),
        "max(dim) NaN": lambda L: L.max(L.tensor(M2), 1),
        "min(dim) NaN": lambda L: L.min(L.tensor(M2), 1),
        "amax NaN": lambda L: L.amax(L.tensor(M2), 1),
        "amin NaN": lambda L: L.amin(L.tensor(M2), 1),
        "maximum NaN": lambda L: L.maximum(L.tensor([1.0, nan, nan, 2.0]), L.tensor([nan, 1.0, nan, 3.0])),
        "minimum NaN": lambda L: L.minimum(L.tensor([1.0, nan, nan, 2.0]), L.tensor([nan, 1.0, nan, 3.0])),
        "fmax NaN": lambda L: L.fmax(L.tensor([1.0, nan, nan, 2.0]), L.tensor([nan, 1.0, nan, 3.0])),
        "fmin NaN": lambda L: L.fmin(L.tensor([1.0, nan, nan, 2.0]), L.tensor([nan, 1.0, nan, 3.0])),
        "clamp keeps NaN": lambda L: L.clamp(L.tensor([1.0, nan, -inf, inf]), -1, 1),
        "clamp NaN bound": lambda L: L.clamp(L.tensor([1.0, 2.0]), L.tensor([nan, 0.0]), None),
        "argmax NaN": lambda L: L.argmax(L.tensor([1.0, nan, 3.0, nan])),
        "argmin NaN": lambda L: L.argmin(L.tensor([1.0, nan, -3.0])),
        "argmax(dim) NaN": lambda L: L.argmax(L.tensor(M2), 1),
        "sort NaN last": lambda L: L.sort(L.tensor([3.0, nan, 1.0, -inf, nan, 2.0])),
        "sort desc NaN first": lambda L: L.sort(L.tensor([3.0, nan, 1.0, -inf, 2.0]), descending=True),
        "argsort NaN": lambda L: L.argsort(L.tensor([3.0, nan, 1.0, -inf, 2.0])),
        "topk NaN largest": lambda L: L.topk(L.tensor([3.0, nan, 1.0, -inf, 2.0]), 2),
        "topk smallest": lambda L: L.topk(L.tensor([3.0, nan, 1.0, -inf, 2.0]), 2, largest=False),
        "unique NaNs stay apart": lambda L: L.unique(L.tensor([3.0, nan, 1.0, 3.0, nan]), return_inverse=True,
                                                     return_counts=True),
        "cummax NaN": lambda L: L.cummax(L.tensor([1.0, nan, 3.0]), 0),
        "median NaN": lambda L: L.median(L.tensor([1.0, nan, 3.0])),
        "sum inf - inf": lambda L: L.tensor([inf, -inf]).sum(),
        "NaN == NaN": lambda L: L.tensor([nan, 1.0]) == L.tensor([nan, 1.0]),
        "NaN != NaN": lambda L: L.tensor([nan, 1.0]) != nan,
        "NaN < NaN": lambda L: L.tensor([nan, 1.0]) < nan,
        "NaN >= 0": lambda L: L.tensor([nan, 1.0]) >= 0,
        "isclose equal_nan": lambda L: L.isclose(L.tensor([nan]), L.tensor([nan]), equal_nan=True),
        "copysign -0.0": lambda L: L.copysign(L.tensor([1.0, 2.0, 0.0, -3.0]), L.tensor([-0.0, 0.0, -0.0, 0.0])),
        "copysign int by float": lambda L: L.copysign(L.tensor([1, 2]), -1.0),
        "atan2 signed zeros": lambda L: L.atan2(L.tensor([0.0, -0.0, 0.0, -0.0]), L.tensor([-0.0, -0.0, 0.0, 0.0])),
        "-0.0 * -1": lambda L: L.tensor([0.0, -0.0]) * -1,
        "signbit": lambda L: L.signbit(L.tensor([0.0, -0.0, 1.0, -inf])),
        "sign": lambda L: L.sign(L.tensor([-0.0, 0.0, nan, -2.0])),
        "floor(-0.5)": lambda L: L.floor(L.tensor([-0.5, -0.0])),
        "nan_to_num": lambda L: L.nan_to_num(L.tensor([nan, inf, -inf, 1.0])),
    }
    sweep(reftorch, cases)


# ------------------------------------------------------------------------------------------ 6. indexing
_A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
_CHOICES = ("-1", ":", "[1,0]", "T[1,0]", "None", "mask")


def _index_item(L, key, dim):
    return {"0": 0, "-1": -1, ":": slice(None), "1:": slice(1, None), "[1,0]": [1, 0], "T[1,0]": L.tensor([1, 0]),
            "None": None, "mask": L.tensor([True, False] + [True] * ((2, 3, 4)[dim] - 2))}[key]


def _index_cases():
    cases = {}
    for combo in itertools.product(_CHOICES, repeat=3):
        def idx(L, combo=combo):
            out, d = [], 0
            for k in combo:
                out.append(_index_item(L, k, min(d, 2)))
                d += k != "None"
            return tuple(out)

        def get(L, idx=idx):
            return L.from_numpy(_A.copy())[idx(L)]

        def put(L, idx=idx):
            x = L.from_numpy(_A.copy())
            x[idx(L)] = -1.0
            return x
        cases[f"x[{', '.join(combo)}]"] = get
        cases[f"x[{', '.join(combo)}] = -1"] = put
    return cases


def test_indexing_combinations(reftorch):
    """Every combination of int / slice / list / index tensor / None / mask over a 3-d tensor, read and written:
    shapes (numpy's advanced-index placement, with torch's rule that ints are applied as select first), values, and
    errors (out-of-range, masks of the wrong shape, index tensors that do not broadcast)."""
    sweep(reftorch, _index_cases())


def _set(index, value):
    def f(L):
        x = L.from_numpy(_A.copy())
        x[index(L) if callable(index) else index] = value(L) if callable(value) else value
        return x
    return f


def test_indexing_corner_cases(reftorch):
    t = lambda L: L.from_numpy(_A.copy())  # noqa: E731
    cases = {
        "set broadcast row": _set(0, lambda L: L.tensor([1.0, 2.0, 3.0, 4.0])),
        "set broadcast column": _set(0, lambda L: L.tensor([[1.0], [2.0], [3.0]])),
        "set 0-d tensor": _set((slice(None), 1), lambda L: L.tensor(7.0)),
        "set 0-d int tensor into float": _set(1, lambda L: L.tensor(7)),
        "set float into int": lambda L: (lambda x: (x.__setitem__(0, 2.7), x)[1])(L.tensor([1, 2])),
        "set float tensor into int": lambda L: (lambda x: (x.__setitem__(0, L.tensor(-2.7)), x)[1])(L.tensor([1, 2])),
        "set list of bools": _set([True, False], 0.0),
        "set list of bools dim 1": _set((slice(None), [True, False, True]), -1.0),
        "get list of bools": lambda L: t(L)[[True, False]],
        "negative index tensor": lambda L: t(L)[L.tensor([-1, 0])],
        "negative index tensor dim 2": lambda L: t(L)[:, :, L.tensor([-1, -4])],
        "int out of range": lambda L: t(L)[5],
        "negative int out of range": lambda L: t(L)[-3],
        "index tensor out of range": lambda L: t(L)[L.tensor([0, 2])],
        "negative index tensor out of range": lambda L: t(L)[L.tensor([0, -3])],
        "list out of range": lambda L: t(L)[[0, 5]],
        "set index tensor out of range": _set(lambda L: L.tensor([3]), 1.0),
        "set int out of range": _set(3, 1.0),
        # int32 index tensors: accepted as in torch >= 2.0 (1.12 took long, byte and bool only); a superset that
        # never changes a value
        "int32 index": lambda L: t(L)[L.tensor([1, 0], dtype=L.int32)],
        "set int32 index": _set(lambda L: L.tensor([1], dtype=L.int32), 5.0),
        "int8 index (IndexError)": lambda L: t(L)[L.tensor([1, 0], dtype=L.int8)],
        "int16 index (IndexError)": lambda L: t(L)[:, L.tensor([2, 0], dtype=L.int16)],
        "float index (IndexError)": lambda L: t(L)[L.tensor([1.0, 0.0])],
        "uint8 index is a mask": lambda L: t(L)[L.tensor([1, 0], dtype=L.uint8)],
        "uint8 mask elementwise": lambda L: t(L)[(t(L) > 20).to(L.uint8)],
        "x[[0,1], :, [1,2]]": lambda L: t(L)[[0, 1], :, [1, 2]],
        "x[0, :, [1,2]] (int applied first)": lambda L: t(L)[0, :, [1, 2]],
        "x[0, :, [1,2]] = v": _set((0, slice(None), [1, 2]), lambda L: L.tensor([[1.0, 2.0]] * 3)),
        "set x[[0,1], :, [1,2]] = v": _set(([0, 1], slice(None), [1, 2]),
                                           lambda L: L.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
        "mask = tensor": lambda L: (lambda x: (x.__setitem__(x > 10, L.arange(13.0)), x)[1])(t(L)),
        "mask = 0-d tensor": lambda L: (lambda x: (x.__setitem__(x > 10, L.tensor(-1.0)), x)[1])(t(L)),
        "mask = broadcast row": lambda L: (lambda x: (x.__setitem__(x[:, :, 0] > 10, L.tensor([9.0, 8, 7, 6])),
                                                      x)[1])(t(L)),
        "partial mask get": lambda L: t(L)[t(L)[:, :, 0] > 10],
        "mask of wrong shape": lambda L: t(L)[L.tensor([True, False, True])],
        "x[..., None]": lambda L: t(L)[..., None],
        "x[:, None, 1]": lambda L: t(L)[:, None, 1],
        "x[None, [0,1], :, None]": lambda L: t(L)[None, [0, 1], :, None],
        "x[..., [0,2]]": lambda L: t(L)[..., [0, 2]],
        "x[i] += 1, duplicate i": lambda L: (lambda x, i: (x.__setitem__(i, x[i] + 1), x)[1])(
            L.zeros(4), L.tensor([0, 0, 2])),
        "x[dup] = values: one of the writes": lambda L: (lambda x: (x.__setitem__(L.tensor([1, 1]), L.tensor(
            [2.0, 2.0])), x)[1])(L.zeros(3)),
        "empty index tensor": lambda L: t(L)[L.tensor([], dtype=L.int64)],
        "empty list": lambda L: t(L)[[]],
        "empty slice": lambda L: t(L)[:, 3:],
        "empty mask result": lambda L: t(L)[t(L) > 100],
        "set with empty index": _set(lambda L: L.tensor([], dtype=L.int64), 1.0),
        "x[True]": lambda L: t(L)[True],
        "x[False]": lambda L: t(L)[False],
        "x[False] = 1": _set(False, 1.0),
        "x[0-d tensor]": lambda L: t(L)[L.tensor(1)],
        "x[0-d tensor] = 0": _set(lambda L: L.tensor(1), 0.0),
        "x[0-d bool tensor]": lambda L: t(L)[L.tensor(True)],
        "0-d[None]": lambda L: L.tensor(5)[None],
        "0-d[...]": lambda L: L.tensor(5)[...],
        "0-d[0]": lambda L: L.tensor(5)[0],
        "x[::0]": lambda L: t(L)[::0],
        "too many indices": lambda L: t(L)[0, 0, 0, 0],
        "float index": lambda L: t(L)[1.0],
        "set bool into float": _set(0, True),
        "set float into bool": lambda L: (lambda x: (x.__setitem__(0, 0.5), x)[1])(L.zeros(2, dtype=L.bool)),
        "set -1 into uint8 (wraps)": lambda L: (lambda x: (x.__setitem__(0, -1), x)[1])(L.zeros(2, dtype=L.uint8)),
        "set 300 into int8 (overflow)": lambda L: (lambda x: (x.__setitem__(0, 300), x)[1])(L.zeros(2, dtype=L.int8)),
        "set 300.0 into int8 (overflow)": lambda L: (lambda x: (x.__setitem__(0, 300.0), x)[1])(
            L.zeros(2, dtype=L.int8)),
        "set 2**31 into int32 (overflow)": lambda L: (lambda x: (x.__setitem__(0, 2 ** 31), x)[1])(
            L.zeros(2, dtype=L.int32)),
        "set nan into int32": lambda L: (lambda x: (x.__setitem__(0, float("nan")), x)[1])(L.zeros(2, dtype=L.int32)),
        "set 1e40 into float32": lambda L: (lambda x: (x.__setitem__(0, 1e40), x)[1])(L.zeros(2)),
        "set nan, -inf into float32": lambda L: (lambda x: (x.__setitem__(0, float("nan")), x.__setitem__(
            1, -float("inf")), x)[2])(L.zeros(2)),
        "set 2**62 into int64": lambda L: (lambda x: (x.__setitem__(0, 2 ** 62), x)[1])(L.zeros(2, dtype=L.int64)),
        "set 1e40 into float16 (inf)": lambda L: (lambda x: (x.__setitem__(0, 1e40), x)[1])(
            L.zeros(2, dtype=L.float16)),
        "mask set 200 into int8": lambda L: (lambda x: (x.__setitem__(L.tensor([True, False]), 200), x)[1])(
            L.zeros(2, dtype=L.int8)),
        "set a list (TypeError)": _set(0, [1.0, 2.0, 3.0, 4.0]),
        "set a tuple (TypeError)": _set(0, (1.0,)),
        "set a numpy array (TypeError)": _set(0, np.ones(4)),
        "set a numpy float64": _set(0, np.float64(1.5)),
        "set a numpy int32": _set(0, np.int32(2)),
        "set a complex into float": _set(0, 1 + 2j),
        "set a complex into complex": lambda L: (lambda x: (x.__setitem__(0, 1 + 2j), x)[1])(
            L.zeros(2, dtype=L.complex64)),
        "list with a 0-d tensor": lambda L: t(L)[[0, 1], [L.tensor(1), 2]],
        "tuple of lists": lambda L: t(L)[([0, 1], [1, 2])],
        "list of lists is a tuple": lambda L: t(L)[[[0, 1], [1, 0]]],
        "list of tensors is a tuple": lambda L: t(L)[[L.tensor(1), L.tensor(0)]],
        "list with a slice is a tuple": lambda L: t(L)[[1, slice(None), 0]],
        "list with None is a tuple": lambda L: t(L)[[None, 0]],
        "numpy int array": lambda L: t(L)[np.array([1, 0])],
        "numpy 2-d int array (one index)": lambda L: t(L)[np.array([[0, 1], [1, 0]])],
        "numpy bool array": lambda L: t(L)[np.array([True, False])],
        "numpy int scalar": lambda L: t(L)[np.int64(1)],
        "2-d mask on 3-d": lambda L: t(L)[L.tensor([[True, False, True], [False, False, True]])],
    }
    sweep(reftorch, cases)


def test_setitem_with_int_and_index_tensor_writes_through_views():
    """`x[0, :, [1, 2]] = v` (int applied first as a view) reaches x and the views of x."""
    x = torch.from_numpy(_A.copy())
    v = x.view(-1)
    x[0, :, [1, 2]] = torch.tensor([[-1.0, -2.0]] * 3)
    expect = _A.copy()
    expect[0][:, [1, 2]] = [[-1.0, -2.0]] * 3
    np.testing.assert_array_equal(x.numpy(), expect)
    np.testing.assert_array_equal(v.numpy(), expect.reshape(-1))


def test_gradients_of_the_rewritten_ops(reftorch):
    """The sign-of-zero and promotion fixes keep torch's gradients: fmod/remainder are 1 w.r.t. the dividend (also
    where the result is an exact zero), copysign is +-1 w.r.t. its magnitude, lerp/addcmul as torch."""
    def grads(L):
        out = []
        for fn in (lambda a: L.fmod(a, 2.0), lambda a: L.remainder(a, 1.5),
                   lambda a: L.copysign(a, L.tensor([-1.0, -0.0, 2.0, 1.0])),
                   lambda a: L.lerp(a, L.tensor([3.0, 5.0, 1.0, 0.0]), 0.25),
                   lambda a: L.addcmul(a, a, L.tensor([1.0, 2.0, 3.0, 4.0]), value=0.5)):
            a = L.tensor([4.0, -3.0, 0.0, 5.5], requires_grad=True)
            (fn(a) * L.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
            out.append(a.grad)
        return out
    same(reftorch, grads, "gradients")


BROADCAST_OPS = ["add", "mul", "sub", "div", "hypot", "logaddexp", "nextafter", "heaviside", "fmod", "remainder",
                 "xlogy", "copysign", "ldexp", "isclose", "atan2", "maximum", "complex", "polar"]


@pytest.mark.parametrize("name", BROADCAST_OPS)
def test_broadcast_errors_are_torchs(reftorch, name):
    """Operands whose shapes do not broadcast: torch's RuntimeError and message, not MindSpore's or numpy's."""
    assert_same_error(RuntimeError, lambda T: getattr(T, name)(T.ones(2, 3), T.ones(4, 3)), reftorch)


@pytest.mark.parametrize("name", ["complex", "polar"])
def test_complex_from_inputs_that_require_grad_is_a_clear_error(name):
    """MindSpore 2.10 has no gradient for most complex ops; a result that silently dropped the inputs' gradients
    would be wrong, so it is refused, naming the op and the way out. Detached inputs work."""
    a, b = torch.ones(2, requires_grad=True), torch.zeros(2)
    with pytest.raises(NotImplementedError, match=f"torch.{name}: autograd through complex"):
        getattr(torch, name)(a, b)
    assert getattr(torch, name)(a.detach(), b).dtype == torch.complex64


TYPE_ERRORS = [  # an argument that cannot be a tensor: torch's TypeError and message, never an AttributeError
    ("kron str", lambda T: T.kron(T.ones(2, 2), "a")),
    ("add str", lambda T: T.add(T.ones(2), "a")),
    ("matmul list", lambda T: T.matmul(T.ones(2, 2), [1, 2])),
    ("exp str", lambda T: T.exp("a")),
    ("cat element", lambda T: T.cat([T.ones(1), "a"])),
    ("stack None", lambda T: T.stack([T.ones(1), None])),
    ("relu None", lambda T: T.nn.functional.relu(None)),
    ("sum dict", lambda T: T.sum({})),
]


@pytest.mark.parametrize("case", TYPE_ERRORS, ids=[c[0] for c in TYPE_ERRORS])
def test_wrong_argument_types_raise_torchs_type_error(reftorch, case):
    assert_same_error(TypeError, case[1], reftorch)


def test_none_operand_is_a_type_error_not_a_lazy_tensor():
    """MindSpore's Tensor(None, dtype) is an uninitialised lazy tensor (shape [-2]): `x.mul(None)` returned one."""
    for op in ("mul", "add", "div", "sub"):
        with pytest.raises(TypeError, match="must be Tensor, not NoneType"):
            getattr(torch.ones(2), op)(None)
