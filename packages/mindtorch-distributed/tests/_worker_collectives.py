"""Rank program for test_collectives.py: every collective once, results pickled to OUT/rank<R>.pkl."""
import datetime
import os
import pickle
import sys
import time

import numpy as np

import mindtorch.distributed as dist
import mindtorch.torch as torch

out_dir = sys.argv[1]
t0 = time.monotonic()
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
res = {"init_s": time.monotonic() - t0}
r, n = dist.get_rank(), dist.get_world_size()
res.update(rank=r, world=n, backend=dist.get_backend(), initialized=dist.is_initialized())


def base(dtype=np.float32):
    return np.arange(6, dtype=np.float64).reshape(2, 3).astype(dtype) * (r + 1) - r


def T(a):
    return torch.from_numpy(np.array(a))


t1 = time.monotonic()
for opname in ["SUM", "MAX", "MIN", "PRODUCT"]:
    x = T(base())
    dist.all_reduce(x, op=getattr(dist.ReduceOp, opname))
    res[f"all_reduce_{opname}"] = x.numpy().copy()
try:  # torch 1.12's gloo refuses AVG (before communicating, so the group stays in step)
    dist.all_reduce(T(base()), op=dist.ReduceOp.AVG)
except RuntimeError as e:
    res["all_reduce_AVG"] = str(e)
x = T(base(np.int64))
dist.all_reduce(x)
res["all_reduce_int64"] = x.numpy().copy()
x = T(base(np.float64))
dist.all_reduce(x, op=dist.ReduceOp.MAX)
res["all_reduce_f64_max"] = x.numpy().copy()
# in place through a view: only the second row changes
x = T(base())
dist.all_reduce(x[1])
res["all_reduce_view"] = x.numpy().copy()
x = T(base())
dist.all_reduce(x[:, 1])  # a strided (column) view
res["all_reduce_column_view"] = x.numpy().copy()
w = dist.all_reduce(T(base()), async_op=True)
res["work"] = (w.wait(), w.is_completed())

x = T(base()) if r == 1 else T(np.zeros((2, 3), np.float32))
dist.broadcast(x, src=1)
res["broadcast"] = x.numpy().copy()
lst = [T(np.zeros((2, 3), np.float32)) for _ in range(n)]
dist.all_gather(lst, T(base()))
res["all_gather"] = [t.numpy().copy() for t in lst]
o = T(np.zeros((2 * n, 3), np.float32))
dist.all_gather_into_tensor(o, T(base()))
res["all_gather_into_tensor"] = o.numpy().copy()
x = T(base())
dist.reduce(x, dst=0, op=dist.ReduceOp.SUM)
res["reduce"] = x.numpy().copy()
o = T(np.zeros(3, np.float32))
dist.reduce_scatter(o, [T(base()[i]) for i in range(n)])
res["reduce_scatter"] = o.numpy().copy()
o = T(np.zeros(3, np.int64))
dist.reduce_scatter(o, [T(base(np.int64)[i]) for i in range(n)], op=dist.ReduceOp.MAX)
res["reduce_scatter_max_int"] = o.numpy().copy()
o = T(np.zeros(3, np.float32))
dist.reduce_scatter_tensor(o, T(base()))
res["reduce_scatter_tensor"] = o.numpy().copy()
gl = [T(np.zeros((2, 3), np.float32)) for _ in range(n)] if r == 0 else None
dist.gather(T(base()), gl, dst=0)
res["gather"] = [t.numpy().copy() for t in gl] if gl else None
x = T(np.zeros(3, np.float32))
dist.scatter(x, [T(np.full(3, 10.0 * i + 1, np.float32)) for i in range(n)] if r == 0 else None, src=0)
res["scatter"] = x.numpy().copy()
outs = [T(np.zeros(2, np.float32)) for _ in range(n)]
dist.all_to_all(outs, [T(np.array([100.0 * r + i, -i], np.float32)) for i in range(n)])
res["all_to_all"] = [t.numpy().copy() for t in outs]
o = T(np.zeros(2 * n, np.float32))
dist.all_to_all_single(o, T(np.arange(2 * n, dtype=np.float32) + 100 * r))
res["all_to_all_single"] = o.numpy().copy()
# point to point, both orders, and the isend/irecv pattern where both ranks send first
peer = 1 - r
if r == 0:
    dist.send(T(base()), dst=1)
    y = T(np.zeros((2, 3), np.float32))
    dist.recv(y, src=1)
else:
    y = T(np.zeros((2, 3), np.float32))
    dist.recv(y, src=0)
    dist.send(T(base()), dst=0)
res["send_recv"] = y.numpy().copy()
y = T(np.zeros((2, 3), np.int64))
reqs = [dist.isend(T(base(np.int64)), dst=peer), dist.irecv(y, src=peer)]
for q in reqs:
    q.wait()
res["isend_irecv"] = y.numpy().copy()
objs = [{"rank": r, "s": "x" * (r * 50)}, [r] * (r + 1)] if r == 1 else [None, None]
dist.broadcast_object_list(objs, src=1)
res["broadcast_object_list"] = objs
got = [None] * n
dist.all_gather_object(got, {"r": r, "big": list(range(r * 100))})
res["all_gather_object"] = got
g = [None] * n if r == 0 else None
dist.gather_object(("r", r), g, dst=0)
res["gather_object"] = g
so = [None]
dist.scatter_object_list(so, [{"i": i} for i in range(n)] if r == 0 else None, src=0)
res["scatter_object_list"] = so[0]
grp = dist.new_group([0, 1])
x = T(base())
dist.all_reduce(x, group=grp)
res["group_all_reduce"] = x.numpy().copy()
g0 = dist.new_group([0])
res["solo_group"] = (dist.get_rank(g0), dist.get_world_size(g0))
dist.barrier()
res["collectives_s"] = time.monotonic() - t1
with open(os.path.join(out_dir, f"rank{r}.pkl"), "wb") as f:
    pickle.dump(res, f)
dist.destroy_process_group()
res2 = dist.is_initialized()
print("DONE", r, res2, flush=True)
