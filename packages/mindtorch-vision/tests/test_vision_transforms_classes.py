"""transforms classes: composition, argument handling, random parameters, reproducibility under a seed."""
import math

import numpy as np
import pytest
from PIL import Image
from vision_helpers import asnp, assert_close

import mindtorch.torch as torch
import mindtorch.torchvision.transforms as T
import mindtorch.torchvision.transforms.functional as F
from mindtorch.torchvision import _rng


def _seed(s):
    """torch.manual_seed when core has it; numpy's global seed covers the documented fallback."""
    if hasattr(torch, "manual_seed"):
        torch.manual_seed(s)
    np.random.seed(s)


@pytest.fixture
def img_u8():
    return np.random.default_rng(5).integers(0, 256, (3, 20, 24), dtype=np.uint8)


@pytest.fixture
def pil(img_u8):
    return Image.fromarray(np.ascontiguousarray(img_u8.transpose(1, 2, 0)))


def test_compose_to_tensor_normalize(pil, img_u8):
    t = T.Compose([T.ToTensor(), T.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25))])
    expect = ((img_u8 / np.float32(255)).astype(np.float32) - np.float32(0.5)) / np.float32(0.25)
    assert_close(t(pil), expect, atol=1e-6)
    assert repr(t).startswith("Compose(\n    ToTensor()\n    Normalize(mean=(0.5, 0.5, 0.5)")


def test_normalize_inplace(img_u8):
    x = torch.from_numpy((img_u8 / 255.0).astype(np.float32))
    out = T.Normalize([0.1, 0.2, 0.3], [0.5, 0.5, 0.5], inplace=True)(x)
    assert out is x
    expect = ((img_u8 / 255.0).astype(np.float32) - np.array([0.1, 0.2, 0.3], np.float32)[:, None, None]) / \
        np.float32(0.5)
    assert_close(x, expect, atol=1e-6)
    with pytest.raises(ValueError, match="std evaluated to zero"):
        F.normalize(x, [0.0], [0.0])
    with pytest.raises(TypeError, match="float tensor"):
        F.normalize(torch.from_numpy(img_u8), [0.0], [1.0])


def test_resize_sizes_and_repr(pil, img_u8):
    r = T.Resize(10)
    assert r(pil).size == (12, 10)  # smaller edge 20 -> 10, width int(10 * 24 / 20)
    assert tuple(r(torch.from_numpy(img_u8)).shape) == (3, 10, 12)
    assert repr(r) == "Resize(size=10, interpolation=bilinear, max_size=None, antialias=None)"
    assert T.Resize(10, max_size=11)(pil).size == (11, 9)
    with pytest.raises(ValueError, match="max_size"):
        T.Resize([10, 12], max_size=20)(pil)
    with pytest.raises(ValueError, match="strictly greater"):
        T.Resize(10, max_size=10)(pil)
    with pytest.raises(TypeError):
        T.Resize(3.5)
    with pytest.warns(UserWarning, match="InterpolationMode"):
        T.Resize(5, interpolation=0)
    with pytest.raises(ValueError, match="unsupported with Tensor"):
        F.resize(torch.from_numpy(img_u8), 5, F.InterpolationMode.LANCZOS)


def test_center_five_ten_crop(pil, img_u8):
    t = torch.from_numpy(img_u8)
    assert_close(T.CenterCrop(8)(t), img_u8[:, 6:14, 8:16], atol=0)
    np.testing.assert_array_equal(np.asarray(T.CenterCrop(8)(pil)), np.asarray(pil)[6:14, 8:16])
    crops = T.FiveCrop((6, 8))(t)
    assert len(crops) == 5
    assert_close(crops[0], img_u8[:, :6, :8], atol=0)
    assert_close(crops[3], img_u8[:, -6:, -8:], atol=0)
    ten = T.TenCrop(6, vertical_flip=True)(pil)
    assert len(ten) == 10
    np.testing.assert_array_equal(np.asarray(ten[5]), np.asarray(pil)[::-1][:6, :6])
    with pytest.raises(ValueError, match="bigger than input size"):
        T.FiveCrop(30)(pil)


def test_pad_transform(pil):
    out = T.Pad((1, 2), fill=3)(pil)
    assert out.size == (26, 24)
    np.testing.assert_array_equal(np.asarray(out)[0, 0], [3, 3, 3])
    with pytest.raises(ValueError, match="Padding mode"):
        T.Pad(1, padding_mode="wrap")


def test_random_crop_padding_and_bounds(pil, img_u8):
    _seed(0)
    t = torch.from_numpy(img_u8)
    for _ in range(5):
        out = T.RandomCrop(8, padding=2, fill=0)(t)
        assert tuple(out.shape) == (3, 8, 8)
    out = T.RandomCrop((30, 30), pad_if_needed=True, padding_mode="edge")(pil)
    assert out.size == (30, 30)
    with pytest.raises(ValueError, match="larger then input image size"):
        T.RandomCrop(40)(pil)
    i, j, h, w = T.RandomCrop.get_params(t, (5, 7))
    assert 0 <= i <= 15 and 0 <= j <= 17 and (h, w) == (5, 7)


