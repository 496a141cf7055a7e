"""``ImageFolderDataset``: images in one folder per class, as ``mindspore.dataset``'s."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ember.dataset.sources import GeneratorDataset
from ember.dataset.vision.c_transforms import Decode


class _ImageFiles:
    """The ``(image, label)`` rows of a list of files, read (and decoded) by index."""

    def __init__(self, files: list[tuple[str, int]], decode: bool) -> None:
        self.files = files
        self.decode = decode

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        path, label = self.files[index]
        with open(path, "rb") as f:
            image = np.frombuffer(f.read(), dtype=np.uint8)
        if self.decode:
            image = Decode()(image)
        return image, np.array(label, dtype=np.int32)


class ImageFolderDataset(GeneratorDataset):
    """Images stored one folder per class under ``dataset_dir`` (``dataset_dir/cat/1.jpg``...),
    as ``mindspore.dataset.ImageFolderDataset``: columns ``image`` (the file's bytes as a 1-D
    uint8 array, or with ``decode=True`` a uint8 ``<H, W, 3>`` RGB array) and ``label`` (int32).

    Classes are the sub-folders in sorted order, labelled 0, 1, ...; ``class_indexing`` (a dict
    from folder name to label) reads only the folders it names, with its labels. Files are read
    in sorted order within each class; ``extensions`` (such as ``[".JPEG", ".png"]``, matched
    exactly) keeps only files that end with one. ``num_samples``, ``shuffle`` (default: shuffled),
    ``sampler``, ``num_shards``/``shard_id`` and ``num_parallel_workers`` are as in
    ``GeneratorDataset``.
    """

    def __init__(self, dataset_dir: str, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Any = None, extensions: list[str] | None = None,
                 class_indexing: dict[str, int] | None = None, decode: bool = False,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        where = "ImageFolderDataset"
        if not isinstance(dataset_dir, str | os.PathLike) or not os.path.isdir(dataset_dir):
            raise ValueError(f"{where}: dataset_dir must be an existing folder, but got "
                             f"{dataset_dir!r}")
        if extensions is not None and (not isinstance(extensions, list | tuple) or not all(
                isinstance(e, str) for e in extensions)):
            raise TypeError(f"{where}: extensions must be a list of str such as ['.jpg'], but "
                            f"got {extensions!r}")
        if not isinstance(decode, bool):
            raise TypeError(f"{where}: decode must be a bool, but got {decode!r}")
        folders = sorted(entry.name for entry in os.scandir(dataset_dir) if entry.is_dir())
        if class_indexing is None:
            classes = {name: label for label, name in enumerate(folders)}
        else:
            if not isinstance(class_indexing, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                    and v >= 0 for k, v in class_indexing.items()):
                raise TypeError(f"{where}: class_indexing must be a dict from folder name to a "
                                f"non-negative int, but got {class_indexing!r}")
            missing = sorted(set(class_indexing) - set(folders))
            if missing:
                raise ValueError(f"{where}: class_indexing names folders {missing} that "
                                 f"{dataset_dir!r} does not have; it has {folders}")
            classes = dict(class_indexing)
        files = []
        for name in sorted(classes):
            folder = os.path.join(dataset_dir, name)
            for file in sorted(os.listdir(folder)):
                path = os.path.join(folder, file)
                if os.path.isfile(path) and (extensions is None
                                             or os.path.splitext(file)[1] in extensions):
                    files.append((path, classes[name]))
        if not files:
            raise RuntimeError(f"{where}: no image files in the class folders of "
                               f"{dataset_dir!r} (extensions={extensions})")
        self._class_indexing = classes
        super().__init__(_ImageFiles(files, decode), ["image", "label"],
                         num_samples=num_samples, num_parallel_workers=num_parallel_workers or 1,
                         shuffle=shuffle, sampler=sampler, num_shards=num_shards,
                         shard_id=shard_id)

    def get_class_indexing(self) -> dict[str, int]:
        """The label of each class folder."""
        return dict(self._class_indexing)
