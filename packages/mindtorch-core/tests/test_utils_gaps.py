"""Gaps found against real torch in the utilities: Tensor.storage() as a typed storage, torch.hub's HTTP errors,
torch.cuda's random-state API and torch.backends.cudnn.flags, torch.testing.assert_close's messages. Where torch 2.13
differs from 1.12, the test follows 1.12 and says so."""
import copy
import functools
import http.server
import math
import pickle
import socket
import threading
import urllib.error
import zipfile

import numpy as np
import pytest

import mindtorch.torch as torch


# ------------------------------------------------------------------------------------- Tensor.storage()
def test_tensor_storage_is_typed_and_shares_memory(reftorch):
    for make in (lambda T: T.arange(6.0), lambda T: T.arange(6), lambda T: T.tensor([True, False, True])):
        mine, ref = make(torch).storage(), make(reftorch).storage()
        assert isinstance(mine, torch.storage.TypedStorage)
        assert mine.size() == len(mine) == ref.size() == len(ref)
        assert mine.tolist() == list(mine) == ref.tolist() and mine[1] == ref[1]
        assert str(mine.dtype) == str(ref.dtype)
        assert mine.element_size() == ref.element_size() and mine.nbytes() == ref.nbytes()
    t = torch.arange(6.0)
    s = t.storage()
    assert s.data_ptr() == t.data_ptr() and s.device == t.device
    assert isinstance(s, torch.FloatStorage) and s.type() == "torch.FloatStorage"
    s[0] = 9.0  # the storage is the tensor's memory
    assert t[0].item() == 9.0
    assert t.untyped_storage().nbytes() == 24  # the byte storage is still there


def test_view_storage_is_the_base_storage(reftorch):
    for T in (torch, reftorch):
        base = T.arange(6.0)
        view = base[2:]
        s = view.storage()
        assert s.size() == 6 and s.data_ptr() == base.data_ptr()  # the whole storage, from its start
        assert s.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
        s[3] = -1.0
        assert view[1].item() == -1.0
    assert torch.arange(6.0).reshape(2, 3).t().storage().tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert torch.tensor([]).storage().size() == 0


def test_storage_repr_is_112s():
    # 1.12 prints a tensor's storage as torch.storage._TypedStorage (2.x: torch.storage.TypedStorage), a storage
    # built from a legacy class with that class's name
    assert repr(torch.arange(2.0).storage()) == (
        " 0.0\n 1.0\n[torch.storage._TypedStorage(dtype=torch.float32, device=cpu) of size 2]")
    assert repr(torch.LongStorage([3])) == " 3\n[torch.LongStorage of size 1]"


def test_storage_pickles_as_a_copy(reftorch):
    # 1.12 pickles a storage through torch.save's bytes: deepcopy / pickle give an independent copy
    for T in (torch, reftorch):
        t = T.arange(3.0)
        for copied in (copy.deepcopy(t.storage()), pickle.loads(pickle.dumps(t.storage()))):
            assert copied.tolist() == [0.0, 1.0, 2.0] and copied.size() == 3
            copied[0] = 7.0
            assert t[0].item() == 0.0


def test_view_storage_saves_once_with_its_base(reftorch, tmp_path):
    base = torch.arange(6.0)
    torch.save([base, base[2:], base[2:].storage()], tmp_path / "s.pt")
    with zipfile.ZipFile(tmp_path / "s.pt") as zf:
        assert sum("/data/" in n for n in zf.namelist()) == 1  # the storage is written once
    mine = torch.load(tmp_path / "s.pt")
    ref = reftorch.load(tmp_path / "s.pt")
    assert mine[2].tolist() == ref[2].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    mine[2][3] = -1.0  # one storage: both tensors loaded over it see the write
    assert mine[0][3].item() == mine[1][1].item() == -1.0


# ------------------------------------------------------------------------------------------- torch.hub
@pytest.fixture()
def http_server(tmp_path):
    """A real HTTP server on 127.0.0.1 serving tmp_path/www (a missing file is a 404); yields the base URL."""
    www = tmp_path / "www"
    www.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(www)))
    server.timeout = 5
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_hub_http_404_propagates_httperror(reftorch, http_server, tmp_path):
    url = f"{http_server}/missing-0123abcd.pth"
    for T, cache in ((reftorch, tmp_path / "ref"), (torch, tmp_path / "mine")):
        with pytest.raises(urllib.error.HTTPError) as err:
            T.hub.load_state_dict_from_url(url, model_dir=str(cache), progress=False)
        assert err.value.code == 404
        assert list(cache.iterdir()) == []  # nothing left behind
        with pytest.raises(urllib.error.HTTPError) as err:
            T.hub.download_url_to_file(url, str(tmp_path / "x.bin"), progress=False)
        assert err.value.code == 404
    assert not (tmp_path / "x.bin").exists()


def test_hub_without_network_is_still_a_urlerror(tmp_path):
    # mindtorch's RuntimeError naming the cache path (how to work offline) is also the URLError torch raises there
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/model-0123abcd.pth"
    with pytest.raises(urllib.error.URLError) as err:
        torch.hub.load_state_dict_from_url(url, model_dir=str(tmp_path), progress=False)
    assert isinstance(err.value, RuntimeError) and url in str(err.value)
    assert isinstance(err.value.reason, ConnectionRefusedError)


