"""Dataset pipelines, as ``mindspore.dataset``: lazy operations over rows of NumPy arrays.

A dataset is a tree of nodes; each operation (``batch``, ``map``, ``shuffle``, ...) returns a new
node over the old one and nothing runs until an iterator pulls rows. One epoch of a node is the
generator ``_rows(run)``: it pulls rows from its child only as they are needed, so a source that
streams (an endless generator, a file reader) is never materialised.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ember.common.tensor import Tensor
from ember.dataset._checks import (
    check_int,
    check_names,
    check_present,
    check_process_options,
    check_workers,
)
from ember.dataset.engine.iterators import (
    _END,
    DictIterator,
    TupleIterator,
    _quiet_run,
    _Run,
)
from ember.dataset.samplers import BuiltinSampler

if TYPE_CHECKING:
    from ember.dataset.batching import BatchDataset, BatchInfo, BucketBatchByLengthDataset

Row = tuple[np.ndarray, ...]
_T = TypeVar("_T")
_R = TypeVar("_R")
COUNT_LIMIT = 10_000_000  # rows get_dataset_size counts before it calls the size unknown


def to_array(value: Any, where: str) -> np.ndarray:
    """One column value (array, number, string, Tensor) as a NumPy array of its own."""
    if isinstance(value, Tensor):
        return value.asnumpy()
    array = np.array(value)
    if array.dtype == np.dtype(object):
        raise TypeError(f"{where}: a column value must be a NumPy array, a number, a string or "
                        f"a Tensor (or an equal-shaped nest of them), but got "
                        f"{type(value).__name__} {value!r:.80}")
    return array


def _ordered_map(fn: Callable[[_T], _R], items: Iterable[_T], workers: int) -> Iterator[_R]:
    """``map(fn, items)`` in order; with several workers, up to ``2 * workers`` items run ahead
    on a thread pool (NumPy releases the GIL, so transforms overlap)."""
    if workers == 1:
        for item in items:
            yield fn(item)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending: deque = deque()
        try:
            for item in items:
                pending.append(pool.submit(fn, item))
                if len(pending) >= 2 * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


class Dataset(ABC):
    """The base of every dataset: a lazy pipeline of rows whose columns are NumPy arrays.

    Iterating a dataset (``for row in ds``) is ``create_tuple_iterator(num_epochs=1)``.
    """

    def __init__(self) -> None:
        self._counted: int | None = None
        self._first: Row | None = None

    # -- what each node defines ------------------------------------------------------------
    def get_col_names(self) -> list[str]:
        """The names of the columns, in row order."""
        return list(self._columns())

    @abstractmethod
    def _columns(self) -> list[str]:
        """The column names (a list the caller may change)."""

    @abstractmethod
    def _rows(self, run: _Run) -> Iterator[Row]:
        """One epoch of rows."""

    def _known_size(self) -> int | None:
        """The rows of one epoch when known without running the pipeline, else None."""
        return None

    def _children(self) -> list[Dataset]:
        """The datasets this node reads from."""
        return []

    def _by_index(self) -> bool:
        """Whether this node is a source read by row index, which takes a sampler."""
        return False

    def _counted_size(self) -> int:
        """The rows of one epoch, found by running what must run (no Tensors are made); a
        RuntimeError past ``COUNT_LIMIT`` rows, where an endless source would hang."""
        count = 0
        rows = self._rows(_quiet_run())
        try:
            for _ in rows:
                if count == COUNT_LIMIT:
                    raise RuntimeError(
                        f"{type(self).__name__}.get_dataset_size: the size is unknown: an epoch "
                        f"ran past {COUNT_LIMIT:,} rows without ending (an endless source?); "
                        "give the source a __len__, or cap it with num_samples or take()")
                count += 1
        finally:
            rows.close()
        return count

    # -- information -----------------------------------------------------------------------
    def get_dataset_size(self) -> int:
        """The number of rows (batches after ``batch``) in one epoch.

        Computed from the sources' lengths when they have one; otherwise one epoch runs once
        (streaming, and the result is kept). ``repeat()`` forever counts one repetition, as in
        MindSpore.
        """
        size = self._known_size()
        if size is not None:
            return size
        if self._counted is None:
            self._counted = self._counted_size()
        return self._counted

    def get_batch_size(self) -> int:
        """The batch size of the last ``batch`` in the pipeline (1 without one, -1 when a
        callable chooses it per batch)."""
        return 1

    def output_shapes(self) -> list[list[int]]:
        """The shape of each column in the first row."""
        return [list(array.shape) for array in self._first_row()]

    def output_types(self) -> list[np.dtype]:
        """The NumPy dtype of each column in the first row."""
        return [array.dtype for array in self._first_row()]

    def _first_row(self) -> Row:
        if self._first is None:
            rows = self._rows(_quiet_run())
            try:
                row = next(rows, None)
            finally:
                rows.close()
            if row is None:
                raise RuntimeError(f"{type(self).__name__}: the dataset has no rows, so it has "
                                   "no output shapes or types")
            self._first = row
        return self._first

    def get_class_indexing(self) -> dict:
        """The class index of the source under this dataset (its first one), as MindSpore's:
        ``{}`` for a source without classes."""
        children = self._children()
        return children[0].get_class_indexing() if children else {}

    def num_classes(self) -> int | None:
        """The number of classes of the source under this dataset (its first one); None when
        it does not know."""
        children = self._children()
        return children[0].num_classes() if children else None

    def use_sampler(self, new_sampler: BuiltinSampler) -> None:
        """Read every source under this dataset with ``new_sampler``, as MindSpore's
        ``use_sampler`` (each source must be read by index; a concat is refused: MindSpore
        samples a concatenation as a whole, which ember does not)."""
        where = f"{type(self).__name__}.use_sampler"
        if not isinstance(new_sampler, BuiltinSampler):
            raise TypeError(f"{where}: new_sampler is not an instance of a sampler, but a "
                            f"{type(new_sampler).__name__}")
        nodes = [self]
        for node in nodes:
            nodes.extend(node._children())
        if any(isinstance(node, ConcatDataset) for node in nodes):
            raise ValueError(f"{where}: the pipeline holds a concat, whose rows MindSpore samples "
                             "as a whole; ember samples sources only: call use_sampler on them")
        streams = [type(n).__name__ for n in nodes if not n._children() and not n._by_index()]
        if streams:
            raise ValueError(f"{where}: {streams} read their rows in order (streams); a sampler "
                             "needs sources read by index")
        for node in nodes:
            node._counted = node._first = None
            if node._by_index():
                node._sampler = new_sampler  # type: ignore[attr-defined]

    # -- iteration -------------------------------------------------------------------------
    def create_tuple_iterator(self, columns: list[str] | None = None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = True) -> TupleIterator:
        """An iterator of rows as lists (of ember Tensors, or NumPy arrays with
        ``output_numpy=True``), over ``num_epochs`` epochs (-1: any number); each ``for`` loop
        over it runs one epoch."""
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False
                             ) -> DictIterator:
        """As ``create_tuple_iterator``, with each row a dict from column name to value."""
        return DictIterator(self, None, num_epochs, output_numpy, True)

    def __iter__(self) -> TupleIterator:
        return self.create_tuple_iterator(num_epochs=1)

    # -- operations ------------------------------------------------------------------------
    def shuffle(self, buffer_size: int) -> ShuffleDataset:
        """Rows in random order, drawn from a buffer of ``buffer_size`` rows (equal to the dataset
        size: a global shuffle). Each epoch shuffles anew."""
        return ShuffleDataset(self, buffer_size)

    def batch(self, batch_size: int | Callable[[BatchInfo], int], drop_remainder: bool = False,
              num_parallel_workers: int | None = None,
              per_batch_map: Callable[..., tuple] | None = None,
              input_columns: str | list[str] | None = None,
              output_columns: str | list[str] | None = None,
              column_order: list[str] | None = None,
              pad_info: dict[str, Any] | None = None, python_multiprocessing: bool = False,
              max_rowsize: int = 16) -> BatchDataset:
        """Rows grouped into batches: each column stacked (``np.stack``) along a new first axis.

        ``batch_size`` is an int or a callable taking a ``BatchInfo``. ``drop_remainder`` drops a
        last, smaller batch. ``per_batch_map(col_list, ..., batch_info)`` receives the
        ``input_columns`` (default: all) as lists of arrays and returns a tuple of lists, one per
        ``output_columns`` name (default: the input names). ``pad_info`` pads columns before
        stacking: ``{"col": (shape, pad_value)}`` pads ``col`` to ``shape`` (a None dimension,
        or a None shape: the batch's longest) with ``pad_value`` (None: 0 or ""), cutting what
        is longer, as MindSpore; ``{}`` pads every column to the batch's longest with 0.
        ``python_multiprocessing`` and ``max_rowsize`` are as ``map``'s.
        """
        from ember.dataset.batching import BatchDataset

        check_process_options(python_multiprocessing, max_rowsize, "Dataset.batch")
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                            per_batch_map, input_columns, output_columns, column_order, pad_info)

    def padded_batch(self, batch_size: int | Callable[[BatchInfo], int],
                     drop_remainder: bool = False, num_parallel_workers: int | None = None,
                     pad_info: dict[str, Any] | None = None) -> BatchDataset:
        """``batch`` with ``pad_info`` (MindSpore 2's name); no pad_info pads every column."""
        from ember.dataset.batching import BatchDataset

        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, None, None,
                            None, None, {} if pad_info is None else pad_info)

    def bucket_batch_by_length(self, column_names: str | list[str],
                               bucket_boundaries: list[int], bucket_batch_sizes: list[int],
                               element_length_function: Callable[..., int] | None = None,
                               pad_info: dict[str, Any] | None = None,
                               pad_to_bucket_boundary: bool = False,
                               drop_remainder: bool = False) -> BucketBatchByLengthDataset:
        """Rows batched with rows of similar length.

        The length of a row is ``element_length_function(*columns)`` of ``column_names`` (default:
        the first dimension of the one column named). Bucket ``i`` takes lengths in
        ``[bucket_boundaries[i-1], bucket_boundaries[i])`` (the first from 0, the last without
        end) and gives a batch when it holds ``bucket_batch_sizes[i]`` rows; at the end of the
        epoch the buckets that are not empty give their batches in bucket order (unless
        ``drop_remainder``). With ``pad_info`` (as ``batch``'s) the columns it names are padded as
        it says and the others to the batch's longest with 0; ``pad_to_bucket_boundary`` pads None
        dimensions to the bucket's boundary minus 1 instead.
        """
        from ember.dataset.batching import BucketBatchByLengthDataset

        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries,
                                          bucket_batch_sizes, element_length_function, pad_info,
                                          pad_to_bucket_boundary, drop_remainder)

    def zip(self, datasets: Dataset | tuple[Dataset, ...]) -> ZipDataset:
        """This dataset's columns side by side with those of ``datasets`` (one or a tuple); the
        names must differ; as many rows as the shortest."""
        return ZipDataset((self, *(datasets if isinstance(datasets, tuple) else (datasets,))))

    def concat(self, datasets: Dataset | list[Dataset]) -> ConcatDataset:
        """The rows of this dataset, then those of ``datasets`` (one or a list), which must have
        the same columns. ``a + b`` is ``a.concat(b)``."""
        return ConcatDataset([self, *(datasets if isinstance(datasets, list) else [datasets])])

    def __add__(self, other: Dataset) -> ConcatDataset:
        return self.concat(other)

    def repeat(self, count: int | None = None) -> RepeatDataset:
        """The dataset ``count`` times over (None or -1: forever)."""
        return RepeatDataset(self, count)

    def map(self, operations: Callable[..., Any] | list[Callable[..., Any]],
            input_columns: str | list[str] | None = None,
            output_columns: str | list[str] | None = None,
            column_order: list[str] | None = None,
            num_parallel_workers: int | None = None, python_multiprocessing: bool = False,
            max_rowsize: int = 16) -> MapDataset:
        """Apply ``operations`` (a callable or a list run in order) to ``input_columns`` (default:
        the first column) of each row. An operation returns one value or a tuple of values; they
        become ``output_columns`` (default: the input names). With as many outputs as inputs they
        replace the inputs in place; otherwise they come first, followed by the untouched columns.
        ``column_order`` then picks and orders the columns. ``num_parallel_workers`` > 1 runs rows
        on a thread pool, keeping their order (also with ``python_multiprocessing=True``, which
        asks MindSpore for processes; ``max_rowsize`` is checked only)."""
        check_process_options(python_multiprocessing, max_rowsize, "Dataset.map")
        return MapDataset(self, operations, input_columns, output_columns, column_order,
                          num_parallel_workers)

    def filter(self, predicate: Callable[..., Any], input_columns: str | list[str] | None = None,
               num_parallel_workers: int | None = None) -> FilterDataset:
        """Only the rows for which ``predicate(*input_columns)`` (default: all columns) is true;
        ``num_parallel_workers`` > 1 evaluates it on a thread pool, keeping the order."""
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def apply(self, apply_func: Callable[[Dataset], Dataset]) -> Dataset:
        """``apply_func(self)``, which must return a dataset (a reusable piece of pipeline)."""
        if not callable(apply_func):
            raise TypeError(f"Dataset.apply: apply_func must be a function, but got "
                            f"{type(apply_func).__name__}")
        dataset = apply_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError(f"Dataset.apply: apply_func must return a dataset, but returned "
                            f"{type(dataset).__name__}")
        return dataset

    def flat_map(self, func: Callable[[list[np.ndarray]], Dataset]) -> Dataset:
        """The datasets ``func`` returns for each row (a list of NumPy arrays), one after the
        other; as MindSpore's, the rows are read now, once."""
        if not callable(func):
            raise TypeError("func must be a function.")
        datasets = [func(row) for row in self.create_tuple_iterator(num_epochs=1,
                                                                    output_numpy=True)]
        if not datasets or not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError("flat_map must return a Dataset object.")
        return datasets[0] if len(datasets) == 1 else ConcatDataset(datasets)

    def split(self, sizes: list[int] | list[float], randomize: bool = True
              ) -> tuple[Dataset, ...]:
        """Non-overlapping datasets of ``sizes`` rows (ints summing to the dataset size, or
        fractions summing to 1, rounded as MindSpore rounds them), consecutive rows of one order:
        with ``randomize`` a random order drawn once, the same every epoch. A source read by index
        splits into sources of its own, which ``use_sampler`` can shard."""
        from ember.dataset.splitting import split_pipeline

        return split_pipeline(self, sizes, randomize)

    def is_shuffled(self) -> bool:
        """Whether a source under this dataset shuffles its rows."""
        return any(child.is_shuffled() for child in self._children())

    def is_sharded(self) -> bool:
        """Whether a source under this dataset reads one shard of several."""
        return any(child.is_sharded() for child in self._children())

    def project(self, columns: str | list[str]) -> ProjectDataset:
        """Only ``columns``, in that order."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns: str | list[str], output_columns: str | list[str]
               ) -> RenameDataset:
        """The columns ``input_columns`` renamed to ``output_columns``."""
        return RenameDataset(self, input_columns, output_columns)

    def take(self, count: int = -1) -> TakeDataset:
        """The first ``count`` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count: int) -> SkipDataset:
        """All rows after the first ``count``."""
        return SkipDataset(self, count)


