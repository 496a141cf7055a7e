"""Cases of ``ember.ops.operations.pnorm_ops``: LpNorm and Cdist, against p-norms written out
in float64 (Cdist one pair of rows at a time), with the values MindSpore's docstrings print."""

from __future__ import annotations

import math

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.math import F16_SUMS, arrays, in_f64, values


def _norm(v: np.ndarray, p: float) -> float:
    """The p-norm of one float64 vector: non-zeros counted for p = 0, the largest for inf."""
    if p == 0:
        return float(np.count_nonzero(v))
    if p == math.inf:
        return float(np.max(np.abs(v), initial=0.0))
    return float(np.sum(np.abs(v) ** p) ** (1 / p))


def _lp_norm(axis: tuple[int, ...], p: int, keep_dims: bool = False):
    def reference(x: np.ndarray) -> np.ndarray:
        moved = np.moveaxis(x, axis, tuple(range(-len(axis), 0)))
        rows = moved.reshape(moved.shape[:moved.ndim - len(axis)] + (-1,))
        out = np.apply_along_axis(_norm, -1, rows, p) if rows.shape[-1] else np.zeros(
            rows.shape[:-1])
        return np.expand_dims(out, axis) if keep_dims else out

    return in_f64(reference)


def _cdist(p: float):
    def reference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.zeros(x.shape[:-1] + y.shape[-2:-1])
        for index in np.ndindex(*out.shape):
            *batch, i, j = index
            out[index] = _norm(x[(*batch, i)] - y[(*batch, j)], p)
        return out

    return in_f64(reference)


_DOC_X = [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]
_SUMS = {**F16_SUMS, np.float32: (1e-5, 1e-5)}

CASES: list[OpCase] = [
    OpCase("LpNorm/documented", "LpNorm", lambda: P.LpNorm(axis=[0, 1], p=2),
           values(_DOC_X), lambda x: np.array([9.165152, 10.954452], x.dtype), FLOATS,
           tolerance={np.float32: (1e-6, 1e-6), np.float64: (1e-6, 1e-6)}),
    *(OpCase(f"LpNorm/p{p}", "LpNorm", lambda p=p: P.LpNorm(axis=1, p=p),
             arrays((3, 4, 2)), _lp_norm((1,), p), FLOATS, grad=(0,), tolerance=_SUMS)
      for p in (1, 2, 3)),
    OpCase("LpNorm/axes-keep-dims", "LpNorm", lambda: P.LpNorm(axis=(-1, 0), keep_dims=True),
           arrays((2, 3, 4)), _lp_norm((2, 0), 2, True), FLOATS, grad=(0,), tolerance=_SUMS),
    OpCase("LpNorm/p0-counts", "LpNorm", lambda: P.LpNorm(axis=0, p=0),
           values([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]]), _lp_norm((0,), 0), FLOATS, grad=(0,)),
    OpCase("LpNorm/empty-axis", "LpNorm", lambda: P.LpNorm(axis=1), arrays((3, 0)),
           _lp_norm((1,), 2), FLOATS[1:]),
    OpCase("Cdist/documented", "Cdist", P.Cdist,
           values([[[1.0, 1.0], [2.0, 2.0]]], [[[3.0, 3.0], [3.0, 3.0]]]),
           lambda x, y: np.array([[[2.8284273, 2.8284273], [1.4142137, 1.4142137]]], x.dtype),
           FLOATS, tolerance={np.float32: (1e-6, 1e-6), np.float64: (1e-6, 1e-6)}),
    *(OpCase(f"Cdist/p{p:g}", "Cdist", lambda p=p: P.Cdist(p), arrays((2, 3, 4), (2, 5, 4)),
             _cdist(p), FLOATS, grad=(0, 1), tolerance=_SUMS)
      for p in (0.0, 0.5, 1.0, 2.0, 3.0, math.inf)),
    OpCase("Cdist/2d", "Cdist", P.Cdist, arrays((4, 3), (2, 3)), _cdist(2.0), FLOATS,
           grad=(0, 1), tolerance=_SUMS),
    OpCase("Cdist/empty", "Cdist", P.Cdist, arrays((0, 3), (2, 3)), _cdist(2.0), FLOATS[1:]),
]
