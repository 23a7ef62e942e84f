"""Rank program for test_sweep_fixes.py (fixes found by a sweep against torch with gloo): exact float64/int64/
complex collectives, 0-d tensors, torch's dtype/shape/op errors (raised before any communication, so the group
stays in step: a collective after them must still work), ReduceOp as an enum, P2POp/batch_isend_irecv, the
coalesced collectives, the debug level, and DDP with BatchNorm, float64 and communication hooks.
Results pickled to OUT/rank<R>.pkl; every error is recorded as (type name, message)."""
import datetime
import os
import pickle
import sys

import numpy as np

import mindtorch.distributed as dist
import mindtorch.torch as torch
from mindtorch.distributed.algorithms.ddp_comm_hooks import default_hooks
from mindtorch.torch.nn.parallel import DistributedDataParallel as DDP

out_dir = sys.argv[1]
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
r, n = dist.get_rank(), dist.get_world_size()
res = {}


def T(a, dtype=None):
    return torch.from_numpy(np.array(a, dtype=dtype))


def val(t):
    """(dtype name, shape, values) of a tensor; bfloat16 read through float32."""
    a = (t.float() if t.dtype == torch.bfloat16 else t).detach().numpy().copy()
    return str(t.dtype), tuple(t.shape), a


def err(name, fn):
    try:
        fn()
        res[name] = "no error"
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        res[name] = (type(e).__name__, str(e))


# ---------------------------------------------------------------------------------------- 1: exact dtypes
F64 = [1e8 + r, 0.1 * (r + 1), 1 / 3 + r]
x = T(F64)
dist.all_reduce(x)
res["f64_sum"] = val(x)
x = T(F64)
dist.all_reduce(x, op=dist.ReduceOp.MAX)
res["f64_max"] = val(x)
lst = [T(np.zeros(3)) for _ in range(n)]
dist.all_gather(lst, T(F64))
res["f64_all_gather"] = [val(t) for t in lst]
x = T(F64)
dist.broadcast(x, src=1)
res["f64_broadcast"] = val(x)
x = T(F64)
dist.reduce(x, dst=0)
res["f64_reduce"] = val(x)
lst = [T(np.zeros(3)) for _ in range(n)] if r == 0 else None
dist.gather(T(F64), lst, dst=0)
res["f64_gather"] = [val(t) for t in lst] if lst else None
x = T(np.zeros(3))
dist.scatter(x, [T(F64) * (i + 1) for i in range(n)] if r == 1 else None, src=1)
res["f64_scatter"] = val(x)
x = T(np.zeros(3))
dist.reduce_scatter(x, [T(F64) * (i + 1) for i in range(n)])
res["f64_reduce_scatter"] = val(x)
lst = [T(np.zeros(3)) for _ in range(n)]
dist.all_to_all(lst, [T(F64) * (i + 1) for i in range(n)])
res["f64_all_to_all"] = [val(t) for t in lst]
x = T([2 ** 61 + r, 2 ** 62 + r, -2 ** 62 - 3 * r])
dist.all_reduce(x)
res["i64_sum"] = val(x)
x = T([2 ** 62 + r, -2 ** 62 - 3 * r])
dist.all_reduce(x, op=dist.ReduceOp.MAX)
res["i64_max"] = val(x)
x = T([1e8 + r + 0.1j, 1 / 3 - 1j * r], np.complex128)
dist.broadcast(x, src=1)
res["c128_broadcast"] = val(x)
x = T([1e8 + r + 0.1j, 1 / 3 - 1j * r], np.complex128)
dist.all_reduce(x)
res["c128_sum"] = val(x)
for name in ["float16", "bfloat16", "float32", "int8", "uint8", "int16", "int32", "int64", "bool", "complex64"]:
    dtype = getattr(torch, name)
    src = T([1.5 + r, 300.25 * (r + 1), -2.0 * r]).to(dtype)
    lst = [torch.zeros(3, dtype=dtype) for _ in range(n)]
    dist.all_gather(lst, src)
    res[f"all_gather_{name}"] = [val(t) for t in lst]

