"""ManifestDataset, VOCDataset, CocoDataset, CelebADataset and MNIST's relatives on small sets
written here, checked against the values the files hold."""

import io
import json
import struct

import numpy as np
import pytest
from PIL import Image

import ember.dataset as ds


def _rows(data):
    return list(data.create_dict_iterator(num_epochs=1, output_numpy=True))


def _png(path, shape=(4, 6, 3), value=7):
    buffer = io.BytesIO()
    Image.fromarray(np.full(shape, value, np.uint8)).save(buffer, format="PNG")
    path.write_bytes(buffer.getvalue())
    return buffer.getvalue()


def test_manifest_labels_usage_and_class_indexing(tmp_path):
    lines = [("a.png", "TRAIN", ["dog"]), ("b.png", "train", ["cat", "fox"]),
             ("c.png", "EVAL", ["cat"])]
    raw = {name: _png(tmp_path / name, value=k) for k, (name, _, _) in enumerate(lines)}
    manifest = tmp_path / "set.manifest"
    manifest.write_text("\n".join(json.dumps({
        "source": str(tmp_path / name), "usage": usage,
        "annotation": [{"name": n} for n in names]}) for name, usage, names in lines))
    data = ds.ManifestDataset(str(manifest), shuffle=False)
    assert data.get_class_indexing() == {"cat": 0, "dog": 1, "fox": 2}
    rows = _rows(data)
    assert [r["label"].tolist() for r in rows] == [1, [0, 2]]
    assert rows[0]["label"].dtype == np.int32
    assert rows[0]["image"].tobytes() == raw["a.png"]
    decoded = _rows(ds.ManifestDataset(str(manifest), "eval", decode=True))
    np.testing.assert_array_equal(decoded[0]["image"], np.full((4, 6, 3), 2, np.uint8))
    kept = ds.ManifestDataset(str(manifest), class_indexing={"fox": 9}, shuffle=False)
    assert [r["label"].tolist() for r in _rows(kept)] == [9]
    manifest.write_text(json.dumps({"usage": "train", "annotation": []}))
    with pytest.raises(RuntimeError, match="'source' is missing in file: .* at line 1"):
        ds.ManifestDataset(str(manifest))


def _voc(root):
    for folder in ("Annotations", "ImageSets/Main", "ImageSets/Segmentation", "JPEGImages",
                   "SegmentationClass"):
        (root / folder).mkdir(parents=True)
    objects = {"1": [("dog", (10, 20, 30, 60), 1, 0), ("cat", (5, 5, 9, 9), 0, 1)],
               "2": [("cat", (1, 2, 3, 4), 0, 0)]}
    for image_id, objs in objects.items():
        _png(root / "JPEGImages" / f"{image_id}.jpg", (2, 2, 3), 10 + int(image_id))
        _png(root / "SegmentationClass" / f"{image_id}.png", (3, 3, 3), int(image_id))
        body = "".join(
            f"<object><name>{n}</name><difficult>{d}</difficult><truncated>{t}</truncated>"
            f"<bndbox><xmin>{b[0]}</xmin><ymin>{b[1]}</ymin><xmax>{b[2]}</xmax>"
            f"<ymax>{b[3]}</ymax></bndbox></object>" for n, b, d, t in objs)
        (root / "Annotations" / f"{image_id}.xml").write_text(f"<annotation>{body}</annotation>")
    for folder in ("Main", "Segmentation"):
        (root / "ImageSets" / folder / "train.txt").write_text("1\n2\n")


def test_voc_detection_segmentation_and_metadata(tmp_path):
    _voc(tmp_path)
    data = ds.VOCDataset(str(tmp_path), task="Detection", shuffle=False, extra_metadata=True)
    assert data.get_class_indexing() == {"cat": 0, "dog": 1}
    rows = _rows(data)
    assert sorted(rows[0]) == ["bbox", "difficult", "image", "label", "truncate"]
    np.testing.assert_array_equal(rows[0]["bbox"], [[10, 20, 20, 40], [5, 5, 4, 4]])
    assert rows[0]["bbox"].dtype == np.float32
    assert rows[0]["label"].tolist() == [[1], [0]]
    assert rows[0]["difficult"].tolist() == [[1], [0]]
    assert rows[0]["truncate"].tolist() == [[0], [1]]
    assert rows[1]["image"].tobytes() == (tmp_path / "JPEGImages" / "2.jpg").read_bytes()
    named = _rows(data.rename("_meta-filename", "filename"))
    assert [r["filename"].item() for r in named] == [b"1", b"2"]
    only_dogs = ds.VOCDataset(str(tmp_path), task="Detection", class_indexing={"dog": 4})
    assert [r["label"].tolist() for r in _rows(only_dogs)] == [[[4]]]
    segmentation = _rows(ds.VOCDataset(str(tmp_path), decode=True, shuffle=False))
    np.testing.assert_array_equal(segmentation[1]["target"], np.full((3, 3, 3), 2))
    with pytest.raises(ValueError, match="Invalid task"):
        ds.VOCDataset(str(tmp_path), task="Pose")
    with pytest.raises(ValueError, match="class_indexing is not supported in Segmentation"):
        ds.VOCDataset(str(tmp_path), class_indexing={"cat": 0})


def test_voc_bad_boxes_are_named(tmp_path):
    _voc(tmp_path)
    (tmp_path / "Annotations" / "2.xml").write_text(
        "<annotation><object><name>cat</name><bndbox><xmin>0</xmin><ymin>3</ymin>"
        "<xmax>4</xmax><ymax>5</ymax></bndbox></object></annotation>")
    with pytest.raises(RuntimeError, match=r"should be greater than 0, but got \{0, 3, 4, 5\}"):
        ds.VOCDataset(str(tmp_path), task="Detection")


