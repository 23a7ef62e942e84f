"""nn layers against real PyTorch: same weights (torch's, copied through numpy) + same input -> same output,
same input and parameter gradients, in train and eval mode; same state_dict keys/shapes and the same repr."""
import mindspore as ms
import numpy as np
import pytest
from _nn_check import same

import mindtorch.torch as mt
import mindtorch.torch.nn as nn

R = np.random.RandomState(0)


def rn(*shape):
    return R.randn(*shape).astype(np.float32)


def copy_torch_state(mine, theirs):
    """Load torch's state_dict into our module through numpy; keys and shapes must match exactly."""
    sd_ref = theirs.state_dict()
    sd_mine = mine.state_dict()
    assert list(sd_mine.keys()) == list(sd_ref.keys())
    for k, v in sd_ref.items():
        assert tuple(sd_mine[k].shape) == tuple(v.shape), k
    mine.load_state_dict({k: mt.from_numpy(v.detach().numpy().copy()) for k, v in sd_ref.items()})


def repr_1_12(s):
    """torch 2.x added a `bias` argument to the norm layers and prints it; torch 1.12 (our target) does not."""
    import re

    return re.sub(r"(Norm(\dd)?\(.*?), bias=(True|False)", r"\1", s)


def run_layer(reftorch, name, args, kwargs, inputs, modes=("train", "eval"), grads=True, rtol=1e-5, atol=1e-5):
    ref_layer = getattr(reftorch.nn, name)(*args, **kwargs)
    my_layer = getattr(nn, name)(*args, **kwargs)
    assert repr(my_layer) == repr_1_12(repr(ref_layer))
    copy_torch_state(my_layer, ref_layer)
    for mode in modes:
        getattr(ref_layer, mode)()
        getattr(my_layer, mode)()
        ref_in = [reftorch.from_numpy(a.copy()).requires_grad_(grads and a.dtype == np.float32) for a in inputs]
        my_in = [mt.from_numpy(a.copy()) for a in inputs]
        out_ref = ref_layer(*ref_in)
        r0 = out_ref[0] if isinstance(out_ref, tuple) else out_ref
        params = [p for p in my_layer.parameters() if p.requires_grad]
        if grads:
            cot = np.random.RandomState(1).randn(*r0.shape).astype(np.float32)
            (r0 * reftorch.from_numpy(cot)).sum().backward()

            def loss(*xs):
                o = my_layer(*xs)
                o = o[0] if isinstance(o, tuple) else o
                return ms.ops.sum(ms.ops.mul(o, ms.Tensor(cot)))

            float_pos = tuple(i for i, a in enumerate(inputs) if a.dtype == np.float32)
            gfn = ms.grad(loss, grad_position=float_pos if float_pos else None, weights=params or None)
            g = gfn(*my_in)
            # the forward value after the grad pass (running stats were updated once by it, like torch's)
            if float_pos and params:
                gin, gw = g
            elif float_pos:
                gin, gw = g, ()
            else:
                gin, gw = (), g
            if float_pos and len(float_pos) == 1 and not isinstance(gin, tuple):
                gin = (gin,)
            for gi, i in zip(gin, float_pos):
                same(reftorch, gi, ref_in[i].grad, rtol=1e-4, atol=1e-4, check_dtype=False)
            ref_params = dict(ref_layer.named_parameters())
            for (pname, _), gp in zip([(n, p) for n, p in my_layer.named_parameters() if p.requires_grad], gw):
                same(reftorch, gp, ref_params[pname].grad, rtol=1e-4, atol=1e-4, check_dtype=False)
                ref_params[pname].grad = None
        else:
            out_mine = my_layer(*my_in)
            same(reftorch, out_mine, out_ref, rtol=rtol, atol=atol)
        for k, v in ref_layer.state_dict().items():  # buffers (running stats) evolve identically
            same(reftorch, my_layer.state_dict()[k], v, rtol=1e-5, atol=1e-5)
        if grads:  # compare the outputs too (one more forward; keep buffer updates in step with torch)
            with reftorch.no_grad():
                out_ref2 = ref_layer(*ref_in)
            out_mine2 = my_layer(*my_in)
            same(reftorch, out_mine2, out_ref2, rtol=rtol, atol=atol)


