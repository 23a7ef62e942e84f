"""Core gaps closed together, each compared with real PyTorch: stepped-slice backward, Tensor.unfold, as_strided,
view_as_real/view_as_complex, Tensor.real/imag properties, torch.utils.checkpoint, torch.hub, torch._assert."""
import functools
import hashlib
import http.server
import os
import socket
import threading
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch
from mindtorch.torch.utils.checkpoint import checkpoint, checkpoint_sequential

S = slice
E = Ellipsis


def _pair(reftorch, arr, grad=True):
    mine = torch.tensor(arr)
    ref = reftorch.tensor(arr)
    if grad:
        mine.requires_grad_()
        ref.requires_grad_()
    return mine, ref


def _same_complex(mine, ref):
    assert_same(mine, ref)  # shape and dtype (values of a complex tensor: below)
    np.testing.assert_allclose(mine.detach().numpy(), ref.detach().numpy(), rtol=1e-6, atol=1e-6)


def _backward_both(reftorch, y, yr, seed=1):
    g = np.random.default_rng(seed).uniform(-1, 1, tuple(yr.shape)).astype(np.float32)
    (y * torch.tensor(g)).sum().backward()
    (yr * reftorch.tensor(g)).sum().backward()


# ------------------------------------------------------------------------ 1. getitem with steps, backward
STEP_PATTERNS = [
    (E, S(0, None, 2), S(0, None, 2), S(None)),  # Swin's patch merging
    (E, S(1, None, 2), S(1, None, 2), S(None)),
    (S(None), S(1, None, 2)),
    (S(None), S(None, None, 3)),
    (S(None), S(1, -1, 2), None, S(0, None, 2)),
    (0, S(None), S(None, None, 2)),
    (S(None, None, 2), S(1, None, 2)),
    (E, S(1, None, 2)),
    (S(None), S(-3, None, 2), 1),
    (S(None), S(1, 2, 5)),  # a step longer than the slice: one element
]


@pytest.mark.parametrize("index", STEP_PATTERNS, ids=[str(i) for i in range(len(STEP_PATTERNS))])
def test_stepped_getitem_forward_and_backward(reftorch, index):
    arr = np.random.default_rng(0).uniform(-1, 1, (2, 5, 4, 3)).astype(np.float32)
    x, xr = _pair(reftorch, arr)
    y, yr = x[index], xr[index]
    assert_same(y, yr)
    _backward_both(reftorch, y, yr)
    assert_same(x.grad, xr.grad)
    with torch.no_grad():  # the plain (non-recording) path gives the same values
        assert_same(x.detach()[index], yr)


def test_stepped_getitem_on_intermediate_and_twice(reftorch):
    arr = np.random.default_rng(1).uniform(-1, 1, (2, 6, 6, 2)).astype(np.float32)
    x, xr = _pair(reftorch, arr)
    h, hr = x * 2 + 1, xr * 2 + 1
    parts = [h[..., i::2, j::2, :] for i in (0, 1) for j in (0, 1)]
    parts_r = [hr[..., i::2, j::2, :] for i in (0, 1) for j in (0, 1)]
    y, yr = torch.cat(parts, -1), reftorch.cat(parts_r, -1)
    z, zr = y[:, ::2], yr[:, ::2]  # a stepped slice of a stepped slice
    assert_same(z, zr)
    _backward_both(reftorch, z, zr)
    assert_same(x.grad, xr.grad)


@pytest.mark.parametrize("step", [-1, -2, 0])
def test_non_positive_steps_raise_like_torch(reftorch, step):
    x, xr = torch.arange(10.0).reshape(2, 5), reftorch.arange(10.0).reshape(2, 5)
    for idx in (S(None, None, step), (S(None), S(None, None, step))):
        with pytest.raises(ValueError) as ref_err:
            xr[idx]
        with pytest.raises(ValueError) as err:
            x[idx]
        assert str(err.value) == str(ref_err.value)


