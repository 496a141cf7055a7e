"""Converters of common datasets to MindRecord, as ``mindspore.mindrecord``'s ``*ToMR`` tools:
the same files, schemas and indexes as MindSpore 1.6's (``transform()`` writes them, returns
SUCCESS). Images are stored JPEG-encoded (Pillow: ``pip install "ember-core[vision]"``);
TFRecordToMR reads its file through TensorFlow, as MindSpore's does."""

from __future__ import annotations

import csv
import gzip
import io
import os
import pickle
import string
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ember.mindrecord.exceptions import ParamValueError
from ember.mindrecord.filewriter import FileWriter, MSRStatus

_ROWS_PER_WRITE = 256


def _path(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise ParamValueError(f"The parameter {name} must be a non-empty str, but got {value!r}")
    return value


def _partitions(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ParamValueError(f"The parameter partition_number must be int, but got {value!r}")
    return value


def _fields(value: Any) -> list[str] | None:
    if value is not None and not (isinstance(value, list)
                                  and all(isinstance(f, str) for f in value)):
        raise ParamValueError(f"The parameter fields must be None or a list of str, but got "
                              f"{value!r}")
    return value or None


def _write(destination: str, schema: dict[str, Any], description: str,
           rows: Iterable[dict[str, Any]], index: list[str] | None = None,
           partitions: int = 1) -> MSRStatus:
    """``rows`` written to a new MindRecord ``destination`` (``partitions`` shards)."""
    writer = FileWriter(destination, partitions)
    writer.add_schema(schema, description)
    if index:
        writer.add_index(index)
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == _ROWS_PER_WRITE:
            writer.write_raw_data(chunk)
            chunk = []
    if chunk:
        writer.write_raw_data(chunk)
    return writer.commit()


def _jpeg(image: np.ndarray) -> bytes:
    """An HWC RGB (or HW1 gray) uint8 image as JPEG bytes, quality 95 as OpenCV's default."""
    from ember.dataset.vision._image import import_pil

    pil = import_pil("the MindRecord converters")
    buffer = io.BytesIO()
    pil.Image.fromarray(image[..., 0] if image.shape[-1] == 1 else image).save(
        buffer, "JPEG", quality=95)
    return buffer.getvalue()


# -- CIFAR ----------------------------------------------------------------------------------
class _ArraysOnly(pickle.Unpickler):
    """Unpickles the CIFAR python batches: dicts, lists and NumPy arrays (whose bytes protocol 2
    pickles through ``_codecs.encode``), nothing that runs code."""

    _ALLOWED = {("numpy", "ndarray"), ("numpy", "dtype"), ("_codecs", "encode"),
                *((f"numpy.{core}.multiarray", name) for core in ("core", "_core")
                  for name in ("_reconstruct", "scalar"))}

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"the CIFAR batch names {module}.{name}, which is not "
                                         "a NumPy array part")
        return super().find_class(module, name)


def _cifar_batches(source: str, prefixes: tuple[str, ...]) -> list[dict[bytes, Any]]:
    batches = []
    for name in sorted(f for f in os.listdir(source) if f.startswith(prefixes)):
        with open(os.path.join(source, name), "rb") as f:
            batches.append(_ArraysOnly(f, encoding="bytes").load())
    return batches


def _cifar_rows(batches: list[dict[bytes, Any]], labels: dict[str, bytes]
                ) -> Iterator[dict[str, Any]]:
    """One row per image: its number, JPEG bytes and labels (``labels``: field -> batch key)."""
    images = np.concatenate([np.asarray(b[b"data"], np.uint8).reshape(-1, 3, 32, 32)
                             for b in batches]).transpose(0, 2, 3, 1)
    values = {field: np.concatenate([np.asarray(b[key]) for b in batches])
              for field, key in labels.items()}
    for i, image in enumerate(images):
        yield {"id": i, "data": _jpeg(image), **{f: int(v[i]) for f, v in values.items()}}


class _CifarToMR:
    _train: tuple[str, ...]
    _test: tuple[str, ...]
    _labels: dict[str, bytes]

    def __init__(self, source: str, destination: str) -> None:
        self.source = _path(source, "source")
        self.destination = _path(destination, "destination")
        for prefixes in (self._train, self._test):
            if not any(f.startswith(prefixes) for f in os.listdir(self.source)):
                raise ParamValueError(f"{self.source} holds no CIFAR python batch named "
                                      f"{' or '.join(prefixes)}*")

    def transform(self, fields: list[str] | None = None) -> MSRStatus:
        """Write the training images to ``destination`` and the test images to
        ``destination + "_test"``; ``fields``: the index fields."""
        fields = _fields(fields)
        schema = {"id": {"type": "int64"}, **{f: {"type": "int64"} for f in self._labels},
                  "data": {"type": "bytes"}}
        for suffix, prefixes, description in (("", self._train, "img_train"),
                                              ("_test", self._test, "img_test")):
            rows = _cifar_rows(_cifar_batches(self.source, prefixes), self._labels)
            status = _write(self.destination + suffix, schema, description, rows, fields)
            if status != MSRStatus.SUCCESS:
                return status
        return MSRStatus.SUCCESS

    run = transform


class Cifar10ToMR(_CifarToMR):
    """CIFAR-10's python batches (``data_batch_*``, ``test_batch`` in ``source``) to MindRecord:
    rows ``{"id", "label", "data"}`` (int64, int64, JPEG bytes)."""

    _train, _test, _labels = ("data_batch_",), ("test_batch",), {"label": b"labels"}


class Cifar100ToMR(_CifarToMR):
    """CIFAR-100's python files (``train``, ``test`` in ``source``) to MindRecord: rows
    ``{"id", "fine_label", "coarse_label", "data"}``."""

    _train, _test = ("train",), ("test",)
    _labels = {"fine_label": b"fine_labels", "coarse_label": b"coarse_labels"}


# -- MNIST ----------------------------------------------------------------------------------
class MnistToMR:
    """MNIST's gzipped IDX files in ``source`` to ``<destination>_train.mindrecord`` and
    ``<destination>_test.mindrecord`` (``partition_number`` shards each): rows
    ``{"label": int64, "data": JPEG bytes}``, indexed by label."""

    _FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
              "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}

    def __init__(self, source: str, destination: str, partition_number: int = 1) -> None:
        self.source = _path(source, "source")
        self.destination = _path(destination, "destination")
        self.partition_number = _partitions(partition_number)
        for name in (n for pair in self._FILES.values() for n in pair):
            if not os.path.isfile(os.path.join(self.source, name)):
                raise ParamValueError(f"{self.source} has no {name}")

    def _rows(self, images: str, labels: str) -> Iterator[dict[str, Any]]:
        with gzip.open(os.path.join(self.source, images)) as f:
            pixels = np.frombuffer(f.read()[16:], np.uint8).reshape(-1, 28, 28, 1)
        with gzip.open(os.path.join(self.source, labels)) as f:
            values = np.frombuffer(f.read()[8:], np.uint8)
        for image, label in zip(pixels, values, strict=True):
            yield {"label": int(label), "data": _jpeg(image)}

    def transform(self) -> MSRStatus:
        schema = {"label": {"type": "int64"}, "data": {"type": "bytes"}}
        for part, (images, labels) in self._FILES.items():
            status = _write(f"{self.destination}_{part}.mindrecord", schema, "mnist_schema",
                            self._rows(images, labels), ["label"], self.partition_number)
            if status != MSRStatus.SUCCESS:
                return status
        return MSRStatus.SUCCESS

    run = transform


# -- ImageNet -------------------------------------------------------------------------------
class ImageNetToMR:
    """ImageNet-style folders to MindRecord: ``map_file`` lines ``<folder> <label>`` name the
    folders of ``image_dir``; rows ``{"label": int32, "image": the file's bytes, "file_name"}``
    for their ``.JPEG``/``.jpg`` files, indexed by label and file name."""

    def __init__(self, map_file: str, image_dir: str, destination: str,
                 partition_number: int = 1) -> None:
        self.map_file = _path(map_file, "map_file")
        self.image_dir = _path(image_dir, "image_dir")
        self.destination = _path(destination, "destination")
        self.partition_number = _partitions(partition_number)

    def _rows(self) -> Iterator[dict[str, Any]]:
        if not os.path.isfile(self.map_file):
            raise OSError(f"map file {self.map_file} does not exist")
        with open(self.map_file, encoding="utf-8") as f:
            pairs = [line.split() for line in f if line.strip()]
        folders = []
        for pair in pairs:
            if len(pair) != 2 or not pair[1].lstrip("-").isdigit():
                raise ParamValueError(f"{self.map_file}: each line must be '<folder> <int label>',"
                                      f" but got {' '.join(pair)!r}")
            folder, label = pair
            path = os.path.join(self.image_dir, folder)
            if os.path.isdir(path):
                folders.append((path, int(label)))
            else:
                warnings.warn(f"ImageNetToMR: {path} is not a folder; skipped", stacklevel=3)
        if not folders:
            raise ParamValueError(f"no folder of {self.map_file} is in {self.image_dir}")
        for path, label in folders:
            for name in sorted(os.listdir(path)):
                if name.endswith(("JPEG", "jpg")):
                    with open(os.path.join(path, name), "rb") as f:
                        yield {"label": label, "image": f.read(),
                               "file_name": os.path.join(path, name)}

    def transform(self) -> MSRStatus:
        schema = {"label": {"type": "int32"}, "image": {"type": "bytes"},
                  "file_name": {"type": "string"}}
        return _write(self.destination, schema, "imagenet_schema", self._rows(),
                      ["label", "file_name"], self.partition_number)

    run = transform


# -- CSV ------------------------------------------------------------------------------------
def _column_type(values: list[str]) -> tuple[str, Any]:
    """The MindRecord type of a CSV column and its parser, as pandas would read it: int64,
    float64 (empty cells: NaN), bool (stored as int32) or string."""
    def all_parse(parse: Any) -> bool:
        try:
            for v in values:
                parse(v)
        except ValueError:
            return False
        return True

    if all_parse(int):
        return "int64", int
    if all_parse(lambda v: float(v) if v.strip() else np.nan):
        return "float64", lambda v: float(v) if v.strip() else float("nan")
    if all(v in ("True", "False") for v in values):
        return "int32", lambda v: int(v == "True")
    return "string", str


class CsvToMR:
    """A CSV file with a header row to MindRecord: one row per line, the columns
    ``columns_list`` (default: all) typed as pandas reads them (int64, float64, bool as int32,
    else string) and indexed."""

    def __init__(self, source: str, destination: str, columns_list: list[str] | None = None,
                 partition_number: int = 1) -> None:
        self.source = _path(source, "source")
        self.destination = _path(destination, "destination")
        if columns_list is not None and not (
                isinstance(columns_list, list) and all(isinstance(c, str) for c in columns_list)):
            raise ParamValueError(f"The parameter columns_list must be list of str, but got "
                                  f"{columns_list!r}")
        self.columns_list = columns_list
        self.partition_number = _partitions(partition_number)

    def transform(self) -> MSRStatus:
        if not os.path.isfile(self.source):
            raise OSError(f"Csv file {self.source} does not exist")
        with open(self.source, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            lines = list(reader)
        if not header:
            raise RuntimeError(f"Csv file {self.source} has no header row")
        columns = self.columns_list or header
        missing = [c for c in columns if c not in header]
        if missing:
            raise RuntimeError(f"The parameter columns_list is illegal: columns {missing} are not "
                               f"in {self.source} (its columns: {header})")
        at = [header.index(c) for c in columns]
        types = [_column_type([line[i] for line in lines]) for i in at]
        schema = {c: {"type": kind} for c, (kind, _) in zip(columns, types)}
        rows = ({c: parse(line[i]) for c, i, (_, parse) in zip(columns, at, types)}
                for line in lines)
        return _write(self.destination, schema, "csv_schema", rows, list(columns),
                      self.partition_number)

    run = transform


# -- TFRecord -------------------------------------------------------------------------------
#: what each dtype ``tf.io.parse_single_example`` reads is stored as
_TF_TYPES = {"string": "string", "int64": "int64", "float32": "float32"}
_UNSAFE = str.maketrans({c: "_" for c in string.punctuation.replace("_", "") + " "})


class TFRecordToMR:
    """A TFRecord file to MindRecord, through TensorFlow (``pip install tensorflow``).

    ``feature_dict`` maps feature names to ``tf.io.FixedLenFeature``: scalars, or numbers of a
    fixed length ``[n]``. Field names have punctuation and spaces replaced by ``_``. Scalar
    strings are decoded as UTF-8, except those named in ``bytes_fields`` (images), kept as
    bytes."""

    def __init__(self, source: str, destination: str, feature_dict: dict[str, Any],
                 bytes_fields: list[str] | None = None) -> None:
        try:
            import tensorflow as tf
        except ModuleNotFoundError:
            raise ModuleNotFoundError("TFRecordToMR reads TFRecord files through TensorFlow, "
                                      "which is not installed: pip install tensorflow") from None
        self.tf = tf
        self.source = _path(source, "source")
        self.destination = _path(destination, "destination")
        if not isinstance(feature_dict, dict) or not feature_dict:
            raise ParamValueError(f"The parameter feature_dict must be a non-empty dict, but got "
                                  f"{feature_dict!r}")
        for name, feature in feature_dict.items():
            if not isinstance(feature, tf.io.FixedLenFeature):
                raise ParamValueError(f"The parameter feature_dict supports only "
                                      f"tf.io.FixedLenFeature, but {name!r} is {feature!r}")
        if bytes_fields is not None and not isinstance(bytes_fields, list):
            raise ParamValueError(f"The parameter bytes_fields must be a list of str, but got "
                                  f"{bytes_fields!r}")
        for name in bytes_fields or []:
            feature = feature_dict.get(name) if isinstance(name, str) else None
            if feature is None or feature.dtype != tf.string or list(feature.shape):
                raise ParamValueError(f"The parameter bytes_fields lists {name!r}, which must be "
                                      f"a scalar tf.string feature of feature_dict")
        self.feature_dict = feature_dict
        self.bytes_fields = set(bytes_fields or [])
        self.schema = {name.translate(_UNSAFE): self._field(name, feature)
                       for name, feature in feature_dict.items()}

    def _field(self, name: str, feature: Any) -> dict[str, Any]:
        kind = _TF_TYPES.get(feature.dtype.name)
        if kind is None:
            raise ParamValueError(f"feature_dict[{name!r}] has dtype {feature.dtype.name}, which "
                                  f"TFRecord features cannot hold (accepted: "
                                  f"{', '.join(_TF_TYPES)})")
        shape = list(feature.shape)
        if not shape:
            return {"type": "bytes" if name in self.bytes_fields else kind}
        if len(shape) != 1 or not isinstance(shape[0], int) or shape[0] < 1 or kind == "string":
            raise ParamValueError(f"feature_dict[{name!r}] must be a scalar, or numbers of shape "
                                  f"[n] with n > 0, but got shape {shape} of {feature.dtype.name}")
        return {"type": kind, "shape": shape}

    def _rows(self) -> Iterator[dict[str, Any]]:
        tf = self.tf
        records = tf.data.TFRecordDataset(self.source).map(
            lambda example: tf.io.parse_single_example(example, self.feature_dict))
        try:
            for sample in records:
                yield {name.translate(_UNSAFE): self._value(name, value.numpy())
                       for name, value in sample.items()}
        except tf.errors.InvalidArgumentError as err:
            raise ParamValueError(f"The records of {self.source} do not match feature_dict: "
                                  f"{err.message}") from None

    def _value(self, name: str, value: Any) -> Any:
        kind = self.schema[name.translate(_UNSAFE)]["type"]
        if kind == "bytes":
            return bytes(value)
        if kind == "string":
            return value.decode("utf-8")
        return np.asarray(value, dtype=kind) if value.ndim else np.asarray(value).item()

    def transform(self) -> MSRStatus:
        if not os.path.isfile(self.source):
            raise OSError(f"TFRecord file {self.source} does not exist")
        return _write(self.destination, self.schema, "TFRecord to MindRecord", self._rows())

    run = transform


__all__ = ["Cifar100ToMR", "Cifar10ToMR", "CsvToMR", "ImageNetToMR", "MnistToMR", "TFRecordToMR"]
