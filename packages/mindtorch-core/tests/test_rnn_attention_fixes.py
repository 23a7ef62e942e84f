"""RNN/LSTM/GRU, their cells, packed sequences and multi-head attention against real PyTorch: uint8 attention
masks, LSTM double backward, the argument checks of torch 1.12 (dtype, hidden sizes, ranks, mask shapes) and
the RNNBase helpers. Where torch 2.x differs from 1.12 (our reference) the test says so and checks 1.12."""
import warnings

import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as mt

R = np.random.RandomState(0)


def rn(*shape):
    return R.randn(*shape).astype(np.float32)


def copy_state(mine, ref):
    mine.load_state_dict({k: mt.tensor(v.detach().numpy().copy()) for k, v in ref.state_dict().items()})


def raised(call):
    """(type, message) of the exception `call()` raises."""
    with pytest.raises(Exception) as e:
        call()
    return type(e.value), str(e.value)


def mha_pair(reftorch, *args, **kwargs):
    ref = reftorch.nn.MultiheadAttention(*args, **kwargs).eval()
    mine = mt.nn.MultiheadAttention(*args, **kwargs).eval()
    copy_state(mine, ref)
    return mine, ref


# ------------------------------------------------------------------------------------------ 1. uint8 masks
@pytest.mark.parametrize("which", ["attn_mask", "key_padding_mask", "both"])
def test_mha_uint8_masks_are_bool_masks_with_the_112_warning(reftorch, which):
    """torch 1.12 takes a uint8 mask as a bool one (non-zero = masked) and warns; 2.x rejects it, so the
    reference is torch given the same mask as bool. Values and gradients."""
    mine, ref = mha_pair(reftorch, 8, 2)
    q, k = rn(3, 2, 8), rn(5, 2, 8)
    am = np.triu(np.ones((3, 5), np.uint8), 1) * 7  # any non-zero value masks
    kpm = np.zeros((2, 5), np.uint8)
    kpm[1, -2:] = 1
    masks = {"attn_mask": am, "key_padding_mask": kpm}
    use = masks if which == "both" else {which: masks[which]}
    qm, km = mt.tensor(q, requires_grad=True), mt.tensor(k, requires_grad=True)
    qt, kt = reftorch.tensor(q, requires_grad=True), reftorch.tensor(k, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = mine(qm, km, km, **{n: mt.tensor(m) for n, m in use.items()})
    texts = sorted(str(x.message) for x in w)
    assert texts == sorted(f"Byte tensor for {n} in nn.MultiheadAttention is deprecated. Use bool tensor instead."
                           for n in use)
    exp = ref(qt, kt, kt, **{n: reftorch.tensor(m.astype(bool)) for n, m in use.items()})
    assert_same(out[0], exp[0], rtol=1e-5, atol=1e-6)
    assert_same(out[1], exp[1], rtol=1e-5, atol=1e-6)
    out[0].sum().backward()
    exp[0].sum().backward()
    assert_same(qm.grad, qt.grad, rtol=1e-4, atol=1e-5)
    assert_same(km.grad, kt.grad, rtol=1e-4, atol=1e-5)


def test_transformer_encoder_layer_uint8_src_mask(reftorch):
    ref = reftorch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0).eval()
    mine = mt.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0).eval()
    copy_state(mine, ref)
    x = rn(4, 2, 8)
    am = np.triu(np.ones((4, 4), np.uint8), 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = mine(mt.tensor(x), src_mask=mt.tensor(am))
    assert_same(out, ref(reftorch.tensor(x), src_mask=reftorch.tensor(am.astype(bool))), rtol=1e-5, atol=1e-5)


def test_mha_other_integer_attn_mask_fails_as_112(reftorch):
    mine, _ = mha_pair(reftorch, 8, 2)
    x = mt.tensor(rn(3, 2, 8))
    for dt in (mt.int64, mt.int32, mt.int8):
        with pytest.raises(AssertionError) as e:
            mine(x, x, x, attn_mask=mt.zeros(3, 3, dtype=dt))
        assert str(e.value) == f"Only float, byte, and bool types are supported for attn_mask, not {dt}"


def test_mha_mask_merge_as_112(reftorch):
    """1.12: a bool attn_mask is or-ed with a float key padding mask (any non-zero entry masks); a float
    attn_mask with a float padding mask fails in masked_fill (2.x adds both), an additive mask of another
    dtype than the query fails in baddbmm."""
    mine, ref = mha_pair(reftorch, 8, 2)
    q, k = rn(3, 2, 8), rn(5, 2, 8)
    am = np.triu(np.ones((3, 5), bool), 1)
    kpf = np.zeros((2, 5), np.float32)
    kpf[0, -1] = -2.0
    out = mine(mt.tensor(q), mt.tensor(k), mt.tensor(k), attn_mask=mt.tensor(am), key_padding_mask=mt.tensor(kpf))
    exp = ref(reftorch.tensor(q), reftorch.tensor(k), reftorch.tensor(k), attn_mask=reftorch.tensor(am),
              key_padding_mask=reftorch.tensor(kpf != 0))
    assert_same(out[1], exp[1], rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="masked_fill_ only supports boolean masks, but got mask with dtype float"):
        mine(mt.tensor(q), mt.tensor(k), mt.tensor(k), attn_mask=mt.tensor(am.astype(np.float32)),
             key_padding_mask=mt.tensor(kpf))
    f64 = mt.tensor(q.astype(np.float64))
    m64 = mine.double()
    t, msg = raised(lambda: m64(f64, f64, f64, attn_mask=mt.zeros(3, 3)))
    ref.double()
    qt = reftorch.tensor(q.astype(np.float64))
    t_ref, msg_ref = raised(lambda: ref(qt, qt, qt, attn_mask=reftorch.zeros(3, 3)))
    assert (t, msg) == (t_ref, msg_ref)


# ------------------------------------------------------------------------------------ 2. LSTM double backward
@pytest.mark.parametrize("kw", [{}, {"bidirectional": True, "num_layers": 2}, {"bias": False}])
def test_lstm_double_backward(reftorch, kw):
    """create_graph through the fused LSTM kernel: first and second derivatives (x, h0, c0, weights)."""
    ref = reftorch.nn.LSTM(3, 4, **kw)
    mine = mt.nn.LSTM(3, 4, **kw)
    copy_state(mine, ref)
    L = (2 if kw.get("bidirectional") else 1) * kw.get("num_layers", 1)
    arrays = [rn(5, 2, 3), rn(L, 2, 4), rn(L, 2, 4)]
    ins_t = [reftorch.tensor(a, requires_grad=True) for a in arrays]
    ins_m = [mt.tensor(a, requires_grad=True) for a in arrays]

    def second(lib, m, x, h, c):
        out, (hn, cn) = m(x, (h, c))
        loss = out.pow(2).sum() + (hn * cn).sum()
        g = lib.autograd.grad(loss, (x, h, c), create_graph=True)
        (g[0].pow(2).sum() + g[1].sum() + g[2].pow(3).sum()).backward()
        return g

    g_t = second(reftorch, ref, *ins_t)
    g_m = second(mt, mine, *ins_m)
    for a, b in zip(g_m, g_t):
        assert_same(a, b, rtol=1e-4, atol=1e-5)
    for a, b in zip(ins_m, ins_t):
        assert_same(a.grad, b.grad, rtol=1e-4, atol=1e-5)
    params = dict(mine.named_parameters())
    for name, p in ref.named_parameters():
        assert_same(params[name].grad, p.grad, rtol=1e-4, atol=1e-5)


# ------------------------------------------------------------------------------------------ 3. / 9. hidden state
@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_rnn_input_dtype_other_than_weights(reftorch, kind):
    """1.12's kernels raise a RuntimeError; the message is 2.x's (2.x raises it as a ValueError)."""
    for weights, data in ((np.float32, np.float64), (np.float64, np.float32), (np.float32, np.int64)):
        ref = getattr(reftorch.nn, kind)(5, 6).to(getattr(reftorch, np.dtype(weights).name))
        mine = getattr(mt.nn, kind)(5, 6).to(getattr(mt, np.dtype(weights).name))
        x = np.ones((4, 3, 5), data)
        with pytest.raises(ValueError) as e_ref:
            ref(reftorch.tensor(x))
        with pytest.raises(RuntimeError) as e:
            mine(mt.tensor(x))
        assert str(e.value) == str(e_ref.value)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_rnn_hidden_dtype_other_than_input(reftorch, kind):
    mine = getattr(mt.nn, kind)(5, 6)
    h = mt.zeros(1, 3, 6, dtype=mt.float64)
    with pytest.raises(RuntimeError, match=r"hidden state dtype \(torch.float64\) does not match input dtype"):
        mine(mt.zeros(4, 3, 5), (h, h) if kind == "LSTM" else h)
    ref = getattr(reftorch.nn, kind)(5, 6)
    ht = reftorch.zeros(1, 3, 6, dtype=reftorch.float64)
    with pytest.raises(RuntimeError):
        ref(reftorch.zeros(4, 3, 5), (ht, ht) if kind == "LSTM" else ht)


def test_lstm_hidden_and_cell_size_checks(reftorch):
    ref, mine = reftorch.nn.LSTM(5, 6, 2), mt.nn.LSTM(5, 6, 2)
    x = rn(4, 3, 5)
    for hs, cs in (((2, 3, 6), (1, 3, 6)), ((2, 3, 6), (2, 3, 5)), ((2, 4, 6), (2, 4, 6)), ((1, 3, 6), (2, 3, 6))):
        h, c = rn(*hs), rn(*cs)
        err_ref = raised(lambda: ref(reftorch.tensor(x), (reftorch.tensor(h), reftorch.tensor(c))))
        assert raised(lambda: mine(mt.tensor(x), (mt.tensor(h), mt.tensor(c)))) == err_ref
    assert err_ref[1] == "Expected hidden[0] size (2, 3, 6), got [1, 3, 6]"


# ------------------------------------------------------------------------------------------------- 4. cells
@pytest.mark.parametrize("kind", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cell_input_and_hidden_checks(reftorch, kind):
    ref, mine = getattr(reftorch.nn, kind)(5, 4), getattr(mt.nn, kind)(5, 4)
    cases = [(rn(3, 5), rn(4)), (rn(5), rn(1, 4)), (rn(3, 4), rn(3, 4)), (rn(3, 5), rn(4, 4)), (rn(3, 5), rn(3, 3)),
             (rn(3, 5).astype(np.float64), rn(3, 4)), (rn(3, 5), rn(3, 4).astype(np.float64))]
    for x, h in cases:
        def run(lib, m):
            hx = lib.tensor(h)
            return m(lib.tensor(x), (hx, hx) if kind == "LSTMCell" else hx)

        err_ref = raised(lambda: run(reftorch, ref))
        assert raised(lambda: run(mt, mine)) == err_ref


def test_lstm_cell_checks_the_cell_state(reftorch):
    ref, mine = reftorch.nn.LSTMCell(5, 4), mt.nn.LSTMCell(5, 4)
    x = rn(3, 5)
    for c in (rn(2, 4), rn(3, 2)):
        err_ref = raised(lambda: ref(reftorch.tensor(x), (reftorch.tensor(rn(3, 4)), reftorch.tensor(c))))
        assert raised(lambda: mine(mt.tensor(x), (mt.tensor(rn(3, 4)), mt.tensor(c)))) == err_ref
    assert err_ref == (RuntimeError, "hidden1 has inconsistent hidden_size: got 2, expected 4")


# --------------------------------------------------------------------------------------- 5. pack_padded_sequence
def test_pack_padded_sequence_length_count(reftorch):
    x = rn(5, 4, 3)
    for lengths, es, bf in (([5, 3, 2], True, False), ([5, 3, 2, 1], True, True), ([2, 5, 1, 0], False, False),
                            ([1, 5, 2, 0], True, False), ([5, 0, 3, 2], True, False)):
        err_ref = raised(lambda: reftorch.nn.utils.rnn.pack_padded_sequence(reftorch.tensor(x), lengths, bf, es))
        assert raised(lambda: mt.nn.utils.rnn.pack_padded_sequence(mt.tensor(x), lengths, bf, es)) == err_ref
    # more lengths than batch entries, unsorted: torch's index_select of the batch fails first (1.12's CPU
    # index_select: IndexError "index out of range in self"; 2.x: RuntimeError "INDICES element is out of ...")
    assert raised(lambda: mt.nn.utils.rnn.pack_padded_sequence(mt.tensor(x), [1, 5, 2, 2, 1], False, False)) == (
        IndexError, "index out of range in self")
    # without enforce_sorted torch sorts the batch by the lengths before its count check: the entries past
    # len(lengths) are dropped
    for bf in (False, True):
        ref = reftorch.nn.utils.rnn.pack_padded_sequence(reftorch.tensor(x), [1, 4, 2], bf, False)
        mine = mt.nn.utils.rnn.pack_padded_sequence(mt.tensor(x), [1, 4, 2], bf, False)
        for a, b in zip(mine, ref):
            assert_same(a, b)


# ---------------------------------------------------------------------------------------- 6. attention shapes
def test_mha_shape_checks(reftorch):
    mine, ref = mha_pair(reftorch, 8, 2)
    q, k = rn(3, 2, 8), rn(5, 2, 8)

    def both(make_args):
        err_ref = raised(lambda: ref(*make_args(reftorch)))
        assert raised(lambda: mine(*make_args(mt))) == err_ref

    both(lambda L: (L.tensor(q), L.tensor(k), L.tensor(k), None, True, L.zeros(2, 3, 5, dtype=L.bool)))
    both(lambda L: (L.tensor(q), L.tensor(k), L.tensor(k), None, True, L.zeros(4, 3, 4, dtype=L.bool)))
    both(lambda L: (L.tensor(q), L.tensor(k), L.tensor(k), None, True, L.zeros(3, 4, dtype=L.bool)))
    # a 4-D mask: 1.12 and 2.x assert in _mha_shape_check before the "dimension 4 is not supported" check
    both(lambda L: (L.tensor(q), L.tensor(k), L.tensor(k), None, True, L.zeros(2, 2, 3, 5, dtype=L.bool)))
    both(lambda L: (L.tensor(q), L.tensor(k), L.tensor(k[:4])))
    both(lambda L: (L.tensor(q), L.tensor(k[:, 0]), L.tensor(k[:, 0])))
    both(lambda L: (L.tensor(q[:, 0]), L.tensor(k), L.tensor(k)))
    both(lambda L: (L.tensor(q[:, 0]), L.tensor(k[:, 0]), L.tensor(k[:, 0]), None, True, L.zeros(3, 3, 5)))
    # the key padding mask's shape: 1.12's message (2.x: "Expected key_padded_mask.shape[1] to be 5, but got 4")
    x = mt.tensor(q)
    for shape in ((2, 4), (1, 5)):
        with pytest.raises(AssertionError) as e:
            mine(x, mt.tensor(k), mt.tensor(k), key_padding_mask=mt.zeros(*shape, dtype=mt.bool))
        assert str(e.value) == f"expecting key_padding_mask shape of (2, 5), but got torch.Size({list(shape)})"
    with pytest.raises(AssertionError, match="expected `key_padding_mask` to be `None` or 2-D but found 1-D"):
        mine(x, x, x, key_padding_mask=mt.zeros(3, dtype=mt.bool))


def test_mha_unbatched_3d_mask(reftorch):
    mine, ref = mha_pair(reftorch, 8, 2)
    q, k = rn(3, 8), rn(5, 8)
    am = R.rand(2, 3, 5) > 0.7
    am[..., 0] = False
    out = mine(mt.tensor(q), mt.tensor(k), mt.tensor(k), attn_mask=mt.tensor(am))
    exp = ref(reftorch.tensor(q), reftorch.tensor(k), reftorch.tensor(k), attn_mask=reftorch.tensor(am))
    assert_same(out[0], exp[0], rtol=1e-5, atol=1e-6)
    assert_same(out[1], exp[1], rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------------------- 7. generate_square_subsequent_mask
def test_generate_square_subsequent_mask_dtype(reftorch):
    assert_same(mt.nn.Transformer.generate_square_subsequent_mask(4),
                reftorch.nn.Transformer.generate_square_subsequent_mask(4))
    old = mt.get_default_dtype()
    mt.set_default_dtype(mt.float64)
    try:
        m = mt.nn.Transformer.generate_square_subsequent_mask(3)  # 1.12: torch.full's default dtype
    finally:
        mt.set_default_dtype(old)
    assert_same(m, reftorch.nn.Transformer.generate_square_subsequent_mask(3, dtype=reftorch.float64))
    for dt in ("float64", "bfloat16", "float16"):
        assert_same(mt.nn.Transformer.generate_square_subsequent_mask(3, device="cpu", dtype=getattr(mt, dt)),
                    reftorch.nn.Transformer.generate_square_subsequent_mask(3, device="cpu",
                                                                            dtype=getattr(reftorch, dt)))


# ------------------------------------------------------------------------------------------- 8. RNNBase helpers
def test_rnnbase_helpers(reftorch):
    ref = reftorch.nn.LSTM(3, 4, 2, bidirectional=True, proj_size=2, batch_first=True)
    mine = mt.nn.LSTM(3, 4, 2, bidirectional=True, proj_size=2, batch_first=True)
    x = rn(5, 7, 3)
    for lib, m in ((reftorch, ref), (mt, mine)):
        m.check_input(lib.tensor(x), None)
    xt, xm = reftorch.tensor(x), mt.tensor(x)
    assert mine.get_expected_hidden_size(xm, None) == ref.get_expected_hidden_size(xt, None) == (4, 5, 2)
    assert mine.get_expected_cell_size(xm, None) == ref.get_expected_cell_size(xt, None)
    bs = [3, 2]
    assert mine.get_expected_hidden_size(xm, mt.tensor(bs)) == ref.get_expected_hidden_size(xt, reftorch.tensor(bs))
    for args in ((x[:, :, :2], None), (x, reftorch.tensor(bs)), (x[0], None)):
        err_ref = raised(lambda: ref.check_input(reftorch.tensor(args[0]), args[1]))
        bsm = None if args[1] is None else mt.tensor(args[1].numpy())
        assert raised(lambda: mine.check_input(mt.tensor(args[0]), bsm)) == err_ref
    h, c = rn(4, 5, 2), rn(3, 5, 4)
    err_ref = raised(lambda: ref.check_forward_args(xt, (reftorch.tensor(h), reftorch.tensor(c)), None))
    assert raised(lambda: mine.check_forward_args(xm, (mt.tensor(h), mt.tensor(c)), None)) == err_ref
    assert raised(lambda: mine.check_hidden_size(mt.tensor(h), (1, 2, 3), "want {} got {}")) == (
        RuntimeError, "want (1, 2, 3) got [4, 5, 2]")
    perm = np.array([2, 0, 1, 4, 3])
    c = rn(4, 5, 4)
    got = mine.permute_hidden((mt.tensor(h), mt.tensor(c)), mt.tensor(perm))
    exp = ref.permute_hidden((reftorch.tensor(h), reftorch.tensor(c)), reftorch.tensor(perm))
    assert_same(got, exp)
    hx = (mt.tensor(h), mt.tensor(c))
    assert mine.permute_hidden(hx, None) is hx
    assert mine._flat_weights_names == ref._flat_weights_names


def test_flat_weights_list_in_sync_and_assignable(reftorch):
    ref, mine = reftorch.nn.GRU(3, 4, 2), mt.nn.GRU(3, 4, 2)
    copy_state(mine, ref)
    assert isinstance(mine._flat_weights, list)
    assert all(a is getattr(mine, n) for a, n in zip(mine._flat_weights, mine._flat_weights_names))
    x = rn(5, 2, 3)
    # setattr keeps the list in sync
    new = rn(12, 4)
    ref.weight_hh_l1 = reftorch.nn.Parameter(reftorch.tensor(new))
    mine.weight_hh_l1 = mt.nn.Parameter(mt.tensor(new))
    assert mine._flat_weights[mine._flat_weights_names.index("weight_hh_l1")] is mine.weight_hh_l1
    assert_same(mine(mt.tensor(x))[0], ref(reftorch.tensor(x))[0], rtol=1e-5, atol=1e-5)
    # a list assigned to _flat_weights is what the forward uses
    ref._flat_weights = [w * 0.5 for w in ref._flat_weights]
    mine._flat_weights = [w * 0.5 for w in mine._flat_weights]
    assert_same(mine(mt.tensor(x))[0], ref(reftorch.tensor(x))[0], rtol=1e-5, atol=1e-5)
    ref._init_flat_weights()
    mine._init_flat_weights()
    assert_same(mine(mt.tensor(x))[0], ref(reftorch.tensor(x))[0], rtol=1e-5, atol=1e-5)
    mine.double()
    assert all(w.dtype == mt.float64 for w in mine._flat_weights)


def test_flat_weights_follow_weight_norm(reftorch):
    ref, mine = reftorch.nn.LSTM(3, 4), mt.nn.LSTM(3, 4)
    copy_state(mine, ref)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 2.x: weight_norm is deprecated
        ref = reftorch.nn.utils.weight_norm(ref, "weight_hh_l0")
    mine = mt.nn.utils.weight_norm(mine, "weight_hh_l0")
    with reftorch.no_grad():
        ref.weight_hh_l0_g.mul_(2.0)
    mine.weight_hh_l0_g.data = mine.weight_hh_l0_g.data * 2.0
    x = rn(4, 2, 3)
    assert_same(mine(mt.tensor(x))[0], ref(reftorch.tensor(x))[0], rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------------------------------------ 10. ranks
@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_rnn_input_rank_asserts_as_112(kind):
    """1.12 asserts; 2.x raises ValueError "LSTM: Expected input to be 2D or 3D, got 4D instead"."""
    m = getattr(mt.nn, kind)(5, 6)
    for shape in ((5,), (1, 4, 3, 5)):
        with pytest.raises(AssertionError) as e:
            m(mt.zeros(*shape))
        assert str(e.value) == f"{kind}: Expected input to be 2-D or 3-D but received {len(shape)}-D tensor"
    cell = getattr(mt.nn, kind + "Cell")(5, 6)
    with pytest.raises(AssertionError) as e:
        cell(mt.zeros(2, 3, 5))
    assert str(e.value) == f"{kind}Cell: Expected input to be 1-D or 2-D but received 3-D tensor"


def test_rnn_unbatched_and_batch_first_still_match(reftorch):
    for kw in ({"batch_first": True}, {}):
        ref, mine = reftorch.nn.LSTM(3, 4, **kw), mt.nn.LSTM(3, 4, **kw)
        copy_state(mine, ref)
        x, h, c = rn(5, 3), rn(1, 4), rn(1, 4)
        out = mine(mt.tensor(x), (mt.tensor(h), mt.tensor(c)))
        exp = ref(reftorch.tensor(x), (reftorch.tensor(h), reftorch.tensor(c)))
        assert_same(out[0], exp[0], rtol=1e-5, atol=1e-6)
        assert_same(out[1], exp[1], rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------------------- 11. PackedSequence
def test_packed_sequence_conversions(reftorch):
    x = rn(4, 3, 2)
    pt = reftorch.nn.utils.rnn.pack_padded_sequence(reftorch.tensor(x), [4, 2, 1], enforce_sorted=False)
    pm = mt.nn.utils.rnn.pack_padded_sequence(mt.tensor(x), [4, 2, 1], enforce_sorted=False)
    for name in ("half", "long", "int", "short", "char", "byte", "float", "double"):
        a, b = getattr(pm, name)(), getattr(pt, name)()
        assert type(a) is type(pm)
        assert_same(a.data, b.data, rtol=1e-3, atol=1e-3)
        assert_same(a.batch_sizes, b.batch_sizes)
        assert_same(a.sorted_indices, b.sorted_indices)
    # pin_memory: torch's error on a machine without an accelerator (pinned copies where there is one)
    assert raised(pm.pin_memory) == raised(pt.pin_memory)
    assert pm.is_pinned() is pt.is_pinned() is False


# ------------------------------------------------------------------------------------ 12. activation_relu_or_gelu
def test_activation_relu_or_gelu(reftorch):
    for act_t, act_m in (("relu", "relu"), ("gelu", "gelu"), (reftorch.nn.functional.relu, mt.nn.functional.relu),
                         (reftorch.nn.functional.gelu, mt.nn.functional.gelu), (reftorch.tanh, mt.tanh)):
        ref = reftorch.nn.TransformerEncoderLayer(8, 2, 16, activation=act_t)
        mine = mt.nn.TransformerEncoderLayer(8, 2, 16, activation=act_m)
        assert mine.activation_relu_or_gelu == ref.activation_relu_or_gelu
