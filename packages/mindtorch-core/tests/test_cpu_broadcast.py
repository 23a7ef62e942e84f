"""The CPU broadcasting fast path of elementwise ops (mindtorch.torch._ops._expand), against real torch.

On CPU a large broadcast (output >= _expand.MIN_NUMEL elements) is computed by expanding the small operand(s) on
the host first. Shapes here are above that threshold ((64, 32, 20): 40960 elements) so the fast path is taken;
values, dtypes, shapes, gradients, in-place/out= semantics and errors must be exactly torch's.
"""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as mt
from mindtorch.torch._ops import _expand
from mindtorch.torch._ops._registry import TABLE

torch = pytest.importorskip("torch")

BIG = (64, 32, 20)
SMALL_SHAPES = [(32, 1), (20,), (1, 1, 1), (1,), (), (64, 1, 20)]
assert int(np.prod(BIG)) >= _expand.MIN_NUMEL


def _pair(shape, dtype=np.float32, seed=0, lo=-2.0, hi=2.0):
    rng = np.random.default_rng(seed + len(shape))
    x = rng.uniform(lo, hi, size=shape)
    if np.issubdtype(dtype, np.integer):
        x = np.round(x * 3)
    elif dtype == np.bool_:
        x = x > 0
    x = np.asarray(x, dtype=dtype)
    return mt.tensor(x), torch.tensor(x)


@pytest.fixture
def count_expands(monkeypatch):
    """The number of host expansions made (proves the fast path ran)."""
    calls = []
    orig = _expand.expand

    def counting(t, shape, grad=True):
        calls.append(tuple(shape))
        return orig(t, shape, grad)

    monkeypatch.setattr(_expand, "expand", counting)
    return calls


BINARY = ["add", "sub", "subtract", "rsub", "mul", "multiply", "div", "divide", "true_divide", "maximum", "minimum",
          "fmax", "fmin", "eq", "ne", "lt", "le", "gt", "ge", "greater", "less_equal", "not_equal"]


@pytest.mark.parametrize("small", SMALL_SHAPES)
@pytest.mark.parametrize("name", BINARY)
def test_binary_values_both_orders(name, small):
    a, ta = _pair(BIG)
    b, tb = _pair(small, seed=1, lo=0.5, hi=2.0)  # positive: a safe divisor
    assert_same(getattr(mt, name)(a, b), getattr(torch, name)(ta, tb), rtol=1e-5)
    assert_same(getattr(mt, name)(b, a), getattr(torch, name)(tb, ta), rtol=1e-5)
    if hasattr(ta, name):  # (torch has no Tensor.rsub)
        assert_same(getattr(a, name)(b), getattr(ta, name)(tb), rtol=1e-5)


def test_fast_path_taken_and_installed(count_expands):
    a, b = mt.randn(*BIG), mt.randn(32, 1)
    a + b
    mt.maximum(b, a)
    mt.where(a > 0, a, b)
    assert count_expands == [BIG, BIG, BIG]
    mt.randn(4, 4) + mt.randn(4)  # small: MindSpore's own broadcast
    a + mt.randn(1, 1, 1)  # one element of a's dtype: 0-d, no copy
    assert len(count_expands) == 3
    for name in ("add", "add_", "subtract", "__add__", "__iadd__", "__truediv__", "__eq__", "lt_", "where", "lerp_",
                 "addcmul"):
        entry = TABLE[name]
        assert entry.impls["CPU"].__wrapped__ is entry.impls["default"], name  # GPU/Ascend keep the default
    assert "CPU" not in TABLE["pow"].impls  # measured: no gain there


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "==", "!=", "<", "<=", ">", ">="])
def test_operators(op):
    a, ta = _pair(BIG)
    b, tb = _pair((20,), seed=3, lo=0.5)
    f = eval(f"lambda x, y: x {op} y")  # noqa: S307 - a fixed operator from the parametrization
    assert_same(f(a, b), f(ta, tb), rtol=1e-5)
    assert_same(f(b, a), f(tb, ta), rtol=1e-5)


