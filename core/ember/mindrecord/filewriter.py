"""``FileWriter``: rows written to MindRecord shard files and their SQLite indexes, as
``mindspore.mindrecord.FileWriter``."""

from __future__ import annotations

import enum
import logging
import os
from typing import Any

import numpy as np

from ember.mindrecord import format as fmt
from ember.mindrecord.exceptions import (
    MRMAddSchemaError,
    MRMCommitError,
    MRMDefineIndexError,
    MRMGetMetaError,
    MRMOpenError,
    MRMOpenForAppendError,
    MRMValidateDataError,
    ParamTypeError,
    ParamValueError,
)
from ember.mindrecord.index import read_index, write_index

logger = logging.getLogger("ember.mindrecord")


class MSRStatus(enum.IntEnum):
    """MindRecord's status codes, returned by the writer's methods."""

    SUCCESS = 0
    FAILED = 1

    def __repr__(self) -> str:  # as MindSpore's (pybind11) enum prints
        return f"MSRStatus.{self.name}"

    __str__ = __repr__


SUCCESS, FAILED = MSRStatus.SUCCESS, MSRStatus.FAILED

# the Python types a field of each schema type takes (numpy scalars and arrays too)
_ACCEPTS = {"int32": (int, np.integer), "int64": (int, np.integer),
            "float32": (float, np.floating), "float64": (float, np.floating),
            "string": (str,), "bytes": (bytes, bytearray)}


class _Shard:
    """One shard file being written: its pages (the header's ``page`` entries), the open row
    group, its index rows and the bytes not yet on disk."""

    def __init__(self, path: str, mode: str) -> None:
        self.path = path
        self.file = open(path, mode)  # noqa: SIM115 (closed by commit)
        self.pages: list[dict[str, Any]] = []
        self.group: dict[str, Any] | None = None  # the blob page new rows go to
        self.raw: dict[str, Any] | None = None  # the raw page new rows go to
        self.rows: list[list[Any]] = []  # index rows
        self.pending: dict[int, tuple[int, bytearray]] = {}  # page id -> (offset, bytes)

    def new_page(self, kind: str, start_row: int) -> dict[str, Any]:
        page = {"end_row_id": start_row, "page_id": len(self.pages), "page_size": 0,
                "page_type": kind, "page_type_id": sum(p["page_type"] == kind for p in self.pages),
                "row_group_ids": [], "shard_id": 0, "start_row_id": start_row}
        self.pages.append(page)
        return page

    def next_row(self) -> int:
        return max((p["end_row_id"] for p in self.pages if p["page_type"] == fmt.BLOB), default=0)

    def put(self, page: dict[str, Any], data: bytes, base: int) -> tuple[int, int]:
        """Append ``data`` to ``page``; its start and end offsets within the page."""
        start = page["page_size"]
        _, chunk = self.pending.setdefault(page["page_id"], (base + start, bytearray()))
        chunk += data
        page["page_size"] = start + len(data)
        return start, page["page_size"]

    def flush(self) -> None:
        for offset, chunk in self.pending.values():
            self.file.seek(offset)
            self.file.write(chunk)
        self.pending.clear()
        self.file.flush()


