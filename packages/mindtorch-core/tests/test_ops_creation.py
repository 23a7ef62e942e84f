"""Creation ops against real PyTorch: values, dtypes, shapes, default-dtype handling, errors."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


def both(reftorch, name, *args, **kw):
    return getattr(torch, name)(*args, **kw), getattr(reftorch, name)(*args, **kw)


@pytest.mark.parametrize("data", [
    1.5, 3, True, [1, 2, 3], [1.0, 2], [[1, 2], [3, 4]], [True, False], [1, 2.5, True], [], 2 + 1j,
    [[1.0], [2.0]],
])
def test_tensor_dtype_inference(reftorch, data):
    assert_same(*both(reftorch, "tensor", data))


def test_tensor_from_numpy_and_tensors(reftorch):
    for arr in (np.arange(6, dtype=np.int32).reshape(2, 3), np.ones(3, np.float64), np.array([True, False])):
        assert_same(torch.tensor(arr), reftorch.tensor(arr))
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    for T, x, y in ((torch, a, b), (reftorch, reftorch.tensor([1.0, 2.0]), reftorch.tensor([3.0, 4.0]))):
        with pytest.raises(ValueError, match="only one element tensors can be converted to Python scalars"):
            T.tensor([x, y])  # a tensor inside a sequence is one scalar (1.12 as 2.13)
    assert_same(torch.tensor([a[0], b[1]]), reftorch.tensor([1.0, 4.0]))
    t = torch.tensor([1, 2], dtype=torch.float64, requires_grad=True)
    assert t.requires_grad and t.dtype == torch.float64
    c = torch.tensor(a)  # a copy
    c[0] = 10.0
    assert a[0].item() == 1.0


def test_as_tensor_from_numpy_share_memory():
    arr = np.zeros(3, np.float32)
    for t in (torch.as_tensor(arr), torch.from_numpy(arr), torch.asarray(arr)):
        arr[1] = 7.0
        assert t[1].item() == 7.0
        arr[1] = 0.0
    t = torch.ones(2)
    assert torch.as_tensor(t) is t
    assert torch.as_tensor(arr, dtype=torch.float64).dtype == torch.float64


VIEWS = {"reshape": lambda x: x.reshape(2, 3, 4), "transpose": lambda x: x.reshape(2, 3, 4).transpose(0, 2),
         "slice": lambda x: x.reshape(4, 6)[1:, ::2], "select": lambda x: x.reshape(4, 6)[:, 1], "whole": lambda x: x}


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_numpy_shares_memory_with_views_too(reftorch, view):
    """torch's `Tensor.numpy()` shares memory with any CPU tensor, a view included: writes go both ways."""
    results = []
    for T in (torch, reftorch):
        base = T.arange(24.0)
        t = VIEWS[view](base)
        arr = t.numpy()
        arr[(0,) * arr.ndim] = -5.0  # write through the array: the tensor and its base see it
        t.mul_(2)  # write through the tensor: the array sees it
        results.append((arr.copy(), t.numpy().copy(), base.numpy().copy(), arr.shape, arr.dtype))
    for mine, ref in zip(*results):
        np.testing.assert_array_equal(mine, ref)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
@pytest.mark.parametrize("size", [(2, 3), ((2, 3),), ([2, 3],), (0,), ((),)])
def test_filled(reftorch, name, size):
    mine, ref = both(reftorch, name, *size)
    if name == "empty":
        assert tuple(mine.shape) == tuple(ref.shape) and str(mine.dtype).lower().endswith("float32")
    else:
        assert_same(mine, ref)


def test_filled_without_size_is_type_error(reftorch):
    for name in ("zeros", "ones", "empty"):
        with pytest.raises(TypeError):
            getattr(reftorch, name)()
        with pytest.raises(TypeError):
            getattr(torch, name)()


def test_zeros_with_size_and_dtype(reftorch):
    assert_same(torch.zeros(torch.Size([2, 1]), dtype=torch.int32), reftorch.zeros(reftorch.Size([2, 1]),
                                                                                 dtype=reftorch.int32))


# torch.full's dtype inference: torch 1.12 already infers int64 from an int fill and bool from a bool fill
# (the 1.5-1.6 deprecation period ended in 1.7); 2.13 behaves the same, so real torch is the reference.
@pytest.mark.parametrize("value", [1, 2.5, True, -3])
def test_full_dtype(reftorch, value):
    assert_same(*both(reftorch, "full", (2, 2), value))
    assert_same(torch.full((2,), value, dtype=torch.float64), reftorch.full((2,), value, dtype=reftorch.float64))


