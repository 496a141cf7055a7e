"""Cases of ``ember.ops.operations.special_ops``: Erfinv, Trunc, Addcmul, Addcdiv.

Erfinv's reference inverts Python's ``math.erf`` by bisection in float64 (no SciPy); the
others are their formulas in float64, rounded to the dtype the primitive returns.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, OpCase
from ember.testing.cases.math import F64, NAN, arrays, in_f64, uniform, values


def _erfinv_scalar(y: float) -> float:
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    low, high = -6.0, 6.0  # erf(±6) is ±1 in float64
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if math.erf(mid) < y else (low, mid)
        if high - low <= 4 * math.ulp(mid):
            break
    return (low + high) / 2


_erfinv = np.frompyfunc(_erfinv_scalar, 1, 1)


def erfinv(x: np.ndarray) -> np.ndarray:
    return _erfinv(x.astype(F64)).astype(F64)


#: Off the integers, and off halves of them, for truncation.
_OFF_GRID = uniform(-3.3, 3.3)
#: Denominators of Addcdiv away from zero.
_DENOMINATOR = uniform(0.5, 2.0)


def _fused(name: str, op: str, dtypes: tuple[type, ...]) -> list[OpCase]:
    fn = (lambda d, a, b, v: d + v * (a * b)) if op == "*" else (lambda d, a, b, v: d + v * (a / b))
    draws = [uniform(), uniform(), _DENOMINATOR if op == "/" else uniform(), uniform()]
    return [
        OpCase(f"{name}/same-shape", name, getattr(P, name),
               arrays((2, 3), (2, 3), (2, 3), (2, 3), draw=draws), in_f64(fn), dtypes,
               grad=(0, 1, 2, 3)),
        # the docstring's broadcast: input (3,), x1 (3, 1), x2 (1, 3), value (1,)
        OpCase(f"{name}/broadcast", name, getattr(P, name),
               arrays((3,), (3, 1), (1, 3), (1,), draw=draws), in_f64(fn), dtypes,
               grad=(0, 1, 2, 3)),
        OpCase(f"{name}/empty", name, getattr(P, name),
               arrays((0, 3), (1, 3), (1, 3), (1,), draw=draws), in_f64(fn), dtypes[:2]),
    ]


CASES: list[OpCase] = [
    OpCase("Erfinv/matrix", "Erfinv", P.Erfinv, arrays((2, 3), draw=uniform(-0.95, 0.95)),
           in_f64(erfinv), FLOATS, grad=(0,), tolerance={np.float16: (3e-3, 3e-3)}),
    OpCase("Erfinv/tails", "Erfinv", P.Erfinv,
           values([0.999, -0.9999, 0.5, -0.9, 0.0, 1e-4]), in_f64(erfinv), (np.float32, F64)),
    OpCase("Erfinv/edges", "Erfinv", P.Erfinv, values([1, -1, 1.5, -2, NAN]), in_f64(erfinv),
           FLOATS),
    OpCase("Erfinv/empty", "Erfinv", P.Erfinv, arrays((0, 2)), in_f64(erfinv), FLOATS[:1]),
    OpCase("Trunc/matrix", "Trunc", P.Trunc, arrays((2, 3), draw=_OFF_GRID), in_f64(np.trunc),
           FLOATS, grad=(0,)),
    OpCase("Trunc/documented", "Trunc", P.Trunc, values([3.4742, 0.5466, -0.8008, -3.9079]),
           in_f64(np.trunc), FLOATS),
    OpCase("Trunc/ints", "Trunc", P.Trunc, arrays((2, 3), draw=uniform(-9, 9)),
           lambda x: x.copy(), (np.int8, np.int32)),
    OpCase("Trunc/uint8", "Trunc", P.Trunc, arrays((2, 3), draw=uniform(0, 9)),
           lambda x: x.copy(), (np.uint8,)),
    *_fused("Addcmul", "*", FLOATS + (np.int32,)),
    *_fused("Addcdiv", "/", FLOATS),
]
