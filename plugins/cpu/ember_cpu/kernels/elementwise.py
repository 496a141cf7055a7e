"""Trigonometric, rounding and special functions, float predicates, floored and truncated
division, bitwise ops on NumPy."""

from __future__ import annotations

import math

import numpy as np

from ember_cpu.kernels.math import _divide, _quiet, _quiet_unary, _saturated


def _pointwise(fn):
    """A unary kernel from a function of one Python float (the error functions, which NumPy
    lacks), applied elementwise and returned in the input's dtype."""
    ufunc = np.frompyfunc(fn, 1, 1)
    return lambda prim: lambda x: np.asarray(ufunc(x.astype(np.float64)), dtype=x.dtype)


def _truncate_div(x, y):
    """``x / y`` rounded toward zero: floats through the true quotient, integers exactly."""
    if x.dtype.kind == "f":
        return np.trunc(np.true_divide(x, y))
    return _divide(x, y)


def _floor_div(x, y):
    """``floor(x / y)``: floats through the true quotient (so inf / 1 is inf); integers by
    zero as Div's."""
    if x.dtype.kind == "f":
        return np.floor(np.true_divide(x, y))
    return _saturated(x, y, np.floor_divide(x, y))


def _div_no_nan(x, y):
    """``x / y``, 0 where ``y`` is 0."""
    zero = y == 0
    quotient = _divide(x, np.where(zero, np.ones((), y.dtype), y))
    return np.where(zero, np.zeros((), x.dtype), quotient)


def _x_or_zero(fn):
    """``fn(x, y)``, 0 where ``x`` is 0 (Xdivy, Xlogy)."""
    return lambda x, y: np.where(x == 0, np.zeros((), x.dtype), fn(x, y))


def _inv(x):
    """``1 / x``; integers truncate toward zero, and 1 / 0 is the dtype's min."""
    if x.dtype.kind == "f":
        return np.reciprocal(x)
    return np.where(x == 0, np.iinfo(x.dtype).min, _divide(np.ones((), x.dtype), x))


def _approximate_equal(prim):
    tolerance = prim.tolerance

    def kernel(x, y):
        if x.dtype.kind != "f":  # the difference of unsigned integers must not wrap
            x, y = x.astype(np.float64), y.astype(np.float64)
        return np.abs(x - y) < tolerance

    return _quiet(kernel)


@_quiet
def _asin_grad(x, dy):
    return dy / np.sqrt(1 - x * x)


@_quiet
def _acos_grad(x, dy):
    return -dy / np.sqrt(1 - x * x)


def _population_count(x):
    bits = np.unpackbits(np.ascontiguousarray(x).view(np.uint8).reshape(*x.shape, 2), axis=-1)
    return bits.sum(axis=-1, dtype=np.uint8)


KERNELS = {
    "PopulationCount": lambda p: _population_count,
    "Sin": _quiet_unary(np.sin),
    "Cos": _quiet_unary(np.cos),
    "Tan": _quiet_unary(np.tan),
    "Asin": _quiet_unary(np.arcsin),
    "ACos": _quiet_unary(np.arccos),
    "Atan": lambda p: np.arctan,
    "Sinh": _quiet_unary(np.sinh),
    "Cosh": _quiet_unary(np.cosh),
    "Asinh": lambda p: np.arcsinh,
    "Acosh": _quiet_unary(np.arccosh),
    "Atanh": _quiet_unary(np.arctanh),
    "Atan2": lambda p: np.arctan2,
    "AsinGrad": lambda p: _asin_grad,
    "ACosGrad": lambda p: _acos_grad,
    "AtanGrad": lambda p: lambda x, dy: dy / (1 + x * x),
    "AsinhGrad": _quiet_unary(lambda y, dy: dy / np.cosh(y)),
    "AcoshGrad": _quiet_unary(lambda y, dy: dy / np.sinh(y)),
    "Floor": lambda p: np.floor,
    "Ceil": lambda p: np.ceil,
    "Rint": lambda p: np.rint,
    "Round": lambda p: np.round,
    "Erf": _pointwise(math.erf),
    "Erfc": _pointwise(math.erfc),
    "Expm1": _quiet_unary(np.expm1),
    "Log1p": _quiet_unary(np.log1p),
    "Inv": _quiet_unary(_inv),
    "Eps": lambda p: lambda x: np.full_like(x, p.value(x.dtype)),
    "Invert": lambda p: np.invert,
    "IsNan": lambda p: np.isnan,
    "IsInf": lambda p: np.isinf,
    "IsFinite": lambda p: np.isfinite,
    "FloorDiv": _quiet_unary(_floor_div),
    "FloorMod": _quiet_unary(np.mod),
    "Mod": _quiet_unary(np.fmod),
    "TruncateDiv": _quiet_unary(_truncate_div),
    "TruncateMod": _quiet_unary(np.fmod),
    "SquaredDifference": _quiet_unary(lambda x, y: np.square(x - y)),
    "Xdivy": _quiet_unary(_x_or_zero(np.true_divide)),
    "Xlogy": _quiet_unary(_x_or_zero(lambda x, y: x * np.log(y))),
    "DivNoNan": _quiet_unary(_div_no_nan),
    "MulNoNan": _quiet_unary(lambda x, y: np.where(y == 0, np.zeros((), x.dtype), x * y)),
    "Lerp": _quiet_unary(lambda start, end, weight: start + weight * (end - start)),
    "BitwiseAnd": lambda p: np.bitwise_and,
    "BitwiseOr": lambda p: np.bitwise_or,
    "BitwiseXor": lambda p: np.bitwise_xor,
    "ApproximateEqual": _approximate_equal,
}