@pytest.mark.parametrize("da, db", [
    (np.int64, np.float32), (np.float32, np.int32), (np.float16, np.float32), (np.float32, np.float16),
    (np.int32, np.int64), (np.uint8, np.int8), (np.bool_, np.bool_), (np.bool_, np.float32), (np.float64, np.int16),
])
@pytest.mark.parametrize("small", [(32, 1), (1, 1, 1), ()])
@pytest.mark.parametrize("name", ["add", "mul", "div", "eq", "lt", "maximum"])
def test_mixed_dtypes(name, small, da, db):
    a, ta = _pair(BIG, da)
    b, tb = _pair(small, db, seed=2, lo=0.5, hi=3.0)
    if name == "div" and np.issubdtype(db, np.integer) or db == np.bool_ and name == "div":
        b, tb = b + 1, tb + 1  # no integer division by zero
    for x, y, tx, ty in ((a, b, ta, tb), (b, a, tb, ta)):
        try:
            ref = getattr(torch, name)(tx, ty)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                getattr(mt, name)(x, y)
            continue
        assert_same(getattr(mt, name)(x, y), ref, rtol=2e-3 if np.float16 in (da, db) else 1e-5)


def test_complex_and_noncontiguous():
    a, ta = _pair(BIG)
    base, tbase = _pair((32, 40), seed=5)
    b, tb = base[:, ::2], tbase[:, ::2]  # (32, 20), strided
    assert not b.is_contiguous()
    assert_same(a + b, ta + tb)
    assert_same(a.transpose(1, 2) * b.t(), ta.transpose(1, 2) * tb.t())
    e, te = _pair((20,), seed=6)
    assert_same(a + e.expand(32, 20), ta + te.expand(32, 20))
    c = mt.complex(a, a * 2)
    tc = torch.complex(ta, ta * 2)
    d, td = mt.complex(e, e), torch.complex(te, te)
    assert_same(c * d, tc * td, rtol=1e-5)
    assert_same(c - d, tc - td)


def test_empty_and_zero_dim():
    a, ta = _pair((0, 32, 20))
    b, tb = _pair((20,))
    assert_same(a + b, ta + tb)
    x, tx = _pair(BIG)
    assert_same(x * mt.tensor(2.5), tx * torch.tensor(2.5))
    assert_same(mt.tensor(3) + x, torch.tensor(3) + tx)


@pytest.mark.parametrize("small", [(32, 1), (20,), (1, 1, 1)])
def test_ternary(small):
    a, ta = _pair(BIG)
    a2, ta2 = _pair(BIG, seed=9)
    s, ts = _pair(small, seed=4)
    assert_same(mt.where(a > 0, a, s), torch.where(ta > 0, ta, ts))
    assert_same(mt.where(s > 0, a, a2), torch.where(ts > 0, ta, ta2))
    assert_same(mt.where(a > 0, s, 1.5), torch.where(ta > 0, ts, 1.5))
    assert_same(mt.lerp(a, s, 0.3), torch.lerp(ta, ts, 0.3), rtol=1e-5)
    assert_same(mt.lerp(a, a2, s), torch.lerp(ta, ta2, ts), rtol=1e-5)
    assert_same(mt.addcmul(a, s, a2, value=0.5), torch.addcmul(ta, ts, ta2, value=0.5), rtol=1e-5)
    assert_same(mt.addcmul(s, a, a2), torch.addcmul(ts, ta, ta2), rtol=1e-5)
    ai, tai = _pair(BIG, np.int64)
    assert_same(mt.where(a > 0, ai, s), torch.where(ta > 0, tai, ts))  # int64 and float32: promoted


GRAD_CASES = {
    "add": lambda x, y: x + y, "sub": lambda x, y: y - x, "mul": lambda x, y: x * y, "div": lambda x, y: x / y,
    "rdiv": lambda x, y: y / x, "maximum": lambda x, y: torch_or_mt(x).maximum(x, y),
    "where": lambda x, y: torch_or_mt(x).where(x > 0.5, x, y),
    "lerp": lambda x, y: torch_or_mt(x).lerp(x, x * 2, y), "addcmul": lambda x, y: torch_or_mt(x).addcmul(x, y, x),
}


def torch_or_mt(t):
    return torch if isinstance(t, torch.Tensor) else mt


@pytest.mark.parametrize("which", ["both", "big", "small"])
@pytest.mark.parametrize("small", [(32, 1), (20,), (1, 1, 1)])
@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_gradients(name, small, which):
    f = GRAD_CASES[name]
    a, ta = _pair(BIG)
    b, tb = _pair(small, seed=7, lo=0.5, hi=2.0)
    w, tw = _pair(BIG, seed=8)
    for x in (a, ta) if which in ("both", "big") else ():
        x.requires_grad_()
    for x in (b, tb) if which in ("both", "small") else ():
        x.requires_grad_()
    (f(a, b) * w).sum().backward()
    (f(ta, tb) * tw).sum().backward()
    for m, r in ((a, ta), (b, tb)):
        if r.grad is None:
            assert m.grad is None
        else:
            assert_same(m.grad, r.grad, rtol=1e-4, atol=1e-4)


