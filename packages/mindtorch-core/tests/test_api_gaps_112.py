"""torch 1.12 APIs that were missing: the torch-level ATen forms (torch.batch_norm, torch.embedding_bag, the
native_* tuple ops, the RNN cells...), the deprecated linear algebra of 1.12 (torch.solve/symeig/eig/lstsq/
matrix_rank), Tensor methods (resize_, as_subclass, storage_type...), the build flags and warn/autocast setters,
torch.functional, torch.overrides, torch.utils.dlpack and the typed storage classes.

Values, dtypes and shapes are compared with real PyTorch (2.x here); where 1.12 differs from it (functions 2.x
removed), the 1.12 behaviour is checked against the 2.x function that replaced it and the difference is noted.
"""
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as mt

torch = pytest.importorskip("torch")
F = mt.nn.functional


def _r(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def both(arr):
    return mt.tensor(arr), torch.tensor(arr)


# ------------------------------------------------------------------------------------------ aten-style nn
def test_batch_norm_and_instance_norm_torch_level():
    x = _r(4, 3, 5)
    w, b, rm, rv = _r(3, seed=1), _r(3, seed=2), _r(3, seed=3), _r(3, seed=4, lo=0.5, hi=1.5)
    for training in (False, True):
        m_rm, m_rv = mt.tensor(rm), mt.tensor(rv)
        t_rm, t_rv = torch.tensor(rm), torch.tensor(rv)
        mine = mt.batch_norm(mt.tensor(x), mt.tensor(w), mt.tensor(b), m_rm, m_rv, training, 0.1, 1e-5, False)
        ref = torch.batch_norm(torch.tensor(x), torch.tensor(w), torch.tensor(b), t_rm, t_rv, training, 0.1, 1e-5,
                               False)
        assert_same(mine, ref, rtol=1e-5, atol=1e-5)
        assert_same(m_rv, t_rv, rtol=1e-5, atol=1e-6)  # the running buffers are updated as torch
    mine = mt.instance_norm(mt.tensor(x), mt.tensor(w), None, None, None, True, 0.1, 1e-5, False)
    ref = torch.instance_norm(torch.tensor(x), torch.tensor(w), None, None, None, True, 0.1, 1e-5, False)
    assert_same(mine, ref, rtol=1e-5, atol=1e-5)


def test_embedding_torch_level_weight_first():
    w = _r(5, 3)
    idx = np.array([[0, 4], [2, 2]])
    assert_same(mt.embedding(mt.tensor(w), mt.tensor(idx)), torch.embedding(torch.tensor(w), torch.tensor(idx)))
    assert_same(mt.embedding(mt.tensor(w), mt.tensor(idx), 2), torch.embedding(torch.tensor(w), torch.tensor(idx), 2))


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_embedding_bag_torch_level_four_outputs(mode):
    w = _r(6, 3)
    idx, off = np.array([0, 2, 4, 1, 3, 3, 5]), np.array([0, 2, 5])
    mine = mt.embedding_bag(mt.tensor(w), mt.tensor(idx), mt.tensor(off), False, mode)
    ref = torch.embedding_bag(torch.tensor(w), torch.tensor(idx), torch.tensor(off), False, mode)
    assert len(mine) == 4
    for a, b in zip(mine, ref):  # output, offset2bag, bag_size, max_indices as torch's CPU kernel
        assert_same(a, b, rtol=1e-6, atol=1e-6)


def test_kl_div_torch_level_integer_reduction():
    x, t = _r(2, 3), _r(2, 3, seed=1, lo=0.1, hi=1.0)
    for red in (0, 1, 2):
        assert_same(mt.kl_div(mt.tensor(x), mt.tensor(t), red), torch.kl_div(torch.tensor(x), torch.tensor(t), red),
                    rtol=1e-5, atol=1e-6)
    # torch's Python parser reads the schema default `reduction=Mean` as 0: no reduction without the argument
    assert_same(mt.kl_div(mt.tensor(x), mt.tensor(t)), torch.kl_div(torch.tensor(x), torch.tensor(t)),
                rtol=1e-5, atol=1e-6)
    assert_same(mt.kl_div(mt.tensor(x), mt.tensor(t), 1, log_target=True),
                torch.kl_div(torch.tensor(x), torch.tensor(t), 1, log_target=True), rtol=1e-5, atol=1e-6)


def test_constant_pad_nd():
    x = _r(2, 3)
    for pad in ((1, 2), (1, 1, 0, 2), (-1, 1)):
        assert_same(mt.constant_pad_nd(mt.tensor(x), pad, 2.5), torch.constant_pad_nd(torch.tensor(x), pad, 2.5))


def test_dropout_inplace_and_feature_forms():
    x = np.ones((4, 5, 6), np.float32)
    t = mt.tensor(x)
    assert mt.dropout_(t, 0.5, True) is t
    vals = set(np.unique(t.numpy()).tolist())
    assert vals <= {0.0, 2.0} and vals == {0.0, 2.0}
    t = mt.tensor(x)
    assert mt.dropout_(t, 0.5, False) is t and np.all(t.numpy() == 1.0)
    out = mt.feature_dropout(mt.tensor(x), 0.5, True).numpy()
    per_plane = out.reshape(4, 5, -1)
    assert np.all((per_plane == 0).all(-1) | (per_plane == 2.0).all(-1))  # whole (N, C) planes dropped
    t = mt.tensor(x)
    assert mt.feature_dropout_(t, 0.5, True) is t
    t = mt.tensor(x)
    assert mt.alpha_dropout_(t, 0.2, False) is t and np.all(t.numpy() == 1.0)
    t = mt.tensor(x)
    assert mt.feature_alpha_dropout_(t, 0.2, True) is t
    planes = t.numpy().reshape(4, 5, -1)
    assert np.all(planes.min(-1) == planes.max(-1))  # alpha dropout per plane: one affine value per plane
    with pytest.raises(RuntimeError):
        mt.feature_dropout(mt.ones(3), 0.5, True)
    out, mask = mt.native_dropout(mt.tensor(x), 0.5, True)
    assert mask.dtype == mt.bool and np.allclose(out.numpy(), mask.numpy() * 2.0)
    out, mask = mt.native_dropout(mt.tensor(x), 0.5, False)
    ref_out, ref_mask = torch.native_dropout(torch.tensor(x), 0.5, False)
    assert_same(out, ref_out)
    assert_same(mask, ref_mask)


def test_native_norms_tuple_outputs():
    x = _r(2, 3, 4)
    w, b = _r(4, seed=1), _r(4, seed=2)
    for shape, ww, bb in (((4,), w, b), ((3, 4), None, None)):
        mine = mt.native_layer_norm(mt.tensor(x), shape, None if ww is None else mt.tensor(ww),
                                    None if bb is None else mt.tensor(bb), 1e-5)
        ref = torch.native_layer_norm(torch.tensor(x), shape, None if ww is None else torch.tensor(ww),
                                      None if bb is None else torch.tensor(bb), 1e-5)
        for a, r in zip(mine, ref):
            assert_same(a, r, rtol=1e-5, atol=1e-5)
    for training, stats in ((True, None), (False, (np.zeros(3, np.float32), np.ones(3, np.float32)))):
        rm = rv = None
        if stats is not None:
            rm, rv = stats
        mine = mt.native_batch_norm(mt.tensor(x), None, None, None if rm is None else mt.tensor(rm),
                                    None if rv is None else mt.tensor(rv), training, 0.1, 1e-5)
        ref = torch.native_batch_norm(torch.tensor(x), None, None, None if rm is None else torch.tensor(rm),
                                      None if rv is None else torch.tensor(rv), training, 0.1, 1e-5)
        for a, r in zip(mine, ref):  # eval: save_mean/save_invstd are empty (0,) tensors as torch's CPU kernel
            assert_same(a, r, rtol=1e-5, atol=1e-5)
    g = _r(2, 4, 3)
    mine = mt.native_group_norm(mt.tensor(g), None, None, 2, 4, 3, 2, 1e-5)
    ref = torch.native_group_norm(torch.tensor(g), None, None, 2, 4, 3, 2, 1e-5)
    for a, r in zip(mine, ref):
        assert_same(a, r, rtol=1e-5, atol=1e-5)


def test_convolution_generic_and_conv_tbc():
    x, w, b = _r(1, 2, 6, 6), _r(3, 2, 3, 3, seed=1), _r(3, seed=2)
    mine = mt.convolution(mt.tensor(x), mt.tensor(w), mt.tensor(b), [2, 1], [1, 0], [1, 1], False, [0, 0], 1)
    ref = torch.convolution(torch.tensor(x), torch.tensor(w), torch.tensor(b), [2, 1], [1, 0], [1, 1], False, [0, 0],
                            1)
    assert_same(mine, ref, rtol=1e-4, atol=1e-5)
    wt = _r(2, 3, 2, 2, seed=3)
    mine = mt.convolution(mt.tensor(x), mt.tensor(wt), None, [2, 2], [0, 0], [1, 1], True, [1, 1], 1)
    ref = torch.convolution(torch.tensor(x), torch.tensor(wt), None, [2, 2], [0, 0], [1, 1], True, [1, 1], 1)
    assert_same(mine, ref, rtol=1e-4, atol=1e-5)
    xt, wtbc, btbc = _r(7, 2, 3), _r(3, 3, 4, seed=4), _r(4, seed=5)
    for pad in (0, 1):
        ref = torch.conv_tbc(torch.tensor(xt), torch.tensor(wtbc), torch.tensor(btbc), pad)
        assert_same(mt.conv_tbc(mt.tensor(xt), mt.tensor(wtbc), mt.tensor(btbc), pad), ref, rtol=1e-4, atol=1e-5)
        assert_same(F.conv_tbc(mt.tensor(xt), mt.tensor(wtbc), mt.tensor(btbc), pad), ref, rtol=1e-4, atol=1e-5)


def test_grid_sampler_integer_modes():
    x, g = _r(1, 2, 4, 4), _r(1, 3, 3, 2, seed=1)
    for interp in (0, 1):
        for pad in (0, 1, 2):
            mine = mt.grid_sampler(mt.tensor(x), mt.tensor(g), interp, pad, False)
            ref = torch.grid_sampler(torch.tensor(x), torch.tensor(g), interp, pad, False)
            assert_same(mine, ref, rtol=1e-5, atol=1e-5)


def test_rnn_cells():
    x, h, c = _r(2, 3), _r(2, 4, seed=1), _r(2, 4, seed=2)
    for name, gates in (("lstm_cell", 4), ("gru_cell", 3), ("rnn_tanh_cell", 1), ("rnn_relu_cell", 1)):
        wih, whh = _r(gates * 4, 3, seed=3), _r(gates * 4, 4, seed=4)
        bih, bhh = _r(gates * 4, seed=5), _r(gates * 4, seed=6)
        hx_m = [mt.tensor(h), mt.tensor(c)] if name == "lstm_cell" else mt.tensor(h)
        hx_t = [torch.tensor(h), torch.tensor(c)] if name == "lstm_cell" else torch.tensor(h)
        mine = getattr(mt, name)(mt.tensor(x), hx_m, mt.tensor(wih), mt.tensor(whh), mt.tensor(bih), mt.tensor(bhh))
        ref = getattr(torch, name)(torch.tensor(x), hx_t, torch.tensor(wih), torch.tensor(whh), torch.tensor(bih),
                                   torch.tensor(bhh))
        assert_same(mine, ref, rtol=1e-5, atol=1e-5)
    mine = mt.gru_cell(mt.tensor(x), mt.tensor(h), mt.tensor(_r(12, 3)), mt.tensor(_r(12, 4)))  # no biases
    ref = torch.gru_cell(torch.tensor(x), torch.tensor(h), torch.tensor(_r(12, 3)), torch.tensor(_r(12, 4)))
    assert_same(mine, ref, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------------------- misc functions
def test_fill_frobenius_nuclear():
    x = _r(3, 4)
    assert_same(mt.fill(mt.tensor(x), 2.5), torch.fill(torch.tensor(x), 2.5))
    li = np.arange(4).reshape(2, 2)
    assert_same(mt.fill(mt.tensor(li), mt.tensor(3.7)), torch.fill(torch.tensor(li), torch.tensor(3.7)))
    with pytest.raises(RuntimeError):
        mt.fill(mt.tensor(x), mt.ones(2))
    # 1.12 also has the no-dim overload frobenius_norm(x) (2.x keeps only the dim one): all elements
    assert_same(mt.frobenius_norm(mt.tensor(x)), torch.linalg.vector_norm(torch.tensor(x)), rtol=1e-6)
    assert_same(mt.frobenius_norm(mt.tensor(x), [1], True), torch.frobenius_norm(torch.tensor(x), [1], True),
                rtol=1e-6)
    assert_same(mt.nuclear_norm(mt.tensor(x)), torch.nuclear_norm(torch.tensor(x)), rtol=1e-5)
    x3 = _r(2, 3, 4)
    assert_same(mt.nuclear_norm(mt.tensor(x3), [1, 2], True), torch.nuclear_norm(torch.tensor(x3), [1, 2], True),
                rtol=1e-5)


def test_gradient():
    x = np.array([[1.0, 2.0, 4.0, 8.0], [10.0, 20.0, 40.0, 80.0], [3.0, 1.0, 2.0, 7.0]], np.float32)
    cases = [dict(), dict(spacing=2.0), dict(spacing=[0.5, 2.0]), dict(dim=1), dict(dim=0, edge_order=2),
             dict(spacing=2.0, edge_order=2)]
    for kw in cases:
        mine, ref = mt.gradient(mt.tensor(x), **kw), torch.gradient(torch.tensor(x), **kw)
        assert len(mine) == len(ref)
        for a, b in zip(mine, ref):
            assert_same(a, b, rtol=1e-5, atol=1e-5)
    coords = np.array([0.0, 1.0, 1.5, 3.5], np.float32)
    for eo in (1, 2):
        mine = mt.gradient(mt.tensor(x), spacing=(mt.tensor(coords),), dim=1, edge_order=eo)
        ref = torch.gradient(torch.tensor(x), spacing=(torch.tensor(coords),), dim=1, edge_order=eo)
        assert_same(mine[0], ref[0], rtol=1e-5, atol=1e-5)
    ints = np.array([1, 2, 4, 7])
    assert_same(mt.gradient(mt.tensor(ints))[0], torch.gradient(torch.tensor(ints))[0])  # int -> float
    g = mt.tensor(x, requires_grad=True)
    mt.gradient(g, dim=1)[0].sum().backward()  # differentiable
    tg = torch.tensor(x, requires_grad=True)
    torch.gradient(tg, dim=1)[0].sum().backward()
    assert_same(g.grad, tg.grad, rtol=1e-5, atol=1e-5)


def test_binomial_and_index_reduce():
    mt.manual_seed(0)
    count, prob = mt.tensor([10.0, 5.0, 0.0, 8.0]), mt.tensor([0.5, 0.0, 0.3, 1.0])
    s = mt.binomial(count, prob)
    assert s.dtype == mt.float32 and s.shape == (4,)
    v = s.numpy()
    assert 0 <= v[0] <= 10 and v[1] == 0 and v[2] == 0 and v[3] == 8 and np.all(v == np.round(v))
    x, src = _r(4, 3), _r(3, 3, seed=1)
    idx = np.array([0, 2, 0])
    for reduce in ("prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            mine = mt.tensor(x).index_reduce(0, mt.tensor(idx), mt.tensor(src), reduce, include_self=include_self)
            ref = torch.tensor(x).index_reduce(0, torch.tensor(idx), torch.tensor(src), reduce,
                                               include_self=include_self)
            assert_same(mine, ref, rtol=1e-5, atol=1e-6)
    t = mt.tensor(x)
    assert t.index_reduce_(1, mt.tensor([2, 2, 0]), mt.tensor(_r(4, 3, seed=2)), "amax") is t
    r = torch.tensor(x).index_reduce_(1, torch.tensor([2, 2, 0]), torch.tensor(_r(4, 3, seed=2)), "amax")
    assert_same(t, r)
    assert_same(mt.index_reduce(mt.tensor(x), 0, mt.tensor(idx), mt.tensor(src), "mean"),
                torch.index_reduce(torch.tensor(x), 0, torch.tensor(idx), torch.tensor(src), "mean"), rtol=1e-6)
    with pytest.raises(RuntimeError):
        mt.tensor(x).index_reduce(0, mt.tensor(idx), mt.tensor(src), "sum")


def test_histogramdd():
    pts = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.5, 0.5]], np.float32)
    w = np.array([1.0, 2.0, 4.0, 8.0, 16.0], np.float32)
    for kw_m, kw_t in ((dict(bins=[3, 3]), dict(bins=[3, 3])),
                       (dict(bins=2, weight=mt.tensor(w), density=True), dict(bins=2, weight=torch.tensor(w),
                                                                               density=True)),
                       (dict(bins=[2, 4], range=[0.0, 4.0, 0.0, 4.0]), dict(bins=[2, 4], range=[0.0, 4.0, 0.0, 4.0]))):
        mine, ref = mt.histogramdd(mt.tensor(pts), **kw_m), torch.histogramdd(torch.tensor(pts), **kw_t)
        assert_same(mine.hist, ref.hist, rtol=1e-5, atol=1e-6)
        for a, b in zip(mine.bin_edges, ref.bin_edges):
            assert_same(a, b, rtol=1e-6, atol=1e-6)


