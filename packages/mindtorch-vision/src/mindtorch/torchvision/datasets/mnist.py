"""MNIST, FashionMNIST, KMNIST and EMNIST from their IDX ("SN3 Pascal Vincent") files (torchvision 0.13)."""
from __future__ import annotations

import codecs
import os
import os.path
import shutil
import string
import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.error import URLError

import numpy as np
from PIL import Image

import mindtorch.torch as torch

from .._bridge import from_numpy, to_numpy
from .utils import check_integrity, download_and_extract_archive, extract_archive, verify_str_arg
from .vision import VisionDataset


class MNIST(VisionDataset):
    """`MNIST <http://yann.lecun.com/exdb/mnist/>`_: 28x28 grayscale digits.

    Files: ``root/MNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte``. `data` is a uint8 tensor (N, 28, 28),
    `targets` an int64 tensor (N,); items are (PIL image mode 'L', int).
    """

    mirrors = [
        "http://yann.lecun.com/exdb/mnist/",
        "https://ossci-datasets.s3.amazonaws.com/mnist/",
    ]
    resources = [
        ("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
        ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
        ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
        ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c"),
    ]
    training_file = "training.pt"
    test_file = "test.pt"
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven",
               "8 - eight", "9 - nine"]

    @property
    def train_labels(self) -> Any:
        warnings.warn("train_labels has been renamed targets")
        return self.targets

    @property
    def test_labels(self) -> Any:
        warnings.warn("test_labels has been renamed targets")
        return self.targets

    @property
    def train_data(self) -> Any:
        warnings.warn("train_data has been renamed data")
        return self.data

    @property
    def test_data(self) -> Any:
        warnings.warn("test_data has been renamed data")
        return self.data

    def __init__(self, root: str, train: bool = True, transform: Optional[Callable] = None,
                 target_transform: Optional[Callable] = None, download: bool = False) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train  # training set or test set
        if self._check_legacy_exist():
            self.data, self.targets = self._load_legacy_data()
            return
        if download:
            self.download()
        if not self._check_exists():
            raise RuntimeError(f"Dataset not found in {self.raw_folder}. You can use download=True to download it")
        self.data, self.targets = self._load_data()

    def _check_legacy_exist(self) -> bool:
        processed_folder_exists = os.path.exists(self.processed_folder)
        if not processed_folder_exists:
            return False
        return all(
            check_integrity(os.path.join(self.processed_folder, file)) for file in (self.training_file, self.test_file)
        )

    def _load_legacy_data(self) -> Tuple[Any, Any]:
        # This is for BC only: the processed .pt files of torchvision < 0.11, read with mindtorch's torch.load.
        load = getattr(torch, "load", None)
        if load is None:
            raise RuntimeError(f"{self.processed_folder} holds legacy processed MNIST files (*.pt), which need "
                               "torch.load; remove the 'processed' folder to use the raw files instead")
        data_file = self.training_file if self.train else self.test_file
        return load(os.path.join(self.processed_folder, data_file))

    def _load_data(self) -> Tuple[Any, Any]:
        image_file = f"{'train' if self.train else 't10k'}-images-idx3-ubyte"
        data = read_image_file(os.path.join(self.raw_folder, image_file))
        label_file = f"{'train' if self.train else 't10k'}-labels-idx1-ubyte"
        targets = read_label_file(os.path.join(self.raw_folder, label_file))
        return data, targets

    def __getitem__(self, index: int) -> Tuple[Any, Any]:
        """(image, target): a PIL 'L' image (after `transform`) and the class index (after `target_transform`)."""
        img, target = to_numpy(self.data)[index], int(to_numpy(self.targets)[index])
        # a PIL image, consistent with all other datasets
        img = Image.fromarray(np.ascontiguousarray(img), mode="L")
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __len__(self) -> int:
        return len(to_numpy(self.data))

    @property
    def raw_folder(self) -> str:
        return os.path.join(self.root, self.__class__.__name__, "raw")

    @property
    def processed_folder(self) -> str:
        return os.path.join(self.root, self.__class__.__name__, "processed")

    @property
    def class_to_idx(self) -> Dict[str, int]:
        return {_class: i for i, _class in enumerate(self.classes)}

    def _check_exists(self) -> bool:
        return all(
            check_integrity(os.path.join(self.raw_folder, os.path.splitext(os.path.basename(url))[0]))
            for url, _ in self.resources
        )

    def download(self) -> None:
        """Download the gzipped IDX files (env mirror first, then `mirrors` in order) and decompress them."""
        if self._check_exists():
            return
        os.makedirs(self.raw_folder, exist_ok=True)
        mirrors = list(self.mirrors)  # download_url itself tries MINDTORCH_DATASET_MIRROR first
        for filename, md5 in self.resources:
            errors: List[str] = []
            for mirror in mirrors:
                url = f"{mirror.rstrip('/')}/{filename}"
                try:
                    print(f"Downloading {url}")
                    download_and_extract_archive(url, download_root=self.raw_folder, filename=filename, md5=md5)
                except (URLError, RuntimeError) as error:
                    print(f"Failed to download (trying next):\n{error}")
                    errors.append(str(error))
                    continue
                break
            else:
                raise RuntimeError(f"Error downloading {filename}:\n" + "\n".join(errors))

    def extra_repr(self) -> str:
        split = "Train" if self.train is True else "Test"
        return f"Split: {split}"


