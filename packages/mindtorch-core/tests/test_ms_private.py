"""One test per private MindSpore entry point wrapped in mindtorch.torch._ms (DESIGN.md §3)."""


# ---------------------------------------------------------------- autograd wrappers (issue 5, autograd-optim)
def test_ms_grad_flag_and_run_backward():
    import mindspore as ms
    import numpy as np

    from mindtorch.torch import _ms

    _ms.set_grad_flag(True)
    assert _ms.grad_flag() and _ms.is_recording()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    x.requires_grad_()
    y = (x * x).sum()
    (g,) = _ms.run_backward((y,), (), True, False, (x,), accumulate_grad=False)
    np.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])
    _ms.run_backward((y,), (), False, False)
    np.testing.assert_allclose(x._grad.asnumpy(), [2.0, 4.0])
    ms.value_and_grad(lambda v: (v * v).sum())(x)
    assert not _ms.grad_flag()  # the hazard enable_grad_recording exists for
    _ms.enable_grad_recording()
    assert _ms.grad_flag()


def test_guard_value_and_grad_inputs_restores_requires_grad():
    """MindSpore 2.10's value_and_grad marks its inputs as requiring grad for good; the guard undoes that for
    inputs that did not require grad, and leaves the gradients it returns alone."""
    import mindspore as ms
    import numpy as np

    from mindtorch.torch import _ms

    _ms.guard_value_and_grad_inputs()
    _ms.guard_value_and_grad_inputs()  # idempotent
    w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    x = ms.Tensor(np.array([3.0, 4.0], np.float32))
    keep = ms.Tensor(np.array([1.0, 1.0], np.float32))
    keep.requires_grad_()
    loss, (gx, gw) = ms.value_and_grad(lambda a, b: (a * b * w).sum(), 0, (w,))(x, keep)
    np.testing.assert_allclose(gx.asnumpy(), [1.0, 2.0])
    np.testing.assert_allclose(gw[0].asnumpy(), [3.0, 4.0])
    assert float(loss.asnumpy()) == 11.0
    assert not x._requires_grad and keep._requires_grad
    for _ in range(2):  # a tensor switched back must get its gradient on the next call too (not zeros)
        _, gx = ms.value_and_grad(lambda a: (a * w).sum(), 0)(x)
        np.testing.assert_allclose(gx.asnumpy(), [1.0, 2.0])
        assert not x._requires_grad


def test_ms_set_enable_grad():
    import mindspore as ms
    import numpy as np

    from mindtorch.torch import _ms

    _ms.enable_grad_recording()
    x = ms.Tensor(np.array([1.0], np.float32))
    x.requires_grad_()
    _ms.set_enable_grad(False)
    try:
        assert not _ms.enable_grad_state() and (x * 2)._grad_node is None
    finally:
        _ms.set_enable_grad(True)
    assert (x * 2)._grad_node is not None


def test_ms_function_base():
    import mindspore as ms
    import numpy as np

    from mindtorch.torch import _ms

    class Double(_ms.MsFunction):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 5  # deliberately not the true derivative, to see it is used

    _ms.enable_grad_recording()
    x = ms.Tensor(np.array([1.0, 3.0], np.float32))
    x.requires_grad_()
    _ms.run_backward((Double.apply(x).sum(),), (), False, False)
    np.testing.assert_allclose(x._grad.asnumpy(), [5.0, 5.0])


def test_ms_bump_tensor_version_and_grad_node():
    import mindspore as ms
    import numpy as np
    import pytest

    from mindtorch.torch import _ms

    _ms.enable_grad_recording()
    x = ms.Tensor(np.array([1.0, 3.0], np.float32))
    x.requires_grad_()
    h = x * 2
    assert _ms.grad_node(h) is not None
    y = (h * h).sum()
    v0 = ms.Tensor.__mro__[1]._version.__get__(h)
    ms.Tensor.__setitem__(h, slice(None), ms.Tensor(np.zeros(2, np.float32)))
    _ms.bump_tensor_version(h)
    assert ms.Tensor.__mro__[1]._version.__get__(h) == v0 + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        _ms.run_backward((y,), (), False, False)


def test_ms_setitem_writes_through_views_while_recording():
    import mindspore as ms
    import numpy as np

    from mindtorch.torch import _ms

    _ms.enable_grad_recording()
    base = ms.Tensor(np.zeros((2, 3), np.float32))
    v = ms.mint.transpose(ms.Tensor.view(base, (3, 2)), 0, 1)
    _ms.setitem(v, slice(None), ms.Tensor(np.ones((2, 3), np.float32)))
    assert base.asnumpy().sum() == 6.0