def test_like_and_new(reftorch):
    x, rx = torch.tensor([[1, 2]], dtype=torch.int32), reftorch.tensor([[1, 2]], dtype=reftorch.int32)
    for n in ("zeros_like", "ones_like"):
        assert_same(getattr(torch, n)(x), getattr(reftorch, n)(rx))
    assert_same(torch.full_like(x, 7), reftorch.full_like(rx, 7))
    assert_same(torch.empty_like(x).shape, rx.shape)
    assert_same(x.new_zeros(2, 3), rx.new_zeros(2, 3))
    assert_same(x.new_ones((2,)), rx.new_ones((2,)))
    assert_same(x.new_full((2,), 5), rx.new_full((2,), 5))
    assert_same(x.new_tensor([1.7, 2.2]), rx.new_tensor([1.7, 2.2]))  # self's dtype, not inferred
    assert_same(x.new_empty(3).shape, rx.new_empty(3).shape)


@pytest.mark.parametrize("args", [(5,), (1, 4), (0, 1, 0.1), (1, 2.5, 0.5), (10, 0, -3), (0.0, 1.0, 0.3),
                                  (-1, 1, 0.25), (5, 5)])
def test_arange(reftorch, args):
    assert_same(*both(reftorch, "arange", *args))


def test_arange_dtype_and_errors(reftorch):
    assert_same(*both(reftorch, "arange", 0, 5, dtype=reftorch.float64 if False else None))
    assert_same(torch.arange(5, dtype=torch.float32), reftorch.arange(5, dtype=reftorch.float32))
    with pytest.raises(RuntimeError):
        torch.arange(0, 5, 0)
    with pytest.raises(RuntimeError):
        reftorch.arange(0, 5, -1)
    with pytest.raises(RuntimeError):
        torch.arange(0, 5, -1)


def test_range_linspace_logspace_eye(reftorch):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(*both(reftorch, "range", 1, 4))
        assert_same(*both(reftorch, "range", 0, 1, 0.25))
    for args in ((0, 1, 5), (-2, 3, 7), (1, 1, 1), (0, 10, 0), (3, -3, 4)):
        assert_same(*both(reftorch, "linspace", *args))
    assert_same(torch.linspace(0, 10, 4, dtype=torch.int64), reftorch.linspace(0, 10, 4, dtype=reftorch.int64))
    assert_same(*both(reftorch, "logspace", 0, 2, 3))
    assert_same(*both(reftorch, "logspace", 0, 3, 4, base=2))
    assert_same(*both(reftorch, "eye", 3))
    assert_same(*both(reftorch, "eye", 2, 4))
    assert_same(torch.eye(2, dtype=torch.bool), reftorch.eye(2, dtype=reftorch.bool))


def test_empty_strided_tri_indices(reftorch):
    m, r = torch.empty_strided((2, 3), (3, 1)), reftorch.empty_strided((2, 3), (3, 1))
    assert tuple(m.shape) == tuple(r.shape)
    for args in ((3, 3), (4, 3, 1), (3, 4, -1)):
        assert_same(*both(reftorch, "tril_indices", *args))
        assert_same(*both(reftorch, "triu_indices", *args))


def test_complex_polar(reftorch):
    a, b = np.array([1.0, 2.0], np.float32), np.array([0.5, -1.0], np.float32)
    assert_same(torch.complex(torch.tensor(a), torch.tensor(b)), reftorch.complex(reftorch.tensor(a),
                                                                                  reftorch.tensor(b)))
    assert_same(torch.polar(torch.tensor(a), torch.tensor(b)), reftorch.polar(reftorch.tensor(a),
                                                                              reftorch.tensor(b)))
    with pytest.raises(RuntimeError):
        torch.complex(torch.tensor([1]), torch.tensor([1]))


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "bartlett_window", "blackman_window",
                                  "kaiser_window"])
@pytest.mark.parametrize("n,periodic", [(0, True), (1, True), (8, True), (7, False)])
def test_windows(reftorch, name, n, periodic):
    assert_same(*both(reftorch, name, n, periodic), rtol=1e-5, atol=1e-6)


