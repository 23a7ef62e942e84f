"""Tensor under Python's and numpy's protocols, against real torch: which operands the operators take (numpy arrays
go through numpy's ufunc and come back through `__array_wrap__`; lists, strings, None get Python's own answer),
torch.tensor's reading of nested data, copy.copy, `in`, round(), int()/float(), torch.Size arithmetic, and the
tensor-list checks of stack/cat.

Each case runs on both libraries and must give the same result (tensors: dtype, shape, values; Python values:
equal, same type) or raise the same exception type with the same message. The reference is torch 2.13; where torch
1.12 (mindtorch's reference) differs, the test says so.
"""
import copy
import decimal
import fractions
import math
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


def _outcome(fn, lib):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(lib)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return ("raised", type(e).__name__, str(e))


def _check(mine, ref):
    if isinstance(ref, (list, tuple)) and not (isinstance(ref, tuple) and ref[:1] == ("raised",)):
        assert type(mine).__name__ == type(ref).__name__, (mine, ref)
        assert len(mine) == len(ref), (mine, ref)
        for m, r in zip(mine, ref):
            _check(m, r)
    elif type(ref).__name__ in ("Tensor", "Parameter"):
        assert type(mine).__name__ == type(ref).__name__, (mine, ref)
        assert_same(mine, ref.detach())
    elif isinstance(ref, np.ndarray):
        assert isinstance(mine, np.ndarray) and mine.dtype == ref.dtype, (mine, ref)
        np.testing.assert_array_equal(mine, ref)
    else:
        assert (type(mine).__name__, mine) == (type(ref).__name__, ref)


def same(reftorch, fn):
    """fn(torch module): the same outcome in mindtorch as in real torch."""
    _check(_outcome(fn, torch), _outcome(fn, reftorch))


# ------------------------------------------------------------------------------------------- numpy array operands
# torch's operators refuse a numpy array (NotImplemented): numpy's reflected operator computes `t OP a` with its
# ufunc - numpy's dtype, not torch's promotion of a scalar - and Tensor.__array_wrap__ makes the result a tensor;
# `a OP t` and `t < a` are Python's TypeError (numpy defers to the tensor's __array_priority__)
ARRAY_CASES = {
    "int32+int32 array": lambda T: T.tensor([1, 2], dtype=T.int32) + np.array([3, 4], dtype=np.int32),
    "int32+int64 array": lambda T: T.tensor([1, 2], dtype=T.int32) + np.array([3, 4]),
    "int32*0-d int64": lambda T: T.tensor([1, 2], dtype=T.int32) * np.array(2, dtype=np.int64),
    "int64+0-d float": lambda T: T.tensor([1, 2]) + np.array(3.5),
    "f32+0-d f64": lambda T: T.tensor([1., 2.]) + np.array(3.0),
    "f32+f64 array": lambda T: T.tensor([1., 2.]) + np.array([1., 3.]),
    "f32+int64 array": lambda T: T.tensor([1., 2.]) + np.array([1, 2]),
    "f16+f32 array": lambda T: T.tensor([1., 2.], dtype=T.float16) + np.array([1, 2], dtype=np.float32),
    "uint8+int8 array": lambda T: T.tensor([1, 2], dtype=T.uint8) + np.array([1, 2], dtype=np.int8),
    "f32+complex array": lambda T: T.tensor([1., 2.]) + np.array([1 + 1j, 2]),
    "bool&bool array": lambda T: T.tensor([True, False]) & np.array([True, True]),
    "bool+int array": lambda T: T.tensor([True, False]) + np.array([1, 1]),
    "int/array": lambda T: T.tensor([1, 2]) / np.array([2, 2]),
    "int//array": lambda T: T.tensor([-7, 2]) // np.array([2, 2]),
    "int%array": lambda T: T.tensor([-7, 2]) % np.array([2, 2]),
    "int**array": lambda T: T.tensor([1, 2]) ** np.array([2, 2]),
    "int<<array": lambda T: T.tensor([1, 2]) << np.array([1, 1]),
    "broadcast": lambda T: T.tensor([1., 2.]) - np.array([[1.], [2.]]),
    "matmul": lambda T: T.tensor([1., 2.]) @ np.array([1., 2.]),
    "0-d": lambda T: T.tensor(1.) + np.array(1.),
    "iadd rebinds": lambda T: _iadd_array(T),
    "iadd int to float": lambda T: _iadd_array(T, T.tensor([1, 2]), np.array([1.5, 2.])),
    "array+t": lambda T: np.array([1, 2]) + T.tensor(2),
    "array*t": lambda T: np.array([1., 2.]) * T.tensor([1., 2.]),
    "array@t": lambda T: np.array([1., 2.]) @ T.tensor([1., 2.]),
    "t<array": lambda T: T.tensor([1., 2.]) < np.array([1., 3.]),
    "array>=t": lambda T: np.array([1., 3.]) >= T.tensor([1., 2.]),
    "t!=array": lambda T: T.tensor([1., 2.]) != np.array([1., 3.]),
    "t==array": lambda T: T.tensor([1., 2.]) == np.array([1., 3.]),  # (1.12: False; torch >= 2.0 compares)
    "array==t": lambda T: np.array([1., 3.]) == T.tensor([1., 2.]),
    "radd direct": lambda T: T.tensor([1., 2.]).__radd__(np.array([1., 2.])),
    "requires grad": lambda T: T.tensor([1., 2.], requires_grad=True) * np.array([1., 2.]),
    "requires grad iadd": lambda T: _iadd_array(T, T.tensor([1., 2.], requires_grad=True)),
    "requires grad reflected": lambda T: np.array([1., 2.]) * T.tensor([1., 2.], requires_grad=True),
}


