"""Graph mode (`@ms.jit`, GRAPH_MODE), torch.jit / torch.compile and MSA_LOG (issue 9, part 2).

The rule under test: mindtorch code never compiles to silently wrong numbers. What MindSpore 2.10's AST compiler
computes like PyNative is checked equal; what it cannot compute with torch semantics must fail at compile time
with an error naming the op or module; the known remaining holes are strict xfails (they flip if fixed).
"""
import importlib.util
import os
import subprocess
import sys
import typing
from pathlib import Path

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
import mindtorch.torch.nn.functional as F
from mindtorch.torch import _logging
from mindtorch.torch.jit import GraphModeError

ROOT = Path(__file__).resolve().parents[3]


# ------------------------------------------------------------------------------------------------ helpers
@pytest.fixture
def graph_mode():
    """Switch MindSpore to GRAPH_MODE for one test and always switch back (other tests run PyNative)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        yield
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class _Records:
    """Collects the "mindtorch" logger's records (it does not propagate to the root logger, so no caplog)."""

    def __init__(self):
        import logging

        self.records = []
        self.handler = logging.Handler()
        self.handler.emit = self.records.append

    def __enter__(self):
        _logging.logger.addHandler(self.handler)
        return self.records

    def __exit__(self, *exc):
        _logging.logger.removeHandler(self.handler)


def _benchmark_models():
    path = ROOT / "benchmarks" / "models.py"
    if not path.exists():
        pytest.skip("benchmarks/models.py not in this checkout")
    spec = importlib.util.spec_from_file_location("_bench_models", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.torch_models(torch)


class _TransformerClassifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, 2)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(self.enc(x).mean(1))


def _model(name):
    torch.manual_seed(0)
    if name == "TransformerEncoder":
        return _TransformerClassifier(), torch.randn(2, 5, 16)
    models = _benchmark_models()
    if name == "LSTM":
        return models.LSTM(), torch.randint(0, 1000, (2, 5))
    if name == "MLP":
        return models.MLP(), torch.randn(2, 1, 28, 28)
    return getattr(models, name)(), torch.randn(2, 3, 32, 32)


MODELS = ["MLP", "LeNet", "LSTM", "ResNet18", "TransformerEncoder"]


# ------------------------------------------------------------------------ (b) GRAPH_MODE with a model's forward
@pytest.mark.parametrize("name", MODELS)
def test_graph_mode_forward_refused_before_compiling(name, graph_mode):
    net, x = _model(name)
    with _Records() as records, pytest.raises(GraphModeError, match=f"{type(net).__name__} .*cannot run under "
                                                                   "mindspore GRAPH_MODE.*x = x.add\\(1\\)"):
        net(x)
    assert any(r.levelname == "ERROR" for r in records)  # also logged through the MSA_LOG-controlled logger
    assert issubclass(GraphModeError, RuntimeError)


def test_pynative_forward_still_works_after_graph_mode_refusal(graph_mode):
    net, x = _model("MLP")
    with pytest.raises(GraphModeError):
        net(x)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert tuple(net(x).shape) == (2, 10)


def test_mindspore_cell_holding_a_torch_module_fails_to_compile(graph_mode):
    """A MindSpore-style cell passes the __call__ check; the torch-style submodule inside it must not compile."""
    class Transposer(torch.nn.Module):
        def forward(self, x):  # only Tensor methods: MindSpore's transpose would silently ignore (0, 1)
            return x.transpose(0, 1) * 1

    class Outer(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Transposer()

        def construct(self, x):
            return self.inner(x)

    with pytest.raises(RuntimeError, match="eager_only_torch_forward"):
        Outer()(torch.arange(6.0).reshape(2, 3))


def test_mindspore_style_module_still_compiles_in_graph_mode(graph_mode):
    """A Module subclass that defines `construct` with MindSpore ops is a MindSpore cell: graph mode is its own."""
    class MsStyle(torch.nn.Module):
        def construct(self, x):
            return ms.ops.relu(x) * 2

    x = np.array([[-1.0, 2.0], [3.0, -4.0]], np.float32)
    out = MsStyle()(ms.Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), np.maximum(x, 0) * 2)


# --------------------------------------------------------------------- (a) @ms.jit on the manual's train step
@pytest.mark.parametrize("name", ["MLP", "LeNet", "LSTM", "TransformerEncoder"])
def test_jit_train_step_fails_to_compile_and_leaves_weights(name):
    net, x = _model(name)
    y = torch.randint(0, 10, (2,))
    crit = torch.nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    before = [p.asnumpy().copy() for p in net.parameters()]

    def forward_fn(data, target):
        return crit(net(data), target)

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)

    @ms.jit
    def train_step(data, target):
        loss, grads = grad_fn(data, target)
        opt(grads)
        return loss

    with pytest.raises(RuntimeError, match="Failed to compile in GRAPH_MODE because the method or function "
                                           "'mindtorch.torch.jit._graph.eager_only_torch_forward'"):
        train_step(x, y)
    for b, p in zip(before, net.parameters()):
        np.testing.assert_array_equal(p.asnumpy(), b)