def test_ms_is_graph_mode_tracks_set_context():
    """nn.Module.__call__ reads `_ms.CONTEXT_STATE["_mode"]` (MindSpore's context singleton) on every call."""
    import mindspore as ms

    from mindtorch.torch import _ms

    assert _ms.is_graph_mode() is False and _ms.CONTEXT_STATE["_mode"] == ms.PYNATIVE_MODE
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert _ms.is_graph_mode() is True and _ms.CONTEXT_STATE["_mode"] == _ms.GRAPH_MODE
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert _ms.is_graph_mode() is False


# ---------------------------------------------------------------- execution wrappers (issue 3, ops-B)
def test_ms_device_target_and_sync():
    from mindtorch.torch import _ms

    assert _ms.device_target() in ("CPU", "GPU", "Ascend")
    _ms.sync()  # returns once queued work is done


def test_ms_set_launch_blocking_errors_surface_at_the_op():
    """mindtorch enables synchronous launch on CPU at import: an op without a CPU kernel raises at that op
    (in MindSpore's default async mode it would surface at a later, unrelated call)."""
    import mindspore as ms
    import numpy as np
    import pytest

    from mindtorch.torch import _ms

    if _ms.device_target() != "CPU":
        pytest.skip("measured and enabled on CPU only")
    assert _ms.set_launch_blocking() is True and _ms._launch_blocking_set
    x = ms.Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(RuntimeError, match="Roll"):
        ms.mint.roll(x, 1, 0)  # no CPU kernel in MindSpore 2.10
    np.testing.assert_allclose(ms.mint.add(x, 1).asnumpy(), np.full((2, 2), 2.0))  # the next op is unaffected


# ---------------------------------------------------------------- distributed (issue 10, distributed)
def test_ms_queue_backward_final_callback_runs_after_grads_accumulate():
    import mindspore as ms
    import numpy as np
    import pytest

    from mindtorch.torch import _ms

    with pytest.raises(RuntimeError):  # only allowed while a backward runs
        _ms.queue_backward_final_callback(lambda: None)
    w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w_final_cb")
    seen = []

    def hook(grad):
        if not seen:
            _ms.queue_backward_final_callback(lambda: seen.append(w._grad.asnumpy().copy()))
            seen.append("queued")
        return grad

    w.register_hook(hook)
    _ms.enable_grad_recording()
    y = (w * ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))).sum()
    _ms.run_backward((y,), (), False, False)
    assert seen[0] == "queued" and len(seen) == 2
    np.testing.assert_allclose(seen[1], [1.0, 2.0, 3.0])  # the callback saw the accumulated grad


def test_random_op_state_replays_seeded_random_ops():
    import mindspore as ms
    import numpy as np
    from mindspore import ops

    from mindtorch.torch import _ms

    if ms.get_seed() is None:  # unseeded, MindSpore draws fresh kernel seeds at every call (nothing to replay)
        ms.set_seed(1234)
    state = _ms.random_op_state()
    a = ops.uniform((6,), ms.Tensor(0.0), ms.Tensor(1.0)).asnumpy()
    b = ops.uniform((6,), ms.Tensor(0.0), ms.Tensor(1.0)).asnumpy()
    assert not np.array_equal(a, b)  # the counters advance at every call
    _ms.set_random_op_state(state)
    np.testing.assert_array_equal(ops.uniform((6,), ms.Tensor(0.0), ms.Tensor(1.0)).asnumpy(), a)