class FashionMNIST(MNIST):
    """`Fashion-MNIST <https://github.com/zalandoresearch/fashion-mnist>`_ (same layout as MNIST)."""

    mirrors = ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
        ("train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"),
        ("t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"),
        ("t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310"),
    ]
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]


class KMNIST(MNIST):
    """`Kuzushiji-MNIST <https://github.com/rois-codh/kmnist>`_ (same layout as MNIST)."""

    mirrors = ["http://codh.rois.ac.jp/kmnist/dataset/kmnist/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "bdb82020997e1d708af4cf47b453dcf7"),
        ("train-labels-idx1-ubyte.gz", "e144d726b3acfaa3e44228e80efcd344"),
        ("t10k-images-idx3-ubyte.gz", "5c965bf0a639b31b8f53240b1b52f4d7"),
        ("t10k-labels-idx1-ubyte.gz", "7320c461ea6c1c855c0b718fb2a4b134"),
    ]
    classes = ["o", "ki", "su", "tsu", "na", "ha", "ma", "ya", "re", "wo"]


class EMNIST(MNIST):
    """`EMNIST <https://www.westernsydney.edu.au/bens/home/reproducible_research/emnist>`_.

    split: byclass, bymerge, balanced, letters, digits or mnist. Files: ``root/EMNIST/raw/emnist-<split>-
    {train,test}-{images-idx3,labels-idx1}-ubyte``. Images are stored transposed in the files, and (as in
    torchvision) returned as stored.
    """

    url = "https://www.itl.nist.gov/iaui/vip/cs_links/EMNIST/gzip.zip"
    md5 = "58c8d27c78d21e728a6bc7b3cc06412e"
    splits = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")
    # Merged Classes assumes Same structure for both uppercase and lowercase version
    _merged_classes = {"c", "i", "j", "k", "l", "m", "o", "p", "s", "u", "v", "w", "x", "y", "z"}
    _all_classes = set(string.digits + string.ascii_letters)
    classes_split_dict = {
        "byclass": sorted(list(_all_classes)),
        "bymerge": sorted(list(_all_classes - _merged_classes)),
        "balanced": sorted(list(_all_classes - _merged_classes)),
        "letters": ["N/A"] + list(string.ascii_lowercase),
        "digits": list(string.digits),
        "mnist": list(string.digits),
    }

    def __init__(self, root: str, split: str, **kwargs: Any) -> None:
        self.split = verify_str_arg(split, "split", self.splits)
        self.training_file = self._training_file(split)
        self.test_file = self._test_file(split)
        super().__init__(root, **kwargs)
        self.classes = self.classes_split_dict[self.split]

    @staticmethod
    def _training_file(split: str) -> str:
        return f"training_{split}.pt"

    @staticmethod
    def _test_file(split: str) -> str:
        return f"test_{split}.pt"

    @property
    def _file_prefix(self) -> str:
        return f"emnist-{self.split}-{'train' if self.train else 'test'}"

    @property
    def images_file(self) -> str:
        return os.path.join(self.raw_folder, self._file_prefix + "-images-idx3-ubyte")

    @property
    def labels_file(self) -> str:
        return os.path.join(self.raw_folder, self._file_prefix + "-labels-idx1-ubyte")

    def _load_data(self) -> Tuple[Any, Any]:
        return read_image_file(self.images_file), read_label_file(self.labels_file)

    def _check_exists(self) -> bool:
        return all(check_integrity(file) for file in (self.images_file, self.labels_file))

    def download(self) -> None:
        """Download gzip.zip (env mirror first), then decompress the split files it holds."""
        if self._check_exists():
            return
        os.makedirs(self.raw_folder, exist_ok=True)
        download_and_extract_archive(self.url, download_root=self.raw_folder, md5=self.md5)
        gzip_folder = os.path.join(self.raw_folder, "gzip")
        for gzip_file in os.listdir(gzip_folder):
            if gzip_file.endswith(".gz"):
                extract_archive(os.path.join(gzip_folder, gzip_file), self.raw_folder)
        shutil.rmtree(gzip_folder)


