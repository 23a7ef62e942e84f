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


def torch_ddp_keys(reftorch):
    """The worker's MLP in real torch (same parameter and buffer names): its DDP's state_dict keys are
    `module.` + these (torch's DDP registers the model as submodule `module`)."""

    class MLP(reftorch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = reftorch.nn.Parameter(reftorch.zeros(4, 8))
            self.b1 = reftorch.nn.Parameter(reftorch.zeros(8))
            self.w2 = reftorch.nn.Parameter(reftorch.zeros(8, 1))
            self.register_buffer("scale", reftorch.zeros(2))

    return ["module." + k for k in MLP().state_dict()]


def test_ddp_broadcasts_rank0_weights_and_prefixes_state_dict(job, reftorch):
    expected = torch_ddp_keys(reftorch)
    for res in job[1]:
        close(res["ddp_init"], res["ref_init"], 0)
        close([res["ddp_buffer_init"]], [np.full(2, 100, np.float32)], 0)  # rank 0's buffer
        assert res["ddp_keys"] == expected


def test_ddp_is_a_module_around_the_model(job):
    for res in job[1]:
        is_module, is_cell, same_module, same_params, names, buffer_names, children = res["is_module"]
        assert is_module and is_cell and same_module and same_params
        assert names == ["module.w1", "module.b1", "module.w2"] and buffer_names == ["module.scale"]
        assert children == ["MLP"]
        assert res["train_eval"] == (True, False, False, True, True, True)
        assert res["load_state_dict"] == ([], [])


def test_ddp_broadcast_buffers_at_forward(job):
    for res in job[1]:
        close([res["ddp_buffer_after_forward"]], [np.full(2, 10, np.float32)], 0)  # rank 0 set 10, rank 1 11


def test_ddp_find_unused_parameters_averages_with_zeros(job):
    for res in job[1]:
        close(res["unused_grads"], res["ref_unused_grads"])


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


def test_auto_parallel_is_refused_on_cpu(job):
    # MindSpore 2.10 compiles AUTO_PARALLEL / SEMI_AUTO_PARALLEL graphs for Ascend and GPU only. When a MindSpore
    # release runs it on CPU this fails: then check instead that the loss decreases and both ranks agree.
    for res in job[1]:
        assert res["auto_parallel"] == ("Invalid communication backend: CPU for semi_auto_parallel/auto_parallel "
                                        "mode, currently only support Ascend/GPU backend.")
