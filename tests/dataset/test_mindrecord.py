"""ember.mindrecord's FileWriter/FileReader and ember.dataset.MindDataset on files the tests
write, with the byte layout checked by parsing it here with struct, json and sqlite3."""

from __future__ import annotations

import io
import json
import sqlite3
import struct
from pathlib import Path

import numpy as np
import pytest

import ember.dataset as ds
from ember.dataset.vision import c_transforms as vision
from ember.mindrecord import (
    SUCCESS,
    FileReader,
    FileWriter,
    MindPage,
    MRMDefineIndexError,
    MRMInvalidSchemaError,
    MRMOpenError,
    MRMValidateDataError,
    ParamValueError,
)

SCHEMA = {"label": {"type": "int32"}, "big": {"type": "int64"}, "ratio": {"type": "float32"},
          "score": {"type": "float64"}, "name": {"type": "string"}, "data": {"type": "bytes"},
          "mat": {"type": "float32", "shape": [2, 3]}, "ids": {"type": "int64", "shape": [-1]},
          "mask": {"type": "int32", "shape": [-1]}}


def _rows(n: int, start: int = 0) -> list[dict]:
    rng = np.random.default_rng(start)
    return [{"label": i, "big": i * 10**12 - 5, "ratio": i / 4, "score": i / 3,
             "name": f"row-{i}-é", "data": rng.bytes(i % 7 + 1),
             "mat": rng.standard_normal((2, 3)).astype(np.float32),
             "ids": rng.integers(-2**40, 2**40, i % 5 + 1),
             "mask": rng.integers(-70000, 70000, i % 4 + 1).astype(np.int32)}
            for i in range(start, start + n)]


def _write(path: Path, rows: list[dict], shard_num: int = 1, batches: int = 1,
           schema: dict | None = None, index: list[str] | None = None) -> FileWriter:
    writer = FileWriter(str(path), shard_num=shard_num)
    assert writer.add_schema(schema or SCHEMA, "test rows") == 0
    if index:
        assert writer.add_index(index) == SUCCESS
    for part in np.array_split(np.arange(len(rows)), batches):
        assert writer.write_raw_data([rows[i] for i in part]) == SUCCESS
    assert writer.commit() == SUCCESS
    return writer


def _same(got: dict, want: dict, columns=None) -> None:
    for name in columns or want:
        expected, value = want[name], got[name]
        if isinstance(expected, np.ndarray):
            assert value.dtype == expected.dtype and value.shape == expected.shape, name
            np.testing.assert_array_equal(value, expected)
        elif SCHEMA[name]["type"] == "float32":
            assert value == pytest.approx(expected, rel=1e-7), name
        else:
            assert value == expected and type(value) is type(expected), name


def test_status_prints_as_mindspore_does(tmp_path: Path) -> None:
    writer = FileWriter(str(tmp_path / "s.mindrecord"))
    writer.add_schema(SCHEMA, "rows")
    writer.write_raw_data(_rows(1))
    status = writer.commit()  # a notebook prints what the last line returns
    assert repr(status) == str(status) == "MSRStatus.SUCCESS" and status == 0


def test_file_reader_round_trips_every_column_type(tmp_path: Path) -> None:
    rows = _rows(25)
    _write(tmp_path / "all.mindrecord", rows, batches=3, index=["label", "name"])
    reader = FileReader(str(tmp_path / "all.mindrecord"))
    got = list(reader.get_next())
    reader.close()
    assert len(got) == 25
    for g, want in zip(got, rows):
        _same(g, want)


def test_mind_dataset_columns_are_typed_arrays(tmp_path: Path) -> None:
    rows = _rows(6)
    _write(tmp_path / "typed.mindrecord", rows)
    data = ds.MindDataset(str(tmp_path / "typed.mindrecord"), shuffle=False)
    assert data.get_col_names() == sorted(SCHEMA)
    assert data.get_dataset_size() == 6
    for got, want in zip(data.create_dict_iterator(output_numpy=True), rows):
        assert got["label"].dtype == np.int32 and got["label"].shape == ()
        assert got["big"].dtype == np.int64 and got["big"] == want["big"]
        assert got["score"].dtype == np.float64 and got["score"] == want["score"]
        assert got["name"].dtype.kind == "S" and got["name"].item().decode() == want["name"]
        assert got["data"].dtype == np.uint8 and got["data"].tobytes() == want["data"]
        for name in ("mat", "ids", "mask"):
            np.testing.assert_array_equal(got[name], want[name])


