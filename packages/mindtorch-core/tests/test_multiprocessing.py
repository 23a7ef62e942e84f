"""torch.multiprocessing.spawn with real processes: every rank runs, files they write are there, a failing rank
raises ProcessRaisedException carrying its traceback, and the stdlib API is re-exported."""
import os

import pytest

import mindtorch.torch as torch
import mindtorch.torch.multiprocessing as mp


def _write_rank(rank, out_dir, payload):
    with open(os.path.join(out_dir, f"rank{rank}.txt"), "w") as f:
        f.write(f"{rank}:{payload}")


def _fail_on_one(rank, out_dir):
    if rank == 1:
        raise ValueError("rank one failed on purpose")
    _write_rank(rank, out_dir, "ok")


def _exit_code(rank):
    os._exit(3)


@pytest.mark.timeout(120)
def test_spawn_runs_every_rank(tmp_path):
    assert mp.spawn(_write_rank, args=(str(tmp_path), "x"), nprocs=2) is None
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["0:x", "1:x"]


@pytest.mark.timeout(120)
def test_spawn_reports_the_failing_rank(tmp_path):
    with pytest.raises(mp.ProcessRaisedException, match="rank one failed on purpose") as info:
        mp.spawn(_fail_on_one, args=(str(tmp_path),), nprocs=2)
    assert info.value.error_index == 1 and "ValueError" in str(info.value)


@pytest.mark.timeout(120)
def test_spawn_exit_code_and_no_join():
    with pytest.raises(mp.ProcessExitedException, match="exit code 3"):
        mp.spawn(_exit_code, nprocs=1)
    ctx = mp.spawn(_exit_code, nprocs=1, join=False)
    assert isinstance(ctx, mp.ProcessContext) and len(ctx.pids()) == 1
    with pytest.raises(mp.ProcessExitedException):
        while not ctx.join():
            pass


def test_stdlib_reexports_and_strategies():
    assert torch.multiprocessing is mp
    assert mp.get_context is not None and mp.Queue is not None and mp.cpu_count() >= 1
    assert mp.get_sharing_strategy() in mp.get_all_sharing_strategies()
    mp.set_sharing_strategy("file_system")
    assert mp.get_sharing_strategy() == "file_system"
    mp.set_sharing_strategy("file_descriptor")
