"""Readers of annotated image sets, as ``mindspore.dataset``: ``ManifestDataset`` (a Manifest
file), ``VOCDataset`` (PASCAL VOC), ``CocoDataset`` (COCO's JSON annotations) and
``CelebADataset``.

Each parses its annotations when made (a damaged or missing annotation is a RuntimeError naming
the file, a wrong argument a ValueError or TypeError, in MindSpore's words) and reads an image's
file when its row is read: its bytes as a 1-D uint8 array, or with ``decode=True`` a uint8
``<H, W, 3>`` RGB array. They take MindSpore's ``num_samples``, ``shuffle`` (default: shuffled),
``sampler``, ``num_shards``/``shard_id`` and ``num_parallel_workers`` (see ``MappableDataset``).
With ``extra_metadata`` VOC and COCO rows end with a ``_meta-filename`` column, which iterators
leave out until ``rename`` gives it a name without the ``_meta-`` prefix.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np

from ember.dataset._checks import check_bool, check_dir, check_usage, type_check
from ember.dataset.engine import Row
from ember.dataset.sources import MappableDataset
from ember.dataset.vision.c_transforms import Decode


def _check_file(path: Any, where: str, name: str = "dataset_file") -> str:
    type_check(path, (str,), name, where)
    if not os.path.isfile(path) or not os.access(path, os.R_OK):
        raise ValueError(f"{where}: The file {os.path.realpath(path)} does not exist or "
                         "permission denied!")
    return path


class _ImageRows(MappableDataset):
    """A reader whose rows are an image file, read (and decoded) by index, then the arrays of
    its annotations: ``self._rows_info`` holds ``(image path, annotation arrays)`` per row."""

    _rows_info: list[tuple[str, tuple[np.ndarray, ...]]]
    _names: list[str]

    def __init__(self, decode: bool, num_samples: Any, num_parallel_workers: Any, shuffle: Any,
                 sampler: Any, num_shards: Any, shard_id: Any) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id)
        self._decode = check_bool(decode, type(self).__name__, "decode")

    def _columns(self) -> list[str]:
        return list(self._names)

    def _length(self) -> int:
        return len(self._rows_info)

    def _image(self, path: str) -> np.ndarray:
        image = np.fromfile(path, np.uint8)
        return Decode()(image) if self._decode else image

    def _read(self, index: int) -> Row:
        path, annotations = self._rows_info[index]
        return (self._image(path), *(a.copy() for a in annotations))


class ManifestDataset(_ImageRows):
    """The images a Manifest file lists (one JSON object a line with ``source``, ``usage`` and
    ``annotation``, a list of ``{"name": class}``), as ``mindspore.dataset.ManifestDataset``:
    the lines of ``usage`` ('train' default, 'eval', 'inference'), columns ``image`` and
    ``label`` (int32: a scalar for one class, else one index per class). Classes are numbered
    in sorted name order, or by ``class_indexing``, which also keeps only the classes it names
    (a line left without one is skipped)."""

    def __init__(self, dataset_file: str, usage: str = "train", num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Any = None, class_indexing: dict[str, int] | None = None,
                 decode: bool = False, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        where = type(self).__name__
        _check_file(dataset_file, where)
        usage = check_usage(usage, ("train", "eval", "inference"), where, default="train")
        if class_indexing is not None:
            type_check(class_indexing, (dict,), "class_indexing", where)
        super().__init__(decode, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)
        wanted = dict(class_indexing or {})
        lines = []
        with open(dataset_file, encoding="utf-8") as file:
            for number, text in enumerate(file, 1):
                if not text.strip():
                    continue
                lines.append(self._line(json.loads(text), wanted, dataset_file, number, usage))
        lines = [line for line in lines if line is not None and line[1]]
        if not lines:
            raise RuntimeError(f"{where}: Invalid data, ManifestDataset API can't read the data "
                               f"file (interface mismatch or no data found). Check file: "
                               f"{dataset_file}")
        classes = sorted({name for _, names in lines for name in names})
        self._class_indexing = wanted or {name: k for k, name in enumerate(classes)}
        self._names = ["image", "label"]
        self._rows_info = []
        for source, names in lines:
            label = np.array([self._class_indexing[n] for n in names], np.int32)
            self._rows_info.append((source, (label.reshape(()) if len(names) == 1 else label,)))

    @staticmethod
    def _line(entry: dict, wanted: dict, path: str, number: int, usage: str
              ) -> tuple[str, list[str]] | None:
        for key in ("source", "usage"):
            if not entry.get(key):
                raise RuntimeError(f"ManifestDataset: Invalid manifest file, '{key}' is missing "
                                   f"in file: {path} at line {number}")
        if entry["usage"].lower() != usage:
            return None
        names = []
        for annotation in entry.get("annotation", []):
            name = annotation.get("name", "")
            if not name:
                raise RuntimeError(f"ManifestDataset: Invalid manifest file, 'name' attribute "
                                   f"of label is missing in file: {path} at line {number}")
            if not wanted or name in wanted:
                names.append(name)
        return entry["source"], names

    def get_class_indexing(self) -> dict[str, int]:
        """The index of each class name."""
        return dict(self._class_indexing)

    def num_classes(self) -> int:
        """The number of classes."""
        return len(self._class_indexing)


class VOCDataset(_ImageRows):
    """PASCAL VOC under ``dataset_dir``, as ``mindspore.dataset.VOCDataset``: the images
    ``ImageSets/<Segmentation|Main>/<usage>.txt`` lists. ``task`` 'Segmentation' (default) gives
    columns ``image`` and ``target`` (``SegmentationClass/<id>.png``); 'Detection' gives
    ``image``, ``bbox`` (float32 ``[n, 4]``: xmin, ymin, width, height), ``label``, ``difficult``
    and ``truncate`` (uint32 ``[n, 1]``) from ``Annotations/<id>.xml``, keeping the objects of
    ``class_indexing``'s classes (default: every class, numbered in sorted name order) and the
    images left with one."""

    def __init__(self, dataset_dir: str, task: str = "Segmentation", usage: str = "train",
                 class_indexing: dict[str, int] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 decode: bool = False, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, extra_metadata: bool = False) -> None:
        where = type(self).__name__
        check_dir(dataset_dir, where)
        type_check(task, (str,), "task", where)
        type_check(usage, (str,), "usage", where)
        if task == "Segmentation":
            if class_indexing is not None:
                raise ValueError(f"{where}: class_indexing is not supported in Segmentation "
                                 "task.")
            folder = "Segmentation"
        elif task == "Detection":
            folder = "Main"
        else:
            raise ValueError(f"{where}: Invalid task : {task}.")
        id_file = _check_file(os.path.join(dataset_dir, "ImageSets", folder, usage + ".txt"),
                              where)
        if class_indexing is not None:
            type_check(class_indexing, (dict,), "class_indexing", where)
        self._extra = check_bool(extra_metadata, where, "extra_metadata")
        super().__init__(decode, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)
        self._task = task
        with open(id_file, encoding="utf-8") as file:
            ids = [line.rstrip("\r\n") for line in file]
        image = os.path.join(dataset_dir, "JPEGImages", "{}.jpg")
        if task == "Segmentation":
            self._names = ["image", "target"]
            target = os.path.join(dataset_dir, "SegmentationClass", "{}.png")
            self._rows_info = [(image.format(i), (target.format(i),)) for i in ids]
        else:
            self._names = ["image", "bbox", "label", "difficult", "truncate"]
            self._detection(dataset_dir, ids, image, dict(class_indexing or {}))
        self._ids = [np.array(i.encode("utf-8"), np.bytes_) for i in ids]
        if extra_metadata:
            self._names.append("_meta-filename")

    def _detection(self, root: str, ids: list[str], image: str, wanted: dict) -> None:
        objects = {}
        for i in ids:
            found = _voc_objects(os.path.join(root, "Annotations", f"{i}.xml"), wanted)
            if found:
                objects[i] = found
        kept = [i for i in ids if i in objects]
        if not kept:
            raise RuntimeError(f"VOCDataset: Invalid data, VOCDataset API can't read the data "
                               f"file (interface mismatch or no data found). Check file in "
                               f"directory:{root}")
        names = sorted({name for found in objects.values() for name, _ in found})
        self._class_indexing = wanted or {name: k for k, name in enumerate(names)}
        ids[:] = kept
        self._rows_info = []
        for i in kept:
            boxes = np.array([box for _, box in objects[i]], np.float32).reshape(-1, 6)
            labels = np.array([[self._class_indexing[n]] for n, _ in objects[i]], np.uint32)
            self._rows_info.append((image.format(i), (
                boxes[:, :4].copy(), labels.reshape(-1, 1),
                boxes[:, 4:5].astype(np.uint32), boxes[:, 5:6].astype(np.uint32))))

    def _read(self, index: int) -> Row:
        path, annotations = self._rows_info[index]
        if self._task == "Segmentation":
            row: Row = (self._image(path), self._image(annotations[0]))
        else:
            row = super()._read(index)
        return (*row, self._ids[index].copy()) if self._extra else row

    def get_class_indexing(self) -> dict[str, int]:
        """The index of each class name (Detection only)."""
        if self._task != "Detection":
            raise NotImplementedError("Only 'Detection' support get_class_indexing.")
        return dict(self._class_indexing)


def _voc_objects(path: str, wanted: dict) -> list[tuple[str, list[float]]]:
    """The ``(class, [xmin, ymin, width, height, difficult, truncated])`` of the objects an
    annotation file holds, of ``wanted``'s classes (all when empty)."""
    if not os.path.exists(path):
        raise RuntimeError(f"VOCDataset: Invalid file path, {path} does not exist.")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        raise RuntimeError(f"VOCDataset: Invalid xml, failed to load {path}: the xml file is "
                           "damaged or incorrect format.") from None
    objects = root.findall("object")
    if not objects:
        raise RuntimeError(f"VOCDataset: Invalid xml, the node of object is missing in {path}.")

    def value(node: Any, name: str) -> float:
        found = None if node is None else node.find(name)
        return float(found.text) if found is not None and found.text else 0.0

    found = []
    for obj in objects:
        name = (obj.findtext("name") or "").strip()
        box = obj.find("bndbox")
        if box is None:
            raise RuntimeError(f"VOCDataset: Invalid xml, the node of bndbox is missing in {path}")
        xmin, ymin, xmax, ymax = (value(box, k) for k in ("xmin", "ymin", "xmax", "ymax"))
        if not (xmin > 0 and ymin > 0 and xmax > xmin and ymax > ymin):
            raise RuntimeError(f"VOCDataset: Invalid bndbox, the coordinate of bndbox in {path} "
                               f"should be greater than 0, but got {{{int(xmin)}, {int(ymin)}, "
                               f"{int(xmax)}, {int(ymax)}}}")
        if name and (not wanted or name in wanted):
            found.append((name, [xmin, ymin, xmax - xmin, ymax - ymin, value(obj, "difficult"),
                                 value(obj, "truncated")]))
    return found


