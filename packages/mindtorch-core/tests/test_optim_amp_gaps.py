"""torch 1.12 behaviours of optimizers, GradScaler, channel dropout and deepcopy, against real torch (2.13 here,
where it agrees with 1.12; where it does not, the test says so and asserts 1.12's behaviour).

1. The Adam family's `state['step']` (and ASGD's eta/mu, NAdam's mu_product) is a float32 0-d tensor updated in
   place while training, so `opt.state[p]['step'].item()` works.
2. torch.cuda.amp.GradScaler without CUDA (here: MindSpore's CPU target) warns and disables itself.
3. F.dropout1d/2d/3d draw one keep/drop per (dim 0, dim 1) pair as torch 1.12 does for every rank, with its
   warnings (a 3-D input to dropout2d is (N, C, L), not an unbatched (C, H, W)).
4. copy.deepcopy of a leaf keeps requires_grad and .grad; a non-leaf raises.
"""
import copy
import io
import pickle
import re
import warnings

import numpy as np
import pytest
from _compare import assert_same, dtype_name

import mindtorch.torch as mt

W0 = np.array([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], dtype=np.float32)


# ------------------------------------------------------------------------------ 1. optimizer scalar state
def _train(T, name, steps, kw=None, w0=W0):
    p = T.nn.Parameter(T.tensor(w0))
    opt = getattr(T.optim, name)([p], **(kw or {}))
    _more(T, opt, p, steps)
    return p, opt


def _more(T, opt, p, steps):
    for _ in range(steps):
        opt.zero_grad()
        ((p - 0.3) ** 2).sum().backward()
        opt.step()


TENSOR_STEP = ["Adam", "AdamW", "Adagrad", "Adamax", "NAdam", "RAdam", "ASGD"]
# torch 1.12's other float32 0-d state tensors (torch 2.13 stores the same values)
EXTRA_SCALARS = {"ASGD": ("eta", "mu"), "NAdam": ("mu_product",)}
KW = {"ASGD": {"t0": 2, "lambd": 0.01}}  # t0=2: mu leaves 1 within the test's steps


def _assert_scalar_like_torch(mine, ref):
    assert type(mine) is mt.Tensor and type(ref).__name__ == "Tensor"
    assert dtype_name(mine.dtype) == dtype_name(ref.dtype) == "float32"
    assert tuple(mine.shape) == tuple(ref.shape) == ()
    assert mine.item() == ref.item()


@pytest.mark.parametrize("name", TENSOR_STEP)
def test_step_state_is_a_float32_tensor_updated_in_place(reftorch, name):
    runs = {}
    for T in (mt, reftorch):
        p, opt = _train(T, name, 2, KW.get(name))
        state = opt.state[p]
        held = {k: state[k] for k in ("step", *EXTRA_SCALARS.get(name, ()))}
        assert state["step"].item() == 2.0  # the user code that failed: a Python float has no .item()
        _more(T, opt, p, 2)
        for k, t in held.items():
            assert state[k] is t, k  # the same tensor, written in place (`step_t += 1`, `eta.copy_(...)`)
        runs[T] = (p, state)
    (p, state), (rp, rstate) = runs[mt], runs[reftorch]
    for k in held:
        _assert_scalar_like_torch(state[k], rstate[k])
    if name != "NAdam":  # 2.13's NAdam changed its look-ahead term (test_optim_interop checks 1.12's)
        assert_same(p.detach(), rp.detach())


