"""ember.dataset's file readers on small files written here in the exact distributed formats
(MNIST's IDX, CIFAR's binary records, CSV), against independent NumPy reads of the same bytes."""

from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest

import ember.dataset as ds
from ember.dataset.readers import read_idx


def _rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def write_idx(path, array, *, compress=False):
    """An IDX file as MNIST distributes them: 0, 0, type 0x08 (ubyte), ndim; big-endian dims."""
    header = struct.pack(">BBBB", 0, 0, 0x08, array.ndim) + struct.pack(
        f">{array.ndim}I", *array.shape)
    data = header + array.astype(np.uint8).tobytes()
    path.write_bytes(gzip.compress(data) if compress else data)


def write_mnist(directory, prefix, count, seed, *, compress=False):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, (count, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, count, dtype=np.uint8)
    suffix = ".gz" if compress else ""
    write_idx(directory / f"{prefix}-images-idx3-ubyte{suffix}", images, compress=compress)
    write_idx(directory / f"{prefix}-labels-idx1-ubyte{suffix}", labels, compress=compress)
    return images, labels


def _numpy_idx(path):
    """An independent read: skip the 16- or 8-byte header MNIST's files have."""
    data = np.frombuffer(path.read_bytes(), np.uint8)
    return data[16:].reshape(-1, 28, 28) if "images" in path.name else data[8:]


def test_idx_files_read_as_numpy_reads_them(tmp_path):
    images, _ = write_mnist(tmp_path, "train", 5, seed=0)
    path = tmp_path / "train-images-idx3-ubyte"
    np.testing.assert_array_equal(read_idx(path), _numpy_idx(path))
    big = np.arange(6, dtype=">i4").reshape(2, 3)
    (tmp_path / "ints").write_bytes(b"\0\0\x0c\x02" + struct.pack(">2I", 2, 3) + big.tobytes())
    np.testing.assert_array_equal(read_idx(tmp_path / "ints"), [[0, 1, 2], [3, 4, 5]])


@pytest.mark.parametrize("data, match", [
    (b"\x08\x03\0\0", "not an IDX file \\(magic number 08030000"),
    (b"", "not an IDX file \\(magic number missing"),
    (b"\0\0\x08\x01" + struct.pack(">I", 5) + b"\1\2", "IDX file of 10 bytes, .* needs 13"),
])
def test_damaged_idx_files_are_named(tmp_path, data, match):
    (tmp_path / "bad").write_bytes(data)
    with pytest.raises(RuntimeError, match=match):
        read_idx(tmp_path / "bad")


@pytest.mark.parametrize("compress", [False, True])
def test_mnist_columns_dtypes_shapes_and_values(tmp_path, compress):
    images, labels = write_mnist(tmp_path, "train", 7, seed=1, compress=compress)
    data = ds.MnistDataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_dataset_size() == 7
    assert data.output_shapes() == [[28, 28, 1], []]
    assert data.output_types() == [np.uint8, np.uint32]
    rows = _rows(data)
    # MindSpore's reader binarises the pixels: 0 stays 0, any other value becomes 255
    np.testing.assert_array_equal(np.stack([r[0] for r in rows])[..., 0],
                                  np.where(images > 0, 255, 0))
    assert [r[1].item() for r in rows] == labels.tolist()
    if not compress:
        np.testing.assert_array_equal(images, _numpy_idx(tmp_path / "train-images-idx3-ubyte"))


def test_mnist_usage_picks_files_and_all_reads_test_then_train(tmp_path):
    train_images, _ = write_mnist(tmp_path, "train", 4, seed=2)
    test_images, _ = write_mnist(tmp_path, "t10k", 3, seed=3)
    sizes = {u: ds.MnistDataset(str(tmp_path), usage=u).get_dataset_size()
             for u in ("train", "test", "all", None)}
    assert sizes == {"train": 4, "test": 3, "all": 7, None: 7}
    everything = np.stack([r[0][..., 0] for r in _rows(
        ds.MnistDataset(str(tmp_path), shuffle=False))])
    np.testing.assert_array_equal(everything,
                                  np.where(np.concatenate([test_images, train_images]), 255, 0))
    (tmp_path / "t10k-images-idx3-ubyte").unlink()  # 'all' reads the files that are there
    assert ds.MnistDataset(str(tmp_path)).get_dataset_size() == 4


