"""download_url / extract_archive / dataset download=True against a REAL http.server on 127.0.0.1."""
import gzip
import os
import tarfile
import zipfile

import numpy as np
import pytest
from vision_formats import cifar_tar, idx_bytes, md5, write_mnist_gz
from vision_helpers import asnp
from vision_http import FileServer, closed_port_url

from mindtorch.torchvision import datasets
from mindtorch.torchvision.datasets import utils


@pytest.fixture(autouse=True)
def _no_env_mirror(monkeypatch):
    monkeypatch.delenv(utils.MIRROR_ENV, raising=False)


def _blob(tmp_path, name="blob.bin", size=200_000):
    srv = tmp_path / "srv"
    srv.mkdir(exist_ok=True)
    data = np.random.default_rng(1).integers(0, 256, size, dtype=np.uint8).tobytes()
    (srv / name).write_bytes(data)
    return srv, data


def test_download_and_checksum_ok(tmp_path):
    srv, data = _blob(tmp_path)
    with FileServer(str(srv)) as s:
        utils.download_url(s.url + "blob.bin", str(tmp_path / "out"), md5=md5(str(srv / "blob.bin")))
        assert (tmp_path / "out" / "blob.bin").read_bytes() == data
        assert not (tmp_path / "out" / "blob.bin.part").exists()
        # present and verified: no second request
        n = len(s.requests)
        utils.download_url(s.url + "blob.bin", str(tmp_path / "out"), md5=md5(str(srv / "blob.bin")))
        assert len(s.requests) == n


def test_checksum_failure_leaves_nothing(tmp_path):
    srv, _ = _blob(tmp_path)
    with FileServer(str(srv)) as s:
        with pytest.raises(RuntimeError, match="MD5 mismatch") as ei:
            utils.download_url(s.url + "blob.bin", str(tmp_path / "out"), md5="0" * 32, retries=1)
    assert "blob.bin" in str(ei.value)
    assert os.listdir(tmp_path / "out") == []


def test_network_absent_names_url_and_leaves_no_partial(tmp_path):
    url = closed_port_url() + "train.tar.gz"
    with pytest.raises(RuntimeError) as ei:
        utils.download_url(url, str(tmp_path / "out"), retries=2)
    assert url in str(ei.value)
    assert os.listdir(tmp_path / "out") == []


def test_http_404_names_url(tmp_path):
    srv, _ = _blob(tmp_path)
    with FileServer(str(srv)) as s:
        with pytest.raises(RuntimeError, match="missing.bin") as ei:
            utils.download_url(s.url + "missing.bin", str(tmp_path / "out"))
        assert len(s.requests) == 1  # a 404 is not retried
    assert s.url + "missing.bin" in str(ei.value)


@pytest.mark.parametrize("server_range", [True, False])
def test_resume_partial_file(tmp_path, server_range):
    srv, data = _blob(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "blob.bin.part").write_bytes(data[:70_000])  # left by an interrupted run
    with FileServer(str(srv), range=server_range) as s:
        utils.download_url(s.url + "blob.bin", str(out), md5=md5(str(srv / "blob.bin")))
        assert s.requests[0]["range"] == "bytes=70000-"
    assert (out / "blob.bin").read_bytes() == data
    assert not (out / "blob.bin.part").exists()


def test_interrupted_transfer_is_retried_and_resumed(tmp_path):
    srv, data = _blob(tmp_path)
    with FileServer(str(srv), truncate_first=50_000) as s:
        utils.download_url(s.url + "blob.bin", str(tmp_path / "out"), md5=md5(str(srv / "blob.bin")))
        assert len(s.requests) == 2 and s.requests[1]["range"] == "bytes=50000-"
    assert (tmp_path / "out" / "blob.bin").read_bytes() == data


def test_env_mirror_is_tried_first(tmp_path, monkeypatch):
    srv, data = _blob(tmp_path)
    with FileServer(str(srv)) as s:
        monkeypatch.setenv(utils.MIRROR_ENV, s.url)
        utils.download_url(closed_port_url() + "blob.bin", str(tmp_path / "out"), md5=md5(str(srv / "blob.bin")))
        assert s.requests[0]["path"] == "/blob.bin"
    assert (tmp_path / "out" / "blob.bin").read_bytes() == data


