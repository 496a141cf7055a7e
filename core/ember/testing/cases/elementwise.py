"""Cases of the elementwise primitives of ``ember.ops.operations.elementwise_ops``:
trigonometric, rounding and special functions, float predicates, floored and truncated
division, bitwise ops.

References are NumPy (and, for the error functions, Python ``math``) formulas in float64,
rounded to the dtype the primitive returns; inputs stay inside each function's domain and away
from its kinks wherever gradients are checked.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, INTS, OpCase
from ember.testing.cases.math import (
    ANY,
    BOOL,
    F64,
    INF,
    NAN,
    NUMBERS,
    Sampler,
    arrays,
    away_from_zero,
    binary_cases,
    divide,
    in_f64,
    made,
    rounded,
    uniform,
    values,
)

#: Inside (-1, 1), for the inverse sine, cosine and hyperbolic tangent.
UNIT = uniform(-0.9, 0.9)
#: Halfway between integers never comes up: rounding is checked by the special values.
OFF_GRID = uniform(-3.3, 3.3)
erf = np.frompyfunc(math.erf, 1, 1)
erfc = np.frompyfunc(math.erfc, 1, 1)


def inv(x: np.ndarray) -> np.ndarray:
    """``Inv``'s documented semantics: floats as IEEE; integers truncate toward zero and
    1 / 0 is the dtype's min."""
    if x.dtype.kind == "f":
        return in_f64(lambda v: 1 / v)(x)
    return np.where(x == 0, np.iinfo(x.dtype).min, divide(np.ones((), x.dtype), x))


