"""Value-shaped primitives (Range, MaskedSelect, Unique) and their relatives (MaskedSelectGrad,
UniqueWithPad): the output's length is read back to the host before the output is
allocated."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, DType, Scalar, TensorList, View
from ember_ascend.kernels.common import Arithmetic, cast


def _range(prim: Any, dev: AscendDevice) -> Any:
    """aclnnArange of start, limit and delta read back to the host, as NumPy's arange counts:
    ceil((limit - start) / delta) numbers."""
    def kernel(start: DeviceArray, limit: DeviceArray, delta: DeviceArray) -> DeviceArray:
        first, last, step = (dev.to_host(v).item() for v in (start, limit, delta))
        out = dev.empty((max(int(np.ceil((last - first) / step)), 0),), start.dtype)
        if out.size:
            dev.aclnn("Arange", *(Scalar(v, start.dtype) for v in (first, last, step)), out)
        return out

    return kernel


def _masked_select(prim: Any, dev: AscendDevice) -> Any:
    """aclnnMaskedSelect writes the selected elements first in an output of the broadcast
    size; their count (the mask's True elements, times the times it is repeated) is read
    back, and that many are copied out."""
    def kernel(x: DeviceArray, mask: DeviceArray) -> DeviceArray:
        shape = np.broadcast_shapes(x.shape, mask.shape)
        size = int(np.prod(shape, dtype=np.int64))
        if not size:
            return dev.empty((0,), x.dtype)
        a = Arithmetic(dev, np.int64)
        trues = a.sum(cast(dev, mask, np.int64), tuple(range(mask.ndim)), False)
        count = int(dev.to_host(trues)) * (size // mask.size)
        full = dev.empty((size,), x.dtype)
        dev.aclnn("MaskedSelect", x, mask, full)
        out = dev.empty((count,), x.dtype)
        if count:
            dev.aclnn("InplaceCopy", out, View(full, (count,), (1,)))
        return out

    return kernel


def _non_zero(prim: Any, dev: AscendDevice) -> Any:
    """Each dimension's coordinates (constants) at x's nonzero elements, by
    :func:`_masked_select`, stacked as rows or columns (aclnnStack)."""
    select = _masked_select(prim, dev)

    def kernel(x: DeviceArray) -> DeviceArray:
        nonzero = Arithmetic(dev, x.dtype).compare("NeTensor", x, 0)
        grid = np.indices(x.shape, dtype=np.int64)
        columns = [select(dev.constant(grid[d], np.int64), nonzero) for d in range(x.ndim)]
        count = columns[0].size
        out = dev.empty((x.ndim, count) if prim.transpose else (count, x.ndim), np.int64)
        if out.size:
            dev.aclnn("Stack", TensorList(tuple(columns)), 0 if prim.transpose else 1, out)
        return out

    return kernel


def _masked_select_grad(prim: Any, dev: AscendDevice) -> Any:
    """``grad`` scattered in order to the mask's True positions of the broadcast shape
    (aclnnInplaceMaskedScatter into zeros), summed to x's shape."""
    def kernel(x: DeviceArray, mask: DeviceArray, grad: DeviceArray) -> DeviceArray:
        shape = np.broadcast_shapes(x.shape, mask.shape)
        spread = dev.zero(dev.empty(shape, grad.dtype))
        if grad.size:
            dev.aclnn("InplaceMaskedScatter", spread, mask, grad)
        lead = len(shape) - x.ndim
        axes = tuple(i for i, d in enumerate(shape) if i < lead or x.shape[i - lead] != d)
        if not axes:
            return spread
        summed = Arithmetic(dev, grad.dtype).sum(spread, axes, keep=True)
        out = dev.empty(x.shape, grad.dtype)
        dev.copy(out, summed)
        return out

    return kernel


def _first(full: DeviceArray, count: int) -> View:
    """The first ``count`` elements of 1-d ``full``."""
    return View(full, (count,), (1,))


def _unique_of(dev: AscendDevice, x: DeviceArray) -> tuple[DeviceArray, DeviceArray, int]:
    """(the distinct values in order of first appearance, padded to x's size; each element's
    position among them, int64; how many there are, read back). x is sorted (aclnnSort,
    stable), the starts of runs of equal values marked and counted (aclnnCumsum), the runs
    ordered by their first position (aclnnMaskedSelect, aclnnSort) and each element's run
    rank put back at its position (aclnnIndexPutImpl)."""
    n = x.size
    values, positions = dev.empty((n,), x.dtype), dev.empty((n,), np.int64)
    dev.aclnn("Sort", x, True, 0, False, values, positions)
    starts = dev.empty((n,), np.bool_)
    dev.aclnn("InplaceFillScalar", View(starts, (1,), (1,)), Scalar(True, np.bool_))
    if n > 1:
        dev.aclnn("NeTensor", View(values, (n - 1,), (1,), 1), View(values, (n - 1,), (1,)),
                  View(starts, (n - 1,), (1,), 1))
    runs = dev.empty((n,), np.int64)
    dev.aclnn("Cumsum", cast(dev, starts, np.int64), 0, DType(np.int64), runs)
    last = dev.empty((1,), np.int64)
    dev.aclnn("InplaceCopy", last, View(runs, (1,), (1,), n - 1))
    count = int(dev.to_host(last)[0])
    firsts, by_value = dev.empty((n,), np.int64), dev.empty((n,), x.dtype)
    dev.aclnn("MaskedSelect", positions, starts, firsts)
    dev.aclnn("MaskedSelect", values, starts, by_value)
    ordered, order = dev.empty((count,), np.int64), dev.empty((count,), np.int64)
    dev.aclnn("Sort", _first(firsts, count), True, 0, False, ordered, order)
    out = dev.empty((n,), x.dtype)
    dev.aclnn("GatherV2", _first(by_value, count), 0, order, _first(out, count))
    ranks, rank = dev.empty((count,), np.int64), dev.empty((count,), np.int64)
    dev.aclnn("Sort", order, True, 0, False, ranks, rank)  # the inverse permutation
    run = Arithmetic(dev, np.int64).add(runs, -1)
    ranked = dev.empty((n,), np.int64)
    dev.aclnn("GatherV2", rank, 0, run, ranked)
    index = dev.empty((n,), np.int64)
    dev.aclnn("IndexPutImpl", index, TensorList((positions,)), ranked, False, False)
    return out, index, count


def _unique(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
        if not x.size:
            return dev.empty((0,), x.dtype), dev.empty(x.shape, np.int32)
        padded, index, count = _unique_of(dev, x)
        values = dev.empty((count,), x.dtype)
        dev.aclnn("InplaceCopy", values, _first(padded, count))
        return values, cast(dev, index, np.int32)

    return kernel


def _unique_with_pad(prim: Any, dev: AscendDevice) -> Any:
    """Unique's values padded with ``pad_num`` to x's size, and the positions in x's dtype."""
    def kernel(x: DeviceArray, pad_num: Any) -> tuple[DeviceArray, DeviceArray]:
        if not x.size:
            return dev.empty((0,), x.dtype), dev.empty(x.shape, x.dtype)
        padded, index, count = _unique_of(dev, x)
        if count < x.size:
            dev.aclnn("InplaceFillScalar", View(padded, (x.size - count,), (1,), count),
                      Scalar(int(pad_num), x.dtype))
        return padded, cast(dev, index, x.dtype)

    return kernel


KERNELS = {
    "Unique": _unique,
    "NonZero": _non_zero,
    "UniqueWithPad": _unique_with_pad,
    "Range": _range,
    "MaskedSelect": _masked_select,
    "MaskedSelectGrad": _masked_select_grad,
}