LAYERS = [
    ("Linear", (4, 3), {}, [rn(2, 5, 4)]),
    ("Linear", (4, 3), dict(bias=False), [rn(2, 4)]),
    ("Bilinear", (3, 2, 4), {}, [rn(5, 3), rn(5, 2)]),
    ("Identity", (3,), dict(x=1), [rn(2, 3)]),
    ("Flatten", (), {}, [rn(2, 3, 4, 5)]),
    ("Flatten", (0, 1), {}, [rn(2, 3, 4)]),
    ("Unflatten", (1, (2, 3)), {}, [rn(4, 6, 5)]),
    ("Conv1d", (4, 6, 3), dict(stride=2, padding=1, groups=2), [rn(2, 4, 11)]),
    ("Conv1d", (3, 2, 4), dict(padding="same", padding_mode="circular", bias=False), [rn(2, 3, 9)]),
    ("Conv2d", (3, 4, (3, 2)), dict(stride=(2, 1), padding=(1, 2), dilation=(2, 1)), [rn(2, 3, 9, 7)]),
    ("Conv2d", (3, 4, 3), dict(padding=2, padding_mode="reflect"), [rn(2, 3, 7, 6)]),
    ("Conv2d", (3, 4, 3), dict(padding=1, padding_mode="replicate", bias=False), [rn(3, 5, 6)]),
    ("Conv2d", (4, 4, 4), dict(padding="same", groups=4), [rn(1, 4, 6, 6)]),
    ("Conv3d", (2, 4, 3), dict(padding=(1, 0, 1), stride=(1, 2, 1)), [rn(1, 2, 5, 6, 4)]),
    ("MaxPool1d", (3,), dict(stride=2, padding=1, ceil_mode=True), [rn(2, 3, 10)]),
    ("MaxPool2d", (3, 2), dict(padding=1, dilation=2), [rn(2, 3, 9, 8)]),
    ("MaxPool2d", (2,), dict(return_indices=True), [rn(2, 3, 7, 6)]),
    ("MaxPool3d", (2,), dict(ceil_mode=True), [rn(1, 2, 5, 5, 3)]),
    ("AvgPool1d", (3,), dict(stride=2, padding=1, count_include_pad=False), [rn(2, 3, 10)]),
    ("AvgPool2d", (3,), dict(stride=2, padding=1, ceil_mode=True, divisor_override=4), [rn(2, 3, 9, 8)]),
    ("AvgPool3d", (2,), dict(stride=1), [rn(1, 2, 4, 4, 3)]),
    ("AdaptiveAvgPool1d", (4,), {}, [rn(2, 3, 10)]),
    ("AdaptiveAvgPool2d", ((3, None),), {}, [rn(2, 3, 7, 5)]),
    ("AdaptiveAvgPool3d", (2,), {}, [rn(1, 2, 5, 4, 3)]),
    ("AdaptiveMaxPool1d", (3,), {}, [rn(2, 3, 10)]),
    ("AdaptiveMaxPool2d", ((2, 3),), {}, [rn(2, 3, 7, 5)]),
    ("BatchNorm1d", (3,), {}, [rn(4, 3)]),
    ("BatchNorm1d", (3,), dict(momentum=None), [rn(4, 3, 5)]),
    ("BatchNorm2d", (3,), dict(affine=False), [rn(2, 3, 4, 5)]),
    ("BatchNorm2d", (3,), dict(track_running_stats=False), [rn(2, 3, 4, 5)]),
    ("BatchNorm3d", (2,), dict(momentum=0.3, eps=1e-3), [rn(2, 2, 3, 4, 2)]),
    ("SyncBatchNorm", (3,), {}, [rn(2, 3, 4)]),
    ("LayerNorm", ((3, 4),), {}, [rn(2, 3, 4)]),
    ("LayerNorm", (4,), dict(elementwise_affine=False, eps=1e-3), [rn(2, 3, 4)]),
    ("GroupNorm", (2, 4), {}, [rn(2, 4, 3, 3)]),
    ("GroupNorm", (4, 4), dict(affine=False), [rn(2, 4, 5)]),
    ("InstanceNorm1d", (3,), {}, [rn(2, 3, 6)]),
    ("InstanceNorm2d", (3,), dict(affine=True, track_running_stats=True), [rn(2, 3, 4, 5)]),
    ("LocalResponseNorm", (3,), {}, [rn(2, 5, 4, 3)]),
    ("Dropout", (0.0,), {}, [rn(3, 4)]),
    ("Dropout2d", (0.0,), {}, [rn(2, 3, 4, 4)]),
    ("ReLU", (), {}, [rn(3, 4)]),
    ("ReLU6", (), {}, [rn(3, 4) * 5]),
    ("LeakyReLU", (0.2,), {}, [rn(3, 4)]),
    ("PReLU", (), {}, [rn(2, 3, 4)]),
    ("PReLU", (3,), dict(init=0.1), [rn(2, 3, 4)]),
    ("ELU", (0.5,), {}, [rn(3, 4)]),
    ("SELU", (), {}, [rn(3, 4)]),
    ("CELU", (2.0,), {}, [rn(3, 4)]),
    ("GELU", (), {}, [rn(3, 4)]),
    ("GELU", ("tanh",), {}, [rn(3, 4)]),
    ("SiLU", (), {}, [rn(3, 4)]),
    ("Mish", (), {}, [rn(3, 4)]),
    ("Sigmoid", (), {}, [rn(3, 4)]),
    ("Tanh", (), {}, [rn(3, 4)]),
    ("Softmax", (1,), {}, [rn(3, 4)]),
    ("LogSoftmax", (0,), {}, [rn(3, 4)]),
    ("Softmin", (1,), {}, [rn(3, 4)]),
    ("Softmax2d", (), {}, [rn(2, 3, 2, 2)]),
    ("Softplus", (2.0, 3.0), {}, [rn(3, 4) * 3]),
    ("Softsign", (), {}, [rn(3, 4)]),
    ("Hardtanh", (-0.5, 0.5), {}, [rn(3, 4)]),
    ("Hardswish", (), {}, [rn(3, 4) * 4]),
    ("Hardsigmoid", (), {}, [rn(3, 4) * 4]),
    ("Hardshrink", (0.3,), {}, [rn(3, 4)]),
    ("Softshrink", (0.3,), {}, [rn(3, 4)]),
    ("Tanhshrink", (), {}, [rn(3, 4)]),
    ("Threshold", (0.1, 20.0), {}, [rn(3, 4)]),
    ("GLU", (), {}, [rn(3, 4)]),
    ("LogSigmoid", (), {}, [rn(3, 4)]),
    ("Embedding", (10, 3), dict(padding_idx=2), [np.array([[1, 2, 3], [2, 9, 0]], np.int64)]),
    ("Embedding", (10, 3), {}, [np.array([4, 4, 1], np.int64)]),
    ("ZeroPad2d", ((1, 2, 0, 1),), {}, [rn(2, 3, 4, 4)]),
    ("ConstantPad1d", (2, 3.5), {}, [rn(2, 3, 4)]),
    ("ConstantPad3d", ((1, 0, 1, 0, 0, 2), -1.0), {}, [rn(1, 2, 3, 3, 3)]),
    ("ReflectionPad1d", (2,), {}, [rn(2, 3, 4)]),
    ("ReflectionPad2d", ((1, 2, 2, 1),), {}, [rn(2, 3, 4, 4)]),
    ("ReflectionPad3d", (1,), {}, [rn(1, 2, 3, 3, 3)]),
    ("ReplicationPad1d", ((3, 1),), {}, [rn(2, 3, 4)]),
    ("ReplicationPad2d", (2,), {}, [rn(2, 3, 4, 4)]),
    ("ReplicationPad3d", ((1, 0, 2, 0, 0, 1),), {}, [rn(1, 2, 3, 3, 3)]),
    ("PixelShuffle", (2,), {}, [rn(2, 8, 3, 3)]),
    ("PixelUnshuffle", (2,), {}, [rn(2, 2, 4, 4)]),
    ("Upsample", (), dict(scale_factor=2, mode="nearest"), [rn(2, 3, 3, 4)]),
    ("Upsample", (), dict(size=(5, 7), mode="bilinear", align_corners=True), [rn(2, 3, 3, 4)]),
    ("UpsamplingBilinear2d", (), dict(scale_factor=2), [rn(2, 3, 3, 4)]),
    ("UpsamplingNearest2d", (), dict(size=5), [rn(2, 3, 3, 4)]),
    ("CosineSimilarity", (), {}, [rn(3, 5), rn(3, 5)]),
    ("PairwiseDistance", (), dict(p=1.5), [rn(3, 5), rn(3, 5)]),
    ("Fold", (), dict(output_size=(4, 5), kernel_size=2), [rn(2, 12, 12)]),
    ("Unfold", (), dict(kernel_size=(2, 3), padding=1), [rn(2, 3, 4, 5)]),
    ("ConvTranspose1d", (4, 6, 3), dict(stride=2, padding=1, output_padding=1, groups=2), [rn(2, 4, 5)]),
    ("ConvTranspose2d", (3, 2, (3, 2)), dict(stride=2, dilation=(1, 2), bias=False), [rn(2, 3, 4, 3)]),
    ("ConvTranspose3d", (2, 3, 2), dict(stride=(2, 1, 1), padding=(0, 1, 0)), [rn(1, 2, 3, 3, 2)]),
    ("LPPool1d", (2, 3), dict(stride=2), [np.abs(rn(2, 3, 9)) + 0.1]),
    ("LPPool2d", (3, (2, 2)), {}, [np.abs(rn(2, 3, 6, 4)) + 0.1]),
    ("InstanceNorm3d", (2,), dict(affine=True), [rn(2, 2, 3, 3, 2)]),
    ("InstanceNorm1d", (3,), dict(track_running_stats=True), [rn(3, 6)]),
    ("AlphaDropout", (0.0,), {}, [rn(3, 4)]),
    ("EmbeddingBag", (10, 3), dict(mode="sum"), [np.array([[1, 2, 3], [2, 9, 0]], np.int64)]),
    ("EmbeddingBag", (10, 3), dict(mode="max"), [np.array([[1, 2, 3], [2, 9, 0]], np.int64)]),
    ("MultiheadAttention", (8, 2), {}, [rn(4, 2, 8), rn(5, 2, 8), rn(5, 2, 8)]),
    ("MultiheadAttention", (8, 2), dict(batch_first=True, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True),
     [rn(2, 4, 8), rn(2, 5, 3), rn(2, 5, 5)]),
    ("TransformerEncoderLayer", (8, 2, 16, 0.0), dict(norm_first=True, activation="gelu"), [rn(5, 2, 8)]),
    ("TransformerDecoderLayer", (8, 2, 16, 0.0), dict(batch_first=True), [rn(2, 4, 8), rn(2, 5, 8)]),
    ("Transformer", (8, 2, 1, 1, 16, 0.0), {}, [rn(5, 2, 8), rn(4, 2, 8)]),
]