# ------------------------------------------------------------------------------------- 2. Tensor.unfold
@pytest.mark.parametrize("shape,dim,size,step", [
    ((7,), 0, 2, 1), ((7,), 0, 3, 2), ((2, 5, 3), 1, 2, 2), ((2, 5, 3), -1, 3, 1), ((2, 5, 3), 0, 1, 1),
    ((4, 4), 0, 4, 3), ((3, 4), 1, 0, 1),
])
def test_unfold_values_and_grad(reftorch, shape, dim, size, step):
    arr = np.random.default_rng(2).uniform(-1, 1, shape).astype(np.float32)
    x, xr = _pair(reftorch, arr)
    y, yr = x.unfold(dim, size, step), xr.unfold(dim, size, step)
    assert_same(y, yr)
    if yr.numel():
        _backward_both(reftorch, y, yr)
        assert_same(x.grad, xr.grad)


def test_unfold_chained_and_0d_and_int(reftorch):
    arr = np.arange(24).reshape(4, 6)
    assert_same(torch.tensor(arr).unfold(1, 3, 2).unfold(0, 2, 1), reftorch.tensor(arr).unfold(1, 3, 2).unfold(0, 2, 1))
    assert_same(torch.tensor(5.0).unfold(0, 1, 1), reftorch.tensor(5.0).unfold(0, 1, 1))
    assert_same(torch.tensor(5.0).unfold(0, 0, 1), reftorch.tensor(5.0).unfold(0, 0, 1))


@pytest.mark.parametrize("args,exc", [((1, 5, 1), RuntimeError), ((1, 2, 0), RuntimeError), ((2, 2, 1), IndexError)])
def test_unfold_errors(reftorch, args, exc):
    with pytest.raises(exc) as ref_err:
        reftorch.zeros(3, 4).unfold(*args)
    with pytest.raises(exc) as err:
        torch.zeros(3, 4).unfold(*args)
    assert str(err.value) == str(ref_err.value)


# ------------------------------------------------------------------------------------------ as_strided
@pytest.mark.parametrize("size,stride,offset", [
    ((2, 2), (1, 2), None), ((3, 3), (4, 1), 1), ((2, 3, 2), (6, 2, 1), 0), ((4,), (3,), 0), ((2, 2), (0, 1), 2),
])
def test_as_strided_values_and_grad(reftorch, size, stride, offset):
    arr = np.random.default_rng(3).uniform(-1, 1, (3, 4)).astype(np.float32)
    x, xr = _pair(reftorch, arr)
    y, yr = torch.as_strided(x, size, stride, offset), reftorch.as_strided(xr, size, stride, offset)
    assert_same(y, yr)
    assert_same(x.as_strided(size, stride, offset), yr)
    _backward_both(reftorch, y, yr)
    assert_same(x.grad, xr.grad)


def test_as_strided_errors(reftorch):
    with pytest.raises(RuntimeError) as ref_err:
        reftorch.zeros(3, 4).as_strided((5, 5), (4, 1))
    with pytest.raises(RuntimeError) as err:
        torch.zeros(3, 4).as_strided((5, 5), (4, 1))
    assert str(err.value) == str(ref_err.value)
    with pytest.raises(NotImplementedError, match="contiguous"):
        torch.zeros(3, 4).t().as_strided((2, 2), (1, 1))
    with pytest.raises(NotImplementedError, match="base"):  # torch would read the base's storage before x[1:]
        torch.zeros(3, 4)[1:].as_strided((2, 2), (1, 1), 0)


# ------------------------------------------------------------------------- view_as_real / view_as_complex
@pytest.mark.parametrize("np_dtype", [np.complex64, np.complex128])
def test_view_as_real(reftorch, np_dtype):
    arr = (np.array([[1 + 2j, 3 - 1j], [0.5j, -2]])).astype(np_dtype)
    assert_same(torch.view_as_real(torch.tensor(arr)), reftorch.view_as_real(reftorch.tensor(arr)))