def test_header_and_pages_follow_the_documented_layout(tmp_path: Path) -> None:
    rows = _rows(5)
    _write(tmp_path / "lay.mindrecord", rows, index=["label"],
           schema={"label": {"type": "int32"}, "data": {"type": "bytes"}})
    blob = (tmp_path / "lay.mindrecord").read_bytes()
    (size,) = struct.unpack_from("<Q", blob)
    header = json.loads(blob[8:8 + size])
    assert list(header) == ["header_size", "index_fields", "page", "page_size",
                            "compression_size", "schema", "shard_addresses", "shard_id",
                            "statistics", "version"]
    assert header["version"] == "3.0" and header["header_size"] == 1 << 24
    assert header["schema"] == [{"blob_fields": ["data"], "desc": "test rows",
                                 "schema": {"data": {"type": "bytes"},
                                            "label": {"type": "int32"}}}]
    assert header["index_fields"] == [{"index_field": "label", "schema_id": 0}]
    assert header["shard_addresses"] == ["lay.mindrecord"] and header["statistics"] is None
    blob_page, raw_page = header["page"]
    assert blob_page["page_type"] == "BLOB_DATA" and raw_page["page_type"] == "RAW_DATA"
    assert (blob_page["start_row_id"], blob_page["end_row_id"]) == (0, 5)
    assert raw_page["row_group_ids"] == [{"id": 0, "offset": 0}]
    # blob page: per row an 8-byte little-endian length, then the bytes (one blob field)
    at = header["header_size"] + blob_page["page_id"] * header["page_size"]
    for row in rows:
        (n,) = struct.unpack_from("<Q", blob, at)
        assert blob[at + 8:at + 8 + n] == row["data"]
        at += 8 + n
    assert at - header["header_size"] == blob_page["page_size"]
    # raw page: per row an 8-byte length, then MessagePack: a fixmap of {"label": i}
    at = header["header_size"] + raw_page["page_id"] * header["page_size"]
    for row in rows:
        (n,) = struct.unpack_from("<Q", blob, at)
        assert blob[at + 8:at + 8 + n] == b"\x81\xa5label" + bytes([row["label"]])
        at += 8 + n
    assert len(blob) == at  # the last page is not padded


def test_index_db_has_mindspores_tables(tmp_path: Path) -> None:
    _write(tmp_path / "idx.mindrecord", _rows(4), index=["label", "name", "score"])
    db = sqlite3.connect(tmp_path / "idx.mindrecord.db")
    tables = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    assert set(tables) == {"INDEXES", "SHARD_NAME"}
    columns = [(r[1], r[2]) for r in db.execute("PRAGMA table_info(INDEXES)")]
    assert columns == [("ROW_ID", "INT"), ("PAGE_ID_RAW", "INT"), ("PAGE_OFFSET_RAW", "INT"),
                       ("PAGE_OFFSET_RAW_END", "INT"), ("ROW_GROUP_ID", "INT"),
                       ("PAGE_ID_BLOB", "INT"), ("PAGE_OFFSET_BLOB", "INT"),
                       ("PAGE_OFFSET_BLOB_END", "INT"), ("INC_0", "INT"), ("label_0", "INTEGER"),
                       ("INC_1", "INT"), ("name_0", "TEXT"), ("INC_2", "INT"),
                       ("score_0", "NUMERIC")]
    assert "PRIMARY KEY(ROW_ID,INC_0,INC_1,INC_2)" in tables["INDEXES"]
    assert db.execute("SELECT NAME FROM SHARD_NAME").fetchall() == [("idx.mindrecord",)]
    rows = db.execute("SELECT ROW_ID, label_0, name_0, score_0, PAGE_OFFSET_RAW, "
                      "PAGE_OFFSET_RAW_END FROM INDEXES ORDER BY ROW_ID").fetchall()
    assert [r[:3] for r in rows] == [(i, i, f"row-{i}-é") for i in range(4)]
    assert rows[1][3] == pytest.approx(1 / 3)
    assert all(a[5] == b[4] for a, b in zip(rows, rows[1:]))  # raw records follow each other