@pytest.mark.parametrize("case", LAYERS, ids=[f"{c[0]}-{i}" for i, c in enumerate(LAYERS)])
def test_layer_matches_torch(reftorch, case):
    name, args, kwargs, inputs = case
    run_layer(reftorch, name, args, kwargs, inputs)


def test_rrelu_training_slopes_in_range(reftorch):
    run_layer(reftorch, "RReLU", (), {}, [rn(3, 4)], modes=("eval",))  # training mode is random
    x = mt.from_numpy(-np.ones((50, 40), np.float32))
    out = ms.Tensor.asnumpy(nn.RReLU(0.1, 0.3)(x))
    assert np.all((out <= -0.1 + 1e-6) & (out >= -0.3 - 1e-6)) and out.std() > 0.01


def test_multihead_attention_masks(reftorch):
    ref = reftorch.nn.MultiheadAttention(8, 4, batch_first=True)
    mine = nn.MultiheadAttention(8, 4, batch_first=True)
    copy_torch_state(mine, ref)
    q = rn(2, 3, 8)
    kv = rn(2, 5, 8)
    kpm = np.zeros((2, 5), np.bool_)
    kpm[0, 3:] = True
    am = np.triu(np.ones((3, 5), np.bool_), 3)
    fam = rn(2 * 4, 3, 5)
    for kw_r, kw_m in [
        (dict(key_padding_mask=reftorch.from_numpy(kpm), attn_mask=reftorch.from_numpy(am)),
         dict(key_padding_mask=mt.from_numpy(kpm), attn_mask=mt.from_numpy(am))),
        (dict(attn_mask=reftorch.from_numpy(fam), average_attn_weights=False),
         dict(attn_mask=mt.from_numpy(fam), average_attn_weights=False)),
    ]:
        out_r = ref(reftorch.from_numpy(q), reftorch.from_numpy(kv), reftorch.from_numpy(kv), **kw_r)
        out_m = mine(mt.from_numpy(q), mt.from_numpy(kv), mt.from_numpy(kv), **kw_m)
        same(reftorch, out_m, out_r, rtol=1e-5, atol=1e-5)
    out_m = mine(mt.from_numpy(q), mt.from_numpy(kv), mt.from_numpy(kv), need_weights=False)
    assert out_m[1] is None


