"""Fixes from a sweep that ran the same 2-process scripts on torch 2.13 (gloo) and mindtorch. ONE real 2-rank
job on 127.0.0.1 (torchrun-style variables: rank 0 starts MindSpore's scheduler itself) runs every check of
_worker_sweep_fixes.py; expected values come from real PyTorch on the same inputs. Error types and texts are
torch 1.12's with gloo where 2.x differs (noted at each). One cheap launcher run checks torchrun's variables."""
import pickle
from pathlib import Path

import numpy as np
import pytest
from _launch import free_port, run_env_ranks, run_launcher

WORKER = str(Path(__file__).parent / "_worker_sweep_fixes.py")
N = 2


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep_fixes")
    procs = run_env_ranks(WORKER, [str(out)], world=N, timeout=150, extra_env={"TORCH_DISTRIBUTED_DEBUG": "detail"})
    for p in procs:
        assert p.returncode == 0, p.stdout[-4000:]
    return procs, [pickle.loads((out / f"rank{r}.pkl").read_bytes()) for r in range(N)]


@pytest.fixture(scope="module")
def results(job):
    return job[1]


def same(mine, ref):
    """mine: the worker's (dtype name, shape, values); ref: a real torch tensor. Exact equality."""
    dtype, shape, values = mine
    ref_values = ref.float().numpy() if str(ref.dtype) == "torch.bfloat16" else ref.numpy()
    assert (dtype, shape) == (str(ref.dtype), tuple(ref.shape)), (mine, ref)
    np.testing.assert_array_equal(values, ref_values)


def f64(reftorch, r):
    return reftorch.tensor([1e8 + r, 0.1 * (r + 1), 1 / 3 + r], dtype=reftorch.float64)


def test_float64_int64_complex_are_exact(results, reftorch):
    s = reftorch.stack([f64(reftorch, r) for r in range(N)])
    for r, res in enumerate(results):
        same(res["f64_sum"], s.sum(0))  # float32 rounding would give 200000000.0, 0.30000000447
        same(res["f64_max"], s.max(0).values)
        for i in range(N):
            same(res["f64_all_gather"][i], s[i])
            same(res["f64_all_to_all"][i], s[i] * (r + 1))
        same(res["f64_broadcast"], s[1])
        same(res["f64_reduce"], s.sum(0) if r == 0 else s[r])
        assert (res["f64_gather"] is None) == (r != 0)
        if r == 0:
            for i in range(N):
                same(res["f64_gather"][i], s[i])
        same(res["f64_scatter"], s[1] * (r + 1))
        same(res["f64_reduce_scatter"], s.sum(0) * (r + 1))
        big = reftorch.tensor([[2 ** 61 + i, 2 ** 62 + i, -2 ** 62 - 3 * i] for i in range(N)])
        same(res["i64_sum"], big.sum(0))  # (wraps around like torch's int64 sum)
        same(res["i64_max"], big[:, 1:].max(0).values)
        c = reftorch.tensor([[1e8 + i + 0.1j, 1 / 3 - 1j * i] for i in range(N)], dtype=reftorch.complex128)
        same(res["c128_broadcast"], c[1])
        same(res["c128_sum"], c.sum(0))
        for name in ["float16", "bfloat16", "float32", "int8", "uint8", "int16", "int32", "int64", "bool",
                     "complex64"]:
            for i in range(N):
                ref = reftorch.tensor([1.5 + i, 300.25 * (i + 1), -2.0 * i], dtype=reftorch.float64)
                same(res[f"all_gather_{name}"][i], ref.to(getattr(reftorch, name)))


def test_zero_dim_tensors_keep_their_shape(results, reftorch):
    t = reftorch.tensor
    for r, res in enumerate(results):
        same(res["0d_int_sum"], t(11))
        same(res["0d_f64_sum"], t(4.0, dtype=reftorch.float64))
        same(res["0d_f32_sum"], t(4.0))
        same(res["0d_int_max"], t(4))
        same(res["0d_broadcast"], t(1.0))
        for i in range(N):
            same(res["0d_all_gather"][i], t(i + 1.0))
        if r == 0:
            same(res["0d_gather"][0], t(7))
            same(res["0d_gather"][1], t(8))
            same(res["0d_reduce"], t(7.0))
        else:
            same(res["0d_recv"], t(3.5))
            same(res["0d_reduce"], t(4.0))
        same(res["0d_scatter"], t(3 + r))


