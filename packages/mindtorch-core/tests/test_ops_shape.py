"""Shape/view ops against real PyTorch; views share memory both ways as in torch."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def pair(reftorch, arr=A):
    return torch.tensor(arr), reftorch.tensor(arr)


# (name, function of (lib, x)) -> compared with torch
OPS = {
    "view": lambda t, x: x.view(4, 6), "view_m1": lambda t, x: x.view(-1, 4), "view_as": lambda t, x: x.view_as(
        t.zeros(6, 4)), "reshape": lambda t, x: x.reshape(3, -1), "reshape_fn": lambda t, x: t.reshape(x, (24,)),
    "reshape_as": lambda t, x: x.reshape_as(t.zeros(4, 6)), "permute": lambda t, x: x.permute(2, 0, 1),
    "permute_tuple": lambda t, x: t.permute(x, (1, 2, 0)), "transpose": lambda t, x: x.transpose(0, 2),
    "swapaxes": lambda t, x: t.swapaxes(x, 0, 1), "swapdims": lambda t, x: x.swapdims(-1, 0),
    "movedim": lambda t, x: t.movedim(x, 0, -1), "moveaxis": lambda t, x: t.moveaxis(x, (0, 1), (2, 0)),
    "t": lambda t, x: x[0].t(), "t1d": lambda t, x: x[0, 0].t(), "T": lambda t, x: x.T, "mT": lambda t, x: x.mT,
    "H": lambda t, x: x[0].H, "contiguous": lambda t, x: x.transpose(0, 1).contiguous(),
    "clone": lambda t, x: x.clone(), "squeeze": lambda t, x: x.view(2, 1, 12, 1).squeeze(),
    "squeeze_dim": lambda t, x: x.view(2, 1, 12, 1).squeeze(1), "squeeze_noop": lambda t, x: x.squeeze(0),
    "unsqueeze": lambda t, x: x.unsqueeze(-1), "unsqueeze0": lambda t, x: t.unsqueeze(x, 0),
    "flatten": lambda t, x: x.flatten(), "flatten_range": lambda t, x: t.flatten(x, 1),
    "unflatten": lambda t, x: x.unflatten(2, (2, 2)), "expand": lambda t, x: x[:, :1].expand(2, 5, 4),
    "expand_m1": lambda t, x: x[None].expand(3, -1, -1, -1), "expand_as": lambda t, x: x[0, 0].expand_as(x),
    "broadcast_to": lambda t, x: t.broadcast_to(x[0, :, :1], (3, 3, 4)), "repeat": lambda t, x: x.repeat(1, 2, 1),
    "repeat_more": lambda t, x: x[0].repeat(2, 1, 2), "tile": lambda t, x: t.tile(x, (2,)),
    "repeat_interleave": lambda t, x: t.repeat_interleave(x, 2, dim=1),
    "repeat_interleave_flat": lambda t, x: x[0, 0].repeat_interleave(2),
    "repeat_interleave_tensor": lambda t, x: t.repeat_interleave(x[0], t.tensor([1, 0, 2]), dim=0),
    "repeat_interleave_only": lambda t, x: t.repeat_interleave(t.tensor([2, 1, 3])),
    "cat": lambda t, x: t.cat([x, x], 1), "cat_neg": lambda t, x: t.cat((x, x[:, :1]), dim=-2),
    "concat": lambda t, x: t.concat([x, x]), "cat_promote": lambda t, x: t.cat([x[0], t.ones(1, 4,
                                                                                              dtype=t.int64)]),
    "cat_legacy_empty": lambda t, x: t.cat([t.tensor([]), x[0, 0]]), "stack": lambda t, x: t.stack([x, x], 1),
    "stack_neg": lambda t, x: t.stack([x[0], x[1]], -1), "hstack": lambda t, x: t.hstack([x[0], x[1]]),
    "hstack1d": lambda t, x: t.hstack([x[0, 0], x[0, 1]]), "vstack": lambda t, x: t.vstack([x[0, 0], x[0, 1]]),
    "dstack": lambda t, x: t.dstack([x[0], x[1]]), "column_stack": lambda t, x: t.column_stack([x[0, 0], x[0, 1]]),
    "split": lambda t, x: x.split(2, 2), "split_sizes": lambda t, x: t.split(x, [1, 2], 1),
    "tensor_split": lambda t, x: t.tensor_split(x, 3, 2), "tensor_split_idx": lambda t, x: x.tensor_split([1, 3], 2),
    "chunk": lambda t, x: x.chunk(2, 2), "chunk_uneven": lambda t, x: t.chunk(x, 2, 1),
    "unbind": lambda t, x: x.unbind(1), "narrow": lambda t, x: x.narrow(2, 1, 2),
    "narrow_neg": lambda t, x: t.narrow(x, -1, -3, 2), "select": lambda t, x: x.select(1, -1),
    "flip": lambda t, x: x.flip(0, 2), "flip_tuple": lambda t, x: t.flip(x, (1,)),
    "fliplr": lambda t, x: t.fliplr(x), "flipud": lambda t, x: x.flipud(), "roll": lambda t, x: x.roll(1, 2),
    "roll_multi": lambda t, x: t.roll(x, (1, -1), (0, 2)), "roll_flat": lambda t, x: t.roll(x, 5),
    "rot90": lambda t, x: t.rot90(x, 1, (1, 2)), "rot90_k2": lambda t, x: x.rot90(2), "rot90_k3": lambda t, x: x.rot90(
        -1, (0, 2)), "tril": lambda t, x: x.tril(), "tril_k": lambda t, x: t.tril(x, 1), "triu": lambda t, x: x.triu(),
    "triu_k": lambda t, x: t.triu(x, -1), "tril_int": lambda t, x: x.long().tril(), "diag1d": lambda t, x: t.diag(
        x[0, 0]), "diag1d_k": lambda t, x: t.diag(x[0, 0], 1), "diag2d": lambda t, x: x[0].diag(),
    "diag2d_k": lambda t, x: t.diag(x[0], -1), "diagonal": lambda t, x: x.diagonal(), "diagonal_off": lambda t, x:
    t.diagonal(x, 1, 1, 2), "diag_embed": lambda t, x: t.diag_embed(x[0]), "diagflat": lambda t, x: t.diagflat(
        x[0, :2]), "atleast_1d": lambda t, x: t.atleast_1d(x[0, 0, 0]), "atleast_2d": lambda t, x: t.atleast_2d(
        x[0, 0]), "atleast_3d": lambda t, x: t.atleast_3d(x[0]), "atleast_3d_1d": lambda t, x: t.atleast_3d(x[0, 0]),
    "atleast_many": lambda t, x: t.atleast_2d(x[0, 0, 0], x[0]), "meshgrid": lambda t, x: t.meshgrid(
        x[0, 0], x[0, :, 0], indexing="ij"), "meshgrid_xy": lambda t, x: t.meshgrid(x[0, 0], x[0, :, 0], indexing="xy"),
    "broadcast_tensors": lambda t, x: t.broadcast_tensors(x[:, :1], x[0, :, :1]),
    "swap_int": lambda t, x: x.int().transpose(0, 1), "clone_bool": lambda t, x: (x > 3).clone(),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_op(reftorch, name):
    import warnings

    x, rx = pair(reftorch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(OPS[name](torch, x), OPS[name](reftorch, rx))


VIEWS = {
    "view": lambda x: x.view(6, 4), "reshape": lambda x: x.reshape(4, 6), "slice": lambda x: x[1:, :, ::2],
    "select": lambda x: x[1], "narrow": lambda x: x.narrow(2, 1, 2), "transpose": lambda x: x.transpose(0, 2),
    "permute": lambda x: x.permute(1, 2, 0), "T": lambda x: x.T, "squeeze": lambda x: x[None].squeeze(0),
    "unsqueeze": lambda x: x.unsqueeze(1), "split": lambda x: x.split(2, 2)[1], "chunk": lambda x: x.chunk(3, 1)[2],
    "unbind": lambda x: x.unbind(0)[1], "diagonal": lambda x: x.diagonal(0, 1, 2), "flatten": lambda x: x.flatten(),
    "expand": lambda x: x[:, :1].expand(2, 3, 4), "movedim": lambda x: x.movedim(0, 2), "t": lambda x: x[0].t(),
    "unflatten": lambda x: x.unflatten(2, (2, 2)), "view_as": lambda x: x.view_as(x.reshape(4, 6)),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_views_share_memory(reftorch, name):
    """A write through the view is seen by the base and a write into the base is seen by the view (also
    through the registry's in-place ops like add_), exactly as torch does."""
    x, rx = pair(reftorch)
    v, rv = VIEWS[name](x), VIEWS[name](rx)
    assert_same(v, rv)
    if name != "expand":  # torch refuses in-place writes to expanded (overlapping) views
        v.add_(100)
        rv.add_(100)
        assert_same(x, rx)
        v[...] = -1.0
        rv[...] = -1.0
        assert_same(x, rx)
    x.mul_(2)
    rx.mul_(2)
    assert_same(v, rv)
    x[0] = 5.0
    rx[0] = 5.0
    assert_same(v, rv)


def test_strides_offsets_contiguity(reftorch):
    x, rx = pair(reftorch)
    for f in (lambda a: a, lambda a: a.transpose(0, 2), lambda a: a[1], lambda a: a[:, 1:, ::2],
              lambda a: a.narrow(2, 1, 2), lambda a: a[:, :1].expand(2, 3, 4)):
        m, r = f(x), f(rx)
        assert m.stride() == r.stride() and m.storage_offset() == r.storage_offset()
        assert m.is_contiguous() == r.is_contiguous()
        assert m.stride(-1) == r.stride(-1)
    assert x.contiguous() is x
    c = x.transpose(0, 1).contiguous()
    assert c.is_contiguous() and c.stride() == rx.transpose(0, 1).contiguous().stride()
    assert isinstance(x.data_ptr(), int) and x[1].data_ptr() == x.data_ptr() + 12 * 4


def test_view_dtype(reftorch):
    x, rx = torch.tensor([1.0, 2.0]), reftorch.tensor([1.0, 2.0])
    assert_same(x.view(torch.int32), rx.view(reftorch.int32))
    assert_same(x.view(torch.int16), rx.view(reftorch.int16))
    v = x.view(torch.int32)
    v[0] = 0
    assert x[0].item() == 0.0  # shares memory
    with pytest.raises(NotImplementedError, match="view"):
        x.view(torch.bfloat16)


def test_broadcast_shapes(reftorch):
    assert torch.broadcast_shapes((2, 1), (3,)) == reftorch.broadcast_shapes((2, 1), (3,))
    assert isinstance(torch.broadcast_shapes((1,), (4, 1)), torch.Size)
    with pytest.raises(RuntimeError):
        torch.broadcast_shapes((2,), (3,))


ERRORS = {
    "view_bad": lambda t, x: x.view(5, 5), "view_noncontig": lambda t, x: x.transpose(0, 1).view(-1),
    "view_two_m1": lambda t, x: x.view(-1, -1), "permute_len": lambda t, x: x.permute(0, 1),
    "transpose_dim": lambda t, x: x.transpose(0, 3), "t3d": lambda t, x: x.t(), "expand_bad": lambda t, x:
    x.expand(2, 5, 4), "cat_mismatch": lambda t, x: t.cat([x, x[:, :2]], 2), "stack_mismatch": lambda t, x:
    t.stack([x, x[0]]), "split_sum": lambda t, x: x.split([1, 1], 1), "narrow_len": lambda t, x: x.narrow(0, 1, 5),
    "select_oob": lambda t, x: x.select(0, 5), "squeeze_dim": lambda t, x: x.squeeze(5), "unsqueeze_dim":
    lambda t, x: x.unsqueeze(7), "flatten_order": lambda t, x: x.flatten(2, 1), "repeat_few": lambda t, x:
    x.repeat(2), "cat_0d": lambda t, x: t.cat([x[0, 0, 0], x[0, 0, 0]]), "diagonal_same": lambda t, x:
    x.diagonal(0, 1, 1), "rot90_dims": lambda t, x: x.rot90(1, (0, 0)), "tril_1d": lambda t, x: x[0, 0].tril(),
    "chunk0": lambda t, x: x.chunk(0), "unbind_0d": lambda t, x: x[0, 0, 0].unbind(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(reftorch, name):
    x, rx = pair(reftorch)
    with pytest.raises(Exception) as ref_err:
        ERRORS[name](reftorch, rx)
    with pytest.raises(ref_err.type):
        ERRORS[name](torch, x)


EXTRA = {
    "ravel": lambda t, x: x.transpose(0, 1).ravel(), "hsplit": lambda t, x: t.hsplit(x, 3),
    "hsplit_idx": lambda t, x: x.hsplit([1]), "vsplit": lambda t, x: t.vsplit(x, 2), "dsplit": lambda t, x:
    t.dsplit(x, [1, 3]), "block_diag": lambda t, x: t.block_diag(x[0], x[1, :2, :1], x[0, 0, 0]),
    "cartesian_prod": lambda t, x: t.cartesian_prod(x[0, 0, :2], x[1, 0, :3]),
    "select_scatter": lambda t, x: t.select_scatter(x, t.zeros(2, 4), 1, 0),
    "slice_scatter": lambda t, x: t.slice_scatter(x, t.zeros(2, 3, 2), 2, 0, 4, 2),
    "diagonal_scatter": lambda t, x: t.diagonal_scatter(x[0], t.ones(3), 1),
}


@pytest.mark.parametrize("name", sorted(EXTRA))
def test_extra_ops(reftorch, name):
    x, rx = pair(reftorch)
    assert_same(EXTRA[name](torch, x), EXTRA[name](reftorch, rx))


def test_legacy_typed_tensors(reftorch):
    for name in ("FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "BoolTensor", "ByteTensor"):
        m, r = getattr(torch, name)([1, 0, 2]), getattr(reftorch, name)([1, 0, 2])
        assert_same(m, r)
        assert isinstance(m, getattr(torch, name)) and not isinstance(m.float() if name != "FloatTensor" else m.long(),
                                                                       getattr(torch, name))
    assert tuple(torch.FloatTensor(2, 3).shape) == (2, 3)
    assert_same(torch.scalar_tensor(3), reftorch.scalar_tensor(3))
    assert_same(torch.frombuffer(bytearray(b"\x01\x00\x02\x00"), dtype=torch.int16),
                reftorch.frombuffer(bytearray(b"\x01\x00\x02\x00"), dtype=reftorch.int16))
    x, rx = pair(reftorch)
    assert torch.is_same_size(x, x[:]) and not x.is_conj() and x.resolve_conj() is x


@pytest.mark.parametrize("case", ["zero_", "fill_int_cast", "copy_broadcast_cast", "fill_diagonal_wrap",
                                  "fill_diagonal_3d"])
def test_inplace_without_twin_match_torch(reftorch, case):
    """zero_/fill_/copy_/fill_diagonal_ write through views and cast like torch."""
    def run(t):
        x = t.arange(20, dtype=t.float32).reshape(4, 5)
        if case == "zero_":
            x[:, 1::2].zero_()
        elif case == "fill_int_cast":
            x = t.zeros(2, 3, dtype=t.int64)
            x[1].fill_(2.7)
        elif case == "copy_broadcast_cast":
            x.t()[1:3].copy_(t.tensor([1, 2, 3, 4], dtype=t.int32))
        elif case == "fill_diagonal_wrap":
            x = t.zeros(7, 3)
            x.fill_diagonal_(4.0, wrap=True)
        else:
            x = t.zeros(3, 3, 3)
            x.fill_diagonal_(1.0)
        return x

    assert_same(run(torch), run(reftorch))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_select_and_unbind_backward(reftorch, dim):
    # MindSpore's own select view has a backward that fails on CPU (InplaceCopy kernel); ours is narrow + squeeze
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    grads = []
    for t in (torch, reftorch):
        x = t.tensor(data, requires_grad=True)
        loss = (x.select(dim, 1) * 3).sum() + sum((u * t.arange(1.0, 1.0 + u.shape[0])).sum()
                                                   for u in (x * 1).unbind(dim))
        loss = loss + t.stack([x.select(0, i) for i in range(3)]).pow(2).sum()
        loss.backward()
        grads.append(x.grad)
    assert_same(grads[0], grads[1])


@pytest.mark.parametrize("shape,reps,fn", [((0, 7), (5, 1, 1), "repeat"), ((0, 7), (2, 1), "tile"),
                                           ((3,), (0,), "repeat"), ((3, 2), (2, 0, 1), "repeat"),
                                           ((2,), (0,), "tile")])
def test_repeat_and_tile_to_empty(reftorch, shape, reps, fn):
    """YOLOv5's build_targets repeats a (0, 7) tensor when a level matches no target (MindSpore's Tile refused)."""
    got = [getattr(T.zeros(*shape, requires_grad=True), fn)(*((reps,) if fn == "tile" else reps))
           for T in (torch, reftorch)]
    assert tuple(got[0].shape) == tuple(got[1].shape) and got[0].requires_grad