def test_max_unpool(reftorch):
    x = rn(2, 3, 6, 5)
    pool_r = reftorch.nn.MaxPool2d(2, return_indices=True)
    pool_m = nn.MaxPool2d(2, return_indices=True)
    out_r, idx_r = pool_r(reftorch.from_numpy(x))
    out_m, idx_m = pool_m(mt.from_numpy(x))
    same(reftorch, idx_m, idx_r)
    same(reftorch, nn.MaxUnpool2d(2)(out_m, idx_m, output_size=[6, 5]),
         reftorch.nn.MaxUnpool2d(2)(out_r, idx_r, output_size=[6, 5]))
    x1 = rn(2, 3, 8)
    o_r, i_r = reftorch.nn.functional.max_pool1d(reftorch.from_numpy(x1), 2, return_indices=True)
    o_m, i_m = nn.functional.max_pool1d(mt.from_numpy(x1), 2, return_indices=True)
    same(reftorch, nn.MaxUnpool1d(2)(o_m, i_m), reftorch.nn.MaxUnpool1d(2)(o_r, i_r))


def test_embedding_bag_offsets(reftorch):
    ref = reftorch.nn.EmbeddingBag(10, 3, mode="mean")
    mine = nn.EmbeddingBag(10, 3, mode="mean")
    assert repr(mine) == repr(ref)
    copy_torch_state(mine, ref)
    inp = np.array([1, 2, 4, 5, 4, 3, 2, 9], np.int64)
    off = np.array([0, 4, 5], np.int64)
    same(reftorch, mine(mt.from_numpy(inp), mt.from_numpy(off)),
         ref(reftorch.from_numpy(inp), reftorch.from_numpy(off)))
    ref_s = reftorch.nn.EmbeddingBag(10, 3, mode="sum")
    mine_s = nn.EmbeddingBag(10, 3, mode="sum")
    copy_torch_state(mine_s, ref_s)
    w = R.rand(8).astype(np.float32)
    same(reftorch, mine_s(mt.from_numpy(inp), mt.from_numpy(off), per_sample_weights=mt.from_numpy(w)),
         ref_s(reftorch.from_numpy(inp), reftorch.from_numpy(off), per_sample_weights=reftorch.from_numpy(w)))