def test_small_queries():
    x = mt.ones(2, 3)
    rx = torch.ones(2, 3)
    assert mt.get_device(x) == torch.get_device(rx) == -1
    assert x.is_inference() is False and mt.is_inference(x) is False
    with mt.inference_mode():
        y = mt.ones(2)
    assert y.is_inference() is False  # documented: mindtorch's inference_mode makes ordinary tensors
    assert mt.is_distributed(x) is False and x.is_distributed() is False
    assert x.dense_dim() == rx.dense_dim() == 2 and x.sparse_dim() == rx.sparse_dim() == 0
    assert x.is_set_to(x) and not x.is_set_to(x.view(6)) and not x.is_set_to(mt.ones(2, 3))
    assert x.output_nr == rx.output_nr == 0
    assert x.names == (None, None)  # 1.12's answer for an unnamed tensor (this torch 2.x build lacks `names`)
    with pytest.warns(UserWarning, match="volatile was removed"):
        assert x.volatile is False
    z = mt.tensor([1 + 2j, 3 - 1j])
    assert_same(mt.conj_physical(z), torch.conj_physical(torch.tensor([1 + 2j, 3 - 1j])))
    assert z.conj_physical_() is z and np.allclose(z.numpy(), [1 - 2j, 3 + 1j])
    assert_same(mt.conj_physical(mt.tensor([1.0, -2.0])), torch.conj_physical(torch.tensor([1.0, -2.0])))
    n = mt.arange(12.0).reshape(3, 4)
    c = n.narrow_copy(1, 1, 2)
    assert_same(c, torch.arange(12.0).reshape(3, 4).narrow_copy(1, 1, 2))
    c[0, 0] = 100.0
    assert n[0, 1].item() == 1.0  # a copy, not a view
    e = x.new_empty_strided((2, 2), (2, 1), dtype=mt.float64)
    assert e.shape == (2, 2) and e.dtype == mt.float64
    assert x.new_empty_strided((3,), (1,)).dtype == mt.float32