# ---------------------------------------------------------------------------------------- 2: 0-d tensors
x = torch.tensor(5 + r)
dist.all_reduce(x)
res["0d_int_sum"] = val(x)
x = torch.tensor(1.5 + r, dtype=torch.float64)
dist.all_reduce(x)
res["0d_f64_sum"] = val(x)
x = torch.tensor(1.5 + r)
dist.all_reduce(x)
res["0d_f32_sum"] = val(x)
x = torch.tensor(3 + r)
dist.all_reduce(x, op=dist.ReduceOp.MAX)
res["0d_int_max"] = val(x)
x = torch.tensor(float(r))
dist.broadcast(x, src=1)
res["0d_broadcast"] = val(x)
lst = [torch.tensor(0.0) for _ in range(n)]
dist.all_gather(lst, torch.tensor(r + 1.0))
res["0d_all_gather"] = [val(t) for t in lst]
lst = [torch.tensor(0) for _ in range(n)] if r == 0 else None
dist.gather(torch.tensor(7 + r), lst, dst=0)
res["0d_gather"] = [val(t) for t in lst] if lst else None
x = torch.tensor(0)
dist.scatter(x, [torch.tensor(3), torch.tensor(4)] if r == 0 else None, src=0)
res["0d_scatter"] = val(x)
x = torch.tensor(3.0 + r)
dist.reduce(x, dst=0)
res["0d_reduce"] = val(x)
if r == 0:
    dist.send(torch.tensor(3.5), 1)
else:
    x = torch.tensor(0.0)
    dist.recv(x, 0)
    res["0d_recv"] = val(x)

# ---------------------------------------------------------------------------------------- 3, 5: reduce ops
err("avg_f32", lambda: dist.all_reduce(torch.ones(2), op=dist.ReduceOp.AVG))
err("avg_int", lambda: dist.all_reduce(torch.ones(2, dtype=torch.int64), op=dist.ReduceOp.AVG))
err("avg_reduce", lambda: dist.reduce(torch.ones(2), 0, op=dist.ReduceOp.AVG))
mccl = dist.new_group([0, 1], backend="mccl")  # AVG stays available off gloo (torch's NCCL has it)
x = T([1.0 + r, 2.0], np.float32)
dist.all_reduce(x, op=dist.ReduceOp.AVG, group=mccl)
res["avg_mccl_f32"] = val(x)
x = T([1 + 2 * r, -1 - 2 * r])
dist.all_reduce(x, op=dist.ReduceOp.AVG, group=mccl)
res["avg_mccl_int"] = val(x)
err("avg_mccl_bool", lambda: dist.all_reduce(torch.ones(2, dtype=torch.bool), op=dist.ReduceOp.AVG, group=mccl))
for op in ["BAND", "BOR", "BXOR"]:
    err(f"{op}_float_all_reduce", lambda: dist.all_reduce(torch.ones(2), op=getattr(dist.ReduceOp, op)))
    err(f"{op}_f64_reduce", lambda: dist.reduce(torch.ones(2, dtype=torch.float64), 0, op=getattr(dist.ReduceOp, op)))
    err(f"{op}_float_reduce_scatter", lambda: dist.reduce_scatter(torch.zeros(2), [torch.ones(2)] * n,
                                                                  op=getattr(dist.ReduceOp, op)))
    x = T([12 + r, 5 * (r + 1)])
    dist.all_reduce(x, op=getattr(dist.ReduceOp, op))
    res[f"{op}_int"] = val(x)
err("complex_max", lambda: dist.all_reduce(T([1j]), op=dist.ReduceOp.MAX))

