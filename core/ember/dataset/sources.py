"""Datasets whose rows come from Python, ``GeneratorDataset`` and ``NumpySlicesDataset``, and
``MappableDataset``, the base of every source read by row index (the file readers too)."""

from __future__ import annotations

import itertools
import warnings
from abc import abstractmethod
from collections.abc import Iterator
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.dataset._checks import (
    check_int,
    check_names,
    check_present,
    check_process_options,
    check_workers,
)
from ember.dataset.engine import Dataset, Row, _ordered_map, _Run, to_array
from ember.dataset.samplers import (
    DistributedSampler,
    RandomSampler,
    SubsetRandomSampler,
    select_sampler,
)
from ember.dataset.schema import DE_TYPES, Schema


class MappableDataset(Dataset):
    """The base of datasets whose rows are read by index (MindSpore's mappable sources).

    A subclass gives ``_length()`` and ``_read(index)``; the base turns ``num_samples``,
    ``shuffle``, ``sampler`` and ``num_shards``/``shard_id`` into a sampler by MindSpore's rules
    (``ember.dataset.samplers.select_sampler``: shuffled by default) and reads each epoch's rows,
    with ``num_parallel_workers`` > 1 on a thread pool, in the sampler's order.
    """

    def __init__(self, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        super().__init__()
        where = type(self).__name__
        self._workers = check_workers(num_parallel_workers, where)
        self._sampler = select_sampler(where, num_samples, sampler, shuffle, num_shards,
                                       shard_id)

    @abstractmethod
    def _length(self) -> int:
        """The number of rows that can be read."""

    @abstractmethod
    def _read(self, index: int) -> Row:
        """Row ``index`` (0 <= index < length) as a tuple of arrays."""

    def _by_index(self) -> bool:
        return True

    def _fetch(self, index: int) -> Row:
        size = self._length()
        if not 0 <= index < size:
            raise IndexError(f"{type(self).__name__}: sampler gave row index {index}, but the "
                             f"source has {size} rows")
        return self._read(index)

    def _class_rows(self, column: str) -> dict[Any, np.ndarray]:
        """The row indices of each value of a scalar ``column`` (PKSampler's classes)."""
        where = type(self).__name__
        index = check_present([column], self._columns(), where, "PKSampler's class_column")[0]
        cells = [self._read(i)[index] for i in range(self._length())]
        shapes = {cell.shape for cell in cells if cell.size != 1}
        if shapes:
            raise ValueError(f"{where}: PKSampler's class_column {column!r} needs one value per "
                             f"row, but rows have shapes {sorted(shapes)}")
        values = np.array([cell.item() for cell in cells])
        return {label.item(): np.flatnonzero(values == label) for label in np.unique(values)}

    def is_shuffled(self) -> bool:
        return isinstance(self._sampler, RandomSampler | SubsetRandomSampler) or (
            isinstance(self._sampler, DistributedSampler) and self._sampler.shuffle)

    def is_sharded(self) -> bool:
        return isinstance(self._sampler, DistributedSampler) and self._sampler.num_shards > 1

    def split(self, sizes: list[int] | list[float], randomize: bool = True) -> tuple[Any, ...]:
        from ember.dataset.splitting import split_source

        return split_source(self, sizes, randomize)

    def _rows(self, run: _Run) -> Iterator[Row]:
        indices = self._sampler._indices_for(self, run.spawn())
        return _ordered_map(self._fetch, indices.tolist(), self._workers)

    def _known_size(self) -> int | None:
        return self._sampler._count_for(self)


class GeneratorDataset(MappableDataset):
    """A dataset whose rows come from ``source``, as ``mindspore.dataset.GeneratorDataset``.

    ``source`` is one of: random-accessible (``__getitem__`` and ``__len__``; ``source[i]`` is a
    row), iterable (``iter(source)`` is taken each epoch) or a callable returning an iterator (a
    generator function, called each epoch). A row is a tuple or list of column values (arrays,
    numbers, strings, Tensors) or one value for a single column; each becomes a NumPy array of
    its own (Python ints Int64, floats Float64). ``column_types`` (ember dtypes, None for any)
    are checked, not cast; a ``schema`` (a ``Schema`` or its JSON file) gives the column names
    and types instead. A one-shot iterator (a generator object) gives one epoch only: pass
    the generator function instead; a later epoch, or ``get_dataset_size``, raises
    RuntimeError rather than reading nothing.

    Only a random-accessible source takes ``shuffle`` (default: shuffled), ``sampler`` (a sampler
    of ``ember.dataset.samplers`` or an iterable of row indices, read each epoch) and
    ``num_shards``/``shard_id`` (a DistributedSampler: shard ``k`` gets rows ``k, k + num_shards,
    ...`` of the possibly shuffled order, ``ceil(n / num_shards)`` of them, wrapping around); set
    the same seed on every process so shuffled shards split one order. ``num_samples`` caps the
    rows (per shard; shuffled, they are drawn with replacement, as in MindSpore).
    ``num_parallel_workers`` > 1 reads a random-accessible source on a thread pool (also with
    ``python_multiprocessing``, which asks MindSpore for processes; ``max_rowsize`` is checked
    only).
    """

    def __init__(self, source: Any, column_names: str | list[str] | None = None,
                 column_types: list[mstype.Type] | None = None,
                 schema: Schema | str | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None,
                 python_multiprocessing: bool = True, max_rowsize: int = 6) -> None:
        where = self._where = type(self).__name__
        check_process_options(python_multiprocessing, max_rowsize, where)
        self._source = source
        if schema is not None:  # it wins over column_names and column_types, as in MindSpore
            columns = (schema if isinstance(schema, Schema) else Schema(schema)).columns
            self._names = check_names([c["name"] for c in columns], where, "schema's columns")
            self._types: list[np.dtype | None] | None = [DE_TYPES[c["type"]] for c in columns]
            self._declared = "the schema"
        elif column_names is None:
            raise ValueError(f"{where}: Neither columns_names nor schema are provided.")
        else:
            self._names = check_names(column_names, where, "column_names")
            self._types = self._check_types(column_types)
            self._declared = "column_types"
        self._random_access = hasattr(source, "__getitem__")
        if self._random_access and not hasattr(source, "__len__"):
            raise TypeError(f"{where}: a source with __getitem__ must also have __len__, but "
                            f"{type(source).__name__} has none")
        if not self._random_access and not hasattr(source, "__iter__") and not callable(source):
            raise TypeError(f"{where}: source must be random-accessible (__getitem__ and "
                            "__len__), iterable, or a callable returning an iterator, but got "
                            f"{type(source).__name__}")
        if num_samples is not None:
            check_int(num_samples, where, "num_samples", minimum=1)
        self._num_samples = num_samples
        self._one_shot = not self._random_access and _is_one_shot(source)
        self._used = False
        if not self._random_access:
            for name, value in (("shuffle", shuffle or None), ("sampler", sampler),
                                ("num_shards", num_shards)):
                if value is not None:  # shuffle=False says what a stream does anyway
                    raise ValueError(f"{where}: {name} needs a random-accessible source "
                                     f"(__getitem__ and __len__), but {type(source).__name__} "
                                     "is not")
            shuffle = False
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id)
        if self._one_shot:
            warnings.warn(f"{where}: source is a one-shot iterator ({type(source).__name__}), "
                          "good for one epoch only; pass a callable that returns a new "
                          "iterator (the generator function) or a re-iterable source",
                          stacklevel=2)

    def _check_types(self, column_types: Any) -> list[np.dtype | None] | None:
        if column_types is None:
            return None
        if (not isinstance(column_types, list | tuple)
                or not all(t is None or isinstance(t, mstype.Type) for t in column_types)):
            raise TypeError(f"{self._where}: column_types must be a list of ember dtypes such as "
                            f"ember.float32 (None: any), but got {column_types!r}")
        if len(column_types) != len(self._names):
            raise ValueError(f"{self._where}: column_types has {len(column_types)} entries but "
                             f"column_names has {len(self._names)}")
        return [None if t is None else t.np_dtype for t in column_types]

    def _columns(self) -> list[str]:
        return list(self._names)

    # -- rows --------------------------------------------------------------------------------
    def _row(self, value: Any) -> Row:
        """One row from the source as a tuple of NumPy arrays, checked against the columns."""
        where = self._where
        if isinstance(value, dict):
            raise TypeError(f"{where}: a row must be a tuple or list of column values, or one "
                            "value, but the source gave a dict")
        items = value if isinstance(value, tuple | list) else (value,)
        row = tuple(to_array(item, where) for item in items)
        if len(row) != len(self._names):
            raise ValueError(f"{where}: the source gave a row of {len(row)} columns, but "
                             f"column_names has {len(self._names)}: {self._names}")
        if self._types is not None:
            for array, expected, name in zip(row, self._types, self._names):
                if expected is not None and array.dtype != expected and not (
                        expected.kind == "S" and array.dtype.kind in "SU"):
                    declared = "string" if expected.kind == "S" else mstype.from_numpy(expected)
                    raise TypeError(f"{where}: column {name!r} holds {array.dtype}, but "
                                    f"{self._declared} says {declared}")
        return row

    def _by_index(self) -> bool:
        return self._random_access

    def _length(self) -> int:
        return len(self._source)

    def _read(self, index: int) -> Row:
        return self._row(self._source[index])

    def _rows(self, run: _Run) -> Iterator[Row]:
        if self._random_access:
            yield from super()._rows(run)
            return
        if self._one_shot:
            if self._used:
                raise RuntimeError(f"{self._where}: the source, a one-shot iterator "
                                   f"({type(self._source).__name__}), was used up by an earlier "
                                   "epoch; pass the generator function or a re-iterable source "
                                   "to read more than one epoch")
            self._used = True
        if hasattr(self._source, "__iter__"):
            values = iter(self._source)
        else:
            values = self._source()
            if not hasattr(values, "__next__"):
                raise TypeError(f"{self._where}: the source callable must return an iterator "
                                f"(a generator), but returned {type(values).__name__}")
        if self._num_samples is not None:
            values = itertools.islice(values, self._num_samples)
        for value in values:
            yield self._row(value)

    def _known_size(self) -> int | None:
        if self._random_access:
            return super()._known_size()
        if self._one_shot:
            raise RuntimeError(f"{self._where}: the size of a one-shot iterator source "
                               f"({type(self._source).__name__}) is unknown: counting would "
                               "use it up; pass the generator function or a source with __len__")
        if not hasattr(self._source, "__len__"):
            return None
        size = len(self._source)
        return size if self._num_samples is None else min(size, self._num_samples)


