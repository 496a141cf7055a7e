"""Products and logical reductions, cumulative scans, index of the minimum, counts, on NumPy."""

from __future__ import annotations

import numpy as np

from ember_cpu.kernels.math import _arg_index, _arg_with_value, _quiet, _reduce


def _cumulative(scan, identity):
    """CumSum or CumProd: ``scan`` (np.cumsum, np.cumprod) along the axis, shifted by one from
    ``identity`` when exclusive, run from the end when reversed."""
    def factory(prim):
        exclusive, reverse = prim.exclusive, prim.reverse

        @_quiet
        def kernel(x, axis):
            if reverse:
                x = np.flip(x, axis)
            out = scan(x, axis=axis, dtype=x.dtype)
            if exclusive and x.shape[axis]:
                first = np.full_like(np.take(out, [0], axis), identity)
                out = np.concatenate([first, np.delete(out, -1, axis)], axis)
            return np.flip(out, axis) if reverse else out

        return kernel

    return factory


@_quiet
def _square_sum_all(x, y):
    return (np.asarray(np.sum(np.square(x)), x.dtype), np.asarray(np.sum(np.square(y)), y.dtype))


def _histogram(prim):
    """Bin ``floor((x - low) / width)`` clipped to the bins, computed in float64."""
    nbins = prim.nbins

    def kernel(x, value_range):
        low, high = value_range.astype(np.float64)
        width = (high - low) / nbins
        with np.errstate(all="ignore"):
            bins = np.floor((x.astype(np.float64) - low) / width)
        bins = np.clip(np.nan_to_num(bins, nan=0.0), 0, nbins - 1).astype(np.int64)
        return np.bincount(bins.ravel(), minlength=nbins).astype(np.int32)

    return kernel


KERNELS = {
    "ReduceProd": _reduce(_quiet(np.prod)),
    "ReduceAll": _reduce(np.all),
    "ReduceAny": _reduce(np.any),
    "CumSum": _cumulative(np.cumsum, 0),
    "CumProd": _cumulative(np.cumprod, 1),
    "Argmin": _arg_index(np.argmin),
    "ArgMinWithValue": _arg_with_value(np.argmin),
    "EqualCount": lambda p: lambda x, y: np.array([np.sum(x == y)], x.dtype),
    "SquareSumAll": lambda p: _square_sum_all,
    "HistogramFixedWidth": _histogram,
}
