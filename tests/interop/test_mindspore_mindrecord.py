"""MindRecord files move both ways between MindSpore and ember: each reads the other's files,
and for the same rows ember writes the same pages, header and index as MindSpore. Runs where
MindSpore is installed: ``tox -e mindspore``."""

from __future__ import annotations

import json
import sqlite3
import struct
from pathlib import Path

import numpy as np
import pytest

import ember.dataset as eds
import ember.mindrecord as emr

ms = pytest.importorskip("mindspore")
msds = pytest.importorskip("mindspore.dataset")
msmr = pytest.importorskip("mindspore.mindrecord")

SCHEMA = {"label": {"type": "int32"}, "big": {"type": "int64"}, "score": {"type": "float64"},
          "name": {"type": "string"}, "data": {"type": "bytes"},
          "mat": {"type": "float32", "shape": [2, 2]}, "ids": {"type": "int64", "shape": [-1]}}


def _rows(n: int) -> list[dict]:
    rng = np.random.default_rng(n)
    return [{"label": i, "big": -i * 10**11, "score": i + 0.25, "name": f"n{i}",
             "data": rng.bytes(2000 + 37 * i), "mat": np.full((2, 2), i / 2, np.float32),
             "ids": np.arange(i % 4 + 1, dtype=np.int64) * 1000 - 7} for i in range(n)]


def _write(module, path: Path, rows: list[dict], shard_num: int = 1) -> None:
    writer = module.FileWriter(str(path), shard_num=shard_num, overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)  # several pages
    writer.add_schema(SCHEMA, "interop")
    writer.add_index(["label", "name"])
    for start in range(0, len(rows), 8):
        writer.write_raw_data(rows[start:start + 8])
    writer.commit()


def _check(got: dict, want: dict) -> None:
    for name, value in want.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(got[name], value)
        else:
            assert got[name] == value, name


def _header(path: Path) -> dict:
    blob = path.read_bytes()
    return json.loads(blob[8:8 + struct.unpack_from("<Q", blob)[0]])


@pytest.mark.parametrize("shard_num", [1, 4])
def test_mindspore_reads_embers_files(tmp_path: Path, shard_num: int) -> None:
    rows = _rows(32)
    _write(emr, tmp_path / "e.mindrecord", rows, shard_num)
    first = tmp_path / ("e.mindrecord" if shard_num == 1 else "e.mindrecord0")
    got = sorted(msmr.FileReader(str(first)).get_next(), key=lambda r: r["label"])
    assert len(got) == 32
    for g, want in zip(got, rows):
        _check(g, want)
    data = msds.MindDataset(str(first), columns_list=["label", "ids"], shuffle=False)
    labels = [int(r["label"]) for r in data.create_dict_iterator(output_numpy=True)]
    assert sorted(labels) == list(range(32))


def test_ember_reads_mindspores_files(tmp_path: Path) -> None:
    rows = _rows(40)
    _write(msmr, tmp_path / "m.mindrecord", rows, 4)
    got = sorted(emr.FileReader(str(tmp_path / "m.mindrecord1")).get_next(),
                 key=lambda r: r["label"])
    for g, want in zip(got, rows, strict=True):
        _check(g, want)


def test_ember_writes_what_mindspore_writes(tmp_path: Path) -> None:
    rows = _rows(30)
    _write(msmr, tmp_path / "m.mindrecord", rows)
    _write(emr, tmp_path / "e.mindrecord", rows)
    mine, theirs = tmp_path / "e.mindrecord", tmp_path / "m.mindrecord"
    assert mine.read_bytes()[1 << 14:] == theirs.read_bytes()[1 << 14:]  # the pages
    header = _header(mine)
    assert header["shard_addresses"] == ["e.mindrecord"]
    assert {**header, "shard_addresses": ["m.mindrecord"]} == _header(theirs)

    def table(path: Path, sql: str) -> list:
        return sqlite3.connect(path).execute(sql).fetchall()

    for sql in ("SELECT type, name, sql FROM sqlite_master",
                "SELECT * FROM INDEXES ORDER BY ROW_ID"):
        assert table(Path(f"{mine}.db"), sql) == table(Path(f"{theirs}.db"), sql)


def test_sharded_reading_matches_mindspore(tmp_path: Path) -> None:
    _write(msmr, tmp_path / "m.mindrecord", _rows(20), 2)
    files = [str(tmp_path / "m.mindrecord0"), str(tmp_path / "m.mindrecord1")]
    for k in range(3):
        kwargs = {"columns_list": ["label", "name"], "shuffle": False, "num_shards": 3,
                  "shard_id": k, "padded_sample": {"label": -1, "name": "pad"},
                  "num_padded": 1}
        want = [int(r["label"]) for r in msds.MindDataset(files, **kwargs)
                .create_dict_iterator(output_numpy=True)]
        got = [int(r["label"]) for r in eds.MindDataset(files, **kwargs)
               .create_dict_iterator(output_numpy=True)]
        assert got == want