def test_reinforce_raises_as_112():
    for T in (mt, torch):
        with pytest.raises(RuntimeError, match="reinforce\\(\\) was removed"):
            T.ones(2).reinforce(1.0)


def test_chalf_not_supported():
    with pytest.raises(NotImplementedError, match="chalf"):
        mt.ones(2).chalf()
    with pytest.raises(NotImplementedError, match="chalf"):
        mt.chalf


def test_map2_resize_as_subclass():
    a, b, c = mt.tensor([1.0, 2.0]), mt.tensor([10.0, 20.0]), mt.tensor([100.0, 200.0])
    assert a.map2_(b, c, lambda s, x, y: s + x * y) is a
    ra = torch.tensor([1.0, 2.0]).map2_(torch.tensor([10.0, 20.0]), torch.tensor([100.0, 200.0]),
                                        lambda s, x, y: s + x * y)
    assert_same(a, ra)
    t = mt.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert t.resize_(2, 2) is t
    assert_same(t, torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).resize_(2, 2))
    t.resize_(6)
    assert t.shape == (6,) and np.allclose(t.numpy()[:4], [1, 2, 3, 4])  # grown: first elements kept
    u = mt.arange(4.0)
    assert u.resize_as_(mt.ones(3)) is u and np.allclose(u.numpy(), [0, 1, 2])
    with pytest.raises(RuntimeError, match="require grad"):
        mt.ones(3, requires_grad=True).resize_(2)

    class Sub(mt.Tensor):
        pass

    s = mt.tensor([1.0, 2.0]).as_subclass(Sub)
    assert type(s) is Sub and np.allclose(s.numpy(), [1, 2])
    with pytest.raises(TypeError):
        mt.ones(2).as_subclass(int)


