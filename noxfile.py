"""Sessions that test every mindtorch package on each MindSpore device target.

    nox -s lint tests          # what CI runs (README)
    nox -s "tests(package='core', target='CPU')"
    nox -s demo                # the main job: train the example end to end
    nox -s benchmarks          # ratios, written to benchmarks/RESULTS.md

A device target this machine lacks is skipped with one line naming it. Each test session installs only the
package under test (and the packages it depends on), so a missing install step in one package is caught.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nox

ROOT = Path(__file__).parent
PACKAGES = {
    "core": ["packages/mindtorch-core"],
    "vision": ["packages/mindtorch-core", "packages/mindtorch-vision"],
    "audio": ["packages/mindtorch-core", "packages/mindtorch-audio"],
    "distributed": ["packages/mindtorch-core", "packages/mindtorch-distributed"],
}
TARGETS = ("CPU", "GPU", "Ascend")
# The reference PyTorch the tests compare against: the 2.13.0 CPU wheel that lies on these machines. It is
# installed from that file only: asking an index for "torch==2.13.0" returns a multi-GB CUDA build.
TORCH_REF_WHEEL = "torch-2.13.0+cpu-*.whl"

nox.options.sessions = ["lint", "tests", "examples"]
nox.options.reuse_existing_virtualenvs = True
# uv installs MindSpore's 800 MB wheel in seconds from its cache; plain virtualenv+pip is the fallback.
nox.options.default_venv_backend = "uv|virtualenv"


def _target_missing(target: str) -> str | None:
    """Why `target` cannot run here (None when it can)."""
    if target == "CPU":
        return None
    if target == "GPU":
        smi = shutil.which("nvidia-smi")
        if not smi or subprocess.run([smi, "-L"], capture_output=True).returncode != 0:
            return "GPU target not available on this machine (no NVIDIA GPU: nvidia-smi missing or failing)"
        return None
    if target == "Ascend":
        if not (shutil.which("npu-smi") or Path("/usr/local/Ascend").exists()):
            return "Ascend target not available on this machine (no npu-smi, no /usr/local/Ascend)"
        return None
    return f"unknown device target {target}"


def _reference_torch_wheel() -> Path | None:
    dirs = ["/opt/wheels", *os.environ.get("PIP_FIND_LINKS", "").split()]
    for d in dirs:
        found = sorted(Path(d).glob(TORCH_REF_WHEEL)) if d and Path(d).is_dir() else []
        if found:
            return found[-1]
    return None


def _install_reference_torch(session: nox.Session) -> None:
    """Real PyTorch (CPU) for numerical comparison; tests skip cleanly when it is not on this machine."""
    wheel = _reference_torch_wheel()
    if wheel is None:
        session.log(f"no {TORCH_REF_WHEEL} on this machine: comparisons against PyTorch will be skipped")
        return
    session.install(str(wheel))


@nox.session
@nox.parametrize("target", TARGETS)
@nox.parametrize("package", list(PACKAGES))
def tests(session: nox.Session, package: str, target: str) -> None:
    """Run one package's tests on one device target."""
    why = _target_missing(target)
    if why:
        session.skip(why)
    # tensorboard: the optional package torch.utils.tensorboard writes with (as torch's does), to test it
    extra = ["tensorboard"] if package == "core" else []
    session.install(*PACKAGES[package], "pytest>=7", "pytest-timeout>=2", "scipy", *extra)
    if package in ("core", "vision", "distributed"):
        _install_reference_torch(session)
    env = {"MINDTORCH_DEVICE_TARGET": target, "GLOG_v": "3"}
    args = session.posargs or ["-q", "-p", "no:cacheprovider", "--timeout=900"]
    session.run("python", "-m", "pytest", f"packages/mindtorch-{package}/tests", *args, env=env)


@nox.session
def examples(session: nox.Session) -> None:
    """The examples (manual's LeNet in three forms, ResNet-18, LSTM, the demo for one epoch) as real scripts."""
    session.install(*PACKAGES["vision"], "pytest>=7", "pytest-timeout>=2", "scikit-learn", "tqdm")
    session.run("python", "-m", "pytest", "examples/tests", "-q", "-p", "no:cacheprovider", "--timeout=900",
                *session.posargs, env={"GLOG_v": "3"})


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over every package, the tools and the examples."""
    session.install("ruff")
    session.run("ruff", "check", ".")


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: the manual's migration example trained end to end (see examples/README.md)."""
    script = ROOT / "examples" / "demo.py"
    if not script.exists():
        session.skip("examples/demo.py does not exist yet")
    session.install(*PACKAGES["vision"], "scikit-learn", "tqdm")
    session.run("python", str(script), *session.posargs, env={"GLOG_v": "3"})


@nox.session
def benchmarks(session: nox.Session) -> None:
    """Ratios (mindtorch vs native MindSpore vs PyTorch), written to benchmarks/RESULTS.md."""
    script = ROOT / "benchmarks" / "run.py"
    if not script.exists():
        session.skip("benchmarks/run.py does not exist yet")
    session.install(*PACKAGES["vision"], "psutil")
    _install_reference_torch(session)
    session.run("python", str(script), *session.posargs, env={"GLOG_v": "3", **dict(os.environ)})
