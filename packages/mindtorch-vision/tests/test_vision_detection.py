"""torchvision.models.segmentation / detection against real torchvision (0.29.1 + torch 2.14.1, recorded by
fixtures/make_detection_fixtures.py; every builder compared exists in torchvision 0.13.1 unchanged).

What is compared:
- every segmentation and detection builder of 0.13 is listed by `list_models()`; its weights enum members' url,
  meta (num_params, min_size, number of categories / keypoint names) and preset class equal torchvision's;
- state_dict layout (ordered keys, shapes, dtypes, parameter count) of `builder(weights=None,
  weights_backbone=None)`: for the builders under `_LAYOUT_LIMIT` parameters; the others (ResNet-50/101 and VGG
  based, 30-60M parameters, slow to initialise here) only with MINDTORCH_TEST_LARGE_MODELS=1 (all passed when
  this file was written); their value cases below build the same classes;
- values, one small configuration per family with weights filled by make_model_fixtures.recipe_state_dict:
  segmentation: eval-mode 'out'/'aux' logits, train-mode output (batch statistics), cross-entropy loss and every
  parameter's gradient norm; detection (two images of different sizes, so the transform resizes and pads):
  eval-mode detections (boxes, scores, labels; masks, keypoints), the train-mode losses dict and every parameter's
  gradient norm after `sum(loss_dict.values()).backward()` (the finetuning tutorial's step). Losses and gradients
  are taken with BatchNorm statistics frozen (see make_detection_fixtures.train_frozen_norm: with batch
  statistics of these tiny batches the gradients are too ill-conditioned to compare in float32). The SSD300 VGG16
  case (fixed 300x300 input, ~90 s here) runs only with MINDTORCH_TEST_LARGE_MODELS=1 (passed when written);
- loading: pre-0.13 FPN checkpoint keys are renamed on load; `weights=` loads a file from the hub cache into the
  pretrained layout (FrozenBatchNorm2d, 91 COCO classes).
"""
from __future__ import annotations

import gzip
import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest

import mindtorch.torch as torch
import mindtorch.torch.nn.functional as F
import mindtorch.torchvision.models as M

FIXTURES = Path(__file__).parent / "fixtures"
_spec = importlib.util.spec_from_file_location("make_detection_fixtures", FIXTURES / "make_detection_fixtures.py")
mdf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mdf)

with gzip.open(FIXTURES / "tv_detection.json.gz", "rt") as _f:
    TABLE = json.load(_f)

_LAYOUT_LIMIT = 20_000_000
_LARGE = os.environ.get("MINDTORCH_TEST_LARGE_MODELS") == "1"


@pytest.fixture(autouse=True)
def _no_measured_conv(monkeypatch):
    # detection heads see a new input signature for every RoI count: without oneDNN, core would time MindSpore's
    # native Conv2D (seconds slower on some hosts) against im2col + MatMul for each one
    from mindtorch.torch._ops import _onednn

    if not _onednn.available():
        monkeypatch.setenv("MINDTORCH_KERNEL_CONV2D", "im2col")


@pytest.fixture(scope="module")
def ref():
    return np.load(FIXTURES / "tv_detection.npz")


def _np(t) -> np.ndarray:
    return t.detach().numpy()


def _close(mine, expected: np.ndarray, rtol: float = 1e-4, atol_scale: float = 1e-4) -> None:
    mine = _np(mine) if not isinstance(mine, np.ndarray) else mine
    assert mine.shape == expected.shape
    scale = max(1.0, float(np.abs(expected).max())) if expected.size else 1.0
    np.testing.assert_allclose(mine, expected, rtol=rtol, atol=atol_scale * scale)


def _module(name: str):
    return M.segmentation if name in mdf.SEG_BUILDERS else M.detection