DEFAULT_DTYPE_FNS = {
    "arange": lambda t: t.arange(0.0, 3.0), "bartlett_window": lambda t: t.bartlett_window(4),
    "hamming_window": lambda t: t.hamming_window(4), "hann_window": lambda t: t.hann_window(4),
    "kaiser_window": lambda t: t.kaiser_window(4), "empty": lambda t: t.empty(2),
    "empty_strided": lambda t: t.empty_strided((2,), (1,)), "eye": lambda t: t.eye(2),
    "full": lambda t: t.full((2,), 1.5), "linspace": lambda t: t.linspace(0, 1, 3),
    "logspace": lambda t: t.logspace(0, 1, 3), "ones": lambda t: t.ones(2), "rand": lambda t: t.rand(2),
    "randn": lambda t: t.randn(2), "range": lambda t: t.range(0, 2), "zeros": lambda t: t.zeros(2),
    "tensor": lambda t: t.tensor([1.5]),
    # not affected: ints stay int64
    "arange_int": lambda t: t.arange(3), "full_int": lambda t: t.full((2,), 1),
}


@pytest.mark.parametrize("name", sorted(DEFAULT_DTYPE_FNS))
@pytest.mark.parametrize("how", ["dtype", "tensor_type"])
def test_default_dtype_affects_exactly(reftorch, name, how):
    import warnings

    fn = DEFAULT_DTYPE_FNS[name]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if how == "dtype":
                torch.set_default_dtype(torch.float64)
                reftorch.set_default_dtype(reftorch.float64)
            else:
                torch.set_default_tensor_type("torch.DoubleTensor")
                reftorch.set_default_tensor_type("torch.DoubleTensor")
            mine, ref = fn(torch), fn(reftorch)
    finally:
        torch.set_default_dtype(torch.float32)
        reftorch.set_default_dtype(reftorch.float32)
    from _compare import dtype_name

    assert dtype_name(mine.dtype) == dtype_name(ref.dtype)
    assert tuple(mine.shape) == tuple(ref.shape)


def test_requires_grad_and_device_kwargs():
    t = torch.zeros(2, requires_grad=True)
    assert t.requires_grad
    with pytest.raises(RuntimeError):
        torch.zeros(2, dtype=torch.int64, requires_grad=True)
    assert torch.ones(2, device="cpu").device.type == "cpu"
    assert torch.ones(2, device="cuda").device.type == "cuda"  # recorded, data stays (DESIGN.md §2)


# ------------------------------------------------------------------------------------------------ random
# Streams are not bit-identical to torch's (documented); tested: reproducibility, dtypes/shapes as torch,
# distribution moments and ranges.
def test_manual_seed_reproducible_and_state_roundtrip():
    torch.manual_seed(123)
    a = torch.rand(5)
    torch.manual_seed(123)
    assert np.array_equal(a.numpy(), torch.rand(5).numpy())
    st = torch.get_rng_state()
    b, c = torch.randn(4), torch.randint(0, 10, (3,))
    torch.set_rng_state(st)
    assert np.array_equal(b.numpy(), torch.randn(4).numpy())
    assert np.array_equal(c.numpy(), torch.randint(0, 10, (3,)).numpy())
    assert torch.initial_seed() == 123


def test_generator_objects_independent():
    g1, g2 = torch.Generator().manual_seed(7), torch.Generator()
    g2.manual_seed(7)
    assert np.array_equal(torch.rand(3, generator=g1).numpy(), torch.rand(3, generator=g2).numpy())
    st = g1.get_state()
    x = torch.randperm(6, generator=g1)
    g1.set_state(st)
    assert np.array_equal(x.numpy(), torch.randperm(6, generator=g1).numpy())
    assert g1.initial_seed() == 7
    s = g2.seed()
    assert g2.initial_seed() == s


def test_random_dtypes_shapes(reftorch):
    from _compare import dtype_name

    cases = [
        (lambda t: t.rand(2, 3)), (lambda t: t.randn((2, 3))), (lambda t: t.randint(5, (4,))),
        (lambda t: t.randint(2, 5, (2, 2))), (lambda t: t.randperm(5)), (lambda t: t.normal(0.0, 1.0, (3,))),
        (lambda t: t.normal(t.zeros(3), 1.0)), (lambda t: t.normal(0.0, t.ones(2, 2))),
        (lambda t: t.normal(t.zeros(3, dtype=t.float64), t.ones(3, dtype=t.float64))),
        (lambda t: t.bernoulli(t.full((3,), 0.5))), (lambda t: t.multinomial(t.tensor([1.0, 2.0, 3.0]), 2)),
        (lambda t: t.multinomial(t.tensor([[1.0, 2.0], [3.0, 1.0]]), 4, replacement=True)),
        (lambda t: t.poisson(t.ones(3))), (lambda t: t.rand_like(t.ones(2, dtype=t.float64))),
        (lambda t: t.randn_like(t.ones(2))), (lambda t: t.randint_like(t.ones(2, dtype=t.int32), 3)),
        (lambda t: t.randint_like(t.ones(2), 1, 3)), (lambda t: t.rand(2, dtype=t.float64)),
    ]
    for fn in cases:
        m, r = fn(torch), fn(reftorch)
        assert tuple(m.shape) == tuple(r.shape) and dtype_name(m.dtype) == dtype_name(r.dtype)


