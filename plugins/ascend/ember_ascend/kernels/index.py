"""Ordering and element-wise indexing: TopK and Sort (aclnnTopk, aclnnSort, int32 indices as
MindSpore's), GatherD and its gradient (aclnnGather, aclnnScatterAdd) and IndexAdd
(aclnnIndexAdd into the Parameter), ReverseSequence (aclnnGather at positions computed on the
device)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, IntArray, Scalar, view
from ember_ascend.kernels.common import Arithmetic, cast


def _gathered(dev: AscendDevice, x: DeviceArray, dim: int, index: DeviceArray) -> DeviceArray:
    out = dev.empty(index.shape, x.dtype)
    if out.size:
        dev.aclnn("Gather", x, dim, index, out)
    return out


def _top_k(prim: Any, dev: AscendDevice) -> Any:
    """The k largest along the last axis, ties the lower index first; unsorted, in the order of
    their positions (the indices sorted, aclnnSort, and the values gathered again)."""
    ordered = prim.sorted

    def kernel(x: DeviceArray, k: int) -> tuple[DeviceArray, DeviceArray]:
        dim = x.ndim - 1
        shape = (*x.shape[:-1], k)
        values, indices = dev.empty(shape, x.dtype), dev.empty(shape, np.int64)
        if not values.size:
            return values, cast(dev, indices, np.int32)
        dev.aclnn("Topk", x, k, dim, True, True, values, indices)
        if not ordered:
            positions, order = dev.empty(shape, np.int64), dev.empty(shape, np.int64)
            dev.aclnn("Sort", indices, True, dim, False, positions, order)
            indices, values = positions, _gathered(dev, x, dim, positions)
        return values, cast(dev, indices, np.int32)

    return kernel


def _sort(prim: Any, dev: AscendDevice) -> Any:
    axis, descending = prim.axis, prim.descending

    def kernel(x: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
        values, indices = dev.empty(x.shape, x.dtype), dev.empty(x.shape, np.int64)
        if x.size:
            dev.aclnn("Sort", x, True, axis % x.ndim, descending, values, indices)
        return values, cast(dev, indices, np.int32)

    return kernel


def _gather_d(prim: Any, dev: AscendDevice) -> Any:
    return lambda x, dim, index: _gathered(dev, x, dim % x.ndim, index)


def _gather_d_grad(prim: Any, dev: AscendDevice) -> Any:
    """Zeros of the input's shape with grad added at the gathered positions (aclnnScatterAdd)."""
    dim, shape = prim.dim, tuple(prim.shape)

    def kernel(index: DeviceArray, grad: DeviceArray) -> DeviceArray:
        zeros = dev.zero(dev.empty(shape, grad.dtype))
        if not grad.size:
            return zeros
        out = dev.empty(shape, grad.dtype)
        dev.aclnn("ScatterAdd", zeros, dim % len(shape), index, grad, out)
        return out

    return kernel


def _index_add(prim: Any, dev: AscendDevice) -> Any:
    axis = prim.axis

    def kernel(variable: DeviceArray, indices: DeviceArray, y: DeviceArray) -> DeviceArray:
        if y.size:
            dev.aclnn("IndexAdd", variable, axis % variable.ndim, indices, y,
                      Scalar(1, variable.dtype), variable)
        return variable

    return kernel


def _reverse_sequence(prim: Any, dev: AscendDevice) -> Any:
    """x gathered along seq_dim at position length - 1 - t for t < length of its batch
    entry, t elsewhere."""
    seq_dim, batch_dim = prim.seq_dim, prim.batch_dim

    def kernel(x: DeviceArray, seq_lengths: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, np.int64)
        shape = tuple(d if i in (seq_dim, batch_dim) else 1 for i, d in enumerate(x.shape))
        steps = dev.constant(np.arange(x.shape[seq_dim]).reshape(
            [-1 if i == seq_dim else 1 for i in range(x.ndim)]), np.int64)
        if not x.size:
            return dev.empty(x.shape, x.dtype)
        lengths = view(cast(dev, seq_lengths, np.int64),
                       tuple(x.shape[batch_dim] if i == batch_dim else 1 for i in range(x.ndim)))
        positions = a.where(a.compare("LtTensor", steps, lengths),
                            a.sub(a.sub(lengths, 1), steps), steps)
        index = dev.empty(x.shape, np.int64)
        dev.aclnn("Expand", view(positions, shape), IntArray(x.shape), index)
        return _gathered(dev, x, seq_dim, index)

    return kernel


KERNELS = {
    "ReverseSequence": _reverse_sequence,
    "TopK": _top_k,
    "Sort": _sort,
    "GatherD": _gather_d,
    "GatherDGrad": _gather_d_grad,
    "IndexAdd": _index_add,
}
