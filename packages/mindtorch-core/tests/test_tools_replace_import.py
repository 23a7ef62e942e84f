"""Tests of tools/replace_import_package.sh and tools/replace_import_msadapter_to_mindtorch.sh.

The real bash scripts are run with subprocess on temporary trees.  A tiny fake
``mindtorch`` package tree is written into ``tmp_path`` to prove that the
rewritten imports resolve to the right modules.
"""

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
TOOLS = REPO_ROOT / "tools"
TORCH_SCRIPT = TOOLS / "replace_import_package.sh"
MSADAPTER_SCRIPT = TOOLS / "replace_import_msadapter_to_mindtorch.sh"
SCRIPTS = [TORCH_SCRIPT, MSADAPTER_SCRIPT]

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is required")


def run_tool(script, *args, cwd=None, python=sys.executable):
    env = dict(os.environ)
    env.pop("MINDTORCH_TOOLS_PYTHON", None)
    if python is not None:
        env["MINDTORCH_TOOLS_PYTHON"] = python
    return subprocess.run(
        ["bash", str(script), *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(textwrap.dedent(text).encode("utf-8"))
    return path


def snapshot(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------- fake packages

FAKE_PACKAGES = {
    "mindtorch/__init__.py": "",
    # On purpose, the package does not import its submodules.
    "mindtorch/torch/__init__.py": "NAME = 'fake mindtorch.torch'\n",
    "mindtorch/torch/nn/__init__.py": "class Module:\n    pass\n\n\nclass Linear(Module):\n    pass\n",
    "mindtorch/torch/nn/functional.py": "def relu(x):\n    return ('fake relu', x)\n",
    "mindtorch/torch/optim/__init__.py": "class SGD:\n    pass\n",
    "mindtorch/torch/utils/__init__.py": "",
    "mindtorch/torch/utils/data/__init__.py": "class DataLoader:\n    pass\n\n\nclass Dataset:\n    pass\n",
    "mindtorch/torchvision/__init__.py": "NAME = 'fake mindtorch.torchvision'\n",
    "mindtorch/torchvision/transforms/__init__.py": "class Compose:\n    pass\n",
    "mindtorch/torchvision/datasets/__init__.py": "class MNIST:\n    pass\n",
    "mindtorch/torchvision/models/__init__.py": "def resnet18():\n    return 'fake resnet18'\n",
    "mindtorch/torchaudio/__init__.py": "NAME = 'fake mindtorch.torchaudio'\n",
    "mindtorch/torchaudio/transforms.py": "class MelSpectrogram:\n    pass\n",
}


@pytest.fixture
def fake_site(tmp_path):
    site = tmp_path / "fake_site"
    for rel, content in FAKE_PACKAGES.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    return site


def run_python_isolated(script, site):
    """Run ``script`` without site-packages (no real torch), with only ``site`` on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(site)
    env.pop("PYTHONHOME", None)
    return subprocess.run(
        [sys.executable, "-S", str(script)],
        cwd=script.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


# --------------------------------------------------------------------------- script basics


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_are_executable_bash(script):
    assert script.is_file()
    assert os.access(script, os.X_OK)
    lines = script.read_text().splitlines()
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help(script, flag, tmp_path):
    result = run_tool(script, flag, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Usage:" in result.stdout
    assert "--dry-run" in result.stdout
    assert "PROJECT_PATH" in result.stdout
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_missing_path(script, tmp_path):
    missing = tmp_path / "no such dir"
    result = run_tool(script, missing)
    assert result.returncode == 2
    assert str(missing) in result.stderr
    assert "does not exist" in result.stderr


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_unknown_option_is_a_usage_error(script, tmp_path):
    result = run_tool(script, "--frobnicate", tmp_path)
    assert result.returncode == 2
    assert "--frobnicate" in result.stderr


# --------------------------------------------------------------------------- torch rules

TORCH_CASES = {
    "plain": ("import torch\n", "import mindtorch.torch as torch\n"),
    "alias": ("import torch as T\n", "import mindtorch.torch as T\n"),
    "submodule_alias": ("import torch.nn as nn\n", "import mindtorch.torch.nn as nn\n"),
    "deep_alias": ("import torch.nn.functional as F\n", "import mindtorch.torch.nn.functional as F\n"),
    "bare_submodule": ("import torch.nn\n", "import mindtorch.torch as torch, mindtorch.torch.nn\n"),
    "bare_deep_submodule": (
        "import torch.nn.functional\n",
        "import mindtorch.torch as torch, mindtorch.torch.nn.functional\n",
    ),
    "several_modules": (
        "import os, torch, numpy as np\n",
        "import os, mindtorch.torch as torch, numpy as np\n",
    ),
    "semicolons": (
        "import os; import torch.nn as nn; x = 1\n",
        "import os; import mindtorch.torch.nn as nn; x = 1\n",
    ),
    "from_torch": ("from torch import nn\n", "from mindtorch.torch import nn\n"),
    "from_deep": (
        "from torch.utils.data import DataLoader\n",
        "from mindtorch.torch.utils.data import DataLoader\n",
    ),
    "from_star": ("from torch import *\n", "from mindtorch.torch import *\n"),
    "from_parenthesized": (
        "from torch.nn import (\n    Linear,  # import torch\n    ReLU,\n)\n",
        "from mindtorch.torch.nn import (\n    Linear,  # import torch\n    ReLU,\n)\n",
    ),
    "from_parenthesized_one_line": (
        "from torch.nn import (Linear as L, ReLU)\n",
        "from mindtorch.torch.nn import (Linear as L, ReLU)\n",
    ),
    "backslash": (
        "from torch.nn import \\\n    Conv2d, \\\n    Linear\nimport os, \\\n    torch\n",
        "from mindtorch.torch.nn import \\\n    Conv2d, \\\n    Linear\nimport os, \\\n    mindtorch.torch as torch\n",
    ),
    "indented": (
        "def f():\n    try:\n        import torch\n        from torch import nn\n"
        "    except ImportError:\n        return None\n    if True: import torch.nn as nn\n",
        "def f():\n    try:\n        import mindtorch.torch as torch\n        from mindtorch.torch import nn\n"
        "    except ImportError:\n        return None\n    if True: import mindtorch.torch.nn as nn\n",
    ),
    "tab_indented_in_class": (
        "class A:\n\timport torch.nn as nn\n",
        "class A:\n\timport mindtorch.torch.nn as nn\n",
    ),
    "torchvision": (
        "import torchvision\nimport torchvision.transforms as T\n"
        "from torchvision import datasets, transforms\nfrom torchvision.models import resnet18\n",
        "import mindtorch.torchvision as torchvision\nimport mindtorch.torchvision.transforms as T\n"
        "from mindtorch.torchvision import datasets, transforms\nfrom mindtorch.torchvision.models import resnet18\n",
    ),
    "torchaudio": (
        "import torchaudio\nimport torchaudio.transforms as AT\nfrom torchaudio import transforms\n",
        "import mindtorch.torchaudio as torchaudio\nimport mindtorch.torchaudio.transforms as AT\n"
        "from mindtorch.torchaudio import transforms\n",
    ),
    "import_with_comment": (
        "import torch  # import torch.nn as nn\n",
        "import mindtorch.torch as torch  # import torch.nn as nn\n",
    ),
    "docstring_then_import": (
        '"""Module docstring.\n\nimport torch\nfrom torch import nn\n"""\nimport torch\n',
        '"""Module docstring.\n\nimport torch\nfrom torch import nn\n"""\nimport mindtorch.torch as torch\n',
    ),
    "mixed_with_lookalikes": (
        "import torchmetrics, torch, my_torch_utils\n",
        "import torchmetrics, mindtorch.torch as torch, my_torch_utils\n",
    ),
}


def test_torch_rewrite_rules(tmp_path):
    project = tmp_path / "project"
    for name, (source, _) in TORCH_CASES.items():
        write(project / (name + ".py"), source)
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    failures = {}
    for name, (_, expected) in TORCH_CASES.items():
        got = (project / (name + ".py")).read_text()
        if got != expected:
            failures[name] = got
    assert not failures
    n = len(TORCH_CASES)
    assert f"{n} of {n} Python file(s) changed" in result.stdout


def test_torch_rewrite_is_idempotent(tmp_path):
    project = tmp_path / "project"
    for name, (source, _) in TORCH_CASES.items():
        write(project / "pkg" / (name + ".py"), source)
    first = run_tool(TORCH_SCRIPT, project)
    assert first.returncode == 0, first.stderr
    after_first = snapshot(project)
    second = run_tool(TORCH_SCRIPT, project)
    assert second.returncode == 0, second.stderr
    assert snapshot(project) == after_first
    assert f"0 of {len(TORCH_CASES)} Python file(s) changed" in second.stdout
    dry = run_tool(TORCH_SCRIPT, "--dry-run", project)
    assert "---" not in dry.stdout


UNTOUCHED_SOURCE = '''\
"""Docstring mentioning
import torch
import torch.nn as nn
from torch import nn
"""
import torchmetrics
import my_torch_utils
import torch_geometric
import pytorch_lightning as pl
import mindtorch.torch as torch
import mindtorch.torch.nn as nn
from mindtorch.torch import nn as nn2
from mindtorch.torchvision import transforms
from torchmetrics import Accuracy
from my_torch_utils.torch import helper
from . import torch as local_torch
from .torch import something
from ..torchvision import other

# import torch
code = """
import torch
from torch.utils.data import DataLoader
"""
other = 'import torch.nn as nn'  # from torch import nn
fmt = f"import torch {len(code)}"
raw = r"from torchvision import datasets"
x = model.torch.nn
torch_version = "2.0"


def gen():
    yield from range(3)
    raise ValueError("import torch") from None
'''


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_file_that_must_not_change(script, tmp_path):
    project = tmp_path / "project"
    source = project / "keep.py"
    source.parent.mkdir()
    data = UNTOUCHED_SOURCE.replace("\n", "\r\n").encode("utf-8") + b"trailing = 1   "
    source.write_bytes(data)
    result = run_tool(script, project)
    assert result.returncode == 0, result.stderr
    assert source.read_bytes() == data
    assert "0 of 1 Python file(s) changed" in result.stdout


def test_bytes_outside_imports_are_preserved(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    crlf = project / "crlf.py"
    crlf.write_bytes(b"# -*- coding: utf-8 -*-\r\nimport torch   \r\nx = 'h\xc3\xa9'  \r\n\r\n")
    bom = project / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfimport torch.nn as nn\n")
    no_eol = project / "no_eol.py"
    no_eol.write_bytes(b"import torch")
    latin = project / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\ns = '\xe9'\nfrom torch import nn\n")
    old_mac = project / "old_mac.py"
    old_mac.write_bytes(b"import os\rimport torch\rx = 1\r")
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert (
        crlf.read_bytes()
        == b"# -*- coding: utf-8 -*-\r\nimport mindtorch.torch as torch   \r\nx = 'h\xc3\xa9'  \r\n\r\n"
    )
    assert bom.read_bytes() == b"\xef\xbb\xbfimport mindtorch.torch.nn as nn\n"
    assert no_eol.read_bytes() == b"import mindtorch.torch as torch"
    assert latin.read_bytes() == b"# -*- coding: latin-1 -*-\ns = '\xe9'\nfrom mindtorch.torch import nn\n"
    assert old_mac.read_bytes() == b"import os\rimport mindtorch.torch as torch\rx = 1\r"


def test_dry_run_prints_diff_and_writes_nothing(tmp_path):
    project = tmp_path / "project"
    write(project / "train.py", "import torch\nimport torch.nn as nn\nx = 1\n")
    write(project / "sub" / "model.py", "from torch import nn\n")
    write(project / "clean.py", "import os\n")
    before = snapshot(project)
    mtimes = {p: p.stat().st_mtime_ns for p in project.rglob("*.py")}
    result = run_tool(TORCH_SCRIPT, "--dry-run", project)
    assert result.returncode == 0, result.stderr
    assert snapshot(project) == before
    assert {p: p.stat().st_mtime_ns for p in project.rglob("*.py")} == mtimes
    out = result.stdout
    assert "--- a/train.py\n+++ b/train.py\n" in out
    assert "\n-import torch\n-import torch.nn as nn\n" in out
    assert "\n+import mindtorch.torch as torch\n+import mindtorch.torch.nn as nn\n x = 1\n" in out
    assert "--- a/sub/model.py\n+++ b/sub/model.py\n" in out
    assert "+from mindtorch.torch import nn\n" in out
    assert "clean.py" not in out
    assert "2 of 3 Python file(s) would be changed" in out
    # ``-n`` is the short form.
    short = run_tool(TORCH_SCRIPT, "-n", project)
    assert short.stdout == out
    assert snapshot(project) == before


@pytest.mark.skipif(shutil.which("patch") is None, reason="patch is not installed")
def test_dry_run_diff_applies_like_a_real_run(tmp_path):
    sources = {
        "a.py": "import torch\r\nx = 1\r\n",
        "dir with space/b.py": "from torch import nn\nimport torchvision",
        "c.py": "# c\nimport torch.nn\n\n\n\n\n\ny = torch.nn.Linear\n",
    }
    patched, real = tmp_path / "patched", tmp_path / "real"
    for root in (patched, real):
        for rel, text in sources.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(text.encode())
    env = dict(os.environ, MINDTORCH_TOOLS_PYTHON=sys.executable)
    dry = subprocess.run(
        ["bash", str(TORCH_SCRIPT), "--dry-run", str(patched)], env=env, capture_output=True, timeout=60
    )
    assert dry.returncode == 0, dry.stderr
    diff = dry.stdout[: dry.stdout.rindex(b"replace_import_package.sh:")]
    assert b"import torch\r\n" in diff
    applied = subprocess.run(
        ["patch", "-p1", "--binary", "-s"], input=diff, cwd=patched, capture_output=True, timeout=60
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert run_tool(TORCH_SCRIPT, real).returncode == 0
    assert snapshot(patched) == snapshot(real)


def test_directory_with_spaces(tmp_path):
    project = tmp_path / "my project"
    target = write(project / "sub dir" / "train script.py", "import torch\n")
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert target.read_text() == "import mindtorch.torch as torch\n"
    assert "1 of 1 Python file(s) changed" in result.stdout


def test_default_path_is_current_directory(tmp_path):
    target = write(tmp_path / "pkg" / "a.py", "import torch\n")
    result = run_tool(TORCH_SCRIPT, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert target.read_text() == "import mindtorch.torch as torch\n"


@pytest.mark.skipif(shutil.which("python3") is None, reason="no python3 on PATH")
def test_default_interpreter_is_python3(tmp_path):
    target = write(tmp_path / "a.py", "import torch.nn as nn\n")
    result = run_tool(TORCH_SCRIPT, tmp_path, python=None)
    assert result.returncode == 0, result.stderr
    assert target.read_text() == "import mindtorch.torch.nn as nn\n"


def test_single_file_path(tmp_path):
    target = write(tmp_path / "a.py", "import torch\n")
    other = write(tmp_path / "b.py", "import torch\n")
    result = run_tool(TORCH_SCRIPT, target)
    assert result.returncode == 0, result.stderr
    assert target.read_text() == "import mindtorch.torch as torch\n"
    assert other.read_text() == "import torch\n"
    notes = write(tmp_path / "notes.md", "import torch\n")
    result = run_tool(TORCH_SCRIPT, notes)
    assert result.returncode == 0
    assert "0 of 0 Python file(s) changed" in result.stdout
    assert str(notes) in result.stderr
    assert notes.read_text() == "import torch\n"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_non_utf8_file_is_left_alone(script, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    bad = project / "latin1 data.py"
    bad_bytes = b"import torch\nimport msadapter.pytorch as torch\ns = '\xff\xfe caf\xe9'\n"
    bad.write_bytes(bad_bytes)
    good = write(project / "good.py", "import torch\nimport msadapter.pytorch as torch\n")
    result = run_tool(script, project)
    assert result.returncode == 0, result.stderr
    assert bad.read_bytes() == bad_bytes
    assert "warning" in result.stderr
    assert str(bad) in result.stderr
    assert "UTF-8" in result.stderr
    assert good.read_text() != "import torch\nimport msadapter.pytorch as torch\n"


def test_file_that_fails_to_tokenize_is_left_alone(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    broken = project / "broken.py"
    broken_bytes = b'import torch\ns = """never closed\nimport torch\n'
    broken.write_bytes(broken_bytes)
    good = write(project / "good.py", "import torch\n")
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert broken.read_bytes() == broken_bytes
    assert str(broken) in result.stderr
    assert good.read_text() == "import mindtorch.torch as torch\n"


def test_file_mode_is_preserved_and_no_temp_files_left(tmp_path):
    project = tmp_path / "project"
    script = write(project / "run.py", "#!/usr/bin/env python3\nimport torch\n")
    script.chmod(0o755)
    private = write(project / "private.py", "import torch\n")
    private.chmod(0o640)
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert script.read_text() == "#!/usr/bin/env python3\nimport mindtorch.torch as torch\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    assert stat.S_IMODE(private.stat().st_mode) == 0o640
    assert sorted(p.name for p in project.iterdir()) == ["private.py", "run.py"]


def test_non_python_files_are_untouched(tmp_path):
    project = tmp_path / "project"
    write(project / "README.md", "import torch\n")
    write(project / "run.sh", "python -c 'import torch'\n")
    write(project / "notes.txt", "from torch import nn\n")
    write(project / "stub.pyi", "import torch\n")
    write(project / "script.py.bak", "import torch\n")
    write(project / "venv" / "pyvenv.cfg", "home = /usr/bin\n")
    write(project / "venv" / "lib" / "site.py", "import torch\n")
    write(project / ".git" / "hook.py", "import torch\n")
    before = snapshot(project)
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert snapshot(project) == before
    assert "0 of 0 Python file(s) changed" in result.stdout


TORCH_PROGRAM = """\
import sys
import torch
import torch.nn
import torch.nn as nn
import torch as T
import torch.nn.functional as F
import os, torch.optim, json as js
from torch import nn as nn2
from torch.utils.data import (
    DataLoader,
    Dataset,
)
from torch.nn import \\
    Linear
import torchvision
from torchvision import datasets, transforms
from torchvision.models import resnet18
import torchvision.transforms as TT
import torchaudio
import torchaudio.transforms as AT


def lazy():
    try:
        import torch.nn.functional
    except ImportError:
        raise
    return torch.nn.functional.relu


assert torch.__name__ == "mindtorch.torch", torch.__name__
assert torch.NAME == "fake mindtorch.torch"
assert T is torch
assert torch.nn.Linear is nn.Linear is nn2.Linear is Linear
assert nn.__name__ == "mindtorch.torch.nn"
assert nn.Linear.__module__ == "mindtorch.torch.nn"
assert F.__name__ == "mindtorch.torch.nn.functional"
assert F.relu(1) == ("fake relu", 1)
assert torch.nn.functional is F
assert lazy() is F.relu
assert torch.optim.SGD.__module__ == "mindtorch.torch.optim"
assert DataLoader.__module__ == Dataset.__module__ == "mindtorch.torch.utils.data"
assert torchvision.NAME == "fake mindtorch.torchvision"
assert datasets.MNIST.__module__ == "mindtorch.torchvision.datasets"
assert transforms is TT and TT.Compose.__module__ == "mindtorch.torchvision.transforms"
assert resnet18() == "fake resnet18"
assert torchaudio.NAME == "fake mindtorch.torchaudio"
assert AT.MelSpectrogram.__module__ == "mindtorch.torchaudio.transforms"
assert os.sep and js.dumps
leaked = [m for m in sys.modules if m.split(".")[0] in ("torch", "torchvision", "torchaudio")]
assert not leaked, leaked
print("REWRITTEN IMPORTS OK")
"""


def test_rewritten_torch_code_imports_fake_mindtorch(tmp_path, fake_site):
    project = tmp_path / "project"
    program = write(project / "train.py", TORCH_PROGRAM)
    # Sanity check of the sandbox: the original code cannot import torch here.
    original = run_python_isolated(program, fake_site)
    assert original.returncode != 0
    assert "No module named 'torch'" in original.stderr
    result = run_tool(TORCH_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    rewritten = run_python_isolated(program, fake_site)
    assert rewritten.returncode == 0, rewritten.stderr + "\n" + program.read_text()
    assert "REWRITTEN IMPORTS OK" in rewritten.stdout


# --------------------------------------------------------------------------- msadapter rules

MSADAPTER_CASES = {
    "alias": ("import msadapter.pytorch as torch\n", "import mindtorch.torch as torch\n"),
    "deep_alias": (
        "import msadapter.pytorch.nn.functional as F\n",
        "import mindtorch.torch.nn.functional as F\n",
    ),
    "from_deep": (
        "from msadapter.pytorch.nn import Module\n",
        "from mindtorch.torch.nn import Module\n",
    ),
    "from_torchvision": (
        "from msadapter.torchvision import transforms\n",
        "from mindtorch.torchvision import transforms\n",
    ),
    "torchvision_alias": (
        "import msadapter.torchvision.transforms as T\n",
        "import mindtorch.torchvision.transforms as T\n",
    ),
    "from_package": (
        "from msadapter import pytorch\nfrom msadapter import pytorch as P, torchvision\n",
        "from mindtorch import torch as pytorch\nfrom mindtorch import torch as P, torchvision\n",
    ),
    "parenthesized_and_indented": (
        "def f():\n    from msadapter.pytorch.nn import (\n        Linear,\n        ReLU,\n    )\n",
        "def f():\n    from mindtorch.torch.nn import (\n        Linear,\n        ReLU,\n    )\n",
    ),
    "bare_with_references": (
        "import msadapter.pytorch\nx = msadapter.pytorch.tensor(1)  # msadapter.pytorch\ny = 'msadapter.pytorch'\n",
        "import mindtorch.torch\nx = mindtorch.torch.tensor(1)  # msadapter.pytorch\ny = 'msadapter.pytorch'\n",
    ),
    "untouched": (
        "import msadapter\nimport msadapter.utils\nimport torch\nfrom msadapter_extra.pytorch import x\n"
        "s = 'import msadapter.pytorch as torch'\n# from msadapter.pytorch import nn\n",
        "import msadapter\nimport msadapter.utils\nimport torch\nfrom msadapter_extra.pytorch import x\n"
        "s = 'import msadapter.pytorch as torch'\n# from msadapter.pytorch import nn\n",
    ),
}


def test_msadapter_rewrite_rules_and_idempotence(tmp_path):
    project = tmp_path / "my project"
    for name, (source, _) in MSADAPTER_CASES.items():
        write(project / (name + ".py"), source)
    result = run_tool(MSADAPTER_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    failures = {}
    for name, (_, expected) in MSADAPTER_CASES.items():
        got = (project / (name + ".py")).read_text()
        if got != expected:
            failures[name] = got
    assert not failures
    n = len(MSADAPTER_CASES)
    assert f"{n - 1} of {n} Python file(s) changed" in result.stdout
    after_first = snapshot(project)
    second = run_tool(MSADAPTER_SCRIPT, project)
    assert second.returncode == 0, second.stderr
    assert snapshot(project) == after_first
    assert f"0 of {n} Python file(s) changed" in second.stdout


def test_msadapter_dry_run_and_mode(tmp_path):
    project = tmp_path / "project"
    target = write(project / "run.py", "import msadapter.pytorch as torch\n")
    target.chmod(0o755)
    before = snapshot(project)
    dry = run_tool(MSADAPTER_SCRIPT, "--dry-run", project)
    assert dry.returncode == 0, dry.stderr
    assert "-import msadapter.pytorch as torch\n+import mindtorch.torch as torch\n" in dry.stdout
    assert snapshot(project) == before
    result = run_tool(MSADAPTER_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert target.read_text() == "import mindtorch.torch as torch\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755


def test_msadapter_mixed_from_import_is_left_with_warning(tmp_path):
    target = write(tmp_path / "a.py", "from msadapter import pytorch, utils\n")
    result = run_tool(MSADAPTER_SCRIPT, tmp_path)
    assert result.returncode == 0
    assert target.read_text() == "from msadapter import pytorch, utils\n"
    assert "warning" in result.stderr and str(target) in result.stderr


MSADAPTER_PROGRAM = """\
import sys
import msadapter.pytorch as torch
import msadapter.pytorch.nn as nn
import msadapter.pytorch.nn.functional as F
from msadapter.pytorch.nn import Module, Linear
from msadapter.pytorch.utils.data import DataLoader
from msadapter.torchvision import transforms
from msadapter import pytorch
import msadapter.torchvision.models

assert torch.__name__ == "mindtorch.torch"
assert pytorch is torch
assert nn.Linear is Linear and issubclass(Linear, Module)
assert Linear.__module__ == "mindtorch.torch.nn"
assert F.relu(2) == ("fake relu", 2)
assert DataLoader.__module__ == "mindtorch.torch.utils.data"
assert transforms.Compose.__module__ == "mindtorch.torchvision.transforms"
assert msadapter.torchvision.models.resnet18() == "fake resnet18"
assert not [m for m in sys.modules if m.startswith("msadapter")]
print("REWRITTEN IMPORTS OK")
"""


def test_rewritten_msadapter_code_imports_fake_mindtorch(tmp_path, fake_site):
    project = tmp_path / "project"
    program = write(project / "train.py", MSADAPTER_PROGRAM)
    original = run_python_isolated(program, fake_site)
    assert original.returncode != 0
    assert "No module named 'msadapter'" in original.stderr
    result = run_tool(MSADAPTER_SCRIPT, project)
    assert result.returncode == 0, result.stderr
    assert "msadapter" not in program.read_text().replace('startswith("msadapter")', "")
    rewritten = run_python_isolated(program, fake_site)
    assert rewritten.returncode == 0, rewritten.stderr + "\n" + program.read_text()
    assert "REWRITTEN IMPORTS OK" in rewritten.stdout
