"""Rank program for test_training.py (started by `python -m mindtorch.distributed.run`): train a small MLP
data-parallel on 2 ranks, in both styles, plus the same training in this one process on the full batch."""
import os
import pickle
import sys

import mindspore as ms
import numpy as np

import mindtorch.distributed as dist
import mindtorch.torch as torch
from mindtorch.distributed.nn.parallel import DistributedDataParallel
from mindtorch.torch import nn

out_dir = sys.argv[1]
LR, STEPS = 0.1, 3


class MLP(nn.Module):
    def __init__(self, seed):
        super().__init__()
        rng = np.random.RandomState(seed)
        self.w1 = nn.Parameter(torch.from_numpy(rng.randn(4, 8).astype(np.float32)))
        self.b1 = nn.Parameter(torch.from_numpy(rng.randn(8).astype(np.float32)))
        self.w2 = nn.Parameter(torch.from_numpy(rng.randn(8, 1).astype(np.float32)))
        self.register_buffer("scale", torch.from_numpy(np.full(2, seed, np.float32)))  # not used by forward

    def forward(self, x):
        return torch.tanh(x @ self.w1 + self.b1) @ self.w2


def loss_fn(model, x, y):
    return ((model(x) - y) ** 2).mean()


def weights(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def sgd(params, grads):
    ms.nn.SGD(params, learning_rate=LR)(tuple(grads))


dist.init_process_group("gloo")
r, n = dist.get_rank(), dist.get_world_size()
print(f"rank {r} of {n}: env RANK={os.environ['RANK']} LOCAL_RANK={os.environ['LOCAL_RANK']}", flush=True)
rng = np.random.RandomState(42)
X = rng.randn(STEPS, 2, 2 * n, 4).astype(np.float32)  # [step, micro-batch, full batch, features]
Y = rng.randn(STEPS, 2, 2 * n, 1).astype(np.float32)
mine = slice(2 * r, 2 * r + 2)
res = {}

# ---- backward style: DDP, grad accumulation over two micro-batches (the first under no_sync)
model = MLP(seed=100 + r)  # different on each rank: DDP must broadcast rank 0's
ddp = DistributedDataParallel(model)
res["ddp_init"] = weights(model)
res["ddp_keys"] = list(ddp.state_dict().keys())
res["ddp_buffer_init"] = model.scale.numpy().copy()
# DDP is a real nn.Module around the model (its submodule `module`)
res["is_module"] = (isinstance(ddp, nn.Module), isinstance(ddp, ms.nn.Cell), ddp.module is model,
                    [id(p) for p in ddp.parameters()] == [id(p) for p in model.parameters()],
                    [n for n, _ in ddp.named_parameters()], [n for n, _ in ddp.named_buffers()],
                    [type(m).__name__ for m in ddp.children()])
res["train_eval"] = (ddp.eval() is ddp, model.training, ddp.training, ddp.train() is ddp, model.training,
                     ddp.to(torch.float32) is ddp)
sd = {k: v.numpy().copy() for k, v in ddp.state_dict().items()}
res["load_state_dict"] = tuple(ddp.load_state_dict(ddp.state_dict()))
# broadcast_buffers=True: every forward re-broadcasts rank 0's buffers
model.scale.fill_(float(10 + r))
ddp(torch.from_numpy(X[0, 0, mine]))
res["ddp_buffer_after_forward"] = model.scale.numpy().copy()
model.scale.fill_(100.0)
params = list(model.parameters())
opt = ms.nn.SGD(params, learning_rate=LR)
for s in range(STEPS):
    for p in params:
        p.grad = None
    with ddp.no_sync():
        loss_fn(ddp, torch.from_numpy(X[s, 0, mine]), torch.from_numpy(Y[s, 0, mine])).backward()
    if s == 0:
        res["no_sync_grad"] = [p.grad.numpy().copy() for p in params]
    loss_fn(ddp, torch.from_numpy(X[s, 1, mine]), torch.from_numpy(Y[s, 1, mine])).backward()
    if s == 0:
        res["synced_grad"] = [p.grad.numpy().copy() for p in params]
    opt(tuple(p.grad for p in params))
res["ddp_final"] = weights(model)


# ---- find_unused_parameters: `b` takes part in rank 0's forward only
class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Parameter(torch.from_numpy(np.array([1.0, 2.0], np.float32)))
        self.b = nn.Parameter(torch.from_numpy(np.array([3.0, -1.0], np.float32)))

    def forward(self, x, use_b):
        y = x * self.a
        return (y + x * self.b if use_b else y).sum()


xs = [rng.randn(3, 2).astype(np.float32) for _ in range(n)]
branchy = DistributedDataParallel(Branchy(), find_unused_parameters=True, broadcast_buffers=False)
branchy(torch.from_numpy(xs[r]), r == 0).backward()
res["unused_grads"] = [p.grad.numpy().copy() for p in branchy.parameters()]
local = []  # every rank's own gradients, computed here without communication
for k in range(n):
    m = Branchy()
    m(torch.from_numpy(xs[k]), k == 0).backward()
    local.append([p.grad.numpy().copy() if p.grad is not None else np.zeros(2, np.float32)
                  for p in m.parameters()])
res["ref_unused_grads"] = [sum(g[i] for g in local) / n for i in range(2)]

# ---- the reference: one process, full batches, no communication (backward style first: core's
# loss.backward() does not yet work after a value_and_grad call, see the report)
ref = MLP(seed=100)
rparams = list(ref.parameters())
ropt = ms.nn.SGD(rparams, learning_rate=LR)
for s in range(STEPS):
    for p in rparams:
        p.grad = None
    if s == 0:  # what no_sync leaves on this rank: its own micro-batch's gradient
        loss_fn(ref, torch.from_numpy(X[s, 0, mine]), torch.from_numpy(Y[s, 0, mine])).backward()
        res["ref_no_sync_grad"] = [p.grad.numpy().copy() for p in rparams]
        for p in rparams:
            p.grad = None
    loss_fn(ref, torch.from_numpy(X[s, 0]), torch.from_numpy(Y[s, 0])).backward()
    loss_fn(ref, torch.from_numpy(X[s, 1]), torch.from_numpy(Y[s, 1])).backward()
    if s == 0:
        res["ref_synced_grad"] = [p.grad.numpy().copy() for p in rparams]
    ropt(tuple(p.grad for p in rparams))
res["ref_final"] = weights(ref)
# ---- functional style (the manual): value_and_grad + DistributedGradReducer + optimizer(grads)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
fmodel = MLP(seed=100)
fparams = list(fmodel.parameters())
fopt = ms.nn.SGD(fparams, learning_rate=LR)
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(fmodel, x, y), None, fopt.parameters)
grad_reducer = dist.DistributedGradReducer(fopt.parameters)
for s in range(STEPS):
    _, grads = grad_fn(torch.from_numpy(X[s, 1, mine]), torch.from_numpy(Y[s, 1, mine]))
    fopt(grad_reducer(grads))