# ----------------------------------------------------------------------------------- torch.cuda RNG
def test_cuda_rng_api_without_cuda_matches_torch(reftorch):
    if torch.cuda.is_available():
        pytest.skip("checks the CPU target (no CUDA)")
    assert not reftorch.cuda.is_available()
    state = torch.get_rng_state()
    for T in (torch, reftorch):
        assert T.cuda.seed() is None and T.cuda.seed_all() is None  # queued, never run: no-ops
        assert T.cuda.get_rng_state_all() == []
        assert T.cuda.set_rng_state_all([]) is None
        T.cuda.set_rng_state(T.get_rng_state())  # accepted (queued)
        for fn in (T.cuda.initial_seed, T.cuda.get_rng_state):
            with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
                fn()
    assert torch.equal(torch.get_rng_state(), state)  # the global stream was not touched
    # is_bf16_supported: 1.12 reads the current device's properties and raises without CUDA (2.13 returns False)
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.cuda.is_bf16_supported()
    assert reftorch.cuda.is_bf16_supported() is False


def test_cuda_rng_api_on_an_accelerator_is_the_global_stream():
    if not torch.cuda.is_available():
        pytest.skip("needs a GPU/Ascend target")
    state = torch.cuda.get_rng_state()
    a = torch.rand(3)
    torch.cuda.set_rng_state(state)
    assert torch.equal(torch.rand(3), a)
    assert len(torch.cuda.get_rng_state_all()) == torch.cuda.device_count()
    torch.cuda.manual_seed(5)
    assert torch.cuda.initial_seed() == 5
    assert isinstance(torch.cuda.is_bf16_supported(), bool)


def test_cudnn_flags_context_manager(reftorch):
    for cudnn in (torch.backends.cudnn, reftorch.backends.cudnn):
        before = (cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32)
        try:
            cudnn.benchmark = True
            with cudnn.flags(enabled=True, deterministic=True):  # the others take flags()'s defaults
                assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32) == (
                    True, False, True, True)
            assert (cudnn.enabled, cudnn.benchmark, cudnn.deterministic) == (before[0], True, before[2])
            with pytest.raises(ZeroDivisionError):
                with cudnn.flags(enabled=False, benchmark=False, deterministic=False, allow_tf32=False):
                    assert not cudnn.allow_tf32
                    1 / 0
            assert cudnn.allow_tf32 == before[3] and cudnn.benchmark  # restored on an exception too
        finally:
            cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32 = before


# ------------------------------------------------------------------------- torch.testing.assert_close
_MSG_CASES = [
    ("0-d", lambda T: (T.tensor(1.0), T.tensor(2.0))),
    ("python floats", lambda T: (1.0, 2.0)),
    ("python ints", lambda T: (1, 3)),
    ("0-d int", lambda T: (T.tensor(1), T.tensor(3))),
    ("expected 0", lambda T: (1.0, 0.0)),
    ("complex", lambda T: (1 + 1j, 1 + 2j)),
    ("numpy scalars", lambda T: (np.float32(1.0), np.float32(1.5))),
    ("int tensor", lambda T: (T.tensor([1, 2, 3]), T.tensor([1, 2, 5]))),
    ("uint8 tensor", lambda T: (T.tensor([1, 200], dtype=T.uint8), T.tensor([1, 3], dtype=T.uint8))),
    ("bool tensor", lambda T: (T.tensor([True, True]), T.tensor([True, False]))),
    ("float64 tensor", lambda T: (T.tensor([1.0, 2.0], dtype=T.float64), T.tensor([1.0, 2.1], dtype=T.float64))),
    ("nan", lambda T: (T.tensor([math.nan, 1.0]), T.tensor([1.0, 1.0]))),
    ("inf expected", lambda T: (T.tensor([1.0]), T.tensor([math.inf]))),
    ("nested", lambda T: ({"a": [T.tensor(1.0)]}, {"a": [T.tensor(2.0)]})),
]


def _message(T, make):
    with pytest.raises(AssertionError) as err:
        T.testing.assert_close(*make(T))
    return str(err.value)


def _as_112(msg_213):
    """torch 2.13's message as torch 1.12 wrote it: no "Expected ... but got ..." line for scalars (added after
    1.12), and the trailing newline 1.12's _make_mismatch_msg leaves (2.x strips it)."""
    lines = [line for line in msg_213.split("\n") if not (line.startswith("Expected ") and " but got " in line)]
    text = "\n".join(lines)
    head, sep, item = text.partition("\n\nThe failure occurred")
    return head + "\n" + sep + item


@pytest.mark.parametrize("name,make", _MSG_CASES, ids=[c[0] for c in _MSG_CASES])
def test_assert_close_messages_are_112s(reftorch, name, make):
    assert _message(torch, make) == _as_112(_message(reftorch, make))


def test_assert_close_scalar_message_text():
    assert _message(torch, lambda T: (T.tensor(1.0), T.tensor(2.0))) == (
        "Scalars are not close!\n\nAbsolute difference: 1.0 (up to 1e-05 allowed)\n"
        "Relative difference: 0.5 (up to 1.3e-06 allowed)\n")
    assert _message(torch, lambda T: (T.tensor([1, 2]), T.tensor([1, 5]))) == (
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 3 at index (1,)\nGreatest relative difference: 0.6000000238418579 at index "
        "(1,)\n")  # integers: an integer absolute difference, a float32 relative one (int64 true division)


def test_assert_close_float32_differences_are_float64_as_in_112(reftorch):
    # 1.12 promotes float32 to float64 before comparing, so its differences print in float64; 2.13 computes
    # them in float32 (0.04761900380253792 where 1.12 prints 0.047619004368509764)
    mine = _message(torch, lambda T: (T.tensor([1.0, 2.0]), T.tensor([1.0, 2.1])))
    assert "Greatest relative difference: 0.047619004368509764 at index (1,)" in mine
    ref = _message(reftorch, lambda T: (T.tensor([1.0, 2.0]), T.tensor([1.0, 2.1])))
    assert mine.splitlines()[:3] == ref.splitlines()[:3]