def test_pynative_train_step_matches_torch_three_steps(reftorch):
    """The manual's functional train step without @ms.jit (the supported way) gives torch's numbers."""
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    ref = reftorch.nn.Sequential(reftorch.nn.Linear(4, 8), reftorch.nn.ReLU(), reftorch.nn.Linear(8, 3))
    ref.load_state_dict({k: reftorch.tensor(v.asnumpy()) for k, v in net.state_dict().items()})
    x = np.random.RandomState(0).randn(5, 4).astype(np.float32)
    y = np.array([0, 1, 2, 1, 0])
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    ropt = reftorch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    grad_fn = ms.value_and_grad(lambda a, b: F.cross_entropy(net(a), b), None, opt.parameters)
    for _ in range(3):
        loss, grads = grad_fn(torch.tensor(x), torch.tensor(y))
        opt(grads)
        ropt.zero_grad()
        rloss = reftorch.nn.functional.cross_entropy(ref(reftorch.tensor(x)), reftorch.tensor(y))
        rloss.backward()
        ropt.step()
        np.testing.assert_allclose(float(loss.asnumpy()), rloss.item(), rtol=1e-5)
    for (k, v), (rk, rv) in zip(net.state_dict().items(), ref.state_dict().items()):
        np.testing.assert_allclose(v.asnumpy(), rv.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)


# --------------------------------------------------------------- (c) risky constructs inside @ms.jit (AST)
def _f_torch_add(x):
    return torch.add(x, 1)


def _f_relu(x):
    return F.relu(x - 3)


def _f_linear_module(x):
    return _LINEAR(x)


_LINEAR = torch.nn.Linear(3, 2)


@pytest.mark.parametrize("fn,op", [(_f_torch_add, "add"), (_f_relu, "relu"),
                                   (_f_linear_module, "eager_only_torch_forward")])
def test_jit_torch_functions_fail_naming_the_op(fn, op):
    with pytest.raises(RuntimeError, match=f"Failed to compile in GRAPH_MODE because the method or function "
                                           f"'mindtorch\\.torch\\.[a-z_.]*\\.{op}'"):
        ms.jit(fn)(torch.arange(6.0).reshape(2, 3))


def _m_view(x):
    return x.view(3, 2) * 1


def _m_flatten(x):
    return x.flatten(1) * 1


def _m_sum_dim(x):
    return x.sum(1)


def _m_mean_dim(x):
    return x.mean(dim=1)


def _m_shape(x):
    return x * x.shape[0]


def _m_unsqueeze(x):
    return x.unsqueeze(0) * 1


def _m_is_floating_point(x):
    if x.dtype.is_floating_point:
        return x * 2
    return x


def _m_add_(x):
    x.add_(1)
    return x * 1


def _m_iadd(x):
    x += 1
    return x * 1


@pytest.mark.parametrize("fn", [_m_view, _m_flatten, _m_sum_dim, _m_mean_dim, _m_shape, _m_unsqueeze,
                                _m_is_floating_point, _m_add_, _m_iadd])
def test_jit_methods_with_matching_semantics_equal_pynative_and_torch(fn, reftorch):
    data = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    x = torch.tensor(data)
    out = ms.jit(fn)(x)
    rx = reftorch.tensor(data)
    assert_same(out, fn(rx))
    assert_same(x, rx)  # the caller's tensor ends as in torch (in-place ops included)


def _m_size(x):
    return x * x.size(0)


def test_jit_size_fails_to_compile():
    # MindSpore's Tensor.size is a property (numel), not callable: a compile error, not a wrong number.
    with pytest.raises(ValueError, match="not callable"):
        ms.jit(_m_size)(torch.ones(2, 3))


def _m_transpose(x):
    return x.transpose(0, 1) * 1


def _m_max_dim(x):
    return x.max(1)[0]


def _m_setitem(x):
    x[0] = 1
    return x * 1


def _m_view_write(x):
    v = x[0]
    v.add_(10)
    return x * 1


@pytest.mark.xfail(strict=True, reason="KNOWN HOLE (MindSpore 2.10): @ms.jit on a plain function sees mindtorch "
                   "tensors as mindspore.Tensor and runs MindSpore's own transpose/max/setitem semantics; no hook "
                   "exists to refuse it. Documented in the graph-mode notes: do not @ms.jit torch code.")