_COCO_COLUMNS = {"Detection": ["image", "bbox", "category_id", "iscrowd"],
                 "Stuff": ["image", "segmentation", "iscrowd"],
                 "Keypoint": ["image", "keypoints", "num_keypoints"],
                 "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"]}


class CocoDataset(_ImageRows):
    """COCO, as ``mindspore.dataset.CocoDataset``: the images of ``dataset_dir`` that
    ``annotation_file`` annotates, in its order. ``task`` 'Detection' (default) gives columns
    ``image``, ``bbox`` (float32 ``[n, 4]``), ``category_id`` and ``iscrowd`` (uint32
    ``[n, 1]``); 'Stuff' ``image``, ``segmentation`` (float32, one polygon a row, padded with
    -1) and ``iscrowd``; 'Keypoint' ``image``, ``keypoints`` and ``num_keypoints``; 'Panoptic'
    ``image``, ``bbox``, ``category_id``, ``iscrowd`` and ``area``."""

    def __init__(self, dataset_dir: str, annotation_file: str, task: str = "Detection",
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, decode: bool = False, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None,
                 extra_metadata: bool = False) -> None:
        where = type(self).__name__
        check_dir(dataset_dir, where)
        _check_file(annotation_file, where, "annotation_file")
        type_check(task, (str,), "task", where)
        if task not in _COCO_COLUMNS:
            raise ValueError(f"{where}: Invalid task type: {task}.")
        if sampler is not None and type(sampler).__name__ == "PKSampler":
            raise ValueError(f"{where}: CocoDataset doesn't support PKSampler.")
        self._extra = check_bool(extra_metadata, where, "extra_metadata")
        super().__init__(decode, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)
        self._task = task
        self._file = annotation_file
        self._names = list(_COCO_COLUMNS[task]) + ["_meta-filename"] * extra_metadata
        try:
            with open(annotation_file, encoding="utf-8") as file:
                tree = json.load(file)
        except (ValueError, UnicodeDecodeError) as error:
            raise RuntimeError(f"{where}: Invalid annotation file, Coco Dataset annotation "
                               f"file:{annotation_file} load failed, error description: "
                               f"{error}") from None
        self._class_indexing: dict[str, list[int]] = {}
        self._rows_info = self._parse(tree, dataset_dir)

    def _node(self, tree: dict, key: str) -> Any:
        if not isinstance(tree, dict) or key not in tree:
            raise RuntimeError(f"CocoDataset: Invalid annotation, the attribute of '{key}' is "
                               f"missing in annotation file: {self._file}.")
        return tree[key]

    def _parse(self, tree: dict, root: str) -> list[tuple[str, tuple[np.ndarray, ...]]]:
        images = {self._node(i, "id"): self._node(i, "file_name")
                  for i in self._node(tree, "images")}
        categories = set()
        if self._task in ("Detection", "Panoptic"):
            for category in self._node(tree, "categories"):
                info = [self._node(category, "id")]
                if self._task == "Panoptic":
                    info.append(self._node(category, "isthing"))
                self._class_indexing[self._node(category, "name")] = info
                categories.add(info[0])
        coords: dict[str, list[list[float]]] = {}
        items: dict[str, list[list[int]]] = {}
        for annotation in self._node(tree, "annotations"):
            image_id = self._node(annotation, "image_id")
            if image_id not in images:
                raise RuntimeError(f"CocoDataset: Invalid annotation, the attribute of "
                                   f"'image_id': {image_id} is missing in the node of 'image' "
                                   f"from annotation file: {self._file}")
            name = images[image_id]
            found, values = self._annotation(annotation, categories)
            coords.setdefault(name, []).extend(found)
            items.setdefault(name, []).extend(values)
        rows = []
        for name in images.values():
            if name in coords:
                width = max(len(c) for c in coords[name])
                coord = np.array([c + [-1.0] * (width - len(c)) for c in coords[name]],
                                 np.float32)
                columns = np.array(items[name], np.uint32).T[..., None]
                rows.append((os.path.join(root, name), (coord, *columns, *self._meta(name))))
        if not rows:
            raise RuntimeError(f"CocoDataset: Invalid data, 'CocoDataset' API can't read the "
                               f"data file (interface mismatch or no data found). Check file in "
                               f"directory: {root}.")
        return rows

    def _meta(self, name: str) -> list[np.ndarray]:
        return [np.array(name.split(".")[0].encode("utf-8"), np.bytes_)] if self._extra else []

    def _annotation(self, annotation: dict, categories: set) -> tuple[list[list], list[list]]:
        """The coordinate rows and the per-object values of one annotation."""
        node = self._node
        if self._task == "Detection":
            node(annotation, "id")
            category = node(annotation, "category_id")
            if category not in categories:
                raise RuntimeError(f"CocoDataset: Invalid annotation, the attribute of "
                                   f"'category_id': {category} is missing in the node of "
                                   f"'categories' from annotation file: {self._file}")
            return [list(node(annotation, "bbox"))], [[category, annotation.get("iscrowd", 0)]]
        if self._task == "Stuff":
            iscrowd = node(annotation, "iscrowd")
            segmentation = node(annotation, "segmentation")
            polygons = ([node(segmentation, "counts")] if iscrowd
                        else [list(polygon) for polygon in segmentation])
            return [list(p) for p in polygons], [[iscrowd]]
        if self._task == "Keypoint":
            return [list(node(annotation, "keypoints"))], [[node(annotation, "num_keypoints")]]
        infos = node(annotation, "segments_info")
        return ([list(node(info, "bbox")) for info in infos],
                [[node(info, "category_id"), node(info, "iscrowd"), node(info, "area")]
                 for info in infos])

    def get_class_indexing(self) -> dict[str, list[int]]:
        """The ``[id]`` (Panoptic: ``[id, isthing]``) of each category name."""
        if self._task not in ("Detection", "Panoptic"):
            raise NotImplementedError("Only 'Detection' and 'Panoptic' support "
                                      "get_class_indexing.")
        return {name: list(info) for name, info in self._class_indexing.items()}


