"""Pointwise ops, comparisons and Tensor operators against real PyTorch: values, dtypes (type promotion),
broadcasting, 0-d and empty tensors, int/bool/float16 inputs, error types, true in-place semantics."""
import operator

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

F32 = np.array([[0.3, -0.7, 1.5], [2.0, -2.5, 0.0]], np.float32)
POS = np.array([[0.3, 0.7, 0.5], [0.9, 0.1, 0.25]], np.float32)
I64 = np.array([[1, -2, 3], [0, 5, -4]], np.int64)
BOOL = np.array([[True, False, True], [False, False, True]])
F16 = F32.astype(np.float16)
U8 = np.array([[1, 2, 250], [0, 7, 9]], np.uint8)
ARRAYS = {"f32": F32, "pos": POS, "i64": I64, "bool": BOOL, "f16": F16, "u8": U8}


def _conv(lib, a):
    if isinstance(a, np.ndarray):
        return lib.from_numpy(a.copy())
    if isinstance(a, tuple) and len(a) == 2 and a[0] == "0d":  # a 0-d tensor as torch.tensor(v) makes it
        return lib.from_numpy(np.array(a[1], np.float32 if isinstance(a[1], float) else np.int64))
    return a


def check(reftorch, fn, *args, rtol=1.3e-6, atol=1e-5, check_dtype=True):
    """Run fn(lib, *args) on both libraries; same result or same error type."""
    try:
        ref = fn(reftorch, *[_conv(reftorch, a) for a in args])
    except Exception as e:  # noqa: BLE001 - the reference decides which error type is right
        with pytest.raises(type(e) if type(e) in (RuntimeError, TypeError, ValueError, IndexError) else Exception):
            fn(torch, *[_conv(torch, a) for a in args])
        return
    mine = fn(torch, *[_conv(torch, a) for a in args])
    assert_same(mine, ref, rtol=rtol, atol=atol, check_dtype=check_dtype)


def _tol(args):
    return dict(rtol=2e-3, atol=2e-3) if any(isinstance(a, np.ndarray) and a.dtype == np.float16 for a in args) \
        else dict(rtol=2e-5, atol=2e-5)


UNARY = ("abs absolute neg negative sign sgn sqrt rsqrt square exp exp2 expm1 log log2 log10 log1p sin cos tan asin "
         "acos atan arcsin arccos arctan sinh cosh tanh asinh acosh atanh arctanh sigmoid logit erf erfc erfinv "
         "reciprocal ceil floor round trunc fix frac sinc i0 lgamma digamma deg2rad rad2deg relu nan_to_num "
         "isnan isinf isfinite isposinf isneginf isreal logical_not bitwise_not angle conj real").split()


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("kind", ["f32", "pos", "i64", "bool", "f16"])
def test_unary(reftorch, name, kind):
    a = ARRAYS[kind]
    if name in ("lgamma", "digamma", "i0") and kind == "f16":
        pytest.skip("torch has no CPU float16 kernel for these either way")
    tol = _tol([a])
    check(reftorch, lambda T, x: getattr(T, name)(x), a, **tol)
    if name not in ("real",):  # Tensor.real is a property in torch
        check(reftorch, lambda T, x: getattr(x, name)(), a, **tol)


@pytest.mark.parametrize("name", ["exp", "sqrt", "abs", "sigmoid", "floor", "neg", "logical_not", "isnan"])
def test_unary_0d_and_empty(reftorch, name):
    check(reftorch, lambda T, x: getattr(T, name)(x), np.array(0.75, np.float32))
    check(reftorch, lambda T, x: getattr(T, name)(x), np.zeros((0, 3), np.float32))


BINARY = ("add sub mul div true_divide floor_divide remainder fmod pow atan2 arctan2 hypot logaddexp logaddexp2 "
          "xlogy maximum minimum fmax fmin copysign nextafter eq ne lt le gt ge greater less_equal not_equal "
          "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor bitwise_left_shift "
          "bitwise_right_shift gcd lcm float_power").split()
