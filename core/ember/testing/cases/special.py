"""Cases of ``ember.ops.operations.special_ops``: Erfinv, the Bessel functions, Trunc,
Addcmul, Addcdiv.

Erfinv's reference inverts Python's ``math.erf`` by bisection in float64 (no SciPy); the
Bessel functions are their integrals ``I_n(x) = 1/pi int_0^pi exp(x cos t) cos(n t) dt`` by
the trapezoid rule (exact to rounding for a smooth periodic integrand, given enough points);
the others are their formulas in float64, rounded to the dtype the primitive returns.
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


_ANGLES = np.linspace(0.0, np.pi, 4001)


def bessel(order: int, scaled: bool):
    """I_order(x) (times exp(-|x|) when ``scaled``) by the trapezoid rule over [0, pi]."""

    def reference(x: np.ndarray) -> np.ndarray:
        v = x.astype(F64)[..., None]
        shift = np.abs(v) if scaled else 0.0
        f = np.exp(v * np.cos(_ANGLES) - shift) * np.cos(order * _ANGLES)
        return (f.sum(-1) - (f[..., 0] + f[..., -1]) / 2) / (len(_ANGLES) - 1)

    return in_f64(reference)


def _bessel_cases(name: str, order: int, scaled: bool, documented: list[float]) -> list[OpCase]:
    make, ref = getattr(P, name), bessel(order, scaled)
    return [
        OpCase(f"{name}/matrix", name, make, arrays((2, 3), draw=uniform(-4, 4)), ref, FLOATS,
               grad=(0,)),
        OpCase(f"{name}/large-and-zero", name, make,
               values([0.0, -0.0, 1e-3, -12.5, 29.5, 31.0, -45.0, 80.0]), ref, (np.float32, F64),
               tolerance={F64: (1e-12, 1e-300)}),
        OpCase(f"{name}/documented", name, make, values([0.24, 0.83, 0.31, 0.09]),
               lambda x: np.array(documented, x.dtype), FLOATS,
               tolerance={np.float32: (1e-6, 1e-6), F64: (1e-6, 1e-6)}),
        OpCase(f"{name}/empty", name, make, arrays((0, 2)), ref, FLOATS[:1]),
    ]


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
    *_bessel_cases("BesselI0", 0, False, [1.014452, 1.179784, 1.0241697, 1.0020261]),
    *_bessel_cases("BesselI1", 1, False, [0.1208661, 0.45177728, 0.1568694, 0.04504559]),
    *_bessel_cases("BesselI0e", 0, True, [0.7979961, 0.5144438, 0.75117415, 0.9157829]),
    *_bessel_cases("BesselI1e", 1, True, [0.09507662, 0.19699717, 0.11505538, 0.04116856]),
    OpCase("BesselI1/grad-at-zero", "BesselI1", P.BesselI1, values([0.0, 1e-9, -2.0]),
           bessel(1, False), (F64,), grad=(0,)),
    OpCase("BesselI1e/grad-at-zero", "BesselI1e", P.BesselI1e, values([0.0, 1e-9, -2.0]),
           bessel(1, True), (F64,), grad=(0,)),
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
