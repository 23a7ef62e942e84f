"""2-rank data-parallel training of a small MLP equals 1-process training on the concatenated batch, in both
styles: backward (DistributedDataParallel, with no_sync accumulation) and functional (the manual's
value_and_grad + DistributedGradReducer). One job, started by `python -m mindtorch.distributed.run` with
--log_dir, so the launcher and its per-rank log layout are exercised too."""
import pickle
from pathlib import Path

import numpy as np
import pytest
from _launch import free_port, run_launcher

WORKER = str(Path(__file__).parent / "_worker_training.py")


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    out = tmp_path_factory.mktemp("training")
    proc = run_launcher(["--nproc_per_node", "2", "--master_port", str(free_port()), "--log_dir", str(out / "logs"),
                         WORKER, str(out)], timeout=90)
    logs = "".join(p.read_text() for p in sorted((out / "logs").glob("1/rank.*/stdout")))
    assert proc.returncode == 0, proc.stdout[-3000:] + logs[-3000:]
    return out, [pickle.loads((out / f"rank{r}.pkl").read_bytes()) for r in range(2)]


def close(a, b, tol=1e-5):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol)


def test_ddp_broadcasts_rank0_weights_and_prefixes_state_dict(job):
    for res in job[1]:
        close(res["ddp_init"], res["ref_init"], 0)
        assert res["ddp_keys"] == ["module.w1", "module.b1", "module.w2"]


def test_ddp_no_sync_keeps_local_grads_and_backward_averages(job):
    for res in job[1]:
        close(res["no_sync_grad"], res["ref_no_sync_grad"], 0)
        close(res["synced_grad"], res["ref_synced_grad"])


def test_ddp_training_equals_full_batch_training(job):
    for res in job[1]:
        close(res["ddp_final"], res["ref_final"])


def test_grad_reducer_training_equals_full_batch_training(job):
    for res in job[1]:
        close(res["reducer_final"], res["ref_functional_final"])


def test_launcher_log_layout(job):
    out = job[0]
    for r in range(2):
        text = (out / "logs" / "1" / f"rank.{r}" / "stdout").read_text()
        assert f"rank {r} of 2: env RANK={r} LOCAL_RANK={r}" in text
