"""The ``*ToMR`` converters on small datasets written here in their original formats: the rows
read back (FileReader, MindDataset) hold the labels exactly and images that decode to the
originals within JPEG's loss; schemas, file names and indexes are MindSpore's."""

from __future__ import annotations

import csv
import gzip
import io
import math
import pickle

import numpy as np
import pytest

import ember.dataset as ds
from ember.mindrecord import (
    SUCCESS,
    Cifar10ToMR,
    Cifar100ToMR,
    CsvToMR,
    FileReader,
    ImageNetToMR,
    MnistToMR,
    ParamValueError,
)

PIL = pytest.importorskip("PIL.Image")
RNG = np.random.default_rng(0)


def _smooth(n: int, shape: tuple[int, ...]) -> np.ndarray:
    """``n`` uint8 images of gradients (JPEG keeps them within a few levels)."""
    ramp = np.linspace(0, 1, shape[0])[:, None] * np.linspace(0.2, 1, shape[1])[None, :]
    levels = RNG.uniform(60, 250, (n, 1, 1, *shape[2:]))
    return (ramp.reshape(1, *shape[:2], *(1,) * (len(shape) - 2)) * levels).astype(np.uint8)


def _decoded(data: bytes) -> np.ndarray:
    return np.asarray(PIL.open(io.BytesIO(data)))


def _read(path: str) -> tuple[list[dict], FileReader]:
    reader = FileReader(path)
    rows = list(reader.get_next())
    return rows, reader


def _cifar_batch(images: np.ndarray, labels: dict[bytes, list[int]]) -> bytes:
    """A CIFAR python batch: the dict of the original files (pickled NumPy data)."""
    flat = images.transpose(0, 3, 1, 2).reshape(len(images), -1)
    return pickle.dumps({b"data": flat, **labels}, protocol=2)


def test_cifar10_to_mindrecord(tmp_path):
    source = tmp_path / "cifar-10-batches-py"
    source.mkdir()
    images = _smooth(7, (32, 32, 3))
    labels = RNG.integers(0, 10, 7).tolist()
    (source / "data_batch_1").write_bytes(_cifar_batch(images[:3], {b"labels": labels[:3]}))
    (source / "data_batch_2").write_bytes(_cifar_batch(images[3:5], {b"labels": labels[3:5]}))
    (source / "test_batch").write_bytes(_cifar_batch(images[5:], {b"labels": labels[5:]}))
    destination = str(tmp_path / "cifar10.mindrecord")
    assert Cifar10ToMR(str(source), destination).transform(["label"]) == SUCCESS
    for path, first, count in ((destination, 0, 5), (destination + "_test", 5, 2)):
        rows, reader = _read(path)
        assert reader.schema() == {"id": {"type": "int64"}, "label": {"type": "int64"},
                                   "data": {"type": "bytes"}}
        assert [r["id"] for r in rows] == list(range(count))
        assert [r["label"] for r in rows] == labels[first:first + count]
        for row, image in zip(rows, images[first:first + count], strict=True):
            assert np.abs(_decoded(row["data"]).astype(int) - image).mean() < 3
    # MindDataset reads the converted files, as MindSpore's tutorial does
    data = ds.MindDataset(destination, columns_list=["label"], shuffle=False)
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == labels[:5]


def test_cifar100_to_mindrecord_keeps_both_labels(tmp_path):
    images = _smooth(4, (32, 32, 3))
    for name, part in (("train", slice(0, 3)), ("test", slice(3, 4))):
        (tmp_path / name).write_bytes(_cifar_batch(images[part], {
            b"fine_labels": list(range(part.start, part.stop)),
            b"coarse_labels": [i % 2 for i in range(part.start, part.stop)]}))
    destination = str(tmp_path / "c100.mindrecord")
    assert Cifar100ToMR(str(tmp_path), destination).transform() == SUCCESS
    rows, reader = _read(destination)
    assert set(reader.schema()) == {"id", "fine_label", "coarse_label", "data"}
    assert [(r["fine_label"], r["coarse_label"]) for r in rows] == [(0, 0), (1, 1), (2, 0)]
    test_rows, _ = _read(destination + "_test")
    assert [(r["id"], r["fine_label"]) for r in test_rows] == [(0, 3)]


def test_cifar_batches_that_run_code_are_refused(tmp_path):
    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    (tmp_path / "data_batch_1").write_bytes(pickle.dumps({b"data": Evil(), b"labels": [0]}))
    (tmp_path / "test_batch").write_bytes(b"")
    with pytest.raises(pickle.UnpicklingError, match="builtins.print"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "out.mindrecord")).transform()


def test_cifar_without_its_batches_is_a_value_error(tmp_path):
    with pytest.raises(ParamValueError, match="no CIFAR python batch named data_batch_"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "out.mindrecord"))


