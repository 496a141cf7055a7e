"""Reading MindRecord files: ``Shards`` (the rows of a set of shard files, by index, shared with
``ember.dataset.MindDataset``) and ``FileReader``, as ``mindspore.mindrecord.FileReader``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from ember.mindrecord import format as fmt
from ember.mindrecord.exceptions import MRMOpenError, ParamTypeError, ParamValueError
from ember.mindrecord.index import read_index

_SCALARS = {"int32": int, "int64": int, "float32": float, "float64": float, "string": str}


class Shards:
    """The rows of MindRecord shard files, in file order and, in each, by row id.

    ``file_name`` is one shard file (with ``load_dataset`` its header names every shard of the
    set, all read) or a list of shard files read as given. ``columns`` picks fields (default:
    all, in name order). Every file needs its ``.db`` index beside it; a missing or damaged file
    is an MRMOpenError naming it.
    """

    def __init__(self, file_name: str | list[str], columns: list[str] | None = None,
                 load_dataset: bool = True, where: str = "FileReader") -> None:
        if isinstance(file_name, str):
            first = fmt.read_header(_existing(file_name, where))
            directory = os.path.dirname(os.path.abspath(file_name))
            paths = ([os.path.join(directory, name) for name in first["shard_addresses"]]
                     if load_dataset else [file_name])
        elif isinstance(file_name, list | tuple) and file_name and all(
                isinstance(p, str) for p in file_name):
            paths = list(file_name)
        else:
            raise ParamTypeError("file_name", "str or non-empty list of str", file_name)
        headers = [fmt.read_header(_existing(p, where)) for p in paths]
        self.schema: dict[str, dict[str, Any]] = headers[0]["schema"][0]["schema"]
        for path, header in zip(paths, headers):
            if header["schema"][0]["schema"] != self.schema:
                raise MRMOpenError(f"{where}: {path} has another schema than {paths[0]}; the "
                                   "files of one dataset share one schema")
        self.columns = self._pick(columns, where)
        self.paths = paths
        self.index_fields = [f["index_field"] for f in headers[0].get("index_fields") or []]
        self._header_size = [h["header_size"] for h in headers]
        self._page_size = [h["page_size"] for h in headers]
        locations = [read_index(p) for p in paths]
        self.counts = [len(rows) for rows in locations]
        # per row: shard, raw page, raw start, raw end, blob page, blob start, blob end
        self._rows = np.array([(k, r[2], r[3], r[4], r[5], r[6], r[7])
                               for k, rows in enumerate(locations) for r in rows],
                              dtype=np.int64).reshape(-1, 7)
        self._fds: list[int] = [os.open(p, os.O_RDONLY) for p in paths]

    def _pick(self, columns: Any, where: str) -> list[str]:
        if columns is None:
            return sorted(self.schema)
        names = [columns] if isinstance(columns, str) else columns
        if not isinstance(names, list | tuple) or not names or not all(
                isinstance(c, str) for c in names):
            raise ParamTypeError("columns_list", "non-empty list of str", columns)
        unknown = [c for c in names if c not in self.schema]
        if unknown:
            raise ParamValueError(f"{where}: columns {unknown} are not fields of the file; its "
                                  f"fields are {sorted(self.schema)}")
        return list(names)

    def __len__(self) -> int:
        return len(self._rows)

    def index_values(self, field: str) -> list[Any]:
        """The value of the index field ``field`` of every row, from the .db files."""
        return [row[8] for path in self.paths for row in read_index(path, [field])]

    @property
    def closed(self) -> bool:
        return not self._fds

    def _read(self, shard: int, page: int, start: int, end: int) -> bytes:
        if not self._fds:
            raise MRMOpenError(f"the MindRecord files {self.paths} are closed")
        at = self._header_size[shard] + page * self._page_size[shard]
        data = os.pread(self._fds[shard], end - start, at + start)
        if len(data) != end - start:
            raise MRMOpenError(f"{self.paths[shard]} is damaged: a record at byte {at + start} "
                               f"runs past the end of the file")
        return data

    def row(self, index: int) -> dict[str, Any]:
        """Row ``index`` as a dict of the chosen columns: scalars as Python values, bytes as
        bytes, arrays as NumPy arrays."""
        shard, raw_page, raw_start, raw_end, blob_page, blob_start, blob_end = (
            self._rows[index].tolist())
        values: dict[str, Any] = {}
        blobs = fmt.blob_fields(self.schema)
        try:
            if any(c not in blobs for c in self.columns):
                values.update(fmt.decode_raw(self._read(shard, raw_page, raw_start + 8, raw_end)))
            if any(c in blobs for c in self.columns):
                values.update(fmt.decode_blob(
                    self._read(shard, blob_page, blob_start + 8, blob_end), self.schema))
        except (ValueError, IndexError, KeyError) as error:
            raise MRMOpenError(f"{self.paths[shard]} is damaged: row {index} cannot be decoded "
                               f"({error})") from None
        missing = [c for c in self.columns if c not in values]
        if missing:
            raise MRMOpenError(f"{self.paths[shard]} is damaged: row {index} lacks {missing}")
        return {c: (_SCALARS[self.schema[c]["type"]](values[c]) if c not in blobs else values[c])
                for c in self.columns}

    def close(self) -> None:
        for fd in getattr(self, "_fds", []):
            os.close(fd)
        self._fds = []

    def __del__(self) -> None:
        self.close()


def _existing(path: str, where: str) -> str:
    if not os.path.isfile(path):
        raise MRMOpenError(f"Invalid file, mindrecord file: {path} can not be found. Please "
                           "check whether the mindrecord file exists and do not rename the "
                           f"mindrecord file. ({where})")
    return path


def check_consumers(num_consumer: Any) -> int:
    """``num_consumer`` of FileReader and MindPage: an int in [1, 128]."""
    if num_consumer is None:
        raise ParamValueError("Parameter num_consumer is None.")
    if not isinstance(num_consumer, int) or isinstance(num_consumer, bool):
        raise ParamValueError(f"Parameter num_consumer is not int: got "
                              f"{type(num_consumer).__name__} {num_consumer!r}.")
    if not 1 <= num_consumer <= 128:
        raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between 1 and "
                              "128.")
    return num_consumer


class FileReader:
    """Reads the rows of MindRecord files, as ``mindspore.mindrecord.FileReader``.

    ``file_name``: one file of a set (every shard it names is read) or a list of files;
    ``columns``: the fields to read (default: all); ``num_consumer`` is checked (1 to 128) and
    rows are read in order. ``get_next()`` yields each row as a dict.
    """

    def __init__(self, file_name: str | list[str], num_consumer: int = 4,
                 columns: list[str] | None = None, operator: Any = None) -> None:
        check_consumers(num_consumer)
        if operator is not None:
            raise ParamValueError("operator (a C++ shard operator) is not supported; pass None")
        self._shards = Shards(file_name, columns)

    def get_next(self) -> Iterator[dict[str, Any]]:
        """Each row, in file order, as a dict of field values (none after ``close``)."""
        for index in range(len(self._shards)):
            if self._shards.closed:
                return
            yield self._shards.row(index)

    def len(self) -> int:
        """The number of rows."""
        return len(self._shards)

    def schema(self) -> dict[str, dict[str, Any]]:
        """The schema of the files."""
        return dict(self._shards.schema)

    def close(self) -> None:
        """Release the files."""
        self._shards.close()
