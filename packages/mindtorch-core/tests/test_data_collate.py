"""default_collate / default_convert against real torch's on the same samples."""
import collections

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