PAIRS = [("f32", "f32"), ("i64", "i64"), ("i64", "f32"), ("bool", "bool"), ("f16", "f16"), ("u8", "i64"),
         ("f32", 2.5), ("i64", 2), ("i64", 1.5), ("bool", True), ("f16", ("0d", 2.0)), ("i64", ("0d", 2.5)),
         ("f16", "f32"), ("u8", "u8")]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("pair", PAIRS, ids=str)
def test_binary(reftorch, name, pair):
    a = ARRAYS[pair[0]]
    b = ARRAYS[pair[1]] if isinstance(pair[1], str) else pair[1]
    if name in ("pow", "float_power") and pair[0] in ("i64", "u8"):
        b = np.abs(b) if isinstance(b, np.ndarray) else b  # negative integer powers: a separate test
    if name in ("lcm", "gcd", "bitwise_left_shift", "bitwise_right_shift") and isinstance(b, np.ndarray) \
            and b.dtype == np.int64:
        b = np.abs(b)
    if name in ("nextafter",) and pair[0] == "f16":
        pytest.skip("torch has no CPU float16 nextafter")
    check(reftorch, lambda T, x, y: _op112(T, reftorch, getattr(T, name))(x, y), a, b, **_tol([a, b]))


def _op112(T, reftorch, fn):
    """fn, or for torch 2.13 (the reference) the 1.12 meaning of floor division: torch 1.12's floor_divide and `//`
    truncate (1.13 changed them to floor), which 2.13 computes as div(rounding_mode='trunc')."""
    if T is reftorch and fn in (reftorch.floor_divide, operator.floordiv):
        return lambda x, y: reftorch.div(x if isinstance(x, reftorch.Tensor) else reftorch.tensor(x),
                                         y, rounding_mode="trunc")
    return fn


def test_broadcasting_and_shape_errors(reftorch):
    a, b = np.ones((2, 1, 3), np.float32), np.arange(4, dtype=np.float32).reshape(4, 1)
    for name in ("add", "mul", "maximum", "eq", "atan2", "where_like"):
        if name == "where_like":
            check(reftorch, lambda T, x, y: T.where(x > 0, x, y), a, b)
        else:
            check(reftorch, lambda T, x, y: getattr(T, name)(x, y), a, b)
    check(reftorch, lambda T, x, y: T.add(x, y), np.ones(3, np.float32), np.ones(4, np.float32))
    check(reftorch, lambda T, x, y: x * y, np.ones(3, np.float32), np.ones(4, np.float32))


def test_div_rounding_modes_and_alpha(reftorch):
    a = np.array([-7, 7, -7, 7, 5], np.int64)
    b = np.array([2, -2, -2, 2, 3], np.int64)
    for mode in (None, "trunc", "floor"):
        check(reftorch, lambda T, x, y: T.div(x, y, rounding_mode=mode), a, b)
        check(reftorch, lambda T, x, y: T.div(x, y, rounding_mode=mode), a.astype(np.float32), b)
        check(reftorch, lambda T, x: x.div(2, rounding_mode=mode), a)
    check(reftorch, lambda T, x, y: T.div(x, y, rounding_mode="bad"), a, b)
    check(reftorch, lambda T, x, y: T.add(x, y, alpha=3), a, b)
    check(reftorch, lambda T, x, y: T.sub(x, y, alpha=2), F32, F32)
    check(reftorch, lambda T, x: T.sub(x, 1.5, alpha=2), F32)
    check(reftorch, lambda T, x: T.rsub(x, 1), F32)
    check(reftorch, lambda T, x: T.pow(x, -1), I64)
    check(reftorch, lambda T, x: T.pow(2, x), np.abs(I64))
    check(reftorch, lambda T, x: T.pow(x, 0.5), POS)