def test_channel_shuffle(reftorch):
    # torch's ChannelShuffle has no autograd kernel on CPU: compare outputs only
    run_layer(reftorch, "ChannelShuffle", (3,), {}, [rn(2, 6, 2, 2)], grads=False)


@pytest.mark.parametrize("name,args,kwargs", [
    ("Conv2d", (3, 8, 3), {}), ("Linear", (20, 7), {}), ("Conv1d", (4, 6, 5), dict(groups=2)),
    ("Embedding", (50, 8), {}), ("PReLU", (), {}), ("Bilinear", (5, 6, 7), {}),
])
def test_default_init_distribution(reftorch, name, args, kwargs):
    """Default initialisation draws from torch's distributions (compare range and spread with torch's)."""
    mine = getattr(nn, name)(*args, **kwargs)
    ref = getattr(reftorch.nn, name)(*args, **kwargs)
    for (k, p), (k2, q) in zip(mine.named_parameters(), ref.named_parameters()):
        assert k == k2
        a = ms.Tensor.asnumpy(p)
        b = q.detach().numpy()
        assert a.shape == b.shape
        if b.std() == 0:
            np.testing.assert_array_equal(a, b)
            continue
        # similar spread (large tensors only: sampling noise) and the same range
        if b.size >= 100:
            assert abs(a.std() - b.std()) < 0.2 * b.std(), (k, a.std(), b.std())
        assert np.abs(a).max() <= max(np.abs(b).max() * 1.5, 5 * b.std())


def test_embedding_from_pretrained_and_max_norm(reftorch):
    w = rn(6, 4) * 3
    idx = np.array([[0, 2], [5, 2]], np.int64)
    mine = nn.Embedding.from_pretrained(mt.from_numpy(w.copy()), max_norm=1.0)
    ref = reftorch.nn.Embedding.from_pretrained(reftorch.from_numpy(w.copy()), max_norm=1.0)
    assert repr(mine) == repr(ref)
    assert mine.weight.requires_grad is False
    same(reftorch, mine(mt.from_numpy(idx)), ref(reftorch.from_numpy(idx)))
    same(reftorch, mine.weight, ref.weight.detach())  # rows renormalised in place, as torch


def test_embedding_padding_idx_row_is_zero_and_gets_no_grad(reftorch):
    emb = nn.Embedding(5, 3, padding_idx=1)
    assert np.all(ms.Tensor.asnumpy(emb.weight)[1] == 0)
    idx = mt.from_numpy(np.array([1, 1, 2], np.int64))
    g = ms.grad(lambda i: ms.ops.sum(emb(i)), grad_position=None, weights=[emb.weight])(idx)[0]
    g = ms.Tensor.asnumpy(g)
    assert np.all(g[1] == 0) and np.all(g[2] == 1)


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_dropout_train_eval(reftorch, p):
    x = mt.from_numpy(np.ones((200, 50), np.float32))
    d = nn.Dropout(p)
    out = ms.Tensor.asnumpy(d(x))
    if p == 0.0:
        np.testing.assert_array_equal(out, 1)
    elif p == 1.0:
        np.testing.assert_array_equal(out, 0)
    else:
        kept = out != 0
        assert abs(kept.mean() - (1 - p)) < 0.03
        np.testing.assert_allclose(out[kept], 1 / (1 - p), rtol=1e-6)
    d.eval()
    np.testing.assert_array_equal(ms.Tensor.asnumpy(d(x)), 1)


