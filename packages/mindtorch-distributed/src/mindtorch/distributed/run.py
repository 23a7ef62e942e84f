"""`python -m mindtorch.distributed.run` (torchrun): start one worker process per device.

    python -m mindtorch.distributed.run --nproc_per_node 2 [--nnodes N --node_rank R] \
        [--master_addr 127.0.0.1 --master_port 29500] [--log_dir log_output] train.py [args...]

Workers get torchrun's variables (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, GROUP_WORLD_SIZE,
ROLE_RANK, ROLE_NAME, ROLE_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RUN_ID and the other TORCHELASTIC_*
ones, hence `torch.distributed.is_torchelastic_launched()`; OMP_NUM_THREADS=1 when unset, with torchrun's
warning) and MindSpore's dynamic-cluster ones (MS_ROLE=MS_WORKER, MS_NODE_ID, MS_SCHED_HOST,
MS_SCHED_PORT, MS_WORKER_NUM, RANK_ID, DEVICE_ID), so both `torch.distributed.init_process_group()` and
the manual's `mindspore.communication.init()` work in them. Node 0 also runs MindSpore's scheduler on
master_addr:master_port (what msrun does). With --log_dir each rank writes `LOG_DIR/1/rank.R/stdout`
(OpenMPI's `--output-filename` layout, which the manual refers to) and the scheduler `LOG_DIR/scheduler.log`.

When a worker fails, the others are killed and the launcher exits with that worker's code; Ctrl-C or
SIGTERM kills every child (each in its own process group, so their children go too).
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import uuid
from typing import Dict, List, Optional, Sequence

_GRACE_S = 5.0


def get_args_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mindtorch.distributed.run",
                                     description="torchrun for mindtorch: one process per device on MindSpore")
    parser.add_argument("--nproc_per_node", "--nproc-per-node", type=int, default=1)
    parser.add_argument("--nnodes", type=str, default="1", help="number of nodes (MIN:MAX takes MAX)")
    parser.add_argument("--node_rank", "--node-rank", type=int, default=0)
    parser.add_argument("--master_addr", "--master-addr", default="127.0.0.1")
    parser.add_argument("--master_port", "--master-port", type=int, default=29500)
    parser.add_argument("--log_dir", "--log-dir", default=None, help="per-rank logs: LOG_DIR/1/rank.R/stdout")
    parser.add_argument("--standalone", action="store_true", help="single node on 127.0.0.1")
    parser.add_argument("--max_restarts", "--max-restarts", type=int, default=0)
    parser.add_argument("--rdzv_id", "--rdzv-id", default="none", help="job id (TORCHELASTIC_RUN_ID)")
    parser.add_argument("--start_method", "--start-method", default="spawn")
    parser.add_argument("--timeout", type=int, default=600, help="seconds for the cluster to form (MS_TOPO_TIMEOUT)")
    parser.add_argument("-m", "--module", action="store_true", help="run training_script as a module (python -m)")
    parser.add_argument("--no_python", "--no-python", action="store_true", help="run the script without python")
    parser.add_argument("training_script")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return parser


def _cmd(args: argparse.Namespace, extra: Sequence[str] = ()) -> List[str]:
    if args.no_python:
        return [args.training_script, *extra, *args.training_script_args]
    if args.module:
        return [sys.executable, "-u", "-m", args.training_script, *extra, *args.training_script_args]
    return [sys.executable, "-u", args.training_script, *extra, *args.training_script_args]


def _kill(procs: Sequence[subprocess.Popen]) -> None:
    """SIGTERM each child's process group, then SIGKILL what is left after a grace period."""
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + _GRACE_S
    for p in procs:
        try:
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def launch(args: argparse.Namespace, extra_args_for_rank: Optional[callable] = None) -> int:
    """Start the workers (and, on node 0, the scheduler); return the job's exit code."""
    nnodes = int(str(args.nnodes).split(":")[-1])
    nproc = args.nproc_per_node
    world = nnodes * nproc
    if args.standalone:
        args.master_addr = "127.0.0.1"
        args.rdzv_id = str(uuid.uuid4())  # torchrun --standalone's
    if "OMP_NUM_THREADS" not in os.environ and nproc > 1:
        # torchrun's default and warning (it logs through torch.distributed.run's logger, on stderr)
        sys.stderr.write("WARNING:torch.distributed.run:\n*****************************************\n"
                         "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid "
                         "your system being overloaded, please further tune the variable for optimal performance in "
                         "your application as needed. \n*****************************************\n")
        os.environ["OMP_NUM_THREADS"] = "1"
    base: Dict[str, str] = dict(os.environ)
    base.update({"MASTER_ADDR": args.master_addr, "MASTER_PORT": str(args.master_port), "WORLD_SIZE": str(world),
                 "LOCAL_WORLD_SIZE": str(nproc), "GROUP_RANK": str(args.node_rank), "GROUP_WORLD_SIZE": str(nnodes),
                 "ROLE_NAME": "default", "ROLE_WORLD_SIZE": str(world), "TORCHELASTIC_RUN_ID": args.rdzv_id,
                 "TORCHELASTIC_RESTART_COUNT": "0", "TORCHELASTIC_MAX_RESTARTS": str(args.max_restarts),
                 "TORCHELASTIC_USE_AGENT_STORE": "True",
                 "MS_SCHED_HOST": args.master_addr, "MS_SCHED_PORT": str(args.master_port),
                 "MS_WORKER_NUM": str(world), "MS_TOPO_TIMEOUT": str(args.timeout), "RANK_SIZE": str(world)})
    children: List[subprocess.Popen] = []
    files = []
    workers: List[subprocess.Popen] = []

    def on_signal(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    old_term = signal.signal(signal.SIGTERM, on_signal)
    try:
        if args.node_rank == 0:
            env = dict(base, MS_ROLE="MS_SCHED")
            out = subprocess.DEVNULL
            if args.log_dir:
                os.makedirs(args.log_dir, exist_ok=True)
                out = open(os.path.join(args.log_dir, "scheduler.log"), "w")  # noqa: SIM115
                files.append(out)
            children.append(subprocess.Popen(
                [sys.executable, "-c", "from mindspore.communication import init; init()"],
                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        for local_rank in range(nproc):
            rank = args.node_rank * nproc + local_rank
            env = dict(base, RANK=str(rank), LOCAL_RANK=str(local_rank), ROLE_RANK=str(rank), MS_ROLE="MS_WORKER",
                       MS_NODE_ID=str(rank),
                       RANK_ID=str(rank), DEVICE_ID=str(local_rank))
            out = None
            if args.log_dir:
                rank_dir = os.path.join(args.log_dir, "1", f"rank.{rank}")
                os.makedirs(rank_dir, exist_ok=True)
                out = open(os.path.join(rank_dir, "stdout"), "w")  # noqa: SIM115
                files.append(out)
            extra = extra_args_for_rank(local_rank) if extra_args_for_rank else ()
            p = subprocess.Popen(_cmd(args, extra), env=env, stdout=out,
                                 stderr=subprocess.STDOUT if out else None, start_new_session=True)
            children.append(p)
            workers.append(p)
        code = 0
        while True:
            codes = [p.poll() for p in workers]
            failed = [c for c in codes if c not in (None, 0)]
            if failed:
                code = failed[0]
                bad = [i for i, c in enumerate(codes) if c not in (None, 0)][0]
                sys.stderr.write(f"[mindtorch.distributed.run] local rank {bad} exited with code {code}; "
                                 "stopping the other workers\n")
                break
            if all(c == 0 for c in codes):
                break
            time.sleep(0.2)
        if code:
            _kill(children)
        else:
            _kill(children[:1] if args.node_rank == 0 else [])  # the scheduler exits by itself; make sure
        return code if code > 0 else 128 - code if code < 0 else 0
    except KeyboardInterrupt:
        _kill(children)
        return 130
    finally:
        _kill(children)
        for f in files:
            f.close()
        signal.signal(signal.SIGTERM, old_term)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = get_args_parser().parse_args(argv)
    return launch(args)


if __name__ == "__main__":
    sys.exit(main())