def test_mnist_shards_samplers_and_shuffle(tmp_path):
    _, labels = write_mnist(tmp_path, "train", 10, seed=4)

    def labels_of(**kwargs):
        return [r[1].item() for r in _rows(ds.MnistDataset(str(tmp_path), "train", **kwargs))]

    shards = [labels_of(num_shards=3, shard_id=k, shuffle=False) for k in range(3)]
    assert shards == [labels[[k, k + 3, k + 6, (k + 9) % 10]].tolist() for k in range(3)]
    assert labels_of(sampler=ds.SubsetSampler([9, 0])) == labels[[9, 0]].tolist()
    assert labels_of(shuffle=False, num_samples=3) == labels[:3].tolist()
    assert sorted(labels_of()) == sorted(labels.tolist())
    parallel = labels_of(shuffle=False, num_parallel_workers=3)
    assert parallel == labels.tolist()
    assert labels_of(sampler=ds.PKSampler(1)) == sorted(set(labels.tolist()))


@pytest.mark.parametrize("files, kwargs, error, match", [
    ([], {}, RuntimeError, "has no train-images-idx3-ubyte \\(or train-images-idx3-ubyte.gz\\)"),
    (["train"], {"usage": "test"}, RuntimeError, "has no t10k-images-idx3-ubyte"),
    (["train"], {"usage": "valid"}, ValueError, "usage is not within the valid set of \\['train'"),
    (["train"], {"num_shards": 2}, RuntimeError, "num_shards and shard_id go together"),
    (["train"], {"shuffle": True, "sampler": ds.RandomSampler()}, RuntimeError,
     "MnistDataset: sampler and shuffle cannot be specified at the same time"),
])
def test_mnist_arguments_and_files_are_checked(tmp_path, files, kwargs, error, match):
    for prefix in files:
        write_mnist(tmp_path, prefix, 2, seed=5)
    with pytest.raises(error, match=match):
        ds.MnistDataset(str(tmp_path), **kwargs)
    with pytest.raises(ValueError, match="The folder .*nowhere does not exist or is not a"):
        ds.MnistDataset(str(tmp_path / "nowhere"))


def test_mnist_counts_that_disagree_are_named(tmp_path):
    write_mnist(tmp_path, "train", 3, seed=6)
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(2, np.uint8))
    with pytest.raises(RuntimeError, match=r"train images \[3, 28, 28\] and labels \[2\]"):
        ds.MnistDataset(str(tmp_path), usage="train")


def write_cifar(path, count, labels, seed):
    """CIFAR's binary records: label byte(s), then 1024 red, 1024 green, 1024 blue bytes."""
    rng = np.random.default_rng(seed)
    records = rng.integers(0, 256, (count, labels + 3072), dtype=np.uint8)
    path.write_bytes(records.tobytes())
    return records


def _cifar_image(record, labels):
    """An independent decode: plane c, row y, column x is byte labels + 1024 c + 32 y + x."""
    image = np.empty((32, 32, 3), np.uint8)
    for c in range(3):
        for y in range(32):
            image[y, :, c] = record[labels + 1024 * c + 32 * y: labels + 1024 * c + 32 * y + 32]
    return image


def test_cifar10_records_usage_and_layout(tmp_path):
    batches = [write_cifar(tmp_path / f"data_batch_{i}.bin", 3, 1, seed=i) for i in (2, 1)]
    test = write_cifar(tmp_path / "test_batch.bin", 2, 1, seed=9)
    (tmp_path / "batches.meta.txt").write_text("airplane\n")
    train = ds.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False)
    assert train.get_col_names() == ["image", "label"]
    assert train.output_shapes() == [[32, 32, 3], []]
    assert train.output_types() == [np.uint8, np.uint32]
    records = np.concatenate([batches[1], batches[0]])  # data_batch_1 sorts first
    rows = _rows(train)
    assert [r[1].item() for r in rows] == records[:, 0].tolist()
    for row, record in zip(rows, records):
        np.testing.assert_array_equal(row[0], _cifar_image(record, 1))
    assert ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size() == 2
    everything = _rows(ds.Cifar10Dataset(str(tmp_path), shuffle=False))
    assert [r[1].item() for r in everything] == [*records[:, 0], *test[:, 0]]


def test_cifar100_has_coarse_and_fine_labels(tmp_path):
    train = write_cifar(tmp_path / "train.bin", 4, 2, seed=3)
    write_cifar(tmp_path / "test.bin", 1, 2, seed=4)
    data = ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"]
    rows = _rows(data)
    assert [[r[1].item(), r[2].item()] for r in rows] == train[:, :2].tolist()
    np.testing.assert_array_equal(rows[3][0], _cifar_image(train[3], 2))
    assert ds.Cifar100Dataset(str(tmp_path)).get_dataset_size() == 5


