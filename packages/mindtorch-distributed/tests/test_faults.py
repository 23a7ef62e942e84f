"""Failures end in bounded time with a clear error, and leave no process behind: a rank that dies mid-run,
a rank that never joins, a failing worker under the launcher, Ctrl-C on the launcher."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from _launch import base_env, free_port, kill_group, run_env_ranks, run_launcher

WORKER = str(Path(__file__).parent / "_worker_fault.py")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purpose (its parent just has not reaped it)
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _schedulers() -> set:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return {int(line.split()[0]) for line in out.splitlines() if "from mindspore.communication import init" in line}


def test_rank_dying_mid_run_fails_the_other_within_timeout():
    before = _schedulers()
    start = time.monotonic()
    rank0, rank1 = run_env_ranks(WORKER, ["die"], timeout=90)
    assert rank1.returncode == 3, rank1.stdout
    assert "rank 0 first all_reduce ok" in rank0.stdout, (rank0.returncode, rank0.stdout)
    assert rank0.returncode != 0
    assert "did not complete within the process group timeout" in rank0.stdout or "COLLECTIVE FAILED" in rank0.stdout
    assert time.monotonic() - start < 85  # init + first collective (60 s bound) + the group's 8 s timeout + exit
    time.sleep(0.5)
    assert _schedulers() <= before  # rank 0's scheduler went with it


def test_rank_never_joining_fails_init_within_timeout():
    before = _schedulers()
    (rank0,) = run_env_ranks(WORKER, ["alone"], timeout=90, start=[0])
    assert rank0.returncode != 0
    assert "ranks did not all join within the timeout" in rank0.stdout or "INIT FAILED" in rank0.stdout
    time.sleep(0.5)
    assert _schedulers() <= before


def _pid_script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "job.py"
    script.write_text(
        "import os, sys, time\n"
        f"open(os.path.join({str(tmp_path)!r}, 'pid' + os.environ['RANK']), 'w').write(str(os.getpid()))\n"
        + body)
    return str(script)


def _pids(tmp_path: Path) -> list:
    return [int(p.read_text()) for p in sorted(tmp_path.glob("pid*"))]


def test_launcher_propagates_exit_code_and_kills_the_rest(tmp_path):
    script = _pid_script(tmp_path, "if os.environ['RANK'] == '1':\n    time.sleep(2); sys.exit(7)\ntime.sleep(300)\n")
    start = time.monotonic()
    proc = run_launcher(["--nproc_per_node", "2", "--master_port", str(free_port()), script], timeout=60)
    assert proc.returncode == 7, proc.stdout
    assert time.monotonic() - start < 40
    assert "local rank 1 exited with code 7" in proc.stdout
    pids = _pids(tmp_path)
    assert len(pids) == 2 and not any(_alive(p) for p in pids)


def test_launcher_ctrl_c_kills_every_child(tmp_path):
    script = _pid_script(tmp_path, "time.sleep(300)\n")
    p = subprocess.Popen([sys.executable, "-m", "mindtorch.distributed.run", "--nproc_per_node", "2",
                          "--master_port", str(free_port()), script], env=base_env(), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(_pids(tmp_path)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_pids(tmp_path)) == 2
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
        assert p.returncode == 130
        assert not any(_alive(pid) for pid in _pids(tmp_path))
    finally:
        kill_group(p)


def test_launch_module_passes_local_rank(tmp_path):
    # torch.distributed.launch (torch 1.12) appends --local_rank=N unless --use_env.
    script = tmp_path / "job.py"
    script.write_text("import os, sys\nprint('ARGS', os.environ['RANK'], os.environ['WORLD_SIZE'], sys.argv[1:])\n")
    proc = run_launcher(["--nproc_per_node", "2", "--master_port", str(free_port()), str(script), "x"],
                        timeout=60, module="mindtorch.distributed.launch")
    assert proc.returncode == 0, proc.stdout
    assert "ARGS 0 2 ['--local_rank=0', 'x']" in proc.stdout
    assert "ARGS 1 2 ['--local_rank=1', 'x']" in proc.stdout