def test_reflected_truediv_is_reciprocal_times_scalar(reftorch):
    # torch computes `s / t` as `t.reciprocal() * s`: 56 / 30.625 rounds to 1.8285713 in float32, not 1.8285714
    # (a true division); torchvision's Keypoint R-CNN floors such products into heatmap indices
    check(reftorch, lambda T, x: 56 / x, np.array([30.625, 3.0, 7.0, 0.0], np.float32))
    check(reftorch, lambda T, x: 2 / x, np.array([4, 3, -7], np.int64))
    check(reftorch, lambda T, x: 1.5 / x, np.array([2.0, 3.0], np.float64))


def test_round_clamp_family(reftorch):
    x = np.array([1.2345, -2.5, 0.5, 1.5, 123.456], np.float32)
    for dec in (0, 1, 2, -1):
        check(reftorch, lambda T, t: T.round(t, decimals=dec), x, rtol=1e-5)
    check(reftorch, lambda T, t: T.clamp(t, -1, 1), x)
    check(reftorch, lambda T, t: T.clamp(t, min=0.5), x)
    check(reftorch, lambda T, t: T.clamp(t, max=0), x)
    check(reftorch, lambda T, t: T.clip(t, -1.0, 1.0), x)
    check(reftorch, lambda T, t: T.clamp(t), x)
    check(reftorch, lambda T, t: T.clamp(t, 0.5, 2.5), I64)
    check(reftorch, lambda T, t: T.clamp(t, 0, 2), I64)
    check(reftorch, lambda T, t, lo, hi: T.clamp(t, lo, hi), x, np.full(5, -1, np.float32), np.ones(5, np.float32))
    check(reftorch, lambda T, t: T.clamp_min(t, 0), x)
    check(reftorch, lambda T, t: T.clamp_max(t, 0), x)
    check(reftorch, lambda T, t: t.clamp_(0, 1), x)


def test_ternary_and_misc(reftorch):
    a, b, c = F32, POS, POS + 1
    check(reftorch, lambda T, x, y: T.lerp(x, y, 0.25), a, b)
    check(reftorch, lambda T, x, y, w: T.lerp(x, y, w), a, b, c)
    check(reftorch, lambda T, x, y, z: T.addcmul(x, y, z, value=0.5), a, b, c)
    check(reftorch, lambda T, x, y, z: T.addcdiv(x, y, z, value=2), a, b, c)
    check(reftorch, lambda T, x, y, z: T.addcdiv(x, y, z), I64, I64, I64)
    check(reftorch, lambda T, x: T.nan_to_num(x), np.array([np.nan, np.inf, -np.inf, 1.0], np.float32))
    check(reftorch, lambda T, x: T.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-3.0),
          np.array([np.nan, np.inf, -np.inf, 1.0], np.float32))
    check(reftorch, lambda T, x, y: T.heaviside(x, y), F32, np.array([0.5], np.float32))
    check(reftorch, lambda T, x: T.polygamma(1, x), POS, rtol=1e-4)
    check(reftorch, lambda T, x: x.polygamma(2), POS, rtol=1e-4)
    check(reftorch, lambda T, x: T.mvlgamma(x, 2), POS + 1, rtol=1e-5)
    # torch 1.12 refuses arguments <= (p-1)/2 (2.x returns nan): we follow 1.12
    with pytest.raises(RuntimeError, match="greater than"):
        torch.mvlgamma(torch.from_numpy(POS.copy()), 3)
    check(reftorch, lambda T, x: T.logit(x, eps=0.2), POS)
    check(reftorch, lambda T, x, y: T.where(x > 0, x, y), F32, POS)
    check(reftorch, lambda T, x: T.where(x > 0, x, 0.0), F32)
    check(reftorch, lambda T, x: T.where(x > 0, 1.0, 0.0), F32)
    check(reftorch, lambda T, x: T.where(x > 0), F32)
    check(reftorch, lambda T, x, y: T.where(x > 0, x, y), I64, F32)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax(reftorch, name):
    x = np.random.RandomState(0).randn(2, 3, 4).astype(np.float32)
    for dim in (0, 1, -1):
        check(reftorch, lambda T, t: getattr(T, name)(t, dim), x)
        check(reftorch, lambda T, t: getattr(t, name)(dim), x)
    check(reftorch, lambda T, t: getattr(T, name)(t, 1, dtype=T.float64), x)
    # nn.functional reuses the same table entry (registered with namespaces=("nn.functional",))
    from mindtorch.torch._ops._registry import namespace

    mine = namespace("nn.functional")[name](torch.from_numpy(x.copy()), dim=-1)
    assert_same(mine, getattr(reftorch.nn.functional, name)(reftorch.from_numpy(x.copy()), dim=-1))


