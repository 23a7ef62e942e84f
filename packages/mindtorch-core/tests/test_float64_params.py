"""float64 results of functions that take float parameters (slopes, eps, margins, p, label smoothing...) or use
float constants, against real PyTorch at rtol 1e-12, values and input gradients.

MindSpore 2.10 rounds a Python float given to an op to float32 even for a float64 tensor (`ops.mul(x64, 0.3)` is
off by ~3e-8 relative); the op layer passes such numbers through `_ops._args.scalar_arg`, which makes a 0-d
float64 tensor of them for float64 operands. Every parameter below is chosen not representable in float32, so a
call site that still passes a raw Python float fails here by ~1e-8.
"""
from typing import Any, Callable, Sequence

import mindspore as ms
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as mt
from mindtorch.torch._ops._args import scalar_arg

R = np.random.RandomState(7)
RTOL, ATOL = 1e-12, 1e-14
SLOPE, EPS, MARGIN, P = 0.0123456789, 1.2345678e-5, 0.3333333333, 2.5


def rn(*shape: int) -> np.ndarray:
    return R.randn(*shape)


def pos(*shape: int) -> np.ndarray:
    return R.rand(*shape) * 0.9 + 0.05


def sgn(*shape: int) -> np.ndarray:
    return np.where(R.rand(*shape) > 0.5, 1.0, -1.0)


X = rn(4, 5) * 3
X4 = rn(2, 3, 4, 5)
Y = rn(4, 5)
LABELS = np.array([1, 4, 0, 2], np.int64)


def F(L: Any) -> Any:
    return L.nn.functional