def _is_one_shot(source: Any) -> bool:
    """Whether ``source`` is an iterator that is its own iterable (read once, then empty)."""
    return hasattr(source, "__next__") and iter(source) is source


class _Slices:
    """Columns of equal length, read as rows ``(column_0[i], column_1[i], ...)``."""

    def __init__(self, columns: list[np.ndarray]) -> None:
        self._columns = columns

    def __len__(self) -> int:
        return len(self._columns[0])

    def __getitem__(self, index: int) -> tuple:
        return tuple(column[index] for column in self._columns)


class NumpySlicesDataset(GeneratorDataset):
    """Rows sliced along the first axis of in-memory data, as
    ``mindspore.dataset.NumpySlicesDataset``.

    ``data`` is a list or a NumPy array (one column), a tuple (one column per item) or a dict
    (one column per key, named by it; pandas-like values with ``.values`` are read through it).
    Columns keep the dtype NumPy gives them and default to the names ``column_0``, ``column_1``,
    ... . Rows are shuffled unless ``shuffle=False``, as in MindSpore; the other arguments are
    ``GeneratorDataset``'s.
    """

    def __init__(self, data: Any, column_names: str | list[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        where = type(self).__name__
        if isinstance(data, dict):
            names = list(data)
            if not all(isinstance(name, str) for name in names):
                raise TypeError(f"{where}: the keys of a dict data must be str, but got {names}")
            items = [getattr(value, "values", value) for value in data.values()]
        elif isinstance(data, tuple):
            items = list(data)
            names = [f"column_{i}" for i in range(len(items))]
        elif isinstance(data, list | np.ndarray):
            items = [data]
            names = ["column_0"]
        else:
            raise TypeError(f"{where}: data must be a list, tuple, dict or NumPy array, but got "
                            f"{type(data).__name__}")
        if not items:
            raise ValueError(f"{where}: data has no columns")
        columns = [self._column(item, name, where) for item, name in zip(items, names)]
        if not len(columns[0]):
            raise ValueError(f"{where}: data must have rows, but column {names[0]!r} is empty")
        lengths = {name: len(column) for name, column in zip(names, columns)}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"{where}: every column needs the same number of rows, but got "
                             f"{lengths}")
        if column_names is not None:
            given = check_names(column_names, where, "column_names")
            if len(given) != len(columns):
                raise ValueError(f"{where}: column_names has {len(given)} names but data has "
                                 f"{len(columns)} columns")
            names = given
        super().__init__(_Slices(columns), names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)

    @staticmethod
    def _column(item: Any, name: str, where: str) -> np.ndarray:
        try:
            column = np.array(item)  # a copy: later changes to the caller's data do not leak in
        except ValueError:
            column = np.empty(0, dtype=object)
        if column.dtype == np.dtype(object):
            raise TypeError(f"{where}: column {name!r} must be numbers, booleans or strings of "
                            "one shape per row, but NumPy reads it as objects")
        if column.ndim == 0:
            raise ValueError(f"{where}: column {name!r} is a scalar; it needs a first axis to "
                             "slice rows from")
        return column