# ----------------------------------------------------------------------------- 1.12's deprecated linalg
# torch 2.x removed these (they raise there); 1.12 computes and warns once per process (TORCH_WARN_ONCE, every time
# after set_warn_always(True)). Results are checked against the 2.x replacement functions.
@pytest.fixture
def warn_always():
    mt.set_warn_always(True)
    yield
    mt.set_warn_always(False)


def test_deprecated_solve_symeig_eig(warn_always):
    A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
    B = _r(3, 2)
    with pytest.warns(UserWarning, match="torch.solve is deprecated"):
        sol = mt.solve(mt.tensor(B), mt.tensor(A))
    assert type(sol).__name__ == "solve" and sol._fields == ("solution", "LU")
    assert_same(sol.solution, torch.linalg.solve(torch.tensor(A), torch.tensor(B)), rtol=1e-5, atol=1e-6)
    assert_same(sol.LU, torch.linalg.lu_factor(torch.tensor(A)).LU, rtol=1e-5, atol=1e-6)
    with pytest.warns(UserWarning, match="torch.solve is deprecated"):
        assert_same(mt.tensor(B).solve(mt.tensor(A))[0], sol.solution)
    with pytest.warns(UserWarning, match="torch.symeig is deprecated"):
        w, v = mt.symeig(mt.tensor(A))
    assert_same(w, torch.linalg.eigvalsh(torch.tensor(A), UPLO="U"), rtol=1e-5, atol=1e-5)
    assert v.shape == (0,) and v.dtype == mt.float32  # 1.12: empty eigenvectors unless asked for
    lower_only = np.tril(A) + np.triu(np.full((3, 3), 9.0, np.float32), 1)
    with pytest.warns(UserWarning):
        w, v = mt.tensor(lower_only).symeig(eigenvectors=True, upper=False)
    tw, tv = torch.linalg.eigh(torch.tensor(lower_only), UPLO="L")
    assert_same(w, tw, rtol=1e-5, atol=1e-5)
    assert np.allclose(np.abs(v.numpy()), np.abs(tv.numpy()), atol=1e-5)  # eigenvectors up to sign
    rot = np.array([[0.0, -2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 3.0]], np.float64)
    with pytest.warns(UserWarning, match="torch.eig is deprecated"):
        e, ev = mt.eig(mt.tensor(rot), eigenvectors=True)
    ref = torch.linalg.eig(torch.tensor(rot))
    assert e.shape == (3, 2) and e.dtype == mt.float64  # 1.12: (real, imag) pairs
    got = e.numpy()[:, 0] + 1j * e.numpy()[:, 1]
    assert np.allclose(np.sort_complex(got), np.sort_complex(ref.eigenvalues.numpy()))
    # LAPACK's real layout: a complex pair (j, j+1) stores re/im of the first vector in columns j, j+1
    vecs = ev.numpy()
    for j in range(3):
        lam = got[j]
        if lam.imag > 0:
            vec = vecs[:, j] + 1j * vecs[:, j + 1]
        elif lam.imag < 0:
            vec = vecs[:, j - 1] - 1j * vecs[:, j]
        else:
            vec = vecs[:, j]
        assert np.allclose(rot @ vec, lam * vec, atol=1e-10)
    with pytest.warns(UserWarning):
        assert mt.eig(mt.tensor(rot)).eigenvectors.shape == (0,)


def test_deprecated_lstsq_matrix_rank(warn_always):
    A = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 4.0]])
    B = np.array([[1.0, 2.0], [2.0, 0.0], [3.0, 1.0], [3.5, 5.0]])
    with pytest.warns(UserWarning, match="torch.lstsq is deprecated"):
        X, QR = mt.lstsq(mt.tensor(B), mt.tensor(A))
    assert X.shape == (4, 2) and QR.shape == (4, 2)  # 1.12: solution has max(m, n) rows
    ref = torch.linalg.lstsq(torch.tensor(A), torch.tensor(B), driver="gelsd")
    assert_same(X[:2], ref.solution, rtol=1e-10, atol=1e-12)
    resid = (X[2:].numpy() ** 2).sum(0)  # rows n: hold the residual terms
    assert np.allclose(resid, ((A @ ref.solution.numpy() - B) ** 2).sum(0))
    assert np.allclose(np.abs(np.diag(QR.numpy()[:2])), np.abs(np.diag(np.linalg.qr(A)[1])))  # R on the diagonal
    wide = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 1.0]])
    with pytest.warns(UserWarning):
        X, _ = mt.tensor(np.array([1.0, 2.0])).lstsq(mt.tensor(wide))
    assert X.shape == (3, 1) and np.allclose(X.numpy()[:, 0], np.linalg.pinv(wide) @ [1.0, 2.0])  # minimum norm
    M = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)
    with pytest.warns(UserWarning, match="torch.matrix_rank is deprecated"):
        r = mt.matrix_rank(mt.tensor(M))
    assert_same(r, torch.linalg.matrix_rank(torch.tensor(M)))
    with pytest.warns(UserWarning):
        assert mt.matrix_rank(mt.tensor(M), 10.0).item() == 0