class FileWriter:
    """Writes rows to MindRecord files, as ``mindspore.mindrecord.FileWriter``.

    ``file_name`` is the file (``shard_num`` 1) or the stem of the ``shard_num`` files
    ``file_name0 ... file_name<shard_num - 1>`` (numbers zero-padded to one width), each with its
    index ``<file>.db``. Existing files are an MRMOpenError unless ``overwrite``. Call
    ``add_schema``, optionally ``add_index``, ``write_raw_data`` (rows are dicts; a batch is split
    evenly over the shards, in order) as often as needed, then ``commit``.
    """

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False) -> None:
        if not isinstance(file_name, str) or not file_name or file_name.endswith(("/", os.sep)):
            raise ParamValueError(f"file_name must be the path of a file, but got {file_name!r}")
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamValueError(f"Parameter shard_num's type is not int: got "
                                  f"{type(shard_num).__name__} {shard_num!r}.")
        if not fmt.MIN_SHARD_COUNT <= shard_num <= fmt.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{fmt.MIN_SHARD_COUNT} and {fmt.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError(f"Parameter overwrite's type is not bool: got "
                                  f"{type(overwrite).__name__} {overwrite!r}.")
        directory = os.path.dirname(os.path.abspath(file_name))
        if not os.path.isdir(directory):
            raise ParamValueError(f"the directory {directory} of file_name does not exist")
        width = len(str(shard_num - 1))
        self._paths = ([file_name] if shard_num == 1 else
                       [f"{file_name}{str(i).rjust(width, '0')}" for i in range(shard_num)])
        existing = [p for path in self._paths for p in (path, path + ".db")
                    if os.path.exists(p)]
        if existing and not overwrite:
            raise MRMOpenError(f"Invalid file, mindrecord files already exist. Please check file "
                               f"path: {existing}; remove them or pass overwrite=True")
        for path in existing:
            os.remove(path)
        self._schema: dict[str, dict[str, Any]] | None = None
        self._desc = ""
        self._index_fields: list[str] | None = None
        self._header_size, self._page_size = fmt.HEADER_SIZE, fmt.PAGE_SIZE
        self._compression = 0
        self._shards: list[_Shard] = []
        self._committed = False

    # -- describing the data -------------------------------------------------------------------
    def add_schema(self, content: dict[str, Any], desc: str | None = None) -> int:
        """Set the fields (see ``ember.mindrecord.format.check_schema``); returns the schema id,
        0 (a file holds one schema)."""
        if self._schema is not None:
            raise MRMAddSchemaError("the writer already has a schema: a MindRecord file holds "
                                    "one")
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError("desc", "str", desc)
        self._schema = dict(fmt.check_schema(content))
        self._desc = desc or ""
        return 0

    def add_index(self, index_fields: list[str]) -> MSRStatus:
        """Index the scalar fields ``index_fields`` in the .db files (default: every scalar
        field)."""
        if not isinstance(index_fields, list) or not index_fields:
            raise ParamTypeError("index_fields", "non-empty list", index_fields)
        if self._schema is None:
            raise MRMGetMetaError("Failed to get meta info: call add_schema before add_index")
        for field in index_fields:
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str", field)
            spec = self._schema.get(field)
            if spec is None or "shape" in spec or spec["type"] not in fmt.SCALAR_TYPES:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive "
                                          f"type: index fields must be scalar fields of the "
                                          f"schema ({self._scalar_fields()})")
        self._index_fields = list(dict.fromkeys(index_fields))
        return SUCCESS

    def set_header_size(self, header_size: int) -> MSRStatus:
        """The bytes before the first page (16 KB to 128 MB, a multiple of 4)."""
        self._header_size = self._check_size("header_size", header_size, fmt.MIN_HEADER_SIZE,
                                             fmt.MAX_HEADER_SIZE)
        return SUCCESS

    def set_page_size(self, page_size: int) -> MSRStatus:
        """The bytes of a page (32 KB to 256 MB, a multiple of 4); a row must fit one."""
        self._page_size = self._check_size("page_size", page_size, fmt.MIN_PAGE_SIZE,
                                           fmt.MAX_PAGE_SIZE)
        return SUCCESS

    def _check_size(self, name: str, value: Any, low: int, high: int) -> int:
        if self._shards:
            raise MRMValidateDataError(f"set {name} before the first write_raw_data")
        if not isinstance(value, int) or isinstance(value, bool):
            raise ParamTypeError(name, "int", value)
        if not low <= value <= high or value % 4:
            raise ParamValueError(f"{name} must be a multiple of 4 in [{low}, {high}], but got "
                                  f"{value}")
        return value

    def _scalar_fields(self) -> list[str]:
        assert self._schema is not None
        return sorted(n for n, f in self._schema.items() if n not in fmt.blob_fields(self._schema))

    # -- writing ---------------------------------------------------------------------------------
    def write_raw_data(self, raw_data: list[dict[str, Any]],
                       parallel_writer: bool = False) -> MSRStatus:
        """Append the rows ``raw_data`` (dicts of field values: Python scalars, str, bytes,
        NumPy arrays); a row that does not match the schema is left out with a warning, as
        MindSpore does."""
        if self._schema is None:
            raise MRMValidateDataError("write_raw_data needs a schema: call add_schema first")
        if self._committed:
            raise MRMValidateDataError("the files are committed; use FileWriter.open_for_append "
                                       "to add rows")
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list", raw_data)
        if not isinstance(parallel_writer, bool):
            raise ParamTypeError("parallel_writer", "bool", parallel_writer)
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict", row)
        rows = [row for i, row in enumerate(raw_data) if self._valid(i, row)]
        if not self._shards:
            self._shards = [_Shard(path, "w+b") for path in self._paths]
        per, extra = divmod(len(rows), len(self._shards))
        start = 0
        for k, shard in enumerate(self._shards):
            end = start + per + (k < extra)
            for row in rows[start:end]:
                self._place(shard, row)
            shard.flush()
            start = end
        return SUCCESS

    def _valid(self, i: int, row: dict[str, Any]) -> bool:
        assert self._schema is not None
        for name, spec in self._schema.items():
            problem = _mismatch(row.get(name), name, spec) if name in row else "is missing"
            if problem:
                logger.warning("FileWriter: row %d left out: field %r %s", i, name, problem)
                return False
        return True

    def _place(self, shard: _Shard, row: dict[str, Any]) -> None:
        assert self._schema is not None
        raw = fmt.encode_raw(row, self._schema)
        blob, saved = fmt.encode_blob(row, self._schema)
        size = self._page_size
        if max(len(raw), len(blob)) > size:
            raise ParamValueError(f"a row of {len(raw)} raw and {len(blob)} blob bytes does not "
                                  f"fit a page of {size} bytes: raise set_page_size")
        self._compression += saved
        group, page = shard.group, shard.raw
        if (group is None or page is None or group["page_size"] + len(blob) > size
                or page["page_size"] + len(raw) > size):
            row_id = shard.next_row()
            group = shard.group = shard.new_page(fmt.BLOB, row_id)
            if page is None or page["page_size"] + len(raw) > size:
                page = shard.raw = shard.new_page(fmt.RAW, 0)
            page["row_group_ids"].append({"id": group["page_type_id"],
                                          "offset": page["page_size"]})
        base = self._header_size
        raw_at = shard.put(page, raw, base + page["page_id"] * size)
        blob_at = shard.put(group, blob, base + group["page_id"] * size)
        row_id = group["end_row_id"]
        group["end_row_id"] += 1
        values = [fmt.plain(row[name]) for name in self._indexed()]
        shard.rows.append([row_id, group["page_type_id"], page["page_id"], *raw_at,
                           group["page_id"], *blob_at, *values])

    def _indexed(self) -> list[str]:
        return self._scalar_fields() if self._index_fields is None else self._index_fields

    # -- finishing ------------------------------------------------------------------------------
    def commit(self) -> MSRStatus:
        """Write each shard's header and index; the files are complete and readable after."""
        if self._committed:
            raise MRMCommitError("the files are already committed")
        if self._schema is None:
            raise MRMCommitError("nothing to commit: call add_schema and write_raw_data first")
        if not self._shards:
            self._shards = [_Shard(path, "w+b") for path in self._paths]
        schema = {"blob_fields": fmt.blob_fields(self._schema), "desc": self._desc,
                  "schema": self._schema}
        indexed = self._indexed()
        names = [os.path.basename(s.path) for s in self._shards]
        for k, shard in enumerate(self._shards):
            # an empty row-group list is written as one group 0 at offset 0 (MindSpore's Page)
            pages = [{**page, "shard_id": k,
                      "row_group_ids": page["row_group_ids"] or [{"id": 0, "offset": 0}]}
                     for page in shard.pages]
            header = {"header_size": self._header_size,
                      "index_fields": [{"index_field": f, "schema_id": 0} for f in indexed] or None,
                      "page": pages or None, "page_size": self._page_size,
                      "compression_size": self._compression, "schema": [schema],
                      "shard_addresses": names, "shard_id": k, "statistics": None,
                      "version": fmt.VERSION}
            record = fmt.header_json(header)
            if len(record) > self._header_size:
                raise MRMCommitError(f"the header of {shard.path} needs {len(record)} bytes, "
                                     f"more than header_size {self._header_size}")
            shard.flush()
            shard.file.seek(0)
            shard.file.write(record)
            shard.file.close()
            write_index(shard.path + ".db", names[k],
                        [(f, self._schema[f]["type"]) for f in indexed], shard.rows)
        self._committed = True
        return SUCCESS

    @classmethod
    def open_for_append(cls, file_name: str) -> FileWriter:
        """A writer that appends rows to the committed MindRecord files of ``file_name`` (any
        one of its shards); ``commit`` rewrites their headers and indexes."""
        header = fmt.read_header(file_name) if os.path.isfile(file_name) else None
        if header is None:
            raise MRMOpenForAppendError(f"{file_name!r} is not a MindRecord file")
        directory = os.path.dirname(os.path.abspath(file_name))
        paths = [os.path.join(directory, name) for name in header["shard_addresses"]]
        writer = cls.__new__(cls)
        schema = header["schema"][0]
        writer._paths = paths
        writer._schema, writer._desc = schema["schema"], schema.get("desc", "")
        writer._index_fields = [f["index_field"] for f in header.get("index_fields") or []]
        writer._header_size, writer._page_size = header["header_size"], header["page_size"]
        writer._compression = header.get("compression_size", 0)
        writer._committed = False
        writer._shards = []
        for path in paths:
            shard = _Shard(path, "r+b")
            shard.pages = [{**page, "row_group_ids": [] if page["page_type"] == fmt.BLOB
                            else page["row_group_ids"]}
                           for page in fmt.read_header(path)["page"] or []]
            raws = [p for p in shard.pages if p["page_type"] == fmt.RAW]
            shard.raw = raws[-1] if raws else None
            shard.rows = [list(r) for r in read_index(path, writer._index_fields)]
            writer._shards.append(shard)
        return writer


def _mismatch(value: Any, name: str, spec: dict[str, Any]) -> str:
    """Why ``value`` cannot be field ``name`` of type ``spec`` ('' when it can)."""
    kind = spec["type"]
    if "shape" in spec:
        if not isinstance(value, np.ndarray):
            return f"must be a NumPy array of {kind}, but got {type(value).__name__}"
        if str(value.dtype) != kind:
            return f"must be a NumPy array of {kind}, but its dtype is {value.dtype}"
        try:
            np.reshape(value, spec["shape"])
        except ValueError:
            return f"has shape {list(value.shape)}, which does not fit {spec['shape']}"
        return ""
    if isinstance(value, bool) or not isinstance(value, _ACCEPTS[kind]):
        return f"must be {kind}, but got {type(value).__name__} {value!r:.40}"
    if kind in ("int32", "int64"):
        bits = 31 if kind == "int32" else 63
        if not -(1 << bits) <= int(value) < 1 << bits:
            return f"holds {value}, out of the range of {kind}"
    return ""