def get_int(b: bytes) -> int:
    return int(codecs.encode(b, "hex"), 16)


SN3_PASCALVINCENT_TYPEMAP = {
    8: np.dtype(np.uint8),
    9: np.dtype(np.int8),
    11: np.dtype(">i2"),
    12: np.dtype(">i4"),
    13: np.dtype(">f4"),
    14: np.dtype(">f8"),
}


def read_sn3_pascalvincent_tensor(path: str, strict: bool = True) -> Any:
    """Read an IDX file (Lush 'libidx/idx-io.lsh' format) into a tensor of its stored dtype."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4:
        raise RuntimeError(f"{path} is not an IDX file: only {len(data)} bytes")
    magic = get_int(data[0:4])
    nd = magic % 256
    ty = magic // 256
    if not (1 <= nd <= 3) or ty not in SN3_PASCALVINCENT_TYPEMAP or data[0:2] != b"\x00\x00":
        raise RuntimeError(f"{path} is not an IDX file (bad magic number 0x{magic:08x})")
    s = [get_int(data[4 * (i + 1): 4 * (i + 2)]) for i in range(nd)]
    dtype = SN3_PASCALVINCENT_TYPEMAP[ty]
    expected = 4 * (nd + 1) + int(np.prod(s)) * dtype.itemsize
    if len(data) != expected:
        raise RuntimeError(f"{path} is truncated or corrupt: the header announces shape {s} "
                           f"({expected} bytes) but the file has {len(data)} bytes")
    parsed = np.frombuffer(data, dtype=dtype, offset=(4 * (nd + 1)))
    # the files are big-endian; tensors are native
    parsed = parsed.astype(dtype.newbyteorder("="), copy=True)
    return from_numpy(parsed.reshape(*s))


def read_label_file(path: str) -> Any:
    x = read_sn3_pascalvincent_tensor(path, strict=False)
    arr = to_numpy(x)
    if arr.dtype != np.uint8 or arr.ndim != 1:
        raise RuntimeError(f"{path}: expected a 1-d uint8 label file, got {arr.ndim}-d {arr.dtype}")
    return from_numpy(arr.astype(np.int64))


def read_image_file(path: str) -> Any:
    x = read_sn3_pascalvincent_tensor(path, strict=False)
    arr = to_numpy(x)
    if arr.dtype != np.uint8 or arr.ndim != 3:
        raise RuntimeError(f"{path}: expected a 3-d uint8 image file, got {arr.ndim}-d {arr.dtype}")
    return x
