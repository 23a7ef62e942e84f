"""Graph mode (`@ms.jit`, GRAPH_MODE), torch.jit / torch.compile and MSA_LOG (issue 9, part 2).

The rule under test: mindtorch code never compiles to silently wrong numbers. The manual's two graph-mode forms
(`@ms.jit` on the functional train step, `ms.set_context(mode=ms.GRAPH_MODE)`) run mindtorch code eagerly with one
warning and must give PyNative's numbers; every construct whose MindSpore graph semantics differ from torch's is
checked against torch; native MindSpore code must still compile; a MindSpore cell holding a torch module stays a
clear compile error (see jit/_graph.py for the measured behaviour of each capture mode).
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


@pytest.fixture
def restore_pynative():
    """For tests that switch to GRAPH_MODE themselves: always back to PyNative afterwards."""
    try:
        yield
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _ms_is_graph_mode():
    return ms.get_context("mode") == ms.GRAPH_MODE


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
    if name == "ResNet18":  # 8x8 keeps the file fast on 2 cores; BatchNorm still sees 2 values per channel
        return models.ResNet18(), torch.randn(2, 3, 8, 8)
    return getattr(models, name)(), torch.randn(2, 3, 32, 32)


MODELS = ["MLP", "LeNet", "LSTM", "ResNet18", "TransformerEncoder"]


# ------------------------------------------------------ the manual's two forms on the five models (issue 9 part 2)
def _train(name, form, steps=2):
    """The manual's functional train step in `form` ("pynative", "jit": @ms.jit on the step, "graph":
    ms.set_context(mode=ms.GRAPH_MODE) before building it); losses and final weights."""
    net, x = _model(name)
    y = torch.tensor([1, 7])
    crit = torch.nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    if form == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)

    def forward_fn(data, target):
        return crit(net(data), target)

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)

    def train_step(data, target):
        loss, grads = grad_fn(data, target)
        opt(grads)
        return loss

    step = ms.jit(train_step) if form == "jit" else train_step
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return losses, {k: v.asnumpy() for k, v in net.state_dict().items()}


@pytest.mark.parametrize("form", ["jit", "graph"])
@pytest.mark.parametrize("name", MODELS)
def test_manual_train_step_forms_equal_pynative(name, form, restore_pynative):
    # The first PyNative run of ResNet18 in a process computed a loss 1e-5 off the later (identical) runs (CPU
    # kernels picked on first use), which its 2-sample BatchNorm amplifies to 30% at step 2: warm up first.
    _train(name, "pynative", steps=1)
    ref_losses, ref_state = _train(name, "pynative")
    with _Records() as records:
        losses, state = _train(name, form)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-6)
    assert state.keys() == ref_state.keys()
    for k in state:  # weights, and BatchNorm's running stats / num_batches_tracked
        np.testing.assert_allclose(state[k], ref_state[k], rtol=1e-6, atol=1e-7, err_msg=k)
    warnings = [r.getMessage() for r in records if r.levelname == "WARNING"]
    assert len(warnings) <= 1  # one per function per process (an earlier parametrization may have logged it)


def test_jit_train_step_warns_once_naming_the_step_and_why(restore_pynative):
    net, x = _model("MLP")
    crit = torch.nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    grad_fn = ms.value_and_grad(lambda d, t: crit(net(d), t), None, opt.parameters)

    @ms.jit
    def my_train_step(data, target):
        loss, grads = grad_fn(data, target)
        opt(grads)
        return loss

    with _Records() as records:
        for _ in range(3):
            my_train_step(x, torch.tensor([0, 1]))
    warnings = [r.getMessage() for r in records if r.levelname == "WARNING"]
    assert len(warnings) == 1
    assert "my_train_step runs eagerly (PyNative)" in warnings[0] and "mindtorch tensors" in warnings[0]


def test_graph_mode_value_and_grad_warning_names_the_forward_fn(graph_mode):
    net, x = _model("MLP")

    def my_forward_fn(data):
        return net(data).sum()

    with _Records() as records:
        loss, grads = ms.value_and_grad(my_forward_fn, None, tuple(net.parameters()))(x)
    assert any("value_and_grad(" in r.getMessage() and "my_forward_fn) under GRAPH_MODE" in r.getMessage()
               for r in records)
    assert _ms_is_graph_mode()  # switched back after the eager call
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ref_loss, ref_grads = ms.value_and_grad(my_forward_fn, None, tuple(net.parameters()))(x)
    assert float(loss.asnumpy()) == float(ref_loss.asnumpy())
    for g, r in zip(grads, ref_grads):
        np.testing.assert_array_equal(g.asnumpy(), r.asnumpy())


@pytest.mark.parametrize("kind", ["lambda", "methods only"])
def test_graph_mode_value_and_grad_of_lambda_and_method_only_code(graph_mode, kind):
    """GRAPH_MODE value_and_grad around forward functions the compile would not reject by itself: a lambda (which
    MindSpore's parser fails on with its own TypeError) and tensor-method-only code (which it would compile with
    MindSpore's semantics: transpose(0, 1) as the identity). Both run eagerly and give PyNative's numbers."""
    w = torch.nn.Parameter(torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3)))
    x = torch.from_numpy(np.ones((2, 3), np.float32))
    if kind == "lambda":
        fn = lambda data: (data * w).transpose(0, 1).sum(1).pow(2).sum()  # noqa: E731
    else:
        def fn(data):
            return (data * w).transpose(0, 1).sum(1).pow(2).sum()
    loss, (grad,) = ms.value_and_grad(fn, None, (w,))(x)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ref_loss, (ref_grad,) = ms.value_and_grad(fn, None, (w,))(x)
    assert float(loss.asnumpy()) == float(ref_loss.asnumpy()) == 9.0 + 25.0 + 49.0
    np.testing.assert_array_equal(grad.asnumpy(), ref_grad.asnumpy())


@pytest.mark.parametrize("name", MODELS)
def test_graph_mode_forward_equals_pynative(name, graph_mode):
    net, x = _model(name)
    net.eval()
    out = net(x)
    assert _ms_is_graph_mode()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert_same(out, net(x))


def test_graph_mode_module_warns_once_per_class(graph_mode):
    net, x = _model("LeNet")
    _logging._warned.discard("graph-module:LeNet")
    with _Records() as records:
        net(x)
        net(x)
    warnings = [r.getMessage() for r in records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and warnings[0].startswith("LeNet (a torch-style mindtorch nn.Module) runs eagerly")


def test_mindspore_cell_holding_a_torch_module_fails_to_compile(graph_mode):
    """Cell.__call__ compiles a MindSpore cell without mindtorch's hook: the torch-style submodule inside it must
    fail to compile (naming itself), not run with MindSpore's transpose (which would ignore (0, 1))."""
    class Transposer(torch.nn.Module):
        def forward(self, x):
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
    with _Records() as records:
        out = MsStyle()(ms.Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), np.maximum(x, 0) * 2)
    assert not records