def _iadd_array(T, t=None, a=None):
    t = T.tensor([1., 2.]) if t is None else t
    before = t
    t += np.array([1., 2.]) if a is None else a
    return [t, before, t is before]


@pytest.mark.parametrize("case", sorted(ARRAY_CASES))
def test_numpy_array_operands(reftorch, case):
    same(reftorch, ARRAY_CASES[case])


NUMPY_SCALAR_CASES = {
    "f64*f32": lambda T: np.float64(2) * T.tensor([1., 2.]),
    "f32*f32": lambda T: T.tensor([1., 2.]) * np.float32(2),
    "f64*int": lambda T: T.tensor([1, 2]) * np.float64(2.5),
    "int64+int32": lambda T: T.tensor([1, 2], dtype=T.int32) + np.int64(3),
    "int64*int8": lambda T: T.tensor([1, 2], dtype=T.int8) * np.int64(300),
    "bool+bool": lambda T: T.tensor([True, False]) + np.bool_(True),
    "f64-": lambda T: np.float64(3.0) - T.tensor([1., 2.]),
    "int64//": lambda T: np.int64(3) // T.tensor([1., 2.]),
    "f64>": lambda T: np.float64(2) > T.tensor([1., 3.]),
}


@pytest.mark.parametrize("case", sorted(NUMPY_SCALAR_CASES))
def test_numpy_scalar_operands_unchanged(reftorch, case):
    """numpy scalars are torch operands (as Python numbers of their dtype)."""
    same(reftorch, NUMPY_SCALAR_CASES[case])


def test_numpy_scalar_operand_gradient(reftorch):
    def f(T):
        x = T.tensor([1., 2.], requires_grad=True)
        (np.float32(3) * x * np.float64(2) - np.int64(1)).sum().backward()
        return x.grad
    same(reftorch, f)


def test_function_promotes_array_as_tensor(reftorch):
    """torch.add(t, ndarray) is torch's TypeError; mindtorch computes it, promoting the array as the tensor
    torch.from_numpy makes of it (not as a Python float: no lost dtype, no dropped imaginary part)."""
    for t, a in ((np.array([1, 2], np.int32), np.array([3, 4], np.int32)), (np.ones(2, np.float32), np.ones(2)),
                 (np.ones(2, np.float32), np.array([1 + 1j, 2])), (np.array([1, 2]), np.array(3.5))):
        assert_same(torch.add(torch.from_numpy(t), a), reftorch.add(reftorch.from_numpy(t), reftorch.from_numpy(a)))


