"""Cases of ``ember.ops.operations.reduce_ops``, ``linalg_ops``, ``detection_ops`` and
``index_add_ops``: products and logical reductions, cumulative scans, counts, histograms,
matrix inverses, evenly spaced sequences, non-maximum suppression, slices added in place.

References are written from the primitives' documented semantics in float64 (masked sums over
pairs for the scans, solves for the inverses, box-by-box loops for the suppression), rounded to
the dtype the primitive returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.math import (
    ANY,
    BOOL,
    F16_SUMS,
    F64,
    FEW,
    NUMBERS,
    Sampler,
    arrays,
    away_from_zero,
    made,
    reduce_cases,
    reduce_inputs,
    reduce_reference,
    rounded,
    uniform,
    values,
)
from ember.testing.cases.scatter import in_place


def _at_zeros(axis: Any) -> Callable[[np.random.Generator, type], tuple]:
    """A matrix holding zeros (where a product's gradient needs care) and ``axis``."""
    return lambda rng, dtype: (*values([[1, 2, 0], [3, 0, 5], [2, 3, 4]])(rng, dtype), axis)


PROD_CASES = [
    *reduce_cases("ReduceProd", np.prod, {np.float16: (3e-2, 3e-2)}),
    *(OpCase(f"ReduceProd/zeros-{label}", "ReduceProd", made(P.ReduceProd, False),
             _at_zeros(axis), reduce_reference(np.prod, False), FLOATS, (0,))
      for label, axis in (("rows", 1), ("all", ()))),
]
LOGIC_REDUCE_CASES = [
    OpCase(f"{name}/{label}", name, made(getattr(P, name), keep), reduce_inputs(shape, axis),
           reduce_reference(fn, keep), BOOL)
    for name, fn in (("ReduceAll", np.all), ("ReduceAny", np.any))
    for label, keep, shape, axis in [
        ("default-axis", False, (2, 3), None),
        ("axis1-keep", True, (2, 3, 4), 1),
        ("two-axes", False, (2, 3, 4), (0, 2)),
        ("empty-reduced-axis", False, (0, 3), 0),
    ]
]


# -- cumulative scans -----------------------------------------------------------------------
def _cumulative_reference(product: bool, exclusive: bool, reverse: bool
                          ) -> Callable[..., np.ndarray]:
    """Output i along ``axis`` sums (multiplies) the inputs j <= i (j >= i when reversed),
    j = i left out when exclusive: a masked sum over a square of pairs, in float64."""
    def reference(x: np.ndarray, axis: int) -> np.ndarray:
        moved = np.moveaxis(x.astype(F64), axis, -1)
        i, j = np.indices((moved.shape[-1],) * 2)
        mask = (j >= i) if reverse else (j <= i)
        if exclusive:
            mask &= j != i
        terms = moved[..., None, :]
        with np.errstate(all="ignore"):
            out = (np.prod(np.where(mask, terms, 1), axis=-1) if product
                   else np.sum(np.where(mask, terms, 0), axis=-1))
        return rounded(np.moveaxis(out, -1, axis), x.dtype)
    return reference


def _scan_inputs(shape: tuple[int, ...], axis: int, draw: Sampler
                 ) -> Callable[[np.random.Generator, type], tuple]:
    return lambda rng, dtype: (draw(rng, shape, dtype), axis)


SCAN_CASES = [
    OpCase(f"{name}/{label}", name, made(getattr(P, name), exclusive, reverse),
           _scan_inputs(shape, axis, draw), _cumulative_reference(name == "CumProd", exclusive,
                                                                 reverse),
           NUMBERS, grad, F16_SUMS)
    for name, draw in (("CumSum", ANY), ("CumProd", away_from_zero(0.5, 1.5)))
    for label, exclusive, reverse, shape, axis, grad in [
        ("plain", False, False, (3, 4), 1, (0,)),
        ("exclusive", True, False, (3, 4), 0, (0,)),
        ("reverse", False, True, (2, 3, 4), -1, (0,)),
        ("exclusive-reverse", True, True, (3, 4), 1, (0,)),
        ("vector", False, False, (5,), 0, (0,)),
        ("empty", True, False, (0, 3), 0, ()),
    ]
]


def _equal_count(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.array([sum(a == b for a, b in zip(x.flat, y.flat))], x.dtype)


def _square_sums(x: np.ndarray, y: np.ndarray) -> tuple:
    return tuple(rounded(np.sum(np.square(a.astype(F64))), a.dtype) for a in (x, y))


COUNT_CASES = [
    OpCase("EqualCount/values", "EqualCount", P.EqualCount,
           values([1, 2, 3, 4, 5], [1, 0, 3, 4, -5]), _equal_count, NUMBERS),
    OpCase("EqualCount/random", "EqualCount", P.EqualCount, arrays((3, 4), (3, 4), draw=FEW),
           _equal_count, NUMBERS),
    *(OpCase(f"SquareSumAll/{label}", "SquareSumAll", P.SquareSumAll, arrays(shape, shape),
             _square_sums, FLOATS, grad, F16_SUMS)
      for label, shape, grad in (("matrix", (3, 4), (0, 1)), ("empty", (0, 2), ()))),
]


def _histogram_reference(nbins: int) -> Callable[..., np.ndarray]:
    """Counts per bin, each element placed by comparing it with the bin edges in float64."""
    def reference(x: np.ndarray, value_range: np.ndarray) -> np.ndarray:
        low, high = value_range.astype(F64)
        counts = np.zeros(nbins, np.int32)
        for v in x.astype(F64).flat:
            below = [k for k in range(1, nbins) if v >= low + k * (high - low) / nbins]
            counts[len(below)] += 1
        return counts
    return reference


HISTOGRAM_CASES = [
    OpCase(f"HistogramFixedWidth/{label}", "HistogramFixedWidth",
           made(P.HistogramFixedWidth, nbins),
           lambda rng, dtype, shape=shape, bounds=bounds: (
               uniform(-2, 7)(rng, shape, dtype), np.asarray(bounds, dtype)),
           _histogram_reference(nbins), dtypes)
    for label, nbins, shape, bounds, dtypes in [
        ("five-bins", 5, (4, 6), (0, 5), FLOATS + (np.int32,)),
        ("one-bin", 1, (7,), (0, 5), FLOATS + (np.int32,)),
        ("fractional-width", 4, (3, 10), (-1.5, 4.5), FLOATS),
        ("empty", 3, (0,), (0, 5), FLOATS + (np.int32,)),
    ]
]


# -- matrix inverses, outer products, evenly spaced sequences -----------------------------------------------
def _invertible(*shape: int) -> Callable[[np.random.Generator, type], tuple]:
    """Well-conditioned square matrices: random entries plus a dominant diagonal."""
    def make(rng: np.random.Generator, dtype: type) -> tuple:
        eye = np.eye(shape[-1]) * shape[-1] * 2
        return ((rng.uniform(-1, 1, shape) + eye).astype(dtype),)
    return make


def _inverse_reference(adjoint: bool) -> Callable[..., np.ndarray]:
    """The solution of ``A X = I`` in float64 (A = x, or its transpose when ``adjoint``)."""
    def reference(x: np.ndarray) -> np.ndarray:
        a = np.swapaxes(x, -1, -2) if adjoint else x
        return rounded(np.linalg.solve(a.astype(F64), np.broadcast_to(
            np.eye(x.shape[-1]), a.shape)), x.dtype)
    return reference


def _linspace_reference(start: np.ndarray, stop: np.ndarray, num: int) -> np.ndarray:
    steps = np.arange(num) / max(num - 1, 1)
    return rounded(start.astype(F64) + (stop.astype(F64) - start) * steps, start.dtype)


LINALG_CASES = [
    *(OpCase(f"MatrixInverse/{label}", "MatrixInverse", made(P.MatrixInverse, adjoint),
             _invertible(*shape), _inverse_reference(adjoint), (np.float32, np.float64), (0,))
      for label, shape, adjoint in [("matrix", (3, 3), False), ("batch", (2, 4, 4), False),
                                    ("adjoint", (3, 3), True), ("batch-adjoint", (2, 2, 3, 3),
                                                                True)]),
    *(OpCase(f"LinSpace/{label}", "LinSpace", P.LinSpace,
             lambda rng, dtype, a=start, b=stop, n=num: (np.asarray(a, dtype),
                                                         np.asarray(b, dtype), n),
             _linspace_reference, (np.float32, np.float64), (0, 1))
      for label, start, stop, num in [("increasing", 1.0, 10.0, 5), ("decreasing", 2.5, -3.0, 12),
                                      ("one", -2.0, 7.0, 1), ("two", 0.0, 1.0, 2)]),
    OpCase("Ger/documented", "Ger", P.Ger,
           lambda rng, dtype: (np.arange(1, 5, dtype=dtype), np.arange(1, 4, dtype=dtype)),
           lambda x1, x2: np.array([[1, 2, 3], [2, 4, 6], [3, 6, 9], [4, 8, 12]], x1.dtype)),
    OpCase("Ger/random", "Ger", P.Ger,
           lambda rng, dtype: (ANY(rng, (5,), dtype), ANY(rng, (3,), dtype)),
           lambda x1, x2: rounded(np.array([[a * b for b in x2.astype(F64).tolist()]
                                            for a in x1.astype(F64).tolist()]), x1.dtype),
           grad=(0, 1)),
]


def _index_add_reference(axis: int) -> Callable[..., np.ndarray]:
    """Each slice of ``y`` along ``axis`` added into ``x`` at its index, one at a time."""
    def reference(x: np.ndarray, indices: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.moveaxis(x.copy(), axis, 0)
        for i, index in enumerate(indices.tolist()):
            out[index] = out[index] + np.moveaxis(y, axis, 0)[i]
        return np.moveaxis(out, 0, axis)
    return reference


def _index_add_inputs(shape: tuple[int, ...], axis: int, indices: list[int]
                      ) -> Callable[[np.random.Generator, type], tuple]:
    y_shape = list(shape)
    y_shape[axis] = len(indices)
    return lambda rng, dtype: (ANY(rng, shape, dtype), np.asarray(indices, np.int32),
                               ANY(rng, tuple(y_shape), dtype))


INDEX_ADD_CASES = [
    OpCase(f"IndexAdd/{label}", "IndexAdd", lambda axis=axis: in_place(P.IndexAdd(axis)),
           _index_add_inputs(shape, axis, indices), _index_add_reference(axis),
           FLOATS + (np.int32,))
    for label, shape, axis, indices in [
        ("axis0", (4, 3), 0, [3, 0]),
        ("axis1", (3, 3), 1, [0, 2]),
        ("last-repeated", (2, 3, 4), -1, [1, 1, 3]),
    ]
]

CASES: list[OpCase] = [
    *PROD_CASES, *LOGIC_REDUCE_CASES, *SCAN_CASES, *COUNT_CASES, *HISTOGRAM_CASES,
    *LINALG_CASES, *INDEX_ADD_CASES,
]