def test_view_as_real_grad(reftorch):
    arr = np.array([1 + 2j, 3 - 1j], np.complex64)
    z, zr = _pair(reftorch, arr)
    g = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    (torch.view_as_real(z) * torch.tensor(g)).sum().backward()
    (reftorch.view_as_real(zr) * reftorch.tensor(g)).sum().backward()
    assert z.grad.dtype == torch.complex64
    np.testing.assert_allclose(z.grad.numpy(), zr.grad.numpy())


@pytest.mark.parametrize("np_dtype", [np.float32, np.float64])
def test_view_as_complex_and_round_trip_grad(reftorch, np_dtype):
    arr = np.random.default_rng(4).uniform(-1, 1, (3, 2, 2)).astype(np_dtype)
    a, ar = _pair(reftorch, arr)
    c, cr = torch.view_as_complex(a), reftorch.view_as_complex(ar)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.ComplexWarning)
        _same_complex(c, cr)
    y, yr = torch.view_as_real(c), reftorch.view_as_real(cr)
    _backward_both(reftorch, y, yr)
    assert_same(a.grad, ar.grad)


@pytest.mark.parametrize("fn,arg", [
    ("view_as_real", lambda T: T.zeros(2)), ("view_as_complex", lambda T: T.zeros(2, 3)),
    ("view_as_complex", lambda T: T.zeros(2, 2, dtype=T.int64)),
])
def test_view_as_errors(reftorch, fn, arg):
    with pytest.raises(RuntimeError) as ref_err:
        getattr(reftorch, fn)(arg(reftorch))
    with pytest.raises(RuntimeError) as err:
        getattr(torch, fn)(arg(torch))
    assert str(err.value) == str(ref_err.value)


# ------------------------------------------------------------------------------ Tensor.real / .imag
def test_real_imag_are_properties(reftorch):
    arr = np.array([1 + 2j, 3 - 1j], np.complex64)
    z, zr = torch.tensor(arr), reftorch.tensor(arr)
    assert_same(z.real, zr.real)
    assert_same(z.imag, zr.imag)
    assert_same(torch.real(z), reftorch.real(zr))  # the functions stay functions
    assert_same(torch.imag(z), reftorch.imag(zr))
    x = torch.tensor([1.0, 2.0])
    assert x.real is x and reftorch.tensor([1.0]).real is not None
    with pytest.raises(RuntimeError) as ref_err:
        reftorch.tensor([1.0]).imag
    with pytest.raises(RuntimeError) as err:
        x.imag
    assert str(err.value) == str(ref_err.value)


def test_real_imag_setters(reftorch):
    arr = np.array([1 + 2j, 3 - 1j], np.complex64)
    z, zr = torch.tensor(arr), reftorch.tensor(arr)
    z.real = torch.tensor([5.0, 6.0])
    zr.real = reftorch.tensor([5.0, 6.0])
    z.imag = 0.5
    zr.imag = reftorch.full((2,), 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.ComplexWarning)
        _same_complex(z, zr)


# --------------------------------------------------------------------------------- 3. utils.checkpoint
def _mlp_pair(reftorch, dropout=0.0):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    ref = reftorch.nn.Sequential(reftorch.nn.Linear(4, 8), reftorch.nn.Tanh(), reftorch.nn.Linear(8, 3))
    with reftorch.no_grad():
        for p, pr in zip(net.parameters(), ref.parameters()):
            pr.copy_(reftorch.tensor(p.detach().numpy()))
    return net, ref


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_grads_match_torch_and_recompute(reftorch, use_reentrant):
    net, ref = _mlp_pair(reftorch)
    arr = np.random.default_rng(5).uniform(-1, 1, (2, 4)).astype(np.float32)
    x, xr = _pair(reftorch, arr)
    calls = []

    def fn(a, scale):
        calls.append(1)
        h = net(a) * scale
        return h, h.sum()

    y, s = checkpoint(fn, x, 2.0, use_reentrant=use_reentrant)
    yr, sr = reftorch.utils.checkpoint.checkpoint(lambda a, k: (ref(a) * k, (ref(a) * k).sum()), xr, 2.0,
                                                  use_reentrant=use_reentrant)
    assert_same(y, yr)
    assert_same(s, sr)
    (y.sum() + s).backward()
    (yr.sum() + sr).backward()
    assert len(calls) == 2  # ran again in backward: activations were not kept
    assert_same(x.grad, xr.grad)
    for p, pr in zip(net.parameters(), ref.parameters()):
        assert_same(p.grad, pr.grad)


