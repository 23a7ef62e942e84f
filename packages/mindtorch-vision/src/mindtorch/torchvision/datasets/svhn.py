"""SVHN (cropped digits, .mat files read with scipy.io) (torchvision 0.13)."""
from __future__ import annotations

import os.path
from typing import Any, Callable, Optional, Tuple

import numpy as np
from PIL import Image

from .utils import check_integrity, download_url, verify_str_arg
from .vision import VisionDataset


class SVHN(VisionDataset):
    """`SVHN <http://ufldl.stanford.edu/housenumbers/>`_. Label 10 (digit 0) becomes 0, as in torchvision.

    split: train, test or extra. Needs scipy (``pip install mindtorch-vision[scipy]``) to read the .mat files.
    """

    split_list = {
        "train": ["http://ufldl.stanford.edu/housenumbers/train_32x32.mat", "train_32x32.mat",
                  "e26dedcc434d2e4c54c9b2d4a06d8373"],
        "test": ["http://ufldl.stanford.edu/housenumbers/test_32x32.mat", "test_32x32.mat",
                 "eb5a983be6a315427106f1b164d9cef3"],
        "extra": ["http://ufldl.stanford.edu/housenumbers/extra_32x32.mat", "extra_32x32.mat",
                  "a93ce644f1a588dc4d68dda5feec44a7"],
    }

    def __init__(self, root: str, split: str = "train", transform: Optional[Callable] = None,
                 target_transform: Optional[Callable] = None, download: bool = False) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.split = verify_str_arg(split, "split", tuple(self.split_list.keys()))
        self.url = self.split_list[split][0]
        self.filename = self.split_list[split][1]
        self.file_md5 = self.split_list[split][2]
        if download:
            self.download()
        if not self._check_integrity():
            raise RuntimeError(f"Dataset not found or corrupted: {os.path.join(self.root, self.filename)}. "
                               "You can use download=True to download it")
        try:
            import scipy.io as sio
        except ImportError as e:
            raise ImportError("SVHN reads .mat files with scipy: pip install scipy") from e
        path = os.path.join(self.root, self.filename)
        try:
            loaded_mat = sio.loadmat(path)
        except (ValueError, OSError, TypeError) as e:
            raise RuntimeError(f"{path} is not a readable SVHN .mat file: {e}") from e
        self.data = loaded_mat["X"]
        # loading from the .mat file gives an np.ndarray of type np.uint8; converting to np.int64, so that we
        # have a LongTensor after the conversion to torch tensors
        self.labels = loaded_mat["y"].astype(np.int64).squeeze()
        # the svhn dataset assigns the class label "10" to the digit 0
        np.place(self.labels, self.labels == 10, 0)
        self.data = np.transpose(self.data, (3, 2, 0, 1))

    def __getitem__(self, index: int) -> Tuple[Any, Any]:
        img, target = self.data[index], int(self.labels[index])
        img = Image.fromarray(np.transpose(img, (1, 2, 0)))
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __len__(self) -> int:
        return len(self.data)

    def _check_integrity(self) -> bool:
        return check_integrity(os.path.join(self.root, self.filename), self.file_md5)

    def download(self) -> None:
        download_url(self.url, self.root, self.filename, self.file_md5)

    def extra_repr(self) -> str:
        return "Split: {split}".format(**self.__dict__)
