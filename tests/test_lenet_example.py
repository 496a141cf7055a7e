"""The main job, contrib/lenet/train.py, shortened: it loads the digits, trains with Model,
writes a checkpoint, reports the test accuracy and exports the network as ONNX."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "contrib" / "lenet"))
import train  # noqa: E402


def test_short_run_trains_checkpoints_and_reports_accuracy(capsys, tmp_path):
    onnx = pytest.importorskip("onnx")
    accuracy = train.main(["--epochs", "1", "--batch-size", "64", "--ckpt-dir", str(tmp_path),
                           "--export", str(tmp_path / "lenet")])
    out = capsys.readouterr().out
    assert f"exported: {tmp_path / 'lenet.onnx'}" in out
    assert onnx.load(str(tmp_path / "lenet.onnx")).graph.input[0].name == "x"
    assert "LeNet-5 on 1437 training digits, device CPU, graph mode" in out
    assert "test accuracy:" in out
    assert 0.0 <= accuracy <= 1.0
    assert [p.name for p in tmp_path.glob("*.ckpt")] == ["lenet-1_22.ckpt"]


def test_digits_are_upsampled_and_split():
    train_x, train_y, test_x, test_y = train.load_digits(seed=0)
    assert train_x.shape == (1437, 1, 32, 32) and test_x.shape == (360, 1, 32, 32)
    assert set(train_y) == set(range(10))


def test_mnist_idx_files_of_the_digits_train_the_same_job(capsys, tmp_path):
    from sklearn.datasets import load_digits

    import ember.dataset as ds

    train.write_digits_as_mnist(tmp_path / "MNIST_Data", seed=0)
    test_set = ds.MnistDataset(str(tmp_path / "MNIST_Data" / "test"), shuffle=False)
    image, label = next(test_set.create_tuple_iterator(output_numpy=True))
    digits = load_digits()
    first = np.random.default_rng(0).permutation(len(digits.target))[int(0.8 * 1797)]
    expected = np.pad(np.round(digits.images[first] / 16 * 255).repeat(3, 0).repeat(3, 1), 2)
    # MindSpore 1.6's MnistDataset binarises the pixels (0 stays 0, the rest becomes 255)
    np.testing.assert_array_equal(image[..., 0], np.where(expected > 0, 255, 0))
    assert label == digits.target[first] and test_set.get_dataset_size() == 360
    accuracy = train.main(["--data", "mnist", "--data-dir", str(tmp_path / "MNIST_Data"),
                           "--epochs", "1", "--batch-size", "64", "--ckpt-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "LeNet-5 on 1437 training MNIST images, device CPU, graph mode" in out
    assert "on 360 held-out MNIST images" in out and 0.0 <= accuracy <= 1.0
    with pytest.raises(SystemExit):
        train.main(["--data", "mnist"])
