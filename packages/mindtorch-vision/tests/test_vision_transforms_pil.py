"""PIL path of transforms.functional and the tensor<->PIL conversions.

References: Pillow itself (the operation torchvision delegates to) and real torchvision outputs recorded in
fixtures/tv_reference.npz (keys pil_*).
"""
import numpy as np
import pytest
from PIL import Image
from vision_helpers import asnp, assert_close

import mindtorch.torch as torch
import mindtorch.torchvision.transforms.functional as F

PIL_CASES = {
    "pil_affine": lambda im: F.affine(im, angle=20.0, translate=[1, 2], scale=0.9, shear=[5.0, -3.0]),
    "pil_affine_bilinear_fill": lambda im: F.affine(im, 10.0, [0, 0], 1.1, 4.0,
                                                    interpolation=F.InterpolationMode.BILINEAR, fill=[9, 8, 7]),
    "pil_rotate_expand_fill": lambda im: F.rotate(im, 33.0, expand=True, fill=[50, 60, 70]),
    "pil_rotate_center": lambda im: F.rotate(im, -20.0, center=[2, 3]),
    "pil_perspective": lambda im: F.perspective(im, [[0, 0], [16, 0], [16, 12], [0, 12]],
                                                [[2, 1], [14, 0], [15, 11], [1, 12]]),
    "pil_hue": lambda im: F.adjust_hue(im, 0.3),
    "pil_hue_neg": lambda im: F.adjust_hue(im, -0.3),
    "pil_gamma": lambda im: F.adjust_gamma(im, 1.7, 0.9),
    "pil_pad_reflect": lambda im: F.pad(im, [2, 3], padding_mode="reflect"),
    "pil_pad_symmetric_neg": lambda im: F.pad(im, [2, -1, 3, 1], padding_mode="symmetric"),
    "pil_pad_constant": lambda im: F.pad(im, [1, 2, 3, 4], fill=(1, 2, 3)),
    "pil_resize_short": lambda im: F.resize(im, 7, F.InterpolationMode.BICUBIC),
    "pil_resize_max": lambda im: F.resize(im, 8, max_size=9),
    "pil_center_crop_pad": lambda im: F.center_crop(im, [16, 20]),
    "pil_blur": lambda im: F.gaussian_blur(im, 5, 1.1),
    "pil_gray3": lambda im: F.rgb_to_grayscale(im, 3),
    "pil_sharpness": lambda im: F.adjust_sharpness(im, 0.3),
    "pil_posterize": lambda im: F.posterize(im, 2),
    "pil_solarize": lambda im: F.solarize(im, 100),
}


@pytest.fixture
def pil(tvref):
    return Image.fromarray(np.ascontiguousarray(tvref["in_u8"].transpose(1, 2, 0)))


@pytest.mark.parametrize("key", sorted(PIL_CASES))
def test_pil_path_matches_torchvision(tvref, pil, key):
    out = PIL_CASES[key](pil)
    assert isinstance(out, Image.Image)
    np.testing.assert_array_equal(np.asarray(out), tvref[key])


def test_pil_ops_are_pillow_ops(pil):
    from PIL import ImageEnhance, ImageOps

    np.testing.assert_array_equal(np.asarray(F.hflip(pil)), np.asarray(pil)[:, ::-1])
    np.testing.assert_array_equal(np.asarray(F.vflip(pil)), np.asarray(pil)[::-1])
    np.testing.assert_array_equal(np.asarray(F.adjust_brightness(pil, 1.3)),
                                  np.asarray(ImageEnhance.Brightness(pil).enhance(1.3)))
    np.testing.assert_array_equal(np.asarray(F.adjust_contrast(pil, 0.3)),
                                  np.asarray(ImageEnhance.Contrast(pil).enhance(0.3)))
    np.testing.assert_array_equal(np.asarray(F.adjust_saturation(pil, 0.3)),
                                  np.asarray(ImageEnhance.Color(pil).enhance(0.3)))
    np.testing.assert_array_equal(np.asarray(F.equalize(pil)), np.asarray(ImageOps.equalize(pil)))
    np.testing.assert_array_equal(np.asarray(F.autocontrast(pil)), np.asarray(ImageOps.autocontrast(pil)))
    np.testing.assert_array_equal(np.asarray(F.invert(pil)), 255 - np.asarray(pil))
    np.testing.assert_array_equal(np.asarray(F.crop(pil, 2, 3, 4, 5)), np.asarray(pil)[2:6, 3:8])
    np.testing.assert_array_equal(np.asarray(F.resize(pil, [5, 6], F.InterpolationMode.LANCZOS)),
                                  np.asarray(pil.resize((6, 5), Image.LANCZOS)))
    np.testing.assert_array_equal(np.asarray(F.to_grayscale(pil)), np.asarray(pil.convert("L")))


