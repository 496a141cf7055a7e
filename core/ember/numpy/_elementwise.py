"""Element-wise math of ``mindspore.numpy``, declared as two tables (unary and binary): each
entry names the function, the ember composition that computes it and whether integer inputs
are computed in Float32 (as MindSpore does for transcendental functions)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.numpy._utils import (
    broadcast_pair,
    cast_to,
    check_dtype,
    float_of,
    named,
    to_tensor,
    to_tensors,
)
from ember.ops import functional as F
from ember.ops.operations.array_ops import Identity


def _trunc(x: Tensor) -> Tensor:
    return F.mul(F.sign(x), F.floor(F.abs(x))) if mstype.is_float(x.dtype) else x


def _cbrt(x: Tensor) -> Tensor:
    return F.mul(F.sign(x), F.pow(F.abs(x), 1.0 / 3.0))


def _invert(x: Tensor) -> Tensor:
    return F.logical_not(x) if x.dtype is mstype.bool_ else F.invert(x)


def _rounding(fn: Callable) -> Callable:
    return lambda x: fn(x) if mstype.is_float(x.dtype) else x


# name: (composition, integers computed as Float32)
UNARY: dict[str, tuple[Callable[[Tensor], Tensor], bool]] = {
    "absolute": (F.abs, False),
    "negative": (F.neg, False),
    "positive": (Identity(), False),
    "square": (F.square, False),
    "sign": (F.sign, False),
    "floor": (_rounding(F.floor), False),
    "ceil": (_rounding(F.ceil), False),
    "rint": (_rounding(F.rint), False),
    "trunc": (_trunc, False),
    "fix": (_trunc, False),
    "invert": (_invert, False),
    "sqrt": (F.sqrt, True),
    "cbrt": (_cbrt, True),
    "reciprocal": (F.reciprocal, True),
    "exp": (F.exp, True),
    "expm1": (F.expm1, True),
    "exp2": (lambda x: F.pow(F.fill(x.dtype, (), 2), x), True),
    "log": (F.log, True),
    "log1p": (F.log1p, True),
    "log2": (lambda x: F.real_div(F.log(x), math.log(2.0)), True),
    "log10": (lambda x: F.real_div(F.log(x), math.log(10.0)), True),
    "sin": (F.sin, True),
    "cos": (F.cos, True),
    "tan": (F.tan, True),
    "arcsin": (F.asin, True),
    "arccos": (F.acos, True),
    "arctan": (F.atan, True),
    "sinh": (F.sinh, True),
    "cosh": (F.cosh, True),
    "tanh": (F.tanh, True),
    "arcsinh": (F.asinh, True),
    "arccosh": (F.acosh, True),
    "arctanh": (F.atanh, True),
    "deg2rad": (lambda x: F.mul(x, math.pi / 180.0), True),
    "radians": (lambda x: F.mul(x, math.pi / 180.0), True),
    "rad2deg": (lambda x: F.mul(x, 180.0 / math.pi), True),
}


def _heaviside(x1: Tensor, x2: Tensor) -> Tensor:
    zero, one = F.zeros_like(x1), F.ones_like(x1)
    return F.select(F.less(x1, zero), zero, F.select(F.greater(x1, zero), one, x2))


def _copysign(x1: Tensor, x2: Tensor) -> Tensor:
    magnitude = F.abs(x1)
    return F.select(F.less(x2, F.zeros_like(x2)), F.neg(magnitude), magnitude)


def _logaddexp(x1: Tensor, x2: Tensor) -> Tensor:
    top = F.maximum(x1, x2)
    return F.add(top, F.log1p(F.exp(F.neg(F.abs(F.sub(x1, x2))))))


def _logaddexp2(x1: Tensor, x2: Tensor) -> Tensor:
    ln2 = math.log(2.0)
    return F.real_div(_logaddexp(F.mul(x1, ln2), F.mul(x2, ln2)), ln2)


def _fmod(x1: Tensor, x2: Tensor) -> Tensor:
    """Remainder with the sign of the dividend (C's fmod)."""
    return F.sub(x1, F.mul(_trunc(F.real_div(x1, x2)) if mstype.is_float(x1.dtype)
                           else F.truncate_div(x1, x2), x2))


def _gcd(x1: Tensor, x2: Tensor) -> Tensor:
    """Euclid's algorithm unrolled for the 32-bit range (47 steps bound any pair of Int32)."""
    a, b = F.abs(x1), F.abs(x2)
    zero = F.zeros_like(b)
    for _ in range(47):
        done = F.equal(b, zero)
        safe = F.select(done, F.ones_like(b), b)
        a, b = F.select(done, a, b), F.select(done, zero, F.floormod(a, safe))
    return a


def _lcm(x1: Tensor, x2: Tensor) -> Tensor:
    divisor = _gcd(x1, x2)
    safe = F.select(F.equal(divisor, F.zeros_like(divisor)), F.ones_like(divisor), divisor)
    return F.abs(F.mul(F.floordiv(x1, safe), x2))


def _bitwise(fn: Callable, logical: Callable) -> Callable:
    return lambda x1, x2: logical(x1, x2) if x1.dtype is mstype.bool_ else fn(x1, x2)


BINARY: dict[str, tuple[Callable[[Tensor, Tensor], Tensor], bool]] = {
    "add": (F.add, False),
    "subtract": (F.sub, False),
    "multiply": (F.mul, False),
    "divide": (F.real_div, True),
    "true_divide": (F.real_div, True),
    "floor_divide": (F.floordiv, False),
    "remainder": (F.floormod, False),
    "fmod": (_fmod, False),
    "power": (F.pow, False),
    "float_power": (F.pow, True),
    "maximum": (F.maximum, False),
    "minimum": (F.minimum, False),
    "hypot": (lambda x1, x2: F.sqrt(F.add(F.square(x1), F.square(x2))), True),
    "arctan2": (F.atan2, True),
    "heaviside": (_heaviside, False),
    "copysign": (_copysign, True),
    "logaddexp": (_logaddexp, True),
    "logaddexp2": (_logaddexp2, True),
    "bitwise_and": (_bitwise(F.bitwise_and, F.logical_and), False),
    "bitwise_or": (_bitwise(F.bitwise_or, F.logical_or), False),
    "bitwise_xor": (_bitwise(F.bitwise_xor, F.not_equal), False),
    "gcd": (_gcd, False),
    "lcm": (_lcm, False),
}

_SELECTING = {"heaviside", "copysign", "gcd", "lcm"}  # Select needs equal shapes
_INTEGER_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm", "invert"}


def _check_integer(name: str, *xs: Tensor) -> None:
    if name in _INTEGER_ONLY and any(mstype.is_float(x.dtype) for x in xs):
        raise TypeError(f"{name}: inputs must be integers or booleans, but got "
                        f"{[str(x.dtype) for x in xs]}")


def unary(name: str) -> Callable[..., Tensor]:
    fn, to_float = UNARY[name]

    def apply(x: Any, dtype: Any = None) -> Tensor:
        x = to_tensor(name, "x", x)
        _check_integer(name, x)
        return cast_to(fn(float_of(x) if to_float else x), check_dtype(name, dtype))

    return named(apply, name, f"``numpy.{name}`` element-wise: ``{name}(x, dtype=None)``.")


def binary(name: str) -> Callable[..., Tensor]:
    fn, to_float = BINARY[name]

    def apply(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        x1, x2 = to_tensors(name, x1, x2)
        _check_integer(name, x1, x2)
        if x1.shape != x2.shape and name in _SELECTING:
            x1, x2 = broadcast_pair(name, x1, x2)
        if to_float:
            x1, x2 = float_of(x1), float_of(x2)
        return cast_to(fn(x1, x2), check_dtype(name, dtype))

    return named(apply, name, f"``numpy.{name}`` element-wise with broadcasting: "
                              f"``{name}(x1, x2, dtype=None)``.")


FUNCTIONS: dict[str, Callable[..., Tensor]] = {
    **{name: unary(name) for name in UNARY}, **{name: binary(name) for name in BINARY}}
