"""Cases for the layout primitives of ``ember.ops.operations.array_ops``.

References index and copy with plain NumPy slicing and loops, with the result shapes written
out, so that they do not repeat the CPU kernels' calls. ``Shape``, ``Rank``, ``DType`` and
``Size`` have no case: they answer from the tensor's metadata with no kernel, so a backend
supplies nothing for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.ops import operations as P
from ember.ops.operations import _grad_ops as G
from ember.testing.cases import FLOATS, INTS, OpCase

#: Every dtype a layout primitive moves without looking at the values.
ANY = (*FLOATS, *INTS, np.bool_)
#: Number dtypes, for primitives that add or compare.
NUMBERS = (*FLOATS, *INTS)


def sample(rng: np.random.Generator, dtype: type, *shape: int) -> np.ndarray:
    """An array of ``shape`` and ``dtype``: standard-normal floats, ints in [-9, 9], or
    random bools (a 0-d array for ``shape`` ())."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        values = rng.random(shape) < 0.5
    elif kind in "iu":
        values = rng.integers(-9, 10, shape)
    else:
        values = rng.standard_normal(shape)
    return np.asarray(values).astype(dtype)


def index(*values: Any, dtype: type = np.int32) -> np.ndarray:
    """An index array (int32 unless ``dtype`` says otherwise)."""
    return np.array(values[0] if len(values) == 1 else values, dtype)


def _joined(prim: Any) -> Callable[..., Any]:
    """Concat and Stack take their tensors as one tuple; a case passes them as separate
    inputs, so each is converted, and its gradient checked, on its own."""

    def call(*tensors: Any) -> Any:
        return prim(tensors)

    return call


