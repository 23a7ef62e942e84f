"""The examples run as users run them: real scripts in subprocesses, on FakeData / generated data, a few steps.

Run by the `examples` nox session (core + vision installed). The rewritten LeNet must be exactly what
tools/replace_import_package.sh makes of the original, so the committed copy cannot drift from the tool.
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1]
ROOT = EXAMPLES.parent
ENV_EXTRA = {"GLOG_v": "3"}


def _run(args, cwd, timeout=600):
    import os

    env = {**os.environ, **ENV_EXTRA}
    r = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       env=env)
    assert r.returncode == 0, f"{args} failed:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    return r.stdout


def test_rewritten_lenet_is_the_tools_output(tmp_path):
    copy = tmp_path / "lenet_cifar10_rewritten.py"
    shutil.copy(EXAMPLES / "pytorch_original" / "lenet_cifar10.py", copy)
    subprocess.run(["bash", str(ROOT / "tools" / "replace_import_package.sh"), str(tmp_path)], check=True,
                   capture_output=True, timeout=60)
    assert copy.read_bytes() == (EXAMPLES / "lenet_cifar10_rewritten.py").read_bytes()


@pytest.mark.parametrize("script", ["lenet_cifar10_mstorch_enable.py", "lenet_cifar10_functional.py",
                                    "lenet_cifar10_rewritten.py"])
def test_lenet_three_forms_train_and_save_a_torch_checkpoint(tmp_path, script):
    out = _run([EXAMPLES / script, "--fake", "--steps", "3", "--save", tmp_path / "lenet.pth"], cwd=tmp_path)
    assert "------>epoch:0, loss:" in out
    import mindtorch.torch as torch

    sd = torch.load(tmp_path / "lenet.pth")
    assert list(sd) == ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "fc1.weight", "fc1.bias",
                        "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]


def test_lstm_example_learns(tmp_path):
    out = _run([EXAMPLES / "run_with_mindtorch.py", "lstm_sequence.py", "--steps", "150"], cwd=tmp_path)
    last = [ln for ln in out.splitlines() if ln.startswith("step ")][-1]
    assert float(last.split("acc")[1].strip().rstrip("%")) > 80.0, out


def test_resnet18_example_runs(tmp_path):
    out = _run([EXAMPLES / "run_with_mindtorch.py", "resnet18_cifar.py", "--fake", "--steps", "2",
                "--batch-size", "8"], cwd=tmp_path)
    assert "epoch 0: loss" in out


def test_demo_one_epoch_writes_a_checkpoint(tmp_path):
    pytest.importorskip("sklearn")
    out = _run([EXAMPLES / "demo.py", "--epochs", "1", "--data", tmp_path / "data", "--out", tmp_path / "d.pth",
                "--target-accuracy", "0"], cwd=tmp_path)
    assert "epoch 1: loss" in out and (tmp_path / "d.pth").exists()
    assert (tmp_path / "data" / "MNIST" / "raw" / "train-images-idx3-ubyte").exists()