def test_deprecation_warning_given_once_by_default():
    from mindtorch.torch import _settings

    _settings._WARNED_ONCE.discard("linalg.matrix_rank")
    A = mt.eye(2)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        mt.matrix_rank(A)
        mt.matrix_rank(A)
    assert sum("matrix_rank is deprecated" in str(w.message) for w in rec) == 1
    assert not mt.is_warn_always_enabled()


# ------------------------------------------------------------------------------------- flags and settings
def test_build_flags_and_warn_always():
    for name in ("has_mkl", "has_lapack", "has_openmp", "has_spectral", "has_cuda", "has_cudnn", "has_mps"):
        assert isinstance(getattr(mt, name), bool)
    assert mt.has_lapack and mt.has_spectral and not mt.has_cuda  # what this build really has
    assert isinstance(mt.compiled_with_cxx11_abi(), bool)
    assert mt.is_warn_always_enabled() is torch.is_warn_always_enabled() is False
    mt.set_warn_always(True)
    try:
        assert mt.is_warn_always_enabled()
    finally:
        mt.set_warn_always(False)


def test_autocast_setters():
    assert not mt.is_autocast_enabled() and not mt.is_autocast_cpu_enabled()
    assert mt.get_autocast_gpu_dtype() == mt.float16 and mt.get_autocast_cpu_dtype() == mt.bfloat16
    a, b = mt.ones(2, 2), mt.ones(2, 2)
    mt.set_autocast_enabled(True)
    try:
        assert mt.is_autocast_enabled() and not mt.is_autocast_cpu_enabled()
        assert mt.matmul(a, b).dtype == mt.float16  # the global state casts like a region
        with mt.autocast("cuda", enabled=False):
            assert not mt.is_autocast_enabled() and mt.matmul(a, b).dtype == mt.float32
        assert mt.is_autocast_enabled()  # a region's exit restores the state before it
    finally:
        mt.set_autocast_enabled(False)
    assert mt.matmul(a, b).dtype == mt.float32
    mt.set_autocast_gpu_dtype(mt.bfloat16)
    mt.set_autocast_cpu_dtype(mt.float16)
    try:
        assert mt.get_autocast_gpu_dtype() == mt.bfloat16 and mt.get_autocast_cpu_dtype() == mt.float16
        mt.set_autocast_cpu_enabled(True)
        assert mt.is_autocast_cpu_enabled()
    finally:
        mt.set_autocast_cpu_enabled(False)
        mt.set_autocast_gpu_dtype(mt.float16)
        mt.set_autocast_cpu_dtype(mt.bfloat16)
    assert mt.autocast_increment_nesting() == 1 and mt.autocast_increment_nesting() == 2
    assert mt.autocast_decrement_nesting() == 1 and mt.autocast_decrement_nesting() == 0


# --------------------------------------------------------------------------------------------- modules
def test_torch_functional_module():
    import mindtorch.torch.functional as mF

    x = mt.tensor(_r(2, 3))
    assert mF.einsum is mt.einsum and mF.split is mt.split and mF.norm is mt.norm
    assert_same(mF.einsum("ij->j", x), torch.einsum("ij->j", torch.tensor(x.numpy())), rtol=1e-6)
    assert set(mF.__all__) >= {"einsum", "split", "norm", "meshgrid", "stft", "unique", "tensordot", "histogramdd"}
    with pytest.raises(RuntimeError, match="align_tensors"):
        mF.align_tensors(x)
    assert mF.pca_lowrank is mt.pca_lowrank and mF.svd_lowrank is mt.svd_lowrank


def test_overrides():
    from mindtorch.torch import overrides

    x = mt.ones(2)

    class Sub(mt.Tensor):
        pass

    class Other:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return ("other", func.__name__)

    s = x.as_subclass(Sub)
    # torch: plain tensors and Parameters have no override; a subclass inherits Tensor.__torch_function__
    assert not overrides.has_torch_function((x, 1))
    assert not overrides.has_torch_function_unary(mt.nn.Parameter(mt.ones(2)))
    assert overrides.has_torch_function((x, s)) and overrides.has_torch_function_variadic(x, Other())
    assert torch.overrides.has_torch_function((torch.ones(2).as_subclass(torch.Tensor),)) is False
    assert overrides.handle_torch_function(mt.add, (Other(),), Other(), 1) == ("other", "add")
    r = overrides.handle_torch_function(mt.add, (s,), s, 1)
    assert type(r) is Sub and np.allclose(r.numpy(), [2, 2])

    class Refuses:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    with pytest.raises(TypeError, match="no implementation found"):
        overrides.handle_torch_function(mt.add, (Refuses(),), Refuses(), 1)
    assert overrides.is_tensor_like(x) and overrides.is_tensor_like(Other()) and not overrides.is_tensor_like(1)
    assert mt.zeros in overrides.get_ignored_functions() and mt.add not in overrides.get_ignored_functions()
    assert overrides.is_tensor_method_or_property(mt.Tensor.add)
    assert F.has_torch_function is overrides.has_torch_function


def test_dlpack_roundtrip():
    x = mt.tensor([[1.0, 2.0], [3.0, 4.0]])
    t = torch.from_dlpack(mt.utils.dlpack.to_dlpack(x))  # zero-copy into real torch
    assert np.allclose(t.numpy(), x.numpy())
    t[0, 0] = 10.0
    assert x[0, 0].item() == 10.0
    y = mt.from_dlpack(torch.utils.dlpack.to_dlpack(torch.arange(4)))
    assert type(y) is mt.Tensor and y.dtype == mt.int64 and y.tolist() == [0, 1, 2, 3]
    z = mt.from_dlpack(torch.arange(3.0))  # an object with __dlpack__
    assert z.tolist() == [0.0, 1.0, 2.0]
    arr = np.arange(3.0)
    w = mt.utils.dlpack.from_dlpack(arr)
    arr[0] = 7.0
    assert w[0].item() == 7.0  # shares numpy's memory
    assert torch.from_dlpack(mt.tensor([5.0, 6.0])).tolist() == [5.0, 6.0]  # Tensor.__dlpack__


