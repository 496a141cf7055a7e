"""Iterators over datasets, as ``mindspore.dataset.engine.iterators``: the state one iterator
carries through its epochs (``_Run``), the rows it hands out (ember Tensors or NumPy arrays), and
``ITERATORS_LIST``, weak references to the live iterators, which ``_cleanup`` stops.
"""

from __future__ import annotations

import warnings
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.dataset import config
from ember.dataset._checks import check_bool, check_int, check_names, check_present

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ember.dataset.engine import Dataset, Row

_END = object()
#: Columns named with this prefix (a reader's ``extra_metadata``) are left out of the rows an
#: iterator gives until ``rename`` names them otherwise, as in MindSpore.
META_PREFIX = "_meta-"
#: Weak references to the live iterators (a stopped or collected one leaves the list).
ITERATORS_LIST: list[weakref.ref] = []


def _cleanup() -> None:
    """Stop every live iterator (MindSpore calls it at exit to release its pipelines)."""
    for ref in reversed(list(ITERATORS_LIST)):
        iterator = ref()
        if iterator is not None:
            iterator.stop()


class _Run:
    """The state one iterator carries through its epochs: the random generator the pipeline's
    random nodes seed themselves from, and the number of the iterator's epoch (from 0; what
    ``BatchInfo.get_epoch_num`` tells, the same through every ``repeat`` of one epoch, as in
    MindSpore)."""

    __slots__ = ("rng", "epoch")

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.epoch = 0

    def spawn(self) -> np.random.Generator:
        """A generator of its own for one epoch of a random node."""
        return np.random.default_rng(self.rng.integers(2**63))


def _quiet_run() -> _Run:
    """A run for looking at a pipeline (size, first row) without using up the user's seeds."""
    return _Run(0)


def _output(array: np.ndarray, output_numpy: bool, do_copy: bool) -> Any:
    """An iterator's value: the array, or an ember Tensor for numeric arrays."""
    if output_numpy:  # MindSpore's string columns are UTF-8 bytes
        return np.char.encode(array, "utf-8") if array.dtype.kind == "U" else array
    if array.dtype.kind not in "biuf":  # strings stay NumPy arrays: a Tensor holds numbers only
        return array.astype(np.str_) if array.dtype.kind == "S" else array  # as MindSpore's
    if do_copy:
        return Tensor(array)
    return Tensor._make(array, mstype.from_numpy(array.dtype), array.shape, None)


class _Iterator:
    """Rows of a dataset over ``num_epochs`` epochs.

    As in MindSpore, each ``for`` loop over the iterator runs one epoch: ``__next__`` raises
    StopIteration at the end of an epoch and the following call starts the next one. The iterator
    reads one row ahead, so it knows when a row is an epoch's last: a new ``iter()`` (a new loop,
    an ``itertools.islice`` of exactly one epoch's rows) after that row starts the next epoch
    without first raising StopIteration.
    """

    _where = "Dataset.create_tuple_iterator"

    def __init__(self, dataset: Dataset, columns: list[str] | None, num_epochs: int,
                 output_numpy: bool, do_copy: bool) -> None:
        where = self._where
        check_int(num_epochs, where, "num_epochs", minimum=1, also=-1)
        self._output_numpy = check_bool(output_numpy, where, "output_numpy")
        self._do_copy = check_bool(do_copy, where, "do_copy")
        names = dataset.get_col_names()
        self._names = ([n for n in names if not n.startswith(META_PREFIX)] if columns is None
                       else check_names(columns, where, "columns"))
        self._pick = check_present(self._names, names, where, "columns")
        self._dataset = dataset
        self._num_epochs = num_epochs
        self._epoch = 0
        self._run = _Run(config.iterator_seed())
        self._epoch_rows: Iterator[Row] | None = None  # None: the next call starts an epoch
        self._ahead: Any = _END  # the row read ahead, or _END after the epoch's last row
        self._epoch_empty = False
        self._stopped = False
        ITERATORS_LIST.append(weakref.ref(self, _forget))

    def stop(self) -> None:
        """End the iterator now: its pipeline is let go and a later ``next`` is an error."""
        self._stopped = True
        self._epoch_rows = None
        _forget(weakref.ref(self))

    release = stop

    def _end_epoch(self) -> None:
        self._epoch_rows = None
        self._epoch += 1

    def __iter__(self) -> _Iterator:
        if self._epoch_rows is not None and self._ahead is _END:
            self._end_epoch()  # the last row went out: a new loop is the next epoch
        return self

    def __next__(self) -> Any:
        if self._stopped:
            raise RuntimeError(f"{type(self).__name__}: the iterator was stopped (stop(), "
                               "release() or _cleanup()); create a new one")
        if self._epoch_rows is None:
            if self._epoch == self._num_epochs:
                raise StopIteration
            self._run.epoch = self._epoch
            self._epoch_rows = self._dataset._rows(self._run)
            self._ahead = next(self._epoch_rows, _END)
            self._epoch_empty = self._ahead is _END
        row = self._ahead
        if row is _END:
            if self._epoch_empty:
                warnings.warn(f"{type(self._dataset).__name__}: epoch {self._epoch + 1} gave no "
                              "rows: the dataset is empty (a used-up source, a filter or "
                              "num_samples that leaves nothing?)", stacklevel=2)
            self._end_epoch()
            raise StopIteration
        self._ahead = next(self._epoch_rows, _END)
        return self._convert([_output(row[i], self._output_numpy, self._do_copy)
                              for i in self._pick])

    def _convert(self, values: list[Any]) -> Any:
        return values


class TupleIterator(_Iterator):
    """Rows as lists of column values, as ``mindspore.dataset`` tuple iterators."""


class DictIterator(_Iterator):
    """Rows as dicts from column name to value."""

    _where = "Dataset.create_dict_iterator"

    def _convert(self, values: list[Any]) -> dict[str, Any]:
        return dict(zip(self._names, values))


def _forget(ref: weakref.ref) -> None:
    """Take an iterator's reference out of ITERATORS_LIST (refs to one object compare equal
    while it lives; a dead ref only to itself)."""
    for index in range(len(ITERATORS_LIST) - 1, -1, -1):
        if ITERATORS_LIST[index] is ref or ITERATORS_LIST[index] == ref:
            del ITERATORS_LIST[index]