# id -> (fn(lib, *tensors), float64 inputs, indices of the inputs whose gradient is compared)
CASES = {
    "leaky_relu": (lambda L, x: F(L).leaky_relu(x, SLOPE), [X], (0,)),
    "elu": (lambda L, x: F(L).elu(x, 1.2345678), [X], (0,)),
    "selu": (lambda L, x: F(L).selu(x), [X], (0,)),
    "hardtanh": (lambda L, x: F(L).hardtanh(x, -1.2345678, 1.3333333), [X], (0,)),
    "softplus": (lambda L, x: F(L).softplus(x, beta=1.2345678, threshold=2.3456789), [X], (0,)),
    "gelu": (lambda L, x: F(L).gelu(x), [X], (0,)),
    "gelu_tanh": (lambda L, x: F(L).gelu(x, approximate="tanh"), [X], (0,)),
    "hardshrink": (lambda L, x: F(L).hardshrink(x, MARGIN), [X], (0,)),
    "softshrink": (lambda L, x: F(L).softshrink(x, MARGIN), [X], (0,)),
    "threshold": (lambda L, x: F(L).threshold(x, MARGIN, -0.777777777), [X], (0,)),
    "rrelu_eval": (lambda L, x: F(L).rrelu(x, 0.1234567, 0.3333333, training=False), [X], (0,)),
    "layer_norm": (lambda L, x, w, b: F(L).layer_norm(x, (4, 5), w, b, eps=EPS), [X4, rn(4, 5), rn(4, 5)], (0, 1, 2)),
    "batch_norm_train": (lambda L, x, w, b: F(L).batch_norm(x, None, None, w, b, True, 0.1, EPS),
                         [X4, rn(3), rn(3)], (0, 1, 2)),
    "batch_norm_eval": (lambda L, x, w, b: F(L).batch_norm(x, L.tensor([0.1, 0.2, 0.3], dtype=L.float64),
                                                           L.tensor([1.1, 1.2, 1.3], dtype=L.float64), w, b,
                                                           False, 0.1, EPS), [X4, rn(3), rn(3)], (0, 1, 2)),
    "group_norm": (lambda L, x, w, b: F(L).group_norm(x, 3, w, b, eps=EPS), [rn(2, 6, 5), rn(6), rn(6)], (0, 1, 2)),
    "instance_norm": (lambda L, x, w, b: F(L).instance_norm(x, weight=w, bias=b, eps=EPS), [X4, rn(3), rn(3)],
                      (0, 1, 2)),
    "local_response_norm": (lambda L, x: F(L).local_response_norm(x, 2, alpha=1.2345e-4, beta=0.7777777,
                                                                  k=1.3333333), [X4], (0,)),
    "normalize": (lambda L, x: F(L).normalize(x, p=P, dim=1, eps=EPS), [X], (0,)),
    "cosine_similarity": (lambda L, a, b: F(L).cosine_similarity(a, b, dim=1, eps=EPS), [X, Y], (0, 1)),
    "pairwise_distance": (lambda L, a, b: F(L).pairwise_distance(a, b, p=P, eps=EPS), [X, Y], (0, 1)),
    "pdist": (lambda L, a: F(L).pdist(a, p=P), [X], (0,)),
    "lp_pool1d": (lambda L, x: F(L).lp_pool1d(x.abs(), P, 3), [rn(2, 3, 7)], (0,)),
    "lp_pool2d": (lambda L, x: F(L).lp_pool2d(x.abs(), P, 2), [X4], (0,)),
    "sdpa_scale": (lambda L, q, k, v: F(L).scaled_dot_product_attention(q, k, v, scale=0.3333333),
                   [rn(2, 3, 4), rn(2, 5, 4), rn(2, 5, 4)], (0, 1, 2)),
    "mha": (lambda L, q, w, b, ow, ob: F(L).multi_head_attention_forward(
        q, q, q, 6, 2, w, b, None, None, False, 0.0, ow, ob, training=False, need_weights=False)[0],
        [rn(3, 2, 6), rn(18, 6) * 0.3, rn(18), rn(6, 6) * 0.3, rn(6)], (0, 1)),
    "norm_p": (lambda L, x: L.norm(x, p=P), [X], (0,)),
    "norm_p3_dim": (lambda L, x: L.norm(x, p=3, dim=1), [X], (0,)),
    "tensor_norm": (lambda L, x: x.norm(P, 1), [X], (0,)),
    "vector_norm": (lambda L, x: L.linalg.vector_norm(x, ord=P, dim=1), [X], (0,)),
    "linalg_norm": (lambda L, x: L.linalg.norm(x, ord=P, dim=1), [X], (0,)),
    "dist": (lambda L, a, b: L.dist(a, b, P), [X, Y], (0, 1)),
    "renorm": (lambda L, x: L.renorm(x, P, 0, 1.2345678), [X], (0,)),
    "addmm": (lambda L, x, a, b: L.addmm(x, a, b, beta=0.3333333, alpha=0.7777777), [X, rn(4, 3), rn(3, 5)],
              (0, 1, 2)),
    "addmv": (lambda L, x, a, b: L.addmv(x, a, b, beta=0.3333333, alpha=0.7777777), [rn(4), rn(4, 3), rn(3)],
              (0, 1, 2)),
    "baddbmm": (lambda L, x, a, b: L.baddbmm(x, a, b, beta=0.3333333, alpha=0.7777777),
                [rn(2, 4, 5), rn(2, 4, 3), rn(2, 3, 5)], (0, 1, 2)),
    "addr": (lambda L, x, a, b: L.addr(x, a, b, beta=0.3333333, alpha=0.7777777), [X, rn(4), rn(5)], (0, 1, 2)),
    "trapz_dx": (lambda L, x: L.trapz(x, dx=0.3333333), [X], (0,)),
    "logit_eps": (lambda L, x: L.logit(x, eps=0.1234567), [pos(4, 5)], (0,)),
    "mvlgamma": (lambda L, x: L.mvlgamma(x.abs() + 2, 3), [X], ()),  # lgamma's own gradient: see the report
    "ndtr": (lambda L, x: L.special.ndtr(x), [X], (0,)),
    "ndtri": (lambda L, x: L.special.ndtri(x), [pos(4, 5)], (0,)),
    "quantile": (lambda L, x: L.quantile(x, 0.3333333, dim=1), [X], (0,)),
    "nanquantile": (lambda L, x: L.nanquantile(x, 0.3333333, dim=1), [X], (0,)),
    "median": (lambda L, x: L.median(x, 1)[0], [X], (0,)),
    "smooth_l1_loss": (lambda L, a, b: F(L).smooth_l1_loss(a, b, beta=1.2345678), [X, Y], (0,)),
    "huber_loss": (lambda L, a, b: F(L).huber_loss(a, b, reduction="sum", delta=1.2345678), [X, Y], (0,)),
    "poisson_nll_loss": (lambda L, a, b: F(L).poisson_nll_loss(a, b, log_input=False, full=True, eps=EPS),
                         [pos(4, 5), pos(4, 5) * 3], (0,)),
    "gaussian_nll_loss": (lambda L, a, b, v: F(L).gaussian_nll_loss(a, b, v, full=True, eps=EPS, reduction="none"),
                          [X, Y, pos(4, 5)], (0, 2)),
    "margin_ranking_loss": (lambda L, a, b, y: F(L).margin_ranking_loss(a, b, y, margin=MARGIN, reduction="none"),
                            [rn(6), rn(6), sgn(6)], (0, 1)),
    "hinge_embedding_loss": (lambda L, a, y: F(L).hinge_embedding_loss(a, y, margin=3 * MARGIN), [X, sgn(4, 5)],
                             (0,)),
    "cosine_embedding_loss": (lambda L, a, b, y: F(L).cosine_embedding_loss(a, b, y, margin=MARGIN,
                                                                            reduction="none"), [X, Y, sgn(4)], (0, 1)),
    "triplet_margin_loss": (lambda L, a, p, n: F(L).triplet_margin_loss(a, p, n, margin=3 * MARGIN, p=P, eps=EPS,
                                                                        reduction="none"), [X, Y, rn(4, 5)],
                            (0, 1, 2)),
    "triplet_margin_with_distance_loss": (lambda L, a, p, n: F(L).triplet_margin_with_distance_loss(
        a, p, n, margin=3 * MARGIN, reduction="none"), [X, Y, rn(4, 5)], (0, 1, 2)),
    "multi_margin_loss": (lambda L, a, t: F(L).multi_margin_loss(a, t, margin=3 * MARGIN, reduction="none"),
                          [X, LABELS], (0,)),
    "cross_entropy_ls": (lambda L, a, t: F(L).cross_entropy(a, t, label_smoothing=0.1), [X, LABELS], (0,)),
    "cross_entropy_ls_weight": (lambda L, a, t, w: F(L).cross_entropy(a, t, w, label_smoothing=0.1234567,
                                                                      reduction="none"),
                                [X, np.array([1, -100, 3, 0]), pos(5)], (0,)),
    "cross_entropy_probs_ls": (lambda L, a, t: F(L).cross_entropy(a, t, label_smoothing=0.1), [X, pos(4, 5)], (0,)),
    "Softplus_module": (lambda L, x: L.nn.Softplus(1.2345678, 2.3456789)(x), [X], (0,)),
    "LayerNorm_module": (lambda L, x: L.nn.LayerNorm(5, eps=EPS).double()(x), [X4], (0,)),
}