# ---------------------------------------------------------------------------------------- 4: dtype/shape checks
err("all_gather_dtype", lambda: dist.all_gather([torch.zeros(2, 3, dtype=torch.int64)] * n, torch.ones(2, 3)))
err("all_gather_shape", lambda: dist.all_gather([torch.zeros(2, 3), torch.zeros(6)], torch.ones(2, 3)))
err("all_gather_len", lambda: dist.all_gather([torch.zeros(2, 3)] * (n + 1), torch.ones(2, 3)))
err("all_gather_into_tensor_shape", lambda: dist.all_gather_into_tensor(torch.zeros(3, 4), torch.ones(2, 3)))
err("all_gather_into_tensor_dtype", lambda: dist.all_gather_into_tensor(torch.zeros(4, 3, dtype=torch.int64),
                                                                        torch.ones(2, 3)))
err("all_to_all_uneven", lambda: dist.all_to_all([torch.zeros(j + 1) for j in range(n)],
                                                 [torch.ones(r + 1) for _ in range(n)]))
err("all_to_all_dtype", lambda: dist.all_to_all([torch.zeros(2, dtype=torch.int64)] * n, [torch.ones(2)] * n))
err("reduce_scatter_dtype", lambda: dist.reduce_scatter(torch.zeros(3, dtype=torch.int64), [torch.ones(3)] * n))
x = T([1.0 + r])
dist.all_reduce(x)  # the group is still in step after all those errors
res["after_errors"] = val(x)

# ---------------------------------------------------------------------------------------- 8: ReduceOp
op = dist.ReduceOp.SUM
res["reduce_op"] = (repr(op), str(op), [int(getattr(dist.ReduceOp, m)) for m in
                                        ["SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"]],
                    hash(op), op == 0, op == dist.ReduceOp.SUM, {op: 1}[dist.ReduceOp.SUM],
                    pickle.loads(pickle.dumps(op)) is op, dist.ReduceOp.MAX.name, dist.ReduceOp.MAX.value)

# ---------------------------------------------------------------------------------------- 6: new API
peer = 1 - r
ops = [dist.P2POp(dist.irecv, torch.zeros(2), peer), dist.P2POp(dist.isend, T([10.0 * r, 1.0], np.float32), peer),
       dist.P2POp(dist.irecv, torch.zeros(3, dtype=torch.int64), peer), dist.P2POp(dist.isend, T([r, r, 7]), peer)]
works = dist.batch_isend_irecv(ops)
res["batch"] = (len(works), all(w.wait() for w in works), val(ops[0].tensor), val(ops[2].tensor))
ops = [dist.P2POp(dist.isend, T([1.5, 2.5], np.float32), 1)] if r == 0 else [dist.P2POp(dist.irecv, torch.zeros(2), 0)]
dist.batch_isend_irecv(ops)
res["batch_one_way"] = val(ops[0].tensor)
err("p2pop_bad_op", lambda: dist.P2POp(dist.send, torch.zeros(1), peer))
err("batch_bad_list", lambda: dist.batch_isend_irecv([1]))
ts = [T([1.0, 2.0], np.float32) * (r + 1), torch.tensor(3.0 + r), T([[r, 1.0]], np.float32)]
res["all_reduce_coalesced_ret"] = dist.all_reduce_coalesced(ts)
res["all_reduce_coalesced"] = [val(t) for t in ts]
ts = [T([1, 5]) * (r + 1), torch.tensor(3 - r)]
fut = dist.all_reduce_coalesced(ts, op=dist.ReduceOp.MAX, async_op=True)
res["all_reduce_coalesced_max"] = ([val(t) for t in fut.wait()], [val(t) for t in ts])
err("all_reduce_coalesced_dtypes", lambda: dist.all_reduce_coalesced([torch.ones(2), torch.ones(1, dtype=torch.int64)]))
outs = [[torch.zeros(2, dtype=torch.float64), torch.tensor(0.0, dtype=torch.float64)] for _ in range(n)]
dist.all_gather_coalesced(outs, [T([1e8 + r, 0.1]), torch.tensor(1 / 3 + r, dtype=torch.float64)])
res["all_gather_coalesced"] = [[val(t) for t in o] for o in outs]
lvl = dist.get_debug_level()
dist.set_debug_level(dist.DebugLevel.INFO)
res["debug"] = (repr(lvl), str(lvl), lvl is dist.DebugLevel.DETAIL, int(dist.DebugLevel.DETAIL),
                dist.get_debug_level() is dist.DebugLevel.INFO)

