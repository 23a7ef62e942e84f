"""Every collective of torch.distributed, in ONE real 2-process job on 127.0.0.1 (MindSpore's init costs
4-12 s), launched torchrun-style (MASTER_ADDR/MASTER_PORT/RANK/WORLD_SIZE): init_process_group itself starts
MindSpore's scheduler on rank 0. Expected values are computed with real PyTorch from the same inputs."""
import pickle
from pathlib import Path

import numpy as np
import pytest
from _launch import run_env_ranks

WORKER = str(Path(__file__).parent / "_worker_collectives.py")
N = 2


def base(r, dtype=np.float32):  # the worker's input on rank r
    return np.arange(6, dtype=np.float64).reshape(2, 3).astype(dtype) * (r + 1) - r


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("collectives")
    procs = run_env_ranks(WORKER, [str(out)], world=N, timeout=90)
    for p in procs:
        assert p.returncode == 0, p.stdout[-4000:]
    return [pickle.loads((out / f"rank{r}.pkl").read_bytes()) for r in range(N)]


def stack(reftorch, dtype=np.float32):
    return reftorch.stack([reftorch.from_numpy(base(r, dtype)) for r in range(N)])


def same(mine, ref):
    ref = ref.numpy() if hasattr(ref, "numpy") else np.asarray(ref)
    assert mine.shape == ref.shape and mine.dtype == ref.dtype, (mine, ref)
    np.testing.assert_allclose(mine, ref, rtol=1e-6)


def test_group_state(results):
    for r, res in enumerate(results):
        assert (res["rank"], res["world"], res["backend"], res["initialized"]) == (r, N, "gloo", True)
        assert res["work"] == (True, True)
        assert res["solo_group"] == ((0, 1) if r == 0 else (-1, -1))  # torch: -1 outside the group


def test_all_reduce_ops(results, reftorch):
    s = stack(reftorch)
    expected = {"SUM": s.sum(0), "MAX": s.max(0).values, "MIN": s.min(0).values, "PRODUCT": s.prod(0)}
    for res in results:
        for name, ref in expected.items():
            same(res[f"all_reduce_{name}"], ref)
        assert res["all_reduce_AVG"] == "Cannot use ReduceOp.AVG with Gloo"  # torch 1.12's ProcessGroupGloo
        same(res["all_reduce_int64"], stack(reftorch, np.int64).sum(0))
        same(res["all_reduce_f64_max"], stack(reftorch, np.float64).max(0).values)
        same(res["group_all_reduce"], s.sum(0))


def test_all_reduce_in_place_on_view(results, reftorch):
    s = stack(reftorch)
    for r, res in enumerate(results):
        ref = reftorch.from_numpy(base(r)).clone()
        ref[1] = s[:, 1].sum(0)
        same(res["all_reduce_view"], ref)
        ref = reftorch.from_numpy(base(r)).clone()
        ref[:, 1] = s[:, :, 1].sum(0)
        same(res["all_reduce_column_view"], ref)


def test_broadcast_gather_scatter(results, reftorch):
    s = stack(reftorch)
    for r, res in enumerate(results):
        same(res["broadcast"], s[1])
        for i in range(N):
            same(res["all_gather"][i], s[i])
        same(res["all_gather_into_tensor"], reftorch.cat(list(s)))
        same(res["reduce"], s.sum(0) if r == 0 else s[r])  # only dst changes
        if r == 0:
            for i in range(N):
                same(res["gather"][i], s[i])
        same(res["scatter"], reftorch.full((3,), 10.0 * r + 1))


def test_reduce_scatter(results, reftorch):
    s = stack(reftorch)
    si = stack(reftorch, np.int64)
    for r, res in enumerate(results):
        same(res["reduce_scatter"], s[:, r].sum(0))
        same(res["reduce_scatter_tensor"], s.sum(0)[r])
        same(res["reduce_scatter_max_int"], si[:, r].max(0).values)


def test_all_to_all(results, reftorch):
    for r, res in enumerate(results):
        for j in range(N):
            same(res["all_to_all"][j], reftorch.tensor([100.0 * j + r, -r]))
        pieces = [reftorch.arange(2 * N, dtype=reftorch.float32)[2 * r:2 * r + 2] + 100 * j for j in range(N)]
        same(res["all_to_all_single"], reftorch.cat(pieces))


def test_point_to_point(results, reftorch):
    for r, res in enumerate(results):
        same(res["send_recv"], stack(reftorch)[1 - r])
        same(res["isend_irecv"], stack(reftorch, np.int64)[1 - r])


def test_object_collectives(results):
    for r, res in enumerate(results):
        assert res["broadcast_object_list"] == [{"rank": 1, "s": "x" * 50}, [1, 1]]
        assert res["all_gather_object"] == [{"r": i, "big": list(range(i * 100))} for i in range(N)]
        assert res["gather_object"] == ([("r", 0), ("r", 1)] if r == 0 else None)
        assert res["scatter_object_list"] == {"i": r}