def test_double_backward():
    a, ta = _pair(BIG)
    b, tb = _pair((32, 1), seed=3)
    for x in (a, b, ta, tb):
        x.requires_grad_()
    outs = []
    for lib, x, y in ((mt, a, b), (torch, ta, tb)):
        z = (x * y * y).sum()
        gb, = lib.autograd.grad(z, y, create_graph=True)  # 2 * sum(x * y) over the broadcast axes
        (gb * gb).sum().backward()
        outs.append(gb)
    assert_same(outs[0].detach(), outs[1].detach(), rtol=1e-4, atol=1e-4)
    assert_same(a.grad, ta.grad, rtol=1e-4, atol=1e-4)
    assert_same(b.grad, tb.grad, rtol=1e-3, atol=1e-3)


def test_no_autograd_node_without_grad():
    a, b = mt.randn(*BIG), mt.randn(20)
    r = a * b
    assert not r.requires_grad and r.grad_fn is None
    a.requires_grad_()
    r = a * b
    assert r.requires_grad and r.grad_fn is not None
    r.sum().backward()
    assert b.grad is None and a.grad is not None
    c = mt.randn(32, 1, requires_grad=True)
    m = a > c  # a comparison: no gradient, no node kept
    assert m.dtype == mt.bool and not m.requires_grad and m.grad_fn is None


@pytest.mark.parametrize("small", [(32, 1), (20,), (1, 1, 1)])
def test_inplace(small):
    a, ta = _pair(BIG)
    b, tb = _pair(small, seed=5, lo=0.5)
    view, tview = a[1], ta[1]
    ra = a.add_(b)
    ta.add_(tb)
    assert ra is a
    assert_same(a, ta)
    assert_same(view, tview)  # the view sees the write
    a2 = a
    a2 += b
    ta += tb
    assert a2 is a
    assert_same(a, ta)
    a *= b
    ta *= tb
    a /= b
    ta /= tb
    a -= b
    ta -= tb
    assert_same(a, ta, rtol=1e-5)
    assert a.lt_(b) is a
    assert_same(a, ta.lt_(tb))
    with pytest.raises(RuntimeError):
        b.add_(a)  # the result cannot broadcast into the smaller self (torch raises too)
    with pytest.raises(RuntimeError):
        tb.add_(ta)


def test_inplace_autograd():
    a, ta = _pair(BIG)
    b, tb = _pair((32, 1), seed=5)
    for x in (a, b, ta, tb):
        x.requires_grad_()
    for x, y in ((a, b), (ta, tb)):
        h = x * 2
        h.mul_(y)
        h += y
        (h * h).sum().backward()
    assert_same(a.grad, ta.grad, rtol=1e-4, atol=1e-3)
    assert_same(b.grad, tb.grad, rtol=1e-4, atol=1e-2)


def test_out():
    a, ta = _pair(BIG)
    b, tb = _pair((20,), seed=2)
    out, tout = mt.empty(BIG), torch.empty(BIG)
    assert mt.add(a, b, alpha=2, out=out) is out
    torch.add(ta, tb, alpha=2, out=tout)
    assert_same(out, tout)
    mo, tmo = mt.empty(BIG, dtype=mt.bool), torch.empty(BIG, dtype=torch.bool)
    assert mt.gt(a, b, out=mo) is mo
    assert_same(mo, torch.gt(ta, tb, out=tmo))


def test_incompatible_shapes_raise():
    a, ta = _pair(BIG)
    b, tb = _pair((31, 1))
    for lib, x, y in ((mt, a, b), (torch, ta, tb)):
        for f in (lambda: x + y, lambda: lib.mul(x, y), lambda: lib.eq(x, y), lambda: lib.maximum(y, x),
                  lambda: lib.where(x > 0, x, y), lambda: lib.lerp(x, y, 0.5), lambda: x.add_(y)):
            with pytest.raises(RuntimeError):
                f()


def test_keyword_operands():
    a, ta = _pair(BIG)
    b, tb = _pair((20,), seed=2)
    assert_same(mt.add(input=a, other=b), torch.add(input=ta, other=tb))
    assert_same(mt.where(a > 0, input=a, other=b), torch.where(ta > 0, input=ta, other=tb))
