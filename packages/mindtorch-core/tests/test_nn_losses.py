"""Loss layers and their F.* twins against real PyTorch: values and input gradients, every reduction."""
import numpy as np
import pytest
from _nn_check import check_fn

import mindtorch.torch as mt
import mindtorch.torch.nn as nn

R = np.random.RandomState(0)


def rn(*shape):
    return R.randn(*shape).astype(np.float32)


def prob(*shape):
    return (R.rand(*shape) * 0.9 + 0.05).astype(np.float32)


def idx(high, *shape):
    return R.randint(0, high, size=shape).astype(np.int64)


def sign(*shape):
    return np.where(R.rand(*shape) > 0.5, 1.0, -1.0).astype(np.float32)


W5 = np.array([0.5, 1.0, 2.0, 0.1, 1.5], np.float32)
T_IGN = idx(5, 6)
T_IGN[1] = -100
T_IGN[4] = -100
T_IGN2 = idx(5, 6)
T_IGN2[2] = 3

# (Loss class, ctor kwargs, input arrays, tensor ctor kwargs (name -> array), grad argnums)
CASES = [
    ("CrossEntropyLoss", {}, [rn(6, 5), idx(5, 6)], {}, (0,)),
    ("CrossEntropyLoss", dict(reduction="sum", label_smoothing=0.2), [rn(6, 5), T_IGN], {}, (0,)),
    ("CrossEntropyLoss", dict(reduction="none"), [rn(6, 5), T_IGN], {}, (0,)),
    ("CrossEntropyLoss", dict(label_smoothing=0.1), [rn(6, 5), T_IGN], dict(weight=W5), (0,)),
    ("CrossEntropyLoss", dict(ignore_index=3), [rn(6, 5), T_IGN2], dict(weight=W5), (0,)),
    ("CrossEntropyLoss", {}, [rn(2, 5, 3, 4), idx(5, 2, 3, 4)], {}, (0,)),
    ("CrossEntropyLoss", {}, [rn(5), np.array(2, np.int64)], {}, (0,)),
    ("CrossEntropyLoss", {}, [rn(6, 5), prob(6, 5)], {}, (0, 1)),
    ("CrossEntropyLoss", dict(label_smoothing=0.3, reduction="sum"), [rn(4, 5, 3), prob(4, 5, 3)], dict(weight=W5),
     (0, 1)),
    ("NLLLoss", {}, [rn(6, 5), idx(5, 6)], dict(weight=W5), (0,)),
    ("NLLLoss", dict(reduction="none"), [rn(2, 5, 3), T_IGN.reshape(2, 3)], {}, (0,)),
    ("NLLLoss", dict(reduction="sum", ignore_index=3), [rn(6, 5), T_IGN2], {}, (0,)),
    ("BCELoss", {}, [prob(4, 3), prob(4, 3)], {}, (0, 1)),
    ("BCELoss", dict(reduction="sum"), [prob(4, 3), prob(4, 3)], dict(weight=prob(3)), (0,)),
    ("BCEWithLogitsLoss", {}, [rn(4, 3) * 5, prob(4, 3)], {}, (0, 1)),
    ("BCEWithLogitsLoss", dict(reduction="none"), [rn(4, 3) * 5, prob(4, 3)],
     dict(pos_weight=np.array([1.0, 2.0, 0.5], np.float32), weight=prob(4, 3)), (0, 1)),
    ("MSELoss", {}, [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("MSELoss", dict(reduction="sum"), [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("L1Loss", dict(reduction="none"), [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("SmoothL1Loss", {}, [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("SmoothL1Loss", dict(beta=0.5, reduction="sum"), [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("SmoothL1Loss", dict(beta=0.0), [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("HuberLoss", dict(delta=0.7), [rn(3, 4), rn(3, 4)], {}, (0, 1)),
    ("KLDivLoss", dict(reduction="batchmean"), [np.log(prob(3, 4)), prob(3, 4)], {}, (0, 1)),
    ("KLDivLoss", dict(reduction="sum", log_target=True), [np.log(prob(3, 4)), np.log(prob(3, 4))], {}, (0, 1)),
    ("KLDivLoss", dict(reduction="none"), [np.log(prob(3, 4)), np.where(prob(3, 4) > 0.5, prob(3, 4), 0)], {},
     (0,)),
    ("PoissonNLLLoss", {}, [rn(3, 4), prob(3, 4) * 3], {}, (0,)),
    ("PoissonNLLLoss", dict(log_input=False, full=True), [prob(3, 4), prob(3, 4) * 3], {}, (0,)),
    ("GaussianNLLLoss", {}, [rn(3, 4), rn(3, 4), prob(3, 4)], {}, (0, 1, 2)),
    ("GaussianNLLLoss", dict(full=True, reduction="sum"), [rn(3, 4), rn(3, 4), prob(3, 1)], {}, (0, 1, 2)),
    ("MarginRankingLoss", dict(margin=0.3), [rn(5), rn(5), sign(5)], {}, (0, 1)),
    ("HingeEmbeddingLoss", dict(margin=0.5), [rn(3, 4), sign(3, 4)], {}, (0,)),
    ("SoftMarginLoss", {}, [rn(3, 4), sign(3, 4)], {}, (0,)),
    ("MultiLabelSoftMarginLoss", {}, [rn(3, 4), (R.rand(3, 4) > 0.5).astype(np.float32)], {}, (0,)),
    ("CosineEmbeddingLoss", dict(margin=0.2), [rn(4, 5), rn(4, 5), sign(4)], {}, (0, 1)),
    ("TripletMarginLoss", dict(margin=0.5, swap=True), [rn(4, 5), rn(4, 5), rn(4, 5)], {}, (0, 1, 2)),
    ("MultiMarginLoss", {}, [rn(4, 5), idx(5, 4)], {}, (0,)),
    ("MultiMarginLoss", dict(p=2, margin=0.5), [rn(4, 5), idx(5, 4)], dict(weight=W5), (0,)),
    ("MultiLabelMarginLoss", {}, [rn(2, 4), np.array([[3, 0, -1, 1], [1, 2, 3, -1]], np.int64)], {}, (0,)),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_loss_matches_torch(reftorch, case):
    name, kwargs, arrays, tensor_kwargs, grads = case
    ref_loss = getattr(reftorch.nn, name)(**kwargs, **{k: reftorch.from_numpy(v) for k, v in tensor_kwargs.items()})
    my_loss = getattr(nn, name)(**kwargs, **{k: mt.from_numpy(v) for k, v in tensor_kwargs.items()})
    assert repr(my_loss) == repr(ref_loss)
    check_fn(reftorch, my_loss, ref_loss, arrays, grads)


@pytest.mark.parametrize("fname", ["cross_entropy", "nll_loss"])
def test_functional_twins(reftorch, fname):
    x = rn(6, 5)
    if fname == "nll_loss":
        x = x - np.log(np.exp(x).sum(1, keepdims=True))
    check_fn(reftorch, lambda a, t: getattr(nn.functional, fname)(a, t, reduction="sum"),
             lambda a, t: getattr(reftorch.nn.functional, fname)(a, t, reduction="sum"), [x, idx(5, 6)], (0,))


def test_one_hot_and_softmax_dtype(reftorch):
    t = idx(4, 7)
    check_fn(reftorch, lambda a: nn.functional.one_hot(a), lambda a: reftorch.nn.functional.one_hot(a), [t])
    check_fn(reftorch, lambda a: nn.functional.one_hot(a, 6), lambda a: reftorch.nn.functional.one_hot(a, 6), [t])
    x = rn(3, 4)
    check_fn(reftorch, lambda a: nn.functional.softmax(a, 1, dtype=mt.float64),
             lambda a: reftorch.nn.functional.softmax(a, 1, dtype=reftorch.float64), [x])
    check_fn(reftorch, lambda a: nn.functional.log_softmax(a, 0, dtype=mt.float64),
             lambda a: reftorch.nn.functional.log_softmax(a, 0, dtype=reftorch.float64), [x])


def test_loss_errors_like_torch(reftorch):
    x, t = rn(4, 5), idx(5, 3)
    with pytest.raises(ValueError):
        reftorch.nn.functional.cross_entropy(reftorch.from_numpy(x), reftorch.from_numpy(t))
    with pytest.raises(ValueError):
        nn.functional.cross_entropy(mt.from_numpy(x), mt.from_numpy(t))
    bad = np.array([0, 1, 7, 2], np.int64)
    with pytest.raises(IndexError):
        reftorch.nn.functional.nll_loss(reftorch.from_numpy(x), reftorch.from_numpy(bad))
    with pytest.raises(IndexError):
        nn.functional.nll_loss(mt.from_numpy(x), mt.from_numpy(bad))
    with pytest.raises(ValueError):
        nn.functional.mse_loss(mt.from_numpy(x), mt.from_numpy(x), reduction="avg")
    with pytest.raises(RuntimeError):
        nn.functional.one_hot(mt.from_numpy(np.array([1, 5], np.int64)), 3)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("concat", [False, True])
def test_ctc_loss(reftorch, reduction, concat):
    T, N, C = 7, 3, 5
    lp = np.log(R.dirichlet(np.ones(C), size=(T, N))).astype(np.float32)
    tl = np.array([3, 2, 1], np.int64)
    il = np.array([7, 6, 5], np.int64)
    tg = R.randint(1, C, size=(N, 3)).astype(np.int64)
    if concat:
        tg = np.concatenate([tg[b, :n] for b, n in enumerate(tl)])
    ref = reftorch.nn.CTCLoss(reduction=reduction)
    mine = nn.CTCLoss(reduction=reduction)
    check_fn(reftorch, lambda a, t: mine(a, t, mt.from_numpy(il), mt.from_numpy(tl)),
             lambda a, t: ref(a, t, reftorch.from_numpy(il), reftorch.from_numpy(tl)), [lp, tg], (0,))
