"""Elementwise arithmetic, comparisons, reductions and matrix products on NumPy."""

from __future__ import annotations

import functools
import warnings

import numpy as np

from ember_cpu import threads


def _quiet(fn):
    """``fn`` run with NumPy's floating-point warnings off: kernels whose results hold inf or
    NaN by definition (x / 0, log 0, sqrt -1) warn about none of them, as MindSpore's do not."""
    return np.errstate(all="ignore")(fn)


_CAST_WARNED = []  # once a float-to-integer Cast has warned, the next ones skip the check


@_quiet
def _cast(x, dtype):
    """``x`` as ``dtype``. Casting NaN, inf or floats outside an integer dtype's range gives
    unspecified values (NumPy's, as MindSpore's C++ casts): the first such Cast warns."""
    target = dtype.np_dtype
    if not _CAST_WARNED and x.dtype.kind == "f" and target.kind in "iu" and x.size:
        info = np.iinfo(target)
        low, high = float(np.min(x)), float(np.max(x))  # NaN when x holds one
        if not (low > info.min - 1.0 and high < info.max + 1.0):
            _CAST_WARNED.append(True)
            warnings.warn(f"Cast: casting NaN, inf or out-of-range "
                          f"{x.dtype.name.capitalize()} values to {dtype} gives unspecified "
                          "values (warned once per process)",
                          UserWarning, stacklevel=2)
    return x.astype(target)


@_quiet
def _divide(x, y):
    """``x / y``; integers truncate toward zero, and x / 0 is the dtype's max or min (0 / 0
    is 0), as MindSpore's CPU kernels compute them."""
    if x.dtype.kind == "f":
        return np.true_divide(x, y)
    quotient = np.floor_divide(x, y)
    return _saturated(x, y, quotient + ((np.remainder(x, y) != 0) & ((x < 0) != (y < 0))))


def _saturated(x, y, quotient):
    """An integer ``quotient`` of ``x / y`` where x / 0 is the dtype's max or min (0 / 0 is
    0), as MindSpore's CPU kernels give it."""
    by_zero = y == 0
    if np.any(by_zero):
        info = np.iinfo(x.dtype)
        # Scalars of x's dtype: mixing Python ints would make uint64 results float64.
        high, low, zero = (np.array(v, x.dtype) for v in (info.max, info.min, 0))
        limit = np.where(x > 0, high, np.where(x < 0, low, zero))
        quotient = np.where(by_zero, limit, quotient)
    return np.asarray(quotient, dtype=x.dtype)


@_quiet
def _power(x, y):
    """``x ** y``; integers are raised in double precision and converted back."""
    if x.dtype.kind == "f":
        return np.power(x, y)
    return np.asarray(np.power(x.astype(np.float64), y), dtype=x.dtype)


def _quiet_unary(fn):
    return lambda prim: _quiet(fn)


def _reduce(fn):
    def factory(prim):
        keep = prim.keep_dims

        def kernel(x, axis):
            axes = None if axis == () or x.ndim == 0 else axis
            return np.asarray(fn(x, axis=axes, keepdims=keep), dtype=x.dtype)

        return kernel

    return factory


@_quiet
def _mean(x, axis, keepdims):
    """The mean, accumulated in float32 for float16 (as ``np.mean``); int means truncate."""
    total = np.sum(x, axis=axis, keepdims=keepdims,
                   dtype=np.float32 if x.dtype == np.float16 else None)
    count = x.size // max(np.size(total), 1) if x.size else 0
    return np.asarray(np.true_divide(total, count), dtype=x.dtype)


def _arg_index(find):
    """Argmax or Argmin, ``find`` being ``np.argmax`` or ``np.argmin``."""
    def factory(prim):
        axis, dtype = prim.axis, prim.output_type.np_dtype
        return lambda x: np.asarray(find(x, axis=axis), dtype=dtype)

    return factory


def _arg_with_value(find):
    """ArgMaxWithValue or ArgMinWithValue: the index (Int32) and the value found."""
    def factory(prim):
        axis, keep = prim.axis, prim.keep_dims

        def kernel(x):
            index = find(x, axis=axis, keepdims=True)
            values = np.take_along_axis(x, index, axis)
            if not keep:
                index, values = np.squeeze(index, axis), np.squeeze(values, axis)
            return index.astype(np.int32), values

        return kernel

    return factory