def test_reduce_op_checks(results, reftorch):
    gloo_avg = ("RuntimeError", "Cannot use ReduceOp.AVG with Gloo")  # torch 1.12, every dtype (2.x: floats pass)
    for res in results:
        assert res["avg_f32"] == res["avg_int"] == res["avg_reduce"] == gloo_avg
        same(res["avg_mccl_f32"], reftorch.tensor([1.5, 2.0]))  # off gloo AVG stays (torch's NCCL has it)
        same(res["avg_mccl_int"], reftorch.tensor([2, -2]))  # integer mean truncated, as NCCL's
        assert res["avg_mccl_bool"] == ("RuntimeError", "Cannot use ReduceOp.AVG with boolean inputs")
        for op, fn in [("BAND", np.bitwise_and), ("BOR", np.bitwise_or), ("BXOR", np.bitwise_xor)]:
            for what in ["float_all_reduce", "f64_reduce", "float_reduce_scatter"]:
                assert res[f"{op}_{what}"] == ("RuntimeError", f"Cannot use ReduceOp.{op} with non-integral dtype")
            same(res[f"{op}_int"], reftorch.tensor(fn(np.array([12, 5]), np.array([13, 10]))))
        # torch 1.12: RuntimeError naming the op as str(ReduceOp.MAX) (2.x: ValueError, "RedOpType.MAX")
        assert res["complex_max"] == ("RuntimeError", "all_reduce does not support ReduceOp.MAX on complex tensors")


def test_dtype_and_shape_checks(results, reftorch):
    # torch 2.x raises ValueError for mixed dtypes; 1.12 had no such Python check and its ProcessGroupGloo raised
    # RuntimeError: that type is kept, with torch's text.
    dtypes = ("RuntimeError", "Invalid usage of tensors with different dtypesFound torch.int64 and  torch.float32")
    for r, res in enumerate(results):
        for key in ["all_gather_dtype", "all_gather_into_tensor_dtype", "all_to_all_dtype", "reduce_scatter_dtype"]:
            assert res[key] == dtypes, key
        assert res["all_gather_shape"] == ("RuntimeError", "ProcessGroupGloo::allgather: invalid tensor size at "
                                                           "index 1 (expected (2, 3), got (6))")
        assert res["all_gather_len"] == ("RuntimeError", "ProcessGroupGloo::allgather: invalid output tensor list at "
                                                         "index 0 (expected length 2, got 3)")
        assert res["all_gather_into_tensor_shape"][0] == "RuntimeError"
        assert "(3, 4)" in res["all_gather_into_tensor_shape"][1]
        assert res["all_to_all_uneven"] == ("RuntimeError", "ProcessGroupGloo::alltoall: invalid tensor size at "
                                                            "index 1 (expected (1), got (2))")
        same(res["after_errors"], reftorch.tensor([3.0], dtype=reftorch.float64))  # no rank fell out of step
    root = results[0]
    assert root["gather_shape"] == ("RuntimeError", "ProcessGroupGloo::gather: invalid tensor size at index 1 "
                                                    "(expected (2, 3), got (6))")
    assert root["scatter_shape"] == ("RuntimeError", "ProcessGroupGloo::scatter: invalid tensor size at index 0 "
                                                     "(expected (2, 3), got (6))")
    assert root["scatter_dtype"] == ("RuntimeError", "Invalid usage of tensors with different dtypesFound "
                                                     "torch.float32 and  torch.int64")


def test_reduce_op_is_an_enum(results, reftorch):
    values = [int(getattr(reftorch.distributed.ReduceOp, m)) for m in
              ["SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"]]
    for res in results:
        # torch 1.12's pybind11 enum: named ReduceOp (2.x: RedOpType), not equal to ints
        assert res["reduce_op"] == ("<ReduceOp.SUM: 0>", "ReduceOp.SUM", values, 0, False, True, 1, True, "MAX", 4)


def test_p2p_batch_coalesced_and_debug_level(results, reftorch):
    for r, res in enumerate(results):
        n_ops, done, got2, got3 = res["batch"]
        assert (n_ops, done) == (4, True)
        same(got2, reftorch.tensor([10.0 * (1 - r), 1.0]))
        same(got3, reftorch.tensor([1 - r, 1 - r, 7]))
        same(res["batch_one_way"], reftorch.tensor([1.5, 2.5]))
        assert res["p2pop_bad_op"][0] == res["batch_bad_list"][0] == "RuntimeError"  # torch 1.12's (2.x: ValueError)
        assert res["all_reduce_coalesced_ret"] is None
        mine = res["all_reduce_coalesced"]
        same(mine[0], reftorch.tensor([3.0, 6.0]))
        same(mine[1], reftorch.tensor(7.0))
        same(mine[2], reftorch.tensor([[1.0, 2.0]]))
        future_value, tensors = res["all_reduce_coalesced_max"]
        for m in (future_value, tensors):
            same(m[0], reftorch.tensor([2, 10]))
            same(m[1], reftorch.tensor(3))
        assert res["all_reduce_coalesced_dtypes"][0] == "RuntimeError"
        for i, outs in enumerate(res["all_gather_coalesced"]):
            same(outs[0], reftorch.tensor([1e8 + i, 0.1], dtype=reftorch.float64))
            same(outs[1], reftorch.tensor(1 / 3 + i, dtype=reftorch.float64))
        assert res["debug"] == ("<DebugLevel.DETAIL: 2>", "DebugLevel.DETAIL", True, 2, True)