# -- operations ------------------------------------------------------------------------------
class _Unary(Dataset):
    """A node over one child; by default it keeps the child's columns and size."""

    def __init__(self, child: Dataset) -> None:
        super().__init__()
        self.child = child

    def _columns(self) -> list[str]:
        return self.child._columns()

    def _children(self) -> list[Dataset]:
        return [self.child]

    def get_batch_size(self) -> int:
        return self.child.get_batch_size()

    def _derive(self, size: int) -> int | None:
        """This node's size from its child's (None: it must be counted)."""
        return size

    def _known_size(self) -> int | None:
        size = self.child._known_size()
        return None if size is None else self._derive(size)

    def _counted_size(self) -> int:
        size = self._derive(self.child.get_dataset_size())
        return super()._counted_size() if size is None else size


class ShuffleDataset(_Unary):
    """``Dataset.shuffle``: MindSpore's buffer shuffle; with a ``seed`` the same order each
    epoch (``split``'s)."""

    def __init__(self, child: Dataset, buffer_size: int, seed: int | None = None) -> None:
        super().__init__(child)
        self.buffer_size = check_int(buffer_size, "Dataset.shuffle", "buffer_size", minimum=2)
        self.seed = seed

    def _rows(self, run: _Run) -> Iterator[Row]:
        rng = run.spawn() if self.seed is None else np.random.default_rng(self.seed)
        return buffer_shuffle(self.child._rows(run), self.buffer_size, rng)


