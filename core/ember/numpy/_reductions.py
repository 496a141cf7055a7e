"""Reductions and scans of ``mindspore.numpy`` (sum, mean, var, nan-aware forms, cumulative
sums, arg-extrema), each a composition of ember's reduce primitives."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.numpy._utils import (
    cast_to,
    check_axes,
    check_axis,
    check_dtype,
    float_of,
    named,
    to_tensor,
)
from ember.ops import functional as F
from ember.ops import operations as P


def _reduce(op: str, primitive: type, a: Any, axis: Any, keepdims: bool) -> Tensor:
    a = to_tensor(op, "a", a)
    return primitive(keepdims)(a, check_axes(op, axis, a.ndim))


def _count(a: Tensor, axes: tuple[int, ...]) -> int:
    return int(np.prod([a.shape[x] for x in axes], dtype=np.int64))


def sum_(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False,
         initial: Any = None) -> Tensor:
    """Sum over ``axis`` (all axes when None); booleans are summed as Int32."""
    a = to_tensor("sum", "a", a)
    a = F.cast(a, mstype.int32) if a.dtype is mstype.bool_ else a
    out = P.ReduceSum(keepdims)(a, check_axes("sum", axis, a.ndim))
    out = out if initial is None else F.add(out, initial)
    return cast_to(out, check_dtype("sum", dtype))


def mean(a: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """Arithmetic mean over ``axis``; integers are averaged in Float32."""
    a = float_of(to_tensor("mean", "a", a))
    return cast_to(P.ReduceMean(keepdims)(a, check_axes("mean", axis, a.ndim)),
                   check_dtype("mean", dtype))


def _extremum(op: str, primitive: type, combine: Any) -> Any:
    def reduce(a: Any, axis: Any = None, keepdims: bool = False, initial: Any = None,
               where: Any = True) -> Tensor:
        a = to_tensor(op, "a", a)
        if not (isinstance(where, bool) and where):
            if initial is None:
                raise ValueError(f"{op}: a where mask needs an initial value")
            a = F.where(to_tensor(op, "where", where, mstype.bool_), a, initial)
        out = _reduce(op, primitive, a, axis, keepdims)
        return out if initial is None else combine(out, F.cast(to_tensor(op, "initial", initial),
                                                               out.dtype))

    return named(reduce, op, f"The {op[1:]}imum over ``axis`` (all axes when None).")


amax = _extremum("amax", P.ReduceMax, F.maximum)
amin = _extremum("amin", P.ReduceMin, F.minimum)


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis``, dividing by ``n - ddof``."""
    x = float_of(to_tensor("var", "x", x))
    return x.var(check_axes("var", axis, x.ndim), ddof, keepdims)


def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis``, dividing by ``n - ddof``."""
    return F.sqrt(var(x, axis, ddof, keepdims))


def ptp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Range (maximum minus minimum) over ``axis``."""
    return F.sub(amax(x, axis, keepdims), amin(x, axis, keepdims))


