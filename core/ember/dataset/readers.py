"""Readers of datasets in their distributed on-disk formats, as ``mindspore.dataset``: MNIST's IDX
files, CIFAR-10/100's binary version and CSV files.

Each reader parses its files when made and keeps the rows in memory: a wrong argument or a
directory that is not one is a ValueError, a missing or damaged file a RuntimeError naming it (as
MindSpore's). MNIST and CIFAR are read by index, so they take MindSpore's ``usage``,
``num_samples``, ``shuffle`` (default: shuffled), ``sampler``, ``num_shards``/``shard_id`` and
``num_parallel_workers`` (see ``MappableDataset``). Column names, dtypes and shapes are
MindSpore's, so its transforms apply unchanged.
"""

from __future__ import annotations

import csv
import gzip
import math
from abc import abstractmethod
from pathlib import Path
from typing import Any

import numpy as np

from ember.dataset._checks import check_dir, check_names, check_usage, find_files
from ember.dataset.engine import Row
from ember.dataset.filerows import FileRowsDataset, Shuffle
from ember.dataset.sources import MappableDataset

_IDX_DTYPES = {0x08: np.dtype("u1"), 0x09: np.dtype("i1"), 0x0B: np.dtype(">i2"),
               0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def read_idx(path: str | Path) -> np.ndarray:
    """The array in an IDX file (MNIST's format; gzip-compressed or not): a magic number of two
    zero bytes, a type code and the number of dimensions, then each dimension as a big-endian
    uint32, then the values, big-endian."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] not in _IDX_DTYPES:
        raise RuntimeError(f"{path}: not an IDX file (magic number {data[:4].hex() or 'missing'}, "
                           "expected 0000 then a type code 08, 09, 0b, 0c, 0d or 0e)")
    dtype, ndim = _IDX_DTYPES[data[2]], data[3]
    header = 4 + 4 * ndim
    shape = tuple(np.frombuffer(data, ">u4", ndim, 4).tolist()) if len(data) >= header else ()
    expected = header + math.prod(shape) * dtype.itemsize
    if len(shape) != ndim or len(data) != expected:
        raise RuntimeError(f"{path}: IDX file of {len(data)} bytes, but its header "
                           f"(shape {list(shape)}, {dtype}) needs {expected}")
    return np.frombuffer(data, dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def _usage(usage: Any, where: str) -> str:
    return check_usage(usage, ("train", "test", "all"), where)


class _InMemory(MappableDataset):
    """A reader of ``dataset_dir`` whose columns are arrays in memory, one row per first-axis
    entry: the sampling arguments are checked first, then ``_load`` reads the files."""

    def __init__(self, dataset_dir: str, usage: str | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        where = type(self).__name__
        directory = Path(check_dir(dataset_dir, where))
        self._names, self._data = self._load(directory, _usage(usage, where))

    @abstractmethod
    def _load(self, directory: Path, usage: str) -> tuple[list[str], list[np.ndarray]]:
        """The column names and the columns read from ``directory`` for ``usage``."""

    def _columns(self) -> list[str]:
        return list(self._names)

    def _length(self) -> int:
        return len(self._data[0])

    def _read(self, index: int) -> Row:
        return tuple(column[index].copy() for column in self._data)


class MnistDataset(_InMemory):
    """MNIST, as ``mindspore.dataset.MnistDataset``: columns ``image`` (uint8, HWC
    ``[28, 28, 1]``, binarised to 0 and 255 as MindSpore's reader does) and ``label`` (uint32
    scalar), from ``dataset_dir``'s IDX files under MNIST's names (``train-images-idx3-ubyte``,
    ``train-labels-idx1-ubyte``, ``t10k-...``, each gzip-compressed with ``.gz`` or not).
    ``usage``: 'train', 'test' or 'all' (default: the files of both that are present, test rows
    then train rows, as MindSpore's sorted names).
    """

    _labels_kind, _label_ndim = "labels-idx1-ubyte", 1

    def _prefixes(self, directory: Path, usage: str) -> list[str]:
        """The file-name prefixes of ``usage``, in the order their rows are read."""
        return {"train": ["train"], "test": ["t10k"]}.get(usage) or [
            prefix for prefix in ("t10k", "train")
            if any(directory.glob(f"{prefix}-images-idx3-ubyte*"))] or ["train"]

    def _label(self, label: np.ndarray) -> np.ndarray:
        return label.astype(np.uint32)

    def _load(self, directory: Path, usage: str) -> tuple[list[str], list[np.ndarray]]:
        where = type(self).__name__
        images, labels = [], []
        for prefix in self._prefixes(directory, usage):
            image = read_idx(_idx_file(directory, f"{prefix}-images-idx3-ubyte", where))
            label = read_idx(_idx_file(directory, f"{prefix}-{self._labels_kind}", where))
            if image.ndim != 3 or label.ndim != self._label_ndim or len(image) != len(label):
                raise RuntimeError(f"{where}: {prefix} images {list(image.shape)} and labels "
                                   f"{list(label.shape)} in {directory} do not match: expected "
                                   "N images of H x W and N labels")
            images.append(np.where(image > 0, 255, 0).astype(np.uint8)[..., None])
            labels.append(self._label(label))
        return ["image", "label"], [np.concatenate(images), np.concatenate(labels)]


def _idx_file(directory: Path, name: str, where: str) -> Path:
    for candidate in (directory / name, directory / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    raise RuntimeError(f"{where}: {directory} has no {name} (or {name}.gz)")


class Cifar10Dataset(_InMemory):
    """CIFAR-10's binary version, as ``mindspore.dataset.Cifar10Dataset``: columns ``image``
    (uint8, HWC ``[32, 32, 3]``) and ``label`` (uint32 scalar), from the ``.bin`` files of
    ``dataset_dir``: ``data_batch_*`` for usage 'train', ``test_batch`` for 'test', both for
    'all' (default), in the order of their sorted names. A record is one label byte and the
    3072 bytes of the red, green and blue planes of 32 x 32 pixels.
    """

    _labels = ("label",)
    _patterns = {"train": ("data_batch",), "test": ("test_batch",),
                 "all": ("data_batch", "test_batch")}

    def _load(self, directory: Path, usage: str) -> tuple[list[str], list[np.ndarray]]:
        where = type(self).__name__
        patterns = self._patterns[usage]
        files = sorted(p for p in directory.glob("*.bin")
                       if any(pattern in p.name for pattern in patterns))
        if not files:
            raise RuntimeError(f"{where}: {directory} has no .bin file named like {patterns} "
                               f"(usage {usage!r}); it needs CIFAR's binary version")
        labels = len(self._labels)
        width = labels + 3 * 32 * 32
        records = []
        for path in files:
            data = np.fromfile(path, np.uint8)
            if not data.size or data.size % width:
                raise RuntimeError(f"{where}: {path} has {data.size} bytes, not a whole number "
                                   f"of {width}-byte records")
            records.append(data.reshape(-1, width))
        table = np.concatenate(records)
        images = table[:, labels:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1).copy()
        return ["image", *self._labels], [images] + [table[:, k].astype(np.uint32)
                                                     for k in range(labels)]


class Cifar100Dataset(Cifar10Dataset):
    """CIFAR-100's binary version, as ``mindspore.dataset.Cifar100Dataset``: columns ``image``
    (uint8, HWC ``[32, 32, 3]``), ``coarse_label`` and ``fine_label`` (uint32 scalars), from
    ``train.bin`` (usage 'train'), ``test.bin`` ('test') or both ('all', default). A record is
    the coarse and the fine label byte, then the image's 3072 bytes as in CIFAR-10.
    """

    _labels = ("coarse_label", "fine_label")
    _patterns = {"train": ("train",), "test": ("test",), "all": ("train", "test")}


class CSVDataset(FileRowsDataset):
    """Rows of CSV files, as ``mindspore.dataset.CSVDataset``.

    ``dataset_files`` is a path, a glob pattern or a list of them, read in sorted order.
    Without ``column_names`` the first line of each file is its header (files must agree). A
    column is a string column (UTF-8 bytes, as MindSpore 1.6 gives them), unless
    ``column_defaults`` gives it an int (int32) or float (float32) default, which also fills its
    empty fields; each value is a scalar array. ``num_samples``, ``shuffle``, ``num_shards``/
    ``shard_id`` and ``num_parallel_workers`` are as ``FileRowsDataset``'s.
    """

    def __init__(self, dataset_files: str | list[str], field_delim: str = ",",
                 column_defaults: list[Any] | None = None, column_names: list[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | Shuffle = Shuffle.GLOBAL, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
        where = self._where
        files = sorted(find_files(dataset_files, where))
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in "\r\n\"":
            raise ValueError(f"{where}: field_delim must be one character other than a quote "
                             f"or a line break, but got {field_delim!r}")
        names = None if column_names is None else check_names(column_names, where,
                                                               "column_names")
        self._files: list[list[Row]] = []
        for path in files:
            with open(path, newline="", encoding="utf-8") as file:
                lines = [line for line in csv.reader(file, delimiter=field_delim) if line]
            if column_names is None:
                header = lines.pop(0) if lines else []
                if names is not None and header != names:
                    raise RuntimeError(f"{where}: {path} has the header {header}, but the first "
                                       f"file's is {names}")
                names = check_names(header, f"{where}: {path}", "header")
            self._files.append(lines)
        assert names is not None
        self._names = names
        defaults = self._check_defaults(column_defaults, len(names))
        self._files = [[self._parse(line, defaults, path, number)
                        for number, line in enumerate(lines, 1 + (column_names is None))]
                       for lines, path in zip(self._files, files)]

    def _check_defaults(self, defaults: Any, width: int) -> list[Any]:
        if defaults is None:
            return [""] * width
        if (not isinstance(defaults, list | tuple) or len(defaults) != width
                or not all(type(d) in (int, float, str) for d in defaults)):
            raise TypeError(f"{self._where}: column_defaults must be a list of {width} int, "
                            f"float or str values (one per column), but got {defaults!r}")
        return list(defaults)

    def _parse(self, line: list[str], defaults: list[Any], path: str, number: int) -> Row:
        if len(line) != len(defaults):
            raise RuntimeError(f"{self._where}: {path} line {number} has {len(line)} fields, but "
                               f"there are {len(defaults)} columns {self._names}")
        row = []
        for text, default, name in zip(line, defaults, self._names):
            kind = type(default)
            try:
                value = default if text == "" else kind(text)
            except ValueError:
                raise RuntimeError(f"{self._where}: {path} line {number}, column {name!r}: "
                                   f"{text!r} is not a {kind.__name__}") from None
            dtype = {int: np.int32, float: np.float32, str: np.bytes_}[kind]
            value = value.encode("utf-8") if kind is str else value
            row.append(np.array(value, dtype=dtype))
        return tuple(row)
