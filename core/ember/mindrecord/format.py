"""MindRecord's on-disk layout (MindSpore 1.6, header version "3.0"), shared by the writer and the
readers.

A shard file is a header area of ``header_size`` bytes, then pages of ``page_size`` bytes; page
``i`` starts at ``header_size + i * page_size`` (the last one is not padded). The header area
holds an 8-byte little-endian length and then the header JSON: schema, index fields, the
shard's pages, sizes and the names of every shard file. A row is split in two:

* its scalar fields (int32, int64, float32, float64, string) as MessagePack in a RAW_DATA page,
  preceded by its 8-byte little-endian length;
* its blob fields (bytes, and arrays: any type with a ``shape``) in a BLOB_DATA page, preceded
  by the row's 8-byte little-endian length. With one blob field the row is its bytes; with more,
  each field (in name order) is an 8-byte *big*-endian length and the bytes. When the schema has
  an int32/int64 array, each integer blob is compressed: a 4-byte big-endian element count, a
  bitmap of 2 bits per element (its width: 1, 2, 4 or 8 bytes, first element in the high bits)
  and the elements little-endian in those widths.

A blob page is a row group; a raw page lists the groups it holds with their offsets. A row with
no blob field stores 4 zero bytes of blob; one with only blob fields stores ``{"id": 0}`` raw.
The ``<file>.db`` SQLite file beside each shard indexes its rows (``ember.mindrecord.index``).
"""

from __future__ import annotations

import json
import re
import struct
from typing import Any

import numpy as np

from ember.mindrecord import _msgpack
from ember.mindrecord.exceptions import MRMInvalidSchemaError, MRMOpenError

VERSION = "3.0"
SUPPORTED_VERSIONS = ("2.0", "3.0")
HEADER_SIZE = 1 << 24
PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
BLOB, RAW = "BLOB_DATA", "RAW_DATA"

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string")
FIELD_TYPES = (*SCALAR_TYPES, "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
NO_BLOB = b"\0\0\0\0"
DUMMY_RAW = {"id": 0}
_LEN = struct.Struct("<Q")
_BIG_LEN = struct.Struct(">Q")


def check_schema(content: Any) -> dict[str, dict[str, Any]]:
    """``content`` checked as MindRecord's schema: field names of ``[0-9a-zA-Z_]`` mapped to
    ``{"type": T}`` (T one of FIELD_TYPES) or ``{"type": T, "shape": [..]}`` (an array of one of
    ARRAY_TYPES; -1 marks one free dimension)."""
    if not isinstance(content, dict) or not content:
        raise MRMInvalidSchemaError(f"the schema must be a non-empty dict of fields, but got "
                                    f"{content!r:.80}")
    for name, field in content.items():
        if not isinstance(name, str) or not re.fullmatch(r"[0-9a-zA-Z_]+", name):
            raise MRMInvalidSchemaError(f"Field '{name}' should be composed of '0-9' or 'a-z' "
                                        "or 'A-Z' or '_'.")
        if not isinstance(field, dict) or "type" not in field or set(field) - {"type", "shape"}:
            raise MRMInvalidSchemaError(f"Field '{name}' should be a dict {{'type': ...}} with "
                                        f"an optional 'shape', but got {field!r}")
        kind = field["type"]
        accepted = ARRAY_TYPES if "shape" in field else FIELD_TYPES
        if kind not in accepted:
            raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{kind}': "
                                        f"accepted types are {list(accepted)}")
        if "shape" in field:
            shape = field["shape"]
            if (not isinstance(shape, list) or not shape
                    or not all(isinstance(d, int) and (d > 0 or d == -1) for d in shape)
                    or shape.count(-1) > 1):
                raise MRMInvalidSchemaError(f"Field '{name}' has shape {shape!r}: expected a "
                                            "list of positive ints with at most one -1")
    return content


def blob_fields(schema: dict[str, dict[str, Any]]) -> list[str]:
    """The fields stored in blob pages, in name order: bytes fields and arrays."""
    return sorted(name for name, f in schema.items() if f["type"] == "bytes" or "shape" in f)


def compresses(schema: dict[str, dict[str, Any]]) -> bool:
    """Whether integer blobs are compressed: the schema has an int32 or int64 array."""
    return any("shape" in f and f["type"] in ("int32", "int64") for f in schema.values())


def encode_raw(row: dict[str, Any], schema: dict[str, dict[str, Any]]) -> bytes:
    """The raw-page record of ``row``: its length and the MessagePack of its scalar fields."""
    blobs = blob_fields(schema)
    scalars = {name: plain(row[name]) for name in schema if name not in blobs}
    data = _msgpack.pack(scalars or DUMMY_RAW)
    return _LEN.pack(len(data)) + data


def plain(value: Any) -> Any:
    """A NumPy scalar as the Python value MessagePack stores."""
    return value.item() if isinstance(value, np.generic) else value


def decode_raw(data: bytes) -> dict[str, Any]:
    return _msgpack.unpack(data)


_SHIFTS = np.array([6, 4, 2, 0], np.uint8)  # 2-bit width codes, four to a byte, first high
_LANES = np.arange(8)


