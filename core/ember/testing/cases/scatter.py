"""Cases for the scatter primitives of ``ember.ops.operations.scatter_ops`` and the row
updates of ``ember.ops.operations.inplace_ops``.

The in-place ones update a Parameter: each case's call copies its ``input_x`` into a Parameter
(with ``Assign``, so Graph mode runs the same two steps) and returns what the scatter returns,
the updated Parameter. References loop over the index rows one at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops import operations as P
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.array import ANY, NUMBERS, index, sample

_COMBINE: dict[str, Callable[[Any, Any], Any]] = {
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
    "Max": np.maximum, "Min": np.minimum, "Update": lambda old, new: new,
}


def in_place(prim: Any, read_back: bool = False) -> Callable[..., Any]:
    """``prim(variable, *rest)`` on a Parameter holding ``input_x``: one Parameter per shape and
    dtype, made on the first (PyNative) call, as a Cell holds its weights. With ``read_back``
    the call returns (the Parameter's value after the update, prim's output)."""
    variables: dict[tuple, Parameter] = {}
    assign, identity = P.Assign(), P.Identity()

    def call(x: Tensor, *rest: Any) -> Any:
        key = (x.shape, x.dtype)
        if key not in variables:
            variables[key] = Parameter(Tensor(np.zeros(x.shape, x.dtype.np_dtype)), "input_x")
        variable = variables[key]
        assign(variable, x)
        out = prim(variable, *rest)
        return (identity(variable), out) if read_back else out

    return call


def _rows(kind: str) -> Callable[..., np.ndarray]:
    """Scatter<kind> along the first dimension, one index at a time."""

    def reference(x: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        out = x.copy()
        flat = updates.reshape((indices.size,) + x.shape[1:])
        for i, row in zip(indices.ravel(), flat, strict=True):
            out[i] = _COMBINE[kind](out[i], row)
        return out

    return reference


def _nd(kind: str) -> Callable[..., np.ndarray]:
    """ScatterNd<kind>/TensorScatter<kind>: one index row of the last dimension at a time."""

    def reference(x: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        out = x.copy()
        rows = indices.reshape(-1, indices.shape[-1])
        flat = updates.reshape((len(rows),) + x.shape[indices.shape[-1]:])
        for row, update in zip(rows, flat, strict=True):
            out[tuple(row)] = _COMBINE[kind](out[tuple(row)], update)
        return out

    return reference


def _update_cache(x: np.ndarray, indices: np.ndarray, updates: np.ndarray,
                  max_num: int) -> tuple[np.ndarray, np.ndarray]:
    """The cache after UpdateCache (indices outside [0, max_num) skipped), and its output."""
    out = x.copy()
    for i, row in zip(indices.ravel(), updates.reshape((indices.size,) + x.shape[1:])):
        if 0 <= i < max_num:
            out[i] = row
    return out, np.zeros(1, x.dtype)


def _copy_slices(x: np.ndarray, value: np.ndarray, begin: tuple, end: tuple,
                 strides: tuple) -> np.ndarray:
    out = x.copy()
    at = tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides))
    out[at] = value.reshape(out[at].shape)
    return out


def _scatter_nd(indices: np.ndarray, updates: np.ndarray, shape: tuple) -> np.ndarray:
    return _nd("Add")(np.zeros(shape, updates.dtype), indices, updates)


def _positive(rng: np.random.Generator, dt: type, *shape: int) -> np.ndarray:
    """Values away from zero, to divide by."""
    return (rng.uniform(0.5, 2.0, shape) * rng.choice([-1, 1], shape)).astype(dt)


def _row_case(kind: str, dtypes: tuple, repeats: bool = True) -> OpCase:
    at = index([0, 2], [2, 0]) if repeats else index([3, 0], [2, 1])
    updates = _positive if kind == "Div" else sample
    return OpCase(f"Scatter{kind}/{'repeated-' if repeats else ''}rows", f"Scatter{kind}",
                  lambda: in_place(getattr(P, f"Scatter{kind}")()),
                  lambda rng, dt: (sample(rng, dt, 4, 3), at, updates(rng, dt, 2, 2, 3)),
                  _rows(kind), dtypes)


def _nd_in_place_case(kind: str, dtypes: tuple) -> OpCase:
    return OpCase(f"ScatterNd{kind}/elements-and-rows", f"ScatterNd{kind}",
                  lambda: in_place(getattr(P, f"ScatterNd{kind}")()),
                  lambda rng, dt: (sample(rng, dt, 3, 4), index([[2, 1], [0, 3]]),
                                   sample(rng, dt, 2)),
                  _nd(kind), dtypes)


def _elements(axis: int) -> Callable[..., np.ndarray]:
    """ScatterElements: one update at a time, its index in place of its coordinate on axis."""

    def reference(data: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        out = data.copy()
        for at in np.ndindex(indices.shape):
            target = list(at)
            target[axis] = int(indices[at])
            out[tuple(target)] = updates[at]
        return out

    return reference


def _distinct(rng: np.random.Generator, axis: int) -> np.ndarray:
    """Indices of shape (2, 3, 4) into (3, 4, 5) along ``axis``, no element addressed twice
    (a permutation's first entries along the axis)."""
    sizes = (3, 4, 5)
    axis %= 3
    shape = (2, 3, 4)
    lines = np.moveaxis(np.zeros(shape, np.int32), axis, -1)
    for at in np.ndindex(lines.shape[:-1]):
        lines[at] = rng.permutation(sizes[axis])[:shape[axis]]
    return np.moveaxis(lines, -1, axis).copy()


def _inplace(kind: str, indices: tuple[int, ...]) -> Callable[..., np.ndarray]:
    """Inplace<kind>: row i of v combined into row indices[i] of a copy of x, in order."""

    def reference(x: np.ndarray, v: np.ndarray) -> np.ndarray:
        out = x.copy()
        for i, row in enumerate(indices):
            out[row] = _COMBINE[kind](out[row], v[i])
        return out

    return reference


_INPLACE_DOCUMENTED = {"Add": [[1.5, 3], [4, 5.5], [5, 6]], "Sub": [[0.5, 1], [2, 2.5], [5, 6]],
                       "Update": [[0.5, 1], [1, 1.5], [5, 6]]}
_INPLACE_DTYPES = (*FLOATS, np.int32)

INPLACE_CASES = [
    *(OpCase(f"Inplace{kind}/documented", f"Inplace{kind}",
             lambda kind=kind: getattr(P, f"Inplace{kind}")((0, 1)),
             lambda rng, dt: (np.array([[1, 2], [3, 4], [5, 6]], dt),
                              np.array([[0.5, 1], [1, 1.5]], dt)),
             lambda x, v, want=want: np.array(want, x.dtype), FLOATS)
      for kind, want in _INPLACE_DOCUMENTED.items()),
    *(OpCase(f"Inplace{kind}/{label}", f"Inplace{kind}",
             lambda kind=kind, at=at: getattr(P, f"Inplace{kind}")(at),
             lambda rng, dt, at=at: (sample(rng, dt, 4, 2, 3),
                                     sample(rng, dt, 1 if isinstance(at, int) else len(at), 2, 3)),
             _inplace(kind, (at,) if isinstance(at, int) else at), _INPLACE_DTYPES, grad=(0, 1))
      for kind in ("Add", "Sub", "Update")
      for label, at in (("int-index", 2), ("rows-out-of-order", (3, 0, 1)))),
    *(OpCase(f"Inplace{kind}/repeated-index", f"Inplace{kind}",
             lambda kind=kind: getattr(P, f"Inplace{kind}")((1, 3, 1)),
             lambda rng, dt: (sample(rng, dt, 4, 2), sample(rng, dt, 3, 2)),
             _inplace(kind, (1, 3, 1)), _INPLACE_DTYPES, grad=(0, 1))
      for kind in ("Add", "Sub")),
]

CASES: list[OpCase] = [
    *INPLACE_CASES,
    OpCase("ScatterNonAliasingAdd/documented", "ScatterNonAliasingAdd",
           lambda: in_place(P.ScatterNonAliasingAdd()),
           lambda rng, dt: (np.arange(1, 9, dtype=dt), index([[2], [4], [1], [7]]),
                            np.arange(6, 10, dtype=dt)),
           lambda x, at, u: np.array([1, 10, 9, 4, 12, 6, 7, 17], x.dtype), _INPLACE_DTYPES),
    OpCase("ScatterNonAliasingAdd/repeated-elements", "ScatterNonAliasingAdd",
           lambda: in_place(P.ScatterNonAliasingAdd()),
           lambda rng, dt: (sample(rng, dt, 3, 4), index([[2, 1], [0, 3], [2, 1]]),
                            sample(rng, dt, 3)),
           _nd("Add"), _INPLACE_DTYPES),
    OpCase("ScatterElements/documented-axis0", "ScatterElements", lambda: P.ScatterElements(0),
           lambda rng, dt: (np.arange(1, 10, dtype=dt).reshape(3, 3),
                            index([[1, 0, 2], [0, 2, 1]]), np.zeros((2, 3), dt)),
           lambda d, i, u: np.array([[0, 0, 3], [0, 5, 0], [7, 0, 0]], d.dtype), NUMBERS),
    OpCase("ScatterElements/documented-axis1", "ScatterElements", lambda: P.ScatterElements(1),
           lambda rng, dt: (np.arange(1, 6, dtype=dt).reshape(1, 5), index([[2, 4]]),
                            np.full((1, 2), 8, dt)),
           lambda d, i, u: np.array([[1, 2, 8, 4, 8]], d.dtype), NUMBERS),
    *(OpCase(f"ScatterElements/3d-axis{axis}", "ScatterElements",
             lambda axis=axis: P.ScatterElements(axis),
             lambda rng, dt, axis=axis: (sample(rng, dt, 3, 4, 5), _distinct(rng, axis),
                                         sample(rng, dt, 2, 3, 4)),
             _elements(axis % 3), ANY)
      for axis in (0, 1, -1)),
    *(_row_case(kind, FLOATS if kind == "Div" else NUMBERS) for kind in
      ("Add", "Sub", "Mul", "Div", "Max", "Min")),
    _row_case("Update", ANY, repeats=False),
    OpCase("ScatterAdd/0d-index", "ScatterAdd", lambda: in_place(P.ScatterAdd()),
           lambda rng, dt: (sample(rng, dt, 3), index(1, dtype=np.int64), sample(rng, dt)),
           _rows("Add"), NUMBERS),
    *(_nd_in_place_case(kind, dtypes) for kind, dtypes in
      (("Add", NUMBERS), ("Sub", NUMBERS), ("Update", ANY))),
    OpCase("ScatterNdUpdate/rows", "ScatterNdUpdate", lambda: in_place(P.ScatterNdUpdate()),
           lambda rng, dt: (sample(rng, dt, 3, 2), index([[2], [0]], dtype=np.int64),
                            sample(rng, dt, 2, 2)),
           _nd("Update"), ANY),
    OpCase("UpdateCache/skips-out-of-range", "UpdateCache",
           lambda: in_place(P.UpdateCache(), read_back=True),
           lambda rng, dt: (sample(rng, dt, 5, 2), index(3, -1, 0, 4, 3), sample(rng, dt, 5, 2),
                            4),
           _update_cache, NUMBERS),
    OpCase("TensorCopySlices/documented", "TensorCopySlices", P.TensorCopySlices,
           lambda rng, dt: (sample(rng, dt, 5, 5), sample(rng, dt, 2, 5), (3, 0), (5, 5),
                            (1, 1)),
           _copy_slices, ANY, grad=(0, 1)),
    OpCase("TensorCopySlices/inner-row-reshaped", "TensorCopySlices", P.TensorCopySlices,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), sample(rng, dt, 4), (1, 2), (2, 3),
                            (1, 1)),
           _copy_slices, ANY, grad=(0, 1)),
    OpCase("TensorCopySlices/negative-begin", "TensorCopySlices", P.TensorCopySlices,
           lambda rng, dt: (sample(rng, dt, 6, 2), sample(rng, dt, 4, 2), (-4,), (6,), (1,)),
           _copy_slices, NUMBERS, grad=(0, 1)),
    OpCase("ScatterNd/repeats-add-up", "ScatterNd", P.ScatterNd,
           lambda rng, dt: (index([[0, 1], [2, 0], [0, 1]]), sample(rng, dt, 3), (3, 2)),
           _scatter_nd, NUMBERS, grad=(1,)),
    OpCase("ScatterNd/slices", "ScatterNd", P.ScatterNd,
           lambda rng, dt: (index([[1], [3]], dtype=np.int64), sample(rng, dt, 2, 2, 2),
                            (4, 2, 2)),
           _scatter_nd, NUMBERS, grad=(1,)),
    OpCase("TensorScatterUpdate/elements", "TensorScatterUpdate", P.TensorScatterUpdate,
           lambda rng, dt: (sample(rng, dt, 3, 4), index([[0, 1], [2, 3], [1, 0]]),
                            sample(rng, dt, 3)),
           _nd("Update"), ANY, grad=(0, 2)),
    OpCase("TensorScatterUpdate/rows", "TensorScatterUpdate", P.TensorScatterUpdate,
           lambda rng, dt: (sample(rng, dt, 3, 2), index([[2], [0]]), sample(rng, dt, 2, 2)),
           _nd("Update"), ANY, grad=(0, 2)),
    OpCase("TensorScatterSub/repeated", "TensorScatterSub", P.TensorScatterSub,
           lambda rng, dt: (sample(rng, dt, 3, 4), index([[0, 1], [2, 3], [0, 1]]),
                            sample(rng, dt, 3)),
           _nd("Sub"), NUMBERS, grad=(0, 2)),
    OpCase("TensorScatterMax/rows", "TensorScatterMax", P.TensorScatterMax,
           lambda rng, dt: (sample(rng, dt, 3, 4), index([[2], [0]]), sample(rng, dt, 2, 4)),
           _nd("Max"), NUMBERS, grad=(0, 2)),
    OpCase("TensorScatterMin/elements", "TensorScatterMin", P.TensorScatterMin,
           lambda rng, dt: (sample(rng, dt, 3, 4), index([[0, 1], [2, 3]], dtype=np.int64),
                            sample(rng, dt, 2)),
           _nd("Min"), NUMBERS, grad=(0, 2)),
]
