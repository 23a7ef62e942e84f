"""Tensor transforms on inputs that require grad go through torch ops, as torchvision's do, so gradients flow
(Normalize inside a model, adversarial inputs); integer boxes give float32 IoUs as torch's division does."""
import numpy as np
import pytest

import mindtorch.torch as torch
import mindtorch.torchvision.transforms as T
import mindtorch.torchvision.transforms.functional as F
from mindtorch.torchvision import ops

X = np.random.default_rng(0).random((2, 3, 8, 10)).astype(np.float32)
MEAN, STD = [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]


def _reference(t, x):
    """torchvision 0.13's tensor kernels for the pipeline below, written with real torch ops."""
    y = (x - t.tensor(MEAN).view(-1, 1, 1)) / t.tensor(STD).view(-1, 1, 1)
    y = y.flip(-1).flip(-2)
    y = t.nn.functional.interpolate(y, size=[6, 7], mode="bilinear", align_corners=False)
    y = y[..., 1:5, 2:6]
    return t.nn.functional.pad(y, [1, 1, 0, 1])  # crop(0, -1, 5, 6) of a 4x4 image: zero padding outside


def test_transforms_keep_autograd(reftorch):
    x = torch.tensor(X, requires_grad=True)
    pipeline = T.Compose([T.Normalize(MEAN, STD), T.RandomHorizontalFlip(p=1.0), T.RandomVerticalFlip(p=1.0),
                          T.Resize([6, 7]), lambda im: F.crop(im, 1, 2, 4, 4), lambda im: F.crop(im, 0, -1, 5, 6)])
    y = pipeline(x)
    assert y.requires_grad
    (y * y).sum().backward()
    xr = reftorch.tensor(X, requires_grad=True)
    yr = _reference(reftorch, xr)
    (yr * yr).sum().backward()
    np.testing.assert_allclose(y.detach().numpy(), yr.detach().numpy(), atol=1e-5)
    np.testing.assert_allclose(x.grad.numpy(), xr.grad.numpy(), atol=1e-4)


def test_normalize_inside_a_model_passes_the_input_gradient():
    x = torch.rand(1, 3, 8, 8, requires_grad=True)
    model = torch.nn.Sequential(T.Normalize(MEAN, STD), torch.nn.Conv2d(3, 2, 3))
    model(x).sum().backward()
    assert x.grad is not None and x.grad.shape == x.shape and float(x.grad.abs().sum()) > 0


def test_plain_tensors_keep_the_exact_numpy_path():
    y = T.Normalize(MEAN, STD)(torch.tensor(X))
    assert not y.requires_grad
    with pytest.raises(ValueError, match="std evaluated to zero"):
        T.Normalize(MEAN, [0.2, 0.0, 0.1])(torch.tensor(X, requires_grad=True))


@pytest.mark.parametrize("fn", [ops.box_iou, ops.generalized_box_iou, ops.distance_box_iou, ops.complete_box_iou,
                                lambda a, b: ops.box_convert(a, "cxcywh", "xyxy"),
                                lambda a, b: ops.box_convert(a, "xyxy", "cxcywh")])
def test_integer_boxes_give_float32(fn):
    b = torch.tensor([[0, 0, 10, 10], [5, 5, 15, 15], [2, 3, 4, 9]])
    assert fn(b, b).dtype == torch.float32
    assert fn(b.double(), b.double()).dtype == torch.float64


def _tv013_boxes(t):
    """torchvision 0.13's box formulas with real torch ops (torchvision itself is not installed)."""
    def area(b):
        return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])

    def inter_union(b1, b2):
        lt, rb = t.max(b1[:, None, :2], b2[:, :2]), t.min(b1[:, None, 2:], b2[:, 2:])
        wh = (rb - lt).clamp(min=0)
        inter = wh[:, :, 0] * wh[:, :, 1]
        return inter, area(b1)[:, None] + area(b2) - inter

    def enclosing(b1, b2):
        return (t.max(b1[:, None, 2:], b2[:, 2:]) - t.min(b1[:, None, :2], b2[:, :2])).clamp(min=0)

    def giou(b1, b2):
        inter, union = inter_union(b1, b2)
        whi = enclosing(b1, b2)
        areai = whi[:, :, 0] * whi[:, :, 1]
        return inter / union - (areai - union) / areai

    def diou_iou(b1, b2, eps=1e-7):
        inter, union = inter_union(b1, b2)
        iou = inter / union
        whi = enclosing(b1, b2)
        diag = whi[:, :, 0] ** 2 + whi[:, :, 1] ** 2 + eps
        xp, yp = (b1[:, 0] + b1[:, 2]) / 2, (b1[:, 1] + b1[:, 3]) / 2
        xg, yg = (b2[:, 0] + b2[:, 2]) / 2, (b2[:, 1] + b2[:, 3]) / 2
        return iou - ((xp[:, None] - xg[None, :]) ** 2 + (yp[:, None] - yg[None, :]) ** 2) / diag, iou

    def ciou(b1, b2, eps=1e-7):
        d, iou = diou_iou(b1, b2, eps)
        wp, hp = b1[:, None, 2] - b1[:, None, 0], b1[:, None, 3] - b1[:, None, 1]
        wg, hg = b2[:, 2] - b2[:, 0], b2[:, 3] - b2[:, 1]
        v = (4 / (t.pi ** 2)) * t.pow(t.atan(wp / hp) - t.atan(wg / hg), 2)
        with t.no_grad():
            alpha = v / (1 - iou + v + eps)
        return d - alpha * v

    def cxcywh_to_xyxy(b):
        cx, cy, w, h = b.unbind(-1)
        return t.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)

    return {"box_iou": lambda a, b: inter_union(a, b)[0] / inter_union(a, b)[1], "generalized_box_iou": giou,
            "distance_box_iou": lambda a, b: diou_iou(a, b)[0], "complete_box_iou": ciou,
            "box_area": lambda a, b: area(a), "box_convert": lambda a, b: cxcywh_to_xyxy(a)}


@pytest.mark.parametrize("name", ["box_iou", "generalized_box_iou", "distance_box_iou", "complete_box_iou",
                                  "box_area", "box_convert"])
def test_box_ops_keep_autograd(reftorch, name):
    """A DETR-style `1 - generalized_box_iou(pred, target).diag()` loss must train the predicted boxes."""
    rng = np.random.default_rng(0)
    xy = rng.random((4, 2)) * 10
    b1 = np.concatenate([xy, xy + 1 + rng.random((4, 2)) * 5], 1).astype(np.float32)
    b2 = (b1 + rng.random((4, 4)) - 0.5).astype(np.float32)
    mine = {"box_convert": lambda a, b: ops.box_convert(a, "cxcywh", "xyxy")}.get(name, getattr(ops, name, None))
    if name == "box_area":
        mine = lambda a, b: ops.box_area(a)  # noqa: E731
    ref = _tv013_boxes(reftorch)[name]
    a, b = torch.tensor(b1, requires_grad=True), torch.tensor(b2)
    ra, rb = reftorch.tensor(b1, requires_grad=True), reftorch.tensor(b2)
    y, ry = mine(a, b), ref(ra, rb)
    assert y.requires_grad
    (y * y).sum().backward()
    (ry * ry).sum().backward()
    np.testing.assert_allclose(y.detach().numpy(), ry.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(a.grad.numpy(), ra.grad.numpy(), rtol=1e-4, atol=1e-5)