def test_storage_classes(tmp_path):
    s = mt.FloatStorage([1, 2, 3])
    r = torch.FloatStorage([1, 2, 3])
    assert isinstance(s, mt.FloatStorage) and not isinstance(s, mt.DoubleStorage)
    assert isinstance(s, mt.storage.TypedStorage)
    assert s.size() == len(s) == r.size() == 3 and s.tolist() == r.tolist() and s[1] == r[1] == 2.0
    assert s.dtype == mt.float32 and r.dtype == torch.float32 and mt.FloatStorage.dtype == mt.float32
    assert s.element_size() == 4 and s.nbytes() == 12
    assert mt.LongStorage(4).size() == 4 and mt.LongStorage(4).dtype == mt.int64
    assert mt.LongStorage([1, 2]).tolist() == [1, 2]
    assert isinstance(s, mt.Storage)  # torch.Storage is the default dtype's class (torch 2.x too)
    assert mt.ones(2).storage_type() is mt.FloatStorage
    assert mt.ones(2, dtype=mt.long).storage_type() is mt.LongStorage
    assert torch.ones(2, dtype=torch.long).storage_type() is torch.LongStorage
    assert np.allclose(mt.tensor(np.asarray(s)).numpy(), [1, 2, 3])
    assert mt.is_storage(s) and torch.is_storage(r) and mt.is_storage(mt.ones(2).untyped_storage())
    assert not mt.is_storage(mt.ones(2)) and not torch.is_storage(torch.ones(2))
    with pytest.raises(NotImplementedError, match="quantized"):
        mt.QUInt8Storage(2)
    # old checkpoints name torch.FloatStorage etc. in their pickles: loading still maps them (and real files load)
    p = tmp_path / "ckpt.pt"
    torch.save({"w": torch.arange(4.0).reshape(2, 2), "i": torch.tensor([1, 2])}, p)
    loaded = mt.load(p)
    assert loaded["w"].tolist() == [[0.0, 1.0], [2.0, 3.0]] and loaded["i"].dtype == mt.int64
    loaded = mt.load(p, weights_only=False)
    assert loaded["w"].tolist() == [[0.0, 1.0], [2.0, 3.0]]


def test_skipped_backend_specific_apis_raise_not_implemented():
    # CSR sparse tensors, quantized, cudnn/miopen/mkldnn/fbgemm specifics stay unsupported, with a
    # NotImplementedError naming the API (also an AttributeError so hasattr() is False); sparse COO tensors are
    # supported (tests/test_sparse.py)
    for name in ("cudnn_convolution", "miopen_batch_norm", "mkldnn_convolution", "fbgemm_linear_fp16_weight",
                 "quantize_per_tensor", "sparse_csr_tensor"):
        with pytest.raises(NotImplementedError, match=name):
            getattr(mt, name)
        assert not hasattr(mt, name)
    with pytest.raises(NotImplementedError, match="to_sparse_csr"):
        mt.ones(2).to_sparse_csr()


# ------------------------------------------------------------------------ more 1.12 functions and methods
def test_householder_family():
    a = np.random.default_rng(0).standard_normal((2, 4, 3))
    mine, ref = mt.geqrf(mt.tensor(a)), torch.geqrf(torch.tensor(a))
    assert type(mine).__name__ == "geqrf" and mine._fields == ("a", "tau")
    assert_same(mine.a, ref.a, rtol=1e-10, atol=1e-12)
    assert_same(mine.tau, ref.tau, rtol=1e-10, atol=1e-12)
    assert_same(mt.linalg.householder_product(*mine), torch.linalg.householder_product(*ref), rtol=1e-10, atol=1e-12)
    assert_same(mine.a.orgqr(mine.tau), torch.orgqr(*ref), rtol=1e-10, atol=1e-12)
    rng = np.random.default_rng(1)
    for left in (True, False):
        for transpose in (True, False):
            c = rng.standard_normal((2, 4, 2) if left else (2, 2, 4))
            assert_same(mt.ormqr(mine.a, mine.tau, mt.tensor(c), left, transpose),
                        torch.ormqr(ref.a, ref.tau, torch.tensor(c), left, transpose), rtol=1e-10, atol=1e-12)
    with pytest.raises(RuntimeError):
        mt.linalg.householder_product(mt.ones(2, 3), mt.ones(2))  # m < n


def test_non_inplace_resize_is_torchs_not_numpys():
    # MindSpore's own Tensor.resize pads/truncates like numpy; torch's keeps the element count, with a warning
    x = mt.arange(6.0)
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        y = x.resize(2, 3)
    assert_same(y, torch.arange(6.0).resize(2, 3))
    with pytest.warns(UserWarning):
        with pytest.raises(RuntimeError, match="preserving the number of elements"):
            x.resize(4)
    with pytest.warns(UserWarning, match="non-inplace resize_as is deprecated"):
        assert x.resize_as(mt.ones(3, 2)).shape == (3, 2)


def test_small_aten_functions():
    theta = _r(2, 2, 3)
    assert_same(mt.affine_grid_generator(mt.tensor(theta), [2, 1, 3, 4], False),
                torch.affine_grid_generator(torch.tensor(theta), [2, 1, 3, 4], False), rtol=1e-5, atol=1e-6)
    v = _r(3, 4, 2)
    for p, d in ((2, 0), (2, 1), (2, 2), (1, 0), (2, -1), (3, 1)):
        assert_same(mt.norm_except_dim(mt.tensor(v), p, d), torch.norm_except_dim(torch.tensor(v), p, d),
                    rtol=1e-5, atol=1e-6)
    w, idx = _r(5, 3, lo=-2, hi=2), np.array([0, 2, 2])
    mw, tw = mt.tensor(w), torch.tensor(w)
    assert mt.embedding_renorm_(mw, mt.tensor(idx), 1.0, 2.0) is mw
    torch.embedding_renorm_(tw, torch.tensor(idx), 1.0, 2.0)
    assert_same(mw, tw, rtol=1e-6, atol=1e-6)
    d = mt.ones(2)
    assert mt.detach_(d) is d and not d.requires_grad
    data = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    for reduce in ("sum", "mean", "max", "min"):
        for initial in (None, 1.5):
            kw = {} if initial is None else {"initial": initial}
            assert_same(mt.segment_reduce(mt.tensor(data), reduce, lengths=mt.tensor([2, 0, 1]), **kw),
                        torch.segment_reduce(torch.tensor(data), reduce, lengths=torch.tensor([2, 0, 1]), **kw))
    for T in (mt, torch):  # axis must be the last dim of lengths, in both
        with pytest.raises(RuntimeError, match="last dimension of lengths"):
            T.segment_reduce(T.tensor(data), "sum", lengths=T.tensor([1, 1]), axis=1)


