"""The per-shard SQLite index of MindRecord (``<shard file>.db``), as MindSpore's
ShardIndexGenerator writes it: a ``SHARD_NAME`` table with the shard file's name and an
``INDEXES`` table with one row per sample: where its raw and blob records lie (page ids and
byte offsets within the pages, each record's 8-byte length included) and the values of the
index fields, as columns ``<field>_0`` (with a companion ``INC_<k>``, always 0)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from ember.mindrecord.exceptions import MRMOpenError

_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "NUMERIC",
              "float64": "NUMERIC", "string": "TEXT"}
LOCATION = ("ROW_ID", "ROW_GROUP_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END",
            "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")


def write_index(path: str, shard_name: str, fields: Sequence[tuple[str, str]],
                rows: Iterable[Sequence[Any]]) -> None:
    """Write the index ``path`` anew: ``fields`` are (name, schema type) of the index fields and
    each row is the LOCATION values followed by the index fields' values."""
    if os.path.exists(path):
        os.remove(path)
    columns = "".join(f",INC_{k} INT, {name}_0 {_SQL_TYPES[kind]}"
                      for k, (name, kind) in enumerate(fields))
    keys = "".join(f",INC_{k}" for k in range(len(fields)))
    db = sqlite3.connect(path)
    try:
        db.execute("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW     "
                   "     INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END "
                   " INT  NOT NULL, ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT"
                   "  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT"
                   f" NULL{columns}, PRIMARY KEY(ROW_ID{keys}))")
        db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        db.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
        names = list(LOCATION) + [c for k, (name, _) in enumerate(fields)
                                  for c in (f"INC_{k}", f"{name}_0")]
        marks = ",".join("?" * len(names))
        db.executemany(f"INSERT INTO INDEXES ({','.join(names)}) VALUES ({marks})",
                       ([*row[:8], *(v for value in row[8:] for v in (0, value))]
                        for row in rows))
        db.commit()
    finally:
        db.close()


def read_index(path: str, fields: Sequence[str] = ()) -> list[tuple[Any, ...]]:
    """The LOCATION values (and the ``fields`` values) of every row of the index of the shard
    file ``path``, by ROW_ID; MRMOpenError if it is missing, damaged or another file's (its
    SHARD_NAME is not the shard's name)."""
    index = path + ".db"
    if not os.path.isfile(index):
        raise MRMOpenError(f"Invalid database file, path: {index}. Please check whether {index} "
                           "exists and do not rename the mindrecord file and meta file.")
    columns = ",".join([*LOCATION, *(f"{name}_0" for name in fields)])
    db = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    try:
        sql = "SELECT NAME from SHARD_NAME;"
        try:
            names = db.execute(sql).fetchall()
        except sqlite3.DatabaseError as error:
            raise MRMOpenError(f"Failed to execute the sql [ {sql} ] while verifying meta file, "
                               f"{index}: {error}") from None
        if names != [(os.path.basename(path),)]:
            raise MRMOpenError(f"Invalid database file, {index} indexes {names}, not "
                               f"{os.path.basename(path)!r}: do not rename the mindrecord file "
                               "and meta file.")
        try:
            return db.execute(f"SELECT {columns} FROM INDEXES ORDER BY ROW_ID").fetchall()
        except sqlite3.DatabaseError as error:
            raise MRMOpenError(f"Invalid database file {index}: {error}") from None
    finally:
        db.close()
