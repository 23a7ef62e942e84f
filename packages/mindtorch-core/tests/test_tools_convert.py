"""mindtorch.tools.convert_tensor and mindtorch.tools.pth2ckpt against real PyTorch and MindSpore."""
import os
import shutil
import subprocess
import sys

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.tools import pth2ckpt
from mindtorch.tools.convert_tensor import is_torch_tensor, to_mindtorch, to_numpy, to_torch

DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "int32", "int64", "uint8", "bool", "complex64"]


def _ref(reftorch, name):
    g = reftorch.Generator().manual_seed(0)
    d = getattr(reftorch, name)
    if name == "bool":
        return reftorch.rand(2, 3, generator=g) > 0.5
    if d.is_floating_point or d.is_complex:
        return reftorch.randn(2, 3, generator=g, dtype=d)
    return reftorch.randint(0, 100, (2, 3), generator=g, dtype=d)


@pytest.mark.parametrize("name", DTYPES)
def test_round_trip_every_dtype(reftorch, name):
    ref = _ref(reftorch, name)
    mine = to_mindtorch(ref)
    assert isinstance(mine, torch.Tensor) and is_torch_tensor(ref) and not is_torch_tensor(mine)
    assert_same(mine, ref, rtol=0, atol=0)
    back = to_torch(mine)
    assert back.dtype == ref.dtype and reftorch.equal(back, ref)
    np.testing.assert_array_equal(to_numpy(mine), to_numpy(ref))


def test_zero_copy(reftorch):
    ref = reftorch.arange(6, dtype=reftorch.float32)
    mine = to_mindtorch(ref)
    ref[2] = 100.0  # torch -> mindtorch shares memory
    assert ms.Tensor.asnumpy(mine)[2] == 100.0
    arr = np.arange(4, dtype=np.int64)
    from_np = to_mindtorch(arr)
    arr[0] = -7
    assert ms.Tensor.asnumpy(from_np)[0] == -7
    back = to_torch(from_np)  # mindtorch -> torch shares memory too
    arr[1] = -8
    assert back[1].item() == -8
    assert to_numpy(ref.t()).shape == (6,)  # 1-d transpose is itself
    assert_same(to_mindtorch(ref[::2]), ref[::2])  # strided views are copied, with the right values


def _state_dict_file(reftorch, path):
    reftorch.manual_seed(0)
    model = reftorch.nn.Sequential(reftorch.nn.Linear(4, 3), reftorch.nn.BatchNorm1d(3))
    model(reftorch.randn(5, 4))
    sd = model.state_dict()
    reftorch.save({"state_dict": sd, "epoch": 4}, path)
    return sd


def test_pth2ckpt_in_process(reftorch, tmp_path, capsys):
    sd = _state_dict_file(reftorch, tmp_path / "m.pth")
    assert pth2ckpt.main([str(tmp_path / "m.pth"), str(tmp_path / "m.ckpt")]) == 0
    assert "wrote 7 tensors" in capsys.readouterr().out
    loaded = ms.load_checkpoint(str(tmp_path / "m.ckpt"))
    assert set(loaded) == set(sd)
    for k, v in sd.items():
        assert_same(loaded[k], v, rtol=0, atol=0)


def test_pth2ckpt_cli(reftorch, tmp_path, capsys):
    sd = _state_dict_file(reftorch, tmp_path / "m.pth")
    env = dict(os.environ, GLOG_v="3")
    # One real subprocess (each costs a MindSpore import): the [project.scripts] entry when installed,
    # else `python -m mindtorch.tools.pth2ckpt`.
    script = shutil.which("mindtorch-pth2ckpt", path=os.path.dirname(sys.executable))
    cmd = [script] if script else [sys.executable, "-m", "mindtorch.tools.pth2ckpt"]
    out = tmp_path / "cli.ckpt"
    proc = subprocess.run(cmd + [str(tmp_path / "m.pth"), str(out)], env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    loaded = ms.load_checkpoint(str(out))
    assert_same(loaded["0.weight"], sd["0.weight"], rtol=0, atol=0)
    assert pth2ckpt.main([str(tmp_path / "missing.pth"), str(tmp_path / "x.ckpt")]) == 1
    assert "error" in capsys.readouterr().err
