"""Smaller torch 1.12 APIs scripts use, each against real torch: frexp, positive, is_signed, torch.detach,
Tensor.new, split_with_sizes / unsafe_*, in-place shape changes (t_, transpose_, unsqueeze_...), torch.__version__
comparisons and torch.version, typename, the autocast/anomaly state functions, torch.onnx and torch.profiler."""
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


# ------------------------------------------------------------------------------------------------- frexp
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_frexp_values_and_dtypes(reftorch, dtype):
    vals = [0.0, -0.0, 1.0, -3.5, 0.375, 1e-3, 6e4, float("inf"), float("-inf"), float("nan")]
    if dtype != "float16":
        vals += [1e-40 if dtype == "float32" else 1e-310, 3e38 if dtype == "float32" else 1e300]
    m, e = torch.frexp(torch.tensor(vals, dtype=getattr(torch, dtype)))
    rm, re_ = reftorch.frexp(reftorch.tensor(vals, dtype=getattr(reftorch, dtype)))
    assert_same(m, rm, check_dtype=True)
    assert_same(e, re_, check_dtype=True)
    out = torch.tensor([8.0]).frexp()
    assert out.mantissa.item() == 0.5 and out.exponent.item() == 4


def test_frexp_mantissa_gradient_and_errors(reftorch):
    data = [1.5, -6.0, 0.1]
    x, rx = torch.tensor(data, requires_grad=True), reftorch.tensor(data, requires_grad=True)
    torch.frexp(x).mantissa.sum().backward()
    reftorch.frexp(rx).mantissa.sum().backward()
    assert_same(x.grad, rx.grad)
    with pytest.raises(RuntimeError, match="floating-point"):
        torch.frexp(torch.tensor([1, 2]))
    with pytest.raises(RuntimeError):
        reftorch.frexp(reftorch.tensor([1, 2]))


# ------------------------------------------------------------------------------ small torch-level functions
def test_positive_is_signed_detach(reftorch):
    x, rx = torch.tensor([1.0, -2.0]), reftorch.tensor([1.0, -2.0])
    assert_same(torch.positive(x), reftorch.positive(rx))
    assert_same(x.positive(), rx.positive())
    with pytest.raises(RuntimeError, match="bool"):
        torch.positive(torch.tensor([True]))
    for dt in ("float32", "int64", "uint8", "bool", "complex64"):
        assert torch.is_signed(torch.zeros(1, dtype=getattr(torch, dt))) == \
            reftorch.is_signed(reftorch.zeros(1, dtype=getattr(reftorch, dt)))
    g = torch.ones(2, requires_grad=True) * 2
    d = torch.detach(g)
    assert not d.requires_grad and reftorch.detach(reftorch.ones(2, requires_grad=True) * 2).requires_grad is False
    d[0] = 5.0  # same storage, as torch
    assert g[0].item() == 5.0
    assert torch.tensor([3.0]).is_nonzero() and not torch.tensor([0]).is_nonzero()


def test_tensor_new_legacy_constructor(reftorch):
    x, rx = torch.ones(2, dtype=torch.float64), reftorch.ones(2, dtype=reftorch.float64)
    for args in [(2, 3), (torch.Size([4]),), ()]:
        rargs = tuple(reftorch.Size(a) if isinstance(a, torch.Size) else a for a in args)
        got, ref = x.new(*args), rx.new(*rargs)
        assert tuple(got.shape) == tuple(ref.shape) and str(got.dtype) == str(ref.dtype)
    assert_same(x.new([1, 2]), rx.new([1, 2]), check_dtype=True)
    assert_same(x.new((2, 3)), rx.new((2, 3)), check_dtype=True)  # a tuple is data, not a size
    t = torch.tensor([1.0, 2.0], dtype=torch.float64)
    alias = x.new(t)
    alias[0] = 7.0
    assert t[0].item() == 7.0
    with pytest.raises(TypeError):
        x.new(torch.tensor([1, 2]))
    with pytest.raises(TypeError):
        rx.new(reftorch.tensor([1, 2]))