def test_dropout2d_zeroes_whole_channels():
    x = mt.from_numpy(np.ones((8, 30, 4, 4), np.float32))
    out = ms.Tensor.asnumpy(nn.Dropout2d(0.5)(x))
    per_channel = out.reshape(8, 30, -1)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2).all(-1))
    assert 0.3 < (per_channel == 0).all(-1).mean() < 0.7


def test_bad_args_raise_like_torch(reftorch):
    for make in (lambda m: m.Conv2d(3, 4, 3, groups=2), lambda m: m.Conv2d(3, 3, 3, padding="same", stride=2),
                 lambda m: m.Conv2d(3, 3, 3, padding_mode="foo"), lambda m: m.GroupNorm(3, 4),
                 lambda m: m.Dropout(1.5)):
        with pytest.raises(ValueError):
            make(reftorch.nn)
        with pytest.raises(ValueError):
            make(nn)
    bn = nn.BatchNorm2d(3)
    with pytest.raises(ValueError):
        bn(mt.from_numpy(rn(2, 3, 4)))
    with pytest.raises(RuntimeError):
        nn.Conv2d(4, 2, 3)(mt.from_numpy(rn(1, 3, 5, 5)))
    with pytest.raises(RuntimeError):
        reftorch.nn.Conv2d(4, 2, 3)(reftorch.from_numpy(rn(1, 3, 5, 5)))


RNN_CASES = [
    ("RNN", (3, 4), {}, False),
    ("RNN", (3, 4, 2), dict(nonlinearity="relu", bias=False, batch_first=True), False),
    ("LSTM", (3, 4), {}, False),
    ("LSTM", (3, 5, 2), dict(bidirectional=True, batch_first=True), True),
    ("LSTM", (3, 5), dict(proj_size=2), True),
    ("LSTM", (3, 4, 2), dict(bias=False, bidirectional=True), True),  # 2 fused layers, no bias
    ("GRU", (3, 4, 2), dict(bidirectional=True), True),
]


def _to_ref_hx(reftorch, hx):
    if isinstance(hx, tuple):
        return tuple(reftorch.from_numpy(h.copy()) for h in hx)
    return reftorch.from_numpy(hx.copy())


