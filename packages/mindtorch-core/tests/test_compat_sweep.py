"""Behaviour differences from PyTorch found by a sweep of APIs typical training scripts use, each compared with
real PyTorch: interpolate on an unchanged dim, descending sort with NaN / unsigned ints, fully ignored targets in
cross_entropy, CTC with an input shorter than its target, Module.double() then forward, softmax with a fully
masked row, numpy integer scalars in type promotion, torch.isin and the start-up settings (set_num_threads...)."""
import pickle

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _both(reftorch, fn):
    return fn(torch), fn(reftorch)


# ------------------------------------------------------------------------ interpolate: a dim of unchanged size
@pytest.mark.parametrize("mode,shape", [("linear", (1, 2, 3)), ("bilinear", (1, 2, 3, 4)), ("bilinear", (1, 2, 4, 3)),
                                        ("trilinear", (1, 1, 3, 4, 5))])
def test_interpolate_linear_modes_copy_a_dim_whose_size_is_unchanged(reftorch, mode, shape):
    # scale_factor=1.3 keeps a size-3 dim at 3: torch copies it (compute_source_index_and_lambda)
    x = _rand(*shape)

    def run(t):
        xt = t.tensor(x).requires_grad_()
        y = t.nn.functional.interpolate(xt, scale_factor=1.3, mode=mode, align_corners=False)
        (y * t.tensor(_rand(*tuple(y.shape), seed=1))).sum().backward()
        return y, xt.grad

    assert_same(*_both(reftorch, run))


def test_interpolate_with_every_dim_unchanged_returns_a_new_tensor():
    # (1, 1, 3) at scale 1.3 stays (1, 1, 3): the result must not alias the input (torch's does not)
    x = torch.ones(1, 1, 3)
    y = torch.nn.functional.interpolate(x, scale_factor=1.3, mode="linear", align_corners=False)
    assert y is not x
    y.add_(1)
    assert x.tolist() == [[[1.0, 1.0, 1.0]]]


# ------------------------------------------------------------------------------------------ sort / topk
SORT_INPUTS = {
    "nan": ([1., float("nan"), 0., 2., float("-inf"), float("nan")], "float32"),
    "uint8": ([0, 1, 2, 255, 1], "uint8"),
    "ties": ([3, 1, 3, 2, 3, 1], "int64"),
    "bool": ([True, False, True, False], "bool"),
}


@pytest.mark.parametrize("case", sorted(SORT_INPUTS))
@pytest.mark.parametrize("descending", [False, True])
def test_sort_order_nan_unsigned_and_ties(reftorch, case, descending):
    vals, dt = SORT_INPUTS[case]
    mine, ref = _both(reftorch, lambda t: t.sort(t.tensor(vals, dtype=getattr(t, dt)), descending=descending,
                                                stable=True))
    assert_same(tuple(mine), tuple(ref))


def test_sort_descending_2d_keeps_ties_in_order(reftorch):
    arr = [[3, 1, 3, 2], [3, 0, 5, 2]]
    for dim in (0, 1):
        mine, ref = _both(reftorch, lambda t: t.tensor(arr).sort(dim=dim, descending=True))
        assert_same(tuple(mine), tuple(ref))


def test_topk_ranks_nan_largest(reftorch):
    for largest in (True, False):
        mine, ref = _both(reftorch, lambda t: t.tensor([1., float("nan"), 0., 2.]).topk(2, largest=largest))
        assert_same(tuple(mine), tuple(ref))


# ---------------------------------------------------------------------------------- losses: edge cases
@pytest.mark.parametrize("kw", [{}, {"label_smoothing": 0.1}, {"label_smoothing": 0.1, "weight": True}])
def test_cross_entropy_all_targets_ignored_gives_nan_loss_and_zero_grad(reftorch, kw):
    def run(t):
        kw2 = dict(kw)
        if kw2.pop("weight", False):
            kw2["weight"] = t.tensor([1., 2., 0.5, 1., 3.])
        x = t.tensor(_rand(4, 5)).requires_grad_()
        loss = t.nn.functional.cross_entropy(x, t.tensor([-100] * 4), **kw2)
        loss.backward()
        return loss, x.grad

    assert_same(*_both(reftorch, run))


def test_nll_loss_all_targets_ignored(reftorch):
    def run(t):
        x = t.tensor(_rand(3, 4)).requires_grad_()
        loss = t.nn.functional.nll_loss(x, t.tensor([1, 1, 1]), ignore_index=1)
        loss.backward()
        return loss, x.grad

    assert_same(*_both(reftorch, run))