def test_split_with_sizes_and_unsafe_variants(reftorch):
    a = np.arange(10, dtype=np.float32).reshape(5, 2)
    x, rx = torch.tensor(a), reftorch.tensor(a)
    for got, ref in [(torch.split_with_sizes(x, [2, 3]), reftorch.split_with_sizes(rx, [2, 3])),
                     (x.split_with_sizes([1, 1], dim=1), rx.split_with_sizes([1, 1], dim=1)),
                     (torch.unsafe_split(x, 2), reftorch.unsafe_split(rx, 2)),
                     (x.unsafe_chunk(3), rx.unsafe_chunk(3)),
                     (torch.unsafe_split_with_sizes(x, [4, 1]), reftorch.unsafe_split_with_sizes(rx, [4, 1]))]:
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            assert_same(g, r)
    with pytest.raises(RuntimeError, match="sum exactly"):
        torch.split_with_sizes(x, [1, 1])


# ----------------------------------------------------------------------------------- in-place shape changes
@pytest.mark.parametrize("op,args,shape", [("t_", (), (3, 2)), ("transpose_", (0, 1), (3, 2)),
                                           ("swapaxes_", (1, 0), (3, 2)), ("swapdims_", (0, -1), (3, 2)),
                                           ("unsqueeze_", (1,), (2, 1, 3)), ("squeeze_", (), (2, 3))])
def test_inplace_shape_ops_keep_the_object_and_storage(reftorch, op, args, shape):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x, rx = torch.tensor(a), reftorch.tensor(a)
    assert getattr(x, op)(*args) is x and getattr(rx, op)(*args) is rx
    assert tuple(x.shape) == tuple(rx.shape) == shape
    assert_same(x, rx)
    # writes through the reshaped tensor reach its base, and the other way round
    base, rbase = torch.zeros(2, 3), reftorch.zeros(2, 3)
    v, rv = base.view(2, 3), rbase.view(2, 3)
    getattr(v, op)(*args), getattr(rv, op)(*args)
    v.fill_(2.0), rv.fill_(2.0)
    base[0, 0], rbase[0, 0] = 5.0, 5.0
    assert_same(base, rbase)
    assert_same(v, rv)


def test_inplace_shape_ops_autograd(reftorch):
    x, rx = torch.tensor([1.0, 2.0], requires_grad=True), reftorch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        x.unsqueeze_(0)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        rx.unsqueeze_(0)
    y, ry = x * 3, rx * 3
    y.unsqueeze_(0).t_()
    ry.unsqueeze_(0).t_()
    assert tuple(y.shape) == tuple(ry.shape) == (2, 1)
    (y * torch.tensor([[1.0], [2.0]])).sum().backward()
    (ry * reftorch.tensor([[1.0], [2.0]])).sum().backward()
    assert_same(x.grad, rx.grad)


# --------------------------------------------------------------------------------------- version, names
@pytest.mark.parametrize("other", ["1.9", "1.10", "1.12", "1.12.1", "1.12.0", "1.12.1a0", "1.12.2", "1.13.0rc1",
                                   "2.0", "1.12.1+cpu", (1, 10), (1, 12, 1), (2,)])
def test_version_compares_as_a_version(reftorch, other):
    ref = reftorch.torch_version.TorchVersion("1.12.1")  # torch 1.12's own class and version number
    ours = torch.__version__
    assert ours == "1.12.1" and isinstance(ours, str)
    for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__"):
        assert getattr(ours, op)(other) == getattr(ref, op)(other), (op, other)


def test_version_module_and_typename(reftorch):
    assert torch.version.__version__ == "1.12.1"
    assert torch.version.cuda is None and torch.version.hip is None and torch.version.debug is False
    assert torch.typename(torch.ones(2)) == reftorch.typename(reftorch.ones(2)) == "torch.FloatTensor"
    assert torch.typename(torch.ones(2, dtype=torch.int64)) == "torch.LongTensor"
    assert torch.typename(3) == reftorch.typename(3) == "int"
    assert torch.typename(torch.nn.Linear).endswith("nn.modules.linear.Linear")
    assert torch.typename(torch.nn.Linear(2, 2)).endswith("nn.modules.linear.Linear")