# ------------------------------------------------------------------------------- operands torch does not take
OTHER_OPERAND_CASES = {
    "[0]*t": lambda T: [0] * T.tensor(2),
    "[0]*t 1-elem": lambda T: [0] * T.tensor([3]),
    "tuple*t": lambda T: (1, 2) * T.tensor(2),
    "str*t": lambda T: "ab" * T.tensor(2),
    "t*str": lambda T: T.tensor(2) * "ab",
    "[0,1]*t": lambda T: [0, 1] * T.tensor([1, 2]),
    "t*[0,1]": lambda T: T.tensor([1, 2]) * [0, 1],
    "float t*[0]": lambda T: T.tensor(2.) * [0],
    "t+list": lambda T: T.tensor([1, 2]) + [1, 1],
    "list+t": lambda T: [1, 1] + T.tensor([1, 2]),
    "tuple+t": lambda T: (1, 1) + T.tensor([1, 2]),
    "t+None": lambda T: T.tensor([1., 2.]) + None,
    "None+t": lambda T: None + T.tensor([1., 2.]),
    "t+str": lambda T: T.tensor([1., 2.]) + "a",
    "str+t": lambda T: "a" + T.tensor([1., 2.]),
    "t*Decimal": lambda T: T.tensor([1., 2.]) * decimal.Decimal(2),
    "Decimal*t": lambda T: decimal.Decimal(2) * T.tensor([1., 2.]),
    "t*Fraction": lambda T: T.tensor([1., 2.]) * fractions.Fraction(1, 2),
    "t@int": lambda T: T.tensor([1., 2.]) @ 2,
    "int@t": lambda T: 2 @ T.tensor([1., 2.]),
    "t@list": lambda T: T.tensor([1., 2.]) @ [1., 2.],
    "t+=list": lambda T: _inplace(T, "+=", [1, 2]),
    "t*=list": lambda T: _inplace(T, "*=", [0]),
    "t-=None": lambda T: _inplace(T, "-=", None),
    "t<list": lambda T: T.tensor([1., 2.]) < [1., 3.],
    "t==None": lambda T: T.tensor([1., 2.]) == None,  # noqa: E711 - the operator under test
    "iadd direct": lambda T: T.tensor([1., 2.]).__iadd__([1, 2]),
    "radd direct": lambda T: T.tensor([1., 2.]).__radd__(None),
    "custom radd": lambda T: T.tensor([1., 2.]) + _Other(),
    "custom rmul": lambda T: T.tensor([1., 2.]) * _Other(),
}


class _Other:
    def __radd__(self, other):
        return "radd"

    def __rmul__(self, other):
        return "rmul"


def _inplace(T, op, value):
    t = T.tensor([1., 2.])
    exec(f"t {op} value")  # noqa: S102 - a fixed augmented assignment from the cases above
    return t


@pytest.mark.parametrize("case", sorted(OTHER_OPERAND_CASES))
def test_other_operands_get_pythons_answer(reftorch, case):
    same(reftorch, OTHER_OPERAND_CASES[case])


def test_tensor_and_number_operands_unchanged(reftorch):
    def ops(T):
        t, i, p = T.tensor([1., 2.]), T.tensor([3, 5]), T.nn.Parameter(T.tensor([1., 3.]))
        return [t + p, p - t, p * 2, 2.5 * p, 1 / t, 3 // t, 3 % i, 2 ** t, 1 & i, 1 << i, 256 >> i, t + True,
                (1 + 2j) * t, p @ t]
    same(reftorch, ops)


def test_imatmul_rebinds(reftorch):
    """torch has no `@=`: Python rebinds `t = t @ m`, whatever its shape; the old tensor is untouched."""
    def f(T):
        t = T.ones(2, 3)
        before = t
        t @= T.arange(12.).reshape(3, 4)
        return [t, before, t is before]
    same(reftorch, f)


def test_inplace_operators_stay_in_place_and_differentiate(reftorch):
    def f(T):
        x = T.tensor([1., 2.], requires_grad=True)
        y = x * 1
        before = y
        y += T.tensor([1., 1.])
        y *= 2
        y.sum().backward()
        return [y, y is before, x.grad]
    same(reftorch, f)


def test_floor_divide_operator_warns_at_the_callers_line(monkeypatch):
    from mindtorch.torch._ops import pointwise as P

    monkeypatch.setitem(P.floor_divide_warned, "floor_divide", False)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        torch.tensor([-7, 7]) // 2
    assert [w.filename for w in rec] == [__file__]