def _compress_int(data: bytes, itemsize: int) -> bytes:
    values = np.frombuffer(data, f"<i{itemsize}").astype("<i8")
    codes = np.full(len(values), 3, np.uint8)
    for code, dtype in ((2, np.int32), (1, np.int16), (0, np.int8)):
        info = np.iinfo(dtype)
        codes[(values >= info.min) & (values <= info.max)] = code
    padded = np.zeros(-(-len(values) // 4) * 4, np.uint8)
    padded[:len(values)] = codes
    bitmap = (padded.reshape(-1, 4) << _SHIFTS).sum(1, dtype=np.uint8)
    # each value's low 1, 2, 4 or 8 little-endian bytes (two's complement keeps its value)
    lanes = values.view(np.uint8).reshape(-1, 8)
    body = lanes[_LANES < (1 << codes.astype(np.int64))[:, None]]
    return struct.pack(">I", len(values)) + bitmap.tobytes() + body.tobytes()


def _uncompress_int(data: bytes) -> np.ndarray:
    (count,) = struct.unpack_from(">I", data)
    buffer = np.frombuffer(data, np.uint8)
    bitmap = buffer[4:4 + -(-count // 4)]
    codes = ((bitmap[:, None] >> _SHIFTS) & 3).reshape(-1)[:count]
    sizes = 1 << codes.astype(np.int64)
    starts = 4 + len(bitmap) + np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    if count and starts[-1] + sizes[-1] != len(buffer):
        raise ValueError(f"a compressed integer blob of {len(buffer)} bytes holds "
                         f"{starts[-1] + sizes[-1]}")
    valid = _LANES < sizes[:, None]
    lanes = np.zeros((count, 8), np.uint8)
    lanes[valid] = buffer[(starts[:, None] + _LANES)[valid]]
    negative = buffer[starts + sizes - 1] >= 0x80 if count else np.zeros(0, bool)
    lanes[~valid & negative[:, None]] = 0xFF  # sign extension
    return lanes.reshape(-1).view("<i8")


def encode_blob(row: dict[str, Any], schema: dict[str, dict[str, Any]]) -> tuple[bytes, int]:
    """The blob-page record of ``row`` (its length and blob) and the bytes compression saved."""
    fields, squeeze = blob_fields(schema), compresses(schema)
    parts, saved = [], 0
    for name in fields:
        value, kind = row[name], schema[name]["type"]
        data = (bytes(value) if kind == "bytes" else
                np.ascontiguousarray(value, np.dtype(kind).newbyteorder("<")).tobytes())
        if squeeze and kind in ("int32", "int64"):
            small = _compress_int(data, np.dtype(kind).itemsize)
            saved += len(data) - len(small)
            data = small
        parts.append(data)
    if not parts:
        blob = NO_BLOB
    elif len(parts) == 1:
        blob = parts[0]
    else:
        blob = b"".join(_BIG_LEN.pack(len(p)) + p for p in parts)
    return _LEN.pack(len(blob)) + blob, saved


def decode_blob(blob: bytes, schema: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The blob fields of a row from its blob (bytes as bytes, arrays shaped by the schema)."""
    fields, squeeze = blob_fields(schema), compresses(schema)
    if len(fields) == 1:
        parts = [blob]
    else:
        parts, at = [], 0
        for _ in fields:
            (size,) = _BIG_LEN.unpack_from(blob, at)
            parts.append(blob[at + 8:at + 8 + size])
            at += 8 + size
    row = {}
    for name, data in zip(fields, parts):
        kind = schema[name]["type"]
        if kind == "bytes":
            row[name] = bytes(data)
            continue
        if squeeze and kind in ("int32", "int64"):
            array = _uncompress_int(data).astype(kind)
        else:
            array = np.frombuffer(data, dtype=np.dtype(kind).newbyteorder("<")).astype(kind)
        row[name] = array.reshape(schema[name]["shape"])
    return row


def header_json(header: dict[str, Any]) -> bytes:
    """The header record (length and JSON) of one shard: MindSpore's order of the top-level keys,
    sorted keys inside (nlohmann::json's), no spaces."""
    keys = ("header_size", "index_fields", "page", "page_size", "compression_size", "schema",
            "shard_addresses", "shard_id", "statistics", "version")
    body = "{" + ",".join(f'"{key}":' + json.dumps(header[key], separators=(",", ":"),
                                                     ensure_ascii=False, sort_keys=True)
                          for key in keys) + "}"
    data = body.encode("utf-8")
    return _LEN.pack(len(data)) + data


def read_header(path: str) -> dict[str, Any]:
    """The header JSON of the shard file ``path``, checked; MRMOpenError if it is damaged."""
    try:
        with open(path, "rb") as file:
            head = file.read(8)
            if len(head) < 8:
                raise MRMOpenError(f"{path} is not a MindRecord file: it has {len(head)} bytes, "
                                   "fewer than the 8 of its header length")
            (size,) = _LEN.unpack(head)
            if size > MAX_HEADER_SIZE:
                raise MRMOpenError(f"Invalid file, the size of mindrecord file header is larger "
                                   f"than the upper limit. {path} gives {size} bytes, more than "
                                   f"{MAX_HEADER_SIZE}: it is not a MindRecord file")
            body = file.read(size)
    except OSError as error:
        raise MRMOpenError(f"cannot read the MindRecord file {path}: {error}") from None
    try:
        header = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MRMOpenError(f"{path} is damaged: its header is not JSON ({error})") from None
    missing = [key for key in ("header_size", "page", "page_size", "schema", "shard_addresses",
                               "version") if not isinstance(header, dict) or key not in header]
    if missing:
        raise MRMOpenError(f"{path} is damaged: its header lacks {missing}")
    if header["version"] not in SUPPORTED_VERSIONS:
        raise MRMOpenError(f"{path} has MindRecord version {header['version']!r}; supported "
                           f"versions are {list(SUPPORTED_VERSIONS)}")
    if not isinstance(header["schema"], list) or len(header["schema"]) != 1:
        raise MRMOpenError(f"{path} is damaged: its header holds {header['schema']!r:.80} where "
                           "one schema is expected")
    return header