def _gather_nd(x: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """GatherNd, one index row at a time."""
    rows = indices.reshape(-1, indices.shape[-1])
    tail = x.shape[indices.shape[-1]:]
    out = np.empty((len(rows), *tail), x.dtype)
    for k, row in enumerate(rows):
        out[k] = x[tuple(row)]
    return out.reshape(indices.shape[:-1] + tail)


def _scatter_add(x: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
    """TensorScatterAdd, one index row at a time (repeated rows add up)."""
    out = x.copy()
    rows = indices.reshape(-1, indices.shape[-1])
    for row, update in zip(rows, updates.reshape(len(rows), *x.shape[indices.shape[-1]:]),
                           strict=True):
        out[tuple(row)] += update
    return out


def _one_hot(axis: int) -> Callable[..., np.ndarray]:
    """OneHot with ``axis``: ``on`` where an index equals the position, ``off`` elsewhere (an
    index outside [0, depth) gives a row of ``off``)."""

    def reference(indices: np.ndarray, depth: int, on: np.ndarray,
                  off: np.ndarray) -> np.ndarray:
        out = np.full(indices.shape + (depth,), off, on.dtype)
        for at in np.ndindex(indices.shape):
            if 0 <= indices[at] < depth:
                out[at + (indices[at],)] = on
        return np.moveaxis(out, -1, axis)

    return reference


def _strided(masks: dict[str, int], x_shape: tuple[int, ...], spec: tuple[tuple, tuple, tuple],
             reference: Callable[[np.ndarray], np.ndarray]) -> dict[str, Any]:
    """The make/inputs/reference of a StridedSlice case: ``spec`` is (begin, end, strides) and
    ``reference`` the same slice written as a NumPy index."""
    return {"make": lambda: P.StridedSlice(**masks),
            "inputs": lambda rng, dt: (sample(rng, dt, *x_shape), *spec),
            "reference": lambda x, *_: reference(x)}


def _strided_grad(masks: dict[str, int], dy_shape: tuple[int, ...], x_shape: tuple[int, ...],
                  spec: tuple[tuple, tuple, tuple], at: Any) -> dict[str, Any]:
    """The make/inputs/reference of a StridedSliceGrad case: ``dy`` placed at the NumPy index
    ``at`` of zeros of ``x_shape``."""

    def reference(dy: np.ndarray, *_: Any) -> np.ndarray:
        out = np.zeros(x_shape, dy.dtype)
        out[at] = dy.reshape(out[at].shape)
        return out

    return {"make": lambda: P.StridedSliceGrad(**masks),
            "inputs": lambda rng, dt: (sample(rng, dt, *dy_shape), x_shape, *spec),
            "reference": reference}


CASES: list[OpCase] = [
    # -- reshaping ------------------------------------------------------------------------
    OpCase("Reshape/infer-dim", "Reshape", P.Reshape,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), (4, -1)),
           lambda x, _: x.reshape(4, 6), ANY, grad=(0,)),
    OpCase("FlattenGrad/back-to-3d", "FlattenGrad", G.FlattenGrad,
           lambda rng, dt: (sample(rng, dt, 2, 12), (2, 3, 4)),
           lambda x, _: x.reshape(2, 3, 4), ANY, grad=(0,)),
    OpCase("Reshape/0d-to-2d", "Reshape", P.Reshape,
           lambda rng, dt: (sample(rng, dt), (1, 1)),
           lambda x, _: x[None, None], ANY, grad=(0,)),
    OpCase("Reshape/to-0d", "Reshape", P.Reshape,
           lambda rng, dt: (sample(rng, dt, 1, 1, 1), ()),
           lambda x, _: x[0, 0, 0, ...], ANY, grad=(0,)),
    OpCase("Reshape/empty", "Reshape", P.Reshape,
           lambda rng, dt: (sample(rng, dt, 0, 3), (3, -1, 2)),
           lambda x, _: np.zeros((3, 0, 2), x.dtype), ANY),
    OpCase("Transpose/3d", "Transpose", P.Transpose,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), (2, 0, 1)),
           lambda x, _: np.einsum("abc->cab", x), FLOATS + INTS, grad=(0,)),
    OpCase("Transpose/4d", "Transpose", P.Transpose,
           lambda rng, dt: (sample(rng, dt, 1, 2, 3, 2), (3, 1, 0, 2)),
           lambda x, _: np.einsum("kjli->ijkl", x), FLOATS + INTS, grad=(0,)),
    OpCase("Transpose/2d-list-perm", "Transpose", P.Transpose,
           lambda rng, dt: (sample(rng, dt, 2, 3), [1, 0]),
           lambda x, _: x.T, ANY, grad=(0,)),
    OpCase("Transpose/0d", "Transpose", P.Transpose,
           lambda rng, dt: (sample(rng, dt), ()),
           lambda x, _: x, ANY),
    OpCase("Transpose/empty", "Transpose", P.Transpose,
           lambda rng, dt: (sample(rng, dt, 0, 2, 3), (1, 2, 0)),
           lambda x, _: np.zeros((2, 3, 0), x.dtype), ANY),
    OpCase("ExpandDims/front", "ExpandDims", P.ExpandDims,
           lambda rng, dt: (sample(rng, dt, 2, 3), 0),
           lambda x, _: x[None], ANY, grad=(0,)),
    OpCase("ExpandDims/last", "ExpandDims", P.ExpandDims,
           lambda rng, dt: (sample(rng, dt, 2, 3), -1),
           lambda x, _: x[:, :, None], ANY, grad=(0,)),
    OpCase("ExpandDims/middle", "ExpandDims", P.ExpandDims,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), 2),
           lambda x, _: x[:, :, None, :], ANY, grad=(0,)),
    OpCase("ExpandDims/0d", "ExpandDims", P.ExpandDims,
           lambda rng, dt: (sample(rng, dt), -1),
           lambda x, _: x[None], ANY, grad=(0,)),
    OpCase("ExpandDims/empty", "ExpandDims", P.ExpandDims,
           lambda rng, dt: (sample(rng, dt, 0, 2), 1),
           lambda x, _: np.zeros((0, 1, 2), x.dtype), ANY),
    OpCase("Squeeze/all", "Squeeze", P.Squeeze,
           lambda rng, dt: (sample(rng, dt, 1, 3, 1, 4, 1),),
           lambda x: x[0, :, 0, :, 0], ANY, grad=(0,)),
    OpCase("Squeeze/int-axis", "Squeeze", lambda: P.Squeeze(2),
           lambda rng, dt: (sample(rng, dt, 1, 3, 1, 4, 1),),
           lambda x: x[:, :, 0], ANY, grad=(0,)),
    OpCase("Squeeze/tuple-axis", "Squeeze", lambda: P.Squeeze((0, -1)),
           lambda rng, dt: (sample(rng, dt, 1, 3, 1, 4, 1),),
           lambda x: x[0, ..., 0], ANY, grad=(0,)),
    OpCase("Squeeze/empty", "Squeeze", P.Squeeze,
           lambda rng, dt: (sample(rng, dt, 1, 0, 1),),
           lambda x: np.zeros((0,), x.dtype), ANY),
    OpCase("Squeeze/0d", "Squeeze", P.Squeeze,
           lambda rng, dt: (sample(rng, dt),),
           lambda x: x, ANY, grad=(0,)),
    OpCase("Identity/3d", "Identity", P.Identity,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4),),
           lambda x: x.copy(), ANY, grad=(0,)),
    OpCase("Identity/0d", "Identity", P.Identity,
           lambda rng, dt: (sample(rng, dt),),
           lambda x: x.copy(), ANY, grad=(0,)),
    OpCase("BroadcastTo/new-dims", "BroadcastTo", lambda: P.BroadcastTo((2, 3, 4)),
           lambda rng, dt: (sample(rng, dt, 3, 1),),
           lambda x: np.repeat(np.repeat(x[None], 2, 0), 4, 2), ANY, grad=(0,)),
    OpCase("BroadcastTo/keep-dim", "BroadcastTo", lambda: P.BroadcastTo((-1, 4)),
           lambda rng, dt: (sample(rng, dt, 2, 1),),
           lambda x: np.hstack([x] * 4), ANY, grad=(0,)),
    OpCase("BroadcastTo/from-0d", "BroadcastTo", lambda: P.BroadcastTo((2, 3)),
           lambda rng, dt: (sample(rng, dt),),
           lambda x: np.full((2, 3), x), ANY, grad=(0,)),
    OpCase("BroadcastTo/to-empty", "BroadcastTo", lambda: P.BroadcastTo((0, 3)),
           lambda rng, dt: (sample(rng, dt, 1, 3),),
           lambda x: np.zeros((0, 3), x.dtype), ANY),
    OpCase("Tile/2d", "Tile", P.Tile,
           lambda rng, dt: (sample(rng, dt, 2, 3), (2, 3)),
           lambda x, _: np.block([[x] * 3] * 2), ANY, grad=(0,)),
    OpCase("Tile/more-multiples", "Tile", P.Tile,
           lambda rng, dt: (sample(rng, dt, 3, 2), (2, 1, 2)),
           lambda x, _: np.stack([np.hstack([x, x])] * 2), ANY, grad=(0,)),
    OpCase("Tile/0d", "Tile", P.Tile,
           lambda rng, dt: (sample(rng, dt), (3,)),
           lambda x, _: np.full(3, x), ANY, grad=(0,)),
    OpCase("Tile/empty", "Tile", P.Tile,
           lambda rng, dt: (sample(rng, dt, 0, 2), (2, 3)),
           lambda x, _: np.zeros((0, 6), x.dtype), ANY),
    # -- joining and splitting ------------------------------------------------------------
    OpCase("Concat/axis0", "Concat", lambda: _joined(P.Concat()),
           lambda rng, dt: (sample(rng, dt, 2, 3), sample(rng, dt, 4, 3)),
           lambda a, b: np.vstack([a, b]), ANY, grad=(0, 1)),
    OpCase("Concat/middle-axis", "Concat", lambda: _joined(P.Concat(1)),
           lambda rng, dt: (sample(rng, dt, 2, 1, 3), sample(rng, dt, 2, 2, 3)),
           lambda a, b: np.hstack([a, b]), ANY, grad=(0, 1)),
    OpCase("Concat/last-axis-with-empty", "Concat", lambda: _joined(P.Concat(-1)),
           lambda rng, dt: (sample(rng, dt, 2, 3, 1), sample(rng, dt, 2, 3, 2),
                            sample(rng, dt, 2, 3, 0)),
           lambda a, b, c: np.dstack([a, b, c]), ANY, grad=(0, 1, 2)),
    OpCase("ParallelConcat/documented", "ParallelConcat", lambda: _joined(P.ParallelConcat()),
           lambda rng, dt: (np.array([[0, 1]], dt), np.array([[2, 1]], dt)),
           lambda a, b: np.array([[0, 1], [2, 1]], a.dtype), ANY),
    OpCase("ParallelConcat/three", "ParallelConcat", lambda: _joined(P.ParallelConcat()),
           lambda rng, dt: tuple(sample(rng, dt, 1, 2, 3) for _ in range(3)),
           lambda *xs: np.array([x[0] for x in xs]), ANY, grad=(0, 1, 2)),
    OpCase("Concat/one-tensor", "Concat", lambda: _joined(P.Concat(1)),
           lambda rng, dt: (sample(rng, dt, 1, 4),),
           lambda a: a.copy(), ANY, grad=(0,)),
    OpCase("Stack/axis0", "Stack", lambda: _joined(P.Stack()),
           lambda rng, dt: (sample(rng, dt, 2, 3), sample(rng, dt, 2, 3)),
           lambda a, b: np.array([a, b]), ANY, grad=(0, 1)),
    OpCase("Stack/last-axis", "Stack", lambda: _joined(P.Stack(-1)),
           lambda rng, dt: tuple(sample(rng, dt, 2, 2) for _ in range(3)),
           lambda a, b, c: np.dstack([a, b, c]), ANY, grad=(0, 1, 2)),
    OpCase("Stack/0d", "Stack", lambda: _joined(P.Stack()),
           lambda rng, dt: (sample(rng, dt), sample(rng, dt)),
           lambda a, b: np.array([a, b]), ANY, grad=(0, 1)),
    OpCase("Stack/empty", "Stack", lambda: _joined(P.Stack(1)),
           lambda rng, dt: (sample(rng, dt, 0, 3), sample(rng, dt, 0, 3)),
           lambda a, b: np.zeros((0, 2, 3), a.dtype), ANY),
    OpCase("Split/three-parts", "Split", lambda: P.Split(1, 3),
           lambda rng, dt: (sample(rng, dt, 2, 6, 3),),
           lambda x: (x[:, 0:2], x[:, 2:4], x[:, 4:6]), ANY, grad=(0,)),
    OpCase("Split/negative-axis", "Split", lambda: P.Split(-1, 2),
           lambda rng, dt: (sample(rng, dt, 2, 4),),
           lambda x: (x[:, :2], x[:, 2:]), ANY, grad=(0,)),
    OpCase("Split/one-part", "Split", P.Split,
           lambda rng, dt: (sample(rng, dt, 4),),
           lambda x: (x.copy(),), ANY, grad=(0,)),
    OpCase("Split/empty", "Split", lambda: P.Split(-1, 2),
           lambda rng, dt: (sample(rng, dt, 0, 4),),
           lambda x: (np.zeros((0, 2), x.dtype),) * 2, ANY),
    # -- slicing --------------------------------------------------------------------------
    OpCase("Slice/block", "Slice", P.Slice,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), (1, 0, 1), (1, 2, 3)),
           lambda x, *_: x[1:2, 0:2, 1:4], ANY, grad=(0,)),
    OpCase("Slice/to-end", "Slice", P.Slice,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), [0, 1, 2], [-1, -1, 1]),
           lambda x, *_: x[:, 1:, 2:3], ANY, grad=(0,)),
    OpCase("Slice/empty", "Slice", P.Slice,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), (2, 0, 0), (0, 3, 4)),
           lambda x, *_: np.zeros((0, 3, 4), x.dtype), ANY),
    OpCase("Slice/0d", "Slice", P.Slice,
           lambda rng, dt: (sample(rng, dt), (), ()),
           lambda x, *_: x.copy(), ANY, grad=(0,)),
    OpCase("StridedSlice/plain", "StridedSlice",
           **_strided({}, (2, 3, 4), ((1, 0, 0), (2, 1, 3), (1, 1, 1)),
                      lambda x: x[1:2, 0:1, 0:3]), dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/negative-strides", "StridedSlice",
           **_strided({}, (2, 3, 4), ((0, 2, -1), (2, -4, 0), (1, -1, -2)),
                      lambda x: x[:, ::-1, [3, 1]]), dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/clamped", "StridedSlice",
           **_strided({}, (2, 3, 4), ((-9, 1), (9, 99), (2, 1)), lambda x: x[:1, 1:]),
           dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/short-spec", "StridedSlice",
           **_strided({}, (2, 3, 4), ((1,), (2,), (1,)), lambda x: x[1:2]),
           dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/begin-end-masks", "StridedSlice",
           **_strided({"begin_mask": 0b001, "end_mask": 0b100}, (2, 3, 4),
                      ((1, 1, 1), (1, 3, 0), (1, 1, 2)), lambda x: x[:1, 1:3, [1, 3]]),
           dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/masks-empty-result", "StridedSlice",
           **_strided({"begin_mask": 0b010, "end_mask": 0b011}, (2, 3, 4),
                      ((1, 2, 3), (0, 0, 1), (1, -1, 1)),
                      lambda x: np.zeros((1, 3, 0), x.dtype)), dtypes=ANY),
    OpCase("StridedSlice/shrink", "StridedSlice",
           **_strided({"shrink_axis_mask": 0b11}, (2, 3, 4), ((1, -1), (2, 0), (1, 1)),
                      lambda x: x[1, 2]), dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/shrink-to-0d", "StridedSlice",
           **_strided({"shrink_axis_mask": 0b11}, (3, 4), ((1, 2), (2, 3), (1, 1)),
                      lambda x: x[1, 2, ...]), dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/new-axis", "StridedSlice",
           **_strided({"new_axis_mask": 0b101}, (2, 3, 4), ((0, 0, 1), (1, 1, 2), (1, 1, 1)),
                      lambda x: x[None, 0:1, None]), dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/ellipsis-new-axis", "StridedSlice",
           **_strided({"ellipsis_mask": 0b10, "new_axis_mask": 0b100}, (2, 2, 2, 5),
                      ((1, 0, 0, 3), (2, 0, 0, 5), (1, 1, 1, 1)),
                      lambda x: x[1:2, :, :, None, 3:5]), dtypes=ANY, grad=(0,)),
    OpCase("StridedSlice/ellipsis-first-shrink", "StridedSlice",
           **_strided({"ellipsis_mask": 0b1, "shrink_axis_mask": 0b10}, (2, 3, 4, 5),
                      ((0, 2), (0, 0), (1, 1)), lambda x: x[:, :, :, 2]), dtypes=ANY),
    OpCase("StridedSlice/empty-range", "StridedSlice",
           **_strided({}, (5,), ((3,), (1,), (1,)), lambda x: np.zeros(0, x.dtype)),
           dtypes=ANY),
    OpCase("StridedSliceGrad/masks", "StridedSliceGrad",
           **_strided_grad({"end_mask": 0b1}, (3, 2), (4, 3), ((1, 0), (3, 3), (1, 2)),
                           (slice(1, 4), [0, 2])), dtypes=NUMBERS, grad=(0,)),
    OpCase("StridedSliceGrad/shrink-reversed", "StridedSliceGrad",
           **_strided_grad({"shrink_axis_mask": 0b1}, (3,), (2, 3), ((1, 2), (2, -4), (1, -1)),
                           (1, [2, 1, 0])), dtypes=NUMBERS, grad=(0,)),
    OpCase("StridedSliceGrad/ellipsis-new-axis", "StridedSliceGrad",
           **_strided_grad({"ellipsis_mask": 0b1, "new_axis_mask": 0b10}, (2, 1, 2), (2, 3),
                           ((0, 0, 1), (0, 0, 3), (1, 1, 1)), (slice(None), slice(1, 3))),
           dtypes=NUMBERS, grad=(0,)),
    OpCase("StridedSliceGrad/dy-flat", "StridedSliceGrad",  # dy read in row-major order
           **_strided_grad({}, (4, 2), (2, 4, 2), ((1, 0, 0), (2, 4, 2), (1, 1, 1)),
                           (slice(1, 2),)), dtypes=NUMBERS, grad=(0,)),
    OpCase("SliceGrad/block", "SliceGrad", G.SliceGrad,
           lambda rng, dt: (sample(rng, dt, 1, 2, 3), sample(rng, dt, 2, 3, 4), (1, 0, 1),
                            (1, 2, 3)),
           lambda dy, x, *_: np.pad(dy, ((1, 0), (0, 1), (1, 0))), NUMBERS, grad=(0,)),
    OpCase("SliceGrad/to-end", "SliceGrad", G.SliceGrad,
           lambda rng, dt: (sample(rng, dt, 2, 2), sample(rng, dt, 2, 3), [0, 1], [-1, -1]),
           lambda dy, x, *_: np.pad(dy, ((0, 0), (1, 0))), NUMBERS, grad=(0,)),
    # -- gathering and scattering ---------------------------------------------------------
    OpCase("Gather/axis0-repeats", "Gather", P.Gather,
           lambda rng, dt: (sample(rng, dt, 3, 2), index(1, 0, 1, 1), 0),
           lambda x, i, _: x[[1, 0, 1, 1]], ANY, grad=(0,)),
    OpCase("Gather/axis1-2d-indices", "Gather", P.Gather,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), index([[2, 0], [1, 1]], dtype=np.int64), 1),
           lambda x, i, _: x[:, [[2, 0], [1, 1]]], ANY, grad=(0,)),
    OpCase("Gather/negative", "Gather", P.Gather,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), index(-1, 0, -2), -1),
           lambda x, i, _: x[..., [3, 0, 2]], ANY, grad=(0,)),
    OpCase("Gather/0d-index", "Gather", P.Gather,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), index(2), 2),
           lambda x, i, _: x[:, :, 2], ANY, grad=(0,)),
    OpCase("Gather/empty-indices", "Gather", P.Gather,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), np.zeros(0, np.int32), 0),
           lambda x, i, _: np.zeros((0, 3, 4), x.dtype), ANY),
    OpCase("GatherNd/elements", "GatherNd", P.GatherNd,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), index([0, 2, 3], [1, 0, -1])),
           _gather_nd, ANY, grad=(0,)),
    OpCase("GatherNd/rows", "GatherNd", P.GatherNd,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4),
                            index([[[1], [0]], [[0], [0]]], dtype=np.int64)),
           _gather_nd, ANY, grad=(0,)),
    OpCase("GatherNd/repeated-pairs", "GatherNd", P.GatherNd,
           lambda rng, dt: (sample(rng, dt, 3, 4), index([2, 1], [0, 3], [2, 1])),
           _gather_nd, ANY, grad=(0,)),
    OpCase("GatherNd/empty", "GatherNd", P.GatherNd,
           lambda rng, dt: (sample(rng, dt, 3, 4), np.zeros((0, 2), np.int32)),
           lambda x, i: np.zeros(0, x.dtype), ANY),
    OpCase("TensorScatterAdd/repeated-elements", "TensorScatterAdd", P.TensorScatterAdd,
           lambda rng, dt: (sample(rng, dt, 3, 4), index([0, 1], [0, 1], [2, -1]),
                            sample(rng, dt, 3)),
           _scatter_add, NUMBERS, grad=(0, 2)),
    OpCase("TensorScatterAdd/rows", "TensorScatterAdd", P.TensorScatterAdd,
           lambda rng, dt: (sample(rng, dt, 3, 2), index([1], [1], [0], dtype=np.int64),
                            sample(rng, dt, 3, 2)),
           _scatter_add, NUMBERS, grad=(0, 2)),
    OpCase("TensorScatterAdd/batched-slices", "TensorScatterAdd", P.TensorScatterAdd,
           lambda rng, dt: (sample(rng, dt, 2, 3, 4), index([[[0, 1]], [[1, 2]]]),
                            sample(rng, dt, 2, 1, 4)),
           _scatter_add, NUMBERS, grad=(0, 2)),
    OpCase("TensorScatterAdd/no-updates", "TensorScatterAdd", P.TensorScatterAdd,
           lambda rng, dt: (sample(rng, dt, 3, 4), np.zeros((0, 2), np.int32),
                            sample(rng, dt, 0)),
           lambda x, *_: x.copy(), NUMBERS),
    OpCase("OneHot/out-of-range", "OneHot", P.OneHot,
           lambda rng, dt: (index([0, 3], [5, -1]), 4, np.array(2, dt), np.array(-1, dt)),
           _one_hot(-1), NUMBERS, grad=(2, 3)),
    OpCase("OneHot/axis0", "OneHot", lambda: P.OneHot(0),
           lambda rng, dt: (index(2, 0, 1, 1, dtype=np.int64), 3, sample(rng, dt),
                            sample(rng, dt)),
           _one_hot(0), NUMBERS, grad=(2, 3)),
    OpCase("OneHot/0d-index", "OneHot", P.OneHot,
           lambda rng, dt: (index(2), 3, np.array(1, dt), np.array(0, dt)),
           _one_hot(-1), NUMBERS),
    OpCase("OneHot/depth0", "OneHot", lambda: P.OneHot(1),
           lambda rng, dt: (index([0], [1]), 0, np.array(1, dt), np.array(0, dt)),
           _one_hot(1), NUMBERS),
]