# ------------------------------------------------------------------------------------- torch.tensor's reading
TENSOR_DATA_CASES = {
    "1-elem tensors": lambda T: T.tensor([T.tensor([1.]), T.tensor([2.])]),
    "1-elem 2-d tensors": lambda T: T.tensor([T.tensor([[1.]]), T.tensor([[2.]])]),
    "as_tensor 1-elem": lambda T: T.as_tensor([T.tensor([1.]), T.tensor([2.])]),
    "int 1-elem": lambda T: T.tensor([T.tensor([1]), T.tensor([2])]),
    "0-d inside": lambda T: T.tensor([[T.tensor(1.), T.tensor(2.)]]),
    "1-elem nested": lambda T: T.tensor([[T.tensor([1.]), T.tensor([2.])]]),
    "tensor and float": lambda T: T.tensor([T.tensor(1), 2.5]),
    "requires grad leaves": lambda T: T.tensor([T.tensor(1., requires_grad=True), T.tensor(2.)]),
    "multi-elem": lambda T: T.tensor([T.tensor([1., 2.]), T.tensor([1., 2.])]),
    "multi-elem 2nd": lambda T: T.tensor([1, T.tensor([1., 2.])]),
    "empty tensor": lambda T: T.tensor([T.zeros(0)]),
    "float into int64": lambda T: T.tensor([T.tensor([1.]), T.tensor([2.])], dtype=T.int64),
    "tensor below first": lambda T: T.tensor([[1, 2], T.tensor([3, 4.5])]),
    "tensor first": lambda T: T.tensor([T.tensor([1, 2]), [3, 4]]),
    "arrays": lambda T: T.tensor([np.array([1, 2]), np.array([3, 4])]),
    "0-d array first": lambda T: T.tensor([np.array(1.), 2.]),
    "0-d array second": lambda T: T.tensor([1., np.array(1.)]),
    "big-endian inside": lambda T: T.tensor([np.array([1, 2], dtype=">i4")]),
    "2**63": lambda T: T.tensor(2 ** 63),
    "-2**63-1": lambda T: T.tensor(-2 ** 63 - 1),
    "[2**64]": lambda T: T.tensor([2 ** 64]),
    "[2**63, 1]": lambda T: T.tensor([2 ** 63, 1]),
    "[-1, 2**63]": lambda T: T.tensor([-1, 2 ** 63]),
    "-2**63": lambda T: T.tensor(-2 ** 63),
    "2**63 as float": lambda T: T.tensor([1, 2 ** 64], dtype=T.float32),
    "2**63 float inferred": lambda T: T.tensor([1.5, 2 ** 63]),
    "complex into float32": lambda T: T.tensor([1 + 1j], dtype=T.float32),
    "complex into int64": lambda T: T.tensor([1 + 1j], dtype=T.int64),
    "complex into bool": lambda T: T.tensor([1j, 0], dtype=T.bool),
    "float into int64 truncates": lambda T: T.tensor([1.5, -2.7], dtype=T.int64),
    "ragged": lambda T: T.tensor([[1, 2], [3]]),
    "ragged longer": lambda T: T.tensor([[1], [2, 3]]),
    "ragged deep": lambda T: T.tensor([[[1, 2]], [[3]]]),
    "ragged array": lambda T: T.tensor([np.array([1, 2]), [3]]),
    "not a sequence": lambda T: T.tensor([[1, 2], 3]),
    "list as int": lambda T: T.tensor([1, [2]]),
    "list as int deep": lambda T: T.tensor([[1, 2], [3, [4]]]),
    "list as float": lambda T: T.tensor([1, []]),
    "empty rows": lambda T: T.tensor([[], []]),
    "ragged empty": lambda T: T.tensor([[], [1]]),
    "None": lambda T: T.tensor(None),
    "[None]": lambda T: T.tensor([None]),
    "[1, None]": lambda T: T.tensor([1, None]),
    "nested None": lambda T: T.tensor([[1, 2], [3, None]]),
    "dict": lambda T: T.tensor({1: 2}),
    "set": lambda T: T.tensor({1, 2}),
    "nested str": lambda T: T.tensor([[1, 2], [3, "a"]]),
    "range": lambda T: T.tensor(range(3)),
    "Size": lambda T: T.tensor([T.Size([2, 3])]),
    "mixed tuple": lambda T: T.tensor([[1, 2], (3, 4)]),
    "bools and ints": lambda T: T.tensor([True, 2]),
    "numpy scalars": lambda T: T.tensor([np.float64(1.5), np.int32(1)]),
    "from_numpy negative stride": lambda T: T.from_numpy(np.array([1, 2])[::-1]),
    "from_numpy negative stride 2-d": lambda T: T.from_numpy(np.zeros((2, 2))[:, ::-1]),
    "tensor negative stride": lambda T: T.tensor(np.array([1, 2])[::-1]),
    "as_tensor negative stride": lambda T: T.as_tensor(np.array([1, 2])[::-1]),
    "from_numpy big-endian": lambda T: T.from_numpy(np.array([1, 2], dtype=">i4")),
    "from_numpy big-endian 0-d": lambda T: T.from_numpy(np.array(1, dtype=">f8")),
    "tensor big-endian": lambda T: T.tensor(np.array([1, 2], dtype=">i4")),
    "as_tensor big-endian": lambda T: T.as_tensor(np.array([1, 2], dtype=">i4")),
    "from_numpy native order": lambda T: T.from_numpy(np.array([1, 2], dtype="=i4")),
    "from_numpy bytes": lambda T: T.from_numpy(np.array([1, 2], dtype=">u1")),
    "legacy 1-elem tensors": lambda T: T.Tensor([T.tensor([1.]), T.tensor([2.])]),
    "legacy ragged": lambda T: T.Tensor([[1, 2], [3]]),
    "legacy complex": lambda T: T.Tensor([1 + 1j]),
    "legacy float": lambda T: T.Tensor(2.5),
    "legacy numpy scalar": lambda T: T.Tensor(np.float32(2.5)),
    "legacy None": lambda T: T.Tensor(None),
    "legacy 0-d array": lambda T: T.Tensor(np.array(2.5)),
    "legacy typed float": lambda T: T.FloatTensor(2.5),
    "legacy typed truncates": lambda T: T.LongTensor([1.5]),
    "legacy range": lambda T: T.Tensor(range(3)),
    "legacy negative stride": lambda T: T.Tensor(np.array([1., 2.])[::-1]),
}


