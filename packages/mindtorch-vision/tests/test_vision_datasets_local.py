"""Datasets read from local files in their real formats; bad input gives errors naming the file."""
import json
import os
import pickle

import numpy as np
import pytest
from PIL import Image
from vision_formats import cifar_tar, idx_bytes, md5
from vision_helpers import asnp

import mindtorch.torchvision.transforms as T
from mindtorch.torchvision import datasets
from mindtorch.torchvision.datasets import utils


def _png(path, arr):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    Image.fromarray(arr).save(path)


@pytest.fixture
def image_tree(tmp_path):
    rng = np.random.default_rng(0)
    arrays = {}
    for cls in ("cat", "dog"):
        for i in range(2):
            a = rng.integers(0, 256, (5, 6, 3), dtype=np.uint8)
            p = str(tmp_path / "imgs" / cls / f"{i}.png")
            _png(p, a)
            arrays[p] = a
    (tmp_path / "imgs" / "dog" / "notes.txt").write_text("not an image")
    _png(str(tmp_path / "imgs" / "dog" / "sub" / "2.png"), rng.integers(0, 256, (5, 6, 3), dtype=np.uint8))
    return tmp_path / "imgs", arrays


def test_image_folder(image_tree):
    root, arrays = image_tree
    ds = datasets.ImageFolder(str(root), transform=T.ToTensor(), target_transform=lambda t: t * 10)
    assert ds.classes == ["cat", "dog"] and ds.class_to_idx == {"cat": 0, "dog": 1}
    assert [os.path.relpath(p, root) for p, _ in ds.samples] == ["cat/0.png", "cat/1.png", "dog/0.png", "dog/1.png",
                                                                 "dog/sub/2.png"]
    assert ds.targets == [0, 0, 1, 1, 1] and ds.imgs is ds.samples
    x, y = ds[2]
    np.testing.assert_allclose(asnp(x), arrays[ds.samples[2][0]].transpose(2, 0, 1) / np.float32(255), atol=1e-7)
    assert y == 10
    assert "StandardTransform\nTransform: ToTensor()" in repr(ds)


def test_dataset_folder_loader_and_filters(image_tree):
    root, _ = image_tree
    with pytest.raises(FileNotFoundError, match="Found no valid file for the classes cat"):
        datasets.DatasetFolder(str(root), loader=lambda p: p, extensions=(".txt",))
    ds = datasets.DatasetFolder(str(root), loader=lambda p: os.path.basename(p),
                                is_valid_file=lambda p: p.endswith("0.png"))
    assert [ds[i] for i in range(len(ds))] == [("0.png", 0), ("0.png", 1)]
    with pytest.raises(ValueError, match="Both extensions and is_valid_file"):
        datasets.DatasetFolder(str(root), loader=str)


