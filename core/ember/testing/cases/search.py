"""Cases of ``ember.ops.operations.search_ops``: SearchSorted against a scan of each row,
ConfusionMatrix against a count of each pair, with the values MindSpore's docstrings print."""

from __future__ import annotations

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, INTS, OpCase
from ember.testing.cases.math import values


def _search(right: bool, dtype: type = np.int64):
    """The first position of each row whose element exceeds v (is at least v, left)."""

    def reference(sequence: np.ndarray, wanted: np.ndarray) -> np.ndarray:
        rows = np.broadcast_to(sequence, wanted.shape[:-1] + sequence.shape[-1:])
        out = np.zeros(wanted.shape, dtype)
        for at in np.ndindex(*wanted.shape):
            row, v = rows[at[:-1]], wanted[at]
            out[at] = sum(1 for e in row if (e <= v if right else e < v))
        return out

    return reference


def _sorted_rows(shape: tuple[int, ...], count: int):
    def make(rng: np.random.Generator, dtype: type) -> tuple:
        sequence = np.sort(rng.integers(-5, 6, shape), axis=-1).astype(dtype)
        wanted = rng.integers(-6, 7, shape[:-1] + (count,)).astype(dtype)
        return sequence, wanted

    return make


def _confusion(num_classes: int):
    def reference(labels: np.ndarray, predictions: np.ndarray, weights=None) -> np.ndarray:
        out = np.zeros((num_classes, num_classes), labels.dtype)
        for k, (i, j) in enumerate(zip(labels.tolist(), predictions.tolist())):
            out[i, j] += 1 if weights is None else weights[k]
        return out

    return reference


def _pairs(n: int, num_classes: int, weighted: bool = False):
    def make(rng: np.random.Generator, dtype: type) -> tuple:
        pairs = rng.integers(0, num_classes, (2, n)).astype(dtype)
        return (*pairs, rng.integers(1, 4, n).astype(dtype)) if weighted else tuple(pairs)

    return make


_DOC = values([[0, 1, 3, 5, 7], [2, 4, 6, 8, 10]], [[3, 6, 9], [3, 6, 9]])

CASES: list[OpCase] = [
    OpCase("SearchSorted/documented", "SearchSorted", P.SearchSorted, _DOC,
           lambda s, v: np.array([[2, 4, 5], [1, 2, 4]], np.int64), FLOATS + INTS),
    OpCase("SearchSorted/rows-ties", "SearchSorted", P.SearchSorted, _sorted_rows((2, 3, 6), 5),
           _search(False), FLOATS + INTS),
    OpCase("SearchSorted/right-int32", "SearchSorted", lambda: P.SearchSorted(True, True),
           _sorted_rows((3, 6), 4), _search(True, np.int32), FLOATS + INTS),
    OpCase("SearchSorted/one-sequence", "SearchSorted", lambda: P.SearchSorted(right=True),
           _sorted_rows((7,), 4), _search(True), (np.float32, np.int32)),
    OpCase("SearchSorted/one-sequence-many-rows", "SearchSorted", P.SearchSorted,
           lambda rng, dt: (np.array([0, 2, 2, 5], dt), np.array([[2, 6], [-1, 3]], dt)),
           _search(False), (np.float32, np.int64)),
    OpCase("ConfusionMatrix/documented", "ConfusionMatrix", lambda: P.ConfusionMatrix(4),
           values([0, 1, 1, 3], [1, 2, 1, 3]),
           lambda labels, predictions: np.array([[0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0],
                                                 [0, 0, 0, 1]], labels.dtype), INTS),
    OpCase("ConfusionMatrix/counts", "ConfusionMatrix", lambda: P.ConfusionMatrix(3),
           _pairs(20, 3), _confusion(3), INTS),
    OpCase("ConfusionMatrix/weighted", "ConfusionMatrix", lambda: P.ConfusionMatrix(5),
           _pairs(12, 4, weighted=True), _confusion(5), INTS),
]
