"""nn features that raised NotImplementedError where torch computes, against real PyTorch."""
import re

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


@pytest.mark.parametrize("padding_idx", [None, 2])
def test_embedding_scale_grad_by_freq(reftorch, padding_idx):
    """Each looked-up row's gradient is divided by how often its id occurs in the batch."""
    w = np.random.default_rng(0).random((10, 3)).astype(np.float32)
    out = []
    for T in (torch, reftorch):
        m = T.nn.Embedding(10, 3, padding_idx=padding_idx, scale_grad_by_freq=True)
        with T.no_grad():
            m.weight.copy_(T.tensor(w))
        y = m(T.tensor([[1, 2, 2], [5, 1, 1]]))
        (y * T.arange(18.0).reshape(2, 3, 3)).sum().backward()
        out.append((y, m.weight.grad))
    assert_same(out[0][0], out[1][0])
    assert_same(out[0][1], out[1][1])


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_bicubic(reftorch, padding_mode, align_corners):
    """torch's cubic convolution (A = -0.75) over 4x4 taps, each tap's coordinate bounded by the padding mode;
    values and gradients w.r.t. input and grid (points inside and outside [-1, 1])."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
    g = (rng.random((2, 3, 6, 2)) * 2.4 - 1.2).astype(np.float32)
    out = []
    for T in (torch, reftorch):
        xx, gg = T.tensor(x, requires_grad=True), T.tensor(g, requires_grad=True)
        y = T.nn.functional.grid_sample(xx, gg, mode="bicubic", padding_mode=padding_mode,
                                        align_corners=align_corners)
        (y * y).sum().backward()
        out.append((y, xx.grad, gg.grad))
    for mine, ref in zip(*out):
        assert_same(mine, ref, rtol=1e-4, atol=1e-4)


def test_grid_sample_bad_mode_is_torchs_error(reftorch):
    from _compare import assert_same_error

    assert_same_error(ValueError, lambda T: T.nn.functional.grid_sample(T.ones(1, 1, 2, 2), T.zeros(1, 1, 1, 2),
                                                                       mode="cubic", align_corners=False), reftorch)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_volumetric(reftorch, mode, padding_mode, align_corners):
    """5-D input (N, C, D, H, W) sampled at (N, Do, Ho, Wo, 3) of (x, y, z): trilinear ('bilinear') or nearest."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 2, 4, 5, 3)).astype(np.float32)
    g = (rng.random((2, 3, 2, 4, 3)) * 2.4 - 1.2).astype(np.float32)
    out = []
    for T in (torch, reftorch):
        xx, gg = T.tensor(x, requires_grad=True), T.tensor(g, requires_grad=True)
        y = T.nn.functional.grid_sample(xx, gg, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
        (y * y).sum().backward()
        out.append((y, xx.grad) if mode == "nearest" else (y, xx.grad, gg.grad))
    for mine, ref in zip(*out):
        assert_same(mine, ref, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.InstanceNorm1d(4)(T.ones(2, 4, 1)),
    lambda T: T.nn.InstanceNorm2d(4)(T.ones(2, 4, 1, 1)),
    lambda T: T.nn.BatchNorm1d(4)(T.ones(1, 4)),
], ids=["instance1d", "instance2d", "batch1d"])
def test_norm_layers_refuse_single_values_in_training(reftorch, call):
    """torch's _verify_spatial_size / _verify_batch_size, with torch.Size in the message."""
    from _compare import assert_same_error

    assert_same_error(ValueError, call, reftorch)


def test_share_memory_refuses_instead_of_training_private_copies():
    """Hogwild (model.share_memory() then forked trainers) would silently leave this process's model untrained."""
    with pytest.raises(NotImplementedError, match="share_memory"):
        torch.nn.Linear(2, 2).share_memory()


