"""Sparse and segmented gathers and scatters composed of aclnnGatherV2, aclnnIndexPutImpl and
elementwise operators: SparseToDense, SparseTensorDenseMatmul (rows of the dense operand
scaled by the values and accumulated, for every dtype), EmbeddingLookup,
UnsortedSegmentSum (ids outside the table or the segments give zeros / are dropped) and
UnsortedSegmentMax/Min/Prod (each segment's selection of the rows reduced)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import (
    AscendDevice,
    DeviceArray,
    Scalar,
    TensorList,
    View,
    transposed,
    view,
)
from ember_ascend.kernels.scatter import columns, reduce_slots


def _op(dev: AscendDevice, op: str, shape: tuple[int, ...], dtype: Any, *args: Any) -> Any:
    out = dev.empty(shape, dtype)
    if out.size:
        dev.aclnn(op, *args, out)
    return out


def _valid(dev: AscendDevice, ids: DeviceArray, size: int) -> tuple[DeviceArray, DeviceArray]:
    """(0 <= ids < size, ids with the others replaced by 0)."""
    low = _op(dev, "GeTensor", ids.shape, np.bool_, ids, dev.constant(0, ids.dtype))
    high = _op(dev, "LtTensor", ids.shape, np.bool_, ids, dev.constant(size, ids.dtype))
    valid = _op(dev, "LogicalAnd", ids.shape, np.bool_, low, high)
    return valid, _op(dev, "SWhere", ids.shape, ids.dtype, valid, ids,
                      dev.constant(0, ids.dtype))


def _sparse_to_dense(prim: Any, dev: AscendDevice) -> Any:
    def kernel(indices: DeviceArray, values: DeviceArray, shape: Any) -> DeviceArray:
        out = dev.zero(dev.empty(tuple(shape), values.dtype))
        if values.size and out.size:
            dev.aclnn("IndexPutImpl", out, columns(indices), values, False, False)
        return out

    return kernel


def _sparse_tensor_dense_matmul(prim: Any, dev: AscendDevice) -> Any:
    adjoint_st, adjoint_dt = prim.adjoint_st, prim.adjoint_dt

    def kernel(indices: DeviceArray, values: DeviceArray, shape: Any,
               dense: DeviceArray) -> DeviceArray:
        rows_of, cols_of = (1, 0) if adjoint_st else (0, 1)
        right = transposed(dense) if adjoint_dt else view(dense)
        out = dev.zero(dev.empty((shape[rows_of], right.shape[1]), values.dtype))
        n = values.shape[0]
        if not (n and out.size):
            return out
        rows, cols = (View(indices, (n,), (2,), k) for k in (rows_of, cols_of))
        picked = _op(dev, "GatherV2", (n, right.shape[1]), values.dtype, right, 0, cols)
        scaled = _op(dev, "Mul", picked.shape, values.dtype, picked, view(values, (n, 1)))
        dev.aclnn("IndexPutImpl", out, TensorList((rows,)), scaled, True, False)
        return out

    return kernel


def _embedding_lookup(prim: Any, dev: AscendDevice) -> Any:
    def kernel(params: DeviceArray, indices: DeviceArray, offset: int) -> DeviceArray:
        ids = _op(dev, "Sub", indices.shape, indices.dtype, indices,
                  dev.constant(offset, indices.dtype), Scalar(1, indices.dtype))
        valid, safe = _valid(dev, ids, params.shape[0])
        shape = (*indices.shape, *params.shape[1:])
        rows = _op(dev, "GatherV2", shape, params.dtype, params, 0, safe)
        column = (*indices.shape, *(1,) * (params.ndim - 1))
        return _op(dev, "SWhere", shape, params.dtype, view(valid, column), rows,
                   dev.constant(0, params.dtype))

    return kernel


def _unsorted_segment_sum(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, segment_ids: DeviceArray, num_segments: int) -> DeviceArray:
        rest = x.shape[segment_ids.ndim:]
        out = dev.zero(dev.empty((num_segments, *rest), x.dtype))
        count = segment_ids.size
        if not (count and out.size):
            return out
        valid, safe = _valid(dev, segment_ids, num_segments)
        rows = view(x, (count, *rest))
        kept = _op(dev, "SWhere", rows.shape, x.dtype, view(valid, (count, *(1,) * len(rest))),
                   rows, dev.constant(0, x.dtype))
        dev.aclnn("IndexPutImpl", out, TensorList((view(safe, (count,)),)), kept, True, False)
        return out

    return kernel


def _unsorted_segment(reduce: str) -> Any:
    """UnsortedSegmentMax/Min/Prod: each segment's rows reduced (ids naming no segment drop
    out, an empty segment holds the reduction's identity)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, segment_ids: DeviceArray, num_segments: int) -> DeviceArray:
            return reduce_slots(dev, reduce, segment_ids, x,
                                (num_segments, *x.shape[segment_ids.ndim:]))

        return kernel

    return factory


KERNELS = {
    "UnsortedSegmentMax": _unsorted_segment("Amax"),
    "UnsortedSegmentMin": _unsorted_segment("Amin"),
    "UnsortedSegmentProd": _unsorted_segment("ProdDim"),
    "SparseToDense": _sparse_to_dense,
    "SparseTensorDenseMatmul": _sparse_tensor_dense_matmul,
    "EmbeddingLookup": _embedding_lookup,
    "UnsortedSegmentSum": _unsorted_segment_sum,
}
