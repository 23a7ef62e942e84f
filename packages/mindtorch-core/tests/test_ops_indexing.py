"""Indexing against real PyTorch: __getitem__/__setitem__ semantics, gather/scatter/index_*/masked_*, errors."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def pair(reftorch, arr=A):
    return torch.tensor(arr), reftorch.tensor(arr)


def idx(t):
    """Indices built per library (tensors must be of the library under test)."""
    return {
        "int": 1, "neg": -1, "slice": slice(1, None), "step": (slice(None), slice(None, None, 2)),
        "neg_step_slice": (Ellipsis, slice(-3, -1)), "ellipsis": (Ellipsis, 1), "none": (None, 0, None),
        "none_mid": (slice(None), None, 1), "mixed": (1, slice(0, 2), -1), "bool_mask": t.tensor(A > 5),
        "bool_mask_np": np.array([True, False]), "bool_row": (slice(None), t.tensor([True, False, True])),
        "list": [1, 0], "tensor_idx": t.tensor([1, 0, 1]), "adv_mix": (slice(None), t.tensor([0, 2]), t.tensor([1, 3])),
        "adv_sep": (t.tensor([0, 1]), slice(None), t.tensor([1, 3])), "adv_broadcast": (t.tensor([[0], [1]]),
                                                                                        t.tensor([0, 2])),
        "zero_d": t.tensor(1), "list_of_lists": ([0, 1], [1, 2]), "np_int": np.array([1, 0]),
        "empty_list": [], "bool_scalar": True, "int32_idx": t.tensor([1, 0], dtype=t.int32),
        "np_integer": np.int64(1), "adv_ellipsis": (Ellipsis, t.tensor([0, 3])),
    }


NAMES = sorted(idx(torch))


@pytest.mark.parametrize("name", NAMES)
def test_getitem(reftorch, name):
    x, rx = pair(reftorch)
    assert_same(x[idx(torch)[name]], rx[idx(reftorch)[name]])


@pytest.mark.parametrize("name", NAMES)
def test_setitem_scalar_and_tensor(reftorch, name):
    x, rx = pair(reftorch)
    x[idx(torch)[name]] = -7.0
    rx[idx(reftorch)[name]] = -7.0
    assert_same(x, rx)
    x, rx = pair(reftorch)
    shape = tuple(rx[idx(reftorch)[name]].shape)
    val = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 100
    x[idx(torch)[name]] = torch.tensor(val)
    rx[idx(reftorch)[name]] = reftorch.tensor(val)
    assert_same(x, rx)


def test_setitem_broadcast_cast_and_views(reftorch):
    x, rx = pair(reftorch)
    x[:, 1] = torch.tensor([1, 2, 3, 4])  # int into float, broadcast over dim 0
    rx[:, 1] = reftorch.tensor([1, 2, 3, 4])
    assert_same(x, rx)
    v, rv = x.transpose(0, 2)[1:], rx.transpose(0, 2)[1:]
    v[...] = 0.5
    rv[...] = 0.5
    assert_same(x, rx)
    v, rv = x.view(6, 4), rx.view(6, 4)
    v[v > 10] = -1.0
    rv[rv > 10] = -1.0
    assert_same(x, rx)
    n, rn = x.narrow(2, 1, 2), rx.narrow(2, 1, 2)
    n[0, ..., 1] = 9.0
    rn[0, ..., 1] = 9.0
    assert_same(x, rx)
    x[0] = np.float32(3.0)
    rx[0] = 3.0
    assert_same(x, rx)
    s = torch.tensor(2.0)
    s[...] = 5.0
    assert s.item() == 5.0


ERRS = {
    "int_oob": lambda x: x[2], "neg_oob": lambda x: x[-3], "dim1_oob": lambda x: x[:, 3],
    "too_many": lambda x: x[0, 0, 0, 0],
    "tensor_oob": lambda x: x[[0, 5]], "float_idx": lambda x: x[1.5], "mask_shape": lambda x: x[np.ones((3, 4), bool)],
    "zero_d": lambda x: x[0, 0, 0][0],
}


@pytest.mark.parametrize("name", sorted(ERRS))
def test_index_errors(reftorch, name):
    x, rx = pair(reftorch)
    with pytest.raises(Exception) as e:
        ERRS[name](rx)
    with pytest.raises(e.type) as m:
        ERRS[name](x)
    if name in ("int_oob", "dim1_oob"):
        assert str(m.value) == str(e.value)


I2 = np.array([[0, 1, 2, 0], [2, 0, 0, 1]])


def _i(t, a=I2):
    return t.tensor(a)


OPS = {
    "gather": lambda t, x: t.gather(x[0], 0, _i(t)[:, :4] % 3),
    "gather1": lambda t, x: x[0].gather(1, _i(t, [[0, 3], [1, 1], [2, 0]])),
    "scatter_src": lambda t, x: t.zeros(3, 4).scatter(0, _i(t) % 3, x[0, :2]),
    "scatter_value": lambda t, x: x[0].scatter(1, _i(t, [[0], [2], [3]]), 5.0),
    "scatter_add_reduce": lambda t, x: t.ones(3, 4).scatter(1, _i(t, [[0, 0], [1, 1], [2, 3]]), x[0, :, :2],
                                                            reduce="add"),
    "scatter_mul_reduce": lambda t, x: t.ones(3, 4).scatter(1, _i(t, [[0, 0], [1, 1], [2, 3]]), x[0, :, :2],
                                                            reduce="multiply"),
    "scatter_add": lambda t, x: t.zeros(3, 4).scatter_add(0, _i(t) % 3, x[0, :2]),
    "scatter_add_smaller": lambda t, x: t.zeros(3, 4).scatter_add(0, _i(t, [[0, 1], [2, 0]]), x[0]),
    "scatter_reduce_sum": lambda t, x: x[0].scatter_reduce(0, _i(t) % 3, x[1, :2], "sum"),
    "scatter_reduce_amax": lambda t, x: x[0].scatter_reduce(0, _i(t) % 3, -x[1, :2], "amax", include_self=False),
    "scatter_reduce_mean": lambda t, x: x[0].scatter_reduce(0, _i(t) % 3, x[1, :2], "mean"),
    "scatter_reduce_prod": lambda t, x: x[0].scatter_reduce(1, _i(t, [[0, 0], [1, 1], [2, 3]]), x[1, :, :2], "prod"),
    "index_select": lambda t, x: t.index_select(x, 2, _i(t, [3, 0, 3])),
    "index_select_m": lambda t, x: x.index_select(0, _i(t, [1])),
    "index_add": lambda t, x: x[0].index_add(0, _i(t, [0, 2, 0]), t.ones(3, 4)),
    "index_add_alpha": lambda t, x: t.index_add(x[0], 1, _i(t, [1, 3]), t.ones(3, 2), alpha=2),
    "index_copy": lambda t, x: x[0].index_copy(1, _i(t, [3, 0]), t.zeros(3, 2)),
    "index_fill": lambda t, x: x.index_fill(2, _i(t, [0, 2]), -1.0),
    "index_fill_t": lambda t, x: x[0].index_fill(0, _i(t, [1]), t.tensor(3.0)),
    "index_put": lambda t, x: x[0].index_put((_i(t, [0, 2]), _i(t, [1, 3])), t.tensor([5.0, 6.0])),
    "index_put_acc": lambda t, x: x[0].index_put((_i(t, [0, 0]), _i(t, [1, 1])), t.tensor([5.0, 6.0]), accumulate=True),
    "masked_fill": lambda t, x: x.masked_fill(x > 10, 0.5), "masked_fill_t": lambda t, x: t.masked_fill(
        x, x[0, 0] > 1, t.tensor(2.0)), "masked_fill_int": lambda t, x: x.long().masked_fill(x > 3, 7),
    "masked_scatter": lambda t, x: x[0].masked_scatter(x[0] > 5, -x[1]),
    "masked_select": lambda t, x: t.masked_select(x, x > 12), "masked_select_b": lambda t, x: x.masked_select(
        x[0, 0] > 1), "nonzero": lambda t, x: t.nonzero(x[0] > 5), "nonzero_tuple": lambda t, x: t.nonzero(
        x[0] > 5, as_tuple=True), "nonzero_0d": lambda t, x: t.nonzero(x[0, 0, 1]), "argwhere": lambda t, x:
    t.argwhere(x[1] < 15), "take": lambda t, x: t.take(x, _i(t, [[0, 23], [-1, 5]])),
    "take_along_dim": lambda t, x: t.take_along_dim(x[0], _i(t, [[0], [3], [1]]), 1),
    "take_along_dim_none": lambda t, x: t.take_along_dim(x, _i(t, [0, 5, 7])),
    "take_along_dim_bcast": lambda t, x: t.take_along_dim(x, _i(t, [[[0]], [[2]]]), 1),
    "put": lambda t, x: x[0].put(_i(t, [0, 11]), t.tensor([-1.0, -2.0])),
    "put_acc": lambda t, x: x[0].put(_i(t, [1, 1]), t.tensor([1.0, 2.0]), accumulate=True),
    "searchsorted": lambda t, x: t.searchsorted(t.tensor([1.0, 3.0, 5.0]), x[0]),
    "searchsorted_right": lambda t, x: t.searchsorted(t.tensor([1.0, 3.0, 5.0]), x[0], right=True),
    "searchsorted_2d": lambda t, x: t.searchsorted(x[0], t.tensor([[1.5], [6.0], [100.0]]), side="right"),
    "searchsorted_i32": lambda t, x: t.searchsorted(t.tensor([1, 3]), t.tensor([2, 4]), out_int32=True),
    "bucketize": lambda t, x: t.bucketize(x, t.tensor([2.0, 7.0, 15.0])),
    "bucketize_right": lambda t, x: t.bucketize(x[0], t.tensor([2.0, 7.0]), right=True),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_indexing_ops(reftorch, name):
    x, rx = pair(reftorch)
    assert_same(OPS[name](torch, x), OPS[name](reftorch, rx))


INPLACE = {
    "scatter_": lambda t, x: x.scatter_(1, _i(t, [[0], [1], [2]]), -1.0),
    "scatter_add_": lambda t, x: x.scatter_add_(1, _i(t, [[0], [1], [2]]), t.ones(3, 1)),
    "index_add_": lambda t, x: x.index_add_(0, _i(t, [0, 2]), t.ones(2, 4)),
    "index_fill_": lambda t, x: x.index_fill_(1, _i(t, [1]), 0.0),
    "index_copy_": lambda t, x: x.index_copy_(0, _i(t, [1]), t.zeros(1, 4)),
    "index_put_": lambda t, x: x.index_put_((_i(t, [0]), _i(t, [0])), t.tensor(9.0)),
    "masked_fill_": lambda t, x: x.masked_fill_(x > 5, 1.0),
    "masked_scatter_": lambda t, x: x.masked_scatter_(x < 3, t.zeros(3, 4)),
    "put_": lambda t, x: x.put_(_i(t, [2]), t.tensor([4.0])),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_twins_write_through_views(reftorch, name):
    x, rx = pair(reftorch)
    v, rv = x[1], rx[1]  # a view: the base must see the change
    out = INPLACE[name](torch, v)
    INPLACE[name](reftorch, rv)
    assert out is v
    assert_same(x, rx)


def test_gather_scatter_require_int64_index():
    # torch 1.12: "gather(): Expected dtype int64 for index" (torch 2.x also accepts int32): we follow 1.12.
    x = torch.ones(2, 2)
    with pytest.raises(RuntimeError, match="int64"):
        torch.gather(x, 0, torch.zeros(1, 1, dtype=torch.int32))
    with pytest.raises(RuntimeError, match="int64"):
        x.scatter(0, torch.zeros(1, 1, dtype=torch.int32), 1.0)


IDX_ERRS = {
    "masked_fill_float_mask": lambda t, x: x.masked_fill(t.ones(2, 3, 4), 0.0),
    "masked_fill_1d_value": lambda t, x: x.masked_fill(x > 1, t.ones(2)),
    "index_select_2d": lambda t, x: x.index_select(0, t.zeros(1, 1, dtype=t.int64)),
    "take_oob": lambda t, x: t.take(x, t.tensor([24])),
    "scatter_bad_reduce": lambda t, x: x.scatter(0, t.zeros(1, 1, 1, dtype=t.int64), 1.0, reduce="max"),
    "bucketize_2d": lambda t, x: t.bucketize(x, x),
}


@pytest.mark.parametrize("name", sorted(IDX_ERRS))
def test_indexing_op_errors(reftorch, name):
    x, rx = pair(reftorch)
    with pytest.raises(Exception) as e:
        IDX_ERRS[name](reftorch, rx)
    with pytest.raises(e.type):
        IDX_ERRS[name](torch, x)


def test_scatter_after_a_3d_scatter(reftorch):
    """MindSpore 2.10's CPU Scatter kernel kept state: after a 3-D scatter, a 2-D one skipped every other row."""
    torch.zeros(5, 3, 2).scatter(-1, torch.zeros(5, 3, 1, dtype=torch.int64), 5.0)
    for T in (torch, reftorch):
        got = T.zeros(5, 3).scatter(-1, T.zeros(5, 1, dtype=T.int64), 5.0)
        assert got[:, 0].tolist() == [5.0] * 5
    x, src = torch.randn(4, 3, requires_grad=True), torch.randn(4, 1, requires_grad=True)
    xr, srcr = (reftorch.tensor(t.detach().numpy(), requires_grad=True) for t in (x, src))
    for a, s, T in ((x, src, torch), (xr, srcr, reftorch)):
        (a.scatter(1, T.tensor([[2], [0], [1], [2]]), s) * T.arange(12.0).reshape(4, 3)).sum().backward()
    assert_same(x.grad, xr.grad)
    assert_same(src.grad, srcr.grad)


@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_scatter_src_dtype_must_match(reftorch, op):
    for T in (torch, reftorch):
        with pytest.raises(RuntimeError, match="Expected self.dtype to be equal to src.dtype"):
            getattr(T.zeros(3), op)(0, T.tensor([0]), T.tensor([1], dtype=T.int64))


@pytest.mark.parametrize("idx", [[[-1]], [[3]]])
def test_gather_index_out_of_range(reftorch, idx):
    """MindSpore's GatherD accepts [-size, size): a -1 read the last element (Categorical.log_prob(-1))."""
    for T in (torch, reftorch):
        with pytest.raises(RuntimeError, match=r"index -?\d is out of bounds for dimension 1 with size 3"):
            T.arange(6.0).reshape(2, 3).gather(1, T.tensor(idx))
