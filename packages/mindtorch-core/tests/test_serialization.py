"""torch.save / torch.load: files cross between mindtorch and real PyTorch 2.13 in both directions."""
import collections
import ctypes
import io
import os
import pathlib
import pickle
import signal
import subprocess
import sys
import textwrap
import time
import zipfile

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
          "complex64"]


def _ref_tensors(reftorch):
    """One tensor per dtype (plus 0-d and empty ones), made by real torch."""
    g = reftorch.Generator().manual_seed(0)
    out = {}
    for name in DTYPES:
        d = getattr(reftorch, name)
        if name == "bool":
            t = reftorch.rand(3, 4, generator=g) > 0.5
        elif d.is_floating_point or d.is_complex:
            t = reftorch.randn(3, 4, generator=g, dtype=d)
        else:
            t = reftorch.randint(0, 100, (3, 4), generator=g, dtype=d)
        out[name] = t
        out[name + "_0d"] = t[1, 2].clone()
        out[name + "_empty"] = t[:0].clone()
    return out


def _storage_ptr(t):
    return ms.Tensor.untyped_storage(t).data_ptr()


def test_torch_to_mindtorch_every_dtype(reftorch):
    ref = _ref_tensors(reftorch)
    buf = io.BytesIO()
    reftorch.save(ref, buf)
    buf.seek(0)
    mine = torch.load(buf)
    assert list(mine) == list(ref)
    for k in ref:
        assert isinstance(mine[k], torch.Tensor), k
        assert_same(mine[k], ref[k], rtol=0, atol=0)


@pytest.mark.parametrize("weights_only", [True, False])
def test_mindtorch_to_torch_every_dtype(reftorch, weights_only):
    ref = _ref_tensors(reftorch)
    buf = io.BytesIO()
    reftorch.save(ref, buf)
    buf.seek(0)
    mine = torch.load(buf)
    out = io.BytesIO()
    torch.save(mine, out)
    out.seek(0)
    back = reftorch.load(out, weights_only=weights_only)
    for k in ref:
        assert back[k].dtype == ref[k].dtype and back[k].shape == ref[k].shape, k
        assert reftorch.equal(back[k], ref[k]), k


def test_views_keep_offsets_and_share_storage(reftorch):
    base = reftorch.arange(60, dtype=reftorch.float32).reshape(5, 12)
    views = {"base": base, "rows": base[1:3], "t": base.t(), "step": base[:, 1::3], "sel": base[2, 5],
             "narrow": base.narrow(1, 4, 5), "cube": base.view(5, 3, 4).permute(2, 0, 1)[1:, :, 1:]}
    buf = io.BytesIO()
    reftorch.save(views, buf)
    buf.seek(0)
    mine = torch.load(buf)
    for k, v in views.items():
        assert_same(mine[k], v, rtol=0, atol=0)
        assert _storage_ptr(mine[k]) == _storage_ptr(mine["base"]), f"{k} lost its shared storage"
        assert ms.Tensor.storage_offset(mine[k]) == v.storage_offset(), k
        assert tuple(ms.Tensor.stride(mine[k])) == v.stride(), k
    # A write through the base shows in every view: same memory, not equal copies.
    ctypes.c_float.from_address(_storage_ptr(mine["base"]) + 4 * 29).value = -1.0  # base[2, 5]
    assert float(ms.Tensor.asnumpy(mine["sel"])) == -1.0
    assert ms.Tensor.asnumpy(mine["t"])[5, 2] == -1.0

    # Back to torch: still one storage, same offsets/strides.
    out = io.BytesIO()
    torch.save(mine, out)
    out.seek(0)
    back = reftorch.load(out, weights_only=True)
    base_ptr = back["base"].untyped_storage().data_ptr()
    for k, v in views.items():
        assert back[k].untyped_storage().data_ptr() == base_ptr, k
        assert back[k].storage_offset() == v.storage_offset() and back[k].stride() == v.stride(), k
    assert back["sel"].item() == -1.0
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as zf:
        assert sum(n.startswith("archive/data/") for n in zf.namelist()) == 1  # the storage is written once


