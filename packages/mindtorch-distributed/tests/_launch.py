"""Start real 2-rank jobs on 127.0.0.1 for the tests: free port, bounded time, cleanup by process group."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence

PY = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def base_env() -> Dict[str, str]:
    env = dict(os.environ)
    env["GLOG_v"] = "3"
    for k in [k for k in env if k.startswith("MS_") or k in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")]:
        del env[k]
    return env


def kill_group(p: subprocess.Popen) -> None:
    if p.poll() is None:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()


def run_env_ranks(script: str, args: Sequence[str], world: int = 2, timeout: float = 90.0,
                  extra_env: Optional[Dict[str, str]] = None, start: Optional[Sequence[int]] = None
                  ) -> List[subprocess.CompletedProcess]:
    """Start `world` ranks torchrun-style (MASTER_ADDR/PORT, RANK, WORLD_SIZE env), or only the ranks in
    `start`; wait for all of them."""
    port = free_port()
    procs = []
    try:
        for r in (range(world) if start is None else start):
            env = dict(base_env(), MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(r), WORLD_SIZE=str(world),
                       **(extra_env or {}))
            procs.append(subprocess.Popen([PY, script, *args], env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, start_new_session=True, text=True))
        deadline = time.monotonic() + timeout
        results = []
        for p in procs:
            out, _ = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
            results.append(subprocess.CompletedProcess(p.args, p.returncode, out, ""))
        return results
    finally:
        for p in procs:
            kill_group(p)


def run_launcher(argv: Sequence[str], timeout: float = 90.0, module: str = "mindtorch.distributed.run"
                 ) -> subprocess.CompletedProcess:
    """Run the launcher in its own process group (it puts each worker in one too)."""
    p = subprocess.Popen([PY, "-m", module, *argv], env=base_env(), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True, text=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return subprocess.CompletedProcess(p.args, p.returncode, out, "")
    finally:
        kill_group(p)