def buffer_shuffle(rows: Iterator[Row], buffer_size: int,
                   rng: np.random.Generator) -> Iterator[Row]:
    """``rows`` in random order: each row out is drawn from a buffer of the next
    ``buffer_size`` rows, which the following row refills."""
    buffer = list(itertools.islice(rows, buffer_size))
    while buffer:
        i = int(rng.integers(len(buffer)))
        row = buffer[i]
        buffer[i] = buffer[-1]
        buffer.pop()
        yield row
        refill = next(rows, _END)
        if refill is not _END:
            buffer.append(refill)


class RepeatDataset(_Unary):
    """``Dataset.repeat``."""

    def __init__(self, child: Dataset, count: int | None) -> None:
        super().__init__(child)
        self.count = check_int(-1 if count is None else count, "Dataset.repeat", "count",
                               minimum=1, also=-1)

    def _derive(self, size: int) -> int:
        return size if self.count == -1 else size * self.count

    def _rows(self, run: _Run) -> Iterator[Row]:
        repeats = itertools.count() if self.count == -1 else range(self.count)
        for _ in repeats:
            empty = True
            for row in self.child._rows(run):
                empty = False
                yield row
            if empty:
                return  # an empty dataset repeated forever is empty, not a hang


class TakeDataset(_Unary):
    """``Dataset.take``."""

    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__(child)
        self.count = check_int(count, "Dataset.take", "count", minimum=1, also=-1)

    def _derive(self, size: int) -> int:
        return size if self.count == -1 else min(size, self.count)

    def _counted_size(self) -> int:
        return Dataset._counted_size(self)  # the child may be endless: count what is taken

    def _rows(self, run: _Run) -> Iterator[Row]:
        rows = self.child._rows(run)
        try:
            yield from rows if self.count == -1 else itertools.islice(rows, self.count)
        finally:
            rows.close()