def test_to_tensor_modes():
    rgb = np.random.default_rng(1).integers(0, 256, (4, 5, 3), dtype=np.uint8)
    t = F.to_tensor(Image.fromarray(rgb))
    assert_close(t, (rgb.transpose(2, 0, 1) / np.float32(255)).astype(np.float32), atol=1e-7)
    assert_close(F.to_tensor(rgb), (rgb.transpose(2, 0, 1) / np.float32(255)).astype(np.float32), atol=1e-7)
    # non-uint8 arrays are not scaled
    f = rgb.astype(np.float64)
    assert_close(F.to_tensor(f), f.transpose(2, 0, 1))
    gray = rgb[..., 0]
    assert_close(F.to_tensor(gray), (gray[None] / np.float32(255)).astype(np.float32), atol=1e-7)
    i32 = Image.fromarray(gray.astype(np.int32) * 1000)
    assert_close(F.to_tensor(i32), np.asarray(i32)[None])
    fl = Image.fromarray(gray.astype(np.float32) / 7)
    assert_close(F.to_tensor(fl), np.asarray(fl)[None])
    bw = Image.fromarray(gray > 128)
    assert_close(F.to_tensor(bw), (gray > 128)[None].astype(np.float32))
    assert_close(F.pil_to_tensor(Image.fromarray(rgb)), rgb.transpose(2, 0, 1))
    with pytest.raises(TypeError):
        F.to_tensor([1, 2, 3])
    with pytest.raises(ValueError):
        F.to_tensor(np.zeros((1, 2, 3, 4), np.uint8))
    with pytest.raises(TypeError):
        F.pil_to_tensor(rgb)


def test_to_pil_image_modes():
    rng = np.random.default_rng(2)
    u8 = rng.integers(0, 256, (3, 4, 5), dtype=np.uint8)
    im = F.to_pil_image(torch.from_numpy(u8))
    assert im.mode == "RGB"
    np.testing.assert_array_equal(np.asarray(im), u8.transpose(1, 2, 0))
    f = rng.random((1, 4, 5), dtype=np.float32)
    im = F.to_pil_image(torch.from_numpy(f))
    assert im.mode == "L"
    np.testing.assert_array_equal(np.asarray(im), (f[0] * 255).astype(np.uint8))  # mul(255).byte() truncates
    assert F.to_pil_image(torch.from_numpy(f), mode="F").mode == "F"
    assert F.to_pil_image(torch.from_numpy(u8[:2])).mode == "LA"
    assert F.to_pil_image(np.concatenate([u8, u8[:1]]).transpose(1, 2, 0)).mode == "RGBA"
    assert F.to_pil_image(u8.transpose(1, 2, 0), mode="HSV").mode == "HSV"
    i32 = torch.from_numpy(rng.integers(0, 70000, (1, 4, 5)).astype(np.int32))
    im = F.to_pil_image(i32)
    assert im.mode == "I"
    np.testing.assert_array_equal(np.asarray(im), asnp(i32)[0])
    with pytest.raises(ValueError, match="Incorrect mode"):
        F.to_pil_image(torch.from_numpy(u8[:1]), mode="F")
    with pytest.raises(ValueError, match="Only modes"):
        F.to_pil_image(torch.from_numpy(u8), mode="RGBA")
    with pytest.raises(ValueError, match="> 4 channels"):
        F.to_pil_image(torch.from_numpy(np.zeros((5, 2, 2), np.uint8)))
    with pytest.raises(TypeError):
        F.to_pil_image([1, 2])
    with pytest.raises(TypeError, match="not supported"):
        F.to_pil_image(np.zeros((2, 2, 3), np.float32))


def test_wrong_input_types_raise():
    with pytest.raises(TypeError, match="PIL Image or Tensor"):
        F.hflip(np.zeros((3, 4, 4)))
    with pytest.raises(TypeError, match="Tensor Image"):
        F.normalize(Image.new("RGB", (4, 4)), [0.5], [0.5])
    with pytest.raises(ValueError, match="hue_factor"):
        F.adjust_hue(Image.new("RGB", (4, 4)), 0.7)
    with pytest.raises(ValueError, match="odd and positive"):
        F.gaussian_blur(Image.new("RGB", (4, 4)), 4)
    with pytest.raises(TypeError, match="Input image tensor permitted channel values"):
        F.adjust_brightness(torch.from_numpy(np.zeros((2, 4, 4), np.float32)), 1.2)
    with pytest.raises(TypeError, match="uint8"):
        F.equalize(torch.from_numpy(np.zeros((3, 4, 4), np.float32)))
    with pytest.raises(RuntimeError, match="cannot be performed safely"):
        F.convert_image_dtype(torch.from_numpy(np.zeros((3, 4, 4), np.float32)), torch.int32)
