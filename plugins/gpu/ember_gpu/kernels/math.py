"""Elementwise arithmetic, comparisons, reductions and matrix products on TensorFlow.

Each kernel computes what the CPU backend's (NumPy's) computes, dtype for dtype. Where
TensorFlow has no kernel for a dtype (Bool arithmetic and comparisons, unsigned Neg, int8
matrix products, ...) the kernel computes in a dtype that gives the exact result and casts back.
XLA's float max and min do not propagate NaN as TensorFlow's eager kernels and NumPy do, so
traced for Graph mode those kernels mark NaN explicitly (a select XLA fuses for free).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops

Kernel = Callable[..., Any]
Factory = Callable[[Any], Kernel]

BOOL = tf.bool
UNSIGNED = frozenset({tf.uint8, tf.uint16, tf.uint32, tf.uint64})
#: The dtypes TensorFlow multiplies matrices in; the other integers go through int64.
MATMUL_DTYPES = frozenset({tf.float16, tf.float32, tf.float64, tf.int32, tf.int64})


def _cast(x: Any, dtype: Any) -> Any:
    return raw.Cast(x=x, DstT=dtype)


def _scalar(value: Any, like: Any) -> Any:
    """``value`` as a 0-d tensor of ``like``'s dtype."""
    return tf.constant(value, like.dtype)


def _unary(op: Kernel) -> Factory:
    """The factory of a kernel that is the raw op ``op(x=...)``."""
    return lambda prim: lambda x: op(x=x)


def _binary(op: Kernel) -> Factory:
    """The factory of a kernel that is the raw op ``op(x=..., y=...)``."""
    return lambda prim: lambda x, y: op(x=x, y=y)


# -- arithmetic -----------------------------------------------------------------------------
def _on_bool(op: Kernel, logical: Kernel) -> Factory:
    """``op``; on Bool inputs ``logical`` (NumPy's Bool + is or, Bool * is and)."""
    def kernel(x: Any, y: Any) -> Any:
        if x.dtype is BOOL:
            return logical(x=x, y=y)
        return op(x=x, y=y)

    return lambda prim: kernel


def _divide(x: Any, y: Any) -> Any:
    """``x / y``; integers truncate toward zero, and x / 0 is the dtype's max or min (0 / 0
    is 0), as MindSpore's CPU kernels compute them."""
    if x.dtype.is_floating:
        return raw.RealDiv(x=x, y=y)
    return _saturated(raw.TruncateDiv, x, y)


def _nonzero(y: Any) -> tuple[Any, Any]:
    """(where ``y`` is 0, ``y`` with those 0s replaced by 1): integer division by zero is an
    error in TensorFlow's kernels."""
    by_zero = raw.Equal(x=y, y=_scalar(0, y))
    return by_zero, raw.SelectV2(condition=by_zero, t=_scalar(1, y), e=y)


def _saturated(op: Kernel, x: Any, y: Any) -> Any:
    """The integer quotient ``op(x, y)``, where x / 0 is the dtype's max or min (0 / 0 is 0)."""
    by_zero, safe = _nonzero(y)
    zero = _scalar(0, x)
    info = np.iinfo(x.dtype.as_numpy_dtype)
    limit = raw.SelectV2(condition=raw.Greater(x=x, y=zero), t=_scalar(info.max, x),
                         e=raw.SelectV2(condition=raw.Less(x=x, y=zero),
                                        t=_scalar(info.min, x), e=zero))
    return raw.SelectV2(condition=by_zero, t=limit, e=op(x=x, y=safe))


def _power(x: Any, y: Any) -> Any:
    """``x ** y``; integers are raised in double precision and converted back (a power out of
    the dtype's range converts as TensorFlow's Cast does: eagerly as NumPy, under XLA clamped).
    """
    if x.dtype.is_floating:
        return raw.Pow(x=x, y=y)
    wide = raw.Pow(x=_cast(x, tf.float64), y=_cast(y, tf.float64))
    return _cast(wide, x.dtype)


def _nan_kept(x: Any, out: Any, reduce: Kernel | None = None) -> Any:
    """``out``, a max or min of ``x``, NaN where (``reduce``: over what) ``x`` holds NaN,
    when traced for XLA; eager TensorFlow's max and min propagate NaN already."""
    if not x.dtype.is_floating or tf.executing_eagerly():
        return out
    nan = raw.IsNan(x=x)
    return raw.SelectV2(condition=nan if reduce is None else reduce(nan),
                        t=_scalar(np.nan, x), e=out)


def _extreme(op: Kernel) -> Factory:
    """Elementwise Maximum or Minimum, NaN if either input is (as NumPy's)."""
    def kernel(x: Any, y: Any) -> Any:
        return _nan_kept(y, _nan_kept(x, op(x=x, y=y)))

    return lambda prim: kernel


def _compare(op: Kernel) -> Factory:
    """A comparison; Bools (which TensorFlow does not order) compare as 0 and 1."""
    def kernel(x: Any, y: Any) -> Any:
        if x.dtype is BOOL:
            x, y = _cast(x, tf.uint8), _cast(y, tf.uint8)
        return op(x=x, y=y)

    return lambda prim: kernel


