"""torch.utils.data idioms of real training scripts, run against mindtorch and real torch and compared.

Reference is torch 2.13 (installed); where torch 1.12 (the API mindtorch follows) behaves differently the test
says so and checks 1.12's behaviour. Multi-process tests use 2 workers, tiny datasets and bounded time.
"""
import collections
import multiprocessing
import os
import random
import time
import warnings

import numpy as np
import pytest

import mindtorch.torch as torch
from mindtorch.torch.utils import data as D

P = collections.namedtuple("P", ["a", "b"])


def _norm(x, ref):
    """A comparable description of a collate output (tensors by dtype name, shape and values)."""
    if isinstance(x, (torch.Tensor, ref.Tensor)):
        return ("T", str(x.dtype).replace("torch.", ""), tuple(x.shape), x.tolist())
    if isinstance(x, dict):
        return (type(x).__name__, {k: _norm(v, ref) for k, v in x.items()})
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_norm(v, ref) for v in x])
    return (type(x).__name__, x)


def _collate_cases(lib):
    """The same batches built with `lib` (mindtorch or torch) for the tensor entries."""
    return {
        "floats": [1.0, 2.5], "ints": [1, 2], "bools": [True, False], "int_bool": [1, True],
        "int_float": [1, 2.5],  # torch.tensor infers the default dtype: float32 (was truncated to int64)
        "float_int": [2.5, 1], "int_complex": [1, 1j], "strs": ["a", "b"], "bytes": [b"a", b"b"],
        "np_f64": [np.zeros(2), np.ones(2)], "np_i32_scalars": [np.int32(1), np.int32(2)],
        "np_f32_scalar_float": [np.float32(1), 2.5],  # float32 in torch (numpy would say float64)
        "np_i64_f32_scalars": [np.int64(1), np.float32(2)], "np_i8_u8": [np.int8(1), np.uint8(2)],
        "np_0d": [np.array(1.5), np.array(2.5)], "np_f32_f64_arrays": [np.zeros(2, np.float32), np.zeros(2)],
        "np_str_scalars": [np.str_("a"), np.str_("b")], "np_bytes_scalars": [np.bytes_(b"a"), np.bytes_(b"b")],
        "tensors": [lib.zeros(2), lib.ones(2)], "int_and_0d_tensor": [1, lib.tensor(2)],
        "tensor_i64_f32": [lib.zeros(2, dtype=lib.int64), lib.ones(2)],  # promoted to float32 as torch.stack
        "nested": [([1, 2], {"a": (np.zeros(1), "s")}), ([3, 4], {"a": (np.ones(1), "t")})],
        "namedtuple": [P(1, 2.0), P(3, 4.0)], "ordered": [collections.OrderedDict(a=1), collections.OrderedDict(a=2)],
        "range": [range(2), range(2)], "str_lists": [["a", "b"], ["c", "d"]],
    }


def test_default_collate_types_dtypes_shapes_equal_torch(reftorch):
    mine, ref = _collate_cases(torch), _collate_cases(reftorch)
    for name in mine:
        got = _norm(D.default_collate(mine[name]), reftorch)
        want = _norm(reftorch.utils.data.default_collate(ref[name]), reftorch)
        assert got == want, name


def test_default_collate_errors_equal_torch(reftorch):
    cases = {
        "none": [None, None], "object": [object(), object()], "set": [{1}, {2}], "complex": [1j, 2j],
        "np_str_array": [np.array(["a"]), np.array(["b"])], "np_object_array": [np.array([None])] * 2,
        "uneven_lists": [[1, 2], [3]], "int_str": [1, "a"], "int_none": [1, None], "float_str": [1.0, "a"],
        "np_scalar_str": [np.int64(1), "a"], "np_array_int": [np.zeros(2), 1], "int_overflow": [2 ** 63, 1],
        "np_shapes": [np.zeros(2), np.zeros(3)],
    }
    for name, batch in cases.items():
        with pytest.raises(Exception) as want:
            reftorch.utils.data.default_collate(batch)
        with pytest.raises(want.type) as got:
            D.default_collate(batch)
        if name not in ("object", "set"):  # the found-type repr names a class of each library's own module
            assert str(got.value) == str(want.value), name
    for lib, coll in ((torch, D.default_collate), (reftorch, reftorch.utils.data.default_collate)):
        with pytest.raises(RuntimeError, match=r"but got \[2, 3\] at entry 0 and \[3, 2\] at entry 1"):
            coll([lib.zeros(2, 3), lib.zeros(3, 2)])
        with pytest.raises(TypeError, match="expected Tensor as element 1 in argument 0, but got numpy.ndarray"):
            coll([lib.zeros(2), np.zeros(2)])


