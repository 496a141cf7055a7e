"""Products and logical reductions, cumulative scans, index of the minimum, counts, on
TensorFlow."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_gpu.kernels.math import (
    Factory,
    Kernel,
    _arg_index,
    _arg_with_value,
    _cast,
    _compare,
    _min,
    _reduce,
    raw,
    tf,
)


def _cumulative(scan: Kernel) -> Factory:
    """CumSum or CumProd: ``scan`` (raw.Cumsum, raw.Cumprod) with the primitive's flags."""
    def factory(prim: Any) -> Kernel:
        exclusive, reverse = prim.exclusive, prim.reverse
        return lambda x, axis: scan(x=x, axis=np.int32(axis), exclusive=exclusive,
                                    reverse=reverse)

    return factory


_equal = _compare(raw.Equal)(None)


def _total(x: Any) -> Any:
    """The sum of every element of ``x``."""
    return raw.Sum(input=x, axis=np.arange(len(x.shape), dtype=np.int32))


def _equal_count(x: Any, y: Any) -> Any:
    count = _total(_cast(_equal(x, y), x.dtype))
    return raw.Reshape(tensor=count, shape=np.asarray([1], np.int32))


def _square_sum_all(x: Any, y: Any) -> tuple:
    return _total(raw.Square(x=x)), _total(raw.Square(x=y))


def _histogram(prim: Any) -> Kernel:
    """Bin ``floor((x - low) / width)`` clipped to the bins, computed in float64, counted by a
    segment sum (which XLA compiles)."""
    nbins = prim.nbins

    def kernel(x: Any, value_range: Any) -> Any:
        bounds = _cast(value_range, tf.float64)
        width = (bounds[1] - bounds[0]) / nbins
        bins = tf.math.floor((_cast(x, tf.float64) - bounds[0]) / width)
        bins = tf.where(tf.math.is_nan(bins), tf.constant(0, tf.float64), bins)
        bins = _cast(tf.clip_by_value(bins, 0, nbins - 1), tf.int32)
        ones = tf.ones_like(bins)
        return raw.UnsortedSegmentSum(data=tf.reshape(ones, [-1]),
                                      segment_ids=tf.reshape(bins, [-1]), num_segments=nbins)

    return kernel


KERNELS: dict[str, Factory] = {
    "ReduceProd": _reduce(lambda x, axes, keep: raw.Prod(input=x, axis=axes, keep_dims=keep)),
    "ReduceAll": _reduce(lambda x, axes, keep: raw.All(input=x, axis=axes, keep_dims=keep)),
    "ReduceAny": _reduce(lambda x, axes, keep: raw.Any(input=x, axis=axes, keep_dims=keep)),
    "CumSum": _cumulative(raw.Cumsum),
    "CumProd": _cumulative(raw.Cumprod),
    "Argmin": _arg_index(raw.ArgMin),
    "ArgMinWithValue": _arg_with_value(raw.ArgMin, _min),
    "EqualCount": lambda p: _equal_count,
    "SquareSumAll": lambda p: _square_sum_all,
    "HistogramFixedWidth": _histogram,
}