def test_random_resized_crop_params(img_u8):
    _seed(1)
    t = torch.from_numpy(img_u8)
    for _ in range(20):
        i, j, h, w = T.RandomResizedCrop.get_params(t, [0.2, 0.9], [0.5, 2.0])
        assert 0 <= i and 0 <= j and i + h <= 20 and j + w <= 24 and h > 0 and w > 0
    out = T.RandomResizedCrop((9, 11))(t)
    assert tuple(out.shape) == (3, 9, 11)
    # impossible ratio -> the central fallback crop (torchvision's rule)
    i, j, h, w = T.RandomResizedCrop.get_params(t, [1.0, 1.0], [10.0, 10.0])
    assert (h, w) == (int(round(24 / 10.0)), 24) and i == (20 - h) // 2
    assert "scale=(0.08, 1.0)" in repr(T.RandomResizedCrop(5))


def _run(transform, x):
    out = transform(x)
    return np.asarray(out) if isinstance(out, Image.Image) else asnp(out).copy()


RANDOM = [
    T.RandomHorizontalFlip(), T.RandomVerticalFlip(), T.RandomCrop(10, padding=3),
    T.RandomResizedCrop(12), T.ColorJitter(0.4, 0.4, 0.4, 0.2), T.RandomRotation(30),
    T.RandomAffine(20, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(-5, 5, -3, 3)),
    T.RandomPerspective(p=1.0), T.RandomGrayscale(0.5), T.GaussianBlur(5, (0.1, 2.0)),
    T.RandomInvert(), T.RandomPosterize(3), T.RandomSolarize(100), T.RandomAdjustSharpness(2.0),
    T.RandomAutocontrast(), T.RandomEqualize(), T.AutoAugment(), T.AutoAugment(T.AutoAugmentPolicy.CIFAR10),
    T.AutoAugment(T.AutoAugmentPolicy.SVHN), T.RandAugment(), T.TrivialAugmentWide(), T.AugMix(),
    T.RandomApply([T.ColorJitter(0.5)], p=0.5), T.RandomChoice([T.RandomInvert(1.0), T.Grayscale(3)]),
    T.RandomOrder([T.RandomInvert(1.0), T.RandomPosterize(2, 1.0)]),
]


@pytest.mark.parametrize("tr", RANDOM, ids=[type(t).__name__ for t in RANDOM])
@pytest.mark.parametrize("kind", ["pil", "tensor"])
def test_random_transform_same_seed_same_result(tr, kind, pil, img_u8):
    x = pil if kind == "pil" else torch.from_numpy(img_u8)
    results = []
    for _ in range(2):
        _seed(123)
        results.append([_run(tr, x) for _ in range(3)])
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
    assert repr(tr)


def test_random_flip_probability_extremes(img_u8):
    t = torch.from_numpy(img_u8)
    assert_close(T.RandomHorizontalFlip(1.0)(t), img_u8[..., ::-1], atol=0)
    assert_close(T.RandomVerticalFlip(0.0)(t), img_u8, atol=0)


def test_color_jitter_params():
    cj = T.ColorJitter(brightness=0.5, hue=(-0.1, 0.2))
    assert cj.brightness == [0.5, 1.5] and cj.contrast is None and cj.hue == (-0.1, 0.2)
    _seed(3)
    fn_idx, b, c, s, h = T.ColorJitter.get_params(cj.brightness, None, None, cj.hue)
    assert sorted(fn_idx) == [0, 1, 2, 3] and 0.5 <= b <= 1.5 and c is None and -0.1 <= h <= 0.2
    with pytest.raises(ValueError, match="hue values should be between"):
        T.ColorJitter(hue=0.7)
    with pytest.raises(TypeError):
        T.ColorJitter(brightness="x")


def test_random_rotation_and_affine_params():
    _seed(4)
    a = T.RandomRotation.get_params([-10.0, 10.0])
    assert -10 <= a <= 10
    angle, tr, sc, sh = T.RandomAffine.get_params([-5.0, 5.0], [0.1, 0.1], [0.9, 1.1], [-2.0, 2.0, -1.0, 1.0],
                                                  [20, 10])
    assert -5 <= angle <= 5 and abs(tr[0]) <= 2 and abs(tr[1]) <= 1 and 0.9 <= sc <= 1.1
    assert -2 <= sh[0] <= 2 and -1 <= sh[1] <= 1
    with pytest.raises(ValueError, match="translation values"):
        T.RandomAffine(0, translate=(1.5, 0))
    with pytest.raises(ValueError, match="positive"):
        T.RandomRotation(-3)


