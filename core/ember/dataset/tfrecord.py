"""``TFRecordDataset``: rows of TFRecord files of ``tf.train.Example`` messages, as
``mindspore.dataset.TFRecordDataset``.

A TFRecord file is a sequence of records (a little-endian uint64 length, its masked CRC-32C,
the bytes, their masked CRC-32C); each record is an ``Example`` protocol buffer whose features
(lists of bytes, floats or int64s) become the row's columns. The message classes are built here
from a descriptor, as ``ember.train._checkpoint_proto`` builds the checkpoint's: no TensorFlow.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Iterator
from typing import Any

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from ember.dataset import config
from ember.dataset._checks import (
    check_bool,
    check_int,
    check_names,
    check_shards,
    check_workers,
    find_files,
)
from ember.dataset.engine import Dataset, Row, _Run, buffer_shuffle
from ember.dataset.filerows import Shuffle, check_file_shuffle
from ember.dataset.schema import DE_TYPES, Schema
from ember.train._checkpoint_proto import _field
from ember.train.summary._summary_adapter import crc32c

_F = descriptor_pb2.FieldDescriptorProto


def _example_descriptor() -> descriptor_pb2.FileDescriptorProto:
    """TensorFlow's ``example.proto`` and ``feature.proto`` (package ``tensorflow``)."""
    file = descriptor_pb2.FileDescriptorProto(name="example.proto", package="tensorflow",
                                              syntax="proto3")
    for name, kind in (("BytesList", _F.TYPE_BYTES), ("FloatList", _F.TYPE_FLOAT),
                       ("Int64List", _F.TYPE_INT64)):
        _field(file.message_type.add(name=name), "value", 1, kind, _F.LABEL_REPEATED)
    feature = file.message_type.add(name="Feature")
    feature.oneof_decl.add(name="kind")
    for number, name in enumerate(("BytesList", "FloatList", "Int64List"), 1):
        field_name = name.replace("List", "_list").lower()
        _field(feature, field_name, number, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL,
               f".tensorflow.{name}", oneof=0)
    features = file.message_type.add(name="Features")
    entry = features.nested_type.add(name="FeatureEntry")
    entry.options.map_entry = True
    _field(entry, "key", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL)
    _field(entry, "value", 2, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, ".tensorflow.Feature")
    _field(features, "feature", 1, _F.TYPE_MESSAGE, _F.LABEL_REPEATED,
           ".tensorflow.Features.FeatureEntry")
    _field(file.message_type.add(name="Example"), "features", 1, _F.TYPE_MESSAGE,
           _F.LABEL_OPTIONAL, ".tensorflow.Features")
    return file


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_example_descriptor())
Example = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("tensorflow.Example"))

_KIND_TYPES = {"bytes_list": "uint8", "float_list": "float32", "int64_list": "int64"}
_LENGTH = struct.Struct("<QI")


def _masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _is_tfrecord(path: str) -> bool:
    """Whether the first record's length carries its CRC, as MindSpore checks each file."""
    try:
        with open(path, "rb") as file:
            header = file.read(_LENGTH.size)
    except OSError:
        return False
    return len(header) == _LENGTH.size and _masked_crc(header[:8]) == _LENGTH.unpack(header)[1]


def _records(path: str) -> Iterator[bytes]:
    """The serialized records of one file, in order."""
    with open(path, "rb") as file:
        while header := file.read(_LENGTH.size):
            if len(header) < _LENGTH.size:
                raise RuntimeError(f"TFRecordDataset: {path} ends inside a record header")
            length = _LENGTH.unpack(header)[0]
            data = file.read(length)
            if len(data) < length or len(file.read(4)) < 4:
                raise RuntimeError(f"TFRecordDataset: {path} ends inside a record of {length} "
                                   "bytes: the file is truncated")
            yield data


