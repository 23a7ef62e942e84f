"""nn.Module / nn.Parameter / containers, compared with real PyTorch.

The same module trees are built in real torch and in mindtorch by one factory (`build(lib)`), so names, order,
printing, state_dict keys and load_state_dict reporting can be compared one to one.
"""
import copy
import pickle
from collections import OrderedDict

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch import nn

RNG = np.random.default_rng(0)


def _t(lib, arr):
    return lib.tensor(np.asarray(arr))


def _classes(lib):
    """Custom Linear-like / BN-like modules written once, instantiated against either library."""
    nnm = lib.nn

    class Lin(nnm.Module):
        def __init__(self, i, o, bias=True):
            super().__init__()
            self.in_features, self.out_features = i, o
            self.weight = nnm.Parameter(_t(lib, RNG.standard_normal((o, i)).astype(np.float32)))
            if bias:
                self.bias = nnm.Parameter(_t(lib, np.zeros(o, np.float32)))
            else:
                self.register_parameter("bias", None)

        def forward(self, x):
            out = x @ self.weight.T
            return out if self.bias is None else out + self.bias

        def extra_repr(self):
            return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"

    class Norm(nnm.Module):
        def __init__(self, n):
            super().__init__()
            self.weight = nnm.Parameter(_t(lib, np.ones(n, np.float32)))
            self.register_buffer("running_mean", _t(lib, np.zeros(n, np.float32)))
            self.register_buffer("num_batches_tracked", _t(lib, np.array(0, np.int64)))
            self.register_buffer("scratch", _t(lib, np.zeros(n, np.float32)), persistent=False)

        def forward(self, x):
            return x * self.weight

    class Block(nnm.Module):
        def __init__(self, n):
            super().__init__()
            self.conv1 = Lin(n, n)
            self.bn1 = Norm(n)
            self.conv2 = Lin(n, n, bias=False)

        def forward(self, x):
            return self.conv2(self.bn1(self.conv1(x))) + x

    class Net(nnm.Module):
        def __init__(self):
            super().__init__()
            self.stem = Lin(3, 4)
            self.layer1 = nnm.Sequential(Block(4), Block(4))
            self.heads = nnm.ModuleDict({"cls": Lin(4, 2), "box": Lin(4, 4)})
            self.extra = nnm.ModuleList([Norm(4)])
            self.scale = nnm.Parameter(_t(lib, np.ones(1, np.float32)))

        def forward(self, x):
            x = self.layer1(self.stem(x))
            return self.heads["cls"](x) * self.scale

    return Lin, Norm, Block, Net


def _shapes(named):
    return [(k, tuple(v.shape)) for k, v in named]


def _to_numpy_state(sd):
    return OrderedDict((k, v.detach().numpy().copy()) for k, v in sd.items())


