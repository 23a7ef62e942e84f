"""default_collate / default_convert against real torch's on the same samples."""
import collections
import collections.abc

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch.utils.data import default_collate, default_convert

Point = collections.namedtuple("Point", ["x", "y"])


def _samples():
    rng = np.random.default_rng(0)
    return {
        "floats": [1.5, 2.0, -3.25],
        "ints": [1, 2, 3],
        "bools": [True, False, True],
        "np_f32_scalars": [np.float32(1.5), np.float32(2.5), np.float32(0.0)],
        "np_i32_scalars": [np.int32(1), np.int32(-2), np.int32(7)],
        "np_0d": [np.array(1.0), np.array(2.0), np.array(3.0)],
        "np_arrays": [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(3)],
        "np_uint8": [rng.integers(0, 255, (3, 4, 4), dtype=np.uint8) for _ in range(3)],
        "np_f64": [rng.standard_normal(4) for _ in range(3)],
        "dicts": [{"a": i, "b": np.full(2, i, np.float32), "s": f"n{i}"} for i in range(3)],
        "tuples": [(np.ones(2, np.float32) * i, i) for i in range(3)],
        "lists": [[i, float(i)] for i in range(3)],
        "nested": [{"p": (i, [np.int64(i), 0.5])} for i in range(3)],
        "strings": ["a", "bb", "ccc"],
    }


def _assert_tree(mine, ref):
    if hasattr(ref, "shape") and type(ref).__module__.startswith("torch"):
        assert isinstance(mine, torch.Tensor), type(mine)
        assert_same(mine, ref, rtol=0, atol=0)
    elif isinstance(ref, dict):
        assert type(mine) is type(ref) and list(mine) == list(ref)
        for k in ref:
            _assert_tree(mine[k], ref[k])
    elif isinstance(ref, (list, tuple)):
        assert type(mine) is type(ref) and len(mine) == len(ref), (type(mine), type(ref))
        for m, r in zip(mine, ref):
            _assert_tree(m, r)
    else:
        assert mine == ref


@pytest.mark.parametrize("kind", list(_samples()))
def test_default_collate_matches_torch(reftorch, kind):
    from torch.utils.data import default_collate as ref_collate

    batch = _samples()[kind]
    _assert_tree(default_collate(batch), ref_collate(batch))


def test_collate_namedtuple_and_tensors(reftorch):
    from torch.utils.data import default_collate as ref_collate

    arrs = [np.arange(6, dtype=np.float32).reshape(2, 3) + i for i in range(3)]
    mine = default_collate([Point(torch.tensor(a), i) for i, a in enumerate(arrs)])
    ref = ref_collate([Point(reftorch.tensor(a), i) for i, a in enumerate(arrs)])
    assert type(mine) is Point
    assert_same(mine.x, ref.x, rtol=0, atol=0)
    assert_same(mine.y, ref.y, rtol=0, atol=0)


def test_collate_errors_match_torch(reftorch):
    from torch.utils.data import default_collate as ref_collate

    for batch, exc in [([[1, 2], [1]], RuntimeError), ([np.array(["a"], dtype=object)] * 2, TypeError),
                       ([object(), object()], TypeError)]:
        with pytest.raises(exc):
            ref_collate(batch)
        with pytest.raises(exc):
            default_collate(batch)


def test_default_convert_matches_torch(reftorch):
    from torch.utils.data import default_convert as ref_convert

    data = {"x": np.arange(3, dtype=np.int16), "y": (np.float32(2.0), "s", 4), "z": [np.ones((2, 2))]}
    _assert_tree(default_convert(data), ref_convert(data))


class _Seq(collections.abc.Sequence):
    """A user Sequence that can be built from a list (torch 1.12 collate rebuilds it with elem_type(list))."""

    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class _FixedSeq(_Seq):
    """A Sequence whose constructor does not take one list: collate falls back to a plain list."""

    def __init__(self, a, b):
        super().__init__([a, b])


def _assert_seq_tree(mine, ref):
    assert type(mine) is type(ref), (type(mine), type(ref))
    assert len(mine) == len(ref)
    for m, r in zip(mine, ref):
        assert isinstance(m, torch.Tensor), type(m)
        assert_same(m, r, rtol=0, atol=0)


_SEQ_KINDS = {
    "deque": lambda a, b: collections.deque([a, b]),
    "userlist": lambda a, b: collections.UserList([a, b]),
    "custom": lambda a, b: _Seq([a, b]),
    "fixed": _FixedSeq,
}


@pytest.mark.parametrize("kind", list(_SEQ_KINDS))
def test_collate_generic_sequences_hold_tensors(reftorch, kind):
    # deque / UserList / user Sequences come back as their own type (or a list) holding tensors, not payloads
    from torch.utils.data import default_collate as ref_collate

    make = _SEQ_KINDS[kind]
    batch = [make(1, 2.5), make(3, np.float32(4.0))]
    _assert_seq_tree(default_collate(batch), ref_collate(batch))


class _DequeSamples:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return collections.deque([i, np.full(2, i, np.float32)])


@pytest.mark.parametrize("num_workers", [0, 2])
def test_dataloader_deque_samples_hold_tensors(reftorch, num_workers):
    from mindtorch.torch.utils.data import DataLoader

    mine = list(DataLoader(_DequeSamples(), batch_size=2, num_workers=num_workers))
    ref = list(reftorch.utils.data.DataLoader(_DequeSamples(), batch_size=2, num_workers=num_workers))
    assert len(mine) == len(ref)
    for m, r in zip(mine, ref):
        _assert_seq_tree(m, r)


def _collate_to_deque(batch):
    return collections.deque([torch.tensor([b[0] for b in batch])])


def test_dataloader_user_collate_deque_with_workers():
    # a user collate_fn returning a deque of tensors: the tensors cross the worker pipe and arrive as tensors
    from mindtorch.torch.utils.data import DataLoader

    out = list(DataLoader(_DequeSamples(), batch_size=2, num_workers=2, collate_fn=_collate_to_deque))
    assert [type(b) for b in out] == [collections.deque] * 2
    assert all(isinstance(b[0], torch.Tensor) for b in out)
    assert [b[0].tolist() for b in out] == [[0, 1], [2, 3]]


def test_collate_leaves_plain_sequences_alone():
    # ranges stay what torch makes of them (a list of tensors); strings pass through
    out = default_collate([range(2), range(2)])
    assert type(out) is list and [t.tolist() for t in out] == [[0, 0], [1, 1]]
    assert default_convert(range(3)) == [0, 1, 2]
