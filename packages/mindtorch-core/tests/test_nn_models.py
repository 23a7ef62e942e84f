"""Small models written as plain torch code (the same class text, executed once with real torch and once with
mindtorch as `torch`) produce torch's outputs and gradients given torch's weights."""
import math
import textwrap

import mindspore as ms
import numpy as np
import pytest
from _nn_check import same

import mindtorch.torch as mt
import mindtorch.torch.nn  # noqa: F401  (binds mt.nn)

MODELS = textwrap.dedent('''
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class BasicBlock(nn.Module):
        expansion = 1

        def __init__(self, inplanes, planes, stride=1):
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.downsample = None
            if stride != 1 or inplanes != planes:
                self.downsample = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride, bias=False),
                                                nn.BatchNorm2d(planes))

        def forward(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            return F.relu(out + identity)


    class TinyResNet(nn.Module):
        def __init__(self, num_classes=5):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, 3, 1, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(8)
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            self.layer1 = nn.Sequential(BasicBlock(8, 8), BasicBlock(8, 8))
            self.layer2 = nn.Sequential(BasicBlock(8, 16, 2), BasicBlock(16, 16))
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(16, num_classes)

        def forward(self, x):
            x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
            x = self.layer2(self.layer1(x))
            x = torch.flatten(self.avgpool(x), 1)
            return self.fc(x)


    class LSTMTagger(nn.Module):
        def __init__(self, vocab, emb, hidden, tags):
            super().__init__()
            self.embed = nn.Embedding(vocab, emb, padding_idx=0)
            self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True, bidirectional=True)
            self.head = nn.Linear(2 * hidden, tags)

        def forward(self, tokens):
            out, _ = self.lstm(self.embed(tokens))
            return F.log_softmax(self.head(out), dim=-1)


    class TinyTransformer(nn.Module):
        def __init__(self, vocab=11, d=16, heads=4, layers=2, classes=3):
            super().__init__()
            self.embed = nn.Embedding(vocab, d)
            layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=32, dropout=0.0, batch_first=True,
                                               activation="gelu")
            self.encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(d))
            self.cls = nn.Linear(d, classes)

        def forward(self, tokens, pad_mask):
            h = self.encoder(self.embed(tokens), src_key_padding_mask=pad_mask)
            return self.cls(h[:, 0])  # padded positions differ in torch's eval fast path (nested tensors)


    class CausalSelfAttention(nn.Module):  # nanoGPT's, with the explicit masked softmax
        def __init__(self, d, heads, block):
            super().__init__()
            self.c_attn = nn.Linear(d, 3 * d)
            self.c_proj = nn.Linear(d, d)
            self.heads, self.d = heads, d
            self.register_buffer("bias", torch.tril(torch.ones(block, block)).view(1, 1, block, block))

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(self.d, dim=2)
            q, k, v = [t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v)]
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            y = F.softmax(att, dim=-1) @ v
            return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


    class GPTBlock(nn.Module):
        def __init__(self, d, heads, block):
            super().__init__()
            self.ln_1, self.attn = nn.LayerNorm(d), CausalSelfAttention(d, heads, block)
            self.ln_2 = nn.LayerNorm(d)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))


    class GPT(nn.Module):
        def __init__(self, vocab=50, block=16, layers=2, heads=2, d=32):
            super().__init__()
            self.block = block
            self.transformer = nn.ModuleDict(dict(
                wte=nn.Embedding(vocab, d), wpe=nn.Embedding(block, d),
                h=nn.ModuleList([GPTBlock(d, heads, block) for _ in range(layers)]), ln_f=nn.LayerNorm(d)))
            self.lm_head = nn.Linear(d, vocab, bias=False)
            self.transformer.wte.weight = self.lm_head.weight  # weight tying

        def forward(self, idx, targets=None):
            pos = torch.arange(0, idx.size(1), dtype=torch.long, device=idx.device).unsqueeze(0)
            x = self.transformer.wte(idx) + self.transformer.wpe(pos)
            for blk in self.transformer.h:
                x = blk(x)
            logits = self.lm_head(self.transformer.ln_f(x))
            if targets is None:
                return logits, None
            return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)

        def configure_optimizers(self, weight_decay, lr, betas):
            params = [p for p in self.parameters() if p.requires_grad]
            groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": weight_decay},
                      {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
            return torch.optim.AdamW(groups, lr=lr, betas=betas)

        @torch.no_grad()
        def generate(self, idx, new_tokens, top_k):
            for _ in range(new_tokens):
                logits, _ = self(idx[:, -self.block:])
                logits = logits[:, -1, :]
                v, _ = torch.topk(logits, top_k)
                logits[logits < v[:, [-1]]] = -float("Inf")
                idx = torch.cat((idx, torch.argmax(F.softmax(logits, dim=-1), dim=-1, keepdim=True)), dim=1)
            return idx
''')