def test_builders_listed_and_enums():
    listed = M.list_models()
    for name, info in TABLE.items():
        assert name in listed
        fn = getattr(_module(name), name)
        assert M.get_model_weights(name) is M.get_model_weights(fn)
        enum = M.get_model_weights(fn)
        assert enum.__name__ == info["enum"]
        assert enum.DEFAULT.name == info["default"]
        assert M.get_weight(f"{info['enum']}.{info['default']}") is enum.DEFAULT
        assert sorted(m.name for m in enum) == sorted(info["members"])
        for member in enum:
            expected = info["members"][member.name]
            assert member.url == expected["url"]
            assert member.meta["num_params"] == expected["num_params"]
            assert list(member.meta.get("min_size", ())) == expected["min_size"]
            assert len(member.meta["categories"]) == expected["num_categories"]
            assert len(member.meta.get("keypoint_names") or []) == expected["num_keypoints"]
            preset = member.transforms()
            assert type(preset).__name__ == expected["preset"]
            assert getattr(preset, "resize_size", None) == expected["resize_size"]
    assert M.list_models(M.segmentation) == sorted(mdf.SEG_BUILDERS)
    assert M.list_models(M.detection) == sorted(mdf.DET_BUILDERS)


@pytest.mark.parametrize("name", mdf.SEG_BUILDERS + mdf.DET_BUILDERS)
def test_state_dict_layout(name):
    expected = TABLE[name]
    if expected["num_params"] > _LAYOUT_LIMIT and not _LARGE:
        pytest.skip(f"{name}: {expected['num_params']} parameters; set MINDTORCH_TEST_LARGE_MODELS=1 to build it")
    model = getattr(_module(name), name)(weights=None, weights_backbone=None)
    sd = model.state_dict()
    assert list(sd.keys()) == expected["keys"]
    assert [list(v.shape) for v in sd.values()] == expected["shapes"]
    assert [str(v.dtype).replace("torch.", "") for v in sd.values()] == expected["dtypes"]
    assert sum(p.numel() for p in model.parameters()) == expected["num_params"]


def _built(case: str):
    model = mdf.build(M, case)
    sd = model.state_dict()
    shapes = {k: (tuple(v.shape), str(v.dtype).replace("torch.", "")) for k, v in sd.items()}
    model.load_state_dict({**sd, **{k: torch.from_numpy(a) for k, a in mdf.mmf.recipe_state_dict(shapes).items()}})
    return model


def _grad_norms(model) -> np.ndarray:
    """make_detection_fixtures.grad_norms, computed in numpy (one tensor op per parameter is slower here)."""
    return np.array([np.linalg.norm(_np(p.grad).astype(np.float64)) if p.grad is not None else np.nan
                     for p in model.parameters()])


@pytest.mark.parametrize("case", [c for c, spec in mdf.CASES.items() if spec[0] == "segmentation"])
def test_segmentation_values(case, ref):
    model = _built(case)
    images, targets = mdf.case_inputs(case)
    x = torch.from_numpy(images[0])
    model.eval()
    with torch.no_grad():
        out = model(x)
    assert sorted(out) == sorted(k[len(case) + 6:] for k in ref.files if k.startswith(f"{case}/eval_"))
    for k, v in out.items():
        _close(v, ref[f"{case}/eval_{k}"])
    mdf.train_without_dropout(torch, model)
    with torch.no_grad():
        # batch statistics of a 2-image batch: float32 rounding differs slightly more than in eval mode
        _close(model(x)["out"], ref[f"{case}/train_out"], rtol=1e-3, atol_scale=1e-3)
    mdf.train_frozen_norm(torch, model)
    out = model(x)
    tgt = torch.from_numpy(targets[0]["target"])
    loss = F.cross_entropy(out["out"], tgt)
    if "aux" in out:
        loss = loss + 0.5 * F.cross_entropy(out["aux"], tgt)
    _close(np.array(float(loss)), ref[f"{case}/train_loss"], rtol=1e-3)
    loss.backward()
    np.testing.assert_allclose(_grad_norms(model), ref[f"{case}/grad_norms"], rtol=2e-3, atol=1e-5)