def test_native_mindspore_code_still_compiles(graph_mode):
    """Native code (mindspore.Tensor arguments, MindSpore ops) passes the hook untouched: GRAPH_MODE
    value_and_grad over a MindSpore cell and an @ms.jit function compile, with no mindtorch warning."""
    cell = ms.nn.Dense(3, 2)
    x = ms.Tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    def forward_fn(a):
        return cell(a).sum()

    def double_t(a):
        return ms.ops.transpose(a, (1, 0)) * 2

    with _Records() as records:
        loss, grads = ms.value_and_grad(forward_fn, None, cell.trainable_params())(x)
        doubled = ms.jit(double_t)(x)
    assert not records
    assert len(grads) == 2
    np.testing.assert_allclose(grads[0].asnumpy(), np.tile(x.asnumpy().sum(0), (2, 1)))
    np.testing.assert_array_equal(doubled.asnumpy(), x.asnumpy().T * 2)


def test_pynative_train_step_matches_torch_three_steps(reftorch):
    """The manual's functional train step without @ms.jit (the reference of the forms above) gives torch's numbers."""
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


# ---------------------------------------------------- risky constructs: each one computes torch's numbers
# Under AST capture each of these would run MindSpore's own semantics on a mindtorch tensor (measured, _graph.py):
# transpose ignored (0, 1), max(1) took the global max, size(0) failed, setitem and a write through a view did
# not reach the caller's tensor. Called with mindtorch tensors they run eagerly instead.
def _m_size(x):
    return x * x.size(0)


def _m_view(x):
    return x.view(3, 2) * 1


def _m_flatten(x):
    return x.flatten(1) * 1


def _m_transpose(x):
    return x.transpose(0, 1) * 1


def _m_max_dim(x):
    return x.max(1)[0]


def _m_sum_dim(x):
    return x.sum(1)


def _m_shape(x):
    return x * x.shape[0]


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


def _m_setitem(x):
    x[0] = 1
    return x * 1


def _m_view_write(x):
    v = x[0]
    v.add_(10)
    return x * 1


def _m_view_alias(x):
    v = x.view(6)
    v[0] = -5
    return x.sum()


CONSTRUCTS = [_m_size, _m_view, _m_flatten, _m_transpose, _m_max_dim, _m_sum_dim, _m_shape, _m_is_floating_point,
              _m_add_, _m_iadd, _m_setitem, _m_view_write, _m_view_alias]


@pytest.mark.parametrize("fn", CONSTRUCTS, ids=lambda f: f.__name__[3:])
def test_jit_construct_on_mindtorch_tensors_matches_torch(fn, reftorch):
    data = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    x = torch.tensor(data)
    out = ms.jit(fn)(x)
    rx = reftorch.tensor(data)
    assert_same(out, fn(rx))
    assert_same(x, rx)  # the caller's tensor ends as in torch (in-place ops, setitem, writes through views)


class _ConstructModule(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


@pytest.mark.parametrize("fn", CONSTRUCTS, ids=lambda f: f.__name__[3:])
def test_graph_mode_construct_in_a_module_matches_torch(fn, reftorch, graph_mode):
    data = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    x = torch.tensor(data)
    out = _ConstructModule(fn)(x)
    rx = reftorch.tensor(data)
    assert_same(out, fn(rx))
    assert_same(x, rx)


_LINEAR = torch.nn.Linear(3, 2)


def _f_linear_module(x):
    return _LINEAR(x)


def _f_torch_add(x):
    return torch.add(x, 1)


def _f_relu(x):
    return F.relu(x - 3)


@pytest.mark.parametrize("fn,op", [(_f_torch_add, "_ops._registry.add"), (_f_relu, "_ops._registry.relu"),
                                   (_f_linear_module, "jit._graph.eager_only_torch_forward")])
def test_jit_torch_code_on_mindspore_tensors_runs_eagerly_after_the_compile_error(fn, op):
    """No mindtorch argument: the compile is tried, fails on the torch function (graph-forbidden, named in the
    warning), and the call runs eagerly; later calls skip the compile."""
    from mindtorch.torch.jit import _graph

    data = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    jitted = ms.jit(fn)
    with _Records() as records:
        out = jitted(ms.Tensor(data))
        again = jitted(ms.Tensor(data))
    assert_same(out, fn(torch.tensor(data)))
    assert_same(again, out)
    warnings = [r.getMessage() for r in records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and f"'mindtorch.torch.{op}' is not supported" in warnings[0]
    assert fn in _graph._EAGER


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