def test_extract_archive_formats(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("alpha")
    with tarfile.open(tmp_path / "x.tar.gz", "w:gz") as t:
        t.add(src / "a.txt", arcname="d/a.txt")
    with tarfile.open(tmp_path / "x.tar", "w") as t:
        t.add(src / "a.txt", arcname="e/a.txt")
    with zipfile.ZipFile(tmp_path / "x.zip", "w") as z:
        z.write(src / "a.txt", "f/a.txt")
    with gzip.open(tmp_path / "g.txt.gz", "wb") as g:
        g.write(b"gamma")
    out = tmp_path / "out"
    for name in ("x.tar.gz", "x.tar", "x.zip"):
        utils.extract_archive(str(tmp_path / name), str(out))
    assert (out / "d/a.txt").read_text() == (out / "e/a.txt").read_text() == (out / "f/a.txt").read_text() == "alpha"
    assert utils.extract_archive(str(tmp_path / "g.txt.gz"), str(out)) == str(out / "g.txt")
    assert (out / "g.txt").read_bytes() == b"gamma"


@pytest.mark.parametrize("name", ["bad.tar.gz", "bad.zip", "bad.gz"])
def test_corrupt_archive_error_names_file(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"\x1f\x8b\x08 this is not an archive" * 10)
    with pytest.raises(RuntimeError, match="Cannot extract") as ei:
        utils.extract_archive(str(path), str(tmp_path / "out"))
    assert str(path) in str(ei.value)
    assert not (tmp_path / "out" / "bad").exists()


def test_tar_path_traversal_refused(tmp_path):
    import io

    with tarfile.open(tmp_path / "evil.tar", "w") as t:
        info = tarfile.TarInfo("../escape.txt")
        info.size = 3
        t.addfile(info, io.BytesIO(b"bad"))
    with pytest.raises(RuntimeError, match="outside"):
        utils.extract_archive(str(tmp_path / "evil.tar"), str(tmp_path / "out"))
    assert not (tmp_path / "escape.txt").exists()


def test_check_integrity_and_verify_str_arg(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    assert utils.check_integrity(str(p)) and utils.check_integrity(str(p), md5(str(p)))
    assert not utils.check_integrity(str(p), "0" * 32) and not utils.check_integrity(str(tmp_path / "none"))
    with pytest.raises(ValueError, match="Unknown value 'x' for argument split"):
        utils.verify_str_arg("x", "split", ("train", "test"))


def _mnist_class(srv_url, sums, name="TinyMNIST"):
    return type(name, (datasets.MNIST,), {
        "mirrors": [closed_port_url(), srv_url],
        "resources": [(k, v) for k, v in sums.items()],
    })


def test_mnist_download_from_mirrors(tmp_path):
    arrays, sums = write_mnist_gz(str(tmp_path / "srv"))
    with FileServer(str(tmp_path / "srv")) as s:
        cls = _mnist_class(s.url, sums)
        ds = cls(str(tmp_path / "root"), train=True, download=True)
        test = cls(str(tmp_path / "root"), train=False)
    np.testing.assert_array_equal(asnp(ds.data), arrays["train-images-idx3-ubyte"])
    np.testing.assert_array_equal(asnp(ds.targets), arrays["train-labels-idx1-ubyte"].astype(np.int64))
    assert asnp(ds.targets).dtype == np.int64 and len(ds) == 5 and len(test) == 3
    img, target = ds[2]
    assert img.mode == "L" and img.size == (28, 28)
    np.testing.assert_array_equal(np.asarray(img), arrays["train-images-idx3-ubyte"][2])
    assert target == int(arrays["train-labels-idx1-ubyte"][2])
    assert ds.class_to_idx["3 - three"] == 3
    assert repr(ds).splitlines()[:3] == ["Dataset TinyMNIST", "    Number of datapoints: 5",
                                         f"    Root location: {tmp_path / 'root'}"]
    # the raw folder holds the decompressed files (and the verified .gz)
    assert (tmp_path / "root" / "TinyMNIST" / "raw" / "train-images-idx3-ubyte").is_file()


def test_mnist_all_mirrors_fail(tmp_path):
    _, sums = write_mnist_gz(str(tmp_path / "srv"))
    cls = type("TinyMNIST", (datasets.MNIST,), {"mirrors": [closed_port_url()],
                                                "resources": list(sums.items())})
    with pytest.raises(RuntimeError, match="Error downloading train-images-idx3-ubyte.gz"):
        cls(str(tmp_path / "root"), download=True)
    with pytest.raises(RuntimeError, match="Dataset not found"):
        datasets.MNIST(str(tmp_path / "nothing"))


def test_emnist_download_zip(tmp_path):
    srv = tmp_path / "srv"
    srv.mkdir()
    gz = tmp_path / "gzip"
    rng = np.random.default_rng(3)
    imgs = rng.integers(0, 256, (4, 28, 28), dtype=np.uint8)
    labs = rng.integers(1, 27, 4, dtype=np.uint8)
    gz.mkdir()
    for part, arr in (("images-idx3", imgs), ("labels-idx1", labs)):
        with gzip.open(gz / f"emnist-letters-train-{part}-ubyte.gz", "wb") as f:
            f.write(idx_bytes(arr))
    with zipfile.ZipFile(srv / "gzip.zip", "w") as z:
        for p in gz.iterdir():
            z.write(p, f"gzip/{p.name}")
    with FileServer(str(srv)) as s:
        cls = type("EMNIST", (datasets.EMNIST,), {"url": s.url + "gzip.zip", "md5": md5(str(srv / "gzip.zip"))})
        ds = cls(str(tmp_path / "root"), split="letters", download=True)
    assert ds.classes[:3] == ["N/A", "a", "b"] and len(ds) == 4
    np.testing.assert_array_equal(np.asarray(ds[1][0]), imgs[1])
    assert ds[1][1] == int(labs[1])
    with pytest.raises(ValueError, match="split"):
        datasets.EMNIST(str(tmp_path / "root"), split="nope")


@pytest.mark.parametrize("hundred", [False, True])
def test_cifar_download_real_tar_gz(tmp_path, hundred):
    path, data, labels, md5s, classes = cifar_tar(str(tmp_path / "srv"), hundred=hundred)
    base = datasets.CIFAR100 if hundred else datasets.CIFAR10
    with FileServer(str(tmp_path / "srv")) as s:
        attrs = {
            "url": s.url + os.path.basename(path), "tgz_md5": md5(path),
            "train_list": [[n, md5s[n]] for n, _ in base.train_list],
            "test_list": [[n, md5s[n]] for n, _ in base.test_list],
            "meta": dict(base.meta, md5=md5s[base.meta["filename"]]),
        }
        cls = type(base.__name__, (base,), attrs)
        ds = cls(str(tmp_path / "root"), train=True, download=True)
    names = [n for n, _ in base.train_list]
    expect = np.vstack([data[n] for n in names]).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(ds.data, expect)
    assert ds.targets == sum((labels[n] for n in names), [])
    assert ds.classes == classes and ds.class_to_idx["class1"] == 1
    img, t = ds[3]
    np.testing.assert_array_equal(np.asarray(img), expect[3])
    assert t == ds.targets[3]
    test = cls(str(tmp_path / "root"), train=False)
    assert len(test) == 4 and "Split: Test" in repr(test)


def test_cifar_corrupt_batch_is_detected(tmp_path):
    path, _, _, md5s, _ = cifar_tar(str(tmp_path / "srv"))
    utils.extract_archive(path, str(tmp_path / "root"))
    attrs = {"train_list": [[n, md5s[n]] for n, _ in datasets.CIFAR10.train_list],
             "test_list": [[n, md5s[n]] for n, _ in datasets.CIFAR10.test_list],
             "meta": dict(datasets.CIFAR10.meta, md5=md5s["batches.meta"])}
    cls = type("CIFAR10", (datasets.CIFAR10,), attrs)
    (tmp_path / "root" / "cifar-10-batches-py" / "data_batch_2").write_bytes(b"garbage")
    with pytest.raises(RuntimeError, match="not found or corrupted"):
        cls(str(tmp_path / "root"))