def test_checkpoint_kwargs_rules(reftorch):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(ValueError) as err:
        checkpoint(lambda a, k=1: a * k, x, k=2)
    with pytest.raises(ValueError) as ref_err:
        reftorch.utils.checkpoint.checkpoint(lambda a, k=1: a * k, reftorch.ones(2, requires_grad=True), k=2,
                                             use_reentrant=True)
    assert str(err.value) == str(ref_err.value)
    y = checkpoint(lambda a, k=1: a * k, x, k=3.0, use_reentrant=False)
    yr = reftorch.utils.checkpoint.checkpoint(lambda a, k=1: a * k, reftorch.ones(2, requires_grad=True), k=3.0,
                                              use_reentrant=False)
    assert_same(y, yr)


def test_checkpoint_replays_dropout_mask():
    torch.manual_seed(3)
    x = torch.tensor(np.random.default_rng(6).uniform(0.5, 1.5, (64,)).astype(np.float32)).requires_grad_()
    y = checkpoint(lambda a: torch.nn.functional.dropout(a, 0.5, True) * a, x)
    y.sum().backward()
    # y = mask * x^2 / (1-p) => dy/dx = 2 y / x, only if backward recomputed the SAME mask
    np.testing.assert_allclose(x.grad.numpy(), 2 * y.detach().numpy() / x.detach().numpy(), rtol=1e-5, atol=1e-5)


def test_checkpoint_without_grad_is_a_plain_call(reftorch):
    net, _ = _mlp_pair(reftorch)
    x = torch.ones(2, 4)
    with torch.no_grad():
        out = checkpoint(net, x, use_reentrant=False)
    assert_same(out, net(x))
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        checkpoint(net, x, use_reentrant=True)
    with warnings.catch_warnings():  # torch warns the same way
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            reftorch.utils.checkpoint.checkpoint(lambda a: a * 2, reftorch.ones(2), use_reentrant=True)


def test_checkpoint_sequential_matches_torch(reftorch):
    torch.manual_seed(0)
    net = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(5)])
    ref = reftorch.nn.Sequential(*[reftorch.nn.Linear(4, 4) for _ in range(5)])
    with reftorch.no_grad():
        for p, pr in zip(net.parameters(), ref.parameters()):
            pr.copy_(reftorch.tensor(p.detach().numpy()))
    arr = np.random.default_rng(7).uniform(-1, 1, (3, 4)).astype(np.float32)
    x, xr = _pair(reftorch, arr)
    out = checkpoint_sequential(net, 2, x)
    out_r = reftorch.utils.checkpoint.checkpoint_sequential(ref, 2, xr, use_reentrant=True)
    assert_same(out, out_r)
    out.sum().backward()
    out_r.sum().backward()
    assert_same(x.grad, xr.grad)
    assert_same(net[0].weight.grad, ref[0].weight.grad)


# ------------------------------------------------------------------------------------------- 4. torch.hub
@pytest.fixture()
def http_dir(tmp_path):
    """A real HTTP server on 127.0.0.1 serving tmp_path/www; yields (www dir, base url)."""
    www = tmp_path / "www"
    www.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(www))

    class Quiet(handler.func):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(www)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def _saved_weights(www):
    sd = {"w": torch.arange(6.0).reshape(2, 3), "b": torch.tensor([1, 2, 3])}
    tmp = www / "tmp.pth"
    torch.save(sd, str(tmp))
    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()
    name = f"weights-{digest[:8]}.pth"
    os.replace(tmp, www / name)
    return sd, name