def test_device_memory_fallback_writes_host_copies(reftorch, monkeypatch):
    # On GPU/Ascend a storage is device memory: each tensor is then saved from a host copy (asnumpy).
    from mindtorch.torch import serialization

    ref = _ref_tensors(reftorch)
    ref["view"] = ref["float32"].t()[1:]
    buf = io.BytesIO()
    reftorch.save(ref, buf)
    buf.seek(0)
    mine = torch.load(buf)
    monkeypatch.setattr(serialization, "_host_memory", lambda: False)
    out = io.BytesIO()
    torch.save(mine, out)
    out.seek(0)
    back = reftorch.load(out, weights_only=True)
    for k in ref:
        assert back[k].dtype == ref[k].dtype and reftorch.equal(back[k], ref[k]), k


def _bn_model(reftorch):
    reftorch.manual_seed(0)
    m = reftorch.nn.Sequential(reftorch.nn.Conv2d(3, 4, 3), reftorch.nn.BatchNorm2d(4), reftorch.nn.ReLU(),
                               reftorch.nn.Flatten(), reftorch.nn.Linear(4 * 6 * 6, 5))
    m.train()
    m(reftorch.randn(2, 3, 8, 8))  # updates BatchNorm running stats and num_batches_tracked
    return m


def test_real_model_state_dict_round_trip(reftorch, tmp_path):
    model = _bn_model(reftorch)
    sd = model.state_dict()
    reftorch.save(sd, tmp_path / "model.pth")
    mine = torch.load(tmp_path / "model.pth")
    assert isinstance(mine, collections.OrderedDict) and list(mine) == list(sd)
    assert mine._metadata == sd._metadata
    for k in sd:
        assert_same(mine[k], sd[k], rtol=0, atol=0)
    assert torch.load(str(tmp_path / "model.pth"))["1.num_batches_tracked"].dtype == torch.int64

    torch.save(mine, tmp_path / "ours.pth")
    loaded = reftorch.load(tmp_path / "ours.pth", weights_only=True)
    assert loaded._metadata == sd._metadata
    fresh = _bn_model(reftorch)
    fresh.load_state_dict(loaded, strict=True)
    fresh.eval()
    model.eval()
    x = reftorch.randn(2, 3, 8, 8)
    assert reftorch.equal(fresh(x), model(x))


