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
