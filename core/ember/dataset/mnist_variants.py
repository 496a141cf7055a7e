"""The readers of MNIST's relatives, as ``mindspore.dataset``: Fashion-MNIST and Kuzushiji-MNIST
(MNIST's file names and format), EMNIST (one of its splits, ``emnist-<name>-...``) and QMNIST
(labels of eight int32 fields each). Rows are ``MnistDataset``'s: ``image`` uint8 ``[28, 28, 1]``
binarised to 0 and 255, ``label`` uint32; the sampling arguments are ``MnistDataset``'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ember.dataset._checks import check_bool, check_usage, type_check
from ember.dataset.readers import MnistDataset


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST, as ``mindspore.dataset.FashionMnistDataset`` (MNIST's files and format)."""


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST, as ``mindspore.dataset.KMnistDataset`` (MNIST's files and format)."""


_EMNIST_NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")


class EMnistDataset(MnistDataset):
    """EMNIST, as ``mindspore.dataset.EMnistDataset``: split ``name`` (one of 'byclass',
    'bymerge', 'balanced', 'letters', 'digits', 'mnist') from the files
    ``emnist-<name>-train-images-idx3-ubyte`` (and ``-labels-idx1-ubyte``, ``-test-...``);
    ``usage`` 'all' (default) reads test rows, then train rows."""

    def __init__(self, dataset_dir: str, name: str, usage: str | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        type_check(name, (str,), "name", "EMnistDataset")
        if name not in _EMNIST_NAMES:
            raise ValueError(f"EMnistDataset: Input name is not within the valid set of "
                             f"{list(_EMNIST_NAMES)}, but got {name!r}")
        self._name = name
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)

    def _prefixes(self, directory: Path, usage: str) -> list[str]:
        kinds = ["test", "train"] if usage == "all" else [usage]
        return [f"emnist-{self._name}-{kind}" for kind in kinds]


_QMNIST_FILES = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"],
                 "test50k": ["qmnist-test"], "nist": ["xnist"],
                 "all": ["qmnist-train", "qmnist-test", "xnist"]}


class QMnistDataset(MnistDataset):
    """QMNIST, as ``mindspore.dataset.QMnistDataset``: ``usage`` 'train', 'test', 'test10k'
    (the first 10000 test rows), 'test50k' (the test rows after those), 'nist' or 'all' (default:
    train, test and nist rows). Labels hold eight fields a row (``*-labels-idx2-int``); with
    ``compat`` (default) the label is the first, the class, a uint32 scalar, else all eight
    (uint32 ``[8]``)."""

    _labels_kind, _label_ndim = "labels-idx2-int", 2

    def __init__(self, dataset_dir: str, usage: str | None = None, compat: bool = True,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        self._compat = check_bool(compat, "QMnistDataset", "compat")
        self._usage = check_usage(usage, list(_QMNIST_FILES), "QMnistDataset")
        super().__init__(dataset_dir, None, num_samples, num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)

    def _prefixes(self, directory: Path, usage: str) -> list[str]:
        return _QMNIST_FILES[self._usage]

    def _load(self, directory: Path, usage: str) -> tuple[list[str], list[np.ndarray]]:
        names, (images, labels) = super()._load(directory, usage)
        part = {"test10k": slice(0, 10000), "test50k": slice(10000, None)}.get(self._usage)
        if part is not None:
            images, labels = images[part], labels[part]
        return names, [images, labels]

    def _label(self, label: np.ndarray) -> np.ndarray:
        return label[:, 0].astype(np.uint32) if self._compat else label.astype(np.uint32)