class SkipDataset(_Unary):
    """``Dataset.skip``."""

    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__(child)
        self.count = check_int(count, "Dataset.skip", "count", minimum=0)

    def _derive(self, size: int) -> int:
        return max(size - self.count, 0)

    def _rows(self, run: _Run) -> Iterator[Row]:
        yield from itertools.islice(self.child._rows(run), self.count, None)


class FilterDataset(_Unary):
    """``Dataset.filter``."""

    _where = "Dataset.filter"

    def __init__(self, child: Dataset, predicate: Any, input_columns: Any,
                 num_parallel_workers: int | None) -> None:
        super().__init__(child)
        if not callable(predicate):
            raise TypeError(f"{self._where}: predicate must be callable, but got {predicate!r}")
        self.predicate = predicate
        names = child._columns()
        inputs = names if input_columns is None else check_names(input_columns, self._where,
                                                                 "input_columns")
        self._inputs = check_present(inputs, names, self._where, "input_columns")
        self._workers = check_workers(num_parallel_workers, self._where)

    def _derive(self, size: int) -> None:
        return None  # which rows pass is known only by reading them

    def _keep(self, row: Row) -> tuple[bool, Row]:
        return bool(self.predicate(*(row[i] for i in self._inputs))), row

    def _rows(self, run: _Run) -> Iterator[Row]:
        for keep, row in _ordered_map(self._keep, self.child._rows(run), self._workers):
            if keep:
                yield row


