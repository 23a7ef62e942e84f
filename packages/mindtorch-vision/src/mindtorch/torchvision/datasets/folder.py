"""DatasetFolder and ImageFolder: one sub-folder per class (torchvision 0.13)."""
from __future__ import annotations

import os
import os.path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union, cast

from PIL import Image, UnidentifiedImageError

from .vision import VisionDataset

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_file_allowed_extension(filename: str, extensions: Union[str, Tuple[str, ...]]) -> bool:
    return filename.lower().endswith(extensions if isinstance(extensions, str) else tuple(extensions))


def is_image_file(filename: str) -> bool:
    return has_file_allowed_extension(filename, IMG_EXTENSIONS)


def find_classes(directory: str) -> Tuple[List[str], Dict[str, int]]:
    """Class names (sorted sub-folder names) and their indices."""
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"Dataset folder {directory} does not exist or is not a directory.")
    classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
    if not classes:
        raise FileNotFoundError(f"Couldn't find any class folder in {directory}.")
    class_to_idx = {cls_name: i for i, cls_name in enumerate(classes)}
    return classes, class_to_idx


def make_dataset(directory: str, class_to_idx: Optional[Dict[str, int]] = None,
                 extensions: Optional[Union[str, Tuple[str, ...]]] = None,
                 is_valid_file: Optional[Callable[[str], bool]] = None) -> List[Tuple[str, int]]:
    """(path, class index) of every valid file under directory/<class>/ (recursively, sorted)."""
    directory = os.path.expanduser(directory)
    if class_to_idx is None:
        _, class_to_idx = find_classes(directory)
    elif not class_to_idx:
        raise ValueError("'class_to_index' must have at least one entry to collect any samples.")
    both_none = extensions is None and is_valid_file is None
    both_something = extensions is not None and is_valid_file is not None
    if both_none or both_something:
        raise ValueError("Both extensions and is_valid_file cannot be None or not None at the same time")
    if extensions is not None:
        def is_valid_file(x: str) -> bool:
            return has_file_allowed_extension(x, cast(Tuple[str, ...], extensions))
    is_valid_file = cast(Callable[[str], bool], is_valid_file)
    instances = []
    available_classes = set()
    for target_class in sorted(class_to_idx.keys()):
        class_index = class_to_idx[target_class]
        target_dir = os.path.join(directory, target_class)
        if not os.path.isdir(target_dir):
            continue
        for root, _, fnames in sorted(os.walk(target_dir, followlinks=True)):
            for fname in sorted(fnames):
                path = os.path.join(root, fname)
                if is_valid_file(path):
                    instances.append((path, class_index))
                    available_classes.add(target_class)
    empty_classes = set(class_to_idx.keys()) - available_classes
    if empty_classes:
        msg = f"Found no valid file for the classes {', '.join(sorted(empty_classes))}. "
        if extensions is not None:
            msg += f"Supported extensions are: {extensions if isinstance(extensions, str) else ', '.join(extensions)}"
        raise FileNotFoundError(msg)
    return instances


class DatasetFolder(VisionDataset):
    """A generic data loader: root/<class>/.../<file>, samples loaded with `loader(path)`."""

    def __init__(self, root: str, loader: Callable[[str], Any], extensions: Optional[Tuple[str, ...]] = None,
                 transform: Optional[Callable] = None, target_transform: Optional[Callable] = None,
                 is_valid_file: Optional[Callable[[str], bool]] = None) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        classes, class_to_idx = self.find_classes(self.root)
        samples = self.make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        self.loader = loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]

    @staticmethod
    def make_dataset(directory: str, class_to_idx: Dict[str, int],
                     extensions: Optional[Tuple[str, ...]] = None,
                     is_valid_file: Optional[Callable[[str], bool]] = None) -> List[Tuple[str, int]]:
        if class_to_idx is None:
            # prevent a potentially expensive search when the classes are not known yet
            raise ValueError("The class_to_idx parameter cannot be None.")
        return make_dataset(directory, class_to_idx, extensions=extensions, is_valid_file=is_valid_file)

    def find_classes(self, directory: str) -> Tuple[List[str], Dict[str, int]]:
        return find_classes(directory)

    def __getitem__(self, index: int) -> Tuple[Any, Any]:
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


def pil_loader(path: str) -> Image.Image:
    """Open `path` as an RGB PIL image; a corrupt or non-image file raises an error naming it."""
    # open path as file to avoid ResourceWarning (https://github.com/python-pillow/Pillow/issues/835)
    with open(path, "rb") as f:
        try:
            img = Image.open(f)
            return img.convert("RGB")
        except UnidentifiedImageError as e:
            raise UnidentifiedImageError(f"cannot identify image file {path!r}: not an image, or an unsupported "
                                         "format") from e
        except OSError as e:
            raise OSError(f"cannot read image file {path!r}: {e}") from e


def accimage_loader(path: str) -> Any:
    raise NotImplementedError("accimage_loader: accimage is not supported by mindtorch.torchvision; "
                              "use pil_loader (the default)")


def default_loader(path: str) -> Any:
    return pil_loader(path)


class ImageFolder(DatasetFolder):
    """Images arranged as root/<class>/<image> (extensions: IMG_EXTENSIONS); items are (PIL RGB image, int)."""

    def __init__(self, root: str, transform: Optional[Callable] = None, target_transform: Optional[Callable] = None,
                 loader: Callable[[str], Any] = default_loader,
                 is_valid_file: Optional[Callable[[str], bool]] = None) -> None:
        super().__init__(root, loader, IMG_EXTENSIONS if is_valid_file is None else None, transform=transform,
                         target_transform=target_transform, is_valid_file=is_valid_file)
        self.imgs = self.samples