def build(torch_module, name, *args):
    ns = {}
    code = MODELS.replace("import torch\n", "").replace("import torch.nn as nn\n", "").replace(
        "import torch.nn.functional as F\n", "")
    ns.update(torch=torch_module, nn=torch_module.nn, F=torch_module.nn.functional, math=math)
    exec(compile(code, "<models>", "exec"), ns)
    return ns[name](*args)


def load_from_torch(mine, ref):
    sd = ref.state_dict()
    assert list(mine.state_dict().keys()) == list(sd.keys())
    mine.load_state_dict({k: mt.from_numpy(v.detach().numpy().copy()) for k, v in sd.items()})


def grads_match(reftorch, mine, ref, inputs_mine, inputs_ref, out_ref):
    cot = np.random.RandomState(3).randn(*out_ref.shape).astype(np.float32)
    (out_ref * reftorch.from_numpy(cot)).sum().backward()
    params = [p for p in mine.parameters() if p.requires_grad]
    g = ms.grad(lambda *a: ms.ops.sum(ms.ops.mul(mine(*a), ms.Tensor(cot))), grad_position=None,
                weights=params)(*inputs_mine)
    ref_params = dict(ref.named_parameters())
    for (n, _), gp in zip([(n, p) for n, p in mine.named_parameters() if p.requires_grad], g):
        same(reftorch, gp, ref_params[n].grad, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("mode", ["train", "eval"])
def test_resnet_blocks(reftorch, mode):
    reftorch.manual_seed(0)
    ref = build(reftorch, "TinyResNet")
    mine = build(mt, "TinyResNet")
    load_from_torch(mine, ref)
    getattr(ref, mode)()
    getattr(mine, mode)()
    x = np.random.RandomState(0).randn(2, 3, 16, 16).astype(np.float32)
    out_ref = ref(reftorch.from_numpy(x))
    if mode == "train":
        grads_match(reftorch, mine, ref, [mt.from_numpy(x)], None, out_ref)
        # the grad pass ran one forward: running stats were updated exactly once, like torch's
        for k, v in ref.state_dict().items():
            same(reftorch, mine.state_dict()[k], v, rtol=1e-4, atol=1e-5)
    else:
        same(reftorch, mine(mt.from_numpy(x)), out_ref, rtol=1e-4, atol=1e-5)


def test_lstm_tagger(reftorch):
    ref = build(reftorch, "LSTMTagger", 20, 6, 5, 4)
    mine = build(mt, "LSTMTagger", 20, 6, 5, 4)
    load_from_torch(mine, ref)
    tokens = np.random.RandomState(1).randint(0, 20, size=(3, 7)).astype(np.int64)
    out_ref = ref(reftorch.from_numpy(tokens))
    same(reftorch, mine(mt.from_numpy(tokens)), out_ref, rtol=1e-4, atol=1e-5)
    grads_match(reftorch, mine, ref, [mt.from_numpy(tokens)], None, out_ref)


def test_transformer_encoder(reftorch):
    ref = build(reftorch, "TinyTransformer")
    mine = build(mt, "TinyTransformer")
    load_from_torch(mine, ref)
    ref.eval()
    mine.eval()
    tokens = np.random.RandomState(2).randint(0, 11, size=(2, 6)).astype(np.int64)
    pad = np.zeros((2, 6), np.bool_)
    pad[1, 4:] = True
    with reftorch.no_grad():
        out_ref = ref(reftorch.from_numpy(tokens), reftorch.from_numpy(pad))
    same(reftorch, mine(mt.from_numpy(tokens), mt.from_numpy(pad)), out_ref, rtol=1e-4, atol=1e-5)
    ref.train()
    mine.train()  # dropout=0.0: train mode is deterministic, compare gradients
    out_ref = ref(reftorch.from_numpy(tokens), reftorch.from_numpy(pad))
    grads_match(reftorch, mine, ref, [mt.from_numpy(tokens), mt.from_numpy(pad)], None, out_ref)


def test_grads_on_the_cpp_tape_equal_value_and_grad():
    """The layers are differentiable on MindSpore's C++ tape (the loss.backward() path) too, with the same
    gradients as the functional `mindspore.grad` path."""
    from mindtorch.torch import _ms

    nn, F = mt.nn, mt.nn.functional
    m = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect"), nn.BatchNorm2d(4), nn.ReLU(),
                      nn.MaxPool2d(2), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(16, 5), nn.LayerNorm(5))
    x = mt.from_numpy(np.random.RandomState(4).randn(2, 3, 8, 8).astype(np.float32))
    t = mt.from_numpy(np.array([1, 3], np.int64))
    params = list(m.parameters())
    expected = ms.grad(lambda a: F.cross_entropy(m(a), t), grad_position=None, weights=params)(x)
    _ms.enable_grad_recording()
    try:
        loss = F.cross_entropy(m(x), t)
        _ms.run_backward([loss], [], False, False)
    finally:
        _ms.set_grad_flag(False)
    for p, g in zip(params, expected):
        got = p.grad if getattr(p, "grad", None) is not None else p._grad
        np.testing.assert_allclose(ms.Tensor.asnumpy(got), ms.Tensor.asnumpy(g), rtol=1e-5, atol=1e-6)