def test_default_collate_keeps_autograd_and_default_convert_returns_tensors_as_is(reftorch):
    a = torch.ones(2, requires_grad=True)
    batch = D.default_collate([a, torch.zeros(2)])
    assert batch.requires_grad and reftorch.utils.data.default_collate(
        [reftorch.ones(2, requires_grad=True), reftorch.zeros(2)]).requires_grad
    batch.sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]
    t = torch.zeros(2)
    assert D.default_convert(t) is t and D.default_convert([t])[0] is t
    converted = D.default_convert({"a": np.int32(3), "b": (np.zeros(1), 2), "s": np.array(["x"])})
    ref = reftorch.utils.data.default_convert({"a": np.int32(3), "b": (np.zeros(1), 2), "s": np.array(["x"])})
    assert _norm({k: v for k, v in converted.items() if k != "s"}, reftorch) == \
        _norm({k: v for k, v in ref.items() if k != "s"}, reftorch)
    assert isinstance(converted["s"], np.ndarray) and isinstance(ref["s"], np.ndarray)


def test_default_collate_defaultdict_is_a_dict_as_in_1_12():
    # torch 1.12 rebuilds a mapping with type(elem)(dict), which defaultdict refuses, so it returns a plain dict;
    # torch >= 2.1 copies the mapping and keeps defaultdict
    out = D.default_collate([collections.defaultdict(int, a=1), collections.defaultdict(int, a=2)])
    assert type(out) is dict and out["a"].tolist() == [1, 2]


def test_weighted_random_sampler_equal_torch(reftorch):
    mine, ref = D.WeightedRandomSampler([1.0, 2.0], 3), reftorch.utils.data.WeightedRandomSampler([1.0, 2.0], 3)
    assert isinstance(mine.weights, torch.Tensor) and mine.weights.dtype == torch.float64
    assert ref.weights.dtype == reftorch.float64
    # without replacement the zero-weight indices come last instead of an error (torch >= 1.7, so 1.12 too)
    for lib, tlib in ((D, torch), (reftorch.utils.data, reftorch)):
        drawn = list(lib.WeightedRandomSampler([1.0, 0.0, 1.0], 3, replacement=False))
        assert sorted(drawn[:2]) == [0, 2] and drawn[2] == 1
        with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
            list(lib.WeightedRandomSampler([1.0, 0.0, 1.0], 4, replacement=False))
        with pytest.raises(RuntimeError, match=r"sum of probabilities <= 0"):
            list(lib.WeightedRandomSampler([0.0, 0.0], 2))
        with pytest.raises(RuntimeError, match="probability tensor contains either"):
            list(lib.WeightedRandomSampler([1.0, float("nan")], 2, replacement=False))
        assert list(lib.WeightedRandomSampler(tlib.tensor([0.0, 0.0, 2.0]), 3)) == [2, 2, 2]


def test_distributed_sampler_indices_equal_torch(reftorch):
    pytest.importorskip("mindtorch.distributed")  # DistributedSampler is mindtorch-distributed's (a split package)
    for n in (3, 10, 11):
        for replicas in (3, 4):
            for drop_last in (False, True):
                for shuffle in (False, True):
                    for rank in range(replicas):
                        kw = dict(num_replicas=replicas, rank=rank, shuffle=shuffle, seed=7, drop_last=drop_last)
                        mine = D.DistributedSampler(list(range(n)), **kw)
                        ref = reftorch.utils.data.DistributedSampler(list(range(n)), **kw)
                        for epoch in (0, 1):
                            mine.set_epoch(epoch)
                            ref.set_epoch(epoch)
                            assert list(mine) == list(ref) and len(mine) == len(ref)


def test_same_seed_same_shuffle_with_and_without_workers(reftorch):
    # torch draws the workers' base seed for every iterator, workers or not, so the global RNG advances alike and
    # num_workers does not change a seeded shuffle (mindtorch drew it only with workers)
    orders, after = [], []
    for num_workers in (0, 2):
        torch.manual_seed(3)
        orders.append([b.tolist() for b in D.DataLoader(range(8), batch_size=4, shuffle=True,
                                                         num_workers=num_workers, timeout=30)])
        after.append(torch.rand(2).tolist())
    assert orders[0] == orders[1] and after[0] == after[1]
    torch.manual_seed(3)
    assert torch.rand(2).tolist() != after[0]  # the iterator did consume the global RNG, as torch's