def test_optimizer_state_dict_round_trip(reftorch, tmp_path):
    model = _bn_model(reftorch)
    opt = reftorch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.8, 0.9), foreach=False)
    model(reftorch.randn(2, 3, 8, 8)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    reftorch.save(sd, tmp_path / "opt.pth")
    mine = torch.load(tmp_path / "opt.pth")
    assert mine["param_groups"] == sd["param_groups"]
    assert set(mine["state"]) == set(sd["state"])
    for pid, st in sd["state"].items():
        for name, v in st.items():
            assert_same(mine["state"][pid][name], v, rtol=0, atol=0)
    torch.save(mine, tmp_path / "ours.pth")
    opt2 = reftorch.optim.Adam(_bn_model(reftorch).parameters(), lr=1.0)
    opt2.load_state_dict(reftorch.load(tmp_path / "ours.pth", weights_only=True))
    assert opt2.state_dict()["param_groups"] == sd["param_groups"]


def test_python_values_and_torch_types(reftorch):
    ref = {"size": reftorch.Size([2, 3]), "dtype": reftorch.float16, "dtypes": [reftorch.int64, reftorch.bool],
           "dev": reftorch.device("cpu"), "dev1": reftorch.device("cuda", 1), "nested": {"t": (1, 2.5, "s", None)},
           "set": {1, 2}, "c": 1 + 2j, "b": b"\x00\xff", "big": 2 ** 70}
    buf = io.BytesIO()
    reftorch.save(ref, buf)
    buf.seek(0)
    mine = torch.load(buf)
    assert mine["size"] == (2, 3) and isinstance(mine["size"], torch.Size)
    assert mine["dtype"] is torch.float16 and mine["dtypes"] == [torch.int64, torch.bool]
    assert mine["dev"] == torch.device("cpu") and mine["dev1"] == torch.device("cuda", 1)
    for k in ("nested", "set", "c", "b", "big"):
        assert mine[k] == ref[k], k
    out = io.BytesIO()
    torch.save(mine, out)
    out.seek(0)
    assert reftorch.load(out, weights_only=True) == ref


def test_weights_only_refuses_what_torch_refuses(reftorch):
    buf = io.BytesIO()
    reftorch.save({"fs": frozenset({"a"}), "sl": slice(1, 2)}, buf)
    for loader in (reftorch.load, torch.load):
        buf.seek(0)
        with pytest.raises(pickle.UnpicklingError, match="Unsupported global"):
            loader(buf, weights_only=True)
    buf.seek(0)
    assert torch.load(buf, weights_only=False) == {"fs": frozenset({"a"}), "sl": slice(1, 2)}


def test_parameter_round_trip(reftorch):
    ref = {"p": reftorch.nn.Parameter(reftorch.randn(3)), "frozen": reftorch.nn.Parameter(reftorch.ones(2),
                                                                                           requires_grad=False)}
    buf = io.BytesIO()
    reftorch.save(ref, buf)
    buf.seek(0)
    mine = torch.load(buf)
    assert isinstance(mine["p"], torch.nn.Parameter) and mine["p"].requires_grad
    assert not mine["frozen"].requires_grad
    assert_same(mine["p"].detach(), ref["p"].detach(), rtol=0, atol=0)
    out = io.BytesIO()
    torch.save(mine, out)
    out.seek(0)
    back = reftorch.load(out, weights_only=True)
    assert isinstance(back["p"], reftorch.nn.Parameter) and back["p"].requires_grad
    assert not back["frozen"].requires_grad
    assert reftorch.equal(back["p"], ref["p"])


def test_file_kinds(reftorch, tmp_path):
    obj = {"w": reftorch.arange(6.0).reshape(2, 3)}
    reftorch.save(obj, tmp_path / "a.pt")
    expected = obj["w"]
    with open(tmp_path / "a.pt", "rb") as fh:
        assert_same(torch.load(fh)["w"], expected)
    assert_same(torch.load(str(tmp_path / "a.pt"))["w"], expected)
    assert_same(torch.load(tmp_path / "a.pt", map_location="cpu")["w"], expected)
    assert_same(torch.load(tmp_path / "a.pt", map_location=lambda s, loc: s)["w"], expected)
    assert_same(torch.load(tmp_path / "a.pt", mmap=True)["w"], expected)
    mine = torch.load(tmp_path / "a.pt")
    with open(tmp_path / "b.pt", "wb") as fh:
        torch.save(mine, fh)
    assert reftorch.equal(reftorch.load(tmp_path / "b.pt", mmap=True)["w"], expected)  # 64-byte aligned records
    torch.save(mine, pathlib.Path(tmp_path / "c.pt"))
    assert reftorch.equal(reftorch.load(tmp_path / "c.pt")["w"], expected)
    assert sorted(os.listdir(tmp_path)) == ["a.pt", "b.pt", "c.pt"]  # no temp files left behind


def test_legacy_format_fixture(reftorch):
    path = FIXTURES / "legacy_format.pth"
    ref = reftorch.load(path, weights_only=False)
    mine = torch.load(path)
    assert mine["epoch"] == ref["epoch"] and mine["name"] == ref["name"] and mine["lr"] == ref["lr"]
    assert list(mine["state_dict"]) == list(ref["state_dict"])
    for k, v in ref["state_dict"].items():
        assert_same(mine["state_dict"][k], v, rtol=0, atol=0)
    sd = mine["state_dict"]
    assert _storage_ptr(sd["linear.weight_rows"]) == _storage_ptr(sd["linear.weight"])


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


class _EvilSubprocess:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (subprocess.call, (["touch", str(self.marker)],))


@pytest.mark.parametrize("evil_cls", [_Evil, _EvilSubprocess])
@pytest.mark.parametrize("fmt", ["zip", "plain_pickle"])
def test_malicious_pickle_is_refused(reftorch, tmp_path, evil_cls, fmt):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pth"
    payload = {"w": reftorch.ones(2), "x": evil_cls(marker)}
    if fmt == "zip":
        reftorch.save(payload, path)
    else:
        path.write_bytes(pickle.dumps(evil_cls(marker), protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as err:
        torch.load(path)
    assert "Unsupported global: GLOBAL" in str(err.value) and "weights_only" in str(err.value)
    assert not marker.exists()
    if fmt == "zip":  # the explicit opt-out really runs the file's code (proves the payload is live)
        torch.load(path, weights_only=False)
        assert marker.exists()


def test_sigkill_during_save_keeps_old_file(reftorch, tmp_path):
    target = tmp_path / "ckpt.pth"
    torch.save({"old": torch.load(io.BytesIO(_saved(reftorch, {"v": reftorch.arange(5)})))["v"]}, target)
    old_bytes = target.read_bytes()
    script = textwrap.dedent(f"""
        import numpy as np, mindtorch.torch as torch
        from mindtorch.torch._tensor import from_numpy_array
        sd = {{f"w{{i}}": from_numpy_array(np.full(1 << 16, i, np.float32)) for i in range(512)}}  # 128 MB
        print("ready", flush=True)
        while True:
            torch.save(sd, {str(target)!r})
    """)
    env = dict(os.environ, GLOG_v="3")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline().strip() == b"ready"
        deadline = time.monotonic() + 60
        killed = False
        while time.monotonic() < deadline and not killed:
            for name in os.listdir(tmp_path):
                if name.endswith(".tmp") and os.path.getsize(tmp_path / name) > (8 << 20):
                    os.kill(proc.pid, signal.SIGKILL)
                    killed = True
                    break
            time.sleep(0.001)
        assert killed, "the save never started"
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert target.read_bytes() == old_bytes
    assert_same(torch.load(target)["old"], reftorch.arange(5))


def _saved(reftorch, obj):
    buf = io.BytesIO()
    reftorch.save(obj, buf)
    return buf.getvalue()


def test_errors_match_torch(reftorch, tmp_path):
    with pytest.raises(FileNotFoundError):
        torch.load(tmp_path / "missing.pth")
    with pytest.raises(FileNotFoundError):
        reftorch.load(tmp_path / "missing.pth")
    (tmp_path / "junk.pth").write_bytes(b"\x80\x02K\x05.")  # a pickle of 5: not a checkpoint
    with pytest.raises(RuntimeError, match="magic number"):
        torch.load(tmp_path / "junk.pth")
    with pytest.raises(RuntimeError, match="magic number"):
        reftorch.load(tmp_path / "junk.pth")


def test_local_classes_are_refused_not_pickled_by_value(reftorch, tmp_path):
    # MindSpore imports dill, which rewrites the pure-Python pickler's dispatch table: through it a class defined in
    # a function was pickled by value (or recursed until RecursionError). torch refuses such objects; so do we.
    def make(t):
        class Local(t.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = t.nn.Linear(2, 2)
        return Local()

    with pytest.raises((pickle.PicklingError, AttributeError)):
        torch.save(make(torch), tmp_path / "ours.pt")
    with pytest.raises((pickle.PicklingError, AttributeError)):
        reftorch.save(make(reftorch), tmp_path / "ref.pt")
    # module-level classes and functions, and the builtin containers, still pickle by reference
    obj = {"cls": torch.nn.Linear, "fn": len, "items": [1, 2.5, "s", None, True, b"b", (1,), {3}, frozenset([4])]}
    torch.save(obj, tmp_path / "ok.pt")
    back = torch.load(tmp_path / "ok.pt", weights_only=False)
    assert back["cls"] is torch.nn.Linear and back["fn"] is len and back["items"] == obj["items"]


WHOLE_MODULES = {
    "linear": (lambda nn: nn.Linear(4, 3), (2, 4)),
    "conv_bn": (lambda nn: nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2)),
                (2, 3, 6, 6)),
    "lstm": (lambda nn: nn.LSTM(4, 5, num_layers=2, batch_first=True), (2, 3, 4)),
    "transformer_layer": (lambda nn: nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True), (2, 3, 4)),
    "layer_norm_list": (lambda nn: nn.ModuleList([nn.LayerNorm(4), nn.Tanh()]), None),
}


@pytest.mark.parametrize("name", sorted(WHOLE_MODULES))
def test_whole_module_pickled_by_torch_loads(reftorch, name):
    """`torch.save(model)` by PyTorch (the module object, not its state_dict): the module comes back as
    mindtorch's class with torch's attributes, registries rebuilt, same outputs in eval mode."""
    make, shape = WHOLE_MODULES[name]
    reftorch.manual_seed(0)
    ref = make(reftorch.nn).eval()
    mine = torch.load(io.BytesIO(_saved(reftorch, ref)), weights_only=False)
    assert type(mine).__name__ == type(ref).__name__ and isinstance(mine, torch.nn.Module)
    assert not mine.training
    assert sorted(mine.state_dict()) == sorted(ref.state_dict())
    for k, v in ref.state_dict().items():
        assert_same(mine.state_dict()[k], v)
    if shape is not None:
        x = np.random.default_rng(0).random(shape, dtype=np.float32)
        out, want = mine(torch.tensor(x)), ref(reftorch.tensor(x))
        out, want = (out[0], want[0]) if isinstance(want, tuple) else (out, want)
        assert_same(out, want, atol=1e-5)


def test_user_model_pickled_by_torch_loads_and_trains(reftorch, tmp_path):
    """The user's own Module class (importable under the same name, `import torch` meaning mindtorch via the
    import hook) saved whole by a PyTorch process, loaded and trained by a mindtorch process."""
    (tmp_path / "netdef.py").write_text(textwrap.dedent("""
        import torch
        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
                self.bn = torch.nn.BatchNorm2d(4)
                self.fc = torch.nn.Linear(4 * 8 * 8, 5)
                self.register_buffer("scale", torch.tensor(2.0))
                self.register_buffer("tmp", torch.zeros(1), persistent=False)
                self.extra = 7
            def forward(self, x):
                return self.fc(torch.relu(self.bn(self.conv(x))).flatten(1)) * self.scale
    """))
    save = textwrap.dedent("""
        import numpy as np, torch, netdef
        torch.manual_seed(0); m = netdef.Net().eval(); torch.save(m, "net.pt")
        x = np.random.default_rng(0).random((2, 3, 8, 8), dtype=np.float32); np.save("x.npy", x)
        np.save("y.npy", m(torch.tensor(x)).detach().numpy())
    """)
    load = textwrap.dedent("""
        from mindtorch.tools import mstorch_enable  # noqa: F401
        import numpy as np, torch, netdef
        m = torch.load("net.pt", weights_only=False)
        assert type(m) is netdef.Net and m.extra == 7 and not m.training
        assert sorted(m.state_dict()) == ["bn.bias", "bn.num_batches_tracked", "bn.running_mean", "bn.running_var",
                                          "bn.weight", "conv.bias", "conv.weight", "fc.bias", "fc.weight", "scale"]
        x = torch.tensor(np.load("x.npy"))
        np.testing.assert_allclose(m(x).detach().numpy(), np.load("y.npy"), atol=1e-5)
        m.train()
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        before = m.fc.weight.detach().clone()
        m(x).sum().backward()
        opt.step()
        assert not torch.equal(before, m.fc.weight)
        print("ok")
    """)
    env = dict(os.environ, GLOG_v="3", PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-c", save], cwd=tmp_path, env=env, check=True, timeout=120)
    r = subprocess.run([sys.executable, "-c", load], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


# ---------------------------------------------------------------- storages, pickle_module, map_location, save paths
def test_storage_save_load_round_trip(reftorch):
    # torch can save a storage on its own and with tensors over it; loading gives a typed storage back
    t = torch.arange(6.0)
    buf = io.BytesIO()
    torch.save({"t": t, "s": t.storage()}, buf)
    buf.seek(0)
    mine = torch.load(buf)
    assert isinstance(mine["s"], torch.FloatStorage) and mine["s"].size() == 6
    assert mine["s"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    mine["s"][1] = 100.0  # one storage in the file: the tensor loaded over it sees the write, as in torch
    assert mine["t"].tolist() == [0.0, 100.0, 2.0, 3.0, 4.0, 5.0]
    buf.seek(0)
    ref = reftorch.load(buf)
    assert ref["s"].tolist() == ref["t"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        assert sum(n.startswith("archive/data/") for n in zf.namelist()) == 1  # written once
    buf = io.BytesIO()
    reftorch.save(reftorch.tensor([1, 2, 3]).storage(), buf)  # a storage saved by torch
    buf.seek(0)
    s = torch.load(buf)
    assert isinstance(s, torch.LongStorage) and s.tolist() == [1, 2, 3]


class _CountingPickleModule:
    """A pickle-like module: Pickler/Unpickler subclass pickle's (the C ones or the pure-Python ones, `base`),
    dump/load wrap pickle's; every call is counted."""

    def __init__(self, pickler_base, unpickler_base):
        self.calls = collections.Counter()
        calls = self.calls

        class Pickler(pickler_base):
            def __init__(self, *args, **kwargs):
                calls["Pickler"] += 1
                super().__init__(*args, **kwargs)

        class Unpickler(unpickler_base):
            def __init__(self, *args, **kwargs):
                calls["Unpickler"] += 1
                super().__init__(*args, **kwargs)

        self.Pickler, self.Unpickler = Pickler, Unpickler

    def dump(self, obj, f, protocol=None):
        self.calls["dump"] += 1
        pickle.dump(obj, f, protocol=protocol)

    def load(self, f, **kwargs):
        self.calls["load"] += 1
        return pickle.load(f, **kwargs)


@pytest.mark.parametrize("kind", ["c", "python"])
@pytest.mark.parametrize("protocol", [2, 4])
@pytest.mark.parametrize("zip_format", [True, False])
def test_custom_pickle_module(reftorch, kind, protocol, zip_format):
    bases = (pickle.Pickler, pickle.Unpickler) if kind == "c" else (pickle._Pickler, pickle._Unpickler)
    mod = _CountingPickleModule(*bases)
    w = torch.arange(6.0).reshape(2, 3)
    p = torch.nn.Parameter(torch.ones(2))
    obj = {"w": w, "again": w, "row": w[1], "p": p, "dtype": torch.float16, "size": torch.Size([2, 3]),
           "dev": torch.device("cpu"), "store": w.storage(), "py": [1, "x", b"y" * 70000]}
    buf = io.BytesIO()
    torch.save(obj, buf, pickle_module=mod, pickle_protocol=protocol, _use_new_zipfile_serialization=zip_format)
    assert mod.calls["Pickler"] == 1 and mod.calls["dump"] == (0 if zip_format else 4)  # legacy: 3 headers, keys
    buf.seek(0)
    mine = torch.load(buf, pickle_module=mod)  # an explicit pickle module means weights_only=False (torch 2.x)
    assert mod.calls["Unpickler"] >= 1 and mod.calls["load"] == (0 if zip_format else 4)
    assert mine["w"] is mine["again"]  # one tensor pickled twice stays one object, as in torch
    assert mine["row"].tolist() == [3.0, 4.0, 5.0] and mine["store"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert isinstance(mine["p"], torch.nn.Parameter) and mine["dtype"] == torch.float16
    assert mine["size"] == torch.Size([2, 3]) and mine["py"] == [1, "x", b"y" * 70000]
    mine["w"][1, 0] = -1.0
    assert mine["row"][0].item() == -1.0  # views still share the storage
    buf.seek(0)
    ref = reftorch.load(buf, weights_only=False)  # the file is torch's format
    assert ref["w"] is ref["again"] and ref["dtype"] == reftorch.float16 and ref["size"] == reftorch.Size([2, 3])
    assert ref["row"].tolist() == [3.0, 4.0, 5.0] and isinstance(ref["p"], reftorch.nn.Parameter)
    buf.seek(0)
    with pytest.raises(RuntimeError, match="explicit pickle_module"):  # torch 2.x's refusal
        torch.load(buf, pickle_module=mod, weights_only=True)


def test_map_location_callable_and_unknown_location(reftorch):
    buf = io.BytesIO()
    reftorch.save({"a": reftorch.arange(4.0), "b": reftorch.arange(3)}, buf)
    seen, ref_seen = [], []

    def record(into):
        def fn(storage, location):
            into.append((storage.size(), location))  # the untyped storage: its size counts bytes

        return fn

    buf.seek(0)
    mine = torch.load(buf, map_location=record(seen))
    buf.seek(0)
    reftorch.load(buf, map_location=record(ref_seen))
    assert seen == ref_seen == [(16, "cpu"), (24, "cpu")]  # once per storage, None -> the saved location
    assert mine["a"].tolist() == [0.0, 1.0, 2.0, 3.0]

    def replace(storage, location):  # what the callable returns is used
        return torch.ByteStorage(list((np.arange(4, dtype=np.float32) * 2).tobytes()))

    buf.seek(0)
    got = torch.load(buf, map_location=lambda s, loc: replace(s, loc) if s.size() == 16 else s.cuda())
    assert got["a"].tolist() == [0.0, 2.0, 4.0, 6.0] and got["b"].tolist() == [0, 1, 2]
    # an unknown location raises 1.12's error (1.12 names the untyped storage it restores: torch.storage.
    # _UntypedStorage; 2.x's class is torch.storage.UntypedStorage)
    for ml in ("foo", {"cpu": "foo"}):
        buf.seek(0)
        with pytest.raises(RuntimeError, match=r"don't know how to restore data location of torch\.storage\."
                                               r"_UntypedStorage \(tagged with foo\)"):
            torch.load(buf, map_location=ml)
        buf.seek(0)
        with pytest.raises(RuntimeError, match=r"don't know how to restore data location of .* \(tagged with foo\)"):
            reftorch.load(buf, map_location=ml)
    for ml in ("cuda", "cuda:0", torch.device("cuda", 0), {"cpu": "cuda:1"}):  # accepted by design: CUDA names load
        # onto the device MindSpore runs on (torch without CUDA raises)
        buf.seek(0)
        assert torch.load(buf, map_location=ml)["b"].tolist() == [0, 1, 2]


def test_save_to_missing_directory_names_the_path(reftorch, tmp_path):
    # 1.12 opened the path itself: FileNotFoundError naming it (2.x says "Parent directory ... does not exist")
    target = tmp_path / "nope" / "x.pt"
    with pytest.raises(FileNotFoundError) as err:
        torch.save(torch.ones(2), target)
    assert err.value.filename == str(target) and str(target) in str(err.value) and ".tmp" not in str(err.value)
    with pytest.raises(IsADirectoryError) as err:
        torch.save(torch.ones(2), tmp_path)
    assert err.value.filename == str(tmp_path)
    assert os.listdir(tmp_path) == []  # no temp file left behind