def test_missing_folder_and_corrupt_image(tmp_path, image_tree):
    with pytest.raises(FileNotFoundError, match=str(tmp_path / "nope")):
        datasets.ImageFolder(str(tmp_path / "nope"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="Couldn't find any class folder"):
        datasets.ImageFolder(str(tmp_path / "empty"))
    root, _ = image_tree
    bad = root / "cat" / "9.png"
    bad.write_bytes(b"\x89PNG garbage")
    ds = datasets.ImageFolder(str(root))
    idx = [p for p, _ in ds.samples].index(str(bad))
    with pytest.raises(OSError, match="9.png"):
        ds[idx]
    trunc = root / "dog" / "t.png"
    full = (root / "dog" / "0.png").read_bytes()
    trunc.write_bytes(full[: len(full) // 2])
    ds = datasets.ImageFolder(str(root))
    with pytest.raises(OSError, match="t.png"):
        ds[[p for p, _ in ds.samples].index(str(trunc))]


def test_fakedata_deterministic():
    ds = datasets.FakeData(size=4, image_size=(3, 8, 9), num_classes=3, transform=T.PILToTensor())
    a, ta = ds[1]
    b, tb = ds[1]
    np.testing.assert_array_equal(asnp(a), asnp(b))
    assert ta == tb and 0 <= ta < 3 and tuple(a.shape) == (3, 8, 9)
    assert not np.array_equal(asnp(ds[2][0]), asnp(a))
    with pytest.raises(IndexError):
        ds[4]
    assert repr(ds).startswith("Dataset FakeData\n    Number of datapoints: 4\n    StandardTransform")


def test_mnist_corrupt_idx_names_file(tmp_path):
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    rng = np.random.default_rng(0)
    files = {"train-images-idx3-ubyte": rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
             "train-labels-idx1-ubyte": rng.integers(0, 10, 3, dtype=np.uint8),
             "t10k-images-idx3-ubyte": rng.integers(0, 256, (2, 28, 28), dtype=np.uint8),
             "t10k-labels-idx1-ubyte": rng.integers(0, 10, 2, dtype=np.uint8)}
    for n, a in files.items():
        (raw / n).write_bytes(idx_bytes(a))
    ds = datasets.MNIST(str(tmp_path), train=False)
    np.testing.assert_array_equal(asnp(ds.data), files["t10k-images-idx3-ubyte"])
    (raw / "train-images-idx3-ubyte").write_bytes(idx_bytes(files["train-images-idx3-ubyte"])[:-10])
    with pytest.raises(RuntimeError, match="train-images-idx3-ubyte is truncated"):
        datasets.MNIST(str(tmp_path), train=True)
    (raw / "train-images-idx3-ubyte").write_bytes(b"PK\x03\x04 not idx at all")
    with pytest.raises(RuntimeError, match="train-images-idx3-ubyte is not an IDX file"):
        datasets.MNIST(str(tmp_path), train=True)


def test_svhn_mat(tmp_path):
    sio = pytest.importorskip("scipy.io")
    rng = np.random.default_rng(4)
    x = rng.integers(0, 256, (32, 32, 3, 5), dtype=np.uint8)
    y = np.array([[10], [1], [2], [10], [9]], dtype=np.uint8)
    sio.savemat(str(tmp_path / "test_32x32.mat"), {"X": x, "y": y})
    cls = type("SVHN", (datasets.SVHN,), {"split_list": dict(datasets.SVHN.split_list, test=[
        "unused", "test_32x32.mat", md5(str(tmp_path / "test_32x32.mat"))])})
    ds = cls(str(tmp_path), split="test")
    assert list(ds.labels) == [0, 1, 2, 0, 9] and len(ds) == 5
    img, t = ds[3]
    np.testing.assert_array_equal(np.asarray(img), x[..., 3])
    assert t == 0 and "Split: test" in repr(ds)
    with pytest.raises(RuntimeError, match="test_32x32.mat"):
        datasets.SVHN(str(tmp_path), split="test")  # real md5 differs -> not found or corrupted


def test_stl10_binary(tmp_path):
    rng = np.random.default_rng(5)
    base = tmp_path / "stl10_binary"
    base.mkdir()
    train = rng.integers(0, 256, (4, 3, 96, 96), dtype=np.uint8)
    unl = rng.integers(0, 256, (2, 3, 96, 96), dtype=np.uint8)
    test = rng.integers(0, 256, (3, 3, 96, 96), dtype=np.uint8)
    (base / "train_X.bin").write_bytes(train.tobytes())
    (base / "train_y.bin").write_bytes(np.array([1, 2, 3, 10], np.uint8).tobytes())
    (base / "unlabeled_X.bin").write_bytes(unl.tobytes())
    (base / "test_X.bin").write_bytes(test.tobytes())
    (base / "test_y.bin").write_bytes(np.array([5, 6, 7], np.uint8).tobytes())
    (base / "class_names.txt").write_text("\n".join(f"c{i}" for i in range(10)))
    (base / "fold_indices.txt").write_text("0 2\n1 3\n" * 5)
    cls = type("STL10", (datasets.STL10,), {
        "train_list": [[n, md5(str(base / n))] for n, _ in datasets.STL10.train_list],
        "test_list": [[n, md5(str(base / n))] for n, _ in datasets.STL10.test_list]})
    ds = cls(str(tmp_path), split="train")
    assert list(ds.labels) == [0, 1, 2, 9] and ds.classes[0] == "c0"
    img, t = ds[1]
    # files store each channel column-major: torchvision transposes (C, W, H) -> (C, H, W)
    np.testing.assert_array_equal(np.asarray(img), train[1].transpose(0, 2, 1).transpose(1, 2, 0))
    assert t == 1
    assert list(cls(str(tmp_path), split="train", folds=1).labels) == [1, 9]
    both = cls(str(tmp_path), split="train+unlabeled")
    assert len(both) == 6 and list(both.labels[-2:]) == [-1, -1]
    assert len(cls(str(tmp_path), split="test")) == 3
    with pytest.raises(ValueError, match="folds"):
        cls(str(tmp_path), folds=10)


VOC_XML = """<annotation><folder>VOC2012</folder><filename>{name}.jpg</filename>
<size><width>8</width><height>6</height><depth>3</depth></size>
<object><name>dog</name><difficult>0</difficult><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>5</xmax><ymax>6</ymax>
</bndbox></object>{extra}</annotation>"""


def test_voc_local_layout(tmp_path):
    voc = tmp_path / "VOCdevkit" / "VOC2012"
    rng = np.random.default_rng(6)
    for sub in ("ImageSets/Main", "ImageSets/Segmentation", "JPEGImages", "Annotations", "SegmentationClass"):
        (voc / sub).mkdir(parents=True)
    names = ["2008_000001", "2008_000002"]
    for i, n in enumerate(names):
        Image.fromarray(rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)).save(voc / "JPEGImages" / f"{n}.jpg")
        mask = Image.fromarray(rng.integers(0, 21, (6, 8), dtype=np.uint8), mode="L").convert("P")
        mask.save(voc / "SegmentationClass" / f"{n}.png")
        extra = "<object><name>cat</name><bndbox><xmin>0</xmin></bndbox></object>" if i else ""
        (voc / "Annotations" / f"{n}.xml").write_text(VOC_XML.format(name=n, extra=extra))
    (voc / "ImageSets" / "Main" / "train.txt").write_text("\n".join(names) + "\n")
    (voc / "ImageSets" / "Segmentation" / "train.txt").write_text(names[1] + "\n")
    det = datasets.VOCDetection(str(tmp_path), year="2012", image_set="train")
    img, target = det[0]
    assert img.mode == "RGB" and img.size == (8, 6)
    ann = target["annotation"]
    assert ann["filename"] == "2008_000001.jpg" and ann["size"] == {"width": "8", "height": "6", "depth": "3"}
    assert ann["object"] == [{"name": "dog", "difficult": "0",
                              "bndbox": {"xmin": "1", "ymin": "2", "xmax": "5", "ymax": "6"}}]
    assert [o["name"] for o in det[1][1]["annotation"]["object"]] == ["dog", "cat"]
    seg = datasets.VOCSegmentation(str(tmp_path), image_set="train",
                                   transforms=lambda i, m: (i, np.asarray(m)))
    assert len(seg) == 1
    np.testing.assert_array_equal(seg[0][1], np.asarray(Image.open(voc / "SegmentationClass" / f"{names[1]}.png")))
    (voc / "Annotations" / f"{names[0]}.xml").write_text("<annotation><broken>")
    with pytest.raises(RuntimeError, match=f"{names[0]}.xml is not valid XML"):
        det[0]
    with pytest.raises(RuntimeError, match="Dataset not found"):
        datasets.VOCDetection(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="image_set"):
        datasets.VOCDetection(str(tmp_path), image_set="test")


def test_coco_detection_json(tmp_path):
    rng = np.random.default_rng(7)
    (tmp_path / "imgs").mkdir()
    for i in (1, 2):
        Image.fromarray(rng.integers(0, 256, (4, 5, 3), dtype=np.uint8)).save(tmp_path / "imgs" / f"{i}.png")
    ann = {"images": [{"id": 2, "file_name": "2.png"}, {"id": 1, "file_name": "1.png"}],
           "annotations": [{"id": 10, "image_id": 1, "bbox": [0, 0, 2, 2], "category_id": 3, "caption": "a"},
                           {"id": 11, "image_id": 2, "bbox": [1, 1, 2, 2], "category_id": 1, "caption": "b"},
                           {"id": 12, "image_id": 1, "bbox": [1, 0, 1, 1], "category_id": 1, "caption": "c"}],
           "categories": [{"id": 1, "name": "x"}, {"id": 3, "name": "y"}]}
    (tmp_path / "ann.json").write_text(json.dumps(ann))
    ds = datasets.CocoDetection(str(tmp_path / "imgs"), str(tmp_path / "ann.json"))
    assert ds.ids == [1, 2] and len(ds) == 2
    img, target = ds[0]
    assert img.size == (5, 4) and [a["id"] for a in target] == [10, 12]
    caps = datasets.CocoCaptions(str(tmp_path / "imgs"), str(tmp_path / "ann.json"))
    assert caps[0][1] == ["a", "c"] and caps[1][1] == ["b"]
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RuntimeError, match="bad.json is not valid JSON"):
        datasets.CocoDetection(str(tmp_path / "imgs"), str(tmp_path / "bad.json"))
    os.remove(tmp_path / "imgs" / "2.png")
    with pytest.raises(FileNotFoundError, match="2.png"):
        ds[1]


def test_cifar_pickle_with_code_is_refused(tmp_path):
    path, _, _, md5s, _ = cifar_tar(str(tmp_path / "srv"))
    utils.extract_archive(path, str(tmp_path / "root"))

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo hacked",))

    batch = tmp_path / "root" / "cifar-10-batches-py" / "data_batch_1"
    batch.write_bytes(pickle.dumps({"data": Evil()}))
    md5s["data_batch_1"] = md5(str(batch))
    cls = type("CIFAR10", (datasets.CIFAR10,), {
        "train_list": [[n, md5s[n]] for n, _ in datasets.CIFAR10.train_list],
        "test_list": [[n, md5s[n]] for n, _ in datasets.CIFAR10.test_list],
        "meta": dict(datasets.CIFAR10.meta, md5=md5s["batches.meta"])})
    with pytest.raises(RuntimeError, match="data_batch_1 is not a valid dataset pickle"):
        cls(str(tmp_path / "root"))


def test_vision_dataset_transforms_args():
    with pytest.raises(ValueError, match="Only transforms or transform/target_transform"):
        datasets.VisionDataset("r", transforms=lambda a, b: (a, b), transform=lambda a: a)


def test_dataloader_batches_image_folder(image_tree):
    from mindtorch.torch.utils.data import DataLoader

    root, arrays = image_tree
    ds = datasets.ImageFolder(str(root), transform=T.Compose([T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)]))
    batches = list(DataLoader(ds, batch_size=2, shuffle=False))
    assert [tuple(x.shape) for x, _ in batches] == [(2, 3, 5, 6), (2, 3, 5, 6), (1, 3, 5, 6)]
    first = (arrays[ds.samples[0][0]].transpose(2, 0, 1) / np.float32(255)).astype(np.float32)
    np.testing.assert_allclose(asnp(batches[0][0])[0], (first - 0.5) / 0.5, atol=1e-6)
    assert asnp(batches[1][1]).tolist() == ds.targets[2:4]