class _Rng(D.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        wi = D.get_worker_info()
        return [wi.id, wi.seed, random.random(), float(np.random.rand()), torch.initial_seed()]


def test_worker_seeding_follows_torch(reftorch):
    from torch.utils.data._utils.worker import _generate_state

    epochs = []
    for _ in range(2):
        rows = list(D.DataLoader(_Rng(), batch_size=None, num_workers=2, timeout=30))
        by_worker = {}
        for wid, seed, py_r, np_r, initial in rows:
            by_worker.setdefault(wid, (seed, py_r, np_r, initial))
        assert sorted(by_worker) == [0, 1] and by_worker[1][0] - by_worker[0][0] == 1  # base_seed + worker_id
        for wid, (seed, py_r, np_r, initial) in by_worker.items():
            assert initial == seed  # torch.manual_seed(seed)
            random.seed(seed)
            assert py_r == random.random()  # random.seed(seed)
            # numpy IS reseeded per worker in torch >= 1.9 (pytorch#56488), 1.12 included: same formula, same draw
            np.random.seed(_generate_state(seed - wid, wid))
            assert np_r == float(np.random.rand())
        epochs.append(by_worker[0][2:4])
    assert epochs[0] != epochs[1]  # a new base seed every epoch


class _Slow(D.Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        time.sleep(5)
        return i


def test_timeout_raises_promptly():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0.5 seconds"):
        list(D.DataLoader(_Slow(), num_workers=1, timeout=0.5))
    assert time.monotonic() - start < 2.5  # the stuck worker is terminated, not waited for


def test_dataloader_argument_checks_follow_1_12(reftorch):
    loader = D.DataLoader(range(4), batch_size=2)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after DataLoader is initialized"):
        loader.batch_size = 3
    loader.num_workers = 0  # not one of the frozen attributes
    for kwargs, err, msg in (
            ({"num_workers": 1, "multiprocessing_context": "bogus"}, ValueError, "valid start method"),
            ({"num_workers": 0, "multiprocessing_context": "spawn"}, ValueError, "num_workers > 0"),
            ({"num_workers": 1, "multiprocessing_context": 3}, TypeError, "valid context object")):
        for dl in (D.DataLoader, reftorch.utils.data.DataLoader):
            with pytest.raises(err, match=msg):
                dl(range(4), **kwargs)
    spawn = D.DataLoader(range(4), num_workers=1, multiprocessing_context="spawn").multiprocessing_context
    assert isinstance(spawn, multiprocessing.context.SpawnContext)
    # 1.12: `assert prefetch_factor > 0` and prefetch_factor=2 by default (2.x: None and no check at init)
    with pytest.raises(AssertionError):
        D.DataLoader(range(4), num_workers=1, prefetch_factor=0)
    assert D.DataLoader(range(4)).prefetch_factor == 2


def test_worker_number_warning_equals_torch(reftorch):
    many = len(os.sched_getaffinity(0)) + 1
    texts = []
    for dl in (D.DataLoader, reftorch.utils.data.DataLoader):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            dl(range(4), num_workers=many).check_worker_number_rationality()
        texts.append([str(w.message) for w in caught])
    # same text; torch 2.x also warns when the loader is built, 1.12 (and mindtorch) only per iterator
    assert len(texts[0]) == 1 and texts[0] == texts[1][-1:]


def test_pin_memory_without_accelerator_is_silent_as_1_12():
    # torch 1.12 just skips pinning without CUDA; the "no accelerator is found" warning is torch >= 2.4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batches = [b.tolist() for b in D.DataLoader(range(4), batch_size=2, pin_memory=True)]
    assert batches == [[0, 1], [2, 3]]


class _Box:
    def __init__(self, v):
        self.v = v


def _box_collate(batch):
    return _Box([int(x) for x in batch])


def test_custom_collate_objects_and_tensor_dataset_in_workers(reftorch):
    for workers in (0, 2):
        got = [b.v for b in D.DataLoader(range(5), batch_size=2, collate_fn=_box_collate, num_workers=workers,
                                         timeout=30)]
        assert got == [[0, 1], [2, 3], [4]]
    x, y = np.arange(12.0).reshape(6, 2), np.arange(6)
    ref = [_norm(b, reftorch) for b in reftorch.utils.data.DataLoader(
        reftorch.utils.data.TensorDataset(reftorch.tensor(x), reftorch.tensor(y)), batch_size=4)]
    for workers in (0, 2):
        got = [_norm(b, reftorch) for b in D.DataLoader(
            D.TensorDataset(torch.tensor(x), torch.tensor(y)), batch_size=4, num_workers=workers, timeout=30)]
        assert got == ref


def test_spawn_context_by_name():
    batches = [b.tolist() for b in D.DataLoader(range(5), batch_size=2, num_workers=2,
                                                 multiprocessing_context="spawn", timeout=60)]
    assert batches == [[0, 1], [2, 3], [4]]