res["reducer_final"] = weights(fmodel)
ms.reset_auto_parallel_context()

# ---- functional reference
fref = MLP(seed=100)
fopt2 = ms.nn.SGD(list(fref.parameters()), learning_rate=LR)
grad_fn2 = ms.value_and_grad(lambda x, y: loss_fn(fref, x, y), None, fopt2.parameters)
for s in range(STEPS):
    fopt2(grad_fn2(torch.from_numpy(X[s, 1]), torch.from_numpy(Y[s, 1]))[1])
res["ref_functional_final"] = weights(fref)
res["ref_init"] = weights(MLP(seed=100))

# ---- the manual's AUTO_PARALLEL (§3.3): graph mode, set after init, a jitted train step. MindSpore 2.10
# rejects it on CPU when the step compiles; record what it says.
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL, search_mode="recursive_programming")
amodel = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
aopt = ms.nn.SGD(amodel.trainable_params(), learning_rate=LR)
agrad = ms.value_and_grad(lambda x, y: nn.MSELoss()(amodel(x), y), None, aopt.parameters)


@ms.jit
def auto_step(x, y):
    loss, grads = agrad(x, y)
    aopt(grads)
    return loss


try:
    res["auto_parallel"] = [float(auto_step(torch.from_numpy(X[s, 0]), torch.from_numpy(Y[s, 0])).asnumpy())
                            for s in range(STEPS)]
except RuntimeError as e:
    res["auto_parallel"] = str(e).splitlines()[0]
ms.reset_auto_parallel_context()
ms.set_context(mode=ms.PYNATIVE_MODE)

with open(os.path.join(out_dir, f"rank{r}.pkl"), "wb") as f:
    pickle.dump(res, f)
dist.destroy_process_group()