def simulate_ddp(reftorch, model, init, dtype, steps, data, reduce_grads):
    """Two replicas of `model` (rank 0's init), each rank's own batches, rank 0's buffers broadcast before each
    forward, gradients combined by `reduce_grads`, SGD(lr=0.1): what DDP computes. Returns per-rank results."""
    models = [model(), model()]
    for m in models:
        m.load_state_dict({k: reftorch.tensor(v, dtype=dtype) for k, v in init.items()}, strict=False)
    opts = [reftorch.optim.SGD(m.parameters(), lr=0.1) for m in models]
    grads = []
    for s in range(steps):
        for b1, b0 in zip(models[1].buffers(), models[0].buffers()):
            b1.data.copy_(b0.data)
        for r, (m, o) in enumerate(zip(models, opts)):
            o.zero_grad()
            x, y = (reftorch.tensor(data[r][k][s], dtype=dtype) for k in ("X", "Y"))
            ((m(x) - y) ** 2).mean().backward()
        for ps in zip(*(m.parameters() for m in models)):
            g = reduce_grads([p.grad for p in ps])
            for p in ps:
                p.grad = g.clone()
        grads.append([p.grad.numpy().copy() for p in models[0].parameters()])
        for o in opts:
            o.step()
    return [{"grads": grads, "state": {k: v.numpy().copy() for k, v in m.state_dict().items()}} for m in models]


def close(mine, ref, tol):
    assert len(mine["grads"]) == len(ref["grads"])
    for gm, gr in zip(mine["grads"], ref["grads"]):
        for a, b in zip(gm, gr):
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
    assert mine["state"].keys() == ref["state"].keys()
    for k in ref["state"]:
        a, b = mine["state"][k], ref["state"][k]
        assert a.dtype == b.dtype and a.shape == b.shape, k
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol, err_msg=k)


def test_ddp_batchnorm_float64_and_comm_hooks(results, reftorch):
    nn = reftorch.nn
    data = [res["ddp_data"] for res in results]
    mean = lambda gs: sum(gs) / N  # noqa: E731
    bn = simulate_ddp(reftorch, lambda: nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2)),
                      data[0]["BN_INIT"], reftorch.float32, 2, data, mean)
    lin64 = simulate_ddp(reftorch, lambda: nn.Linear(4, 2).double(), data[0]["LIN_INIT"], reftorch.float64, 2, data,
                         lambda gs: sum(g / N for g in gs))  # allreduce_hook divides first
    fp16 = simulate_ddp(reftorch, lambda: nn.Linear(4, 2), data[0]["LIN_INIT"], reftorch.float32, 1, data,
                        lambda gs: sum(g.half() / N for g in gs).float())
    for r, res in enumerate(results):
        close(res["ddp_bn"], bn[r], 1e-5)  # num_batches_tracked (0-d int64) is broadcast: 2 on both ranks
        assert int(res["ddp_bn"]["state"]["1.num_batches_tracked"]) == 2
        close(res["ddp_f64"], lin64[r], 1e-13)
        close(res["ddp_hook_f64"], lin64[r], 1e-13)
        close(res["ddp_fp16_hook"], fp16[r], 1e-6)
        bucket = ("S", 0, True, (10,), "torch.float64", [(2, 4), (2,)], [(2, 4), (2,)])
        assert res["buckets"] == [bucket, bucket]  # one dtype: one bucket per backward
        assert res["hook_twice"] == ("RuntimeError", "register_comm_hook or register_builtin_comm_hook can only be "
                                                     "called once.")
        assert res["hook_not_callable"] == ("TypeError", "Communication hook must be callable.")


def test_launcher_sets_torchelastic_variables(tmp_path, monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    script = tmp_path / "env.py"
    script.write_text("import os\nimport mindtorch.distributed as dist\n"
                      "keys = ['RANK', 'ROLE_RANK', 'ROLE_WORLD_SIZE', 'GROUP_WORLD_SIZE', 'TORCHELASTIC_RUN_ID', "
                      "'OMP_NUM_THREADS', 'LOCAL_WORLD_SIZE', 'ROLE_NAME']\n"
                      "print('ENV', [os.environ.get(k) for k in keys], dist.is_torchelastic_launched(), flush=True)\n")
    proc = run_launcher(["--nproc_per_node", "2", "--master_port", str(free_port()), str(script)], timeout=60)
    assert proc.returncode == 0, proc.stdout
    # torchrun's values (torch 2.13, measured): run id 'none' without --rdzv_id, OMP_NUM_THREADS=1 when unset
    for r in range(N):
        assert f"ENV ['{r}', '{r}', '2', '1', 'none', '1', '2', 'default'] True" in proc.stdout, proc.stdout
    assert "Setting OMP_NUM_THREADS environment variable for each process to be 1" in proc.stdout