class ProjectDataset(_Unary):
    """``Dataset.project``."""

    def __init__(self, child: Dataset, columns: str | list[str]) -> None:
        super().__init__(child)
        self._names = check_names(columns, "Dataset.project", "columns")
        self._pick = check_present(self._names, child._columns(), "Dataset.project", "columns")

    def _columns(self) -> list[str]:
        return list(self._names)

    def _rows(self, run: _Run) -> Iterator[Row]:
        for row in self.child._rows(run):
            yield tuple(row[i] for i in self._pick)


class RenameDataset(_Unary):
    """``Dataset.rename``."""

    def __init__(self, child: Dataset, input_columns: str | list[str],
                 output_columns: str | list[str]) -> None:
        super().__init__(child)
        where = "Dataset.rename"
        old = check_names(input_columns, where, "input_columns")
        new = check_names(output_columns, where, "output_columns")
        if len(old) != len(new):
            raise ValueError(f"{where}: input_columns and output_columns must have the same "
                             f"length, but got {old} and {new}")
        names = child._columns()
        for i, name in zip(check_present(old, names, where, "input_columns"), new):
            names[i] = name
        self._names = _distinct(names, where)

    def _columns(self) -> list[str]:
        return list(self._names)

    def _rows(self, run: _Run) -> Iterator[Row]:
        return self.child._rows(run)


