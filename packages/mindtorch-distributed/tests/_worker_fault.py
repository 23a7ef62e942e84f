"""Rank program for test_faults.py. argv: MODE. `die`: rank 1 dies after the first collective, rank 0 goes on
calling collectives on a group whose timeout is short (cluster formation itself gets a generous one: on a
loaded 2-core machine importing MindSpore in the scheduler alone can take 10 s). `alone`: only rank 0 is
started (rank 1 never joins); the init timeout is short."""
import datetime
import os
import sys
import time

import numpy as np

import mindtorch.distributed as dist
import mindtorch.torch as torch

mode = sys.argv[1]
t0 = time.monotonic()
try:
    init_s = 10 if mode == "alone" else 60
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=init_s))
except RuntimeError as e:
    print(f"INIT FAILED after {time.monotonic() - t0:.1f}s: {e}", flush=True)
    sys.exit(2)
r = dist.get_rank()
x = torch.from_numpy(np.ones(4, np.float32))
# The first collective runs on the default group (the generous timeout): right after init the ranks can be
# seconds apart on a loaded machine (rank 0 also starts the scheduler), which must not count as a failure.
dist.all_reduce(x)
grp = dist.new_group([0, 1], timeout=datetime.timedelta(seconds=8))
# Creating the group is itself a rendezvous (through the scheduler); rank 1 must not die while rank 0 is still
# inside it (CI saw rank 0 end silently there), so both pass one more barrier on the generous default group.
dist.barrier()
print(f"rank {r} first all_reduce ok", flush=True)
if r == 1:
    time.sleep(0.5)  # die while rank 0 is in its loop of collectives, not while it leaves the barrier
    os._exit(3)
t1 = time.monotonic()
try:
    for _ in range(100):
        dist.all_reduce(x, group=grp)
        dist.barrier(grp)
        time.sleep(0.1)
except RuntimeError as e:
    print(f"COLLECTIVE FAILED after {time.monotonic() - t1:.1f}s: {str(e).splitlines()[0]}", flush=True)
    sys.exit(4)
print("UNEXPECTED: rank 0 finished", flush=True)