@pytest.mark.parametrize("fn", [_m_transpose, _m_max_dim, _m_setitem, _m_view_write])
def test_jit_methods_with_different_semantics_known_hole(fn, reftorch):
    data = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    x = torch.tensor(data)
    out = ms.jit(fn)(x)
    rx = reftorch.tensor(data)
    assert_same(out, fn(rx))
    assert_same(x, rx)


# ------------------------------------------------------------------------------- torch.jit / torch.compile
def test_script_trace_compile_run_eagerly_and_match_torch(reftorch):
    net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh())
    ref = reftorch.nn.Sequential(reftorch.nn.Linear(4, 3), reftorch.nn.Tanh())
    ref.load_state_dict({k: reftorch.tensor(v.asnumpy()) for k, v in net.state_dict().items()})
    x = np.random.RandomState(1).randn(2, 4).astype(np.float32)
    expected = ref(reftorch.tensor(x))
    _logging._warned.difference_update({"script", "trace", "compile"})
    with _Records() as records:
        compiled = [torch.jit.script(net), torch.jit.trace(net, torch.tensor(x)), torch.compile(net),
                    torch.compile(mode="reduce-overhead")(net), torch.jit.script(net)]
    assert all(c is net for c in compiled)
    for c in compiled:
        assert_same(c(torch.tensor(x)), expected)
    warnings = [r.getMessage() for r in records if r.levelname == "WARNING"]
    assert len(warnings) == 3  # once per API, not per call
    assert all("eagerly" in w for w in warnings)


def test_compile_as_decorator_on_a_function(reftorch):
    @torch.compile
    def f(a, b):
        return torch.sin(a) + b * 2

    a = np.linspace(-1, 1, 6, dtype=np.float32)
    assert_same(f(torch.tensor(a), torch.tensor(a)), reftorch.sin(reftorch.tensor(a)) + reftorch.tensor(a) * 2)


def test_jit_decorators_and_helpers_match_torch(reftorch):
    mine, theirs = torch.jit, reftorch.jit

    class M(torch.nn.Module):
        @mine.ignore
        def helper(self, x):
            return x + 1

        @mine.ignore(drop=True)
        def dropped(self, x):
            return x + 2

        @mine.unused
        def unused(self, x):
            return x + 3

        @mine.export
        def exported(self, x):
            return x + 4

        def forward(self, x):
            return self.helper(x)

    m = M()
    x = torch.tensor([1.0])
    assert [float(f(x).item()) for f in (m, m.dropped, m.unused, m.exported)] == [2.0, 3.0, 4.0, 5.0]
    assert mine.is_scripting() is theirs.is_scripting() is False
    assert mine.is_tracing() is theirs.is_tracing() is False
    assert mine.annotate(typing.List[int], [1]) == theirs.annotate(typing.List[int], [1])
    assert mine.Final is theirs.Final
    for obj, tp in (([1, 2], typing.List[int]), ([1, "a"], typing.List[int]), ({"a": 1}, typing.Dict[str, int]),
                    ((1, "a"), typing.Tuple[int, str]), (3, typing.Optional[int]), (None, typing.Optional[int])):
        assert mine.isinstance(obj, tp) == theirs.isinstance(obj, tp), (obj, tp)
    assert not isinstance(m, mine.ScriptModule)
    fut = mine.fork(lambda a: a * 3, 2)
    assert mine.wait(fut) == 6


def test_jit_save_load_explain_the_way_out(tmp_path):
    with pytest.raises(NotImplementedError, match="state_dict"):
        torch.jit.save(torch.nn.Linear(2, 2), tmp_path / "m.pt")
    with pytest.raises(NotImplementedError, match="state_dict"):
        torch.jit.load(tmp_path / "m.pt")


# -------------------------------------------------------------------------------------------------- MSA_LOG
@pytest.mark.parametrize("value,level", [("0", "DEBUG"), ("1", "INFO"), ("2", "WARNING"), ("3", "ERROR"),
                                         ("4", "CRITICAL"), ("", "WARNING"), ("9", "WARNING"), ("x", "WARNING")])
def test_msa_log_levels(value, level):
    import logging

    assert _logging.level_from_env(value) == getattr(logging, level)


@pytest.mark.parametrize("msa_log,shown", [(None, True), ("3", False)])
def test_msa_log_controls_the_fallback_warning_in_a_real_process(msa_log, shown):
    env = {k: v for k, v in os.environ.items() if k != "MSA_LOG"}
    env["GLOG_v"] = "3"
    if msa_log is not None:
        env["MSA_LOG"] = msa_log
    code = ("import logging, mindtorch.torch as torch\n"
            "print(logging.getLevelName(logging.getLogger('mindtorch').level))\n"
            "torch.compile(torch.nn.Linear(2, 2))\n")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ("ERROR" if msa_log == "3" else "WARNING")
    assert ("torch.compile: mindtorch runs" in r.stderr) is shown