@pytest.mark.parametrize("case", sorted(TENSOR_DATA_CASES))
def test_tensor_reads_data_as_torch(reftorch, case):
    same(reftorch, TENSOR_DATA_CASES[case])


def test_tensor_of_one_element_tensors_is_a_leaf_with_their_gradient_cut(reftorch):
    def f(T):
        a, b = T.tensor([1.], requires_grad=True), T.tensor([2.], requires_grad=True)
        t = T.tensor([a * 2, b], requires_grad=True)
        (t * T.tensor([3., 4.])).sum().backward()
        return [t, t.grad, a.grad is None, t.is_leaf]
    same(reftorch, f)


# ------------------------------------------------------------------------------------------------- copy.copy
def test_copy_copy_is_a_new_tensor_over_the_same_storage(reftorch):
    def f(T):
        t = T.tensor([1., 2.])
        c = copy.copy(t)
        c[0] = 9
        return [t, c, c is t]
    same(reftorch, f)


def test_copy_copy_keeps_requires_grad_and_is_a_leaf(reftorch):
    def f(T):
        x = T.tensor([1., 2.], requires_grad=True)
        leaf, nonleaf = copy.copy(x), copy.copy(x * 2)
        (leaf * T.tensor([3., 4.])).sum().backward()
        return [leaf.requires_grad, leaf.is_leaf, leaf is x, leaf.grad, x.grad is None, nonleaf.requires_grad,
                nonleaf.is_leaf, nonleaf.grad_fn is None, nonleaf]
    same(reftorch, f)


def test_copy_copy_of_int_tensor_writes_through(reftorch):
    def f(T):
        t = T.tensor([1, 2])
        c = copy.copy(t)
        c += 5
        return [t, c]
    same(reftorch, f)