def test_gpt_training_and_generation_match_torch(reftorch):
    """nanoGPT's model and loop: tied embeddings, causal masked_fill softmax, AdamW with decay/no-decay groups,
    clip_grad_norm_, then top-k-masked greedy generation under no_grad."""
    ref, mine = build(reftorch, "GPT"), build(mt, "GPT")
    load_from_torch(mine, ref)
    assert sum(p.numel() for p in mine.parameters()) == sum(p.numel() for p in ref.parameters())  # tied once
    data = np.random.RandomState(0).randint(0, 50, (4, 17)).astype(np.int64)
    batches = {m: [m.from_numpy(data[:, :-1].copy()), m.from_numpy(data[:, 1:].copy())] for m in (mt, reftorch)}
    for model, m in ((mine, mt), (ref, reftorch)):
        opt = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95))
        model.trace = []
        for _ in range(3):
            _, loss = model(*batches[m])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            norm = m.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            model.trace.append((loss.item(), float(norm)))
    np.testing.assert_allclose(np.array(mine.trace), np.array(ref.trace), rtol=2e-5)
    for (n, p), (_, r) in zip(mine.named_parameters(), ref.named_parameters()):
        if n.endswith("c_attn.bias"):
            # the key bias has an exactly-zero true gradient (softmax ignores a per-row shift): Adam turns its
            # rounding noise into +-lr steps in either framework, so compare the query and value biases only
            p, r = mt.cat([p[:32], p[64:]]), reftorch.cat([r[:32], r[64:]])
        same(reftorch, p, r.detach(), rtol=1e-4, atol=1e-6)
    mine.eval(), ref.eval()
    gen = mine.generate(batches[mt][0][:1, :4], 6, top_k=5)
    assert gen.tolist() == ref.generate(batches[reftorch][0][:1, :4], 6, top_k=5).tolist()