def _signed(op: Kernel, unsigned: Kernel) -> Factory:
    """``op``, which TensorFlow lacks for unsigned integers: those compute ``unsigned(x)``."""
    def kernel(x: Any) -> Any:
        if x.dtype in UNSIGNED:
            return unsigned(x)
        return op(x=x)

    return lambda prim: kernel


# -- reductions -----------------------------------------------------------------------------
def _axes(x: Any, axis: Any) -> np.ndarray:
    """A Reduce* ``axis`` as TensorFlow's: () means every axis of ``x``."""
    return np.asarray(range(len(x.shape)) if axis == () else axis, np.int32)


def _reduce(reduction: Callable[[Any, np.ndarray, bool], Any]) -> Factory:
    """A Reduce* primitive: ``reduction(x, axes, keep_dims)``."""
    def factory(prim: Any) -> Kernel:
        keep = prim.keep_dims
        return lambda x, axis=(): reduction(x, _axes(x, axis), keep)

    return factory


def _sum(x: Any, axes: np.ndarray, keep: bool) -> Any:
    return raw.Sum(input=x, axis=axes, keep_dims=keep)


def _mean(x: Any, axes: np.ndarray, keep: bool) -> Any:
    """The mean, accumulated in float32 for float16; integer means truncate toward zero, and
    an integer mean of nothing is 0 / 0 converted as NumPy converts NaN (the dtype's min)."""
    dtype = x.dtype
    if dtype == tf.float16:
        return _cast(raw.Mean(input=_cast(x, tf.float32), axis=axes, keep_dims=keep), dtype)
    if dtype.is_floating:
        return raw.Mean(input=x, axis=axes, keep_dims=keep)
    wide = dtype if dtype.size == 8 else tf.int64  # a sum that cannot overflow
    total = _sum(_cast(x, wide), axes, keep)
    count = int(np.prod([x.shape[a] for a in axes.reshape(-1)]))
    if count == 0:
        return raw.Fill(dims=np.asarray(total.shape, np.int32),
                        value=_scalar(np.iinfo(dtype.as_numpy_dtype).min, x))
    return _cast(raw.TruncateDiv(x=total, y=tf.constant(count, wide)), dtype)


def _max_or_min(op: Kernel, on_bool: Kernel) -> Callable[[Any, np.ndarray, bool], Any]:
    """ReduceMax or ReduceMin: NaN where a NaN is reduced; on Bools ``on_bool`` (any, all)."""
    def reduction(x: Any, axes: np.ndarray, keep: bool) -> Any:
        if x.dtype is BOOL:
            return on_bool(input=x, axis=axes, keep_dims=keep)
        out = op(input=x, axis=axes, keep_dims=keep)
        return _nan_kept(x, out, lambda nan: raw.Any(input=nan, axis=axes, keep_dims=keep))

    return reduction


_max = _max_or_min(raw.Max, raw.Any)
_min = _max_or_min(raw.Min, raw.All)


def _find_along(find: Kernel, x: Any, axis: int, dtype: Any) -> Any:
    """``find`` (``raw.ArgMax`` or ``raw.ArgMin``) along ``axis``; TensorFlow's takes at most 7
    dimensions, so a larger ``x`` is searched as (before, axis, after)."""
    if x.shape.rank <= 7:
        return find(input=x, dimension=axis, output_type=dtype)
    shape = x.shape.as_list()
    axis %= len(shape)
    folded = tf.reshape(x, (math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])))
    found = find(input=folded, dimension=1, output_type=dtype)
    return tf.reshape(found, shape[:axis] + shape[axis + 1:])


def _arg_index(find: Kernel) -> Factory:
    """Argmax or Argmin, ``find`` being ``raw.ArgMax`` or ``raw.ArgMin``."""
    def factory(prim: Any) -> Kernel:
        axis, dtype = prim.axis, tf.as_dtype(prim.output_type.np_dtype)
        return lambda x: _find_along(find, x, axis, dtype)

    return factory


def _arg_with_value(find: Kernel, extreme: Callable[[Any, np.ndarray, bool], Any]) -> Factory:
    """ArgMaxWithValue or ArgMinWithValue: the index (Int32) and the value, ``extreme``."""
    def factory(prim: Any) -> Kernel:
        axis, keep = prim.axis, prim.keep_dims

        def kernel(x: Any) -> tuple:
            index = _find_along(find, x, axis, tf.int32)
            if keep:
                index = raw.ExpandDims(input=index, axis=axis)
            return index, extreme(x, np.asarray(axis, np.int32), keep)

        return kernel

    return factory


# -- matrix products, casts, fills ----------------------------------------------------------
def _matmul(product: Callable[[Any, Any, bool, bool], Any]) -> Factory:
    """MatMul or BatchMatMul: ``product(x, y, transpose_a, transpose_b)``; integers that
    TensorFlow does not multiply in are multiplied in int64 (exact modulo 2**64) and cast back.
    """
    def factory(prim: Any) -> Kernel:
        ta, tb = prim.transpose_a, prim.transpose_b

        def kernel(x: Any, y: Any) -> Any:
            dtype = x.dtype
            if dtype in MATMUL_DTYPES:
                return product(x, y, ta, tb)
            return _cast(product(_cast(x, tf.int64), _cast(y, tf.int64), ta, tb), dtype)

        return kernel

    return factory


