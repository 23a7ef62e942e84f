"""COCO detection and captions from a local annotations JSON (no pycocotools needed) (torchvision 0.13)."""
from __future__ import annotations

import json
import os.path
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from PIL import Image

from .vision import VisionDataset


class COCOIndex:
    """The part of pycocotools' COCO index the datasets use: imgs, anns, getAnnIds, loadImgs, loadAnns."""

    def __init__(self, annotation_file: str) -> None:
        try:
            with open(annotation_file) as f:
                self.dataset = json.load(f)
        except json.JSONDecodeError as e:
            raise RuntimeError(f"annotation file {annotation_file} is not valid JSON: {e}") from e
        if not isinstance(self.dataset, dict):
            raise RuntimeError(f"annotation file {annotation_file}: expected a JSON object with 'images'")
        self.imgs: Dict[int, Dict[str, Any]] = {img["id"]: img for img in self.dataset.get("images", [])}
        self.anns: Dict[int, Dict[str, Any]] = {}
        self.imgToAnns: Dict[int, List[Dict[str, Any]]] = defaultdict(list)
        for ann in self.dataset.get("annotations", []):
            self.anns[ann["id"]] = ann
            self.imgToAnns[ann["image_id"]].append(ann)
        self.cats = {cat["id"]: cat for cat in self.dataset.get("categories", [])}

    def getAnnIds(self, imgIds: Union[int, List[int]] = ()) -> List[int]:  # noqa: N802,N803 (pycocotools names)
        ids = [imgIds] if isinstance(imgIds, int) else list(imgIds)
        if not ids:
            return list(self.anns.keys())
        return [ann["id"] for i in ids for ann in self.imgToAnns.get(i, [])]

    def loadImgs(self, ids: Union[int, List[int]]) -> List[Dict[str, Any]]:  # noqa: N802
        return [self.imgs[i] for i in ([ids] if isinstance(ids, int) else ids)]

    def loadAnns(self, ids: Union[int, List[int]]) -> List[Dict[str, Any]]:  # noqa: N802
        return [self.anns[i] for i in ([ids] if isinstance(ids, int) else ids)]


class CocoDetection(VisionDataset):
    """`MS Coco Detection <https://cocodataset.org/#detection-2016>`_: (RGB image, list of annotation dicts)."""

    def __init__(self, root: str, annFile: str, transform: Optional[Callable] = None,  # noqa: N803
                 target_transform: Optional[Callable] = None, transforms: Optional[Callable] = None) -> None:
        super().__init__(root, transforms, transform, target_transform)
        if not os.path.isfile(annFile):
            raise FileNotFoundError(f"COCO annotation file {annFile} not found")
        self.coco = COCOIndex(annFile)
        self.ids = list(sorted(self.coco.imgs.keys()))

    def _load_image(self, id: int) -> Image.Image:
        path = os.path.join(self.root, self.coco.loadImgs(id)[0]["file_name"])
        try:
            with open(path, "rb") as f:
                return Image.open(f).convert("RGB")
        except FileNotFoundError:
            raise FileNotFoundError(f"COCO image {path} (image id {id}) not found") from None
        except OSError as e:
            raise OSError(f"cannot read image file {path!r}: {e}") from e

    def _load_target(self, id: int) -> List[Any]:
        return self.coco.loadAnns(self.coco.getAnnIds(id))

    def __getitem__(self, index: int) -> Tuple[Any, Any]:
        id = self.ids[index]
        image = self._load_image(id)
        target = self._load_target(id)
        if self.transforms is not None:
            image, target = self.transforms(image, target)
        return image, target

    def __len__(self) -> int:
        return len(self.ids)


class CocoCaptions(CocoDetection):
    """`MS Coco Captions <https://cocodataset.org/#captions-2015>`_: (RGB image, list of caption strings)."""

    def _load_target(self, id: int) -> List[str]:
        return [ann["caption"] for ann in super()._load_target(id)]
