"""ImageFolderDataset on class folders of PNG and JPEG files written by the test."""

from __future__ import annotations

import numpy as np
import pytest

import ember.dataset as ds
from ember.dataset.vision import c_transforms as C

Image = pytest.importorskip("PIL.Image")


@pytest.fixture
def folder(tmp_path):
    """Classes ``cat`` (3 PNG files and a note), ``dog`` (2 PNG), ``eel`` (1 JPEG)."""
    rng = np.random.default_rng(0)
    images = {}
    for name, files in (("cat", ["b.png", "a.png", "c.png"]), ("dog", ["z.png", "y.png"]),
                        ("eel", ["e.jpg"])):
        (tmp_path / name).mkdir()
        for file in files:
            image = rng.integers(0, 256, (4, 5, 3), dtype=np.uint8)
            Image.fromarray(image).save(tmp_path / name / file)
            images[f"{name}/{file}"] = image
    (tmp_path / "cat" / "notes.txt").write_text("not an image")
    return tmp_path, images


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True))


def test_classes_files_labels_and_raw_bytes(folder):
    root, images = folder
    data = ds.ImageFolderDataset(str(root), extensions=[".png", ".jpg"], shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_class_indexing() == {"cat": 0, "dog": 1, "eel": 2}
    assert data.get_dataset_size() == 6
    rows = _rows(data)
    order = ["cat/a.png", "cat/b.png", "cat/c.png", "dog/y.png", "dog/z.png", "eel/e.jpg"]
    assert [r[1].item() for r in rows] == [0, 0, 0, 1, 1, 2]
    assert rows[0][1].dtype == np.int32
    for (image, _), name in zip(rows, order):
        assert image.dtype == np.uint8 and image.ndim == 1
        assert image.tobytes() == (root / name).read_bytes()
    decoded = ds.ImageFolderDataset(str(root), extensions=[".png"], decode=True, shuffle=False)
    for (image, _), name in zip(_rows(decoded), order[:5]):
        np.testing.assert_array_equal(image, images[name])


def test_class_indexing_extensions_and_pipeline(folder):
    root, images = folder
    data = ds.ImageFolderDataset(str(root), class_indexing={"dog": 7, "eel": 3},
                                 shuffle=False)
    assert [r[1].item() for r in _rows(data)] == [7, 7, 3]
    data = data.map(operations=[C.Decode(), C.Resize((2, 2)), C.HWC2CHW()],
                    input_columns="image", num_parallel_workers=2).batch(3)
    (batch, labels), = _rows(data)
    assert batch.shape == (3, 3, 2, 2) and labels.tolist() == [7, 7, 3]
    np.testing.assert_array_equal(batch[0], C.HWC2CHW()(C.Resize((2, 2))(images["dog/y.png"])))
    everything = ds.ImageFolderDataset(str(root), shuffle=False)   # no filter: the note too
    assert everything.get_dataset_size() == 7
    with pytest.raises(RuntimeError, match="Decode: cannot decode"):
        _rows(everything.map(operations=C.Decode(), input_columns="image"))


def test_shards_samples_and_shuffle(folder):
    root, _ = folder
    kwargs = {"extensions": [".png", ".jpg"]}
    shards = [ds.ImageFolderDataset(str(root), num_shards=2, shard_id=k, shuffle=False,
                                    **kwargs) for k in range(2)]
    seen = [[r[0].tobytes() for r in _rows(s)] for s in shards]
    assert [len(s) for s in seen] == [3, 3] and not set(seen[0]) & set(seen[1])
    assert ds.ImageFolderDataset(str(root), num_samples=2, **kwargs).get_dataset_size() == 2
    ds.config.set_seed(1)
    shuffled = [r[1].item() for r in _rows(ds.ImageFolderDataset(str(root), **kwargs))]
    assert sorted(shuffled) == [0, 0, 0, 1, 1, 2]


def test_bad_arguments_name_the_problem(folder, tmp_path):
    root, _ = folder
    with pytest.raises(ValueError, match="dataset_dir must be an existing folder"):
        ds.ImageFolderDataset(str(root / "missing"))
    with pytest.raises(ValueError, match=r"names folders \['fox'\]"):
        ds.ImageFolderDataset(str(root), class_indexing={"fox": 0})
    with pytest.raises(RuntimeError, match="no image files"):
        ds.ImageFolderDataset(str(root), extensions=[".bmp"])
    with pytest.raises(TypeError, match="extensions must be a list of str"):
        ds.ImageFolderDataset(str(root), extensions=".png")