def test_equal_isclose_allclose(reftorch):
    a = np.array([1.0, np.nan, np.inf, 2.0], np.float32)
    b = np.array([1.0 + 1e-7, np.nan, np.inf, 2.1], np.float32)
    check(reftorch, lambda T, x, y: T.isclose(x, y), a, b)
    check(reftorch, lambda T, x, y: T.isclose(x, y, equal_nan=True), a, b)
    check(reftorch, lambda T, x, y: T.isclose(x, y, rtol=0.1), a, b)
    check(reftorch, lambda T, x, y: T.allclose(x, y), a[[0, 2]], b[[0, 2]])
    check(reftorch, lambda T, x, y: T.allclose(x, y), a, b)
    check(reftorch, lambda T, x, y: T.equal(x, y), F32, F32)
    check(reftorch, lambda T, x, y: T.equal(x, y), F32, POS)
    check(reftorch, lambda T, x, y: T.equal(x, y), F32, F32[:1])
    assert type(torch.equal(torch.ones(2), torch.ones(2))) is bool


OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
             operator.pow, operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge,
             operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("pair", [("f32", "pos"), ("i64", "u8"), ("bool", "bool"), ("i64", 2), (3, "i64"),
                                  (1.5, "f32"), ("f16", ("0d", 3.0))], ids=str)
def test_operators(reftorch, op, pair):
    a = ARRAYS[pair[0]] if isinstance(pair[0], str) else pair[0]
    b = ARRAYS[pair[1]] if isinstance(pair[1], str) else pair[1]
    if op in (operator.lshift, operator.rshift, operator.pow):  # keep results in range: no overflow semantics
        a = np.abs(a) % 4 if isinstance(a, np.ndarray) and a.dtype in (np.int64, np.uint8) else a
        b = np.abs(b) % 4 if isinstance(b, np.ndarray) and b.dtype in (np.int64, np.uint8) else b
    check(reftorch, lambda T, x, y: _op112(T, reftorch, op)(x, y), a, b, **_tol([a, b]))


@pytest.mark.parametrize("op", [operator.neg, operator.pos, operator.abs, operator.invert], ids=lambda o: o.__name__)
@pytest.mark.parametrize("kind", ["f32", "i64", "bool"])
def test_unary_operators(reftorch, op, kind):
    check(reftorch, lambda T, x: op(x), ARRAYS[kind])


def test_matmul_operator(reftorch):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    check(reftorch, lambda T, x, y: x @ y, a, b)
    check(reftorch, lambda T, x, y: x @ y, a, b[:2])
    check(reftorch, lambda T, x, y: x.__rmatmul__(y), b, a)


IOPS = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv, operator.imod,
        operator.ipow, operator.iand, operator.ior, operator.ixor, operator.ilshift, operator.irshift]


