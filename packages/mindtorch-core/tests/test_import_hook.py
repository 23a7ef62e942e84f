"""The import hook: torch/torchvision/torchaudio -> mindtorch.*, and back to real PyTorch."""
import subprocess
import sys
import textwrap


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)


def test_version():
    import mindtorch.torch as torch

    assert torch.__version__ == "1.12.1"


def test_hook_maps_torch_and_submodules_to_the_same_module_objects():
    r = _run("""
        from mindtorch.tools import mstorch_enable
        import sys
        import torch
        import mindtorch.torch
        assert torch is mindtorch.torch, torch
        assert sys.modules["torch"] is mindtorch.torch
        assert torch.__name__ == "mindtorch.torch"
        from torch import Tensor
        assert Tensor is mindtorch.torch.Tensor
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert "ok" in r.stdout


def test_missing_submodule_names_the_mindtorch_module():
    r = _run("""
        from mindtorch.tools import mstorch_enable
        try:
            import torch.does_not_exist
        except ModuleNotFoundError as e:
            print("MNF:", e)
    """)
    assert "MNF:" in r.stdout, r.stderr
    assert "mindtorch.torch.does_not_exist" in r.stdout


def test_pytorch_enable_gives_real_torch_both_orders(reftorch):
    r = _run("""
        from mindtorch.tools import mstorch_enable
        import torch
        from mindtorch.tools import pytorch_enable
        import torch as pytorch
        from mindtorch.tools import mstorch_enable
        import torch as again
        assert torch.__version__ == "1.12.1"
        assert pytorch.__version__.startswith("2."), pytorch.__version__
        assert again is torch
        assert pytorch.ones(2).sum().item() == 2.0
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert "ok" in r.stdout


def test_real_torch_imported_first_then_hook(reftorch):
    r = _run("""
        import torch as pytorch
        from mindtorch.tools import mstorch_enable
        import torch
        assert torch.__version__ == "1.12.1" and pytorch.__version__.startswith("2.")
        from mindtorch.tools import pytorch_enable
        import torch as real
        assert real is pytorch
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert "ok" in r.stdout


def test_missing_distribution_names_the_package_to_install():
    """Under the hook, `import torchvision`/`torchaudio` without their distribution says what to pip install
    (in the core-only nox session neither is installed; elsewhere this checks they resolve to mindtorch)."""
    import importlib.util

    for alias, dist in (("torchvision", "mindtorch-vision"), ("torchaudio", "mindtorch-audio")):
        installed = importlib.util.find_spec(f"mindtorch.{alias}") is not None
        r = _run(f"""
            from mindtorch.tools import mstorch_enable
            try:
                import {alias}
                print("IMPORTED", {alias}.__name__)
            except ModuleNotFoundError as e:
                print("MNF:", e)
        """)
        if installed:
            assert f"IMPORTED mindtorch.{alias}" in r.stdout, r.stderr
        else:
            assert "MNF:" in r.stdout and f"pip install {dist}" in r.stdout, r.stdout + r.stderr


def test_torch_distributed_submodules_come_from_mindtorch_distributed():
    """`import torch.distributed.algorithms.ddp_comm_hooks.default_hooks` (and `.run`): the forward module
    torch.distributed lives in core, its submodules in mindtorch-distributed."""
    import pytest

    pytest.importorskip("mindtorch.distributed")
    r = _run("""
        from mindtorch.tools import mstorch_enable
        import torch.distributed.algorithms.ddp_comm_hooks.default_hooks as h
        import mindtorch.distributed.algorithms.ddp_comm_hooks.default_hooks as m
        assert h is m and callable(h.allreduce_hook)
        from torch.distributed import run
        import mindtorch.distributed.run
        assert run is mindtorch.distributed.run
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert "ok" in r.stdout
