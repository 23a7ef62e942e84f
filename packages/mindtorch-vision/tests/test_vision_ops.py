"""torchvision.ops against real torchvision outputs (fixtures) and real torch layers (reftorch)."""
import numpy as np
import pytest
from vision_helpers import asnp, assert_close

import mindtorch.torch as torch
from mindtorch.torchvision import ops


@pytest.fixture
def boxes(tvref):
    return (torch.from_numpy(tvref["ops_b1"].copy()), torch.from_numpy(tvref["ops_b2"].copy()),
            torch.from_numpy(tvref["ops_scores"].copy()), torch.from_numpy(tvref["ops_idxs"].copy()))


def test_iou_family(tvref, boxes):
    b1, b2, _, _ = boxes
    assert_close(ops.box_iou(b1, b2), tvref["ops_box_iou"], atol=1e-6)
    assert_close(ops.box_area(b1), tvref["ops_box_area"], atol=1e-5)
    assert_close(ops.generalized_box_iou(b1, b2), tvref["ops_giou"], atol=1e-6)
    assert_close(ops.distance_box_iou(b1, b2), tvref["ops_diou"], atol=1e-6)
    assert_close(ops.complete_box_iou(b1, b2), tvref["ops_ciou"], atol=1e-6)


@pytest.mark.parametrize("thr", [0.1, 0.3, 0.5])
def test_nms(tvref, boxes, thr):
    b1, _, scores, idxs = boxes
    assert_close(ops.nms(b1, scores, thr), tvref[f"ops_nms_{thr}"], atol=0)
    assert_close(ops.batched_nms(b1, scores, idxs, thr), tvref[f"ops_batched_nms_{thr}"], atol=0)


def test_box_utilities(tvref, boxes):
    b1 = boxes[0]
    for fmt in ("xywh", "cxcywh"):
        conv = ops.box_convert(b1, "xyxy", fmt)
        assert_close(conv, tvref[f"ops_convert_{fmt}"], atol=1e-5)
        assert_close(ops.box_convert(conv, fmt, "xyxy"), tvref["ops_b1"], atol=1e-5)
    assert_close(ops.clip_boxes_to_image(torch.from_numpy(tvref["ops_b1"] - 3), (10, 12)), tvref["ops_clip"], atol=0)
    assert_close(ops.remove_small_boxes(b1, 5.0), tvref["ops_remove_small"], atol=0)
    with pytest.raises(ValueError, match="Unsupported Bounding Box Conversions"):
        ops.box_convert(b1, "xyxy", "yxyx")
    m = np.zeros((2, 5, 6), bool)
    m[0, 1:3, 2:5] = True
    m[1, 4, 0] = True
    assert_close(ops.masks_to_boxes(torch.from_numpy(m)), np.array([[2, 1, 4, 2], [0, 4, 0, 4]], np.float32), atol=0)


def test_roi_align_and_pool(tvref):
    feat = torch.from_numpy(tvref["ops_feat"].copy())
    rois = torch.from_numpy(tvref["ops_rois"].copy())
    assert_close(ops.roi_align(feat, rois, (3, 4), spatial_scale=1.0, sampling_ratio=2), tvref["ops_roi_align"],
                 atol=1e-5)
    assert_close(ops.roi_align(feat, rois, (2, 2), spatial_scale=0.5, sampling_ratio=-1, aligned=True),
                 tvref["ops_roi_align_aligned"], atol=1e-5)
    assert_close(ops.roi_pool(feat, rois, (3, 2), spatial_scale=1.0), tvref["ops_roi_pool"], atol=0)
    # list-of-boxes form == the (K, 5) form
    r = tvref["ops_rois"]
    as_list = [torch.from_numpy(r[r[:, 0] == i, 1:].copy()) for i in range(2)]
    order = np.argsort(r[:, 0], kind="stable")
    assert_close(ops.RoIAlign((3, 4), 1.0, 2)(feat, as_list), tvref["ops_roi_align"][order], atol=1e-5)
    assert_close(ops.RoIPool((3, 2), 1.0)(feat, as_list), tvref["ops_roi_pool"][order], atol=0)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_sigmoid_focal_loss(tvref, reduction):
    x = torch.from_numpy(tvref["ops_focal_in"].copy())
    t = torch.from_numpy(tvref["ops_focal_t"].copy())
    out = ops.sigmoid_focal_loss(x, t, alpha=0.3, gamma=1.5, reduction=reduction)
    assert_close(out, tvref[f"ops_focal_{reduction}"], atol=1e-6)