def test_integer_arrays_are_compressed_as_mindspore(tmp_path: Path) -> None:
    values = np.array([1, -2, 300, -70000, 2**40], np.int64)
    _write(tmp_path / "int.mindrecord", [{"v": values}],
           schema={"v": {"type": "int64", "shape": [-1]}})
    blob = (tmp_path / "int.mindrecord").read_bytes()
    header = json.loads(blob[8:8 + struct.unpack_from("<Q", blob)[0]])
    at = header["header_size"]
    (n,) = struct.unpack_from("<Q", blob, at)
    record = blob[at + 8:at + 8 + n]
    # count (big-endian), 2-bit widths 0,0,1,2 | 3 (1, 1, 2, 4, 8 bytes), values little-endian
    assert record[:4] == (5).to_bytes(4, "big")
    assert record[4:6] == bytes([0b00000110, 0b11000000])
    assert record[6:] == (b"\x01" + b"\xfe" + (300).to_bytes(2, "little")
                          + (-70000).to_bytes(4, "little", signed=True)
                          + (2**40).to_bytes(8, "little"))
    assert header["compression_size"] == 40 - len(record)
    row = next(FileReader(str(tmp_path / "int.mindrecord")).get_next())
    np.testing.assert_array_equal(row["v"], values)


def test_four_shards_are_named_and_read_as_one_set(tmp_path: Path) -> None:
    rows = _rows(22)
    _write(tmp_path / "part.mindrecord", rows, shard_num=4, batches=2)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([f"part.mindrecord{i}" for i in range(4)]
                           + [f"part.mindrecord{i}.db" for i in range(4)])
    for i in range(4):
        blob = (tmp_path / f"part.mindrecord{i}").read_bytes()
        header = json.loads(blob[8:8 + struct.unpack_from("<Q", blob)[0]])
        assert header["shard_id"] == i
        assert header["shard_addresses"] == [f"part.mindrecord{k}" for k in range(4)]
    data = ds.MindDataset(str(tmp_path / "part.mindrecord2"), columns_list=["label"],
                          shuffle=False)
    labels = [int(r["label"]) for r in data.create_dict_iterator(output_numpy=True)]
    assert sorted(labels) == list(range(22))
    first = [int(r["label"]) for r in ds.MindDataset(
        [str(tmp_path / "part.mindrecord0")], columns_list=["label"],
        shuffle=False).create_dict_iterator(output_numpy=True)]
    assert labels[:len(first)] == first and len(first) in (5, 6)


def test_shards_of_a_dataset_are_disjoint_and_cover_it(tmp_path: Path) -> None:
    _write(tmp_path / "s.mindrecord", _rows(20), shard_num=4)
    parts = []
    for k in range(4):  # as the ranks of a job: no seed needed to split one shuffled order
        data = ds.MindDataset(str(tmp_path / "s.mindrecord0"), columns_list=["label"],
                              num_shards=4, shard_id=k)
        assert data.get_dataset_size() == 5
        parts.append([int(r["label"]) for r in data.create_dict_iterator(output_numpy=True)])
    assert sorted(sum(parts, [])) == list(range(20))


def test_padded_samples_even_out_shards(tmp_path: Path) -> None:
    _write(tmp_path / "p.mindrecord", _rows(7), schema=SCHEMA)
    pad = {"label": -1, "name": "pad"}
    parts = [[(int(r["label"]), r["name"].item().decode()) for r in ds.MindDataset(
        str(tmp_path / "p.mindrecord"), columns_list=["label", "name"], shuffle=False,
        num_shards=2, shard_id=k, padded_sample=pad, num_padded=1,
    ).create_dict_iterator(output_numpy=True)] for k in range(2)]
    assert [len(p) for p in parts] == [4, 4]
    assert sorted(sum(parts, [])) == sorted([(-1, "pad")] + [(i, f"row-{i}-é") for i in range(7)])
    uneven = ds.MindDataset(str(tmp_path / "p.mindrecord"), columns_list=["label", "name"],
                            num_shards=2, shard_id=0, padded_sample=pad, num_padded=2)
    with pytest.raises(RuntimeError, match="does not divide"):
        uneven.get_dataset_size()
    with pytest.raises(ValueError, match="requires columns_list"):
        ds.MindDataset(str(tmp_path / "p.mindrecord"), padded_sample=pad, num_padded=1)
    with pytest.raises(ValueError, match="cannot match columns_list"):
        ds.MindDataset(str(tmp_path / "p.mindrecord"), columns_list=["label", "big"],
                       padded_sample=pad, num_padded=1)


