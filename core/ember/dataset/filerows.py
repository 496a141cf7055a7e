"""``FileRowsDataset``: the base of MindSpore's non-mappable file readers (CSV, text files, text
corpora), whose rows come file after file rather than by index.

A subclass reads its files when made (``self._files``: the rows of each file, in the sorted order
of the files) and names its columns (``self._names``). The base gives MindSpore's rules for
``shuffle``, ``num_shards``/``shard_id``, ``num_samples`` and ``num_parallel_workers``.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from ember.dataset import _checks
from ember.dataset._checks import check_shards, check_workers
from ember.dataset.engine import _END, Dataset, Row, _Run

_INT64_MAX = 2**63 - 1
MINDSPORE_WORKERS = 8  # MindSpore's default num_parallel_workers, which orders the rows


class Shuffle(str, enum.Enum):
    """How a file reader shuffles: ``GLOBAL`` the files and the rows, ``FILES`` only the order of
    the files, ``INFILE`` only the rows within each file (MindDataset)."""

    GLOBAL = "global"
    FILES = "file"
    INFILE = "infile"


def check_num_samples(value: Any, where: str) -> int | None:
    """``num_samples`` as MindSpore's file readers check it: None or 0 (every row) or a count."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{where}: Argument num_samples with value {value!r} is not of type "
                        f"[<class 'int'>], but got {type(value)}.")
    if not 0 <= value <= _INT64_MAX:
        raise ValueError(f"{where}: num_samples exceeds the boundary between 0 and "
                         f"{_INT64_MAX}(INT64_MAX)!")
    return value or None


def check_file_shuffle(shuffle: Any, where: str) -> bool | Shuffle:
    """A file reader's ``shuffle``: True and None are ``Shuffle.GLOBAL``; False, GLOBAL or
    FILES, else a ValueError."""
    if shuffle is True or shuffle is None:
        return Shuffle.GLOBAL
    if shuffle is not False and shuffle not in (Shuffle.GLOBAL, Shuffle.FILES):
        raise ValueError(f"{where}: shuffle must be a bool, Shuffle.GLOBAL or Shuffle.FILES, "
                         f"but got {shuffle!r}")
    return shuffle


class FileRowsDataset(Dataset):
    """Rows of files, file after file.

    ``shuffle``: ``Shuffle.GLOBAL`` (or True, or None) shuffles the files and the rows each
    epoch, ``Shuffle.FILES`` the order of the files only, False neither. ``num_shards``/
    ``shard_id``: shard ``k`` reads rows ``k * m ...`` of ``m = ceil(rows / num_shards)``
    consecutive rows of the files in their (possibly shuffled) order, wrapping around.
    ``num_parallel_workers`` > 1 reads files side by side, as MindSpore's workers: file ``j``
    goes to worker ``j % workers`` and the rows come one from each busy worker in turn (None:
    ``ds.config.get_num_parallel_workers()`` once set, else MindSpore's default of 8, so that
    the rows of several files come in MindSpore's order).
    ``num_samples`` caps the rows of an epoch (of a shard).
    """

    _names: list[str]
    _files: list[list[Row]]

    def __init__(self, num_samples: int | None, num_parallel_workers: int | None,
                 shuffle: bool | Shuffle | None, num_shards: int | None,
                 shard_id: int | None) -> None:
        super().__init__()
        where = self._where = type(self).__name__
        self._shuffle = check_file_shuffle(shuffle, where)
        self._num_samples = check_num_samples(num_samples, where)
        self._workers = check_workers(num_parallel_workers, where)
        if num_parallel_workers is None and not _checks._workers_set:
            self._workers = MINDSPORE_WORKERS
        self._shard = check_shards(num_shards, shard_id, where)

    def is_shuffled(self) -> bool:
        return self._shuffle is not False

    def is_sharded(self) -> bool:
        return self._shard is not None and self._shard[0] > 1

    def _columns(self) -> list[str]:
        return list(self._names)

    def _known_size(self) -> int:
        total = sum(len(rows) for rows in self._files)
        size = total if self._shard is None else math.ceil(total / self._shard[0])
        return size if self._num_samples is None else min(size, self._num_samples)

    def _rows(self, run: _Run) -> Iterator[Row]:
        rng = run.spawn()
        files = self._files
        if self._shuffle is not False:
            files = [files[i] for i in rng.permutation(len(files))]
        rows = [row for file_rows in files for row in file_rows]
        picks = np.arange(len(rows))
        if self._shard is not None and rows:
            num_shards, shard_id = self._shard
            size = math.ceil(len(rows) / num_shards)
            picks = (np.arange(size) + shard_id * size) % len(rows)
        if self._shuffle is Shuffle.GLOBAL:
            picks = rng.permutation(picks)
        elif self._workers > 1:
            picks = self._interleave(picks, [len(f) for f in files])
        for i in picks[:self._known_size()]:
            yield rows[i]

    def _interleave(self, picks: np.ndarray, lengths: list[int]) -> np.ndarray:
        """``picks`` in the order MindSpore's workers give them: each run of rows of one file is
        a block, block ``j`` goes to worker ``j % workers``, and the workers take turns."""
        file_of = np.repeat(np.arange(len(lengths)), lengths)[picks]
        cuts = np.flatnonzero(np.diff(file_of)) + 1
        blocks = np.split(picks, cuts)
        queues = [np.concatenate(blocks[k::self._workers]) for k in range(self._workers)
                  if blocks[k::self._workers]]
        turns = itertools.zip_longest(*(q.tolist() for q in queues), fillvalue=_END)
        return np.array([i for turn in turns for i in turn if i is not _END], dtype=np.int64)