@pytest.mark.parametrize("case", RNN_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(RNN_CASES)])
def test_rnn_matches_torch(reftorch, case):
    name, args, kwargs, with_hx = case
    ref = getattr(reftorch.nn, name)(*args, **kwargs)
    mine = getattr(nn, name)(*args, **kwargs)
    assert repr(mine) == repr(ref)
    copy_torch_state(mine, ref)
    T, B = 5, 3
    x = rn(B, T, args[0]) if kwargs.get("batch_first") else rn(T, B, args[0])
    D = 2 if kwargs.get("bidirectional") else 1
    L = args[2] if len(args) > 2 else 1
    hout = kwargs.get("proj_size") or args[1]
    hx = None
    if with_hx:
        hx = rn(L * D, B, hout)
        if name == "LSTM":
            hx = (hx, rn(L * D, B, args[1]))
    rx = reftorch.from_numpy(x.copy()).requires_grad_(True)
    out_ref, h_ref = ref(rx, None if hx is None else _to_ref_hx(reftorch, hx))
    my_hx = None if hx is None else (tuple(mt.from_numpy(h.copy()) for h in hx) if isinstance(hx, tuple)
                                     else mt.from_numpy(hx.copy()))
    out_mine, h_mine = mine(mt.from_numpy(x.copy()), my_hx)
    same(reftorch, out_mine, out_ref, rtol=1e-5, atol=1e-5)
    same(reftorch, h_mine, h_ref, rtol=1e-5, atol=1e-5)
    # gradients w.r.t. input and every weight
    cot = np.random.RandomState(2).randn(*out_ref.shape).astype(np.float32)
    (out_ref * reftorch.from_numpy(cot)).sum().backward()
    params = list(mine.parameters())
    g_in, g_w = ms.grad(lambda a: ms.ops.sum(ms.ops.mul(mine(a, my_hx)[0], ms.Tensor(cot))), grad_position=0,
                        weights=params)(mt.from_numpy(x.copy()))
    same(reftorch, g_in, rx.grad, rtol=1e-4, atol=1e-4)
    ref_params = dict(ref.named_parameters())
    for (n, _), g in zip(mine.named_parameters(), g_w):
        same(reftorch, g, ref_params[n].grad, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("reverse", [False, True])
def test_fused_lstm_layer_equals_the_loop(reverse):
    """The CPU entry of `_rnn_layer` (MindSpore's fused LSTM kernel) in float32 against the default entry (the
    Python loop over time steps) run in float64 as the exact reference: values and gradients of every input.
    float64 itself falls back to the loop on CPU (the fused kernel is float32 only)."""
    from mindtorch.torch._ops._registry import TABLE

    impls = TABLE["_rnn_layer"].impls
    fused, loop = impls["CPU"], impls["default"]
    T, B, I, H = 6, 3, 4, 5
    raw = [rn(*s) for s in ((T, B, I), (B, H), (B, H), (4 * H, I), (4 * H, H), (4 * H,), (4 * H,))]

    def run(f, dtype):
        args = [mt.from_numpy(a.astype(dtype)) for a in raw]
        outs = [o.asnumpy().astype(np.float64) for o in f("LSTM", *args, reverse)]

        def loss(*xs):
            return sum(ms.ops.sum(ms.ops.mul(o, o)) for o in f("LSTM", *xs, reverse))

        grads = ms.grad(loss, grad_position=tuple(range(7)))(*args)
        return outs + [g.asnumpy().astype(np.float64) for g in grads]

    for got, want in zip(run(fused, np.float32), run(loop, np.float64)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    for got, want in zip(run(fused, np.float64), run(loop, np.float64)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_leaf_gradient_routed_twice_backward(reftorch):
    """`x * w + b` with leaves w, b: add's backward hands one gradient tensor to b and to the mul. MindSpore 2.10
    clones it with a kernel CPU lacks ("The kernel Clone unregistered"); the leaf hook must avoid that."""
    xs = [rn(3, 5) for _ in range(3)]
    got = [mt.from_numpy(a.copy()).requires_grad_(i > 0) for i, a in enumerate(xs)]
    want = [reftorch.from_numpy(a.copy()).requires_grad_(i > 0) for i, a in enumerate(xs)]
    for T, (x, w, b) in ((mt, got), (reftorch, want)):
        (T.cat([x * w + b, b + w])[1:] ** 2).sum().backward()
    same(reftorch, got[1].grad, want[1].grad)
    same(reftorch, got[2].grad, want[2].grad)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
def test_rnn_cells_match_torch(reftorch, name):
    ref = getattr(reftorch.nn, name)(3, 4)
    mine = getattr(nn, name)(3, 4)
    assert repr(mine) == repr(ref)
    copy_torch_state(mine, ref)
    x = rn(2, 3)
    h = rn(2, 4)
    hx = (h, rn(2, 4)) if name == "LSTMCell" else h
    out_ref = ref(reftorch.from_numpy(x), _to_ref_hx(reftorch, hx))
    my_hx = tuple(mt.from_numpy(a) for a in hx) if isinstance(hx, tuple) else mt.from_numpy(hx)
    same(reftorch, mine(mt.from_numpy(x), my_hx), out_ref)
    same(reftorch, mine(mt.from_numpy(x[0])), ref(reftorch.from_numpy(x[0])))  # unbatched, zero state


@pytest.mark.parametrize("name", ["LSTM", "GRU"])
def test_rnn_packed_sequences(reftorch, name):
    ref = getattr(reftorch.nn, name)(3, 4, num_layers=2, bidirectional=True)
    mine = getattr(nn, name)(3, 4, num_layers=2, bidirectional=True)
    copy_torch_state(mine, ref)
    lengths = [3, 5, 2]
    x = rn(5, 3, 3)
    pr = reftorch.nn.utils.rnn.pack_padded_sequence(reftorch.from_numpy(x), lengths, enforce_sorted=False)
    pm = nn.utils.rnn.pack_padded_sequence(mt.from_numpy(x), lengths, enforce_sorted=False)
    same(reftorch, pm.data, pr.data)
    same(reftorch, pm.batch_sizes, pr.batch_sizes)
    same(reftorch, pm.sorted_indices, pr.sorted_indices)
    out_r, h_r = ref(pr)
    out_m, h_m = mine(pm)
    same(reftorch, out_m.data, out_r.data, rtol=1e-5, atol=1e-5)
    same(reftorch, h_m, h_r, rtol=1e-5, atol=1e-5)
    pad_r, len_r = reftorch.nn.utils.rnn.pad_packed_sequence(out_r, batch_first=True)
    pad_m, len_m = nn.utils.rnn.pad_packed_sequence(out_m, batch_first=True)
    same(reftorch, pad_m, pad_r, rtol=1e-5, atol=1e-5)
    same(reftorch, len_m, len_r)


def test_pad_and_pack_sequence(reftorch):
    seqs = [rn(4, 2), rn(2, 2), rn(3, 2)]
    same(reftorch, nn.utils.rnn.pad_sequence([mt.from_numpy(s) for s in seqs], batch_first=True, padding_value=-1),
         reftorch.nn.utils.rnn.pad_sequence([reftorch.from_numpy(s) for s in seqs], batch_first=True,
                                            padding_value=-1))
    pm = nn.utils.rnn.pack_sequence([mt.from_numpy(s) for s in seqs], enforce_sorted=False)
    pr = reftorch.nn.utils.rnn.pack_sequence([reftorch.from_numpy(s) for s in seqs], enforce_sorted=False)
    same(reftorch, pm.data, pr.data)
    with pytest.raises(RuntimeError):
        nn.utils.rnn.pack_sequence([mt.from_numpy(s) for s in seqs], enforce_sorted=True)


def test_nn_utils_is_torch_nn_utils():
    assert hasattr(nn.utils, "rnn") and hasattr(nn.utils.rnn, "pack_padded_sequence")


def test_conv_tbc_and_with_indices(reftorch):
    from _nn_check import check_fn

    check_fn(reftorch, lambda x, w, b: nn.functional.conv_tbc(x, w, b, 1),
             lambda x, w, b: reftorch.nn.functional.conv_tbc(x, w, b, 1), [rn(6, 2, 3), rn(3, 3, 4), rn(4)],
             (0, 1, 2))
    check_fn(reftorch, lambda x: nn.functional.adaptive_max_pool2d_with_indices(x, 3),
             lambda x: reftorch.nn.functional.adaptive_max_pool2d_with_indices(x, 3), [rn(2, 3, 7, 5)])


@pytest.mark.parametrize("head_bias", [False, True])
def test_adaptive_log_softmax_with_loss(reftorch, head_bias):
    ref = reftorch.nn.AdaptiveLogSoftmaxWithLoss(8, 12, [4, 9], div_value=2.0, head_bias=head_bias)
    mine = nn.AdaptiveLogSoftmaxWithLoss(8, 12, [4, 9], div_value=2.0, head_bias=head_bias)
    sd = ref.state_dict()
    assert list(mine.state_dict()) == list(sd)
    mine.load_state_dict({k: mt.from_numpy(v.numpy().copy()) for k, v in sd.items()})
    x = np.random.RandomState(0).randn(6, 8).astype(np.float32)
    target = np.array([0, 5, 11, 3, 9, 4], np.int64)
    xr, xm = reftorch.tensor(x, requires_grad=True), mt.tensor(x, requires_grad=True)
    out_r, out_m = ref(xr, reftorch.from_numpy(target)), mine(xm, mt.from_numpy(target))
    same(reftorch, out_m.output, out_r.output.detach(), rtol=1e-5, atol=1e-6)
    same(reftorch, out_m.loss, out_r.loss.detach(), rtol=1e-5, atol=1e-6)
    out_r.loss.backward()
    out_m.loss.backward()
    same(reftorch, xm.grad, xr.grad, rtol=1e-4, atol=1e-6)
    for (n, p), (_, r) in zip(mine.named_parameters(), ref.named_parameters()):
        same(reftorch, p.grad, r.grad, rtol=1e-4, atol=1e-6)
    with reftorch.no_grad():
        same(reftorch, mine.log_prob(xm), ref.log_prob(xr), rtol=1e-5, atol=1e-6)
        assert mine.predict(xm).tolist() == ref.predict(xr).tolist()
        one = mine(xm[0], mt.tensor(5))
        assert tuple(one.output.shape) == tuple(ref(xr[0], reftorch.tensor(5)).output.shape) == ()
    with pytest.raises(RuntimeError, match="Target values should be in"):
        mine(xm, mt.tensor([0, 1, 2, 3, 4, 12]))
    with pytest.raises(ValueError, match="cutoffs"):
        nn.AdaptiveLogSoftmaxWithLoss(8, 12, [9, 4])
