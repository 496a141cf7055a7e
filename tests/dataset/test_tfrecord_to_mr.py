"""TFRecordToMR on a TFRecord file written here with TensorFlow: the rows read back hold the
features exactly, under MindSpore's field names and types. Runs where TensorFlow is installed
(``tox -e gpu``); the message for its absence is checked everywhere."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ember.mindrecord import SUCCESS, FileReader, ParamValueError, TFRecordToMR


def test_without_tensorflow_the_error_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tensorflow", None)
    with pytest.raises(ModuleNotFoundError, match="pip install tensorflow"):
        TFRecordToMR(str(tmp_path / "a.tfrecord"), str(tmp_path / "a.mindrecord"), {})


@pytest.fixture
def tf():
    return pytest.importorskip("tensorflow")


ROWS = [(b"\xff\xd8jpeg-0", "cat", 3, [0.5, 1.5, -2.0]), (b"\xff\xd8jpeg-1", "dog", -7,
                                                          [1e-3, 2.0, 3.25])]


def _write(tf, path):
    with tf.io.TFRecordWriter(str(path)) as writer:
        for image, name, label, box in ROWS:
            feature = {
                "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image])),
                "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[name.encode()])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
                "box": tf.train.Feature(float_list=tf.train.FloatList(value=box)),
            }
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature))
                         .SerializeToString())


def _features(tf):
    return {"image/encoded": tf.io.FixedLenFeature([], tf.string),
            "name": tf.io.FixedLenFeature([], tf.string),
            "label": tf.io.FixedLenFeature([], tf.int64),
            "box": tf.io.FixedLenFeature([3], tf.float32)}


def test_rows_schema_and_names_are_mindspores(tf, tmp_path):
    source, destination = tmp_path / "data.tfrecord", tmp_path / "data.mindrecord"
    _write(tf, source)
    converter = TFRecordToMR(str(source), str(destination), _features(tf),
                             bytes_fields=["image/encoded"])
    assert converter.transform() == SUCCESS
    reader = FileReader(str(destination))
    rows = list(reader.get_next())
    assert reader.schema() == {"image_encoded": {"type": "bytes"}, "name": {"type": "string"},
                               "label": {"type": "int64"},
                               "box": {"type": "float32", "shape": [3]}}
    reader.close()
    assert [r["image_encoded"] for r in rows] == [image for image, *_ in ROWS]
    assert [r["name"] for r in rows] == ["cat", "dog"]
    assert [int(r["label"]) for r in rows] == [3, -7]
    for row, (*_, box) in zip(rows, ROWS, strict=True):
        assert row["box"].dtype == np.float32
        np.testing.assert_array_equal(row["box"], np.float32(box))


def test_bad_feature_dicts_are_refused_before_any_file_is_written(tf, tmp_path):
    source, destination = tmp_path / "data.tfrecord", tmp_path / "data.mindrecord"
    _write(tf, source)
    cases = [
        ({"label": tf.io.VarLenFeature(tf.int64)}, None, "only tf.io.FixedLenFeature"),
        ({"label": tf.io.FixedLenFeature([], tf.int64)}, ["label"], "scalar tf.string"),
        ({"name": tf.io.FixedLenFeature([2], tf.string)}, None, r"shape \[2\]"),
        ({"box": tf.io.FixedLenFeature([3], tf.float64)}, None, "string, int64, float32"),
        ([], None, "non-empty dict"),
    ]
    for features, bytes_fields, message in cases:
        with pytest.raises(ParamValueError, match=message):
            TFRecordToMR(str(source), str(destination), features, bytes_fields)
    assert not destination.exists()


def test_records_that_do_not_match_the_features_name_the_file(tf, tmp_path):
    source = tmp_path / "data.tfrecord"
    _write(tf, source)
    wrong = {"label": tf.io.FixedLenFeature([2], tf.int64)}  # the records hold one label
    converter = TFRecordToMR(str(source), str(tmp_path / "out.mindrecord"), wrong)
    with pytest.raises(ParamValueError, match="data.tfrecord do not match feature_dict"):
        converter.transform()
    with pytest.raises(OSError, match="does not exist"):
        TFRecordToMR(str(tmp_path / "none.tfrecord"), str(tmp_path / "b.mindrecord"),
                     _features(tf)).transform()