def test_hub_load_state_dict_from_url(reftorch, http_dir, tmp_path):
    www, base = http_dir
    sd, name = _saved_weights(www)
    cache = tmp_path / "cache"
    got = torch.hub.load_state_dict_from_url(f"{base}/{name}", model_dir=str(cache), check_hash=True,
                                             progress=False)
    ref = reftorch.hub.load_state_dict_from_url(f"{base}/{name}", model_dir=str(tmp_path / "refcache"),
                                                check_hash=True, progress=False)
    assert sorted(got) == sorted(ref)
    for k in ref:
        assert_same(got[k], ref[k])
    assert (cache / name).is_file() and [p.name for p in cache.iterdir()] == [name]  # no temp file left
    (www / name).unlink()  # second call: served from the cache, no network needed
    again = torch.hub.load_state_dict_from_url(f"{base}/{name}", model_dir=str(cache), progress=False)
    assert_same(again["w"], ref["w"])


def test_hub_hash_mismatch_leaves_nothing(reftorch, http_dir, tmp_path):
    www, base = http_dir
    _, name = _saved_weights(www)
    bad = "weights-deadbeef.pth"
    os.replace(www / name, www / bad)
    cache = tmp_path / "cache"
    with pytest.raises(RuntimeError, match="invalid hash value"):
        reftorch.hub.load_state_dict_from_url(f"{base}/{bad}", model_dir=str(tmp_path / "r"), check_hash=True,
                                              progress=False)
    with pytest.raises(RuntimeError, match="invalid hash value"):
        torch.hub.load_state_dict_from_url(f"{base}/{bad}", model_dir=str(cache), check_hash=True, progress=False)
    assert list(cache.iterdir()) == []


def test_hub_offline_error_names_url_and_cache(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/model-0123abcd.pth"
    with pytest.raises(RuntimeError) as err:
        torch.hub.load_state_dict_from_url(url, model_dir=str(tmp_path), progress=False)
    assert url in str(err.value) and str(tmp_path / "model-0123abcd.pth") in str(err.value)


def test_hub_download_url_to_file(reftorch, http_dir, tmp_path):
    www, base = http_dir
    (www / "blob.bin").write_bytes(os.urandom(50000))
    digest = hashlib.sha256((www / "blob.bin").read_bytes()).hexdigest()
    torch.hub.download_url_to_file(f"{base}/blob.bin", str(tmp_path / "a.bin"), digest[:10], progress=False)
    reftorch.hub.download_url_to_file(f"{base}/blob.bin", str(tmp_path / "b.bin"), digest[:10], progress=False)
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "b.bin").read_bytes()