@pytest.mark.parametrize("n,shape,k,out,ratio,nan,dtype", [
    (2, (2, 3, 9, 11), 2, (5, 4), None, False, np.float32),
    (2, (2, 3, 9, 11), (3, 2), (4, 7), None, False, np.float32),
    (2, (3, 9, 11), 2, None, (0.5, 0.5), False, np.float32),  # unbatched, by ratio
    (2, (2, 3, 9, 11), 3, (7, 9), None, False, np.float64),  # overlapping windows: gradients add up
    (2, (1, 2, 10, 10), 2, (5, 5), None, True, np.float32),  # NaN wins (the last NaN of a window)
    (3, (2, 2, 6, 7, 8), 2, (3, 4, 5), None, False, np.float32),
    (3, (2, 6, 7, 8), (2, 3, 2), None, (0.5, 0.6, 0.7), False, np.float32),
])
def test_fractional_max_pool(reftorch, n, shape, k, out, ratio, nan, dtype):
    """Given the same `_random_samples`, the same windows as torch's kernel: values, indices and gradients."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    if nan:
        x.reshape(-1)[3] = np.nan
    u = rng.random((1 if len(shape) == n + 1 else shape[0], shape[-n - 1], n)).astype(dtype)
    g = None
    res = []
    for T in (torch, reftorch):
        xx = T.tensor(x, requires_grad=True)
        f = getattr(T.nn.functional, f"fractional_max_pool{n}d")
        y, i = f(xx, k, out, ratio, True, _random_samples=T.tensor(u))
        g = rng.standard_normal(tuple(y.shape)).astype(dtype) if g is None else g
        y.backward(T.tensor(g))
        res.append((y, i, xx.grad))
    for mine, ref in zip(*res):
        assert_same(mine, ref)


def test_fractional_max_pool_module_and_errors(reftorch):
    m = torch.nn.FractionalMaxPool2d(3, output_ratio=0.5, return_indices=True)
    y, i = m(torch.randn(1, 2, 16, 16))
    assert y.shape == (1, 2, 8, 8) and i.dtype == torch.int64 and list(m.state_dict()) == []
    assert torch.nn.FractionalMaxPool3d(2, output_size=3)(torch.randn(2, 5, 6, 7)).shape == (2, 3, 3, 3)
    for kwargs in (dict(kernel_size=2), dict(kernel_size=2, output_size=3, output_ratio=0.5),
                   dict(kernel_size=2, output_ratio=1.5)):
        with pytest.raises(ValueError) as ref:
            reftorch.nn.FractionalMaxPool2d(**kwargs)
        with pytest.raises(ValueError, match=re.escape(str(ref.value))):
            torch.nn.FractionalMaxPool2d(**kwargs)
    for args, kwargs in ((((2, 3, 9, 11), 3, (20, 4)), {}), (((2, 3, 9, 11), 3, (2, 4)), {"batch": 1})):
        msgs = []
        for T in (torch, reftorch):
            kw = {"_random_samples": T.rand(kwargs["batch"], 3, 2)} if kwargs else {}
            with pytest.raises(RuntimeError) as e:
                T.nn.functional.fractional_max_pool2d(T.randn(*args[0]), *args[1:], **kw)
            msgs.append(str(e.value))
        assert msgs[0] == msgs[1]


def _lazy_net(T):
    return T.nn.Sequential(T.nn.LazyConv2d(4, 3, padding=1), T.nn.LazyBatchNorm2d(), T.nn.ReLU(), T.nn.Flatten(),
                           T.nn.LazyLinear(6), T.nn.Unflatten(1, (2, 3)), T.nn.LazyInstanceNorm1d(affine=True))


@pytest.mark.filterwarnings("ignore:Lazy modules")
def test_lazy_modules_train_like_torch(reftorch):
    """The first forward infers the shapes and turns each layer into its plain class; an optimizer built before it
    holds the materialized parameters; a training step then matches torch's (same weights copied across)."""
    x = np.random.default_rng(0).random((2, 3, 5, 5)).astype(np.float32)
    nets, opts = [], []
    for T in (torch, reftorch):
        net = _lazy_net(T)
        opts.append(T.optim.SGD(net.parameters(), lr=0.05, momentum=0.9))
        net(T.tensor(x))
        nets.append(net)
        assert [type(m).__name__ for m in net] == ["Conv2d", "BatchNorm2d", "ReLU", "Flatten", "Linear", "Unflatten",
                                                   "InstanceNorm1d"]
    assert (nets[0][0].in_channels, nets[0][4].in_features, nets[0][1].num_features) == (3, 100, 4)
    with torch.no_grad():
        for p, q in zip(nets[0].state_dict().values(), nets[1].state_dict().values()):
            p.copy_(torch.tensor(q.detach().numpy()))
    for net, opt, T in zip(nets, opts, (torch, reftorch)):
        for _ in range(2):
            opt.zero_grad()
            (net(T.tensor(x)) * T.arange(12.0).reshape(2, 2, 3)).sum().backward()
            opt.step()
    for (k, p), q in zip(nets[0].state_dict().items(), nets[1].state_dict().values()):
        assert_same(p, q, rtol=1e-4, atol=1e-5)


@pytest.mark.filterwarnings("ignore:Lazy modules")
def test_lazy_modules_state_dict_dtype_and_errors(reftorch, tmp_path):
    from mindtorch.torch.nn.parameter import UninitializedParameter, is_lazy

    net = _lazy_net(torch)
    net(torch.randn(2, 3, 5, 5))
    fresh = _lazy_net(torch)
    assert is_lazy(fresh[0].weight) and repr(fresh[0].weight) == "<UninitializedParameter>"
    fresh.load_state_dict(net.state_dict())  # materialized from the checkpoint's shapes, class kept until forward
    assert tuple(fresh[4].weight.shape) == (6, 100) and type(fresh[4]).__name__ == "LazyLinear"
    assert_same(fresh[4].weight, net[4].weight)
    p = UninitializedParameter()
    assert p.requires_grad and isinstance(p, torch.nn.Parameter)
    p.materialize((2, 3))
    assert type(p) is torch.nn.Parameter and p.requires_grad and tuple(p.shape) == (2, 3)
    lin = torch.nn.LazyLinear(3).double()
    assert lin(torch.randn(4, 5, dtype=torch.float64)).dtype == torch.float64
    assert str(torch.nn.LazyLinear(3)) == "LazyLinear(in_features=0, out_features=3, bias=True)"
    assert torch.nn.LazyConv1d(4, 3, 1, 0, 1, 1, False).bias is None
    assert tuple(torch.nn.LazyConvTranspose2d(4, 3, 2, 1, 1)(torch.randn(1, 2, 5, 5)).shape) == (1, 4, 10, 10)
    for T in (torch, reftorch):
        with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
            T.nn.LazyConv2d(4, 3, groups=2)(T.randn(1, 3, 5, 5))
        with pytest.raises(RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input to LazyConv2d"):
            T.nn.LazyConv2d(4, 3)(T.randn(5, 5))
