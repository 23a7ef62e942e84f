"""FakeData: random images, deterministic per index (torchvision 0.13 API)."""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import numpy as np

from .. import transforms
from .._bridge import from_numpy
from .vision import VisionDataset


class FakeData(VisionDataset):
    """`size` random (image, label) pairs; image `index` is always the same (seeded by index + random_offset).

    torchvision seeds torch's global generator per item and restores it; here a private numpy generator seeded
    the same way is used, so the global torch stream is untouched (values differ from torchvision's).
    """

    def __init__(self, size: int = 1000, image_size: Tuple[int, int, int] = (3, 224, 224), num_classes: int = 10,
                 transform: Optional[Callable] = None, target_transform: Optional[Callable] = None,
                 random_offset: int = 0) -> None:
        super().__init__(None, transform=transform, target_transform=target_transform)  # type: ignore[arg-type]
        self.size = size
        self.num_classes = num_classes
        self.image_size = image_size
        self.random_offset = random_offset

    def __getitem__(self, index: int) -> Tuple[Any, Any]:
        if index >= len(self):
            raise IndexError(f"{self.__class__.__name__} index out of range")
        rng = np.random.default_rng(index + self.random_offset)
        img = rng.standard_normal(self.image_size).astype(np.float32)
        target = int(rng.integers(0, self.num_classes))
        # convert to PIL Image (as torchvision: ToPILImage of a float tensor)
        pil = transforms.ToPILImage()(from_numpy(img))
        if self.transform is not None:
            pil = self.transform(pil)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return pil, target

    def __len__(self) -> int:
        return self.size