def test_forbid_module_in_graph_makes_ast_compile_fail_naming_the_function(tmp_path, monkeypatch):
    import importlib.util
    import sys

    import mindspore as ms
    import numpy as np
    import pytest

    from mindtorch.torch import _ms

    (tmp_path / "mt_forbidden_probe.py").write_text("def double(x):\n    return x * 2\n")
    spec = importlib.util.spec_from_file_location("mt_forbidden_probe", tmp_path / "mt_forbidden_probe.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setitem(sys.modules, "mt_forbidden_probe", mod)  # MindSpore's parser resolves names by module
    double = mod.double

    def f(x):
        return double(x)

    def g(x):
        return double(x)

    assert not _ms.is_module_forbidden_in_graph("mt_forbidden_probe")
    np.testing.assert_array_equal(ms.jit(f)(ms.Tensor(np.ones(2, np.float32))).asnumpy(), [2.0, 2.0])
    _ms.forbid_module_in_graph("mt_forbidden_probe")
    assert _ms.is_module_forbidden_in_graph("mt_forbidden_probe")
    with pytest.raises(RuntimeError, match="mt_forbidden_probe.double' is not supported"):
        ms.jit(g)(ms.Tensor(np.ones(2, np.float32)))


# ---------------------------------------------------------------- @ms.jit eager fallback (graph mode, issue 9)
def test_install_jit_call_hook_sees_every_ast_jit_call_and_can_return_mindspores_result():
    import mindspore as ms
    import numpy as np

    from mindtorch.torch import _ms
    from mindtorch.torch.jit import _graph

    seen = []

    def hook(fn, compiled, args, kwargs):
        seen.append((fn.__name__, len(args)))
        return compiled() if fn.__name__ == "native" else ("eager", fn(*args, **kwargs))

    def native(x):
        return x * 2

    def other(x):
        return x + 1

    x = ms.Tensor(np.ones(2, np.float32))
    try:
        _ms.install_jit_call_hook(hook)
        np.testing.assert_array_equal(ms.jit(native)(x).asnumpy(), [2.0, 2.0])  # MindSpore's compiled call
        tag, out = ms.jit(other)(x)
        assert tag == "eager"
        np.testing.assert_array_equal(out.asnumpy(), [2.0, 2.0])
    finally:
        _ms.install_jit_call_hook(_graph._jit_call)  # mindtorch's own hook back
    assert seen == [("native", 1), ("other", 1)]


def test_pynative_mode_scope_switches_back_without_growing_the_context_stack():
    import mindspore as ms

    from mindtorch.torch import _ms

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        depth = len(_ms.CONTEXT._context_switches.context_stack)
        for _ in range(3):
            with _ms.pynative_mode():
                assert ms.get_context("mode") == ms.PYNATIVE_MODE and not _ms.is_graph_mode()
            assert ms.get_context("mode") == ms.GRAPH_MODE and _ms.is_graph_mode()
        assert len(_ms.CONTEXT._context_switches.context_stack) == depth
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    with _ms.pynative_mode():  # already PyNative: nothing to switch
        assert ms.get_context("mode") == ms.PYNATIVE_MODE
    assert ms.get_context("mode") == ms.PYNATIVE_MODE


# ---------------------------------------------------------------- backward kernels used by custom nodes
def test_conv2d_backprop_filter_is_the_weight_gradient_of_conv2d():
    import mindspore as ms
    import numpy as np
    from mindspore import ops

    from mindtorch.torch import _ms

    rng = np.random.RandomState(0)
    x = ms.Tensor(rng.randn(2, 3, 7, 7).astype(np.float32))
    w = ms.Tensor(rng.randn(4, 3, 3, 3).astype(np.float32))
    conv = ops.Conv2D(4, 3, pad_mode="pad", pad=1, stride=2)
    out = conv(x, w)
    dout = ms.Tensor(rng.randn(*out.shape).astype(np.float32))
    expected = ms.grad(lambda w_: (conv(x, w_) * dout).sum(), grad_position=0)(w)
    pads = (1, 1, 1, 1)
    prim = _ms.conv2d_backprop_filter(4, (3, 3), pad_mode="pad", pad=pads, pad_list=pads, mode=1, stride=(2, 2),
                                      dilation=(1, 1), group=1)
    np.testing.assert_allclose(prim(dout, x, w.shape).asnumpy(), expected.asnumpy(), rtol=1e-4, atol=1e-4)


def test_lstm_grad_matches_mindspores_gradient_of_the_fused_lstm():
    import mindspore as ms
    import numpy as np
    from mindspore import ops

    from mindtorch.torch import _ms

    rng = np.random.RandomState(1)
    t, b, i, h = 4, 2, 3, 5
    x = ms.Tensor(rng.randn(t, b, i).astype(np.float32))
    h0 = ms.Tensor(rng.randn(1, b, h).astype(np.float32))
    c0 = ms.Tensor(rng.randn(1, b, h).astype(np.float32))
    w = ms.Tensor(rng.randn(4 * h * (i + h) + 8 * h, 1, 1).astype(np.float32) * 0.3)
    lstm = ops.LSTM(i, h, 1, True, False, 0.0)
    y, hy, cy, reserve, _ = lstm(x, h0, c0, w)
    dy = ms.Tensor(rng.randn(*y.shape).astype(np.float32))
    zeros = ms.Tensor(np.zeros(hy.shape, np.float32))
    dx, dh, dc, dw = _ms.lstm_grad(i, h, 1, True, False, 0.0)(x, h0, c0, w, y, hy, cy, dy, zeros, zeros, reserve)
    ex = ms.grad(lambda x_, w_: (lstm(x_, h0, c0, w_)[0] * dy).sum(), grad_position=(0, 1))(x, w)
    np.testing.assert_allclose(dx.asnumpy(), ex[0].asnumpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dw.asnumpy().reshape(-1), ex[1].asnumpy().reshape(-1), rtol=1e-4, atol=1e-5)