def _np(t: Any) -> np.ndarray:
    return t.detach().numpy() if hasattr(t, "detach") and type(t).__module__.startswith("torch") else \
        ms.Tensor.asnumpy(t)


def _check(reftorch: Any, fn: Callable, inputs: Sequence[np.ndarray], grad_argnums: Sequence[int]) -> None:
    theirs = [reftorch.from_numpy(np.array(a)) for a in inputs]
    for i in grad_argnums:
        theirs[i].requires_grad_(True)
    ours = [mt.from_numpy(np.array(a)) for a in inputs]
    ref_out, out = fn(reftorch, *theirs), fn(mt, *ours)
    assert_same(mt.from_numpy(np.array(_np(out))), ref_out.detach(), rtol=RTOL, atol=ATOL)
    if not grad_argnums:
        return
    cot = np.asarray(np.random.RandomState(1).randn(*ref_out.shape))
    (ref_out * reftorch.from_numpy(cot)).sum().backward()

    def loss(*args: Any) -> Any:
        return ms.ops.sum(ms.ops.mul(fn(mt, *args), ms.Tensor(cot)))

    grads = ms.grad(loss, grad_position=tuple(grad_argnums))(*ours)
    grads = grads if len(grad_argnums) > 1 else (grads,)
    for g, i in zip(grads, grad_argnums):
        np.testing.assert_allclose(ms.Tensor.asnumpy(g), theirs[i].grad.numpy(), rtol=RTOL, atol=ATOL,
                                   err_msg=f"gradient of input {i}")