def test_step_read_each_step_from_the_tensor(reftorch):
    """A user's in-place change to state['step'], or a tensor put in its place, is what the next step uses."""
    out = {}
    for T in (mt, reftorch):
        p, opt = _train(T, "Adam", 3, {"lr": 0.1})
        opt.state[p]["step"].zero_()  # bias corrections restart at step 1
        _more(T, opt, p, 1)
        assert opt.state[p]["step"].item() == 1.0
        mine = T.tensor(10.0)
        opt.state[p]["step"] = mine
        _more(T, opt, p, 1)
        assert opt.state[p]["step"] is mine and mine.item() == 11.0
        out[T] = p.detach().numpy().copy()
    np.testing.assert_allclose(out[mt], out[reftorch], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("saved_step", [3.0, 3, "torch"], ids=["float", "int", "torch-tensor"])
def test_load_state_dict_with_any_step_form_gives_a_tensor(reftorch, saved_step):
    """Older mindtorch saved float steps (torch < 1.12 ints); torch saves tensors: all load as 1.12's tensor."""
    p, opt = _train(mt, "Adam", 3)
    sd = opt.state_dict()
    if saved_step == "torch":
        rp, ropt = _train(reftorch, "Adam", 3)
        buf = io.BytesIO()
        reftorch.save(ropt.state_dict(), buf)
        sd = mt.load(io.BytesIO(buf.getvalue()))
    else:
        sd["state"][0]["step"] = saved_step
    p2 = mt.nn.Parameter(mt.tensor(W0))
    opt2 = mt.optim.Adam([p2])
    opt2.load_state_dict(sd)
    step = opt2.state[p2]["step"]
    assert type(step) is mt.Tensor and step.dtype == mt.float32 and step.shape == () and step.item() == 3.0
    _more(mt, opt2, p2, 1)
    assert opt2.state[p2]["step"] is step and step.item() == 4.0
    assert opt2.state_dict()["state"][0]["step"].item() == 4.0


def test_copied_optimizers_count_their_own_steps():
    p, opt = _train(mt, "Adam", 2)
    twin = copy.deepcopy(opt)
    pickled = pickle.loads(pickle.dumps(opt.state_dict()))
    _more(mt, opt, p, 3)
    assert opt.state[p]["step"].item() == 5.0
    (twin_state,) = twin.state.values()
    assert twin_state["step"].item() == 2.0 and pickled["state"][0]["step"].item() == 2.0


def test_scalar_state_off_host_memory(monkeypatch):
    """Targets whose tensors are not in host memory (GPU/Ascend): a new host 0-d tensor per write, same values."""
    from mindtorch.torch import _ms

    p_host, opt_host = _train(mt, "ASGD", 4, KW["ASGD"])
    monkeypatch.setattr(_ms, "HOST_MEMORY", False)
    p, opt = _train(mt, "ASGD", 4, KW["ASGD"])
    for k in ("step", "eta", "mu"):
        mine, host = opt.state[p][k], opt_host.state[p_host][k]
        assert type(mine) is mt.Tensor and mine.dtype == mt.float32 and mine.shape == ()
        assert mine.item() == host.item(), k
    np.testing.assert_allclose(p.detach().numpy(), p_host.detach().numpy(), rtol=1e-6)


def test_int_steps_stay_ints():
    """torch 1.12 counts Adadelta/RMSprop/Rprop steps in Python ints (torch 2.x: tensors)."""
    for name in ("Adadelta", "RMSprop", "Rprop"):
        p, opt = _train(mt, name, 2)
        assert type(opt.state[p]["step"]) is int and opt.state[p]["step"] == 2


# ---------------------------------------------------------------------------------------- 2. GradScaler
NO_CUDA = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


def _scaler_run(T, scaler):
    p = T.nn.Parameter(T.tensor(W0))
    opt = T.optim.SGD([p], lr=0.1)
    loss = ((p - 0.3) ** 2).sum()
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    return loss, scaled, p.detach().numpy().copy()


def test_cuda_grad_scaler_without_cuda_is_disabled(reftorch):
    assert not mt.cuda.is_available() and not reftorch.cuda.is_available()
    out = {}
    for T in (mt, reftorch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scaler = T.cuda.amp.GradScaler()
        # (torch 2.13 also warns that torch.cuda.amp.GradScaler is deprecated: a FutureWarning 1.12 lacks)
        assert [str(w.message) for w in caught if w.category is UserWarning] == [NO_CUDA]
        assert not scaler.is_enabled() and scaler.get_scale() == 1.0 and scaler.state_dict() == {}
        scaler.load_state_dict({})  # a no-op when disabled
        loss, scaled, w = _scaler_run(T, scaler)
        assert scaled is loss  # scale() returns its input; step() is a plain optimizer.step()
        out[T] = w
    np.testing.assert_allclose(out[mt], out[reftorch], rtol=1e-6)
    np.testing.assert_allclose(out[mt], W0 - 0.1 * 2 * (W0 - 0.3), rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # enabled=False: no warning
        assert not mt.cuda.amp.GradScaler(enabled=False).is_enabled()
        assert mt.amp.GradScaler("cpu").is_enabled()  # torch >= 2.3's CPU scaler stays on


def test_cuda_grad_scaler_stays_enabled_on_an_accelerator(monkeypatch):
    """torch.cuda is the MindSpore GPU/Ascend device when there is one: scaling as in torch 1.12."""
    monkeypatch.setattr(mt.cuda, "is_available", lambda: True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scaler = mt.cuda.amp.GradScaler()
    assert scaler.is_enabled()
    loss, scaled, w = _scaler_run(mt, scaler)
    assert scaled.item() == pytest.approx(loss.item() * 65536.0)
    np.testing.assert_allclose(w, W0 - 0.1 * 2 * (W0 - 0.3), rtol=1e-6)
    assert scaler.state_dict()["scale"] == 65536.0


def test_amp_module_names_of_torch_112(reftorch):
    from mindtorch.torch.cuda.amp import autocast_mode, common, grad_scaler

    assert grad_scaler.GradScaler is mt.cuda.amp.GradScaler and grad_scaler.OptState.READY.value == 0
    assert autocast_mode.autocast is mt.cuda.amp.autocast
    assert common.amp_definitely_not_available() is (not mt.cuda.is_available())
    assert issubclass(mt.cuda.amp.GradScaler, mt.amp.GradScaler)  # as in torch 2.x
    for mod in ("amp", "cpu.amp", "cuda.amp"):
        assert hasattr(eval(f"mt.{mod}"), "autocast") and hasattr(eval(f"reftorch.{mod}"), "autocast")
    # mindtorch only: torch.amp.GradScaler's first argument is the device (torch >= 2.3); a number is refused
    # rather than silently taken as the device
    with pytest.raises(TypeError, match="device must be a str"):
        mt.amp.GradScaler(1024.0)


# -------------------------------------------------------------------------------------- 3. channel dropout
def _drawn_axes(out, p=0.5):
    """The axes along which the zero mask varies, after checking the survivors are scaled by 1/(1-p)."""
    a = out.detach().numpy()
    assert set(np.unique(a)) <= {0.0, 1 / (1 - p)}
    zero = a == 0
    return {ax for ax in range(a.ndim) if not (zero == zero.take([0], axis=ax)).all()}


def _call(T, fn, shape, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = getattr(T.nn.functional, fn)(T.ones(*shape), 0.5, **kw)
    return out, [str(w.message) for w in caught if w.category is UserWarning]


DROPOUT_CASES = [  # fn, input shape, axes that get their own draws in torch 1.12
    ("dropout2d", (16, 24, 6), {0, 1}),  # 3-D: (N, C, L), not an unbatched (C, H, W)
    ("dropout2d", (16, 24, 2, 3), {0, 1}),
    ("dropout2d", (24, 24), {0, 1}),  # 2-D: element-wise (deprecated)
    ("dropout2d", (8, 24, 2, 2, 2), {0, 1}),
    ("dropout1d", (48, 6), {0}),  # unbatched (C, L)
    ("dropout1d", (16, 24, 6), {0, 1}),
    ("dropout3d", (48, 2, 2, 2), {0}),  # unbatched (C, D, H, W)
    ("dropout3d", (16, 24, 2, 2, 2), {0, 1}),
    ("dropout3d", (48, 4, 4), {0}),  # other ranks: unbatched too (deprecated)
    ("dropout3d", (48, 6), {0}),
    ("dropout3d", (48, 3, 2, 2, 2, 2), {0}),
]


@pytest.mark.parametrize("fn,shape,axes", DROPOUT_CASES, ids=[f"{c[0]}-{len(c[1])}d" for c in DROPOUT_CASES])
def test_channel_dropout_masks_and_warnings_match_torch(reftorch, fn, shape, axes):
    mine, mine_warned = _call(mt, fn, shape)
    ref, ref_warned = _call(reftorch, fn, shape)
    assert tuple(mine.shape) == tuple(ref.shape) == shape
    assert _drawn_axes(mine) == _drawn_axes(ref) == axes
    assert 0.25 < float((mine.numpy() == 0).mean()) < 0.75
    assert mine_warned == ref_warned


def test_dropout2d_3d_input_warning_text_and_module():
    msg = ("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired "
           "- input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will change in a "
           "future release to interpret the input as one without a batch dimension, i.e. shape (C, H, W). To "
           "maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.")
    x = mt.ones(16, 24, 6)
    with pytest.warns(UserWarning, match=re.escape(msg)):
        out = mt.nn.Dropout2d()(x)
    assert _drawn_axes(out) == {0, 1}
    with pytest.warns(UserWarning, match=re.escape(msg)):
        same = mt.nn.functional.dropout2d(x, 0.5, inplace=True)
    assert same is x and _drawn_axes(x) == {0, 1}


def test_channel_dropout_errors_and_eval_match_torch(reftorch):
    for T in (mt, reftorch):
        F = T.nn.functional
        with pytest.raises(RuntimeError, match=re.escape(
                "dropout1d: Expected 2D or 3D input, but received a 4D input. Note that dropout1d exists to provide "
                "channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch "
                "dimension (i.e. 2D or 3D inputs).")):
            F.dropout1d(T.ones(2, 3, 4, 5))
        with pytest.warns(UserWarning, match="Received a 1-D input to dropout2d"):
            with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions in the input"):
                F.dropout2d(T.ones(5), 0.5)
        with pytest.warns(UserWarning, match="Received a 1-D input to dropout2d"):  # not training: no rank check
            assert_same(F.dropout2d(T.ones(5), 0.5, training=False), T.ones(5))
        with pytest.warns(UserWarning, match="Received a 0-D input to dropout3d"):
            with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions in the input"):
                F.dropout3d(T.ones(()), 0.5)
        with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
            F.dropout2d(T.ones(2, 3, 4, 4), 1.5)


# ---------------------------------------------------------------------------------------------- 4. deepcopy
def _leaf_with_grad(T):
    x = T.tensor(W0, requires_grad=True)
    (x * x).sum().backward()
    return x


def test_deepcopy_keeps_requires_grad_and_grad(reftorch):
    for T in (mt, reftorch):
        x = _leaf_with_grad(T)
        x.note = {"tag": [1]}
        y = copy.deepcopy(x)
        assert y is not x and y.requires_grad and y.is_leaf and y.grad_fn is None
        assert y.grad is not x.grad and np.array_equal(y.grad.numpy(), 2 * W0)
        assert y.note == x.note and y.note is not x.note
        box = copy.deepcopy({"a": [x, x], "b": 1})
        assert box["a"][0] is box["a"][1] and box["a"][0].requires_grad
        assert np.array_equal(box["a"][0].grad.numpy(), 2 * W0)
        with T.no_grad():
            y.add_(1.0)
        assert np.array_equal(x.detach().numpy(), W0)  # separate storage
        (y * 3).sum().backward()  # the copy is a leaf of its own
        assert np.array_equal(y.grad.numpy(), 2 * W0 + 3) and np.array_equal(x.grad.numpy(), 2 * W0)
        plain = copy.deepcopy(T.tensor(W0))
        assert not plain.requires_grad and plain.grad is None


def test_deepcopy_after_zero_grad_keeps_zero_grad(reftorch):
    for T in (mt, reftorch):
        x = _leaf_with_grad(T)
        T.optim.SGD([x], lr=0.1).zero_grad(set_to_none=False)  # torch 1.12's default (2.x: set_to_none=True)
        y = copy.deepcopy(x)
        assert np.array_equal(y.grad.numpy(), np.zeros_like(W0))


def test_deepcopy_of_non_leaf_raises_like_torch(reftorch):
    msgs = []
    for T in (mt, reftorch):
        x = T.tensor(W0, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            copy.deepcopy({"y": x * 2})
        msgs.append(str(info.value))
    msg_112 = "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment"
    assert msgs[0] == msg_112 and msgs[1].startswith(msg_112)  # 2.13 appends a hint about weight_norm