class CelebADataset(_ImageRows):
    """CelebA, as ``mindspore.dataset.CelebADataset``: the images ``list_attr_celeba.txt`` lists
    (a count, the attribute names, then a file name and 1/-1 per attribute a line), columns
    ``image`` and ``attr`` (uint32, 1 where the attribute is 1, else 0). ``usage`` 'train',
    'valid' or 'test' keeps the lines whose line of ``list_eval_partition.txt`` says 0, 1 or 2;
    'all' (default) every line. ``extensions`` keeps the files ending with one of them."""

    def __init__(self, dataset_dir: str, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, usage: str = "all", sampler: Any = None,
                 decode: bool = False, extensions: list[str] | None = None,
                 num_samples: int | None = None, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        where = type(self).__name__
        check_dir(dataset_dir, where)
        usage = check_usage(usage, ("all", "train", "valid", "test"), where)
        if extensions is not None:
            type_check(extensions, (list,), "extensions", where)
        super().__init__(decode, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)
        attr_file = os.path.join(dataset_dir, "list_attr_celeba.txt")
        if not os.path.isfile(attr_file):
            raise RuntimeError(f"{where}: Invalid file path, {attr_file} does not exist.")
        with open(attr_file, encoding="utf-8") as file:
            lines = [line.split() for line in file.read().splitlines()[2:] if line]
        if usage != "all":
            partition = os.path.join(dataset_dir, "list_eval_partition.txt")
            if not os.path.exists(partition):
                raise RuntimeError(f"{where}: Partition file can not be found when usage is not "
                                   "'all'.")
            with open(partition, encoding="utf-8") as file:
                kinds = [line.split() for line in file.read().splitlines()]
            wanted = str(["train", "valid", "test"].index(usage))
            lines = [line for line, kind in zip(lines, kinds)
                     if len(kind) == 2 and kind[1] == wanted]
        if extensions:
            lines = [line for line in lines if os.path.splitext(line[0])[1] in extensions]
        if not lines:
            raise RuntimeError(f"{where}: Invalid data, CelebADataset API can't read the data "
                               f"file (interface mismatch or no data found). Check file path: "
                               f"{dataset_dir}")
        self._names = ["image", "attr"]
        self._rows_info = [(os.path.join(dataset_dir, line[0]),
                            (np.array([int(v) == 1 for v in line[1:]], np.uint32),))
                           for line in lines]
