"""The manual's launcher: `mpirun -n 2 --output-filename log_output --merge-stderr-to-stdout python train.py`.
init_process_group() takes rank and size from OpenMPI's variables. Skips when mpirun is not installed
(Debian: openmpi-bin)."""
import shutil
import subprocess
import sys

import pytest
from _launch import base_env, free_port, kill_group

SCRIPT = """
import numpy as np
import mindtorch.torch as torch
import mindtorch.distributed as dist
dist.init_process_group()
x = torch.from_numpy(np.array([1.0 + dist.get_rank()], np.float32))
dist.all_reduce(x)
print("RESULT", dist.get_rank(), dist.get_world_size(), x.numpy().tolist(), flush=True)
"""


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="mpirun not installed (apt-get install openmpi-bin)")
def test_mpirun_launch_with_manual_log_layout(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n", "2", "-x", f"MASTER_PORT={free_port()}",
           "-x", "GLOG_v", "--output-filename", str(tmp_path / "log_output"), "--merge-stderr-to-stdout",
           sys.executable, str(script)]
    p = subprocess.Popen(cmd, env=base_env(), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True, text=True)
    try:
        out, _ = p.communicate(timeout=90)
    finally:
        kill_group(p)
    assert p.returncode == 0, out[-3000:]
    for r in range(2):
        log = (tmp_path / "log_output" / "1" / f"rank.{r}" / "stdout").read_text()
        assert f"RESULT {r} 2 [3.0]" in log
