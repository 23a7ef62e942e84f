"""torchvision.io (Pillow-defined reference) and torchvision.utils (real torchvision fixtures)."""
import io

import numpy as np
import pytest
from PIL import Image
from vision_helpers import asnp, assert_close

import mindtorch.torch as torch
from mindtorch.torchvision import io as tvio
from mindtorch.torchvision import utils


@pytest.fixture
def rgb():
    return np.random.default_rng(0).integers(0, 256, (3, 9, 11), dtype=np.uint8)


def test_png_roundtrip_and_read_file(tmp_path, rgb):
    t = torch.from_numpy(rgb)
    path = str(tmp_path / "a.png")
    tvio.write_png(t, path, compression_level=9)
    np.testing.assert_array_equal(np.asarray(Image.open(path)), rgb.transpose(1, 2, 0))
    raw = tvio.read_file(path)
    assert asnp(raw).dtype == np.uint8 and asnp(raw).tobytes() == open(path, "rb").read()
    assert_close(tvio.read_image(path), rgb, atol=0)
    assert_close(tvio.decode_png(raw), rgb, atol=0)
    assert_close(tvio.decode_image(raw), rgb, atol=0)
    gray = np.asarray(Image.open(path).convert("L"))
    assert_close(tvio.read_image(path, tvio.ImageReadMode.GRAY), gray[None], atol=0)
    rgba = tvio.read_image(path, tvio.ImageReadMode.RGB_ALPHA)
    assert tuple(rgba.shape) == (4, 9, 11) and (asnp(rgba)[3] == 255).all()
    la = np.stack([gray, np.full_like(gray, 7)], -1)
    Image.fromarray(la, "LA").save(tmp_path / "la.png")
    assert_close(tvio.read_image(str(tmp_path / "la.png")), la.transpose(2, 0, 1), atol=0)
    tvio.write_file(str(tmp_path / "copy.png"), raw)
    assert open(tmp_path / "copy.png", "rb").read() == open(path, "rb").read()


def test_jpeg_encode_decode_match_pillow(tmp_path, rgb):
    t = torch.from_numpy(rgb)
    data = tvio.encode_jpeg(t, quality=90)
    buf = asnp(data).tobytes()
    assert buf[:3] == b"\xff\xd8\xff"
    ref = np.asarray(Image.open(io.BytesIO(buf)))
    assert_close(tvio.decode_jpeg(data), ref.transpose(2, 0, 1), atol=0)
    path = str(tmp_path / "a.jpg")
    yy, xx = np.mgrid[0:16, 0:16]
    smooth = np.stack([xx * 15, yy * 15, (xx + yy) * 7]).astype(np.uint8)
    tvio.write_jpeg(torch.from_numpy(smooth), path, quality=95)
    back = asnp(tvio.read_image(path)).astype(int)
    assert np.abs(back - smooth.astype(int)).mean() < 3  # lossy, but close to a smooth input
    with pytest.raises(ValueError, match="between 1 and 100"):
        tvio.encode_jpeg(t, quality=0)
    with pytest.raises(ValueError, match="between 0 and 9"):
        tvio.encode_png(t, compression_level=10)


def test_io_bad_input(tmp_path, rgb):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 30)
    with pytest.raises(RuntimeError, match="bad.png"):
        tvio.read_image(str(bad))
    txt = tmp_path / "x.txt"
    txt.write_text("hello")
    with pytest.raises(RuntimeError, match="Only jpeg and png"):
        tvio.read_image(str(txt))
    with pytest.raises(RuntimeError, match="No such file"):
        tvio.read_file(str(tmp_path / "missing.png"))
    with pytest.raises(RuntimeError, match="uint8"):
        tvio.encode_png(torch.from_numpy(rgb.astype(np.float32)))
    with pytest.raises(RuntimeError, match="number of channels"):
        tvio.encode_png(torch.from_numpy(np.zeros((2, 4, 4), np.uint8)))
    with pytest.raises(NotImplementedError, match="read_video"):
        tvio.read_video("x.mp4")


@pytest.mark.parametrize("key,kwargs", [
    ("grid_default", {}),
    ("grid_nrow2_pad1_value", {"nrow": 2, "padding": 1, "pad_value": 0.5}),
    ("grid_normalize", {"nrow": 3, "normalize": True}),
    ("grid_normalize_range", {"nrow": 3, "normalize": True, "value_range": (-0.5, 1.5)}),
    ("grid_scale_each", {"normalize": True, "scale_each": True}),
])
def test_make_grid_matches_torchvision(tvref, key, kwargs):
    batch = tvref["grid_in"]
    assert_close(utils.make_grid(torch.from_numpy(batch.copy()), **kwargs), tvref[key], atol=1e-6)
    # a list of (C, H, W) tensors is the same as the batch
    assert_close(utils.make_grid([torch.from_numpy(b.copy()) for b in batch], **kwargs), tvref[key], atol=1e-6)