def _count(path: str) -> int:
    """The records of one file, counted by skipping their bytes."""
    count = 0
    with open(path, "rb") as file:
        while len(header := file.read(_LENGTH.size)) == _LENGTH.size:
            file.seek(_LENGTH.unpack(header)[0] + 4, 1)
            count += 1
    return count


def _parse(data: bytes, path: str) -> Any:
    try:
        return Example.FromString(data).features.feature
    except Exception:  # noqa: BLE001 (protobuf's DecodeError differs between its backends)
        raise RuntimeError(f"Failed to parse tfrecord file: {path}, it does not hold "
                           "tf.train.Example records") from None


class _Column:
    """One column as the schema gives it: name, MindSpore type name, shape (None: any) and rank
    (a column without a shape and of rank 0 holding one value is a scalar)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.name = spec["name"]
        self.type = spec["type"]
        self.dtype = DE_TYPES[self.type]
        self.shape = spec.get("shape")
        self.rank = spec.get("rank", 1)

    def materialize(self, count: int) -> tuple[int, ...]:
        """The shape of a value of ``count`` elements (MindSpore's MaterializeTensorShape)."""
        if self.shape is None:
            return () if self.rank == 0 and count == 1 else (count,)
        unknown = [k for k, d in enumerate(self.shape) if d == -1]
        known = math.prod(d for d in self.shape if d != -1)
        if len(unknown) > 1:
            raise RuntimeError(f"TFRecordDataset: column {self.name!r}: requested shape "
                               f"{self.shape} has more than one unknown dimension!")
        if count < known or known == 0 or count % known:
            raise RuntimeError(f"TFRecordDataset: column {self.name!r}: Requested shape has an "
                               f"invalid element count! Number elements: {count}, number "
                               f"elements of shape: {known}")
        return tuple(count // known if d == -1 else d for d in self.shape)

    def read(self, feature: Any) -> np.ndarray:
        kind = feature.WhichOneof("kind")
        values = getattr(feature, kind).value if kind else None
        if kind == "bytes_list":
            return self._bytes(list(values))
        if kind == "float_list":
            if self.type != "float32":
                raise RuntimeError(f"Invalid column type, the column type of {self.name} should "
                                   f"be float32, but got {self.type}")
            return np.array(values, np.float32).reshape(self.materialize(len(values)))
        if kind == "int64_list":
            if self.dtype.kind not in "iu":
                raise RuntimeError(f"Invalid column type, the column type of {self.name} should "
                                   "be uint64, int64, uint32, int32, uint16, int16, uint8 or "
                                   f"int8, but got {self.type}")
            array = np.array(values, np.int64).astype(self.dtype)  # wraps, as a C++ cast
            return array.reshape(self.materialize(len(values)))
        raise RuntimeError(f"Unrecognized datatype, the column type of {self.name} in the "
                           "tfrecord file must be uint8, int64 or float32")

    def _bytes(self, values: list[bytes]) -> np.ndarray:
        if self.type not in ("uint8", "int8", "string"):
            raise RuntimeError(f"Invalid column type, the column type of {self.name} should be "
                               f"int8, uint8 or string, but got {self.type}")
        if self.type == "string":
            return np.array(values, np.bytes_).reshape(self.materialize(len(values)))
        pad = max((len(v) for v in values), default=0)
        if self.shape is not None and len(self.shape) >= 2 and self.shape[0] == -1:
            pad = math.prod(self.shape[1:])
        elif self.shape is not None and -1 not in self.shape and math.prod(self.shape) != pad:
            raise RuntimeError(f"Data dimensions of '{self.name}' do not match, the expected "
                               f"total elements of shape {self.shape} should be {pad}, but got "
                               f"{math.prod(self.shape)}")
        data = b"".join(v[:pad].ljust(pad, b" ") for v in values)  # spaces, as MindSpore pads
        return np.frombuffer(data, self.dtype).reshape(self.materialize(len(values) * pad))


class TFRecordDataset(Dataset):
    """The rows of TFRecord files, as ``mindspore.dataset.TFRecordDataset``.

    ``dataset_files``: a path, a glob pattern or a list of them, read in sorted order.
    ``schema`` (a ``Schema`` or its JSON file) gives the columns, their types and shapes, and
    with ``numRows`` the rows to read when ``num_samples`` is not given; without it the first
    record names the columns (in name order) and types them by its feature lists (bytes uint8,
    floats float32, int64s int64), each a 1-D array. ``columns_list`` picks and orders columns.

    ``shuffle``: ``Shuffle.GLOBAL`` (default, or True) shuffles the order of the files and the
    rows (a buffer of ``max(4 * rows per file, 10000)`` rows), ``Shuffle.FILES`` the files
    only, False neither. ``num_shards``/``shard_id``: shard ``k`` reads files ``k, k +
    num_shards, ...`` of that order, or with ``shard_equal_rows`` rows ``k * m ... k * m + m -
    1`` of ``m = ceil(rows / num_shards)`` (wrapping around). Sharded, the file order of epoch
    ``e`` is drawn from ``(ds.config.get_seed(), e)``, so the shards of every process split one
    order. With ``num_parallel_workers`` > 1 the files are dealt to the workers in turn and the
    rows come from the workers in turn, as MindSpore's reader. ``num_samples`` caps the rows of
    an epoch.
    """

    _where = "TFRecordDataset"

    def __init__(self, dataset_files: str | list[str], schema: Schema | str | None = None,
                 columns_list: list[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None,
                 shard_equal_rows: bool = False, cache: None = None) -> None:
        super().__init__()
        where = self._where
        self._files = sorted(find_files(dataset_files, where))
        if schema is not None and not isinstance(schema, Schema | str):
            raise TypeError(f"{where}: schema must be a Schema or the path of its JSON file, "
                            f"but got {type(schema).__name__}")
        self._schema = Schema(schema) if isinstance(schema, str) else schema
        self._columns_list = (None if columns_list is None
                              else check_names(columns_list, where, "columns_list"))
        samples = 0 if num_samples is None else check_int(num_samples, where, "num_samples",
                                                          minimum=0)
        self._num_samples = samples or (self._schema.num_rows if self._schema else 0)
        self._workers = check_workers(num_parallel_workers, where)
        self._shuffle = check_file_shuffle(shuffle, where)
        self._shard = check_shards(num_shards, shard_id, where)
        self._equal_rows = check_bool(shard_equal_rows, where, "shard_equal_rows")
        if cache is not None:
            raise ValueError(f"{where}: cache (a DatasetCache server) is not supported by ember")
        self._specs: list[_Column] | None = None
        self._counts: list[int] | None = None
        self._epochs = 0

    # -- columns and sizes -------------------------------------------------------------------
    def _columns(self) -> list[str]:
        return [column.name for column in self._column_specs()]

    def _column_specs(self) -> list[_Column]:
        """The columns, found when first needed (the files are checked then, as MindSpore
        checks them when a pipeline is built)."""
        if self._specs is None:
            invalid = [f for f in self._files if not _is_tfrecord(f)]
            if invalid:
                listed = "".join(f"    {f}\n" for f in invalid)
                raise RuntimeError("Invalid file, the following files either cannot be opened, "
                                   f"or are not valid tfrecord files:\n{listed}")
            self._specs = self._schema_columns() if self._schema else self._inferred_columns()
        return self._specs

    def _schema_columns(self) -> list[_Column]:
        assert self._schema is not None
        specs = {spec["name"]: spec for spec in self._schema.columns}
        names = self._columns_list or list(specs)
        missing = [n for n in names if n not in specs]
        if missing:
            raise RuntimeError(f"Invalid data, failed to find column: {missing[0]} in JSON "
                               "schema file.")
        return [_Column(specs[name]) for name in names]

    def _inferred_columns(self) -> list[_Column]:
        first = next(_records(self._files[0]), None)
        if first is None:
            raise RuntimeError(f"{self._where}: {self._files[0]} has no records to read the "
                               "columns from; give a schema")
        features = _parse(first, self._files[0])
        names = self._columns_list or sorted(features)
        columns = []
        for name in names:
            if name not in features:
                raise RuntimeError("Invalid columns_list, tfrecord file failed to find column "
                                   f"name: {name}")
            kind = features[name].WhichOneof("kind")
            if kind is None:
                raise RuntimeError(f"Unrecognized column type, the column type of {name} should "
                                   "be uint8, int64 or float32, but got unrecognized column "
                                   "type.")
            columns.append(_Column({"name": name, "type": _KIND_TYPES[kind], "rank": 1}))
        return columns

    def _file_counts(self) -> list[int]:
        if self._counts is None:
            self._counts = [_count(f) for f in self._files]
        return self._counts

    def _known_size(self) -> int:
        counts = self._file_counts()
        if self._shard is None:
            size = sum(counts)
        elif self._equal_rows:
            size = math.ceil(sum(counts) / self._shard[0])
        else:
            num_shards, shard_id = self._shard
            size = sum(counts[shard_id::num_shards])
        return size if not self._num_samples else min(size, self._num_samples)

    # -- rows --------------------------------------------------------------------------------
    def _blocks(self, order: list[int]) -> list[tuple[int, int, int]]:
        """The ``(file, first row, end row)`` blocks this shard reads, in order."""
        counts = self._file_counts()
        whole = [(k, 0, counts[k]) for k in order]
        if self._shard is None:
            return whole
        num_shards, shard_id = self._shard
        if not self._equal_rows:
            return whole[shard_id::num_shards]
        per_shard = math.ceil(sum(counts) / num_shards)
        start, end = shard_id * per_shard, (shard_id + 1) * per_shard
        blocks, seen = [], 0
        for k in itertools.cycle(order) if per_shard else ():
            if seen >= end:
                break
            if seen + counts[k] > start:
                blocks.append((k, max(start - seen, 0), min(end - seen, counts[k])))
            seen += counts[k]
        return blocks

    def _read_block(self, block: tuple[int, int, int], specs: list[_Column]) -> Iterator[Row]:
        k, first, end = block
        path = self._files[k]
        for data in itertools.islice(_records(path), first, end):
            features = _parse(data, path)
            row = []
            for column in specs:
                if column.name not in features:
                    raise RuntimeError(f"Invalid columns_list, column name: {column.name} does "
                                       f"not exist in tfrecord file {path}, check tfrecord "
                                       "files.")
                row.append(column.read(features[column.name]))
            yield tuple(row)

    def _rows(self, run: _Run) -> Iterator[Row]:
        specs = self._column_specs()
        order = list(range(len(self._files)))
        if self._shuffle is not False:
            if self._shard is None:
                rng = run.spawn()
            else:
                rng = np.random.default_rng([config.get_seed(), self._epochs])
                self._epochs += 1
            order = rng.permutation(order).tolist()
        blocks = self._blocks(order)
        workers = max(1, min(self._workers, len(blocks)))
        streams = [itertools.chain.from_iterable(self._read_block(b, specs)
                                                 for b in blocks[w::workers])
                   for w in range(workers)]
        rows = _interleave(streams)
        if self._num_samples:
            rows = itertools.islice(rows, self._num_samples)
        if self._shuffle is Shuffle.GLOBAL:
            per_file = sum(self._file_counts()) // len(self._files)
            rows = buffer_shuffle(rows, max(4 * per_file, 10000), run.spawn())
        yield from rows


def _interleave(streams: list[Iterator[Row]]) -> Iterator[Row]:
    """One row from each stream in turn, skipping streams that have ended."""
    active = list(streams)
    while active:
        for stream in list(active):
            row = next(stream, None)
            if row is None:
                active.remove(stream)
            else:
                yield row