def test_hub_dirs(reftorch, monkeypatch, tmp_path):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    assert torch.hub.get_dir() == reftorch.hub.get_dir() == str(tmp_path / "th" / "hub")
    monkeypatch.delenv("TORCH_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert torch.hub.get_dir() == reftorch.hub.get_dir()
    try:
        torch.hub.set_dir(str(tmp_path / "mine"))
        assert torch.hub.get_dir() == str(tmp_path / "mine")
    finally:
        torch.hub._hub_dir = None


def test_hub_load_local_and_github(reftorch, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "hubconf.py").write_text(
        "dependencies = []\n\ndef tiny(scale=1.0):\n    '''A tiny entrypoint.'''\n    return ('tiny', scale)\n")
    assert torch.hub.load(str(repo), "tiny", scale=2.0, source="local") == \
        reftorch.hub.load(str(repo), "tiny", scale=2.0, source="local")
    assert torch.hub.list(str(repo), source="local") == ["tiny"]  # torch lists GitHub repos only
    assert torch.hub.help(str(repo), "tiny", source="local") == "A tiny entrypoint."
    with pytest.raises(NotImplementedError, match="source='local'"):
        torch.hub.load("pytorch/vision", "resnet18")


# ------------------------------------------------------------------------------------------ 5. _assert
def test_assert(reftorch):
    torch._assert(True, "fine")
    torch._assert(torch.tensor(True), "fine")
    for T in (reftorch, torch):
        with pytest.raises(AssertionError, match="boom"):
            T._assert(T.tensor(False), "boom")
        with pytest.raises(AssertionError, match="boom"):
            T._assert(False, "boom")


@pytest.mark.parametrize("name", ["expit", "logit", "erf", "erfc", "erfinv", "expm1", "exp2", "log1p", "sinc",
                                  "i0", "gammaln", "digamma", "psi", "entr", "ndtr", "ndtri", "round"])
def test_special_unary_matches_torch(reftorch, name):
    x = np.array([0.0, 0.05, 0.3, 0.5, 0.9, 2.5, -0.4], np.float32)
    if name in ("logit", "ndtri", "erfinv"):
        x = np.clip(np.abs(x), 0.01, 0.95).astype(np.float32)
    if name in ("gammaln", "digamma", "psi"):
        x = np.abs(x) + 0.5
    mine = getattr(torch.special, name)(torch.tensor(x))
    ref = getattr(reftorch.special, name)(reftorch.tensor(x))
    assert_same(mine, ref, rtol=2e-4, atol=2e-5)


def test_special_multi_arg_matches_torch(reftorch):
    x, y = np.array([0.0, 1.5, 2.0, 0.0], np.float32), np.array([0.5, 0.25, -0.5, np.nan], np.float32)
    for name in ("xlogy", "xlog1py"):
        assert_same(getattr(torch.special, name)(torch.tensor(x), torch.tensor(y)),
                    getattr(reftorch.special, name)(reftorch.tensor(x), reftorch.tensor(y)), rtol=1e-5)
    m = np.random.RandomState(0).rand(3, 4).astype(np.float32)
    assert_same(torch.special.logsumexp(torch.tensor(m), 1), reftorch.special.logsumexp(reftorch.tensor(m), 1))
    assert_same(torch.special.softmax(torch.tensor(m), 1), reftorch.special.softmax(reftorch.tensor(m), 1))
    assert_same(torch.special.polygamma(1, torch.tensor(m + 0.5)),
                reftorch.special.polygamma(1, reftorch.tensor(m + 0.5)), rtol=1e-4)
    assert_same(torch.special.multigammaln(torch.tensor(m + 2), 2),
                reftorch.special.multigammaln(reftorch.tensor(m + 2), 2), rtol=1e-4)


def test_out_resize_checks_the_cast_and_warns(reftorch):
    """A wrongly shaped `out` is resized (with torch's warning when it held elements), never into a dtype the
    result cannot be cast to."""
    import warnings

    for T in (torch, reftorch):
        o = T.zeros(2)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            T.exp(T.ones(3), out=o)
        assert tuple(o.shape) == (3,) and any("was resized" in str(x.message) for x in w)
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            T.sqrt(T.ones(3) * 2, out=T.zeros(0, dtype=T.int64))


def test_bfloat16_retry_in_float32_keeps_the_graph(reftorch):
    """An op without a bfloat16 CPU kernel runs once more in float32; MindSpore turns the tape's recording off when
    the first attempt raises, so the retry re-arms it (a bfloat16 scatter_add lost its gradient)."""
    out = []
    for T in (torch, reftorch):
        x = T.tensor(np.arange(8.0).reshape(2, 4)).to(T.bfloat16).requires_grad_()
        y = T.zeros(3, 4, dtype=T.bfloat16).scatter_add(0, T.tensor([[0, 1, 2, 0], [2, 2, 0, 1]]), x * 1)
        assert y.requires_grad and y.dtype == T.bfloat16
        (y.float() * T.arange(12.0).reshape(3, 4)).sum().backward()
        out.append((y, x.grad))
    for mine, ref in zip(*out):
        assert_same(mine, ref)