@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_input_shorter_than_target_is_infinite(reftorch, zero_infinity):
    lp = np.log(np.random.default_rng(0).dirichlet(np.ones(4), (3, 2))).astype(np.float32)

    def run(t):
        x = t.tensor(lp).requires_grad_()
        loss = t.nn.functional.ctc_loss(x, t.tensor([[1, 1, 2], [1, 2, 3]]), t.tensor([2, 3]), t.tensor([3, 2]),
                                        reduction="none", zero_infinity=zero_infinity)
        loss.sum().backward()
        return loss, x.grad[:, 1]  # sample 0's gradient is NaN in torch without zero_infinity

    mine, ref = _both(reftorch, run)
    assert_same(mine, ref, rtol=1e-5)
    if zero_infinity:
        assert_same(*_both(reftorch, lambda t: t.nn.functional.ctc_loss(
            t.tensor(lp), t.tensor([[1, 1, 2], [1, 2, 3]]), t.tensor([2, 3]), t.tensor([3, 2]), zero_infinity=True)),
            rtol=1e-5)


# ------------------------------------------------------------------------- dtype conversion of a module
def _mlp(t):
    m = t.nn.Sequential(t.nn.Linear(3, 4), t.nn.BatchNorm1d(4), t.nn.Tanh(), t.nn.Linear(4, 2))
    rng = np.random.default_rng(0)
    with t.no_grad():
        for p in m.parameters():
            p.copy_(t.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
    return m


@pytest.mark.parametrize("convert", ["double", "to_float64", "double_then_float"])
def test_module_dtype_conversion_then_forward_and_backward(reftorch, convert):
    # MindSpore kept the Parameter's old dtype for BiasAdd after .double(): F.linear failed with "input type must
    # be same ... Ref[Tensor[Float32]]"
    def run(t):
        m = _mlp(t)
        m(t.tensor(_rand(5, 3)))  # a first forward in float32, as a script that converts later would do
        dt = t.float64
        if convert == "double":
            m.double()
        elif convert == "to_float64":
            m.to(t.float64)
        else:
            m.double()
            m.float()
            dt = t.float32
        x = t.tensor(_rand(5, 3, seed=1)).to(dt).requires_grad_()
        y = m(x)
        y.sum().backward()
        return y, x.grad, m[0].weight.grad, m[3].bias.grad

    assert_same(*_both(reftorch, run), rtol=1e-5)


def test_parameter_data_with_a_new_shape_or_dtype(reftorch):
    def run(t):
        m = t.nn.Linear(3, 2)
        m(t.ones(2, 3))
        m.weight.data = t.ones(4, 3)
        m.bias.data = t.zeros(4)
        y1 = m(t.ones(2, 3))
        m.weight.data = m.weight.data.double()
        m.bias.data = m.bias.data.double()
        return y1, m(t.ones(2, 3, dtype=t.float64))

    assert_same(*_both(reftorch, run))


def test_parameter_data_assigned_itself_or_same_shape_keeps_dtype(reftorch):
    def run(t):
        m = t.nn.Linear(3, 2)
        m(t.ones(1, 3))
        m.weight.data = m.weight  # a no-op (it once flipped the dtype to float16 through a forced refresh)
        m.bias.data = m.bias.data * 0 + 1
        return str(m.weight.dtype), str(m.bias.dtype), m(t.ones(1, 3)).shape

    ours, ref = run(torch), run(reftorch)
    assert ours == ref


# ------------------------------------------------------------------------------------------------ softmax
def test_softmax_with_a_fully_masked_row_leaves_other_rows_right(reftorch):
    # MindSpore's CPU Softmax kernel corrupted the rows next to an all -inf row
    rng = np.random.default_rng(0)
    for rows, cols, r in ((2, 2, 0), (4, 8, 2), (8, 16, 5)):
        a = rng.standard_normal((rows, cols)).astype(np.float32)
        a[r] = -np.inf
        a[(r + 1) % rows, 0] = -np.inf
        g = rng.standard_normal((rows, cols)).astype(np.float32)

        def run(t):
            x = t.tensor(a).requires_grad_()
            y = t.softmax(x, -1)
            (y * t.tensor(g)).sum().backward()
            return y, x.grad, t.nn.Softmax(dim=0)(t.tensor(a.T.copy()))

        assert_same(*_both(reftorch, run))


def test_log_softmax_float64_is_float64_accurate(reftorch):
    def run(t):
        x = t.tensor(_rand(3, 4)).double().requires_grad_()
        y = t.nn.functional.log_softmax(x, 1)
        z = t.softmax(x, 0)
        (y.sum() + (z * z).sum()).backward()
        return y, z, x.grad

    assert_same(*_both(reftorch, run), rtol=1e-10, atol=1e-12)


# ----------------------------------------------------------------------------------------- type promotion
@pytest.mark.parametrize("name", ["add_np_int64", "mul_np_int32", "rsub_np_int64", "np_float", "np_bool", "div"])
def test_numpy_scalars_promote_as_python_scalars(reftorch, name):
    cases = {
        "add_np_int64": lambda t: t.ones(2, dtype=t.int32) + np.int64(2),
        "mul_np_int32": lambda t: t.ones(2, dtype=t.int64) * np.int32(3),
        "rsub_np_int64": lambda t: np.int64(5) - t.ones(2, dtype=t.int32),
        "np_float": lambda t: t.ones(2, dtype=t.int32) + np.float32(2.5),
        "np_bool": lambda t: t.ones(2, dtype=t.int32) + np.bool_(True),  # torch: a float scalar
        "div": lambda t: t.ones(2, dtype=t.int16) / np.int64(2),
    }
    assert_same(*_both(reftorch, cases[name]))


def test_numpy_scalar_on_the_left_gives_a_tensor_with_autograd(reftorch):
    def run(t):
        x = t.tensor(_rand(3)).requires_grad_()
        y = np.float32(2.0) * x + np.float64(1.0)
        z = np.float32(3.0) - y
        z.sum().backward()
        return type(z).__name__, z, x.grad

    assert_same(*_both(reftorch, run))


# ------------------------------------------------------------------------------------------------- isin
@pytest.mark.parametrize("kw", [{}, {"invert": True}])
def test_isin(reftorch, kw):
    assert_same(*_both(reftorch, lambda t: t.isin(t.tensor([[1, 2], [3, 4]]), t.tensor([2, 3]), **kw)))
    assert_same(*_both(reftorch, lambda t: t.isin(t.tensor([1., 2.5]), 2.5, **kw)))
    assert_same(*_both(reftorch, lambda t: t.isin(2, t.tensor([1, 2]), **kw)))


# --------------------------------------------------------------------------------------- start-up settings
def test_startup_settings_and_constants(reftorch):
    for name in ("inf", "nan", "pi", "e"):
        a, b = getattr(torch, name), getattr(reftorch, name)
        assert a == b or (np.isnan(a) and np.isnan(b))
    torch.set_num_threads(2)
    assert torch.get_num_threads() == 2
    with pytest.raises(RuntimeError):
        torch.set_num_threads(0)
    torch.set_num_interop_threads(1)
    assert torch.get_num_interop_threads() == 1
    torch.use_deterministic_algorithms(True)
    assert torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(False)
    assert not torch.are_deterministic_algorithms_enabled()
    torch.set_float32_matmul_precision("high")
    assert torch.get_float32_matmul_precision() == "high"
    torch.set_float32_matmul_precision("highest")
    assert torch.set_flush_denormal(True) in (True, False)


def test_memory_formats_are_accepted(reftorch):
    assert repr(torch.channels_last) == repr(reftorch.channels_last)
    assert pickle.loads(pickle.dumps(torch.channels_last)) is torch.channels_last
    assert isinstance(torch.contiguous_format, torch.memory_format)
    x = torch.tensor(_rand(1, 2, 3, 3))
    y = x.to(memory_format=torch.channels_last).contiguous(memory_format=torch.contiguous_format)
    assert_same(y, reftorch.tensor(_rand(1, 2, 3, 3)))
    m = torch.nn.Conv2d(2, 2, 1).to(memory_format=torch.channels_last)
    assert m.weight.dtype == torch.float32


# ------------------------------------------------------------------ NaN through max/min/clamp, clamp's gradient
_NAN = float("nan")
_A = np.array([_NAN, -1.0, 0.0, 0.5, 1.0, 2.0, _NAN, 3.0], np.float32)
_B = np.array([0.0, _NAN, 0.0, 1.0, 1.0, 1.0, _NAN, -1.0], np.float32)
_PAIR_OPS = {
    "maximum": lambda t, x, y: t.maximum(x, y),
    "minimum": lambda t, x, y: t.minimum(x, y),
    "max_binary": lambda t, x, y: t.max(x, y),
    "min_binary": lambda t, x, y: t.min(x, y),
    "fmax": lambda t, x, y: t.fmax(x, y),
    "fmin": lambda t, x, y: t.fmin(x, y),
    "clamp": lambda t, x, y: x.clamp(0, 1),
    "clamp_min": lambda t, x, y: t.clamp(x, min=0.5),
    "clamp_max": lambda t, x, y: x.clamp(max=0.5),
    "clamp_tensor_bounds": lambda t, x, y: t.clamp(x, t.zeros(8) - 1, t.ones(8)),
    "clip": lambda t, x, y: x.clip(0, 1),
}


@pytest.mark.parametrize("name", sorted(_PAIR_OPS))
def test_nan_propagates_and_bound_ties_take_torchs_gradient(reftorch, name):
    """MindSpore's CPU maximum/minimum kernels drop a NaN in the first operand and its clamp maps NaN to the
    bound; torch keeps NaN. clamp's gradient is 1 where the input equals a bound (maximum would split it 0.5);
    fmax/fmin give a tie's whole gradient to the first operand. Gradients are compared away from NaN inputs."""
    f = _PAIR_OPS[name]
    xm, ym = torch.tensor(_A, requires_grad=True), torch.tensor(_B, requires_grad=True)
    xr, yr = reftorch.tensor(_A, requires_grad=True), reftorch.tensor(_B, requires_grad=True)
    om, o_r = f(torch, xm, ym), f(reftorch, xr, yr)
    assert_same(om, o_r)
    om.sum().backward()
    o_r.sum().backward()
    finite = ~(np.isnan(_A) | np.isnan(_B))
    np.testing.assert_array_equal(xm.grad.numpy()[finite], xr.grad.numpy()[finite])
    if yr.grad is not None:
        np.testing.assert_array_equal(ym.grad.numpy()[finite], yr.grad.numpy()[finite])


def test_clamp_integer_and_in_place_keep_torch_dtypes(reftorch):
    for lo, hi in ((0, 2), (0.5, 2.5)):
        assert_same(torch.tensor([1, 5, -3]).clamp(lo, hi), reftorch.tensor([1, 5, -3]).clamp(lo, hi))
    xm, xr = torch.tensor([_NAN, 2.0, -1.0]), reftorch.tensor([_NAN, 2.0, -1.0])
    assert xm.clamp_(0, 1) is xm
    xr.clamp_(0, 1)
    assert_same(xm, xr)


@pytest.mark.parametrize("shape,perm", [((2, 3, 4, 5), None), ((2, 1, 4, 5), None), ((2, 3, 1, 1), None),
                                        ((2, 3, 4, 5), (0, 2, 3, 1)), ((2, 3, 4), None), ((2, 3, 4, 5, 6), None),
                                        ((2, 3, 4, 5, 6), (0, 2, 3, 4, 1))])
@pytest.mark.parametrize("fmt", ["channels_last", "channels_last_3d", "contiguous_format"])
def test_is_contiguous_in_a_memory_format(reftorch, shape, perm, fmt):
    """An NCHW-contiguous tensor is not channels_last-contiguous (unless C or H*W is 1); an NHWC buffer seen as
    NCHW through permute is."""
    def make(lib):
        if perm is None:
            return lib.zeros(shape)
        back = tuple(sorted(range(len(perm)), key=lambda i: perm[i]))
        return lib.zeros([shape[i] for i in perm]).permute(back)
    assert make(torch).is_contiguous(memory_format=getattr(torch, fmt)) == \
        make(reftorch).is_contiguous(memory_format=getattr(reftorch, fmt))


# ------------------------------------------------------------------ bfloat16 on CPU (MindSpore lacks most kernels)
_BF16_OPS = {
    "relu": lambda t, x: t.relu(x),
    "exp": lambda t, x: x.exp(),
    "sum": lambda t, x: x.sum(),
    "mean": lambda t, x: x.mean(),
    "maximum": lambda t, x: t.maximum(x, x * 2),
    "max_dim": lambda t, x: x.max(0).values,
    "matmul": lambda t, x: x @ x,
    "softmax": lambda t, x: t.softmax(x, 0),
    "clamp": lambda t, x: x.clamp(0, 1),
    "exp_": lambda t, x: x.clone().exp_(),
    "linear": lambda t, x: t.nn.functional.linear(x.reshape(2, 2), x.reshape(2, 2)),
}


@pytest.mark.parametrize("name", sorted(_BF16_OPS))
def test_bfloat16_ops_compute_and_keep_their_dtype(reftorch, name):
    """torch computes bfloat16 on CPU (its CPU autocast dtype); ops without a MindSpore bfloat16 kernel run in
    float32 and are cast back, so values agree to bfloat16 precision and the dtype stays bfloat16."""
    v = [0.5, 5.0, -3.0, 7.25]
    mine = _BF16_OPS[name](torch, torch.tensor(v, dtype=torch.bfloat16))
    ref = _BF16_OPS[name](reftorch, reftorch.tensor(v, dtype=reftorch.bfloat16))
    assert mine.dtype == torch.bfloat16
    np.testing.assert_allclose(mine.float().numpy(), ref.float().numpy(), rtol=1e-2)


def test_bfloat16_backward_through_a_float32_fallback(reftorch):
    v = [0.5, 2.0, -3.0]
    x, y = torch.tensor(v, dtype=torch.bfloat16, requires_grad=True), \
        reftorch.tensor(v, dtype=reftorch.bfloat16, requires_grad=True)
    (x.exp() * x).sum().backward()
    (y.exp() * y).sum().backward()
    assert x.grad.dtype == torch.bfloat16
    np.testing.assert_allclose(x.grad.float().numpy(), y.grad.float().numpy(), rtol=1e-2)


def test_dtype_errors_of_other_dtypes_are_still_raised():
    with pytest.raises(RuntimeError, match="can't be cast"):
        torch.tensor([1, 2]).exp_()


@pytest.mark.parametrize("shape,k", [((2, 3, 8, 8), 2), ((2, 3, 9, 7), 2), ((1, 2, 6, 6), 3), ((2, 2, 4, 4, 4), 2),
                                     ((2, 3, 8), 2)])
def test_max_pool_non_overlapping_windows_route_tied_gradients_like_torch(reftorch, shape, k):
    """ReLU outputs tie (at 0) inside pooling windows: the gradient goes to the first maximum of each window in
    row-major order, as torch's kernel picks it (not split, not another tied element)."""
    rng = np.random.RandomState(0)
    v = np.maximum(rng.randint(-2, 3, shape).astype(np.float32), 0)
    name = {3: "max_pool1d", 4: "max_pool2d", 5: "max_pool3d"}[len(shape)]
    a, b = torch.tensor(v, requires_grad=True), reftorch.tensor(v, requires_grad=True)
    ya, yb = getattr(torch.nn.functional, name)(a, k), getattr(reftorch.nn.functional, name)(b, k)
    w = rng.randn(*yb.shape).astype(np.float32)
    (ya * torch.tensor(w)).sum().backward()
    (yb * reftorch.tensor(w)).sum().backward()
    assert_same(ya, yb)
    assert_same(a.grad, b.grad)


_NAN_ROWS = [[[1.0, _NAN, 3.0], [2.0, 1.0, 0.0]], [[_NAN, _NAN, 3.0], [2.0, 1.0, _NAN]], [[1.0, 2.0], [3.0, 4.0]],
             [[[1.0, _NAN], [2.0, 3.0]]]]
_NAN_REDUCTIONS = {
    "max": lambda t, x: x.max(), "min": lambda t, x: x.min(),
    "max_dim": lambda t, x: tuple(x.max(1)), "max_dim_keepdim": lambda t, x: tuple(x.max(-1, keepdim=True)),
    "min_dim": lambda t, x: tuple(x.min(1)),
    "amax": lambda t, x: x.amax(1), "amax_all": lambda t, x: x.amax(), "amin_dims": lambda t, x: x.amin((0, 1)),
    "argmax": lambda t, x: x.argmax(1), "argmin_keepdim": lambda t, x: x.argmin(1, keepdim=True),
    "argmax_all": lambda t, x: x.argmax(), "argmax_all_keepdim": lambda t, x: x.argmax(keepdim=True),
    "aminmax": lambda t, x: tuple(t.aminmax(x)), "aminmax_dim": lambda t, x: tuple(t.aminmax(x, dim=0)),
}


@pytest.mark.parametrize("rows", range(len(_NAN_ROWS)))
@pytest.mark.parametrize("name", sorted(_NAN_REDUCTIONS))
def test_max_min_reductions_let_nan_win(reftorch, name, rows):
    """MindSpore's CPU max/min reductions skip a NaN unless it is first in the slice; torch returns NaN and the
    first NaN's index (a diverged loss must show as NaN in `loss.max()`)."""
    v = _NAN_ROWS[rows]
    mine, ref = _NAN_REDUCTIONS[name](torch, torch.tensor(v)), _NAN_REDUCTIONS[name](reftorch, reftorch.tensor(v))
    assert_same(mine, ref)