def test_copy_copy_attributes_follow_torch_112():
    """torch 1.12 pickles a plain Tensor without its __dict__ (2.x keeps `t.foo`); a subclass keeps its class and
    attributes (`_rebuild_from_type`)."""
    t = torch.tensor([1.])
    t.foo = 1
    assert not hasattr(copy.copy(t), "foo")

    class Sub(torch.Tensor):
        pass

    s = torch.tensor([1., 2.]).as_subclass(Sub)
    s.foo = 1
    c = copy.copy(s)
    assert type(c) is Sub and c.foo == 1 and c is not s


# ---------------------------------------------------------------------------------- numpy ufuncs, round, in, int()
UFUNC_CASES = {
    "sin": lambda T: np.sin(T.tensor([0., 1.])),
    "exp 0-d": lambda T: np.exp(T.tensor(1.)),
    "add int32 arrays": lambda T: np.add(T.tensor([1, 2], dtype=T.int32), np.array([1, 2], dtype=np.int32)),
    "add tensors": lambda T: np.multiply(T.tensor([1., 2.]), T.tensor([3., 4.])),
    "greater": lambda T: np.greater(T.tensor([1., 2.]), 1.5),  # bool -> uint8 (torch's workaround, 1.12 as 2.x)
    "isnan": lambda T: np.isnan(T.tensor([1., float("nan")])),
    "sqrt float16": lambda T: np.sqrt(T.tensor([1., 4.], dtype=T.float16)),
    "abs int": lambda T: np.abs(T.tensor([-1, 2])),
    "maximum": lambda T: np.maximum(T.tensor([1., 5.]), T.tensor([3., 4.])),
    "reshape": lambda T: np.reshape(T.tensor([1., 2.]), (2, 1)),
    "transpose": lambda T: np.transpose(T.tensor([[1., 2.]])),
    "asarray": lambda T: np.asarray(T.tensor([1., 2.])),
}


@pytest.mark.parametrize("case", sorted(UFUNC_CASES))
def test_numpy_functions_on_tensors(reftorch, case):
    same(reftorch, UFUNC_CASES[case])


SCALAR_PROTOCOL_CASES = {
    "round": lambda T: round(T.tensor(2.5)),
    "round ndigits": lambda T: round(T.tensor([1.2345]), 2),
    "round int": lambda T: round(T.tensor([1, 2])),
    "round parameter": lambda T: round(T.nn.Parameter(T.ones(2))),
    "in int": lambda T: [2 in T.tensor([1, 2]), 3 in T.tensor([1, 2]), 2.0 in T.tensor([1, 2])],
    "in tensor": lambda T: [T.tensor(2) in T.tensor([1, 2]), T.tensor([1, 5]) in T.tensor([1, 2])],
    "in numpy scalar": lambda T: np.float64(2) in T.tensor([1., 2.]),
    "in bool": lambda T: True in T.tensor([1, 2]),
    "in 2-d": lambda T: 3 in T.tensor([[1, 2], [3, 4]]),
    "in str": lambda T: "a" in T.tensor([1., 2.]),
    "in None": lambda T: None in T.tensor([1., 2.]),
    "in array": lambda T: np.array(2.) in T.tensor([1., 2.]),
    "in list": lambda T: [1., 2.] in T.tensor([1., 2.]),
    "in np.bool_": lambda T: np.bool_(True) in T.tensor([True]),
    "int 2 elems": lambda T: int(T.tensor([1., 2.])),
    "float 2 elems": lambda T: float(T.tensor([1., 2.])),
    "complex 2 elems": lambda T: complex(T.tensor([1., 2.])),
    "float empty": lambda T: float(T.tensor([])),
    "floor 2 elems": lambda T: math.floor(T.tensor([2.5, 1.5])),
    "sqrt 2 elems": lambda T: math.sqrt(T.tensor([7., 8.])),
    "float complex": lambda T: float(T.tensor(1 + 2j)),
    "int complex": lambda T: int(T.tensor(1 + 2j)),
    "float real complex": lambda T: float(T.tensor([1 + 0j])),
    "one element": lambda T: [int(T.tensor(2.7)), int(T.tensor([[-2.7]])), float(T.tensor([3])),
                              complex(T.tensor(2)), int(T.tensor(True)), math.floor(T.tensor(2.5)),
                              math.ceil(T.tensor([2.5])), math.trunc(T.tensor(-2.5))],
    "int nan": lambda T: int(T.tensor(float("nan"))),
}