# -- unary ----------------------------------------------------------------------------------
#: name -> (reference in float64, dtypes, sampler, special values)
UNARY: dict[str, tuple[Callable[..., Any], tuple[type, ...], Sampler, list[float]]] = {
    "Sin": (np.sin, FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Cos": (np.cos, FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Tan": (np.tan, FLOATS, uniform(-1.2, 1.2), [NAN, INF, 0, -0.0]),
    "Asin": (np.arcsin, FLOATS, UNIT, [NAN, 1, -1, 2]),
    "ACos": (np.arccos, FLOATS, UNIT, [NAN, 1, -1, 2]),
    "Atan": (np.arctan, FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Sinh": (np.sinh, FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Cosh": (np.cosh, FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Asinh": (np.arcsinh, FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Acosh": (np.arccosh, FLOATS, uniform(1.2, 3), [NAN, INF, 1, 0.5]),
    "Atanh": (np.arctanh, FLOATS, UNIT, [NAN, 1, -1, 2]),
    "Floor": (np.floor, FLOATS, OFF_GRID, [NAN, INF, -0.5, 2.5]),
    "Ceil": (np.ceil, FLOATS, OFF_GRID, [NAN, -INF, -0.5, 2.5]),
    "Rint": (np.rint, FLOATS, OFF_GRID, [NAN, INF, 0.5, 1.5, -2.5]),
    "Round": (np.rint, NUMBERS, OFF_GRID, [NAN, INF, 0.5, 1.5, -2.5]),
    "Erf": (lambda x: erf(x).astype(F64), FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Erfc": (lambda x: erfc(x).astype(F64), FLOATS, ANY, [NAN, INF, -INF, 0]),
    "Expm1": (np.expm1, FLOATS, ANY, [NAN, INF, -INF, 1e-10]),
    "Log1p": (np.log1p, FLOATS, uniform(-0.5, 2), [NAN, INF, -1, -2]),
    "Inv": (inv, FLOATS + (np.int32,),
            away_from_zero(1, 3), [NAN, INF, 0, -0.0]),
}
UNARY_CASES = [
    case for name, (fn, dtypes, draw, special) in UNARY.items() for case in [
        OpCase(f"{name}/matrix", name, getattr(P, name), arrays((2, 3), draw=draw),
               fn if name == "Inv" else in_f64(fn), dtypes, (0,)),
        OpCase(f"{name}/empty", name, getattr(P, name), arrays((0, 2), draw=draw),
               fn if name == "Inv" else in_f64(fn), dtypes[:1]),
        OpCase(f"{name}/nan-inf", name, getattr(P, name), values(special),
               in_f64(fn), FLOATS),
    ]
] + [
    OpCase("Inv/int-truncates", "Inv", P.Inv, values([1, -1, 2, -3, 0]),
           inv, (np.int32,)),
    *(OpCase(f"Eps/{label}", "Eps", P.Eps, arrays(shape),
             lambda x: np.full(x.shape, 2.0 ** -14 if x.dtype == np.float16 else 2.0 ** -16,
                               x.dtype), (np.float16, np.float32))
      for label, shape in (("matrix", (2, 3)), ("scalar", ()), ("empty", (0, 2)))),
    OpCase("Invert/ints", "Invert", P.Invert, arrays((2, 3), draw=uniform(-9, 9)),
           lambda x: -1 - x if x.dtype.kind == "i" else np.iinfo(x.dtype).max - x,
           INTS + (np.int16, np.uint8, np.uint16)),
    *(OpCase(f"{name}/{label}", name, getattr(P, name), values(row), in_f64(fn, np.bool_),
             FLOATS) for name, fn in (("IsNan", np.isnan), ("IsInf", np.isinf),
                                            ("IsFinite", np.isfinite))
      for label, row in (("special", [NAN, INF, -INF, 0, -1.5]), ("finite", [0.5, -2, 3]))),
    OpCase("IsFinite/ints-and-bools", "IsFinite", P.IsFinite, arrays((2, 3)),
           lambda x: np.ones(x.shape, np.bool_), INTS + BOOL),
]


# -- binary ---------------------------------------------------------------------------------
def where_x_zero(fn: Callable[..., Any]) -> Callable[..., np.ndarray]:
    """``fn(x, y)`` in float64, 0 where ``x`` is 0 (Xdivy, Xlogy)."""
    return in_f64(lambda x, y: np.where(x == 0, 0.0, fn(x, y)))


def div_no_nan(x: Any, y: Any) -> np.ndarray:
    """``Div``'s quotient, 0 where ``y`` is 0."""
    zero = np.asarray(y) == 0
    quotient = divide(x, np.where(zero, 1, y) if zero.ndim else (1 if zero else y))
    return np.where(zero, 0, quotient).astype(quotient.dtype)


DIVISORS = [uniform(-3, 3), away_from_zero(1, 3)]
#: The shape cases of these primitives: broadcasting (and its gradients) and no elements; the
#: other shapes, and Python-number operands, go through the same code as Add's.
SHAPES = ("broadcast", "empty")


def binary(name: str, reference: Callable[..., Any], dtypes: tuple[type, ...],
           draw: list[Sampler], special: tuple[list, list] | None,
           grad: tuple[int, ...] = (0, 1)) -> list[OpCase]:
    return binary_cases(name, reference, dtypes, draw, special, grad, SHAPES)


BINARY_CASES = [
    *binary("Atan2", in_f64(np.arctan2), FLOATS, [away_from_zero()] * 2,
                  ([0, 0, INF, NAN, 1, -1], [0, -1, INF, 1, 0, -INF])),
    *binary("FloorDiv", in_f64(lambda x, y: np.floor(x / y)), NUMBERS, DIVISORS,
                  ([INF, 1, -1, NAN, 0], [1, INF, INF, 1, -2])),
    *binary("TruncateDiv", in_f64(lambda x, y: np.trunc(x / y)), NUMBERS, DIVISORS,
                  ([INF, 1, -1, NAN, 0], [1, INF, INF, 1, -2])),
    *binary("FloorMod", in_f64(lambda x, y: x - np.floor(x / y) * y), NUMBERS, DIVISORS,
                  None),
    *(case for name in ("Mod", "TruncateMod") for case in binary(
        name, in_f64(np.fmod), NUMBERS, DIVISORS, ([INF, 1, NAN, -3], [1, INF, 1, 2]))),
    *binary("SquaredDifference", in_f64(lambda x, y: (x - y) ** 2), NUMBERS, [ANY] * 2,
                  ([INF, INF, NAN, 1], [1, INF, 1, -INF])),
    *binary("Xdivy", where_x_zero(np.divide), FLOATS, [away_from_zero()] * 2,
                  ([0, 0, 1, NAN, 2], [0, NAN, 0, 1, INF])),
    *binary("Xlogy", where_x_zero(lambda x, y: x * np.log(y)), FLOATS,
                  [away_from_zero(), uniform(0.5, 2)], ([0, 0, 1, NAN, 2], [0, -1, 0, 1, INF])),
    *binary("DivNoNan", div_no_nan, NUMBERS, DIVISORS, ([1, 0, INF, NAN], [0, 0, 1, 0])),
    *binary("MulNoNan", in_f64(lambda x, y: np.where(y == 0, 0.0, x * y)), NUMBERS,
                  [ANY, ANY], ([INF, NAN, 1, NAN, -INF], [0, 0, 0, 2, 2])),
    *(OpCase(f"Lerp/{label}", "Lerp", P.Lerp, inputs,
             in_f64(lambda start, end, weight: start + weight * (end - start)), FLOATS, grad)
      for label, inputs, grad in [
          ("same-shape", arrays((2, 3), (2, 3), (2, 3)), (0, 1, 2)),
          ("broadcast", arrays((2, 1, 3), (4, 1), (3,)), (0, 1, 2)),
          ("float-weight", lambda rng, dtype: (*arrays((2, 3), (2, 3))(rng, dtype), 0.25),
           (0, 1)),
      ]),
    *(OpCase(f"{name}/int-by-zero", name, getattr(P, name),
             values([7, -7, 0, 7, -7, 5], [0, 0, 0, 2, 2, -3]), reference, INTS)
      for name, reference in [
          ("FloorDiv", lambda x, y: np.where(y == 0, divide(x, y),
                                             rounded(np.floor(x / np.where(y == 0, 1, y)),
                                                     x.dtype))),
          ("FloorMod", lambda x, y: np.where(y == 0, 0, np.mod(x, np.where(y == 0, 1, y)))),
          ("Mod", lambda x, y: np.where(y == 0, 0, np.fmod(x, np.where(y == 0, 1, y)))),
      ]),
    OpCase("DivNoNan/int-by-zero", "DivNoNan", P.DivNoNan, values([7, -7, 0, 7], [0, 0, 0, 2]),
           div_no_nan, INTS),
    *(case for name, fn in (("BitwiseAnd", np.bitwise_and), ("BitwiseOr", np.bitwise_or),
                            ("BitwiseXor", np.bitwise_xor))
      for case in binary(name, fn, INTS + (np.int16, np.uint8), [uniform(-9, 9)] * 2,
                               None, ())),
    *(OpCase(f"ApproximateEqual/{label}", "ApproximateEqual",
             made(P.ApproximateEqual, *attrs),
             values([1, 2, 3, -1, 0], [1.05, 2.3, 3, 1, 0.4]),
             in_f64(lambda x, y, tol=tol: np.abs(x - y) < tol, np.bool_), FLOATS + INTS)
      for label, attrs, tol in (("default", (), 1e-5), ("tolerance", (0.5,), 0.5))),
]

POPULATION_CASES = [
    OpCase("PopulationCount/all-bits", "PopulationCount", P.PopulationCount,
           lambda rng, dt: (np.array([0, 1, 3, 255, 256, -1, 21845, -32768], np.int64).astype(dt),),
           lambda x: np.array([bin(int(v) & 0xFFFF).count("1") for v in x.tolist()], np.uint8),
           (np.int16, np.uint16)),
    OpCase("PopulationCount/2d", "PopulationCount", P.PopulationCount,
           lambda rng, dt: (rng.integers(0, 1 << 16, (3, 4)).astype(dt),),
           lambda x: np.array([bin(int(v) & 0xFFFF).count("1") for v in x.ravel().tolist()],
                              np.uint8).reshape(x.shape),
           (np.int16, np.uint16)),
]

CASES: list[OpCase] = [*UNARY_CASES, *BINARY_CASES, *POPULATION_CASES]
