"""``Dataset.split``, as MindSpore 1.6's: non-overlapping datasets of given sizes or fractions.

A pipeline splits into ``skip``/``take`` windows of one order: with ``randomize`` a shuffle
whose seed is drawn once at the split, so every split and every epoch see the same order. A
source read by index splits into ``SplitSource`` views of its rows, each read by a sampler of its
own (sequential; ``use_sampler`` replaces it, to shard a split).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from ember.dataset import config
from ember.dataset.engine import Row, ShuffleDataset
from ember.dataset.samplers import SequentialSampler
from ember.dataset.sources import MappableDataset

if TYPE_CHECKING:
    from ember.dataset.engine import Dataset


def check_sizes(sizes: Any, randomize: Any) -> None:
    """``split``'s arguments, with MindSpore's errors."""
    if not isinstance(sizes, list):
        raise TypeError(f"Argument sizes with value {sizes!r} is not of type [<class 'list'>], "
                        f"but got {type(sizes)}.")
    if not isinstance(randomize, bool):
        raise TypeError(f"Argument randomize with value {randomize!r} is not of type "
                        f"[<class 'bool'>], but got {type(randomize)}.")
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    all_int = all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)
    all_float = all(isinstance(s, float) for s in sizes)
    if not (all_int or all_float):
        raise ValueError("sizes should be list of int or list of float.")
    if all_int and not all(s > 0 for s in sizes):
        raise ValueError("sizes is a list of int, but there should be no negative or zero "
                         "numbers.")
    if all_float:
        if not all(0 < s <= 1 for s in sizes):
            raise ValueError("sizes is a list of float, but there should be no numbers outside "
                             "the range (0, 1].")
        if abs(sum(sizes) - 1) >= 1e-5:
            raise ValueError("sizes is a list of float, but the percentages do not sum up to 1.")


def absolute_sizes(sizes: list[int] | list[float], total: int) -> list[int]:
    """The rows of each split of ``total`` rows: ints as given (they must sum to ``total``);
    fractions rounded, the rows missing added to the first split, the rows too many taken from
    the first split that keeps at least one."""
    if total <= 0:
        raise RuntimeError("dataset_size is unknown, unable to split.")
    if all(isinstance(s, int) for s in sizes):
        if sum(sizes) != total:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size "
                               f"{total}.")
        return list(sizes)  # type: ignore[arg-type]
    counts = []
    for fraction in sizes:
        count = int(round(fraction * total))
        if count == 0:
            raise RuntimeError(f"Split percentage {fraction} is too small.")
        counts.append(count)
    rounded = sum(counts)
    difference = total - rounded
    if difference > 0:
        counts[0] += difference
    else:
        for i, count in enumerate(counts):
            if count + difference > 0:
                counts[i] += difference
                break
    if sum(counts) != total:
        raise RuntimeError(f"Sum of calculated split sizes {rounded} is not equal to dataset "
                           f"size {total}.")
    return counts


def _prepare(dataset: Dataset, sizes: Any, randomize: Any) -> list[int]:
    check_sizes(sizes, randomize)
    if dataset.is_shuffled():
        warnings.warn("Dataset is shuffled before split.", stacklevel=3)
    if dataset.is_sharded():
        raise RuntimeError("Dataset should not be sharded before split.")
    return absolute_sizes(sizes, dataset.get_dataset_size())


def split_pipeline(dataset: Dataset, sizes: Any, randomize: Any) -> tuple[Dataset, ...]:
    """``Dataset.split``: windows of the (fixed-shuffled, with ``randomize``) rows."""
    counts = _prepare(dataset, sizes, randomize)
    source = dataset
    if randomize:  # MindSpore's buffer of 10000 rows, the same order every epoch
        source = ShuffleDataset(dataset, 10000, seed=config.iterator_seed())
    splits, start = [], 0
    for count in counts:
        splits.append((source.skip(start) if start else source).take(count))
        start += count
    return tuple(splits)


def split_source(dataset: MappableDataset, sizes: Any, randomize: Any
                 ) -> tuple[SplitSource, ...]:
    """``MappableDataset.split``: views of consecutive rows of the (fixed-permuted, with
    ``randomize``) row indices."""
    counts = _prepare(dataset, sizes, randomize)
    order = dataset._sampler._indices_for(dataset, np.random.default_rng(0))
    if randomize:
        order = np.random.default_rng(config.iterator_seed()).permutation(order)
    splits, start = [], 0
    for count in counts:
        splits.append(SplitSource(dataset, order[start:start + count]))
        start += count
    return tuple(splits)


class SplitSource(MappableDataset):
    """The rows ``indices`` of a source read by index, as a source of their own (read in order
    unless ``use_sampler`` gives another sampler)."""

    def __init__(self, source: MappableDataset, indices: np.ndarray) -> None:
        super().__init__(sampler=SequentialSampler())
        self._workers = source._workers
        self._source, self._indices = source, indices

    def _columns(self) -> list[str]:
        return self._source._columns()

    def _length(self) -> int:
        return len(self._indices)

    def _read(self, index: int) -> Row:
        return self._source._read(int(self._indices[index]))