# ---------------------------------------------------------------------------------------- DDP
rng = np.random.RandomState(0)
drng = np.random.RandomState(100 + r)
X = [drng.randn(6, 4) for _ in range(2)]
Y = [drng.randn(6, 2) for _ in range(2)]
BN_INIT = {"0.weight": rng.randn(6, 4), "0.bias": rng.randn(6), "1.weight": rng.rand(6) + 0.5,
           "1.bias": rng.randn(6), "3.weight": rng.randn(2, 6), "3.bias": rng.randn(2)}
LIN_INIT = {"weight": rng.randn(2, 4), "bias": rng.randn(2)}


def train(model, init, dtype, steps, hook=None, state=None):
    # rank 1 starts from other values: DDP must broadcast rank 0's parameters and buffers
    model.load_state_dict({k: T(v * (1 if r == 0 else 3), dtype) for k, v in init.items()}, strict=False)
    ddp = DDP(model)
    if hook is not None:
        ddp.register_comm_hook(state, hook)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    grads = []
    for s in range(steps):
        opt.zero_grad()
        ((ddp(T(X[s], dtype)) - T(Y[s], dtype)) ** 2).mean().backward()
        grads.append([p.grad.detach().numpy().copy() for p in ddp.parameters()])
        opt.step()
    return {"grads": grads, "state": {k: v.detach().numpy().copy() for k, v in ddp.module.state_dict().items()}}


res["ddp_data"] = {"X": X, "Y": Y, "BN_INIT": BN_INIT, "LIN_INIT": LIN_INIT}
bn = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.BatchNorm1d(6), torch.nn.ReLU(), torch.nn.Linear(6, 2))
res["ddp_bn"] = train(bn, BN_INIT, np.float32, 2)
res["ddp_f64"] = train(torch.nn.Linear(4, 2).double(), LIN_INIT, np.float64, 2)
buckets = []


def recording_hook(state, bucket):
    buckets.append((state, bucket.index(), bucket.is_last(), tuple(bucket.buffer().shape), str(bucket.buffer().dtype),
                    [tuple(g.shape) for g in bucket.gradients()], [tuple(p.shape) for p in bucket.parameters()]))
    return default_hooks.allreduce_hook(None, bucket)


res["ddp_hook_f64"] = train(torch.nn.Linear(4, 2).double(), LIN_INIT, np.float64, 2, recording_hook, "S")
res["buckets"] = buckets
res["ddp_fp16_hook"] = train(torch.nn.Linear(4, 2), LIN_INIT, np.float32, 1, default_hooks.fp16_compress_hook)
ddp = DDP(torch.nn.Linear(2, 1))
ddp.register_comm_hook(None, default_hooks.allreduce_hook)
err("hook_twice", lambda: ddp.register_comm_hook(None, default_hooks.allreduce_hook))
err("hook_not_callable", lambda: DDP(torch.nn.Linear(2, 1)).register_comm_hook(None, 3))

# ---------------------------------------------------------------------------------------- one-sided errors last
# gather/scatter check their lists on the root only: raised there before communicating (rank 1 is not called)
if r == 0:
    err("gather_shape", lambda: dist.gather(torch.ones(2, 3), [torch.zeros(2, 3), torch.zeros(6)], dst=0))
    err("scatter_shape", lambda: dist.scatter(torch.zeros(2, 3), [torch.ones(6)] * n, src=0))
    err("scatter_dtype", lambda: dist.scatter(torch.zeros(2, 3), [torch.ones(2, 3, dtype=torch.int64)] * n, src=0))
dist.barrier()
dist.destroy_process_group()
with open(os.path.join(out_dir, f"rank{r}.pkl"), "wb") as f:
    pickle.dump(res, f)
print(f"rank {r} done", flush=True)