def test_random_distributions():
    torch.manual_seed(0)
    n = 20000
    u = torch.rand(n).numpy()
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.02
    z = torch.randn(n).numpy()
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1) < 0.03
    r = torch.randint(3, 7, (n,)).numpy()
    assert r.min() == 3 and r.max() == 6
    assert sorted(torch.randperm(10).tolist()) == list(range(10))
    nm = torch.normal(2.0, 3.0, (n,)).numpy()
    assert abs(nm.mean() - 2) < 0.1 and abs(nm.std() - 3) < 0.1
    b = torch.bernoulli(torch.full((n,), 0.3)).numpy()
    assert abs(b.mean() - 0.3) < 0.02
    mn = torch.multinomial(torch.tensor([0.0, 1.0, 3.0]), n, replacement=True).numpy()
    assert (mn != 0).all() and abs((mn == 2).mean() - 0.75) < 0.02
    wo = torch.multinomial(torch.tensor([1.0, 1.0, 1.0, 1.0]), 4).numpy()
    assert sorted(wo.tolist()) == [0, 1, 2, 3]


def test_inplace_samplers_write_through_views():
    torch.manual_seed(1)
    base = torch.zeros(4, 1000)
    row = base[1]
    assert row.uniform_(2.0, 3.0) is row
    v = base[1].numpy()
    assert v.min() >= 2.0 and v.max() < 3.0 and base[0].abs().sum().item() == 0
    x = torch.empty(20000)
    assert abs(x.normal_(1.0, 2.0).mean().item() - 1.0) < 0.1
    assert abs(x.exponential_(2.0).mean().item() - 0.5) < 0.05
    assert abs(x.geometric_(0.5).mean().item() - 2.0) < 0.1
    assert abs(x.bernoulli_(0.25).mean().item() - 0.25) < 0.02
    assert abs(x.log_normal_(0.0, 0.5).log().mean().item()) < 0.05
    med = np.median(x.cauchy_(1.0, 1.0).numpy())
    assert abs(med - 1.0) < 0.1
    r = torch.zeros(1000, dtype=torch.int64).random_(0, 5).numpy()
    assert r.min() == 0 and r.max() == 4
    assert torch.zeros(1000).random_(3).max().item() == 2.0


def test_random_errors(reftorch):
    for lib in (torch, reftorch):
        with pytest.raises(RuntimeError):
            lib.randint(5, 2, (2,))
        with pytest.raises(RuntimeError):
            lib.multinomial(lib.tensor([1.0, 0.0]), 3)
        # torch (1.12 and 2.13) samples zero-weight categories last instead of failing
        assert lib.multinomial(lib.tensor([1.0, 0.0]), 2).tolist() == [0, 1]
        with pytest.raises(RuntimeError):
            lib.bernoulli(lib.tensor([1.5]))


def test_rng_state_covers_dropout_and_fork_rng():
    """torch has one CPU generator: get/set_rng_state and fork_rng replay dropout masks too. Dropout draws from
    MindSpore's seeded kernels, whose counters are part of the state."""
    torch.manual_seed(1)
    torch.nn.functional.dropout(torch.ones(16))
    state = torch.get_rng_state()
    a, r1 = torch.nn.functional.dropout(torch.ones(64)), torch.rand(3)
    torch.set_rng_state(state)
    b, r2 = torch.nn.functional.dropout(torch.ones(64)), torch.rand(3)
    assert torch.equal(a, b) and torch.equal(r1, r2)
    torch.manual_seed(2)
    torch.nn.functional.dropout(torch.ones(64))
    with torch.random.fork_rng():
        torch.nn.functional.dropout(torch.ones(64))
    after_fork = torch.nn.functional.dropout(torch.ones(64))
    torch.manual_seed(2)
    torch.nn.functional.dropout(torch.ones(64))
    assert torch.equal(after_fork, torch.nn.functional.dropout(torch.ones(64)))
    with pytest.raises(RuntimeError, match="get_rng_state"):
        torch.set_rng_state(torch.cat([state[:40], torch.tensor(list(b"not json"), dtype=torch.uint8)]))