def average(x: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """The mean over ``axis`` weighted by ``weights`` (broadcastable, or 1-D along ``axis``);
    with ``returned`` also the sum of the weights."""
    x = float_of(to_tensor("average", "x", x))
    axes = check_axes("average", axis, x.ndim)
    if weights is None:
        out = P.ReduceMean()(x, axes)
        total = F.fill(out.dtype, out.shape, _count(x, axes))
    else:
        w = F.cast(to_tensor("average", "weights", weights), x.dtype)
        if w.shape != x.shape:
            if w.ndim != 1 or len(axes) != 1 or w.shape[0] != x.shape[axes[0]]:
                raise ValueError(f"average: weights of shape {w.shape} do not match x of shape "
                                 f"{x.shape} along axis {axis!r}")
            w = F.broadcast_to(F.reshape(w, tuple(-1 if i == axes[0] else 1
                                                  for i in range(x.ndim))), x.shape)
        total = P.ReduceSum()(w, axes)
        out = F.real_div(P.ReduceSum()(F.mul(x, w), axes), total)
    return (out, total) if returned else out


def count_nonzero(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """How many elements along ``axis`` are nonzero (Int32)."""
    x = to_tensor("count_nonzero", "x", x)
    nonzero = F.cast(F.not_equal(x, F.zeros_like(x)), mstype.float32)
    return F.cast(P.ReduceSum(keepdims)(nonzero, check_axes("count_nonzero", axis, x.ndim)),
                  mstype.int32)


def _without_nan(op: str, a: Any, fill: float) -> tuple[Tensor, Tensor]:
    a = float_of(to_tensor(op, "a", a))
    nan = F.isnan(a)
    return F.select(nan, F.fill(a.dtype, a.shape, fill), a), F.logical_not(nan)


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Sum over ``axis`` treating NaN as zero."""
    clean, _ = _without_nan("nansum", a, 0.0)
    return cast_to(P.ReduceSum(keepdims)(clean, check_axes("nansum", axis, clean.ndim)),
                   check_dtype("nansum", dtype))


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Mean over ``axis`` ignoring NaNs."""
    clean, valid = _without_nan("nanmean", a, 0.0)
    axes = check_axes("nanmean", axis, clean.ndim)
    count = P.ReduceSum(keepdims)(F.cast(valid, clean.dtype), axes)
    return cast_to(F.real_div(P.ReduceSum(keepdims)(clean, axes), count),
                   check_dtype("nanmean", dtype))


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
           keepdims: bool = False) -> Tensor:
    """Variance over ``axis`` ignoring NaNs, dividing by ``n - ddof``."""
    clean, valid = _without_nan("nanvar", a, 0.0)
    axes = check_axes("nanvar", axis, clean.ndim)
    weight = F.cast(valid, clean.dtype)
    count = P.ReduceSum(True)(weight, axes)
    centred = F.mul(F.sub(clean, F.real_div(P.ReduceSum(True)(clean, axes), count)), weight)
    out = F.real_div(P.ReduceSum(True)(F.square(centred), axes), F.sub(count, float(ddof)))
    out = out if keepdims else F.squeeze(out, axes) if axes else out
    return cast_to(out, check_dtype("nanvar", dtype))


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
           keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis`` ignoring NaNs."""
    return F.sqrt(nanvar(a, axis, dtype, ddof, keepdims))


def nanmax(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Maximum over ``axis`` ignoring NaNs."""
    clean, _ = _without_nan("nanmax", a, float("-inf"))
    return cast_to(P.ReduceMax(keepdims)(clean, check_axes("nanmax", axis, clean.ndim)),
                   check_dtype("nanmax", dtype))


def nanmin(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Tensor:
    """Minimum over ``axis`` ignoring NaNs."""
    clean, _ = _without_nan("nanmin", a, float("inf"))
    return cast_to(P.ReduceMin(keepdims)(clean, check_axes("nanmin", axis, clean.ndim)),
                   check_dtype("nanmin", dtype))


def _scan(op: str, primitive: type, a: Any, axis: Any, dtype: Any) -> Tensor:
    a = to_tensor(op, "a", a)
    a = F.cast(a, mstype.int32) if a.dtype is mstype.bool_ else a
    a = cast_to(a, check_dtype(op, dtype))
    if axis is None:
        return primitive()(F.reshape(a, (-1,)), 0)
    return primitive()(a, check_axis(op, axis, a.ndim))


def cumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Running sums along ``axis`` (of the flattened tensor when None)."""
    return _scan("cumsum", P.CumSum, a, axis, dtype)


def cumprod(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Running products along ``axis`` (of the flattened tensor when None)."""
    return _scan("cumprod", P.CumProd, a, axis, dtype)


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Running sums along ``axis`` treating NaN as zero."""
    return _scan("nancumsum", P.CumSum, _without_nan("nancumsum", a, 0.0)[0], axis, dtype)


def _arg(op: str, primitive: type, a: Any, axis: int | None) -> Tensor:
    a = to_tensor(op, "a", a)
    if axis is None:
        return primitive(axis=0)(F.reshape(a, (-1,)))
    return primitive(axis=check_axis(op, axis, a.ndim))(a)


def argmax(a: Any, axis: int | None = None) -> Tensor:
    """Index of the first maximum along ``axis`` (of the flattened tensor when None)."""
    return _arg("argmax", P.Argmax, a, axis)


def argmin(a: Any, axis: int | None = None) -> Tensor:
    """Index of the first minimum along ``axis`` (of the flattened tensor when None)."""
    return _arg("argmin", P.Argmin, a, axis)
