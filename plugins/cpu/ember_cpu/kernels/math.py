"""Elementwise arithmetic, comparisons, reductions and matrix products on NumPy."""

from __future__ import annotations

import numpy as np


def _reduce(fn):
    def factory(prim):
        keep = prim.keep_dims

        def kernel(x, axis):
            axes = None if axis == () else axis
            return np.asarray(fn(x, axis=tuple(axes) if isinstance(axes, list) else axes,
                                 keepdims=keep), dtype=x.dtype)

        return kernel

    return factory


KERNELS = {
    "Add": lambda p: np.add,
    "Sub": lambda p: np.subtract,
    "Mul": lambda p: np.multiply,
    "RealDiv": lambda p: np.true_divide,
    "Neg": lambda p: np.negative,
    "ZerosLike": lambda p: np.zeros_like,
    "OnesLike": lambda p: np.ones_like,
    "Cast": lambda p: lambda x, dtype: x.astype(dtype.np_dtype),
    "ReduceSum": _reduce(np.sum),
}