def test_autocast_and_anomaly_state_functions(reftorch):
    def state(t):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch 2.13 deprecates the *_cpu_* / *_gpu_* spellings
            return (t.is_autocast_enabled(), t.is_autocast_cpu_enabled(), str(t.get_autocast_gpu_dtype()),
                    str(t.get_autocast_cpu_dtype()), t.is_autocast_cache_enabled())

    assert state(torch) == state(reftorch)
    with torch.autocast("cpu", dtype=torch.float16), reftorch.autocast("cpu", dtype=reftorch.float16):
        assert state(torch)[:2] == state(reftorch)[:2] == (False, True)
    with torch.autocast("cuda"):
        assert torch.is_autocast_enabled() and not torch.is_autocast_cpu_enabled()
        assert torch.get_autocast_gpu_dtype() is torch.float16
    assert not torch.is_autocast_enabled()
    torch.set_autocast_cache_enabled(False)
    assert not torch.is_autocast_cache_enabled()
    torch.set_autocast_cache_enabled(True)
    torch.clear_autocast_cache()

    assert torch.is_anomaly_enabled() is reftorch.is_anomaly_enabled() is False
    torch.set_anomaly_enabled(True)
    try:
        assert torch.is_anomaly_enabled() and torch.autograd.anomaly_mode.is_anomaly_enabled()
        assert torch.is_anomaly_check_nan_enabled()
    finally:
        torch.set_anomaly_enabled(False)
    assert not torch.is_anomaly_enabled()


def test_onnx_and_profiler(reftorch):
    assert torch.onnx.is_in_onnx_export() is reftorch.onnx.is_in_onnx_export() is False
    with pytest.raises(NotImplementedError, match="torch.onnx.export.*mindspore.export"):
        torch.onnx.export(torch.nn.Linear(2, 2), torch.ones(1, 2), "model.onnx")

    from mindtorch.torch.autograd.profiler import record_function

    calls = []

    @torch.profiler.record_function("decorated")
    def f(v):
        calls.append(v)
        return v * 2

    with record_function("block"), torch.profiler.record_function("inner", args="x"):
        assert f(3) == 6
    assert calls == [3]
    with pytest.raises(NotImplementedError, match="mindspore.Profiler"):
        torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])


# --------------------------------------------------------------------------- environment and legacy modules
def test_layout_and_legacy_modules(reftorch):
    import pickle

    x = torch.ones(2)
    assert x.layout is torch.strided and repr(torch.strided) == repr(reftorch.strided) == "torch.strided"
    assert torch.zeros(1, layout=torch.strided).layout is torch.strided
    assert pickle.loads(pickle.dumps(torch.strided)) is torch.strided
    from mindtorch.torch._six import inf, string_classes, with_metaclass
    from mindtorch.torch.utils.model_zoo import load_url

    assert inf == float("inf") and isinstance("a", string_classes) and load_url is torch.hub.load_state_dict_from_url

    class Meta(type):
        pass

    class A(with_metaclass(Meta, object)):
        pass

    assert type(A) is Meta
    assert torch._C._get_tracing_state() is None and torch._C._log_api_usage_once("x") is None
    with pytest.raises(AttributeError, match="not part of mindtorch"):
        torch._C._cuda_getDeviceCount  # noqa: B018


def test_cuda_memory_statistics_and_backend_flags(reftorch):
    # on the CPU target (no accelerator) they read 0, as torch's do on a machine without CUDA
    for name in ("memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
                 "memory_cached", "max_memory_cached"):
        assert getattr(torch.cuda, name)() == getattr(reftorch.cuda, name)() == 0
    torch.cuda.reset_peak_memory_stats()
    torch.cuda.empty_cache()
    assert isinstance(torch.cuda.memory_stats(), dict) and isinstance(torch.cuda.memory_summary(), str)
    assert torch.backends.cuda.matmul.allow_tf32 is reftorch.backends.cuda.matmul.allow_tf32 is False
    torch.backends.cuda.matmul.allow_tf32 = True
    assert torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    assert torch.backends.cuda.is_built() is False


def test_pin_memory_without_an_accelerator_raises_like_torch(reftorch):
    with pytest.raises(RuntimeError, match="accelerator") as ours:
        torch.ones(2).pin_memory()
    with pytest.raises(RuntimeError) as ref:
        reftorch.ones(2).pin_memory()
    assert str(ours.value) == str(ref.value)


