"""Cases for ``ember.ops.operations.index_ops``: GatherD, EmbeddingLookup, segment reductions.

References loop element by element (or segment by segment) in NumPy.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import index_ops
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.array import ANY, NUMBERS, index, sample


def _gather_d(x: np.ndarray, dim: int, idx: np.ndarray) -> np.ndarray:
    out = np.empty(idx.shape, x.dtype)
    for at in np.ndindex(idx.shape):
        source = list(at)
        source[dim] = idx[at]
        out[at] = x[tuple(source)]
    return out


def _gather_d_grad(dim: int, shape: tuple) -> Callable[..., np.ndarray]:
    def reference(idx: np.ndarray, grad: np.ndarray) -> np.ndarray:
        out = np.zeros(shape, grad.dtype)
        for at in np.ndindex(idx.shape):
            target = list(at)
            target[dim] = idx[at]
            out[tuple(target)] += grad[at]
        return out

    return reference


def _embedding(params: np.ndarray, ids: np.ndarray, offset: int) -> np.ndarray:
    out = np.zeros(ids.shape + params.shape[1:], params.dtype)
    for at in np.ndindex(ids.shape):
        if 0 <= ids[at] - offset < len(params):
            out[at] = params[ids[at] - offset]
    return out


def _segments(combine: Callable, empty: Callable[[np.dtype], object]) -> Callable:
    """UnsortedSegment<Op>: each segment's members combined in order; ids out of range
    dropped; empty segments hold ``empty(dtype)``."""

    def reference(x: np.ndarray, ids: np.ndarray, n: int) -> np.ndarray:
        rows = x.reshape((ids.size,) + x.shape[ids.ndim:])
        out = np.empty((n,) + rows.shape[1:], x.dtype)
        for s in range(n):
            members = [row for row, i in zip(rows, ids.ravel()) if i == s]
            out[s] = empty(x.dtype) if not members else members[0]
            for row in members[1:]:
                out[s] = combine(out[s], row)
        return out

    return reference


def _lowest(dt: np.dtype) -> object:
    return np.finfo(dt).min if dt.kind == "f" else np.iinfo(dt).min


def _highest(dt: np.dtype) -> object:
    return np.finfo(dt).max if dt.kind == "f" else np.iinfo(dt).max


def _segment_case(op: str, label: str, ids: np.ndarray, shape: tuple, n: int,
                  combine: Callable, empty: Callable, grad: tuple = (0,),
                  make_x: Callable = sample) -> OpCase:
    return OpCase(f"UnsortedSegment{op}/{label}", f"UnsortedSegment{op}",
                  getattr(P, f"UnsortedSegment{op}"),
                  lambda rng, dt: (make_x(rng, dt, *shape), ids, n),
                  _segments(combine, empty), NUMBERS, grad=grad)


def _with_zeros(rng: np.random.Generator, dt: type, *shape: int) -> np.ndarray:
    """Values with some zeros (one segment holding two of them, one holding one)."""
    x = sample(rng, dt, *shape)
    x.reshape(-1)[[0, 2, 3]] = 0
    return x


_IDS = index(0, 2, 0, 3, -1, 2)  # segment 1 is empty; the id -1 is dropped
CASES: list[OpCase] = [
    OpCase("GatherD/dim1", "GatherD", P.GatherD,
           lambda rng, dt: (sample(rng, dt, 2, 3), 1, index([[0, 0], [2, 1]])),
           _gather_d, ANY, grad=(0,)),
    OpCase("GatherD/dim0-smaller-index", "GatherD", P.GatherD,
           lambda rng, dt: (sample(rng, dt, 3, 2, 2), -3,
                            index([[[2, 0]], [[1, 1]], [[0, 2]], [[2, 2]]], dtype=np.int64)),
           _gather_d, ANY, grad=(0,)),
    OpCase("GatherDGrad/dim1", "GatherDGrad", lambda: index_ops.GatherDGrad(1, (2, 3)),
           lambda rng, dt: (index([[0, 0], [2, 1]]), sample(rng, dt, 2, 2)),
           _gather_d_grad(1, (2, 3)), NUMBERS, grad=(1,)),
    OpCase("SparseGatherV2/axis0", "SparseGatherV2", P.SparseGatherV2,
           lambda rng, dt: (sample(rng, dt, 4, 2), index(3, 0, 3), 0),
           lambda x, i, _: x[[3, 0, 3]], ANY, grad=(0,)),
    OpCase("EmbeddingLookup/offset-out-of-range", "EmbeddingLookup", P.EmbeddingLookup,
           lambda rng, dt: (sample(rng, dt, 4, 2), index([[5, 2], [6, 3], [9, 2]]), 2),
           _embedding, ANY, grad=(0,)),
    OpCase("EmbeddingLookup/no-offset", "EmbeddingLookup", P.EmbeddingLookup,
           lambda rng, dt: (sample(rng, dt, 3), index(2, 0, -1, dtype=np.int64), 0),
           _embedding, ANY, grad=(0,)),
    _segment_case("Sum", "dropped-and-empty", _IDS, (6, 2), 5, np.add, lambda dt: 0),
    OpCase("UnsortedSegmentSum/2d-ids", "UnsortedSegmentSum", P.UnsortedSegmentSum,
           lambda rng, dt: (sample(rng, dt, 2, 2, 3), index([[1, 0], [1, 1]], dtype=np.int64), 2),
           _segments(np.add, lambda dt: 0), NUMBERS, grad=(0,)),
    _segment_case("Max", "dropped-and-empty", _IDS, (6, 2), 5, np.maximum, _lowest, ()),
    _segment_case("Min", "dropped-and-empty", _IDS, (6,), 5, np.minimum, _highest, ()),
    _segment_case("Max", "dropped", index(1, 2, 0, 3, 5, 2), (6, 2), 4, np.maximum, _lowest),
    _segment_case("Min", "dropped", index(1, 2, 0, 3, -1, 2), (6,), 4, np.minimum, _highest),
    _segment_case("Prod", "dropped-and-empty", _IDS, (6, 2), 5, np.multiply, lambda dt: 1),
    OpCase("UnsortedSegmentProd/zeros", "UnsortedSegmentProd", P.UnsortedSegmentProd,
           lambda rng, dt: (_with_zeros(rng, dt, 6), index(0, 1, 0, 1, 1, 2), 3),
           _segments(np.multiply, lambda dt: 1), FLOATS, grad=(0,)),
]