# ------------------------------------------------------------------------------------------- structure
def test_names_order_and_shapes_match_torch(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    assert _shapes(mine.named_parameters()) == _shapes(ref.named_parameters())
    assert _shapes(mine.named_buffers()) == _shapes(ref.named_buffers())
    assert list(mine.state_dict().keys()) == list(ref.state_dict().keys())
    assert _shapes(mine.state_dict().items()) == _shapes(ref.state_dict().items())
    assert [n for n, _ in mine.named_modules()] == [n for n, _ in ref.named_modules()]
    assert [n for n, _ in mine.named_children()] == [n for n, _ in ref.named_children()]
    assert [type(m).__name__ for m in mine.modules()] == [type(m).__name__ for m in ref.modules()]
    assert _shapes(mine.named_parameters(prefix="model", recurse=False)) == \
        _shapes(ref.named_parameters(prefix="model", recurse=False))
    assert _shapes(mine.layer1.named_buffers(prefix="l1")) == _shapes(ref.layer1.named_buffers(prefix="l1"))
    assert len(list(mine.parameters())) == len(list(ref.parameters()))
    assert len(list(mine.buffers(recurse=False))) == len(list(ref.buffers(recurse=False)))


def test_print_matches_torch(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    assert repr(mine) == repr(ref)
    assert str(mine.layer1[0]) == str(ref.layer1[0])


def test_parameters_are_torch_tensors_and_mindspore_parameters_with_unique_path_names():
    net = _classes(torch)[3]()
    names = [p.name for p in net.parameters()]
    assert names == [n for n, _ in net.named_parameters()]
    for p in net.parameters():
        assert isinstance(p, torch.Tensor) and isinstance(p, ms.Parameter) and isinstance(p, nn.Parameter)
    assert [p.name for p in net.trainable_params()] == names
    net.stem.requires_grad_(False)
    assert [p.name for p in net.trainable_params()] == [n for n in names if not n.startswith("stem.")]


def test_shared_parameters_and_modules_deduplicated_like_torch(reftorch):
    def build(lib):
        Lin = _classes(lib)[0]
        a = Lin(2, 2)
        m = lib.nn.Sequential(a, Lin(2, 2), a)
        m[1].weight = a.weight
        return m

    mine, ref = build(torch), build(reftorch)
    assert _shapes(mine.named_parameters()) == _shapes(ref.named_parameters())
    assert _shapes(mine.named_parameters(remove_duplicate=False)) == \
        _shapes(ref.named_parameters(remove_duplicate=False))
    assert [n for n, _ in mine.named_modules()] == [n for n, _ in ref.named_modules()]
    assert [n for n, _ in mine.named_modules(remove_duplicate=False)] == \
        [n for n, _ in ref.named_modules(remove_duplicate=False)]
    assert list(mine.state_dict()) == list(ref.state_dict())


def test_parameter_names_stay_unique_after_replacing_a_deep_submodule():
    Lin, _, _, Net = _classes(torch)
    net = Net()
    net.layer1[1].conv1 = Lin(4, 4)  # gets local names 'conv1.weight' that collide with layer1.0's? no: re-derived
    net(torch.randn(2, 3))
    names = [p.name for p in net.parameters()]
    assert len(set(names)) == len(names)
    ms.ParameterTuple(net.trainable_params())  # MindSpore refuses duplicate names here


# ------------------------------------------------------------------------------------ attribute errors
def test_attribute_registration_errors_match_torch(reftorch):
    for lib in (torch, reftorch):
        Lin = _classes(lib)[0]
        m = Lin(2, 2)
        with pytest.raises(TypeError) as e:
            m.weight = _t(lib, np.ones((2, 2), np.float32))
        assert "cannot assign" in str(e.value) and "as parameter 'weight'" in str(e.value)
        with pytest.raises(KeyError, match="already exists"):
            m.register_buffer("in_features", _t(lib, np.ones(1)))
        with pytest.raises(KeyError):
            m.register_parameter("a.b", None)
        with pytest.raises(TypeError):
            m.register_buffer("buf", 3)
        with pytest.raises(TypeError):
            m.add_module("x", 3)
        with pytest.raises(AttributeError, match="object has no attribute 'nope'"):
            m.nope
        m.weight = None  # allowed: clears the parameter
        assert m.weight is None and "weight" in m._parameters
        m.register_buffer("buf", _t(lib, np.ones(2, np.float32)))
        m.buf = _t(lib, np.zeros(3, np.float32))
        assert tuple(m.buf.shape) == (3,)
        del m.buf
        assert "buf" not in m._buffers


def test_get_submodule_parameter_buffer_like_torch(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    assert type(mine.get_submodule("layer1.0.bn1")).__name__ == type(ref.get_submodule("layer1.0.bn1")).__name__
    assert tuple(mine.get_parameter("layer1.1.conv1.weight").shape) == \
        tuple(ref.get_parameter("layer1.1.conv1.weight").shape)
    assert tuple(mine.get_buffer("layer1.0.bn1.running_mean").shape) == (4,)
    for target, getter in [("layer1.9", "get_submodule"), ("stem.nope", "get_parameter"),
                           ("stem.weight", "get_buffer"), ("layer1.0.bn1.running_mean", "get_parameter")]:
        with pytest.raises(AttributeError) as em:
            getattr(mine, getter)(target)
        with pytest.raises(AttributeError) as er:
            getattr(ref, getter)(target)
        assert str(em.value) == str(er.value)


def test_reserved_cell_names_raise_clear_errors():
    with pytest.raises(TypeError, match="'cells'.*mindspore.nn.Cell.*Rename"):
        class Bad(nn.Module):  # noqa: F841
            def cells(self):
                return []

    with pytest.raises(TypeError, match="'cast'"):
        class Bad2(nn.Module):  # noqa: F841
            def cast(self, x):
                return x

    m = nn.Module()
    for name in ("phase", "cells", "cast"):
        with pytest.raises(AttributeError, match=f"'{name}' is reserved.*rename it|Rename it"):
            setattr(m, name, 1)
    with pytest.raises(AttributeError, match="reserved"):
        m.add_module("cells", nn.Module())


def test_init_takes_no_arguments_and_forward_missing_raises_like_torch(reftorch):
    with pytest.raises(TypeError):
        nn.Module(3)
    with pytest.raises(TypeError):
        reftorch.nn.Module(3)
    with pytest.raises(NotImplementedError) as em:
        nn.Module()(1)
    with pytest.raises(NotImplementedError) as er:
        reftorch.nn.Module()(1)
    assert str(em.value) == str(er.value)


def test_mindspore_style_construct_subclass_is_called():
    class MsStyle(nn.Module):
        def construct(self, x):
            return x * 2

    np.testing.assert_array_equal(MsStyle()(torch.tensor([1.0, 2.0])).numpy(), np.array([2.0, 4.0], np.float32))


# ------------------------------------------------------------------------------------------ state_dict
def test_state_dict_values_share_memory_and_are_detached():
    Lin = _classes(torch)[0]
    m = Lin(2, 3)
    sd = m.state_dict()
    assert not isinstance(sd["weight"], nn.Parameter) and isinstance(sd["weight"], torch.Tensor)
    m.weight.data.numpy()[0, 0] = 42.0
    assert float(sd["weight"][0, 0]) == 42.0
    assert m.state_dict(keep_vars=True)["weight"] is m.weight
    assert sd._metadata[""] == {"version": 1}


def test_load_state_dict_from_real_torch(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    with reftorch.no_grad():
        for p in ref.parameters():
            p.copy_(reftorch.randn(p.shape))
        ref.layer1[0].bn1.num_batches_tracked.fill_(7)
    sd = {k: torch.from_numpy(v) for k, v in _to_numpy_state(ref.state_dict()).items()}
    before = [id(p) for p in mine.parameters()]
    result = mine.load_state_dict(sd)
    assert repr(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert [id(p) for p in mine.parameters()] == before  # in place: optimizers keep their references
    for (k, v), (k2, r) in zip(mine.state_dict().items(), ref.state_dict().items()):
        assert k == k2
        assert_same(v, r)
    # the loaded values are copies: changing the source does not touch the module
    sd["stem.weight"].numpy()[...] = 0
    assert float(mine.stem.weight.abs().sum()) > 0


def test_load_state_dict_missing_unexpected_and_errors_match_torch(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    base = _to_numpy_state(ref.state_dict())
    del base["layer1.1.bn1.running_mean"], base["scale"]
    base["layer1.0.conv1.extra"] = np.zeros(1, np.float32)
    base["unknown.weight"] = np.zeros(1, np.float32)
    mine_sd = {k: torch.from_numpy(v) for k, v in base.items()}
    ref_sd = {k: reftorch.from_numpy(v) for k, v in base.items()}
    res_m = mine.load_state_dict(mine_sd, strict=False)
    res_r = ref.load_state_dict(ref_sd, strict=False)
    assert res_m.missing_keys == res_r.missing_keys and res_m.unexpected_keys == res_r.unexpected_keys
    assert repr(res_m) == repr(res_r)
    with pytest.raises(RuntimeError) as em:
        mine.load_state_dict(mine_sd)
    with pytest.raises(RuntimeError) as er:
        ref.load_state_dict(ref_sd)
    assert str(em.value) == str(er.value)

    bad = _to_numpy_state(ref.state_dict())
    bad["stem.weight"] = np.zeros((5, 5), np.float32)
    with pytest.raises(RuntimeError) as em:
        mine.load_state_dict({k: torch.from_numpy(v) for k, v in bad.items()})
    with pytest.raises(RuntimeError) as er:
        ref.load_state_dict({k: reftorch.from_numpy(v) for k, v in bad.items()})
    assert str(em.value) == str(er.value)
    with pytest.raises(TypeError):
        mine.load_state_dict([1, 2])


def test_load_state_dict_hooks_and_override_point():
    _, Norm, _, _ = _classes(torch)

    class OldFormat(Norm):
        def _load_from_state_dict(self, state_dict, prefix, *args):
            key = prefix + "num_batches_tracked"
            if key not in state_dict:  # what BatchNorm does for old checkpoints
                state_dict[key] = torch.tensor(np.array(0, np.int64))
            super()._load_from_state_dict(state_dict, prefix, *args)

    m = nn.Sequential(OldFormat(2))
    seen = []
    m[0].register_load_state_dict_post_hook(lambda mod, keys: seen.append(list(keys.missing_keys)))
    sd = m.state_dict()
    del sd["0.num_batches_tracked"]
    assert m.load_state_dict(sd).missing_keys == []
    assert seen == [[]]


def test_extra_state_round_trip():
    class WithExtra(nn.Module):
        def __init__(self):
            super().__init__()
            self.value = 1

        def get_extra_state(self):
            return {"value": self.value}

        def set_extra_state(self, state):
            self.value = state["value"]

    a, b = nn.Sequential(WithExtra()), nn.Sequential(WithExtra())
    a[0].value = 5
    sd = a.state_dict()
    assert list(sd) == ["0._extra_state"]
    b.load_state_dict(sd)
    assert b[0].value == 5


# ------------------------------------------------------------------------------ train / apply / hooks
def test_train_eval_flags_and_mindspore_cell_children(reftorch):
    mine = _classes(torch)[3]()
    mine.add_module("ms_dense", ms.nn.Dense(2, 2))
    assert all(m.training for m in mine.modules() if isinstance(m, nn.Module))  # torch's default: training
    assert mine.ms_dense.training is False  # a MindSpore Cell starts in inference mode ...
    assert mine.train() is mine and mine.ms_dense.training is True  # ... and follows train()/eval()
    assert mine.eval() is mine
    assert not any(m.training for m in mine.modules())
    assert mine.ms_dense.training is False
    mine.layer1.train()
    assert [m.training for _, m in mine.named_modules()][:3] == [False, False, True]
    with pytest.raises(ValueError):
        mine.train("yes")
    mine.set_train(True)  # MindSpore's API on a torch module
    assert all(m.training for m in mine.modules())


def test_apply_order_matches_torch(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    order_m, order_r = [], []
    mine.apply(lambda m: order_m.append(type(m).__name__))
    ref.apply(lambda m: order_r.append(type(m).__name__))
    assert order_m == order_r


def test_forward_hooks_order_modify_and_remove_like_torch(reftorch):
    def run(lib):
        Lin = _classes(lib)[0]
        m = Lin(2, 2)
        log = []
        h1 = m.register_forward_pre_hook(lambda mod, inp: log.append("pre1"))
        m.register_forward_pre_hook(lambda mod, inp: (log.append("pre2"), (inp[0] * 2,))[1])
        m.register_forward_hook(lambda mod, inp, out: log.append("post1"))
        h2 = m.register_forward_hook(lambda mod, inp, out: (log.append("post2"), out + 1)[1])
        m.register_forward_pre_hook(lambda mod, inp: log.append("pre0"), prepend=True)
        x = lib.from_numpy(np.ones((1, 2), np.float32))
        y1 = m(x)
        h1.remove()
        h2.remove()
        y2 = m(x)
        return log, y1, y2, m.weight.detach(), m.bias.detach()

    log_m, y1m, y2m, w, b = run(torch)
    log_r, _, _, _, _ = run(reftorch)
    assert log_m == log_r
    x2 = np.full((1, 2), 2.0, np.float32)
    expected = x2 @ w.numpy().T + b.numpy()
    np.testing.assert_allclose(y1m.detach().numpy(), expected + 1, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(y2m.detach().numpy(), expected, rtol=1e-6, atol=1e-6)


def test_forward_hooks_with_kwargs_and_global_hooks():
    from mindtorch.torch.nn.modules.module import register_module_forward_hook

    class Add(nn.Module):
        def forward(self, x, k=0):
            return x + k

    m = Add()
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"k": 10}), with_kwargs=True)
    m.register_forward_hook(lambda mod, args, kwargs, out: out * kwargs["k"], with_kwargs=True)
    assert int(m(torch.tensor(1), k=0)) == 110
    seen = []
    h = register_module_forward_hook(lambda mod, inp, out: seen.append(type(mod).__name__))
    try:
        nn.Sequential(Add())(torch.tensor(1))
    finally:
        h.remove()
    assert seen == ["Add", "Sequential"]


def _hooked_lin(lib, weights=None):
    m = _classes(lib)[0](3, 2)
    if weights is not None:
        m.load_state_dict({k: lib.from_numpy(v) for k, v in weights.items()})
    got = []
    m.register_full_backward_hook(lambda mod, gi, go: got.append((gi[0].detach().numpy().copy(),
                                                                  go[0].detach().numpy().copy())))
    return m, got


def _ref_hook_grads(reftorch):
    m, got = _hooked_lin(reftorch)
    x = reftorch.arange(6, dtype=reftorch.float32).reshape(2, 3).requires_grad_(True)
    m(x).pow(2).sum().backward()
    return _to_numpy_state(m.state_dict()), got


def test_full_backward_hook_with_value_and_grad(reftorch):
    weights, ref = _ref_hook_grads(reftorch)
    m, got = _hooked_lin(torch, weights)
    x = torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    ms.value_and_grad(lambda inp: (m(inp) ** 2).sum(), 0)(x)
    assert len(got) == len(ref) == 1
    np.testing.assert_allclose(got[0][0], ref[0][0], rtol=1e-5, atol=1e-5)  # grad_input
    np.testing.assert_allclose(got[0][1], ref[0][1], rtol=1e-5, atol=1e-5)  # grad_output


def test_full_backward_hook_with_loss_backward(reftorch):
    if not hasattr(torch.Tensor, "backward"):
        pytest.skip("Tensor.backward (autograd helper) not available yet")
    weights, ref = _ref_hook_grads(reftorch)
    m, got = _hooked_lin(torch, weights)
    x = torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3)).requires_grad_(True)
    m(x).pow(2).sum().backward()
    assert len(got) == len(ref) == 1
    np.testing.assert_allclose(got[0][0], ref[0][0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[0][1], ref[0][1], rtol=1e-5, atol=1e-5)


# -------------------------------------------------------------------------------------- dtype / device
def test_dtype_conversion_of_float_params_and_buffers_only(reftorch):
    mine, ref = _classes(torch)[3](), _classes(reftorch)[3]()
    for conv in (lambda m: m.half(), lambda m: m.double(), lambda m: m.float(), lambda m: m.to(dtype=None),
                 lambda m: m.bfloat16()):
        conv(mine), conv(ref)
        from _compare import dtype_name

        assert [dtype_name(v.dtype) for v in mine.state_dict().values()] == \
            [dtype_name(v.dtype) for v in ref.state_dict().values()]
    w = mine.stem.weight
    mine.to(torch.float64)
    assert mine.stem.weight is w and w.dtype == torch.float64
    with pytest.raises(TypeError):
        mine.to(torch.int32)
    mine.to("cuda:0")
    assert str(mine.stem.weight.device) == "cuda:0"
    assert mine.cpu().stem.weight.device.type == "cpu"
    mine.type(torch.float32)
    assert mine.stem.weight.dtype == torch.float32


# --------------------------------------------------------------------------- MindSpore APIs on modules
def _mlp(lib, w1, b1, w2):
    class MLP(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = lib.nn.Parameter(_t(lib, w1))
            self.b1 = lib.nn.Parameter(_t(lib, b1))
            self.w2 = lib.nn.Parameter(_t(lib, w2))

        def forward(self, x):
            return ((x @ self.w1.T + self.b1).relu() @ self.w2.T).pow(2).mean()

    return MLP()


def test_value_and_grad_over_module_parameters_matches_torch(reftorch):
    w1 = RNG.standard_normal((4, 3)).astype(np.float32)
    b1 = RNG.standard_normal(4).astype(np.float32)
    w2 = RNG.standard_normal((2, 4)).astype(np.float32)
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    mine, ref = _mlp(torch, w1, b1, w2), _mlp(reftorch, w1, b1, w2)
    loss_r = ref(reftorch.from_numpy(x))
    loss_r.backward()
    params = ms.ParameterTuple(mine.trainable_params())
    loss_m, grads = ms.value_and_grad(lambda inp: mine(inp), None, params)(torch.from_numpy(x))
    assert_same(torch.Tensor(loss_m), loss_r.detach(), rtol=1e-5)
    for g, p in zip(grads, ref.parameters()):
        assert_same(torch.Tensor(g), p.grad, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_auto_mixed_precision_runs_in_fp16_with_fp32_output(level):
    w1 = RNG.standard_normal((4, 3)).astype(np.float32)
    b1 = RNG.standard_normal(4).astype(np.float32)
    w2 = RNG.standard_normal((2, 4)).astype(np.float32)
    net = _mlp(torch, w1, b1, w2)
    x = torch.from_numpy(RNG.standard_normal((5, 3)).astype(np.float32))
    expected = float(net(x))
    amp_net = ms.amp.auto_mixed_precision(net, level)
    out = amp_net(x)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(float(out), expected, rtol=2e-2)
    loss, grads = ms.value_and_grad(lambda inp: amp_net(inp), None, ms.ParameterTuple(net.trainable_params()))(x)
    assert len(grads) == 3 and all(g.dtype == ms.float32 for g in grads)


def test_jit_function_calling_a_module():
    w1 = RNG.standard_normal((4, 3)).astype(np.float32)
    net = _mlp(torch, w1, np.zeros(4, np.float32), np.ones((2, 4), np.float32))

    class Plain(nn.Module):  # ms.jit parses construct; keep to MindSpore-parsable ops
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        # MindSpore-style `construct`: a torch-style `forward` is refused by graph compilation (jit/_graph.py)
        def construct(self, x):
            return ms.ops.matmul(x, self.inner.w1.T)

    p = Plain(net)

    @ms.jit
    def step(x):
        return p(x)

    x = torch.from_numpy(RNG.standard_normal((2, 3)).astype(np.float32))
    np.testing.assert_allclose(step(x).asnumpy(), x.numpy() @ w1.T, rtol=1e-5, atol=1e-5)


def test_custom_bprop_module_is_used_for_gradients(reftorch):
    pytest.importorskip("mindtorch.torch.autograd.bprop")

    class Scaled(nn.Module):
        def forward(self, a, b):
            return a * b

        def bprop(self, a, b, out, dout):  # deliberately not the true gradient: 10x it
            return dout * b * 10, dout * a * 10

    a = torch.from_numpy(np.array([1.0, 2.0], np.float32))
    b = torch.from_numpy(np.array([3.0, 4.0], np.float32))
    m = Scaled()
    _, (ga, gb) = ms.value_and_grad(lambda x, y: m(x, y).sum(), (0, 1))(a, b)
    ra = reftorch.tensor([1.0, 2.0], requires_grad=True)
    rb = reftorch.tensor([3.0, 4.0], requires_grad=True)
    (ra * rb).sum().backward()
    assert_same(torch.Tensor(ga), ra.grad * 10)
    assert_same(torch.Tensor(gb), rb.grad * 10)


def test_zero_grad_like_torch_1_12(reftorch):
    m = _classes(torch)[0](2, 2)
    m.weight.grad = torch.from_numpy(np.ones((2, 2), np.float32))
    m.zero_grad()  # torch 1.12 default: set_to_none=False -> zeros (2.x changed the default to None)
    assert_same(m.weight.grad, reftorch.zeros(2, 2))
    assert m.bias.grad is None
    m.zero_grad(set_to_none=True)
    assert m.weight.grad is None


# -------------------------------------------------------------------------------------------- Parameter
def test_parameter_basics_match_torch(reftorch):
    arr = np.arange(4, dtype=np.float32).reshape(2, 2)
    p, r = nn.Parameter(torch.from_numpy(arr.copy())), reftorch.nn.Parameter(reftorch.from_numpy(arr.copy()))
    assert repr(p) == repr(r)
    assert p.requires_grad and isinstance(p, torch.Tensor) and isinstance(p, ms.Parameter)
    q = nn.Parameter(torch.from_numpy(arr.copy()), requires_grad=False)
    assert repr(q) == repr(reftorch.nn.Parameter(reftorch.from_numpy(arr.copy()), requires_grad=False))
    p.requires_grad = False
    assert not p.requires_grad and not p.param_info.requires_grad
    assert p.requires_grad_() is p and p.requires_grad
    empty, empty_r = nn.Parameter(), reftorch.nn.Parameter()
    assert tuple(empty.shape) == tuple(empty_r.shape)
    # memory is shared with the source tensor, as in torch
    src = torch.from_numpy(arr.copy())
    shared = nn.Parameter(src)
    src[0, 0] = 100.0
    assert float(shared[0, 0]) == 100.0


def test_parameter_data_get_set_keeps_object():
    p = nn.Parameter(torch.from_numpy(np.ones((2, 2), np.float32)))
    d = p.data
    assert type(d) is torch.Tensor and not d.requires_grad
    p.data = torch.from_numpy(np.zeros((3,), np.float64))
    assert tuple(p.shape) == (3,) and p.dtype == torch.float64 and isinstance(p, nn.Parameter)


def test_parameter_deepcopy_and_pickle():
    p = nn.Parameter(torch.from_numpy(np.arange(3, dtype=np.float32)), requires_grad=False)
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is nn.Parameter and q is not p and q.requires_grad is False
        assert_same(q, p)
    m = _classes(torch)[3]()
    m2 = copy.deepcopy(m)
    assert m2.stem.weight is not m.stem.weight
    assert list(m2.state_dict()) == list(m.state_dict())
    for a, b in zip(m.state_dict().values(), m2.state_dict().values()):
        assert_same(a, b)
    assert m2(torch.randn(2, 3)).shape == (2, 2)


def test_mindspore_parameter_clone_used_by_its_optimizers():
    m = _classes(torch)[0](2, 2)
    opt = ms.nn.Adam(m.trainable_params(), learning_rate=0.1)  # clones every parameter with init='zeros'
    assert all(float(x.abs().sum()) == 0 for x in opt.moment1)
    c = m.weight.clone()
    assert type(c) is torch.Tensor and not isinstance(c, ms.Parameter)


# ------------------------------------------------------------------------------------------- containers
def test_sequential_api_matches_torch(reftorch):
    def ops(lib):
        Lin = _classes(lib)[0]
        s = lib.nn.Sequential(Lin(1, 2), Lin(2, 3), Lin(3, 4))
        out = [repr(s), len(s), repr(s[1]), repr(s[-1]), repr(s[0:2]), type(s[1:]).__name__]
        s.append(Lin(4, 5))
        s.insert(1, Lin(9, 9))
        s.extend([Lin(5, 6)])
        out += [repr(s), len(s), [n for n, _ in s.named_parameters()]]
        out.append(repr(s.pop(0)))
        del s[0]
        out += [repr(s), [type(m).__name__ for m in s]]
        od = lib.nn.Sequential(OrderedDict([("a", Lin(1, 1)), ("b", Lin(1, 1))]))
        out += [repr(od), repr(od + lib.nn.Sequential(Lin(2, 2)))]
        with pytest.raises(IndexError):
            s[10]
        return out

    # del renumbers the remaining keys as torch >= 2.0 does (1.12 left a gap that append() then overwrote).
    assert ops(torch) == ops(reftorch)
    s = nn.Sequential(_classes(torch)[0](3, 2), _classes(torch)[0](2, 1))
    x = torch.randn(4, 3)
    expected = s[1](s[0](x))
    assert_same(s(x), expected)


def test_modulelist_and_moduledict_match_torch(reftorch):
    def ops(lib):
        Lin = _classes(lib)[0]
        ml = lib.nn.ModuleList([Lin(1, 1), Lin(2, 2)])
        ml.append(Lin(3, 3))
        ml += [Lin(4, 4)]
        ml.insert(0, Lin(5, 5))
        ml.extend([Lin(6, 6)])
        out = [repr(ml), len(ml), repr(ml[-1]), repr(ml[1:3]), [n for n, _ in ml.named_parameters()]]
        del ml[1]
        out += [repr(ml), repr(ml.pop(0)), len(ml)]
        md = lib.nn.ModuleDict({"b": Lin(1, 1), "a": Lin(2, 2)})
        md.update([("c", Lin(3, 3))])
        md["d"] = Lin(4, 4)
        out += [repr(md), list(md.keys()), [repr(v) for v in md.values()], "a" in md, len(md)]
        out += [repr(md.pop("b")), list(md)]
        md.clear()
        out.append(len(md))
        with pytest.raises(IndexError):
            ml[100]
        return out

    assert ops(torch) == ops(reftorch)


def test_parameterlist_and_parameterdict_match_torch(reftorch):
    def ops(lib):
        mk = lambda *s: _t(lib, np.ones(s, np.float32))  # noqa: E731
        pl = lib.nn.ParameterList([lib.nn.Parameter(mk(2)), mk(3, 2)])
        pl.append(lib.nn.Parameter(mk(1)))
        out = [repr(pl), len(pl), [n for n, _ in pl.named_parameters()], type(pl[1]).__name__,
               all(isinstance(p, lib.nn.Parameter) for p in pl)]
        pd = lib.nn.ParameterDict({"w": lib.nn.Parameter(mk(2, 2)), "b": mk(2)})
        pd["c"] = lib.nn.Parameter(mk(1))
        out += [repr(pd), list(pd.keys()), [n for n, _ in pd.named_parameters()], "w" in pd, len(pd)]
        out += [tuple(pd.pop("w").shape), list(pd)]
        return out

    # torch 1.12 printed torch.typename(p) ('torch.FloatTensor'); 2.x prints the dtype: we follow 1.12.
    ref = [x.replace("torch.float32", "torch.FloatTensor") if isinstance(x, str) else x for x in ops(reftorch)]
    assert ops(torch) == ref
    host = nn.Module()
    host.plist = nn.ParameterList([nn.Parameter(torch.randn(2))])
    assert [n for n, _ in host.named_parameters()] == ["plist.0"]
    assert [p.name for p in host.parameters()] == ["plist.0"]


def test_graph_mode_call_goes_through_cell_compile():
    class G(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3)))

        # MindSpore ops only, as MindSpore-style `construct`: GRAPH_MODE ignores Tensor subclasses (DESIGN.md §4),
        # so a torch-style `forward` is refused there (jit/_graph.py)
        def construct(self, x):
            return ms.ops.matmul(x, self.w.T)

    x = np.ones((1, 3), np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = G()(ms.Tensor(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), x @ np.arange(6, dtype=np.float32).reshape(2, 3).T)


class PickledNet(nn.Module):  # module level: pickle stores classes by reference
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3)))
        self.register_buffer("steps", torch.tensor(np.array(3, np.int64)))
        self.inner = nn.Sequential(nn.Module())

    def forward(self, x):
        return x @ self.w.T


def test_pickle_module_round_trip():
    net = PickledNet()
    net2 = pickle.loads(pickle.dumps(net))
    assert type(net2) is PickledNet and net2.w is not net.w and isinstance(net2.w, nn.Parameter)
    assert list(net2.state_dict()) == ["w", "steps"]
    assert int(net2.steps) == 3 and net2.w.requires_grad
    x = torch.randn(2, 3)
    np.testing.assert_allclose(net2(x).detach().numpy(), net(x).detach().numpy(), rtol=1e-6, atol=1e-6)
    net2.inner.add_module("1", nn.Module())  # registries survive: still the aliased Cell dicts
    assert net2._modules is net2._cells and len(net2.inner) == 2


# ------------------------------------------------------------------------- with the real layers (nn-layers)
def _small_cnn(lib):
    nnm = lib.nn

    class Block(nnm.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nnm.Conv2d(3, 4, 3, padding=1, bias=False)
            self.bn1 = nnm.BatchNorm2d(4)
            self.relu = nnm.ReLU(inplace=True)
            self.pool = nnm.MaxPool2d(2)
            self.fc = nnm.Linear(4 * 2 * 2, 5)

        def forward(self, x):
            x = self.pool(self.relu(self.bn1(self.conv1(x))))
            return self.fc(x.flatten(1))

    return nnm.Sequential(OrderedDict([("features", Block()), ("head", nnm.Identity())]))


def test_real_layers_keys_print_and_loading_match_torch(reftorch):
    try:
        mine = _small_cnn(torch)
    except (AttributeError, ImportError, NotImplementedError) as e:  # nn-layers not landed yet
        pytest.skip(f"nn layers unavailable: {e}")
    ref = _small_cnn(reftorch)
    # torch 2.x added "bias=True" to BatchNorm's repr; torch 1.12 (followed) prints affine only.
    assert repr(mine) == repr(ref).replace("affine=True, bias=True,", "affine=True,")
    assert _shapes(mine.state_dict().items()) == _shapes(ref.state_dict().items())
    with reftorch.no_grad():
        ref.features.bn1.running_mean.uniform_(-1, 1)
        ref.features.bn1.running_var.uniform_(0.5, 2)
    mine.load_state_dict({k: torch.from_numpy(v) for k, v in _to_numpy_state(ref.state_dict()).items()})
    mine.eval()
    ref.eval()
    x = RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
    out_m = mine(torch.from_numpy(x))
    out_r = ref(reftorch.from_numpy(x))
    assert_same(out_m.detach(), out_r.detach(), rtol=1e-4, atol=1e-5)


def test_integer_parameter_requiring_grad_raises_like_torch(reftorch):
    arr = np.arange(3, dtype=np.int64)
    with pytest.raises(RuntimeError) as em:
        nn.Parameter(torch.from_numpy(arr))
    with pytest.raises(RuntimeError) as er:
        reftorch.nn.Parameter(reftorch.from_numpy(arr))
    assert str(em.value) == str(er.value)
    assert not nn.Parameter(torch.from_numpy(arr), requires_grad=False).requires_grad


def test_custom_bprop_module_with_loss_backward(reftorch):
    pytest.importorskip("mindtorch.torch.autograd.bprop")
    if not hasattr(torch.Tensor, "backward"):
        pytest.skip("Tensor.backward (autograd helper) not available yet")

    class Scaled(nn.Module):
        def forward(self, a):
            return a * a

        def bprop(self, a, out, dout):
            return dout * 3  # not the true gradient (2a): proves bprop is used

    a = torch.from_numpy(np.array([1.0, 2.0], np.float32)).requires_grad_(True)
    Scaled()(a).sum().backward()
    ra = reftorch.tensor([1.0, 2.0], requires_grad=True)
    (ra * 3).sum().backward()
    assert_same(a.grad, ra.grad)


def test_load_state_dict_writes_through_views_and_converts_dtype(reftorch):
    m = _classes(torch)[1](3)  # Norm: float running_mean, int64 num_batches_tracked
    view = m.running_mean[1:]
    m.load_state_dict({"weight": torch.from_numpy(np.full(3, 2.0, np.float64)),
                       "running_mean": torch.from_numpy(np.array([1.0, 2.0, 3.0], np.float32)),
                       "num_batches_tracked": torch.from_numpy(np.array(5.0, np.float32))})
    r = _classes(reftorch)[1](3)
    r.load_state_dict({"weight": reftorch.full((3,), 2.0, dtype=reftorch.float64),
                       "running_mean": reftorch.tensor([1.0, 2.0, 3.0]),
                       "num_batches_tracked": reftorch.tensor(5.0)})
    for (k, v), (_, rv) in zip(m.state_dict().items(), r.state_dict().items()):
        assert_same(v, rv)
    np.testing.assert_array_equal(view.numpy(), [2.0, 3.0])


def test_mindspore_cell_child_in_state_dict_and_load():
    host = nn.Module()
    host.dense = ms.nn.Dense(2, 3)
    sd = host.state_dict()
    assert list(sd) == ["dense.weight", "dense.bias"] and [p.name for p in host.parameters()] == list(sd)
    new = {k: torch.from_numpy(np.full(tuple(v.shape), 0.5, np.float32)) for k, v in sd.items()}
    assert host.load_state_dict(new).missing_keys == []
    np.testing.assert_array_equal(host.dense.weight.asnumpy(), np.full((3, 2), 0.5, np.float32))
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "dense.bias"'):
        host.load_state_dict({"dense.weight": new["dense.weight"]})


def test_parameter_names_follow_paths_after_container_edits_without_a_call():
    Lin = _classes(torch)[0]
    net = nn.Sequential(OrderedDict([("features", nn.Sequential(Lin(2, 2), Lin(2, 2))), ("head", Lin(2, 1))]))
    net.features.insert(0, Lin(2, 2))
    net.features.append(Lin(2, 2))
    del net.features[1]
    net.head.register_parameter("extra", nn.Parameter(torch.randn(1)))
    names = [p.name for p in net.parameters()]
    assert names == [n for n, _ in net.named_parameters()]
    ms.nn.SGD(net.trainable_params(), learning_rate=0.1)  # MindSpore refuses duplicate parameter names


def test_parameter_data_of_another_shape_trains(reftorch):
    """`p.data = t` with another shape (a resized embedding or head): Linear/Conv2d/Embedding backward give the new
    shape's gradients (MindSpore kept the old shape for its custom-node gradient check)."""
    out = []
    for T in (torch, reftorch):
        lin, conv, emb = T.nn.Linear(2, 5), T.nn.Conv2d(1, 2, 3), T.nn.Embedding(5, 3)
        lin.weight.data, lin.bias.data = T.ones(3, 4), T.zeros(3)
        conv.weight.data, conv.bias.data = T.ones(4, 1, 3, 3), T.zeros(4)
        emb.weight.data = T.ones(10, 3)
        (lin(T.ones(2, 4)).sum() + conv(T.ones(1, 1, 5, 5)).sum() + emb(T.tensor([7, 7, 9])).sum()).backward()
        out.append([lin.weight.grad, lin.bias.grad, conv.weight.grad, conv.bias.grad, emb.weight.grad])
    for mine, ref in zip(*out):
        assert_same(mine, ref)