def test_shuffle_modes(tmp_path: Path) -> None:
    _write(tmp_path / "sh.mindrecord", _rows(24), shard_num=3)
    path = str(tmp_path / "sh.mindrecord0")

    def labels(**kwargs) -> list[int]:
        data = ds.MindDataset(path, columns_list=["label"], **kwargs)
        return [int(r["label"]) for r in data.create_dict_iterator(output_numpy=True)]

    ds.config.set_seed(0)
    ordered = labels(shuffle=False)
    assert len(ordered) == 24
    files = [ordered[:8], ordered[8:16], ordered[16:]]
    shuffled = labels()
    assert sorted(shuffled) == sorted(ordered) and shuffled != ordered
    by_file = labels(shuffle=ds.Shuffle.FILES)
    assert sorted(by_file[i:i + 8] for i in range(0, 24, 8)) == sorted(files)
    in_file = labels(shuffle=ds.Shuffle.INFILE)
    assert [sorted(in_file[i:i + 8]) for i in range(0, 24, 8)] == [sorted(f) for f in files]
    assert in_file != ordered
    assert labels(shuffle=False, num_samples=5) == ordered[:5]


def test_columns_list_picks_and_orders_columns(tmp_path: Path) -> None:
    rows = _rows(3)
    _write(tmp_path / "c.mindrecord", rows)
    data = ds.MindDataset(str(tmp_path / "c.mindrecord"), columns_list=["name", "mat"],
                          shuffle=False, num_parallel_workers=2)
    assert data.get_col_names() == ["name", "mat"]
    got = list(data.create_tuple_iterator(output_numpy=True))
    assert [r[0].item().decode() for r in got] == [r["name"] for r in rows]
    with pytest.raises(ValueError, match="not fields"):
        ds.MindDataset(str(tmp_path / "c.mindrecord"), columns_list=["nope"])


