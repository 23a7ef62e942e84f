"""Core's lazy forwards (torch.distributed, torch.nn.parallel, torch.utils.data.DistributedSampler) and the
API that needs no process group. The "package missing" case runs in a subprocess whose import system hides
mindtorch.distributed, as if mindtorch-distributed were not installed."""
import subprocess
import sys
import textwrap

import pytest

import mindtorch.distributed as impl
import mindtorch.torch.distributed as dist


def test_forwards_reach_the_package():
    from mindtorch.torch.nn.parallel import DataParallel, DistributedDataParallel
    from mindtorch.torch.utils.data import DistributedSampler, Sampler

    assert dist.is_available() is True
    assert dist.init_process_group is impl.init_process_group
    assert dist.ReduceOp is impl.ReduceOp
    assert DistributedDataParallel is impl.DistributedDataParallel
    assert DataParallel is impl.DataParallel
    assert DistributedSampler is impl.DistributedSampler
    assert issubclass(DistributedSampler, Sampler)
    assert "all_reduce" in dir(dist)


def test_without_the_package_use_raises_import_error_naming_pip():
    code = textwrap.dedent("""
        import sys
        class Hide:
            def find_spec(self, name, path=None, target=None):
                if name == "mindtorch.distributed" or name.startswith("mindtorch.distributed."):
                    raise ModuleNotFoundError(f"No module named {name!r}")
        sys.meta_path.insert(0, Hide())
        import mindtorch.torch.distributed as dist
        assert dist.is_available() is False
        for use in (lambda: dist.init_process_group, lambda: dist.get_rank):
            try:
                use()
            except ImportError as e:
                assert "pip install mindtorch-distributed" in str(e), e
            else:
                raise AssertionError("no ImportError")
        try:
            from mindtorch.torch.nn.parallel import DistributedDataParallel  # noqa: F401
        except ImportError as e:
            assert "pip install mindtorch-distributed" in str(e), e
        else:
            raise AssertionError("no ImportError")
        print("OK")
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "OK" in p.stdout, p.stderr[-2000:]


def test_no_process_group_errors(reftorch):
    # torch 1.12 raises RuntimeError("Default process group has not been initialized ..."); 2.13 raises
    # ValueError with the same words. We follow 1.12 and check the words against 2.13.
    with pytest.raises(ValueError, match="has not been initialized") as ref:
        reftorch.distributed.get_rank()
    for call in (dist.get_rank, dist.get_world_size, dist.barrier, dist.destroy_process_group):
        with pytest.raises(RuntimeError, match="has not been initialized"):
            call()
    assert "has not been initialized" in str(ref.value)
    assert dist.is_initialized() is reftorch.distributed.is_initialized() is False


def test_backend_names(reftorch):
    for name in ("gloo", "GLOO", "nccl", "mpi"):
        assert dist.Backend(name) == reftorch.distributed.Backend(name)
    with pytest.raises(ValueError):
        reftorch.distributed.Backend(3)
    with pytest.raises(ValueError):
        dist.Backend(3)
    assert dist.Backend("hccl") == "hccl" and dist.Backend("mccl") == "mccl"


def test_env_rendezvous_needs_its_variables(monkeypatch, reftorch):
    for var in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "MS_ROLE"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match="environment variable .* expected, but not set"):
        reftorch.distributed.init_process_group("gloo", init_method="env://")
    with pytest.raises(ValueError, match="environment variable MASTER_ADDR expected, but not set"):
        dist.init_process_group("gloo", init_method="env://")
    with pytest.raises(NotImplementedError, match="env:// and tcp://"):
        dist.init_process_group("gloo", init_method="file:///tmp/x", rank=0, world_size=1)
    assert dist.is_initialized() is False


def test_auto_parallel_mode_is_refused_on_cpu_before_joining(monkeypatch):
    # MindSpore 2.10 rejects AUTO_PARALLEL / SEMI_AUTO_PARALLEL graphs on CPU (see test_training.py for its own
    # error); init_process_group says so before forming a cluster.
    import mindspore as ms

    if ms.get_context("device_target") != "CPU":
        pytest.skip("the refusal is CPU-only")
    for var in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "MS_ROLE"):
        monkeypatch.delenv(var, raising=False)
    for mode in (ms.ParallelMode.AUTO_PARALLEL, ms.ParallelMode.SEMI_AUTO_PARALLEL):
        ms.set_auto_parallel_context(parallel_mode=mode)
        try:
            with pytest.raises(NotImplementedError, match="needs Ascend or GPU.*DistributedDataParallel"):
                dist.init_process_group("gloo", init_method="tcp://127.0.0.1:1", rank=0, world_size=1)
        finally:
            ms.reset_auto_parallel_context()
        assert dist.is_initialized() is False
