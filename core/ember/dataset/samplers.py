"""Samplers, as ``mindspore.dataset`` samplers: which row indices of a random-accessible dataset
one epoch reads, and in what order.

A sampler is given to a dataset's ``sampler`` argument. Each epoch it draws a fresh order from the
iterator's generator (seeded by ``ds.config.set_seed`` or ``ember.set_seed``), so every process
that sets the same seed sees the same shuffled order: DistributedSampler shards split one order.
A ``Sampler`` subclass with ``__iter__`` yielding indices is a user-defined sampler (it may read
``self.dataset_size``), as in MindSpore.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from ember.dataset._checks import check_bool, check_int, check_shards


def _check_num_samples(value: Any, where: str) -> int | None:
    """None or 0 (every row) or a positive count, as None or the count."""
    if value is None:
        return None
    return check_int(value, where, "num_samples", minimum=0) or None


class BuiltinSampler:
    """The base of the samplers: ``num_samples`` caps the rows of an epoch (None: all)."""

    def __init__(self, num_samples: int | None = None) -> None:
        self.num_samples = _check_num_samples(num_samples, type(self).__name__)

    def get_num_samples(self) -> int | None:
        """The cap on the rows of an epoch (None: every row the sampler gives)."""
        return self.num_samples

    def _indices_for(self, source: Any, rng: np.random.Generator) -> np.ndarray:
        """The row indices of one epoch of ``source`` (a MappableDataset)."""
        return self._indices(source._length(), rng)

    def _count_for(self, source: Any) -> int | None:
        """The rows of one epoch of ``source``, when known without sampling."""
        return self._count(source._length())

    def _indices(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """The row indices of one epoch of a dataset of ``size`` rows."""
        indices = self._all(size, rng)
        return indices if self.num_samples is None else indices[:self.num_samples]

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        raise TypeError(f"{type(self).__name__} gives no indices: define __iter__ in a Sampler "
                        "subclass, or use one of the built-in samplers")

    def _count(self, size: int) -> int | None:
        """The rows of one epoch over ``size`` rows, when known without sampling."""
        count = self._full_count(size)
        if count is None or self.num_samples is None:
            return count
        return min(count, self.num_samples)

    def _full_count(self, size: int) -> int | None:
        return size

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_samples={self.num_samples})"


class SequentialSampler(BuiltinSampler):
    """Rows ``start_index, start_index + 1, ...`` in order."""

    def __init__(self, start_index: int | None = None, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        self.start_index = 0 if start_index is None else check_int(
            start_index, "SequentialSampler", "start_index", minimum=0)

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        if self.start_index and self.start_index >= size:
            raise ValueError(f"SequentialSampler: start_index {self.start_index} must be less "
                             f"than the dataset size {size}")
        return np.arange(self.start_index, size)

    def _full_count(self, size: int) -> int:
        return max(size - self.start_index, 0)


class RandomSampler(BuiltinSampler):
    """Rows in a random order: a permutation, or with ``replacement`` as many independent
    uniform draws (``num_samples`` caps both at the dataset size, as MindSpore)."""

    def __init__(self, replacement: bool = False, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        self.replacement = check_bool(replacement, "RandomSampler", "replacement")

    def _indices(self, size: int, rng: np.random.Generator) -> np.ndarray:
        if self.replacement:
            return rng.integers(0, max(size, 1), self._count(size))  # none when size is 0
        return super()._indices(size, rng)

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.permutation(size)


class DistributedSampler(BuiltinSampler):
    """Shard ``shard_id`` of ``num_shards``: rows ``shard_id, shard_id + num_shards, ...`` of the
    (possibly shuffled) order, ``ceil(size / num_shards)`` of them, wrapping around to the first
    rows so every shard has as many (MindSpore's padding of uneven splits)."""

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True,
                 num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        where = "DistributedSampler"
        self.num_shards, self.shard_id = check_shards(num_shards, shard_id, where)
        self.shuffle = check_bool(shuffle, where, "shuffle")

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        order = rng.permutation(size) if self.shuffle else np.arange(size)
        if not size:
            return order
        picks = np.arange(math.ceil(size / self.num_shards)) * self.num_shards + self.shard_id
        return order[picks % size]

    def _full_count(self, size: int) -> int:
        return math.ceil(size / self.num_shards)


class _Listed(BuiltinSampler):
    """A sampler over a given list of row indices."""

    def __init__(self, indices: Iterable[int], num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        where = type(self).__name__
        if isinstance(indices, str | bytes) or not isinstance(indices, Iterable):
            raise TypeError(f"{where}: indices must be a list of ints, but got "
                            f"{type(indices).__name__}")
        try:
            self.indices = np.array([operator.index(i) for i in indices], dtype=np.int64)
        except TypeError:
            raise TypeError(f"{where}: indices must be ints, but got {list(indices)!r:.80}") \
                from None

    def _full_count(self, size: int) -> int:
        return len(self.indices)


class SubsetSampler(_Listed):
    """The rows ``indices``, in that order."""

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return self.indices


class SubsetRandomSampler(_Listed):
    """The rows ``indices``, in a random order each epoch."""

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.permutation(self.indices)


class WeightedRandomSampler(BuiltinSampler):
    """``num_samples`` (default: ``len(weights)``) rows drawn with probabilities proportional to
    ``weights`` (one per row from 0), with or without ``replacement``."""

    def __init__(self, weights: Iterable[float], num_samples: int | None = None,
                 replacement: bool = True) -> None:
        super().__init__(num_samples)
        where = "WeightedRandomSampler"
        try:
            self.weights = np.array(list(weights), dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{where}: weights must be a list of numbers, but got "
                            f"{weights!r:.80}") from None
        if self.weights.ndim != 1 or not self.weights.size:
            raise ValueError(f"{where}: weights must be a non-empty list, but got {weights!r:.80}")
        if (self.weights < 0).any() or not self.weights.sum() > 0:
            raise ValueError(f"{where}: weights must be non-negative with a positive sum, but "
                             f"got {weights!r:.80}")
        self.replacement = check_bool(replacement, where, "replacement")
        nonzero = int(np.count_nonzero(self.weights))
        if not replacement and self.num_samples is not None and self.num_samples > nonzero:
            raise ValueError(f"{where}: without replacement num_samples must be at most the "
                             f"{nonzero} non-zero weights, but got {self.num_samples}")

    def _indices(self, size: int, rng: np.random.Generator) -> np.ndarray:
        count = self._count(size)
        if not self.replacement:
            count = min(count, int(np.count_nonzero(self.weights)))
        return rng.choice(len(self.weights), count, replace=self.replacement,
                          p=self.weights / self.weights.sum())

    def _count(self, size: int) -> int:
        return len(self.weights) if self.num_samples is None else self.num_samples


class PKSampler(BuiltinSampler):
    """``num_val`` rows of each class (drawn at random within it, with replacement), class after
    class in the order of their labels (a random order with ``shuffle``), as MindSpore's
    PKSampler; the classes are the values of the dataset's ``class_column``."""

    def __init__(self, num_val: int, num_class: None = None, shuffle: bool = False,
                 class_column: str = "label", num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        where = "PKSampler"
        self.num_val = check_int(num_val, where, "num_val", minimum=1)
        if num_class is not None:
            raise ValueError(f"{where}: num_class is not supported (as in MindSpore 1.6); every "
                             f"class is sampled, but got num_class={num_class!r}")
        self.shuffle = check_bool(shuffle, where, "shuffle")
        if not isinstance(class_column, str) or not class_column:
            raise TypeError(f"{where}: class_column must be a column name, but got "
                            f"{class_column!r}")
        self.class_column = class_column

    def _indices_for(self, source: Any, rng: np.random.Generator) -> np.ndarray:
        classes = source._class_rows(self.class_column)
        labels = sorted(classes)
        if self.shuffle:
            labels = [labels[i] for i in rng.permutation(len(labels))]
        picks = [rng.choice(classes[label], self.num_val) for label in labels]
        indices = np.concatenate(picks) if picks else np.arange(0)
        return indices if self.num_samples is None else indices[:self.num_samples]

    def _count_for(self, source: Any) -> int:
        count = self.num_val * len(source._class_rows(self.class_column))
        return count if self.num_samples is None else min(count, self.num_samples)


class Sampler(BuiltinSampler):
    """The base of user-defined samplers: define ``__iter__`` to yield row indices; the dataset
    sets ``self.dataset_size`` before each epoch, and calls ``reset()``, when the subclass
    defines it, between epochs (each repetition of ``repeat`` is one), as MindSpore."""

    def __init__(self, num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        self.dataset_size = 0
        self._epochs = 0

    def __iter__(self) -> Any:
        raise TypeError(f"{type(self).__name__}: a Sampler subclass must define __iter__ "
                        "yielding row indices")

    def _all(self, size: int, rng: np.random.Generator) -> np.ndarray:
        self.dataset_size = size
        if self._epochs and callable(getattr(self, "reset", None)):
            self.reset()  # type: ignore[attr-defined]
        self._epochs += 1
        return np.array([operator.index(i) for i in self], dtype=np.int64)

    def _full_count(self, size: int) -> int | None:
        return len(self) if hasattr(self, "__len__") else None


class _IterSampler(Sampler):
    """Any iterable of row indices, read anew each epoch."""

    def __init__(self, indices: Iterable[int], num_samples: int | None = None) -> None:
        super().__init__(num_samples)
        self._source = indices

    def __iter__(self) -> Any:
        return iter(self._source)

    def _full_count(self, size: int) -> int | None:
        return len(self._source) if hasattr(self._source, "__len__") else None


def select_sampler(where: str, num_samples: int | None, sampler: Any, shuffle: bool | None,
                   num_shards: int | None, shard_id: int | None) -> BuiltinSampler:
    """The sampler a dataset's arguments ask for, by MindSpore's rules: a given ``sampler`` (a
    list of indices is a SubsetSampler, any other iterable is read each epoch) alone; else
    ``num_shards`` makes a DistributedSampler, shuffled unless ``shuffle=False``; else shuffled
    rows (``num_samples`` of them drawn with replacement) or, with ``shuffle=False``, the first
    ``num_samples`` rows in order."""
    num_samples = _check_num_samples(num_samples, where)
    if shuffle is not None:
        check_bool(shuffle, where, "shuffle")
    shards = check_shards(num_shards, shard_id, where)
    if sampler is not None:
        given = {"shuffle": shuffle, "sharding": num_shards}
        if isinstance(sampler, BuiltinSampler):
            given["num_samples"] = num_samples
        conflicts = [name for name, value in given.items() if value is not None]
        if conflicts:  # a RuntimeError, as MindSpore's
            raise RuntimeError(f"{where}: sampler and {conflicts[0]} cannot be specified at the "
                               f"same time (the sampler decides the rows alone)")
        if isinstance(sampler, BuiltinSampler):
            return sampler
        if isinstance(sampler, list | np.ndarray):
            return SubsetSampler(sampler, num_samples)
        if isinstance(sampler, Iterable) and not isinstance(sampler, str | bytes):
            return _IterSampler(sampler, num_samples)
        raise TypeError(f"{where}: Unsupported sampler object of type ({type(sampler)}): "
                        "sampler must be an iterable of row indices or a sampler")
    if shards is not None:
        return DistributedSampler(*shards, shuffle is not False, num_samples)
    if shuffle is False:
        return SequentialSampler(num_samples=num_samples)
    return RandomSampler(replacement=num_samples is not None, num_samples=num_samples)

