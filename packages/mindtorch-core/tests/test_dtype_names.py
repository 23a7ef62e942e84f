"""dtypes print, format, pickle and copy as torch's (`str(torch.float32) == "torch.float32"`), while MindSpore's own
Python code, which parses its names, keeps seeing them (its checkpoint files stay readable by MindSpore alone)."""
import copy
import os
import pickle
import subprocess
import sys

import pytest

import mindtorch.torch as torch

NAMES = ["float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool",
         "complex64", "complex128"]
ALIASES = {"half": "float16", "float": "float32", "double": "float64", "short": "int16", "int": "int32",
           "long": "int64", "cfloat": "complex64", "cdouble": "complex128"}


@pytest.mark.parametrize("name", NAMES)
def test_str_repr_format_match_torch(reftorch, name):
    d, r = getattr(torch, name), getattr(reftorch, name)
    assert str(d) == str(r) == f"torch.{name}"
    assert repr(d) == repr(r)
    assert f"{d}" == f"{r}" and "{}".format(d) == "{}".format(r) and "%s" % (d,) == "%s" % (r,)
    assert str([d, d]) == str([r, r])


@pytest.mark.parametrize("alias,name", sorted(ALIASES.items()))
def test_aliases_print_their_canonical_name(reftorch, alias, name):
    assert str(getattr(torch, alias)) == str(getattr(reftorch, alias)) == f"torch.{name}"


def test_tensor_dtype_prints_and_parses_as_scripts_expect(reftorch):
    x, r = torch.ones(2, dtype=torch.float16), reftorch.ones(2, dtype=reftorch.float16)
    assert str(x.dtype) == str(r.dtype)
    # the idioms libraries use to go from a dtype to its name and back
    assert str(x.dtype).split(".")[1] == "float16"
    assert getattr(torch, str(x.dtype).replace("torch.", "")) is torch.float16
    assert torch.zeros(1, dtype=getattr(torch, str(torch.int32)[6:])).dtype is torch.int32


@pytest.mark.parametrize("name", NAMES)
def test_pickle_and_copy_keep_the_one_object(name):
    d = getattr(torch, name)
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(d, protocol=proto)) is d
    assert copy.copy(d) is d and copy.deepcopy(d) is d
    assert copy.deepcopy({"dtype": d})["dtype"] is d


def test_unpickled_dtype_works_as_dtype_argument(reftorch):
    d = pickle.loads(pickle.dumps(torch.float64))
    assert torch.arange(3, dtype=d).dtype is torch.float64
    assert str(torch.ones(2).to(d).dtype) == str(reftorch.ones(2).to(reftorch.float64).dtype)


def test_mindspore_code_keeps_mindspore_names(tmp_path):
    import mindspore as ms

    # Tensor.type() of a plain MindSpore tensor is MindSpore's own code: its name, as without mindtorch
    assert ms.Tensor([1.0]).type() == "Float32"
    assert ms.ops.scalar_cast(3.5, ms.int64) == 3  # ScalarCast parses str(dtype).lower() with numpy

    # a checkpoint written by MindSpore stores "Float32"/"Int32" and loads with MindSpore alone (no mindtorch)
    net = ms.nn.Dense(2, 3)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path, append_dict={"step": ms.Tensor(7, ms.int32)})
    assert ms.load_checkpoint(path)["weight"].dtype == torch.float32
    code = ("import mindspore as ms, sys; p = ms.load_checkpoint(sys.argv[1]); "
            "assert 'mindtorch' not in ' '.join(sys.modules), 'mindtorch imported'; "
            "print(p['weight'].dtype, p['weight'].shape, int(p['step']))")
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "GLOG_v": "3"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["Float32", "(3,", "2)", "7"]