@pytest.mark.parametrize("case", sorted(SCALAR_PROTOCOL_CASES))
def test_scalar_protocols(reftorch, case):
    same(reftorch, SCALAR_PROTOCOL_CASES[case])


# --------------------------------------------------------------------------------------------- stack / cat lists
LIST_CASES = {
    "stack arrays": lambda T: T.stack([np.array([1., 2.]), np.array([3., 4.])]),
    "cat arrays": lambda T: T.cat([np.array([1., 2.]), np.array([3., 4.])]),
    "stack mixed": lambda T: T.stack([T.tensor([1., 2.]), np.array([3., 4.])]),
    "cat list": lambda T: T.cat([T.tensor([1., 2.]), [3., 4.]]),
    "cat None": lambda T: T.cat([T.tensor([1., 2.]), None]),
    "stack float": lambda T: T.stack([T.tensor([1., 2.]), 3.]),
    "cat tuple": lambda T: T.cat((T.tensor([1., 2.]), T.tensor([3.]))),
    "stack dim": lambda T: T.stack((T.tensor([1., 2.]), T.tensor([3., 5])), 1),
    "cat parameter": lambda T: T.cat([T.nn.Parameter(T.ones(2)), T.ones(1)]),
}


@pytest.mark.parametrize("case", sorted(LIST_CASES))
def test_stack_cat_take_tensors(reftorch, case):
    same(reftorch, LIST_CASES[case])


# -------------------------------------------------------------------------------------------------- torch.Size
SIZE_CASES = {
    "size+list": lambda T: T.Size([2, 3]) + [4],
    "size+tuple": lambda T: T.Size([2, 3]) + (4,),
    "tuple+size": lambda T: (4,) + T.Size([2, 3]),
    "size*2": lambda T: T.Size([2, 3]) * 2,
    "2*size": lambda T: 2 * T.Size([2, 3]),
    "size*0": lambda T: T.Size([2, 3]) * 0,
    "size*-1": lambda T: T.Size([2, 3]) * -1,
    "size*True": lambda T: T.Size([2, 3]) * True,
    "size*np.int64": lambda T: T.Size([2, 3]) * np.int64(2),
    "size*tensor": lambda T: T.Size([2]) * T.tensor(2),
    "size*float": lambda T: T.Size([2, 3]) * 2.0,
    "float*size": lambda T: 2.0 * T.Size([2, 3]),
    "size+size": lambda T: T.Size([2, 3]) + T.Size([1]),
    "size+()": lambda T: [T.Size([2, 3]) + (), () + T.Size([2, 3])],
    "size+int": lambda T: T.Size([2, 3]) + 1,
    "size+array": lambda T: T.Size([2, 3]) + np.array([1]),
    "shape slice": lambda T: T.ones(2, 3, 4).shape[1:] * 2,
    "float item": lambda T: T.Size([2.5]),
    "str item": lambda T: T.Size(["a"]),
    "None item": lambda T: T.Size([2, None]),
    "np.float64 item": lambda T: T.Size([np.float64(2)]),
    "float tensor item": lambda T: T.Size([T.tensor(2.)]),
    "index items": lambda T: T.Size([T.tensor(3), T.tensor([4]), True, -1]),
    "not iterable": lambda T: T.Size(3),
    "generator": lambda T: T.Size(x for x in [1, 2]),
    "range": lambda T: T.Size(range(3)),
}


@pytest.mark.parametrize("case", sorted(SIZE_CASES))
def test_size(reftorch, case):
    same(reftorch, SIZE_CASES[case])


def test_size_of_numpy_ints_holds_python_ints():
    """torch keeps a numpy int item as it is; mindtorch makes it an int (MindSpore's shape arguments want ints)."""
    s = torch.Size([np.int64(2), np.int32(3)])
    assert s == (2, 3) and all(type(v) is int for v in s)


def test_typename_of_array_follows_torch_112():
    """torch 1.12's typename reads `obj.__module__`, None on a numpy array: 'ndarray' (2.x: 'numpy.ndarray')."""
    assert torch.typename(np.array(1)) == "ndarray"
    assert torch.typename(1) == "int"