def sum_to(a: Any, shape: tuple[int, ...]) -> Any:
    """``a`` summed over the axes that broadcasting to ``shape`` added or stretched."""
    lead = len(a.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and a.shape[lead + i] != 1)
    if not axes:
        return a
    return raw.Reshape(tensor=_sum(a, np.asarray(axes, np.int32), False),
                       shape=np.asarray(shape, np.int32))


def _select_grad(prim: Any) -> Kernel:
    """MaximumGrad or MinimumGrad: ``dout`` to x where ``prim.compare`` (x, y) holds, else to
    y, each summed back to its input's shape."""
    wins, grad_x, grad_y = getattr(tf.math, prim.compare), prim.grad_x, prim.grad_y

    def kernel(x: Any, y: Any, dout: Any) -> tuple:
        to_x, zero = wins(x, y), raw.ZerosLike(x=dout)
        dx = (sum_to(raw.SelectV2(condition=to_x, t=dout, e=zero), tuple(x.shape)) if grad_x
              else raw.ZerosLike(x=x))
        dy = (sum_to(raw.SelectV2(condition=to_x, t=zero, e=dout), tuple(y.shape)) if grad_y
              else raw.ZerosLike(x=y))
        return dx, dy

    return kernel


def _add_n(*xs: Any) -> Any:
    return raw.AddN(inputs=xs)


def _cast_kernel(x: Any, dtype: Any) -> Any:
    return _cast(x, tf.as_dtype(dtype.np_dtype))


def _fill(dtype: Any, shape: Any, value: Any) -> Any:
    """``value`` converted to ``dtype`` as NumPy converts it, repeated over ``shape``."""
    return raw.Fill(dims=np.asarray(shape, np.int32), value=np.full((), value, dtype.np_dtype))


KERNELS: dict[str, Factory] = {
    "Add": _on_bool(raw.AddV2, raw.LogicalOr),
    "Sub": _binary(raw.Sub),
    "Mul": _on_bool(raw.Mul, raw.LogicalAnd),
    "Div": lambda p: _divide,
    "RealDiv": lambda p: _divide,
    "Pow": lambda p: _power,
    "Maximum": _extreme(raw.Maximum),
    "Minimum": _extreme(raw.Minimum),
    "MaximumGrad": _select_grad,
    "MinimumGrad": _select_grad,
    "Equal": _compare(raw.Equal),
    "NotEqual": _compare(raw.NotEqual),
    "Greater": _compare(raw.Greater),
    "GreaterEqual": _compare(raw.GreaterEqual),
    "Less": _compare(raw.Less),
    "LessEqual": _compare(raw.LessEqual),
    "LogicalAnd": _binary(raw.LogicalAnd),
    "LogicalOr": _binary(raw.LogicalOr),
    "LogicalNot": _unary(raw.LogicalNot),
    "Select": lambda p: lambda cond, x, y: raw.SelectV2(condition=cond, t=x, e=y),
    "Neg": _signed(raw.Neg, lambda x: raw.Sub(x=_scalar(0, x), y=x)),  # wraps, as NumPy's
    "Square": _unary(raw.Square),
    "Abs": _signed(raw.Abs, lambda x: raw.Identity(input=x)),
    "Sign": _signed(raw.Sign, lambda x: raw.Minimum(x=x, y=_scalar(1, x))),
    "Exp": _unary(raw.Exp),
    "Log": _unary(raw.Log),
    "Sqrt": _unary(raw.Sqrt),
    "Rsqrt": _unary(raw.Rsqrt),
    "SqrtGrad": lambda p: lambda y, dy: raw.SqrtGrad(y=y, dy=dy),
    "Reciprocal": _unary(raw.Reciprocal),
    "ReciprocalGrad": lambda p: lambda y, dy: raw.ReciprocalGrad(y=y, dy=dy),
    "ZerosLike": _unary(raw.ZerosLike),
    "OnesLike": _unary(raw.OnesLike),
    "Cast": lambda p: _cast_kernel,
    "Fill": lambda p: _fill,
    "AddN": lambda p: _add_n,
    "AccumulateNV2": lambda p: _add_n,
    "ReduceSum": _reduce(_sum),
    "ReduceMean": _reduce(_mean),
    "ReduceMax": _reduce(_max),
    "ReduceMin": _reduce(_min),
    "Argmax": _arg_index(raw.ArgMax),
    "ArgMaxWithValue": _arg_with_value(raw.ArgMax, _max),
    "MatMul": _matmul(lambda x, y, ta, tb: raw.MatMul(a=x, b=y, transpose_a=ta,
                                                       transpose_b=tb)),
    "BatchMatMul": _matmul(lambda x, y, ta, tb: raw.BatchMatMulV2(x=x, y=y, adj_x=ta,
                                                                   adj_y=tb)),
}