def _idx(path, header: bytes, values: np.ndarray) -> None:
    with gzip.open(path, "wb") as f:
        f.write(header + values.astype(np.uint8).tobytes())


def test_mnist_to_mindrecord(tmp_path):
    images = _smooth(5, (28, 28))
    labels = np.array([3, 1, 4, 1, 5])
    for prefix, part in (("train", slice(0, 3)), ("t10k", slice(3, 5))):
        n = part.stop - part.start
        _idx(tmp_path / f"{prefix}-images-idx3-ubyte.gz",
             b"\0\0\x08\x03" + np.array([n, 28, 28], ">i4").tobytes(), images[part])
        _idx(tmp_path / f"{prefix}-labels-idx1-ubyte.gz",
             b"\0\0\x08\x01" + np.array([n], ">i4").tobytes(), labels[part])
    stem = str(tmp_path / "mnist")
    assert MnistToMR(str(tmp_path), stem, partition_number=1).transform() == SUCCESS
    for part, which in (("train", slice(0, 3)), ("test", slice(3, 5))):
        rows, reader = _read(f"{stem}_{part}.mindrecord")
        assert reader.schema() == {"label": {"type": "int64"}, "data": {"type": "bytes"}}
        assert [r["label"] for r in rows] == labels[which].tolist()
        for row, image in zip(rows, images[which], strict=True):
            decoded = _decoded(row["data"])
            assert decoded.shape == (28, 28) and np.abs(decoded.astype(int) - image).mean() < 3


def test_mnist_names_the_missing_file(tmp_path):
    with pytest.raises(ParamValueError, match="has no train-images-idx3-ubyte.gz"):
        MnistToMR(str(tmp_path), str(tmp_path / "mnist"))
    with pytest.raises(ParamValueError, match="partition_number must be int"):
        MnistToMR(str(tmp_path), str(tmp_path / "mnist"), partition_number="2")


def test_imagenet_folders_to_mindrecord(tmp_path):
    files = {}
    for folder, label in (("n01", 0), ("n02", 1)):
        (tmp_path / "train" / folder).mkdir(parents=True)
        for k in range(2):
            path = tmp_path / "train" / folder / f"img{k}.JPEG"
            path.write_bytes(bytes([label, k]) * 5)  # stored as they are, not decoded
            files[str(path)] = label
    (tmp_path / "train" / "n01" / "notes.txt").write_text("skipped")
    (tmp_path / "map.txt").write_text("n01 0\nn02 1\nn99 2\n")
    destination = str(tmp_path / "imagenet.mindrecord")
    with pytest.warns(UserWarning, match="n99 is not a folder"):
        status = ImageNetToMR(str(tmp_path / "map.txt"), str(tmp_path / "train"),
                              destination, 2).transform()
    assert status == SUCCESS
    rows = [r for shard in ("0", "1") for r in _read(destination + shard)[0]]
    assert {r["file_name"]: r["label"] for r in rows} == files
    assert all(r["image"] == bytes([r["label"], int(r["file_name"][-6])]) * 5 for r in rows)
    (tmp_path / "bad.txt").write_text("n01 zero\n")
    with pytest.raises(ParamValueError, match="each line must be '<folder> <int label>', but got "
                                              "'n01 zero'"):
        ImageNetToMR(str(tmp_path / "bad.txt"), str(tmp_path / "train"),
                     str(tmp_path / "bad.mindrecord")).transform()


def test_csv_to_mindrecord_types_columns_as_pandas_reads_them(tmp_path):
    source = tmp_path / "table.csv"
    with open(source, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["id", "score", "ok", "name", "gap"],
                                 [1, 0.5, "True", "a", ""], [2, -1.25, "False", "b é", 3.5]])
    destination = str(tmp_path / "table.mindrecord")
    assert CsvToMR(str(source), destination).transform() == SUCCESS
    rows, reader = _read(destination)
    assert reader.schema() == {"id": {"type": "int64"}, "score": {"type": "float64"},
                               "ok": {"type": "int32"}, "name": {"type": "string"},
                               "gap": {"type": "float64"}}
    assert [(r["id"], r["score"], r["ok"], r["name"]) for r in rows] == [
        (1, 0.5, 1, "a"), (2, -1.25, 0, "b é")]
    assert math.isnan(rows[0]["gap"]) and rows[1]["gap"] == 3.5
    picked = str(tmp_path / "picked.mindrecord")
    assert CsvToMR(str(source), picked, columns_list=["name", "id"]).transform() == SUCCESS
    assert [(r["name"], r["id"]) for r in _read(picked)[0]] == [("a", 1), ("b é", 2)]
    with pytest.raises(RuntimeError, match=r"columns \['nope'\] are not in"):
        CsvToMR(str(source), str(tmp_path / "x.mindrecord"), ["nope"]).transform()
    with pytest.raises(ParamValueError, match="columns_list must be list of str"):
        CsvToMR(str(source), destination, "id")