def test_stochastic_depth():
    x = torch.from_numpy(np.ones((64, 3, 2, 2), np.float32))
    sd = ops.StochasticDepth(0.5, "row")
    out = asnp(sd(x))
    per_row = out.reshape(64, -1)
    assert set(np.unique(per_row)) <= {0.0, 2.0} and np.all(per_row == per_row[:, :1])
    assert 0 < (per_row[:, 0] == 0).sum() < 64
    sd.eval()
    assert_close(sd(x), np.ones((64, 3, 2, 2), np.float32), atol=0)
    with pytest.raises(ValueError, match="mode"):
        ops.stochastic_depth(x, 0.1, "col")


def test_frozen_batchnorm_matches_torch_batch_norm(reftorch):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 4)).astype(np.float32)
    w, b = rng.random(3).astype(np.float32), rng.random(3).astype(np.float32)
    rm, rv = rng.random(3).astype(np.float32), rng.random(3).astype(np.float32) + 0.5
    m = ops.FrozenBatchNorm2d(3, eps=1e-3)
    m.load_state_dict({"weight": torch.from_numpy(w), "bias": torch.from_numpy(b),
                       "running_mean": torch.from_numpy(rm), "running_var": torch.from_numpy(rv),
                       "num_batches_tracked": torch.tensor(3)})
    ref = reftorch.nn.functional.batch_norm(reftorch.from_numpy(x), reftorch.from_numpy(rm), reftorch.from_numpy(rv),
                                            reftorch.from_numpy(w), reftorch.from_numpy(b), False, 0.0, 1e-3)
    assert_close(m(torch.from_numpy(x)), ref.numpy(), atol=1e-5)
    assert repr(m) == "FrozenBatchNorm2d(3, eps=0.001)"


def test_conv_norm_activation_se_mlp_structure_and_values(reftorch):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 3, 6, 6)).astype(np.float32)
    block = ops.Conv2dNormActivation(3, 4, kernel_size=3, stride=2)
    assert [type(m).__name__ for m in block] == ["Conv2d", "BatchNorm2d", "ReLU"] and block.out_channels == 4
    ref = reftorch.nn.Sequential(reftorch.nn.Conv2d(3, 4, 3, 2, 1, bias=False), reftorch.nn.BatchNorm2d(4),
                                 reftorch.nn.ReLU())
    ref.load_state_dict({k: reftorch.from_numpy(asnp(v).copy()) for k, v in block.state_dict().items()})
    block.eval()
    ref.eval()
    assert_close(block(torch.from_numpy(x)), ref(reftorch.from_numpy(x)).detach().numpy(), atol=1e-5)
    se = ops.SqueezeExcitation(3, 2)
    sd = {k: reftorch.from_numpy(asnp(v).copy()) for k, v in se.state_dict().items()}
    t = reftorch.from_numpy(x)
    s = reftorch.nn.functional.adaptive_avg_pool2d(t, 1)
    s = reftorch.relu(reftorch.nn.functional.conv2d(s, sd["fc1.weight"], sd["fc1.bias"]))
    s = reftorch.sigmoid(reftorch.nn.functional.conv2d(s, sd["fc2.weight"], sd["fc2.bias"]))
    assert_close(se(torch.from_numpy(x)), (s * t).numpy(), atol=1e-5)
    mlp = ops.MLP(5, [7, 2])
    assert [type(m).__name__ for m in mlp] == ["Linear", "ReLU", "Dropout", "Linear", "Dropout"]


@pytest.mark.parametrize("name", ["generalized_box_iou_loss", "distance_box_iou_loss", "complete_box_iou_loss"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_box_iou_losses_values_and_grads(tvref, name, reduction):
    pred = torch.tensor(tvref["ops_b1"][:3].tolist(), requires_grad=True)
    target = torch.from_numpy(tvref["ops_b2"].copy())
    loss = getattr(ops, name)(pred, target, reduction=reduction)
    assert_close(loss, tvref[f"ops_{name}_{reduction}"], atol=1e-5)
    (loss.sum() if reduction == "none" else loss).backward()
    assert_close(pred.grad, tvref[f"ops_{name}_{reduction}_grad"], atol=1e-5)


def test_box_loss_bad_reduction(boxes):
    with pytest.raises(ValueError, match="reduction"):
        ops.generalized_box_iou_loss(boxes[0][:3], boxes[1], reduction="avg")