def test_jpeg_blobs_decode_in_a_map(tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image")
    pictures = []
    for k in range(3):
        buffer = io.BytesIO()
        pixels = np.full((8, 10, 3), 40 * k + 20, np.uint8)
        image.fromarray(pixels).save(buffer, format="JPEG", quality=95)
        pictures.append((buffer.getvalue(), pixels))
    _write(tmp_path / "img.mindrecord",
           [{"image": data, "label": k} for k, (data, _) in enumerate(pictures)],
           schema={"image": {"type": "bytes"}, "label": {"type": "int32"}})
    data = ds.MindDataset(str(tmp_path / "img.mindrecord"), shuffle=False)
    data = data.map(operations=vision.Decode(), input_columns=["image"])
    for row, (_, pixels) in zip(data.create_dict_iterator(output_numpy=True), pictures):
        assert row["image"].shape == (8, 10, 3)
        assert np.abs(row["image"].astype(int) - pixels).max() <= 3


def test_append_adds_rows_and_rewrites_the_index(tmp_path: Path) -> None:
    _write(tmp_path / "a.mindrecord", _rows(5), index=["label"])
    writer = FileWriter.open_for_append(str(tmp_path / "a.mindrecord"))
    more = _rows(4, start=5)
    writer.write_raw_data(more)
    writer.commit()
    got = list(FileReader(str(tmp_path / "a.mindrecord")).get_next())
    assert [g["label"] for g in got] == list(range(9))
    for g, want in zip(got[5:], more):
        _same(g, want)
    db = sqlite3.connect(tmp_path / "a.mindrecord.db")
    assert db.execute("SELECT COUNT(*), MAX(ROW_ID) FROM INDEXES").fetchone() == (9, 8)


@pytest.mark.parametrize("schema, match", [
    ({"x": {"type": "int16"}}, "int16"),
    ({"x": {"type": "string", "shape": [2]}}, "string"),
    ({"x-y": {"type": "int32"}}, "x-y"),
    ({"x": {"type": "int32", "shape": [-1, -1]}}, "shape"),
    ({}, "non-empty"),
])
def test_bad_schema_is_refused(tmp_path: Path, schema: dict, match: str) -> None:
    writer = FileWriter(str(tmp_path / "bad.mindrecord"))
    with pytest.raises(MRMInvalidSchemaError, match=match) as info:
        writer.add_schema(schema)
    assert isinstance(info.value, ValueError)


def test_writer_errors_name_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "w.mindrecord"
    writer = FileWriter(str(path))
    with pytest.raises(MRMValidateDataError, match="add_schema first"):
        writer.write_raw_data([{"label": 1}])
    writer.add_schema({"label": {"type": "int32"}, "m": {"type": "float32", "shape": [2]}})
    with pytest.raises(MRMDefineIndexError, match="not primitive"):
        writer.add_index(["m"])
    with pytest.raises(TypeError, match="raw_data"):
        writer.write_raw_data({"label": 1})
    with pytest.raises(ParamValueError, match="shard_num"):
        FileWriter(str(tmp_path / "x"), shard_num=0)
    writer.write_raw_data([{"label": 1, "m": np.ones(2, np.float32)}])
    writer.commit()
    with pytest.raises(MRMOpenError, match="already exist") as info:
        FileWriter(str(path))
    assert isinstance(info.value, RuntimeError)
    FileWriter(str(path), overwrite=True)
    assert not path.exists()


def test_rows_that_do_not_match_are_left_out_with_a_warning(tmp_path: Path, caplog) -> None:
    path = tmp_path / "mix.mindrecord"
    writer = FileWriter(str(path))
    writer.add_schema({"label": {"type": "int32"}, "m": {"type": "int32", "shape": [2]}})
    writer.write_raw_data([{"label": 1, "m": np.ones(2, np.int32)},
                           {"label": "two", "m": np.ones(2, np.int32)},
                           {"label": 3, "m": np.ones(3, np.int32)},
                           {"label": 4, "m": np.ones(2, np.int32)}])
    writer.commit()
    assert "row 1 left out" in caplog.text and "row 2 left out" in caplog.text
    assert [r["label"] for r in FileReader(str(path)).get_next()] == [1, 4]


def test_damaged_files_are_runtime_errors(tmp_path: Path) -> None:
    path = tmp_path / "d.mindrecord"
    _write(path, _rows(3))
    with pytest.raises(MRMOpenError, match="can not be found"):
        ds.MindDataset(str(tmp_path / "none.mindrecord"))
    blob = bytearray(path.read_bytes())
    blob[20:30] = b"#" * 10
    path.write_bytes(bytes(blob))
    with pytest.raises(RuntimeError, match="not JSON"):
        ds.MindDataset(str(path))
    path.write_bytes(b"\x01\x02")
    with pytest.raises(MRMOpenError, match="fewer than the 8"):
        FileReader(str(path))
    _write(tmp_path / "e.mindrecord", _rows(3))
    (tmp_path / "e.mindrecord.db").unlink()
    with pytest.raises(MRMOpenError, match=r"\.db"):
        ds.MindDataset(str(tmp_path / "e.mindrecord"))


def test_mind_page_reads_rows_by_category(tmp_path: Path) -> None:
    rows = [{"name": f"f{i % 3}", "label": i, "data": bytes([i])} for i in range(7)]
    _write(tmp_path / "page.mindrecord", rows, shard_num=2, index=["name", "label"],
           schema={"name": {"type": "string"}, "label": {"type": "int32"},
                   "data": {"type": "bytes"}})
    page = MindPage(str(tmp_path / "page.mindrecord1"))
    assert page.candidate_fields == ["name", "label"]
    page.category_field = "name"
    info = json.loads(page.read_category_info())["categories"]
    assert [(c["id"], c["name"], c["count"]) for c in info] == [(0, "f0", 3), (1, "f1", 2),
                                                               (2, "f2", 2)]
    first, second = (page.read_at_page_by_id(0, k, 2) for k in (0, 1))
    assert len(first) == 2 and len(second) == 1
    assert sorted(r["label"] for r in first + second) == [0, 3, 6]
    assert [r["data"] for r in page.read_at_page_by_name("f2", 0, 5)] in (
        [b"\x02", b"\x05"], [b"\x05", b"\x02"])
    with pytest.raises(ValueError, match="not an index field"):
        page.set_category_field("data")


def test_an_index_of_another_file_is_refused(tmp_path: Path) -> None:
    _write(tmp_path / "one.mindrecord", _rows(2))
    _write(tmp_path / "two.mindrecord", _rows(3))
    (tmp_path / "one.mindrecord.db").replace(tmp_path / "two.mindrecord.db")
    with pytest.raises(MRMOpenError, match="do not rename"):
        FileReader(str(tmp_path / "two.mindrecord"))
    (tmp_path / "two.mindrecord.db").write_text("not sqlite")
    with pytest.raises(MRMOpenError, match="SHARD_NAME"):
        ds.MindDataset(str(tmp_path / "two.mindrecord"))