def sum_to(a, shape):
    """``a`` summed over the axes that broadcasting to its shape added or stretched."""
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and a.shape[lead + i] != 1)
    return np.sum(a, axis=axes, dtype=a.dtype).reshape(shape) if axes else a


def _select_grad(prim):
    """MaximumGrad or MinimumGrad: ``dout`` to x where ``prim.compare`` (x, y) holds, else to
    y, each summed back to its input's shape."""
    wins, grad_x, grad_y = getattr(np, prim.compare), prim.grad_x, prim.grad_y

    def kernel(x, y, dout):
        to_x, zero = wins(x, y), np.zeros((), dout.dtype)
        dx = sum_to(np.where(to_x, dout, zero), x.shape) if grad_x else np.zeros_like(x)
        dy = sum_to(np.where(to_x, zero, dout), y.shape) if grad_y else np.zeros_like(y)
        return dx, dy

    return kernel


def _add_n(prim):
    return _quiet(lambda *xs: functools.reduce(np.add, xs))


#: multiply-adds from which a matrix product is split among the kernel threads
_SPLIT_MACS = 1 << 22


def _matmul(prim):
    ta, tb = prim.transpose_a, prim.transpose_b

    @_quiet
    def kernel(x, y):
        x, y = np.swapaxes(x, -1, -2) if ta else x, np.swapaxes(y, -1, -2) if tb else y
        if x.ndim != 2 or y.ndim != 2 or x.size * y.shape[1] < _SPLIT_MACS or threads.count() < 2:
            return np.matmul(x, y)
        out = np.empty((x.shape[0], y.shape[1]), dtype=np.result_type(x, y))
        # the columns of y split: each thread packs its share of the larger operand only
        bounds = np.linspace(0, y.shape[1], threads.count() + 1).astype(int)
        threads.each(lambda i: np.matmul(x, y[:, bounds[i]:bounds[i + 1]],
                                         out=out[:, bounds[i]:bounds[i + 1]]),
                     threads.count(), shared_from=2)
        return out

    return kernel


KERNELS = {
    "Add": lambda p: np.add,
    "Sub": lambda p: np.subtract,
    "Mul": lambda p: np.multiply,
    "Div": lambda p: _divide,
    "RealDiv": lambda p: _divide,
    "Pow": lambda p: _power,
    "Maximum": lambda p: np.maximum,
    "Minimum": lambda p: np.minimum,
    "MaximumGrad": _select_grad,
    "MinimumGrad": _select_grad,
    "Equal": lambda p: np.equal,
    "NotEqual": lambda p: np.not_equal,
    "Greater": lambda p: np.greater,
    "GreaterEqual": lambda p: np.greater_equal,
    "Less": lambda p: np.less,
    "LessEqual": lambda p: np.less_equal,
    "LogicalAnd": lambda p: np.logical_and,
    "LogicalOr": lambda p: np.logical_or,
    "LogicalNot": lambda p: np.logical_not,
    "Select": lambda p: np.where,
    "Neg": lambda p: np.negative,
    "Square": lambda p: _quiet(np.square),
    "Abs": lambda p: np.abs,
    "Sign": lambda p: np.sign,
    "Exp": _quiet_unary(np.exp),
    "Log": _quiet_unary(np.log),
    "Sqrt": _quiet_unary(np.sqrt),
    "Rsqrt": _quiet_unary(lambda x: np.reciprocal(np.sqrt(x))),
    "SqrtGrad": lambda p: _quiet(lambda y, dy: dy / (2 * y)),
    "Reciprocal": _quiet_unary(np.reciprocal),
    "ReciprocalGrad": lambda p: _quiet(lambda y, dy: -dy * y * y),
    "ZerosLike": lambda p: np.zeros_like,
    "OnesLike": lambda p: np.ones_like,
    "Cast": lambda p: _cast,
    "Fill": lambda p: lambda dtype, shape, value: np.full(shape, value, dtype.np_dtype),
    "AddN": _add_n,
    "AccumulateNV2": _add_n,
    "ReduceSum": _reduce(np.sum),
    "ReduceMean": _reduce(_mean),
    "ReduceMax": _reduce(np.max),
    "ReduceMin": _reduce(np.min),
    "Argmax": _arg_index(np.argmax),
    "ArgMaxWithValue": _arg_with_value(np.argmax),
    "MatMul": _matmul,
    "BatchMatMul": _matmul,
}