def test_cifar_files_are_checked(tmp_path):
    with pytest.raises(RuntimeError, match="has no .bin file named like \\('test_batch',\\)"):
        ds.Cifar10Dataset(str(tmp_path), usage="test")
    (tmp_path / "data_batch_1.bin").write_bytes(b"\0" * 3074)
    with pytest.raises(RuntimeError, match="has 3074 bytes, not a whole number of 3073-byte"):
        ds.Cifar10Dataset(str(tmp_path))


def test_csv_header_defaults_types_and_files(tmp_path):
    (tmp_path / "a.csv").write_text("name,count,score\nx,1,0.5\n\"y,z\",,2.5\n")
    (tmp_path / "b.csv").write_text("name,count,score\nw,7,\n")
    data = ds.CSVDataset(str(tmp_path / "*.csv"), column_defaults=["", 0, -1.0], shuffle=False,
                         num_parallel_workers=1)
    assert data.get_col_names() == ["name", "count", "score"]
    assert data.get_dataset_size() == 3
    rows = _rows(data)
    assert [[r[0].item(), r[1].item(), r[2].item()] for r in rows] == [
        [b"x", 1, 0.5], [b"y,z", 0, 2.5], [b"w", 7, -1.0]]  # strings are bytes, as in 1.6
    assert [r[1].dtype for r in rows] == [np.int32] * 3 and rows[0][2].dtype == np.float32
    # two workers read the two files side by side and take turns, as MindSpore's
    both = ds.CSVDataset(str(tmp_path / "*.csv"), shuffle=False, num_parallel_workers=2)
    assert [r[0].item() for r in _rows(both)] == [b"x", b"w", b"y,z"]
    strings = ds.CSVDataset([str(tmp_path / "b.csv")], shuffle=False)
    assert [r[1].item() for r in _rows(strings)] == [b"7"]
    named = ds.CSVDataset(str(tmp_path / "a.csv"), column_names=["a", "b", "c"], shuffle=False)
    assert [r[0].item() for r in _rows(named)] == [b"name", b"x", b"y,z"]
    # without output_numpy they are str, as MindSpore's iterators give them
    assert [r[0].item() for r in named.create_tuple_iterator(num_epochs=1)] == [
        "name", "x", "y,z"]


def test_csv_shards_are_consecutive_blocks_and_shuffle_covers_rows(tmp_path):
    (tmp_path / "n.csv").write_text("n\n" + "".join(f"{i}\n" for i in range(7)))
    path = str(tmp_path / "n.csv")
    shards = [[r[0].item() for r in _rows(ds.CSVDataset(path, column_defaults=[0], shuffle=False,
                                                         num_shards=3, shard_id=k))]
              for k in range(3)]
    assert shards == [[0, 1, 2], [3, 4, 5], [6, 0, 1]]
    shuffled = [r[0].item() for r in _rows(ds.CSVDataset(str(tmp_path / "n.csv"),
                                                         column_defaults=[0]))]
    assert sorted(shuffled) == list(range(7))


def test_csv_errors_name_file_line_and_column(tmp_path):
    (tmp_path / "a.csv").write_text("a,b\n1,x\n")
    with pytest.raises(RuntimeError, match="a.csv line 2, column 'b': 'x' is not a int"):
        ds.CSVDataset(str(tmp_path / "a.csv"), column_defaults=[0, 0])
    (tmp_path / "c.csv").write_text("a,b\n1\n")
    with pytest.raises(RuntimeError, match="c.csv line 2 has 1 fields, but there are 2 columns"):
        ds.CSVDataset(str(tmp_path / "c.csv"))
    with pytest.raises(ValueError, match="did not match any files"):
        ds.CSVDataset(str(tmp_path / "missing.csv"))
    with pytest.raises(ValueError, match="shuffle must be a bool, Shuffle.GLOBAL"):
        ds.CSVDataset(str(tmp_path / "a.csv"), shuffle="yes")


def test_csv_shuffle_files_keeps_the_rows_of_each_file_together(tmp_path):
    for name, rows in (("a", range(0, 3)), ("b", range(10, 13)), ("c", range(20, 23))):
        (tmp_path / f"{name}.csv").write_text("n\n" + "".join(f"{i}\n" for i in rows))
    ds.config.set_seed(4)
    try:
        orders = set()
        for _ in range(6):
            data = ds.CSVDataset(str(tmp_path / "*.csv"), column_defaults=[0],
                                 shuffle=ds.Shuffle.FILES, num_parallel_workers=1)
            values = [r[0].item() for r in _rows(data)]
            blocks = [values[k:k + 3] for k in (0, 3, 6)]
            assert all(b == list(range(b[0], b[0] + 3)) for b in blocks)
            orders.add(tuple(b[0] for b in blocks))
        assert len(orders) > 1  # the file order changes from one iterator to the next
    finally:
        ds.config._seed = ds.config._generator = None