def _distinct(names: list[str], where: str) -> list[str]:
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"{where}: the resulting columns {names} repeat {repeated}")
    return names


class _ColumnPlan:
    """Where the outputs of ``map`` or of ``batch``'s ``per_batch_map`` go (MindSpore's rule):
    as many outputs as inputs replace the inputs in place; otherwise the outputs come first and
    the untouched columns follow. ``column_order`` then picks and orders the result."""

    def __init__(self, where: str, names: list[str], input_columns: list[str],
                 output_columns: Any, column_order: Any) -> None:
        self.inputs = check_present(input_columns, names, where, "input_columns")
        outputs = (list(input_columns) if output_columns is None
                   else check_names(output_columns, where, "output_columns"))
        width = len(names)
        if len(outputs) == len(self.inputs):
            result = list(names)
            pick = list(range(width))
            for k, i in enumerate(self.inputs):
                result[i] = outputs[k]
                pick[i] = width + k
        else:
            kept = [i for i in range(width) if i not in self.inputs]
            result = outputs + [names[i] for i in kept]
            pick = [width + k for k in range(len(outputs))] + kept
        _distinct(result, where)
        if column_order is not None:
            order = check_names(column_order, where, "column_order")
            pick = [pick[i] for i in check_present(order, result, where, "column_order")]
            result = order
        self.outputs = outputs
        self.names = result
        self._pick = pick

    def merge(self, row: Row | list, outputs: list[np.ndarray], where: str) -> Row:
        if len(outputs) != len(self.outputs):
            raise ValueError(f"{where}: the operations returned {len(outputs)} columns, but "
                             f"output_columns names {len(self.outputs)}: {self.outputs}")
        combined = [*row, *outputs]
        return tuple(combined[p] for p in self._pick)