def test_random_erasing(img_u8):
    x = torch.from_numpy((img_u8 / 255.0).astype(np.float32))
    _seed(7)
    out = asnp(T.RandomErasing(p=1.0, value=0.25)(x))
    changed = out != asnp(x)
    assert changed.any()
    assert np.all(out[changed] == np.float32(0.25))
    ys, xs = np.nonzero(changed.any(0))
    box = changed[:, ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    assert box.all()  # one filled rectangle on every channel
    _seed(7)
    out2 = asnp(T.RandomErasing(p=1.0, value="random")(x))
    assert (out2 != asnp(x)).any()
    y = torch.from_numpy((img_u8 / 255.0).astype(np.float32))
    r = T.RandomErasing(p=1.0, value=(0.1, 0.2, 0.3), inplace=True)(y)
    assert r is y and (asnp(y) != asnp(x)).any()
    with pytest.raises(ValueError, match="'random'"):
        T.RandomErasing(value="zeros")
    with pytest.raises(TypeError, match="Tensor Image"):
        F.erase(np.zeros((3, 4, 4)), 0, 0, 1, 1, 0)


def test_lambda_linear_transformation_grayscale(img_u8):
    with pytest.raises(TypeError):
        T.Lambda(3)
    assert T.Lambda(lambda v: v + 1)(1) == 2
    rng = np.random.default_rng(9)
    x = rng.random((1, 2, 2)).astype(np.float32)
    m = rng.random((4, 4)).astype(np.float32)
    mean = rng.random(4).astype(np.float32)
    lt = T.LinearTransformation(torch.from_numpy(m), torch.from_numpy(mean))
    assert_close(lt(torch.from_numpy(x)), ((x.reshape(1, -1) - mean) @ m).reshape(1, 2, 2), atol=1e-6)
    with pytest.raises(ValueError, match="square"):
        T.LinearTransformation(torch.from_numpy(m[:3]), torch.from_numpy(mean))
    g = T.Grayscale(3)(torch.from_numpy(img_u8))
    assert tuple(g.shape) == (3, 20, 24)


def test_interpolation_mode_enum():
    assert T.InterpolationMode.BILINEAR.value == "bilinear"
    assert F.pil_modes_mapping[T.InterpolationMode.LANCZOS] == Image.LANCZOS
    assert [m.value for m in T.InterpolationMode] == ["nearest", "bilinear", "bicubic", "box", "hamming", "lanczos"]


def test_autoaugment_ops_run_on_tensor_and_pil(img_u8, pil):
    from mindtorch.torchvision.transforms.autoaugment import _apply_op

    t = torch.from_numpy(img_u8)
    for op in ["Identity", "ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness", "Color",
               "Contrast", "Sharpness", "Posterize", "Solarize", "AutoContrast", "Equalize", "Invert"]:
        mag = 4.0 if op in ("Posterize", "TranslateX", "TranslateY") else 0.3
        a = _apply_op(t, op, mag, T.InterpolationMode.NEAREST, fill=None)
        b = _apply_op(pil, op, mag, T.InterpolationMode.NEAREST, fill=None)
        assert tuple(a.shape) == (3, 20, 24) and b.size == (24, 20)
    # torchvision 0.13: ShearX by m is a shear ANGLE of m radians about the centre (0.14 switched to atan(m) about
    # the corner): output (x, y) samples input (x + tan(m) * (y - h/2), y)
    sheared = _apply_op(pil, "ShearX", 0.5, T.InterpolationMode.NEAREST, fill=None)
    k = math.tan(0.5)
    ref = pil.transform(pil.size, Image.AFFINE, (1, k, -k * pil.size[1] * 0.5, 0, 1, 0), Image.NEAREST)
    assert np.mean(np.asarray(sheared) == np.asarray(ref)) > 0.97
    with pytest.raises(ValueError, match="not recognized"):
        _apply_op(t, "Nope", 0.0, T.InterpolationMode.NEAREST, None)
    with pytest.raises(ValueError, match="severity"):
        T.AugMix(severity=11)
    mixed = asnp(T.AugMix()(t))
    assert mixed.dtype == np.uint8 and mixed.shape == (3, 20, 24) and math.isfinite(float(mixed.mean()))


def test_torch_manual_seed_alone_fixes_augmentation(img_u8):
    """The draws come from core's generator (not the numpy fallback): torch.manual_seed is enough."""
    t = torch.from_numpy(img_u8)
    tr = T.Compose([T.RandomResizedCrop(10), T.ColorJitter(0.3, 0.3, 0.3, 0.1), T.RandomErasing(p=1.0)])
    outs = []
    for np_seed in (1, 2):
        torch.manual_seed(42)
        np.random.seed(np_seed)  # a different numpy state must not matter
        outs.append(asnp(tr(t)).copy())
    np.testing.assert_array_equal(outs[0], outs[1])
    assert _rng.MISSING == set(), f"core random functions missing or incomplete: {_rng.MISSING}"


def test_fast_random_path_draws_what_the_public_api_draws():
    """_rng reads core's numpy stream directly; it must give exactly the numbers torch.rand & co. give."""
    torch.manual_seed(7)
    fast = [_rng.rand(3).tolist(), _rng.randint(2, 9, (4,)).tolist(), _rng.uniform(-2.0, 3.0), _rng.randperm(5)]
    torch.manual_seed(7)
    public = [asnp(torch.rand(3)).astype(np.float64).tolist(), asnp(torch.randint(2, 9, (4,))).tolist(),
              float(asnp(torch.empty(1).uniform_(-2.0, 3.0))[0]), asnp(torch.randperm(5)).tolist()]
    assert fast == public