@pytest.mark.parametrize("op", IOPS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("kind", ["f32", "i64"])
def test_inplace_operators_are_in_place(reftorch, op, kind):
    base = np.abs(ARRAYS[kind]) + 1
    other = np.full(3, 2, base.dtype)

    def run(T):
        x = T.from_numpy(base.copy())
        v = x.reshape(-1)  # a view of x
        keep = x
        x = op(x, T.from_numpy(other.copy()))
        assert x is keep  # same object: `x op= y` did not rebind x
        return x, v

    try:
        ref = run(reftorch)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            run(torch)
        return
    mine = run(torch)
    assert_same(mine[0], ref[0])
    assert_same(mine[1], ref[1])  # the view sees the in-place write


def test_inplace_methods_write_through_views(reftorch):
    for name, args in (("add_", (1.0,)), ("mul_", (2,)), ("sqrt_", ()), ("clamp_", (0.5, 1.0)), ("neg_", ()),
                       ("div_", (4,)), ("pow_", (2,)), ("exp_", ()), ("sigmoid_", ()), ("relu_", ()),
                       ("floor_divide_", (2,)), ("lerp_", (POS[0], 0.5))):
        def run(T, name=name, args=args):
            x = T.from_numpy(POS.copy())
            row = x[0]
            r = getattr(row, name)(*[T.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in args])
            assert r is row
            return x
        assert_same(run(torch), run(reftorch), rtol=1e-5)
    # an int tensor cannot hold a float result in place: torch's RuntimeError
    check(reftorch, lambda T, x: x.sqrt_(), I64)
    check(reftorch, lambda T, x: x.div_(2), I64)
    check(reftorch, lambda T, x: x.add_(1.5), I64)


def test_operator_protocol_details(reftorch):
    t = torch.ones(3)
    assert isinstance(t == t, torch.Tensor)
    assert (t == None) is False  # noqa: E711 - torch compares with None by identity
    assert (t != None) is True  # noqa: E711
    assert {t: 1}[t] == 1  # hashing stays by identity
    assert hash(t) == id(t)
    r = reftorch.ones(3)
    assert (r == None) is False  # noqa: E711
    out = torch.empty(2, 3) if hasattr(torch, "empty") else torch.zeros(2, 3)
    res = torch.add(torch.from_numpy(F32.copy()), 1.0, out=out)
    assert res is out
    assert_same(out, reftorch.add(reftorch.from_numpy(F32.copy()), 1.0))


def test_type_promotion_table(reftorch):
    cases = [(np.array([1, 2], np.int32), 1.5), (np.array([1, 2], np.uint8), -1), (np.array([1, 2], np.int8),
             np.array([1, 2], np.uint8)), (np.array([1, 2], np.float16), ("0d", 1.0)),
             (np.array([True]), 2), (np.array([True]), 2.5), (np.array([1, 2], np.int32), np.array([1], np.int64)),
             (np.array([1.0], np.float16), np.array([1.0], np.float64)), (("0d", 2), np.array([1.0], np.float16))]
    for a, b in cases:
        for name in ("add", "mul", "div", "maximum", "eq"):
            check(reftorch, lambda T, x, y: getattr(T, name)(x, y), a, b, **_tol([a, b]))


def test_complex(reftorch):
    z = np.array([1 + 2j, -3 + 0.5j, 0j], np.complex64)
    # conj(x) * 1: torch's conj is a lazy view that numpy() refuses; * 1 resolves it
    for fn in (lambda T, x: T.real(x), lambda T, x: T.imag(x), lambda T, x: T.angle(x), lambda T, x: T.conj(x) * 1,
               lambda T, x: T.abs(x), lambda T, x: x + x, lambda T, x: x * x, lambda T, x: T.exp(x),
               lambda T, x: x == x, lambda T, x: T.isclose(x, x), lambda T, x: T.isfinite(x), lambda T, x: T.sgn(x),
               lambda T, x: T.sum(x), lambda T, x: T.isreal(x)):
        check(reftorch, fn, z, rtol=1e-6)
    assert str(torch.from_numpy(z.copy())) == str(reftorch.from_numpy(z.copy()))


# ------------------------------------------------------------ accuracy of exp / log / log1p / expm1 / tanh (CPU)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["exp", "log", "log1p", "expm1", "tanh"])
def test_exp_log_tanh_family_accuracy_and_gradients(reftorch, name, dtype):
    # MindSpore's CPU kernels: exp 2e-5 off relative, tanh 1e-4 absolute near |x| ~ 5 (and above 1), log 4e-6
    # absolute near 1, log1p/expm1 as log(1+x)/exp(x)-1 (float32 log1p(1e-10) == 0); mindtorch computes them
    # with numpy on CPU: a few ulp from torch, values and gradients (MindSpore's autograd node reads the output)
    grid = np.concatenate([np.linspace(-0.99, 12, 4001), [1e-10, -3e-9, 1e-7, -2e-6, 3e-4, -1e-3, 0.49, 0.5, 0.51,
                                                          0.55, -0.55, 30.0, -30.0, 80.0, -80.0]])
    if name in ("tanh", "exp", "expm1"):
        grid = np.concatenate([grid, -grid])
    if name == "log":
        grid = np.abs(grid) + 1e-30
    x, rx = torch.tensor(grid.astype(dtype), requires_grad=True), reftorch.tensor(grid.astype(dtype),
                                                                                 requires_grad=True)
    y, ry = getattr(torch, name)(x), getattr(reftorch, name)(rx)
    tol = {"float32": 4e-7, "float64": 1e-14}[dtype]
    assert_same(y, ry, rtol=tol, atol=1e-30, check_dtype=True)
    y.sum().backward()
    ry.sum().backward()
    # gradients near tanh's saturation are 1 - y**2 with y within an ulp of 1: torch's own float32 result there
    # is quantised to multiples of eps, so they are compared on the scale of their maximum (1), not relatively
    assert_same(x.grad, rx.grad, rtol=50 * tol, atol=4 * float(np.finfo(dtype).eps))
    if name == "tanh":
        assert float(y.abs().max()) <= 1.0 and float(x.grad.min()) >= 0.0
    with torch.no_grad():  # the no-autograd path (numpy alone) gives the same values
        assert_same(getattr(torch, name)(torch.tensor(grid.astype(dtype))), ry, rtol=tol, atol=1e-30)
    special = [0.0, -0.0, float("inf"), float("-inf"), float("nan")] + ([-1.0] if name == "log1p" else [])
    special += [-1.0] if name == "log" else []
    assert_same(getattr(torch, name)(torch.tensor(special)), getattr(reftorch, name)(reftorch.tensor(special)))


@pytest.mark.parametrize("grad", [False, True])
def test_relu_keeps_nan_like_torch(reftorch, grad):
    """MindSpore's CPU ReLU turns NaN into 0; torch keeps it (a diverged batch must show a nan loss)."""
    x = np.array([-1.0, 0.0, 2.0, np.nan, -np.inf, np.inf, -0.5], np.float32)
    w = np.arange(7, dtype=np.float32)
    res = []
    for t in (torch, reftorch):
        xx = t.tensor(x, requires_grad=grad)
        y = t.relu(xx)
        f = t.nn.functional.relu(t.tensor(x).view(7, 1).t())  # a view
        if grad:
            (y * t.tensor(w)).nansum().backward()
        res.append((y, f, xx.grad if grad else None))
    (y, f, g), (ry, rf, rg) = res
    assert_same(y, ry)
    assert_same(f, rf)
    if grad:
        assert_same(g, rg)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_gradient_at_nan_like_torch(reftorch, dtype):
    """torch's relu backward passes the gradient where the output is not <= 0: at NaN too, not at 0 (1.12's
    threshold_backward as 2.x's); MindSpore's ReluGrad masks by output > 0 (0 at NaN)."""
    x = np.array([-1.0, 0.0, 2.0, np.nan, -np.inf, np.inf, -0.0], dtype)
    grads = []
    for t in (torch, reftorch):
        xx = t.tensor(x, requires_grad=True)
        y = t.relu(xx * 2)  # a non-leaf input, as in a network
        (y * t.arange(7, dtype=y.dtype)).sum().backward()
        grads.append((y, xx.grad))
    assert_same(grads[0][0], grads[1][0])
    assert_same(grads[0][1], grads[1][1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_erfinv_accuracy_edges_and_gradient(reftorch, dtype):
    # MindSpore's CPU erfinv is ~2e-2 off relative near |x| = 1; mindtorch's (Giles' approximation, plus Newton
    # steps for float64) is within a few ulp of torch's
    x = np.concatenate([np.linspace(-0.99999, 0.99999, 4001), [1.0, -1.0, 0.0, -0.0, 1.5, np.nan, 1e-8, -0.9999999]])
    got, ref = torch.erfinv(torch.tensor(x.astype(dtype))), reftorch.erfinv(reftorch.tensor(x.astype(dtype)))
    tol = {"float32": 1.3e-6, "float64": 1e-10}[dtype]
    assert_same(got, ref, rtol=tol, atol=1e-30)
    xs, rxs = (m.tensor(np.linspace(-0.99, 0.99, 11).astype(dtype), requires_grad=True) for m in (torch, reftorch))
    torch.erfinv(xs).sum().backward()
    reftorch.erfinv(rxs).sum().backward()
    assert_same(xs.grad, rxs.grad, rtol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_digamma_accuracy_poles_and_gradient(reftorch, dtype):
    # MindSpore's CPU digamma is off by ~1e-5 relative (float64 too); torch's float64 values are the truth here
    x = np.concatenate([np.linspace(-5.5, 30, 2001), [1e-8, -1e-8, 0.5, 1.0, 2.0, 1e5, -3.7, 123.456, -0.5]])
    got = torch.digamma(torch.tensor(x.astype(dtype)))
    truth = reftorch.digamma(reftorch.tensor(x.astype(dtype)).double())
    tol = {"float32": 2e-7, "float64": 4e-15}[dtype]
    assert str(got.dtype) == f"torch.{dtype}"
    assert_same(got.double(), truth, rtol=tol, atol=tol)
    for f in (torch.special.psi, torch.special.digamma, lambda v: torch.polygamma(0, v)):
        assert_same(f(torch.tensor(x.astype(dtype))), got)
    assert_same(torch.digamma(torch.tensor([0.0, -1.0, -2.0, float("inf")])),
                reftorch.digamma(reftorch.tensor([0.0, -1.0, -2.0, float("inf")])))
    xs, rxs = (m.tensor([0.3, 2.5, -1.5, 7.0, 15.0], dtype=m.float64, requires_grad=True) for m in (torch, reftorch))
    torch.digamma(xs).sum().backward()
    reftorch.digamma(rxs).sum().backward()
    assert_same(xs.grad, rxs.grad, rtol=1e-8)


@pytest.mark.parametrize("name", ["softplus", "logsigmoid", "elu", "celu", "selu", "mish"])
def test_activations_keep_relative_accuracy_in_their_tails(reftorch, name):
    # built on log1p/expm1: with MindSpore's naive kernels softplus(-20) was 0 (torch: 2.06e-9) and elu(-1e-4)
    # lost 3 digits
    x = np.concatenate([-np.geomspace(1e-6, 30, 60), np.geomspace(1e-6, 30, 60)]).astype(np.float32)
    got = getattr(torch.nn.functional, name)(torch.tensor(x))
    ref = getattr(reftorch.nn.functional, name)(reftorch.tensor(x))
    assert_same(got, ref, rtol=1e-5, atol=1e-30)


def test_bce_with_logits_and_soft_margin_tails(reftorch):
    x = np.array([-30.0, -17.0, -5.0, 0.1, 5.0, 17.0, 30.0], np.float32)
    y = np.array([1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0], np.float32)
    for fn in ("binary_cross_entropy_with_logits", "soft_margin_loss"):
        tgt = y if fn.startswith("binary") else 2 * y - 1
        got = getattr(torch.nn.functional, fn)(torch.tensor(x), torch.tensor(tgt), reduction="none")
        ref = getattr(reftorch.nn.functional, fn)(reftorch.tensor(x), reftorch.tensor(tgt), reduction="none")
        assert_same(got, ref, rtol=1e-5, atol=1e-30)