class MapDataset(_Unary):
    """``Dataset.map``."""

    _where = "Dataset.map"

    def __init__(self, child: Dataset, operations: Any, input_columns: Any, output_columns: Any,
                 column_order: Any, num_parallel_workers: int | None) -> None:
        super().__init__(child)
        where = self._where
        ops = operations if isinstance(operations, list | tuple) else [operations]
        if not ops or not all(callable(op) for op in ops):
            raise TypeError(f"{where}: operations must be a callable or a non-empty list of "
                            f"callables, but got {operations!r}")
        self.operations = list(ops)
        names = child._columns()
        inputs = names[:1] if input_columns is None else check_names(input_columns, where,
                                                                     "input_columns")
        self._plan = _ColumnPlan(where, names, inputs, output_columns, column_order)
        self._workers = check_workers(num_parallel_workers, where)

    def _columns(self) -> list[str]:
        return list(self._plan.names)

    def _apply(self, row: Row) -> Row:
        values: Any = tuple(row[i] for i in self._plan.inputs)
        for op in self.operations:
            values = op(*values) if isinstance(values, tuple) else op(values)
        outputs = values if isinstance(values, tuple) else (values,)
        return self._plan.merge(row, [to_array(v, self._where) for v in outputs], self._where)

    def _rows(self, run: _Run) -> Iterator[Row]:
        return _ordered_map(self._apply, self.child._rows(run), self._workers)


class ZipDataset(Dataset):
    """``Dataset.zip`` and ``ember.dataset.zip``."""

    _where = "Dataset.zip"

    def __init__(self, datasets: tuple[Dataset, ...]) -> None:
        super().__init__()
        if len(datasets) < 2 or not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError(f"{self._where}: datasets must be a tuple of at least two datasets, "
                            f"but got {datasets!r:.120}")
        self.children = list(datasets)
        self._names = _distinct([n for d in datasets for n in d._columns()], self._where)

    def _children(self) -> list[Dataset]:
        return list(self.children)

    def _columns(self) -> list[str]:
        return list(self._names)

    def _known_size(self) -> int | None:
        sizes = [d._known_size() for d in self.children]
        return None if None in sizes else min(sizes)

    def _rows(self, run: _Run) -> Iterator[Row]:
        streams = [d._rows(run) for d in self.children]
        try:
            while True:
                rows = [next(stream, _END) for stream in streams]
                if any(row is _END for row in rows):
                    return
                yield tuple(array for row in rows for array in row)
        finally:
            for stream in streams:
                stream.close()


class ConcatDataset(Dataset):
    """``Dataset.concat`` and ``+``."""

    _where = "Dataset.concat"

    def __init__(self, datasets: list[Dataset]) -> None:
        super().__init__()
        if not all(isinstance(d, Dataset) for d in datasets):
            raise TypeError(f"{self._where}: datasets must be datasets, but got "
                            f"{datasets!r:.120}")
        self.children = datasets
        names = datasets[0]._columns()
        for other in datasets[1:]:
            if other._columns() != names:
                raise ValueError(f"{self._where}: every dataset needs the same columns, but got "
                                 f"{names} and {other._columns()}")
        self._names = names

    def _columns(self) -> list[str]:
        return list(self._names)

    def _children(self) -> list[Dataset]:
        return list(self.children)

    def get_batch_size(self) -> int:
        return self.children[0].get_batch_size()

    def _known_size(self) -> int | None:
        sizes = [d._known_size() for d in self.children]
        return None if None in sizes else sum(sizes)

    def _counted_size(self) -> int:
        return sum(d.get_dataset_size() for d in self.children)

    def _rows(self, run: _Run) -> Iterator[Row]:
        kinds = None  # the dtype and rank of each column of the first dataset's first row
        for index, dataset in enumerate(self.children):
            first = True
            for row in dataset._rows(run):
                if first:
                    first, found = False, [(a.dtype, a.ndim) for a in row]
                    kinds = kinds or found
                    if found != kinds:
                        raise RuntimeError(
                            f"{self._where}: dataset {index} gives columns of (dtype, rank) "
                            f"{[(str(d), n) for d, n in found]} where the first gives "
                            f"{[(str(d), n) for d, n in kinds]}")
                yield row


def zip_datasets(datasets: tuple[Dataset, ...]) -> ZipDataset:
    """``ember.dataset.zip``: the columns of ``datasets`` (a tuple) side by side."""
    if not isinstance(datasets, tuple):
        raise TypeError(f"ember.dataset.zip: datasets must be a tuple of datasets, but got "
                        f"{type(datasets).__name__}")
    return ZipDataset(datasets)
