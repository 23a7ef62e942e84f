"""Writers for tiny dataset files in the REAL on-disk formats (IDX, CIFAR pickles, STL10 binary, SVHN .mat)."""
from __future__ import annotations

import gzip
import hashlib
import io
import os
import pickle
import struct
import tarfile

import numpy as np


def md5(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def idx_bytes(arr: np.ndarray) -> bytes:
    """The IDX encoding of a uint8 array (magic 0x0000080N, big-endian dims, data)."""
    header = struct.pack(">BBBB", 0, 0, 8, arr.ndim) + b"".join(struct.pack(">I", d) for d in arr.shape)
    return header + np.ascontiguousarray(arr, dtype=np.uint8).tobytes()


def write_mnist_gz(folder: str, n_train: int = 5, n_test: int = 3, seed: int = 0, prefix: str = ""):
    """{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz; returns (arrays, {filename: md5})."""
    rng = np.random.default_rng(seed)
    arrays = {
        "train-images-idx3-ubyte": rng.integers(0, 256, (n_train, 28, 28), dtype=np.uint8),
        "train-labels-idx1-ubyte": rng.integers(0, 10, n_train, dtype=np.uint8),
        "t10k-images-idx3-ubyte": rng.integers(0, 256, (n_test, 28, 28), dtype=np.uint8),
        "t10k-labels-idx1-ubyte": rng.integers(0, 10, n_test, dtype=np.uint8),
    }
    sums = {}
    os.makedirs(folder, exist_ok=True)
    for name, arr in arrays.items():
        path = os.path.join(folder, prefix + name + ".gz")
        with gzip.open(path, "wb") as f:
            f.write(idx_bytes(arr))
        sums[prefix + name + ".gz"] = md5(path)
    return arrays, sums


def cifar_tar(folder: str, n_per_batch: int = 4, seed: int = 0, hundred: bool = False):
    """cifar-10-python.tar.gz (or cifar-100) holding real pickled batches; returns (path, data, labels, md5s)."""
    rng = np.random.default_rng(seed)
    base = "cifar-100-python" if hundred else "cifar-10-batches-py"
    names = ["train", "test"] if hundred else [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
    contents, data, labels = {}, {}, {}
    for name in names:
        x = rng.integers(0, 256, (n_per_batch, 3072), dtype=np.uint8)
        y = [int(v) for v in rng.integers(0, 100 if hundred else 10, n_per_batch)]
        key = "fine_labels" if hundred else "labels"
        contents[name] = pickle.dumps({"batch_label": name, key: y, "data": x, "filenames": ["f"] * n_per_batch},
                                      protocol=2)
        data[name], labels[name] = x, y
    meta_name, meta_key = ("meta", "fine_label_names") if hundred else ("batches.meta", "label_names")
    classes = [f"class{i}" for i in range(100 if hundred else 10)]
    contents[meta_name] = pickle.dumps({meta_key: classes, "num_vis": 3072}, protocol=2)
    md5s = {n: hashlib.md5(b).hexdigest() for n, b in contents.items()}
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, ("cifar-100-python" if hundred else "cifar-10-python") + ".tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        for n, b in contents.items():
            info = tarfile.TarInfo(f"{base}/{n}")
            info.size = len(b)
            tar.addfile(info, io.BytesIO(b))
    return path, data, labels, md5s, classes