def test_make_grid_single_channel_and_input_untouched(tvref):
    batch = tvref["grid_in"].copy()
    t = torch.from_numpy(batch[:, :1].copy())
    assert_close(utils.make_grid(t, nrow=4), tvref["grid_single_channel"], atol=0)
    utils.make_grid(torch.from_numpy(batch), normalize=True)
    np.testing.assert_array_equal(batch, tvref["grid_in"])
    with pytest.raises(TypeError):
        utils.make_grid(np.zeros((2, 3, 4, 4)))


def test_save_image(tmp_path, tvref):
    batch = torch.from_numpy(tvref["grid_in"].copy())
    path = tmp_path / "g.png"
    utils.save_image(batch, str(path), nrow=3, normalize=True)
    grid = tvref["grid_normalize"]
    expect = np.clip(grid * np.float32(255) + np.float32(0.5), 0, 255).astype(np.uint8).transpose(1, 2, 0)
    np.testing.assert_array_equal(np.asarray(Image.open(path)), expect)


def test_draw_bounding_boxes_matches_torchvision(tvref):
    img = torch.from_numpy(tvref["in_u8"].copy())
    boxes = torch.from_numpy(tvref["boxes_draw"].copy())
    assert_close(utils.draw_bounding_boxes(img, boxes, colors=["red", (0, 255, 0), "#0000ff"], width=2),
                 tvref["draw_boxes"], atol=0)
    assert_close(utils.draw_bounding_boxes(img, boxes, fill=True), tvref["draw_boxes_fill"], atol=0)
    gray = torch.from_numpy(tvref["in_gray"].copy())
    half = torch.from_numpy(tvref["boxes_draw"][:1] / 2)
    assert_close(utils.draw_bounding_boxes(gray, half, colors="white"), tvref["draw_boxes_gray"], atol=0)
    labelled = utils.draw_bounding_boxes(img, boxes, labels=["a", "b", "c"])
    assert tuple(labelled.shape) == (3, 13, 17)
    with pytest.raises(ValueError, match="uint8"):
        utils.draw_bounding_boxes(torch.from_numpy(tvref["in_f"].copy()), boxes)
    with pytest.raises(ValueError, match="mismatch"):
        utils.draw_bounding_boxes(img, boxes, labels=["a"])


def test_draw_segmentation_masks_matches_torchvision(tvref):
    img = torch.from_numpy(tvref["in_u8"].copy())
    masks = torch.from_numpy(tvref["seg_masks"].copy())
    # torchvision >= 0.17 blacks out pixels covered by several masks; 0.13 (followed here) lets the last mask win.
    # So: non-overlapping pixels against the real torchvision output, overlapping ones against 0.13's definition.
    m = tvref["seg_masks"]
    overlap = m.sum(0) > 1
    for key, kwargs, last_color in (("draw_masks", {"alpha": 0.7}, utils._generate_color_palette(2)[1]),
                                    ("draw_masks_colors", {"alpha": 0.5, "colors": ["green", (255, 0, 9)]},
                                     (255, 0, 9))):
        out = asnp(utils.draw_segmentation_masks(img, masks, **kwargs))
        np.testing.assert_array_equal(out[:, ~overlap], tvref[key][:, ~overlap])
        a = np.float32(kwargs["alpha"])
        expect = (tvref["in_u8"][:, overlap].astype(np.float32) * np.float32(1 - kwargs["alpha"])
                  + np.asarray(last_color, np.float32)[:, None] * a).astype(np.uint8)
        np.testing.assert_array_equal(out[:, overlap], expect)
    assert overlap.any() and (~overlap).any()
    with pytest.raises(ValueError, match="dtype bool"):
        utils.draw_segmentation_masks(img, torch.from_numpy(tvref["seg_masks"].astype(np.uint8)))


def test_draw_keypoints_is_pillow_drawing(tvref):
    img = tvref["in_u8"].copy()
    kp = np.array([[[2, 3], [10, 8]]], dtype=np.float32)
    out = utils.draw_keypoints(torch.from_numpy(img), torch.from_numpy(kp), connectivity=[(0, 1)], colors="red",
                               radius=1, width=1)
    ref = Image.fromarray(np.ascontiguousarray(img.transpose(1, 2, 0)))
    d = __import__("PIL.ImageDraw", fromlist=["Draw"]).Draw(ref)
    for x, y in kp[0].astype(int):
        d.ellipse([x - 1, y - 1, x + 1, y + 1], fill="red", outline=None, width=0)
    d.line(((2, 3), (10, 8)), width=1)
    assert_close(out, np.asarray(ref).transpose(2, 0, 1), atol=0)