def test_more_flags():
    assert mt.is_vulkan_available() is torch.is_vulkan_available() is False
    assert mt.ones(2).is_vulkan is False and mt.ones(2).is_mkldnn is False
    assert repr(mt.legacy_contiguous_format) == "torch.legacy_contiguous_format"
    assert mt.init_num_threads() is None
    assert mt.get_deterministic_debug_mode() == torch.get_deterministic_debug_mode() == 0
    try:
        mt.set_deterministic_debug_mode("warn")
        assert mt.get_deterministic_debug_mode() == 1 and mt.is_deterministic_algorithms_warn_only_enabled()
        mt.set_deterministic_debug_mode(2)
        assert mt.get_deterministic_debug_mode() == 2 and mt.are_deterministic_algorithms_enabled()
        with pytest.raises(RuntimeError):
            mt.set_deterministic_debug_mode("loud")
    finally:
        mt.set_deterministic_debug_mode(0)
    assert not mt.are_deterministic_algorithms_enabled()
    assert F.Tensor is mt.Tensor and F.GRID_SAMPLE_PADDING_MODES == torch.nn.functional.GRID_SAMPLE_PADDING_MODES


def test_svd_and_pca_lowrank():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((2, 8, 3)) @ rng.standard_normal((3, 5))  # rank 3: the randomized result is exact
    u, s, v = mt.svd_lowrank(mt.tensor(A), q=3)
    U, S, V = torch.svd_lowrank(torch.tensor(A), q=3)
    assert u.shape == U.shape and s.shape == S.shape and v.shape == V.shape
    assert_same(s, S, rtol=1e-8, atol=1e-10)
    assert np.allclose(np.abs(u.numpy()), np.abs(U.numpy())) and np.allclose(np.abs(v.numpy()), np.abs(V.numpy()))
    M = rng.standard_normal((2, 8, 5))
    s2 = mt.svd_lowrank(mt.tensor(A + M), q=3, M=mt.tensor(M))[1]
    assert_same(s2, S, rtol=1e-8, atol=1e-8)
    u, s, v = mt.pca_lowrank(mt.tensor(A[0]))
    U, S, V = torch.pca_lowrank(torch.tensor(A[0]))
    assert s.shape == S.shape == (5,)
    assert np.allclose(s.numpy()[:3], S.numpy()[:3])  # the centred data has rank <= 3
    with pytest.raises(ValueError, match="must be non-negative integer"):
        mt.svd_lowrank(mt.tensor(A), q=9)


def test_sobol_engine():
    for d in (1, 3):
        mine, ref = mt.quasirandom.SobolEngine(d), torch.quasirandom.SobolEngine(d)
        assert_same(mine.draw(5), ref.draw(5))  # the same direction numbers: the same points
        mine.fast_forward(3)
        ref.fast_forward(3)
        assert_same(mine.draw(4, dtype=mt.float64), ref.draw(4, dtype=torch.float64))
        assert mine.num_generated == ref.num_generated == 12
        mine.reset()
        ref.reset()
        assert_same(mine.draw_base2(3), ref.draw_base2(3))
        mine.draw(1)
        with pytest.raises(ValueError, match="power of 2"):
            mine.draw_base2(1)  # 9 + 2 points
    s = mt.quasirandom.SobolEngine(2, scramble=True, seed=3)
    pts = s.draw(64).numpy()  # scrambled: other numbers than torch's, still a balanced net in [0, 1)^2
    assert pts.min() >= 0 and pts.max() < 1 and np.allclose(pts.mean(0), 0.5, atol=0.02)
    assert repr(s) == repr(torch.quasirandom.SobolEngine(2, scramble=True, seed=3))
    with pytest.raises(ValueError, match="dimensionality"):
        mt.quasirandom.SobolEngine(0)


@pytest.mark.parametrize("bidirectional,batch_first", [(False, False), (True, True)])
def test_whole_sequence_rnn_functions(bidirectional, batch_first):
    torch.manual_seed(0)
    D = 2 if bidirectional else 1
    x = torch.randn(3, 4, 3)  # (T, B, I), or (B, T, I) when batch_first
    B = 3 if batch_first else 4
    for name, cls in (("lstm", torch.nn.LSTM), ("gru", torch.nn.GRU), ("rnn_tanh", torch.nn.RNN),
                      ("rnn_relu", torch.nn.RNN)):
        kw = {"nonlinearity": "relu"} if name == "rnn_relu" else {}
        mod = cls(3, 5, num_layers=2, bidirectional=bidirectional, batch_first=batch_first, **kw)
        params = [p.detach() for p in mod._flat_weights]
        h = torch.randn(2 * D, B, 5)
        hx_t = [h, torch.randn(2 * D, B, 5)] if name == "lstm" else h
        hx_m = [mt.tensor(v.numpy()) for v in hx_t] if name == "lstm" else mt.tensor(h.numpy())
        ref = getattr(torch, name)(x, hx_t, params, True, 2, 0.0, False, bidirectional, batch_first)
        mine = getattr(mt, name)(mt.tensor(x.numpy()), hx_m, [mt.tensor(p.numpy()) for p in params], True, 2, 0.0,
                                 False, bidirectional, batch_first)
        assert len(mine) == len(ref)
        for a, b in zip(mine, ref):
            assert_same(a, b, rtol=1e-4, atol=1e-5)


