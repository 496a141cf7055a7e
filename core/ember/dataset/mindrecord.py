"""``MindDataset``: the rows of MindRecord files (``ember.mindrecord``), as
``mindspore.dataset.MindDataset``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember.dataset import config
from ember.dataset._checks import check_int, check_shards
from ember.dataset.engine import Row
from ember.dataset.filerows import Shuffle
from ember.dataset.samplers import BuiltinSampler, DistributedSampler
from ember.dataset.sources import MappableDataset
from ember.mindrecord.filereader import Shards


class _MindSampler(BuiltinSampler):
    """MindDataset's own order: rows shuffled globally, by file order (``Shuffle.FILES``), within
    each file (``Shuffle.INFILE``) or not at all (None), then shard ``shard_id`` of
    ``num_shards`` takes every ``num_shards``-th row (a DistributedSampler without shuffle).

    Sharded, epoch ``e``'s order is drawn from ``(ds.config.get_seed(), e)``, so the shards of
    every process split one order without a seed set, as MindSpore's (which seeds them with its
    fixed default seed)."""

    def __init__(self, mode: Shuffle | None, shards: tuple[int, int] | None,
                 num_samples: int | None) -> None:
        super().__init__(num_samples)
        self.mode = mode
        self.shards = shards
        self._epochs = 0

    def _indices_for(self, source: Any, rng: np.random.Generator) -> np.ndarray:
        if self.shards is not None:
            rng = np.random.default_rng([config.get_seed(), self._epochs])
            self._epochs += 1
        order = source._order(self.mode, rng)
        if self.shards is not None:
            order = order[DistributedSampler(*self.shards, shuffle=False)._all(len(order), rng)]
        return order if self.num_samples is None else order[:self.num_samples]

    def _full_count(self, size: int) -> int:
        return size if self.shards is None else math.ceil(size / self.shards[0])


class MindDataset(MappableDataset):
    """The rows of MindRecord files, as ``mindspore.dataset.MindDataset``.

    ``dataset_files``: one file of a set written by ``FileWriter`` (every shard its header names
    is read) or a list of files (only those). ``columns_list`` picks and orders the columns
    (default: every field, in name order). Scalars become 0-d arrays of their type (strings
    UTF-8 ``bytes``, as MindSpore 1.x gives them), ``bytes`` fields 1-D uint8 arrays (ready for
    ``vision.c_transforms.Decode``), arrays keep their shape.

    ``shuffle``: True or ``Shuffle.GLOBAL`` (default) shuffles all rows each epoch,
    ``Shuffle.FILES`` the order of the files, ``Shuffle.INFILE`` the rows within each file,
    False none. ``num_shards``/``shard_id``: shard ``k`` reads rows ``k, k + num_shards, ...``
    of that order, ``ceil(n / num_shards)`` of them (wrapping around). ``num_padded`` copies of
    ``padded_sample`` (a dict with every column of ``columns_list``) are added after the rows,
    so that they split evenly (a RuntimeError when reading if not). ``sampler`` replaces all of
    this; ``num_samples`` caps the rows of an epoch.
    """

    def __init__(self, dataset_files: str | list[str], columns_list: list[str] | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle | None = None,
                 num_shards: int | None = None, shard_id: int | None = None,
                 sampler: Any = None, padded_sample: dict[str, Any] | None = None,
                 num_padded: int | None = None, num_samples: int | None = None) -> None:
        where = self._where = type(self).__name__
        shards = check_shards(num_shards, shard_id, where)
        if sampler is None:
            if shuffle is not None and not isinstance(shuffle, bool | Shuffle):
                raise TypeError(f"{where}: shuffle must be a bool or a Shuffle (GLOBAL, FILES, "
                                f"INFILE), but got {shuffle!r}")
            mode = Shuffle.GLOBAL if shuffle is None or shuffle is True else shuffle or None
            sampler = _MindSampler(mode, shards, num_samples)
            shuffle = num_shards = shard_id = num_samples = None
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id)
        self._shards = Shards(dataset_files, columns_list, where=where)
        self._split = 1
        self._padded = self._check_padding(padded_sample, num_padded, columns_list, shards)

    def _check_padding(self, sample: Any, count: Any, columns: Any,
                       shards: tuple[int, int] | None) -> tuple[Row, int]:
        where = self._where
        if sample is None and count is None:
            return (), 0
        if sample is None:
            raise ValueError(f"{where}: num_padded is specified but padded_sample is not.")
        if count is None:
            raise ValueError(f"{where}: padded_sample is specified and requires num_padded as "
                             "well.")
        if columns is None:
            raise ValueError(f"{where}: padded_sample is specified and requires columns_list as "
                             "well.")
        count = check_int(count, where, "num_padded", minimum=0)
        if not isinstance(sample, dict) or set(self._shards.columns) - set(sample):
            raise ValueError(f"{where}: padded_sample cannot match columns_list. It must be a "
                             f"dict with the columns {self._shards.columns}, but got "
                             f"{sample!r:.80}")
        self._split = shards[0] if shards is not None else 1
        return self._row(sample), count

    def _row(self, values: dict[str, Any]) -> Row:
        schema = self._shards.schema
        row = []
        for name in self._shards.columns:
            value, kind = values[name], schema[name]["type"]
            if kind == "bytes":
                row.append(np.frombuffer(bytes(value), np.uint8).copy())
            elif kind == "string":
                row.append(np.array(str(value).encode("utf-8"), np.bytes_))
            else:
                row.append(np.asarray(value, kind))
        return tuple(row)

    def _order(self, mode: Shuffle | None, rng: np.random.Generator) -> np.ndarray:
        """Row indices in the order of shuffle ``mode``; padded rows last (or shuffled in)."""
        size = self._length()
        if mode is Shuffle.GLOBAL:
            return rng.permutation(size)
        starts = np.cumsum([0, *self._shards.counts])
        files = [np.arange(a, b) for a, b in zip(starts[:-1], starts[1:])]
        if mode is Shuffle.FILES:
            files = [files[k] for k in rng.permutation(len(files))]
        elif mode is Shuffle.INFILE:
            files = [rng.permutation(rows) for rows in files]
        return np.concatenate([*files, np.arange(len(self._shards), size)]).astype(np.int64)

    def _columns(self) -> list[str]:
        return list(self._shards.columns)

    def _length(self) -> int:
        size = len(self._shards) + self._padded[1]
        if size % self._split:
            raise RuntimeError(f"{self._where}: the {len(self._shards)} rows and num_padded "
                               f"{self._padded[1]} make {size}, which num_shards {self._split} "
                               "does not divide")
        return size

    def _read(self, index: int) -> Row:
        if index >= len(self._shards):
            return tuple(array.copy() for array in self._padded[0])
        return self._row(self._shards.row(index))
