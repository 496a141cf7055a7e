"""Trigonometric, rounding and special functions, float predicates, floored and truncated
division, bitwise ops on TensorFlow, computing what the CPU backend's (NumPy's) kernels do."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_gpu.kernels.conv import _compiled
from ember_gpu.kernels.math import (
    Factory,
    Kernel,
    _binary,
    _cast,
    _divide,
    _nonzero,
    _saturated,
    _scalar,
    _unary,
    raw,
    tf,
)


def _truncate(q: Any) -> Any:
    """``q`` rounded toward zero."""
    return raw.SelectV2(condition=raw.Less(x=q, y=_scalar(0, q)), t=raw.Ceil(x=q),
                        e=raw.Floor(x=q))


def _truncate_div(x: Any, y: Any) -> Any:
    """``x / y`` rounded toward zero; integers divide as Div does."""
    if x.dtype.is_floating:
        return _truncate(raw.RealDiv(x=x, y=y))
    return _divide(x, y)


def _div_no_nan(x: Any, y: Any) -> Any:
    """``x / y``, 0 where ``y`` is 0; integers divide as Div does."""
    if x.dtype.is_floating:
        return raw.DivNoNan(x=x, y=y)
    return _or_zero(_divide, x, y)


def _or_zero(op: Kernel, x: Any, y: Any) -> Any:
    """``op(x, y)`` of integers, 0 where ``y`` is 0 (as NumPy's x % 0)."""
    by_zero, safe = _nonzero(y)
    return raw.SelectV2(condition=by_zero, t=_scalar(0, x), e=op(x=x, y=safe))


def _floor_div(x: Any, y: Any) -> Any:
    """``floor(x / y)``; integers by zero as Div's."""
    if x.dtype.is_floating:
        return raw.FloorDiv(x=x, y=y)
    return _saturated(raw.FloorDiv, x, y)


def _remainder(op: Kernel) -> Factory:
    """FloorMod or fmod; an integer remainder by zero is 0."""
    def kernel(x: Any, y: Any) -> Any:
        if x.dtype.is_floating:
            return op(x=x, y=y)
        return _or_zero(op, x, y)

    return lambda prim: kernel


def _inv(x: Any) -> Any:
    """``1 / x``; integers truncate toward zero, and 1 / 0 is the dtype's min."""
    if x.dtype.is_floating:
        return raw.Reciprocal(x=x)
    return raw.SelectV2(condition=raw.Equal(x=x, y=_scalar(0, x)),
                        t=_scalar(np.iinfo(x.dtype.as_numpy_dtype).min, x),
                        e=_divide(raw.OnesLike(x=x), x))


def _is_finite(x: Any) -> Any:
    """IsFinite; integers and Bools are all finite."""
    if x.dtype.is_floating:
        return raw.IsFinite(x=x)
    return raw.Fill(dims=raw.Shape(input=x), value=tf.constant(True))


def _mul_no_nan(x: Any, y: Any) -> Any:
    """``x * y``, 0 where ``y`` is 0; integers have no NaN or inf to guard against."""
    if x.dtype.is_floating:
        return raw.MulNoNan(x=x, y=y)
    return raw.Mul(x=x, y=y)


def _lerp(start: Any, end: Any, weight: Any) -> Any:
    return raw.AddV2(x=start, y=raw.Mul(x=weight, y=raw.Sub(x=end, y=start)))


def _approximate_equal(prim: Any) -> Kernel:
    tolerance = prim.tolerance

    def kernel(x: Any, y: Any) -> Any:
        if not x.dtype.is_floating:  # the difference of unsigned integers must not wrap
            x, y = _cast(x, tf.float64), _cast(y, tf.float64)
        return raw.Less(x=raw.Abs(x=raw.Sub(x=x, y=y)), y=_scalar(tolerance, x))

    return kernel


def _erf(x: Any) -> Any:
    """erf, exactly +-1 at +-inf (TensorFlow's float64 kernel gives NaN there)."""
    return raw.SelectV2(condition=raw.IsInf(x=x), t=raw.Sign(x=x), e=raw.Erf(x=x))


def _rint(x: Any) -> Any:
    """Rint; float16 (which TensorFlow's CPU kernel lacks) rounds exactly in float32."""
    if x.dtype == tf.float16:
        return _cast(raw.Rint(x=_cast(x, tf.float32)), x.dtype)
    return raw.Rint(x=x)


def _round(x: Any) -> Any:
    """Round; integers are already round (TensorFlow's integer kernel is not the identity)."""
    return raw.Round(x=x) if x.dtype.is_floating else x


#: fmod, compiled by XLA also when run eagerly: TensorFlow's own kernels lack float16 (and on
#: GPUs every float), XLA's remainder has them all and is exact.
_fmod = _compiled(lambda x, y: raw.TruncateMod(x=x, y=y))


def _one_minus_square(x: Any) -> Any:
    return raw.Sub(x=_scalar(1, x), y=raw.Square(x=x))


KERNELS: dict[str, Factory] = {
    "PopulationCount": lambda p: lambda x: raw.PopulationCount(x=x),
    "Sin": _unary(raw.Sin),
    "Cos": _unary(raw.Cos),
    "Tan": _unary(raw.Tan),
    "Asin": _unary(raw.Asin),
    "ACos": _unary(raw.Acos),
    "Atan": _unary(raw.Atan),
    "Sinh": _unary(raw.Sinh),
    "Cosh": _unary(raw.Cosh),
    "Asinh": _unary(raw.Asinh),
    "Acosh": _unary(raw.Acosh),
    "Atanh": _unary(raw.Atanh),
    "Atan2": lambda p: lambda x, y: raw.Atan2(y=x, x=y),  # TensorFlow names them the other way
    "AsinGrad": lambda p: lambda x, dy: raw.Mul(x=dy, y=raw.Rsqrt(x=_one_minus_square(x))),
    "ACosGrad": lambda p: lambda x, dy: raw.Neg(
        x=raw.Mul(x=dy, y=raw.Rsqrt(x=_one_minus_square(x)))),
    "AtanGrad": lambda p: lambda x, dy: raw.RealDiv(
        x=dy, y=raw.AddV2(x=_scalar(1, x), y=raw.Square(x=x))),
    "AsinhGrad": lambda p: lambda y, dy: raw.RealDiv(x=dy, y=raw.Cosh(x=y)),
    "AcoshGrad": lambda p: lambda y, dy: raw.RealDiv(x=dy, y=raw.Sinh(x=y)),
    "Floor": _unary(raw.Floor),
    "Ceil": _unary(raw.Ceil),
    "Rint": lambda p: _rint,
    "Round": lambda p: _round,
    "Erf": lambda p: _erf,
    "Erfc": _unary(raw.Erfc),
    "Expm1": _unary(raw.Expm1),
    "Log1p": _unary(raw.Log1p),
    "Inv": lambda p: _inv,
    "Eps": lambda p: lambda x: raw.Fill(dims=raw.Shape(input=x),
                                        value=_scalar(p.value(x.dtype.as_numpy_dtype), x)),
    "Invert": _unary(raw.Invert),
    "IsNan": _unary(raw.IsNan),
    "IsInf": _unary(raw.IsInf),
    "IsFinite": lambda p: _is_finite,
    "FloorDiv": lambda p: _floor_div,
    "FloorMod": _remainder(raw.FloorMod),
    "Mod": _remainder(_fmod),
    "TruncateMod": _remainder(_fmod),
    "TruncateDiv": lambda p: _truncate_div,
    "SquaredDifference": lambda p: lambda x, y: raw.Square(x=raw.Sub(x=x, y=y)),
    "Xdivy": _binary(raw.Xdivy),
    "Xlogy": _binary(raw.Xlogy),
    "DivNoNan": lambda p: _div_no_nan,
    "MulNoNan": lambda p: _mul_no_nan,
    "Lerp": lambda p: _lerp,
    "BitwiseAnd": _binary(raw.BitwiseAnd),
    "BitwiseOr": _binary(raw.BitwiseOr),
    "BitwiseXor": _binary(raw.BitwiseXor),
    "ApproximateEqual": _approximate_equal,
}
