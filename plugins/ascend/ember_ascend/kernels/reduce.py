"""Products and cumulative scans (aclnnProdDim, aclnnCumsum, aclnnCumprod, with aclnnFlip),
sums of squares and of matches (aclnnSquare/aclnnEqTensor, then aclnnReduceSum), histograms
and top-k membership composed of elementwise operators, sums and aclnnIndexPutImpl, and
evenly spaced values."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import (
    AscendDevice,
    DeviceArray,
    DType,
    IntArray,
    Scalar,
    TensorList,
    View,
    contiguous_strides,
    view,
)
from ember_ascend.kernels.common import Arithmetic, cast, flip
from ember_ascend.kernels.math import _axes, _fill_with


def _reduce_prod(prim: Any, dev: AscendDevice) -> Any:
    """One aclnnProdDim per axis, from the last axis down (so the others keep their place)."""
    keep = prim.keep_dims

    def kernel(x: DeviceArray, axis: Any) -> DeviceArray:
        result = x
        for dim in reversed(_axes(x, axis) if x.ndim else ()):
            shape = tuple(1 if i == dim else d for i, d in enumerate(result.shape)
                          if keep or i != dim)
            out = dev.empty(shape, x.dtype)
            dev.aclnn("ProdDim", result, dim, keep, DType(x.dtype), out)
            result = out
        if result is x:
            result = dev.empty(x.shape, x.dtype)
            dev.copy(result, x)
        return result

    return kernel


def _cumulative(op: str, identity: int) -> Any:
    """CumSum or CumProd: the scan along the axis, shifted by one from ``identity`` when
    exclusive (a strided copy), run from the end when reversed (aclnnFlip before and after)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        exclusive, reverse = prim.exclusive, prim.reverse

        def kernel(x: DeviceArray, axis: int) -> DeviceArray:
            dim = axis % x.ndim
            source = flip(dev, x, (dim,)) if reverse and x.size else x
            scan = dev.empty(x.shape, x.dtype)
            if x.size:
                where = dim if op == "Cumsum" else Scalar(dim, np.dtype(np.int64))
                dev.aclnn(op, source, where, DType(x.dtype), scan)
            if exclusive and x.size:
                scan = _shifted(dev, scan, dim, identity)
            return flip(dev, scan, (dim,)) if reverse and x.size else scan

        return kernel

    return factory


def _shifted(dev: AscendDevice, scan: DeviceArray, dim: int, identity: int) -> DeviceArray:
    """``identity`` then ``scan`` without its last entry, along ``dim``."""
    out = _fill_with(dev, dev.empty(scan.shape, scan.dtype), identity)
    if scan.shape[dim] > 1:
        strides = contiguous_strides(scan.shape)
        shape = tuple(d - 1 if i == dim else d for i, d in enumerate(scan.shape))
        dev.aclnn("InplaceCopy", View(out, shape, strides, strides[dim]),
                  View(scan, shape, strides))
    return out


def _sum_all(dev: AscendDevice, x: DeviceArray, out: DeviceArray | View) -> Any:
    """The sum of every element of ``x`` into ``out`` (0-d, or a 0-d view)."""
    if x.size:
        dev.aclnn("ReduceSum", x, IntArray(tuple(range(x.ndim))), False, DType(x.dtype), out)
    else:
        dev.zero(out.array if isinstance(out, View) else out)
    return out


def _squares(dev: AscendDevice, x: DeviceArray) -> DeviceArray:
    out = dev.empty(x.shape, x.dtype)
    dev.aclnn("Square", x, out)
    return _sum_all(dev, out, dev.empty((), x.dtype))


def _equal_count(prim: Any, dev: AscendDevice) -> Any:
    """[the number of equal elements], of x's dtype."""
    def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
        equal = dev.empty(x.shape, np.bool_)
        dev.aclnn("EqTensor", x, y, equal)
        counted = cast(dev, equal, x.dtype)
        out = dev.empty((1,), x.dtype)
        _sum_all(dev, counted, view(out, ()))
        return out

    return kernel


def _l2_loss(prim: Any, dev: AscendDevice) -> Any:
    """sum(x^2) / 2."""
    def kernel(x: DeviceArray) -> DeviceArray:
        out = dev.empty((), x.dtype)
        dev.aclnn("Mul", _squares(dev, x), dev.constant(0.5, x.dtype), out)
        return out

    return kernel


def _histogram(prim: Any, dev: AscendDevice) -> Any:
    """Counts of bin floor((x - low) / width), NaN in bin 0 and the rest clipped to the bins,
    computed in float64; counted by accumulating ones (aclnnIndexPutImpl)."""
    nbins = prim.nbins

    def kernel(x: DeviceArray, value_range: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, np.float64)
        xs, bounds = (cast(dev, v, np.float64) for v in (x, value_range))
        low, high = (View(bounds, (), (), k) for k in (0, 1))
        width = a.div(a.sub(high, low), nbins)
        bins = a.op("Floor", a.div(a.sub(xs, low), width))
        bins = a.where(a.compare("NeTensor", bins, bins), 0, bins)
        bins = a.op("Minimum", a.op("Maximum", bins, 0), nbins - 1)
        index = a.op("Cast", view(bins, (x.size,)), DType(np.int64), out_dtype=np.int64)
        counts = dev.zero(dev.empty((nbins,), np.int32))
        if x.size:
            dev.aclnn("IndexPutImpl", counts, TensorList((index,)),
                      dev.constant(1, np.int32), True, False)
        return counts

    return kernel


def _in_top_k(prim: Any, dev: AscendDevice) -> Any:
    """Fewer than k classes score above the target's (aclnnGather), and it is finite."""
    k = prim.k

    def kernel(x1: DeviceArray, x2: DeviceArray) -> DeviceArray:
        n = x1.shape[0]
        a = Arithmetic(dev, x1.dtype)
        target = dev.empty((n, 1), x1.dtype)
        if n:
            dev.aclnn("Gather", x1, 1, view(x2, (n, 1)), target)
        above = Arithmetic(dev, np.int32)
        counted = above.sum(cast(dev, a.compare("GtTensor", x1, target), np.int32), (1,), False)
        return a.op("LogicalAnd", above.compare("LtTensor", counted, k),
                    a.op("IsFinite", view(target, (n,)), out_dtype=np.bool_),
                    out_dtype=np.bool_)

    return kernel


def _lin_space(prim: Any, dev: AscendDevice) -> Any:
    """start + i * (stop - start) / (num - 1), the last value stop itself (as np.linspace)."""
    def kernel(start: DeviceArray, stop: DeviceArray, num: int) -> DeviceArray:
        a = Arithmetic(dev, start.dtype)
        step = a.div(a.sub(stop, start), max(num - 1, 1))
        out = a.add(a.mul(dev.constant(np.arange(num), start.dtype), step), start)
        if num > 1:
            dev.aclnn("InplaceCopy", View(out, (), (), num - 1), stop)
        return out

    return kernel


KERNELS = {
    "HistogramFixedWidth": _histogram,
    "InTopK": _in_top_k,
    "LinSpace": _lin_space,
    "EqualCount": _equal_count,
    "SquareSumAll": lambda prim, dev: lambda x, y: (_squares(dev, x), _squares(dev, y)),
    "L2Loss": _l2_loss,
    "ReduceProd": _reduce_prod,
    "CumSum": _cumulative("Cumsum", 0),
    "CumProd": _cumulative("Cumprod", 1),
}