@pytest.mark.parametrize("name", list(CASES))
def test_float64_matches_torch(reftorch: Any, name: str) -> None:
    fn, inputs, grad_argnums = CASES[name]
    _check(reftorch, fn, inputs, grad_argnums)


@pytest.mark.parametrize("name", ["celu", "hardsigmoid"])
def test_float64_grad_exact_where_torch_is_not(reftorch: Any, name: str) -> None:
    """Values match torch at 1e-12; torch's own backward of these two rounds a constant (hardsigmoid multiplies by
    1.0f/6.0f, celu's elu_backward is off by ~4e-8 too), so the gradient is checked against the exact derivative."""
    alpha = 1.2345678
    f = {"celu": lambda L, x: F(L).celu(x, alpha), "hardsigmoid": lambda L, x: F(L).hardsigmoid(x)}[name]
    _check(reftorch, f, [X], ())
    exact = np.where(X > 0, 1.0, np.exp(X / alpha)) if name == "celu" else np.where(np.abs(X) < 3, 1 / 6, 0.0)
    g = ms.grad(lambda x: ms.ops.sum(f(mt, x)))(mt.from_numpy(X.copy()))
    np.testing.assert_allclose(ms.Tensor.asnumpy(g), exact, rtol=RTOL, atol=ATOL)


def test_batch_norm_running_stats_float64(reftorch: Any) -> None:
    """The running-buffer update with a momentum not representable in float32."""
    ours = mt.nn.BatchNorm2d(3, eps=EPS, momentum=0.1234567).double()
    theirs = reftorch.nn.BatchNorm2d(3, eps=EPS, momentum=0.1234567).double()
    for _ in range(2):
        ours(mt.from_numpy(X4.copy()))
        theirs(reftorch.from_numpy(X4.copy()))
    assert_same(mt.from_numpy(np.array(_np(ours.running_mean))), theirs.running_mean, rtol=RTOL, atol=ATOL)
    assert_same(mt.from_numpy(np.array(_np(ours.running_var))), theirs.running_var, rtol=RTOL, atol=ATOL)


def test_scalar_arg_leaves_other_dtypes_alone() -> None:
    """float32 (and lower) keep the Python number: their tensor-scalar kernels are exact and faster, no 0-d tensor
    is built; float64 gets a 0-d float64 tensor holding the full double."""
    v = 0.3333333333
    for d in (mt.float32, mt.float16, mt.int64):
        assert scalar_arg(v, mt.ones(2, dtype=d)) is v
    t = scalar_arg(v, mt.ones(2, dtype=mt.float64))
    assert isinstance(t, ms.Tensor) and t.dtype == ms.float64 and t.shape == () and ms.Tensor.asnumpy(t) == v
    assert scalar_arg(True, mt.ones(2, dtype=mt.float64)) is True
