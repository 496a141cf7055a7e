"""Cases for ``ember.ops.operations.dynamic_ops``: Unique, MaskedSelect, NonZero and
ComputeAccidentalHits (whose output shapes depend on values: Graph mode must refuse them),
UniqueWithPad and DynamicShape.

References walk the elements in order with plain Python.
"""

from __future__ import annotations

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import dynamic_ops
from ember.testing.cases import INTS, OpCase
from ember.testing.cases.array import ANY, NUMBERS, sample


def _unique(x: np.ndarray, index_dtype: type = np.int32) -> tuple[np.ndarray, np.ndarray]:
    seen: dict = {}
    for value in x.tolist():
        seen.setdefault(value, len(seen))
    return (np.array(list(seen), x.dtype).reshape(-1),
            np.array([seen[v] for v in x.tolist()], index_dtype).reshape(x.shape))


def _unique_with_pad(x: np.ndarray, pad: int) -> tuple[np.ndarray, np.ndarray]:
    y, idx = _unique(x, x.dtype.type)
    return np.concatenate([y, np.full(len(x) - len(y), pad, x.dtype)]), idx


def _masked_select(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    xs, ms = np.broadcast_to(x, shape), np.broadcast_to(mask, shape)
    return np.array([xs[at] for at in np.ndindex(shape) if ms[at]], x.dtype).reshape(-1)


def _masked_select_grad(x: np.ndarray, mask: np.ndarray, grad: np.ndarray) -> np.ndarray:
    shape = np.broadcast_shapes(x.shape, mask.shape)
    out = np.zeros(x.shape, x.dtype)
    ms = np.broadcast_to(mask, shape)
    chosen = iter(grad)
    for at in np.ndindex(shape):
        if ms[at]:
            out[tuple(a if n > 1 else 0 for a, n in zip(at[len(shape) - x.ndim:], x.shape))] \
                += next(chosen)
    return out


def _accidental_hits(true_classes: np.ndarray, sampled: np.ndarray) -> tuple:
    rows, ids = [], []
    for row, classes in enumerate(true_classes.tolist()):
        for c in classes:
            for place, s in enumerate(sampled.tolist()):
                if s == c:
                    rows.append(row)
                    ids.append(place)
    dt = true_classes.dtype
    return (np.array(rows, dt), np.array(ids, dt),
            np.full(len(rows), np.finfo(np.float32).min, np.float32))


def _non_zero(transpose: bool):
    def reference(x: np.ndarray) -> np.ndarray:
        rows = [at for at in np.ndindex(x.shape) if x[at]]
        out = np.array(rows, np.int64).reshape(len(rows), x.ndim)
        return out.T.copy() if transpose else out
    return reference


def _sparse(rng: np.random.Generator, dt: type, *shape: int) -> np.ndarray:
    """Values of which about half are zero (False)."""
    return np.where(rng.random(shape) < 0.5, sample(rng, dt, *shape), np.zeros((), dt))


def _repeats(rng: np.random.Generator, dt: type, n: int) -> np.ndarray:
    """``n`` values with repeats: a few distinct ones drawn with replacement."""
    pool = sample(rng, dt, 4)
    return pool[rng.integers(0, 4, n)]


_INDEX = (np.int32, np.int64)

CASES: list[OpCase] = [
    OpCase("ComputeAccidentalHits/documented", "ComputeAccidentalHits",
           lambda: P.ComputeAccidentalHits(2),
           lambda rng, dt: (np.array([[1, 2], [0, 4], [3, 3]], dt), np.arange(5, dtype=dt)),
           _accidental_hits, _INDEX, graph=False),
    OpCase("ComputeAccidentalHits/repeats", "ComputeAccidentalHits",
           lambda: P.ComputeAccidentalHits(3),
           lambda rng, dt: (rng.integers(0, 6, (4, 3)).astype(dt),
                            rng.integers(0, 6, 7).astype(dt)),
           _accidental_hits, _INDEX, graph=False),
    OpCase("ComputeAccidentalHits/no-hits", "ComputeAccidentalHits", P.ComputeAccidentalHits,
           lambda rng, dt: (np.array([[7], [8]], dt), np.arange(5, dtype=dt)),
           _accidental_hits, _INDEX, graph=False),
    OpCase("Unique/repeats", "Unique", P.Unique,
           lambda rng, dt: (_repeats(rng, dt, 9),), _unique, ANY, graph=False),
    OpCase("Unique/empty", "Unique", P.Unique,
           lambda rng, dt: (sample(rng, dt, 0),), _unique, ANY, graph=False),
    OpCase("UniqueWithPad/repeats", "UniqueWithPad", P.UniqueWithPad,
           lambda rng, dt: (_repeats(rng, dt, 9), -1), _unique_with_pad, INTS),
    OpCase("UniqueWithPad/documented", "UniqueWithPad", P.UniqueWithPad,
           lambda rng, dt: (np.array([1, 1, 5, 5, 4, 4, 3, 3, 2, 2], dt), 0),
           _unique_with_pad, INTS),
    OpCase("MaskedSelect/broadcast-mask", "MaskedSelect", P.MaskedSelect,
           lambda rng, dt: (sample(rng, dt, 2, 3), sample(rng, np.bool_, 3)),
           _masked_select, ANY, grad=(0,), graph=False),
    OpCase("MaskedSelect/broadcast-x", "MaskedSelect", P.MaskedSelect,
           lambda rng, dt: (sample(rng, dt, 2, 1), sample(rng, np.bool_, 2, 3)),
           _masked_select, ANY, grad=(0,), graph=False),
    OpCase("MaskedSelectGrad/broadcast-x", "MaskedSelectGrad", dynamic_ops.MaskedSelectGrad,
           lambda rng, dt: (sample(rng, dt, 2, 1), np.array([[1, 0, 1], [0, 1, 1]], bool),
                            sample(rng, dt, 4)),
           _masked_select_grad, NUMBERS),
    *(OpCase(f"NonZero/{label}", "NonZero", lambda t=transpose: P.NonZero(t),
             lambda rng, dt, shape=shape: (_sparse(rng, dt, *shape),), _non_zero(transpose), ANY,
             graph=False)
      for label, shape, transpose in [("2d", (3, 4), False), ("3d-transpose", (2, 3, 2), True),
                                      ("1d", (7,), False), ("empty", (0, 3), False)]),
    OpCase("NonZero/all-zero", "NonZero", P.NonZero,
           lambda rng, dt: (np.zeros((2, 2), dt),), _non_zero(False), ANY, graph=False),
    OpCase("Range/ints", "Range", P.Range,
           lambda rng, dt: (np.array(2, dt), np.array(-7, dt), np.array(-3, dt)),
           lambda a, b, c: np.array([2, -1, -4], a.dtype), INTS, graph=False),
    OpCase("Range/floats", "Range", lambda: P.Range(10),
           lambda rng, dt: (np.array(0.5, dt), np.array(2.25, dt), np.array(0.5, dt)),
           lambda a, b, c: np.array([0.5, 1.0, 1.5, 2.0], a.dtype), (np.float32, np.float64),
           graph=False),
    OpCase("DynamicShape/3d", "DynamicShape", P.DynamicShape,
           lambda rng, dt: (sample(rng, dt, 2, 0, 3),),
           lambda x: np.array(x.shape, np.int32), ANY),
    OpCase("DynamicShape/0d", "DynamicShape", P.DynamicShape,
           lambda rng, dt: (sample(rng, dt),), lambda x: np.zeros(0, np.int32), ANY),
]