def test_make_subclass_for_custom_parameter_classes(reftorch):
    class MyParam(torch.Tensor):
        def __new__(cls, data, requires_grad=True):
            return torch.Tensor._make_subclass(cls, data, requires_grad)

    data = torch.tensor([1.0, 2.0])
    p = MyParam(data)
    assert type(p) is MyParam and p.requires_grad and p.is_leaf
    p2 = MyParam(data, requires_grad=False)
    assert not p2.requires_grad
    (p * 3).sum().backward()
    assert_same(p.grad, reftorch.tensor([3.0, 3.0]))
    p2[0] = 9.0  # shares data's storage, as torch's
    assert data[0].item() == 9.0
    with pytest.raises(TypeError):
        torch.Tensor._make_subclass(int, data)


def test_apply_and_map_(reftorch):
    def run(t):
        x = t.tensor([[1.0, 2.0], [3.0, 4.0]])
        assert x.apply_(lambda v: v * 10 + 1) is x
        y = t.tensor([[1, 2], [3, 4]])
        assert y.map_(t.tensor([10, 20]), lambda a, b: a * b - 1) is y
        return x, y

    for got, ref in zip(run(torch), run(reftorch)):
        assert_same(got, ref, check_dtype=True)


@pytest.mark.parametrize("kw", [{"bins": 4}, {"bins": 3, "range": (0.0, 5.0)}, {"bins": 4, "density": True},
                                {"bins": 4, "weight": True}, {"bins": "edges"}])
def test_histogram(reftorch, kw):
    x = np.array([1.0, 2, 1, 4.5, 3, 2.2])
    res = []
    for t in (torch, reftorch):
        args = {k: (t.tensor(np.arange(6.0)) if k == "weight" else
                    t.tensor([0.0, 1.5, 5.0], dtype=t.float64) if v == "edges" else v) for k, v in kw.items()}
        res.append(t.histogram(t.tensor(x), **args))
    assert_same(res[0].hist, res[1].hist)
    assert_same(res[0].bin_edges, res[1].bin_edges)
    assert torch.tensor(x).histogram(3).hist.tolist() == reftorch.tensor(x).histogram(3).hist.tolist()


def test_cumulative_trapezoid(reftorch):
    y = np.random.default_rng(0).standard_normal((3, 5))
    xs = np.cumsum(np.random.default_rng(1).random(5))
    for kw in ({}, {"dx": 0.5}, {"dim": 0}):
        assert_same(torch.cumulative_trapezoid(torch.tensor(y), **kw),
                    reftorch.cumulative_trapezoid(reftorch.tensor(y), **kw))
    assert_same(torch.cumulative_trapezoid(torch.tensor(y), torch.tensor(xs)),
                reftorch.cumulative_trapezoid(reftorch.tensor(y), reftorch.tensor(xs)))
    g = []
    for t in (torch, reftorch):
        v = t.tensor(y, requires_grad=True)
        t.cumulative_trapezoid(v, dim=1).pow(2).sum().backward()
        g.append(v.grad)
    assert_same(g[0], g[1])
    with pytest.raises(TypeError):
        torch.cumulative_trapezoid(torch.tensor(y), 0.5)


def test_futures_complete_once_and_chain():
    """torch.futures.Future: wait() blocks until set_result (from another thread here), then() chains, exceptions
    travel to wait(); torch.jit.fork hands out completed ones."""
    import threading

    fut = torch.futures.Future()
    chained = fut.then(lambda f: f.value() * 2)
    assert not fut.done() and not chained.done()
    threading.Timer(0.05, fut.set_result, (21,)).start()
    assert fut.wait() == 21 and chained.wait() == 42
    with pytest.raises(RuntimeError, match="only be marked completed once"):
        fut.set_result(1)
    bad = torch.futures.Future()
    bad.set_exception(ValueError("boom"))
    with pytest.raises(ValueError, match="boom"):
        bad.wait()
    assert torch.jit.Future is torch.futures.Future
    forked = torch.jit.fork(lambda: 3)
    assert torch.futures.wait_all([forked]) == [3]
    assert [f.value() for f in torch.futures.collect_all([forked]).wait()] == [3]