def test_lstm_function_with_projection_and_no_bias():
    mod = torch.nn.LSTM(3, 4, proj_size=2, bias=False)
    params = [p.detach() for p in mod._flat_weights]
    x, h, c = torch.randn(5, 2, 3), torch.randn(1, 2, 2), torch.randn(1, 2, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch: "LSTM with projections is not supported with oneDNN"
        ref = torch.lstm(x, [h, c], params, False, 1, 0.0, False, False, False)
    mine = mt.lstm(mt.tensor(x.numpy()), [mt.tensor(h.numpy()), mt.tensor(c.numpy())],
                   [mt.tensor(p.numpy()) for p in params], False, 1, 0.0, False, False, False)
    for a, b in zip(mine, ref):
        assert_same(a, b, rtol=1e-4, atol=1e-5)


def test_grid_sampler_2d_and_resize_as_function():
    x, g = _r(1, 2, 4, 4), _r(1, 3, 3, 2, seed=1)
    assert_same(mt.grid_sampler_2d(mt.tensor(x), mt.tensor(g), 0, 1, True),
                torch.grid_sampler_2d(torch.tensor(x), torch.tensor(g), 0, 1, True), rtol=1e-5, atol=1e-5)
    t = mt.arange(5.0)
    assert mt.resize_as_(t, mt.ones(2, 2)) is t and t.shape == (2, 2)


def test_nn_grad_and_functional_helpers():
    x, w = _r(2, 4, 5, 5), _r(6, 2, 3, 3, seed=1)
    go = _r(2, 6, 3, 2, seed=2)
    kw = dict(stride=(1, 2), groups=2)
    assert_same(mt.nn.grad.conv2d_input(x.shape, mt.tensor(w), mt.tensor(go), **kw),
                torch.nn.grad.conv2d_input(x.shape, torch.tensor(w), torch.tensor(go), **kw), rtol=1e-4, atol=1e-4)
    assert_same(mt.nn.grad.conv2d_weight(mt.tensor(x), w.shape, mt.tensor(go), **kw),
                torch.nn.grad.conv2d_weight(torch.tensor(x), w.shape, torch.tensor(go), **kw), rtol=1e-4, atol=1e-4)
    x1, w1, go1 = _r(2, 3, 7), _r(4, 3, 3, seed=3), _r(2, 4, 3, seed=4)
    assert_same(mt.nn.grad.conv1d_weight(mt.tensor(x1), w1.shape, mt.tensor(go1), stride=2),
                torch.nn.grad.conv1d_weight(torch.tensor(x1), w1.shape, torch.tensor(go1), stride=2), rtol=1e-4,
                atol=1e-4)
    assert F.grad is mt.nn.grad
    f = F.boolean_dispatch("return_indices", 1, False, lambda x, return_indices=False: "with",
                           lambda x, return_indices=False: "without", "m", "pool")
    assert (f(1), f(1, True), f(1, return_indices=True), f.__name__) == ("without", "with", "with", "pool")
    assert F.BroadcastingList2[int] is None and F.TYPE_CHECKING is False
    F.assert_int_or_pair((1, 2), "kernel", "{} must be int or pair")
    with pytest.raises(AssertionError, match="kernel must be"):
        F.assert_int_or_pair((1, 2, 3), "kernel", "{} must be int or pair")


def test_torch_level_losses_take_atens_arguments():
    # torch.<loss> is ATen's op: integer reduction in ATen's argument order (F's size_average/reduce are not there),
    # and - torch's Python parser reading the `reduction=Mean` default with atol - no reduction when omitted
    x, t = _r(3, 4), _r(3, 4, seed=1, lo=0.0, hi=1.0)
    a, b, y = _r(4, seed=2), _r(4, seed=3), np.array([1.0, -1.0, 1.0, -1.0], np.float32)
    pw = _r(4, seed=4, lo=0.5, hi=2.0)
    cases = [
        ("binary_cross_entropy_with_logits", (x, t), (None, pw)),
        ("binary_cross_entropy_with_logits", (x, t), (None, None, 2)),
        ("margin_ranking_loss", (a, b, y), ()), ("margin_ranking_loss", (a, b, y), (0.3, 1)),
        ("hinge_embedding_loss", (a, y), ()), ("hinge_embedding_loss", (a, y), (0.5, 2)),
        ("cosine_embedding_loss", (x[:, :2].T.copy(), t[:, :2].T.copy(), y[:2]), ()),
        ("cosine_embedding_loss", (x[:, :2].T.copy(), t[:, :2].T.copy(), y[:2]), (0.1, 1)),
        ("triplet_margin_loss", (x, t, x[::-1].copy()), ()), ("triplet_margin_loss", (x, t, x[::-1].copy()),
                                                               (0.5, 1.0, 1e-6, True, 1)),
        ("poisson_nll_loss", (x, t), (True, False, 1e-8, 0)), ("poisson_nll_loss", (x, t), (False, True, 1e-8, 1)),
    ]
    for name, tensors, rest in cases:
        mine = getattr(mt, name)(*(mt.tensor(v) for v in tensors), *(mt.tensor(v) if isinstance(v, np.ndarray)
                                                                      else v for v in rest))
        ref = getattr(torch, name)(*(torch.tensor(v) for v in tensors), *(torch.tensor(v) if isinstance(v, np.ndarray)
                                                                         else v for v in rest))
        assert_same(mine, ref, rtol=1e-5, atol=1e-5)
    lp = np.log(np.random.default_rng(5).dirichlet(np.ones(3), size=(5, 2))).astype(np.float32)
    tg, il, tl = np.array([[1, 2], [1, 1]]), np.array([5, 5]), np.array([2, 2])
    for red in ((), (0, 0), (0, 1), (0, 2)):
        mine = mt.ctc_loss(mt.tensor(lp), mt.tensor(tg), mt.tensor(il), mt.tensor(tl), *red)
        ref = torch.ctc_loss(torch.tensor(lp), torch.tensor(tg), torch.tensor(il), torch.tensor(tl), *red)
        assert_same(mine, ref, rtol=1e-4, atol=1e-5)
    assert F.margin_ranking_loss(mt.tensor(a), mt.tensor(b), mt.tensor(y)).shape == ()  # F keeps 'mean'


def test_output_nr():
    x = mt.randn(4, 3, requires_grad=True)
    rx = torch.randn(4, 3, requires_grad=True)
    assert x.output_nr == rx.output_nr == 0  # leaves
    assert (x * 2).output_nr == (rx * 2).output_nr == 0
    values, indices = mt.topk(x * 1, 2, 0)
    assert values.output_nr == torch.topk(rx * 1, 2, 0).values.output_nr == 0
    import mindspore as ms

    from mindtorch.torch import _ms

    v, i = ms.ops.topk(x * 1, 2)  # a two-output MindSpore kernel: the private index _ms.output_index reads
    assert (_ms.output_index(v), _ms.output_index(i)) == (0, 1)