def _coco(tmp_path, annotations, categories):
    (tmp_path / "img").mkdir()
    for name in ("x.jpg", "y.jpg"):
        (tmp_path / "img" / name).write_bytes(name.encode())
    path = tmp_path / "ann.json"
    path.write_text(json.dumps({
        "images": [{"id": 1, "file_name": "x.jpg"}, {"id": 2, "file_name": "y.jpg"}],
        "annotations": annotations, "categories": categories}))
    return str(tmp_path / "img"), str(path)


def test_coco_detection_and_stuff(tmp_path):
    folder, path = _coco(tmp_path, [
        {"id": 1, "image_id": 2, "bbox": [1, 2, 3, 4], "category_id": 5, "iscrowd": 0,
         "segmentation": [[1, 2, 3], [4, 5]]},
        {"id": 2, "image_id": 2, "bbox": [5, 6, 7, 8], "category_id": 6, "iscrowd": 1,
         "segmentation": {"counts": [9, 9, 9, 9]}}],
        [{"id": 5, "name": "cat"}, {"id": 6, "name": "dog"}])
    data = ds.CocoDataset(folder, path, shuffle=False, extra_metadata=True)
    assert data.get_class_indexing() == {"cat": [5], "dog": [6]}
    rows = _rows(data.rename("_meta-filename", "filename"))
    assert len(rows) == 1  # x.jpg has no annotation
    np.testing.assert_array_equal(rows[0]["bbox"], [[1, 2, 3, 4], [5, 6, 7, 8]])
    assert rows[0]["category_id"].tolist() == [[5], [6]]
    assert rows[0]["iscrowd"].tolist() == [[0], [1]]
    assert rows[0]["filename"].item() == b"y"
    stuff = _rows(ds.CocoDataset(folder, path, task="Stuff", shuffle=False))[0]
    np.testing.assert_array_equal(stuff["segmentation"],
                                  [[1, 2, 3, -1], [4, 5, -1, -1], [9, 9, 9, 9]])
    assert stuff["iscrowd"].tolist() == [[0], [1]]
    with pytest.raises(ValueError, match="Invalid task type"):
        ds.CocoDataset(folder, path, task="Caption")


def test_coco_unknown_category_is_named(tmp_path):
    folder, path = _coco(tmp_path, [{"id": 1, "image_id": 1, "bbox": [1, 1, 1, 1],
                                     "category_id": 7}], [{"id": 5, "name": "cat"}])
    with pytest.raises(RuntimeError, match="the attribute of 'category_id': 7 is missing"):
        ds.CocoDataset(folder, path)


def test_celeba_attributes_usage_and_extensions(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"A")
    (tmp_path / "b.png").write_bytes(b"B")
    (tmp_path / "list_attr_celeba.txt").write_text(
        "2\nSmiling Young Bald\na.jpg  1 -1  1\nb.png -1 -1  1\n")
    (tmp_path / "list_eval_partition.txt").write_text("a.jpg 0\nb.png 2\n")
    rows = _rows(ds.CelebADataset(str(tmp_path), shuffle=False))
    assert [r["attr"].tolist() for r in rows] == [[1, 0, 1], [0, 0, 1]]
    assert rows[0]["attr"].dtype == np.uint32 and rows[1]["image"].tobytes() == b"B"
    assert ds.CelebADataset(str(tmp_path), usage="test").get_dataset_size() == 1
    train = _rows(ds.CelebADataset(str(tmp_path), usage="train"))
    assert [r["image"].tobytes() for r in train] == [b"A"]
    assert ds.CelebADataset(str(tmp_path), extensions=[".png"]).get_dataset_size() == 1


def _idx(path, array, code):
    header = b"\0\0" + bytes([code, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
    path.write_bytes(header + array.astype(array.dtype.newbyteorder(">")).tobytes())


def test_emnist_and_qmnist_files_and_labels(tmp_path):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 3, (5, 28, 28), dtype=np.uint8)
    _idx(tmp_path / "emnist-letters-train-images-idx3-ubyte", images, 0x08)
    _idx(tmp_path / "emnist-letters-train-labels-idx1-ubyte", np.arange(5, dtype=np.uint8), 0x08)
    rows = _rows(ds.EMnistDataset(str(tmp_path), "letters", "train", shuffle=False))
    np.testing.assert_array_equal(np.stack([r["image"][..., 0] for r in rows]),
                                  np.where(images > 0, 255, 0))
    assert [r["label"].item() for r in rows] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="name is not within the valid set"):
        ds.EMnistDataset(str(tmp_path), "greek")
    labels = rng.integers(0, 100, (5, 8)).astype(np.int32)
    _idx(tmp_path / "qmnist-train-images-idx3-ubyte", images, 0x08)
    _idx(tmp_path / "qmnist-train-labels-idx2-int", labels, 0x0C)
    compat = _rows(ds.QMnistDataset(str(tmp_path), "train", shuffle=False))
    assert [r["label"].item() for r in compat] == labels[:, 0].tolist()
    full = _rows(ds.QMnistDataset(str(tmp_path), "train", compat=False, shuffle=False))
    np.testing.assert_array_equal(np.stack([r["label"] for r in full]), labels)
    assert full[0]["label"].dtype == np.uint32


def test_class_indexing_is_read_through_the_pipeline(tmp_path):
    _voc(tmp_path)
    data = ds.VOCDataset(str(tmp_path), task="Detection").shuffle(4).repeat(2)
    assert data.get_class_indexing() == {"cat": 0, "dog": 1}
    assert data.num_classes() is None
    assert ds.NumpySlicesDataset([1, 2]).get_class_indexing() == {}