@pytest.mark.parametrize("case", [c for c, spec in mdf.CASES.items() if spec[0] == "detection"])
def test_detection_values(case, ref):
    if case in mdf.LARGE_CASES and not _LARGE:
        pytest.skip(f"{case}: slow here; set MINDTORCH_TEST_LARGE_MODELS=1 to run it")
    model = _built(case)
    images, targets = mdf.case_inputs(case)
    xs = [torch.from_numpy(a) for a in images]
    model.eval()
    with torch.no_grad():
        dets = model(xs)
    assert len(dets) == len(images)
    for i, d in enumerate(dets):
        prefix = f"{case}/eval{i}_"
        keys = sorted(k[len(prefix):] for k in ref.files if k.startswith(prefix))
        assert sorted(d) == keys
        for k, v in d.items():
            expected = ref[f"{case}/eval{i}_{k}"]
            if k == "labels":
                assert str(v.dtype) == "torch.int64"
                np.testing.assert_array_equal(_np(v), expected)
            elif k == "masks":
                _close(v[: mdf.MASKS_KEPT], expected, rtol=1e-3, atol_scale=1e-3)
            else:
                _close(v, expected, rtol=1e-3, atol_scale=1e-4)
    mdf.train_frozen_norm(torch, model)
    tg = [{k: torch.from_numpy(v) for k, v in t.items()} for t in targets]
    losses = model(xs, tg)
    assert list(losses) == list(ref[f"{case}/loss_names"])
    np.testing.assert_allclose([float(v) for v in losses.values()], ref[f"{case}/loss_values"], rtol=1e-3,
                               atol=1e-5)
    sum(losses.values()).backward()
    np.testing.assert_allclose(_grad_norms(model), ref[f"{case}/grad_norms"], rtol=5e-3, atol=1e-5)


def test_fpn_loads_pre_013_checkpoint_keys():
    # COCO checkpoints saved before torchvision 0.13 name FPN convs `inner_blocks.0.weight`; since 0.13 they are
    # Conv2dNormActivation blocks (`inner_blocks.0.0.weight`) and `_load_from_state_dict` renames the old keys
    from mindtorch.torchvision.ops import FeaturePyramidNetwork

    source = FeaturePyramidNetwork([8, 16], 4)
    old = {k.replace(".0.weight", ".weight").replace(".0.bias", ".bias"): v for k, v in source.state_dict().items()}
    assert "inner_blocks.0.weight" in old
    target = FeaturePyramidNetwork([8, 16], 4)
    target.load_state_dict(old)
    for (k, a), b in zip(source.state_dict().items(), target.state_dict().values()):
        np.testing.assert_array_equal(_np(a), _np(b), err_msg=k)


def test_detection_weights_load_from_hub_cache(tmp_path, monkeypatch):
    # weights= builds the pretrained layout (FrozenBatchNorm2d: no num_batches_tracked, as in torchvision's files,
    # num_classes from the weights' categories) and loads `$TORCH_HOME/hub/checkpoints/<file of the url>` strictly
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    weights = M.detection.FasterRCNN_MobileNet_V3_Large_320_FPN_Weights.COCO_V1
    source = M.detection.fasterrcnn_mobilenet_v3_large_320_fpn(weights_backbone=None)
    state = {k: v for k, v in source.state_dict().items() if not k.endswith("num_batches_tracked")}
    target = tmp_path / "hub" / "checkpoints" / os.path.basename(weights.url)
    target.parent.mkdir(parents=True)
    torch.save(state, target)
    model = M.detection.fasterrcnn_mobilenet_v3_large_320_fpn(weights=weights)
    assert isinstance(model.backbone.body["0"][1], M.detection.backbone_utils.misc_nn_ops.FrozenBatchNorm2d)
    assert list(model.state_dict()) == list(state)
    for (k, a), b in zip(state.items(), model.state_dict().values()):
        np.testing.assert_array_equal(_np(a), _np(b), err_msg=k)
    assert model.roi_heads.box_predictor.cls_score.out_features == len(weights.meta["categories"]) == 91
