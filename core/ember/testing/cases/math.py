"""Cases of the math primitives (``ember.ops.operations.math_ops``).

References are NumPy formulas computed in float64 and rounded to the dtype the primitive
returns (integer results truncated toward zero), written from the primitives' documented
semantics, not from any backend's kernels. Inputs stay away from kinks (ties, zeros) wherever
gradients are checked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.ops import operations as P
from ember.ops.operations import math_ops
from ember.testing.cases import FLOATS, INTS, OpCase

F64 = np.float64
NUMBERS = FLOATS + INTS
ALL = NUMBERS + (np.bool_,)
BOOL = (np.bool_,)
#: Looser bounds for float16 results that sum many products (reductions, matrix products).
F16_SUMS: dict[type, tuple[float, float]] = {np.float16: (1e-2, 1e-2)}

Sampler = Callable[[np.random.Generator, tuple[int, ...], type], np.ndarray]


def made(cls: type, *attrs: Any) -> Callable[[], Any]:
    """A case's ``make``: ``cls(*attrs)``."""
    return lambda: cls(*attrs)


# -- inputs ---------------------------------------------------------------------------------
def uniform(low: float = -2.0, high: float = 2.0) -> Sampler:
    """Values in [low, high]: uniform floats, integers of the range, or coin-flip Bools."""
    def draw(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
        kind = np.dtype(dtype).kind
        if kind == "b":
            return np.asarray(rng.random(shape) < 0.5)
        if kind in "iu":
            return np.asarray(rng.integers(math.ceil(low), math.floor(high) + 1, shape), dtype)
        return np.asarray(rng.uniform(low, high, shape), dtype)
    return draw


def away_from_zero(low: float = 0.5, high: float = 2.0) -> Sampler:
    """Magnitudes in [low, high] with random signs."""
    magnitude = uniform(low, high)

    def draw(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
        signs = np.where(rng.random(shape) < 0.5, -1, 1)
        return np.asarray(magnitude(rng, shape, dtype) * signs, dtype)
    return draw


ANY = uniform()
WIDE = uniform(-3, 3)


def arrays(*shapes: tuple[int, ...], draw: Sampler | Sequence[Sampler] = ANY
           ) -> Callable[[np.random.Generator, type], tuple]:
    """Inputs: one random array per shape, drawn by ``draw`` (one sampler, or one per shape)."""
    draws = list(draw) if isinstance(draw, Sequence) else [draw] * len(shapes)
    return lambda rng, dtype: tuple(d(rng, s, dtype) for d, s in zip(draws, shapes))


def values(*rows: Sequence[Any]) -> Callable[[np.random.Generator, type], tuple]:
    """Inputs: fixed values (NaN, inf, ties), one array per row, in the case's dtype."""
    def make(rng: np.random.Generator, dtype: type) -> tuple:
        with np.errstate(over="ignore"):  # 1e5 is inf in float16, as intended
            return tuple(np.asarray(row, F64).astype(dtype) for row in rows)
    return make


def number_for(dtype: type) -> float | int | bool:
    """A Python number of the kind of ``dtype``, for scalar operands."""
    return {"f": 0.5, "b": True}.get(np.dtype(dtype).kind, 2)


# -- references -----------------------------------------------------------------------------
def rounded(result: Any, dtype: Any) -> np.ndarray:
    """``result`` (computed in float64) in ``dtype``: integers truncated toward zero, Bools
    nonzero, floats rounded (overflowing to inf)."""
    dtype = np.dtype(dtype)
    result = np.asarray(result)
    with np.errstate(all="ignore"):
        if dtype.kind in "iu":
            result = np.trunc(result)
        return result.astype(dtype)


def in_f64(fn: Callable[..., Any], out: type | None = None) -> Callable[..., np.ndarray]:
    """A reference that applies ``fn`` to float64 copies of the array inputs and rounds the
    result to ``out`` (default: the dtype of the first array input)."""
    def reference(*args: Any) -> np.ndarray:
        dtype = out or next(a.dtype for a in args if isinstance(a, np.ndarray))
        wide = [a.astype(F64) if isinstance(a, np.ndarray) else a for a in args]
        with np.errstate(all="ignore"):
            return rounded(fn(*wide), dtype)
    return reference


def divide(x: Any, y: Any) -> np.ndarray:
    """``Div``'s documented semantics: floats as IEEE; integers truncate toward zero and
    x / 0 is the dtype's max (x > 0), min (x < 0) or 0 (x = 0)."""
    dtype = x.dtype if isinstance(x, np.ndarray) else y.dtype
    with np.errstate(all="ignore"):
        quotient = rounded(np.asarray(x, F64) / np.asarray(y, F64), dtype)
    if np.dtype(dtype).kind not in "iu":
        return quotient
    info = np.iinfo(dtype)
    x, y = np.broadcast_arrays(np.asarray(x, F64), np.asarray(y, F64))
    saturated = np.where(x > 0, info.max, np.where(x < 0, info.min, 0)).astype(dtype)
    return np.where(y == 0, saturated, quotient)


def axes_of(axis: Any) -> tuple[int, ...] | int | None:
    """A Reduce* ``axis`` for NumPy: () and [] mean every axis."""
    if isinstance(axis, tuple | list):
        return tuple(axis) or None
    return axis


# -- binary elementwise ---------------------------------------------------------------------
#: (name, shapes) of the shape cases every binary primitive runs.
BINARY_SHAPES = [
    ("same-shape", ((3, 4), (3, 4))),
    ("broadcast", ((2, 1, 4), (3, 1))),
    ("scalar-tensor", ((), (2, 3))),
    ("tensor-scalar", ((2, 3), ())),
    ("empty", ((0, 3), (3,))),
]


def binary_cases(name: str, reference: Callable[..., Any], dtypes: tuple[type, ...],
                 draw: Sequence[Sampler], special: tuple[list, list] | None,
                 grad: tuple[int, ...] = (0, 1), shapes: Sequence[str] | None = None
                 ) -> list[OpCase]:
    """The shape cases (those labelled in ``shapes``; all, and a Python-number operand, when
    None) and (for floats) NaN/inf values."""
    prim = getattr(P, name)
    cases = [OpCase(f"{name}/{label}", name, prim, arrays(*pair, draw=draw), reference,
                    dtypes, grad) for label, pair in BINARY_SHAPES
             if shapes is None or label in shapes]
    if shapes is None:
        cases.append(OpCase(
            f"{name}/python-number", name, prim,
            lambda rng, dtype: (draw[0](rng, (2, 3), dtype), number_for(dtype)),
            reference, dtypes, grad[:1]))
    if special is not None:
        cases.append(OpCase(f"{name}/nan-inf", name, prim, values(*special), reference,
                            tuple(d for d in dtypes if d in FLOATS)))
    return cases


INF, NAN = float("inf"), float("nan")
ARITH_CASES = [
    *binary_cases("Add", in_f64(np.add), NUMBERS, [ANY] * 2,
                  ([INF, INF, NAN, -INF, 1], [1, -INF, 1, -INF, NAN])),
    *binary_cases("Sub", in_f64(np.subtract), NUMBERS, [ANY] * 2,
                  ([INF, INF, NAN, -INF, 1], [1, INF, 1, INF, NAN])),
    *binary_cases("Mul", in_f64(np.multiply), NUMBERS, [ANY] * 2,
                  ([INF, 0, NAN, -INF, 1e4], [0, INF, 1, -1, 1e4])),
    *(case for name in ("Div", "RealDiv") for case in binary_cases(
        name, divide, NUMBERS, [uniform(-3, 3), away_from_zero(1, 3)],
        ([1, -1, 0, INF, NAN, 1, -0.5], [0, 0, 0, INF, 1, INF, 0]))),
    *binary_cases("Pow", in_f64(np.power), NUMBERS, [uniform(1, 2), uniform(0, 3)],
                  ([NAN, INF, 0, 0, -1, 2, 1], [1, -1, -1, 0, 0.5, INF, NAN])),
    *binary_cases("Maximum", in_f64(np.maximum), NUMBERS, [ANY] * 2,
                  ([NAN, 1, 2, INF, -INF], [0, NAN, 3, 1, 1])),
    *binary_cases("Minimum", in_f64(np.minimum), NUMBERS, [ANY] * 2,
                  ([NAN, 1, 2, INF, -INF], [0, NAN, 3, 1, 1])),
    OpCase("Add/bool-is-or", "Add", P.Add, arrays((2, 3), (2, 3)),
           lambda x, y: np.logical_or(x, y), BOOL),
    OpCase("Mul/bool-is-and", "Mul", P.Mul, arrays((2, 3), (2, 3)),
           lambda x, y: np.logical_and(x, y), BOOL),
    *(OpCase(f"{name}/int-by-zero", name, getattr(P, name),
             values([7, -7, 0, 5, -5, 6, -7, 7], [0, 0, 0, 0, 0, 3, 2, -2]), divide, INTS)
      for name in ("Div", "RealDiv")),
    OpCase("Pow/int-negative-exponent", "Pow", P.Pow,
           values([2, 3, -2, 1, -1, 2, 0], [-1, 2, 3, -2, -1, 0, 0]), in_f64(np.power), INTS),
    OpCase("Pow/float-powers", "Pow", P.Pow, arrays((2, 3), (2, 3), draw=[
        uniform(0.5, 2), uniform(-2, 2)]), in_f64(np.power), FLOATS, (0, 1)),
]

# -- comparisons and logic ------------------------------------------------------------------
#: Small integers, so that equal elements occur.
FEW = uniform(0, 2)
COMPARE = {"Equal": np.equal, "NotEqual": np.not_equal, "Greater": np.greater,
           "GreaterEqual": np.greater_equal, "Less": np.less, "LessEqual": np.less_equal}
COMPARE_CASES = [
    case for name, fn in COMPARE.items() for case in [
        *binary_cases(name, in_f64(fn, np.bool_), NUMBERS, [FEW] * 2,
                      ([NAN, NAN, INF, -INF, 1, INF], [NAN, 1, INF, INF, NAN, 1e4]), grad=()),
        OpCase(f"{name}/bool", name, getattr(P, name), arrays((2, 3), (2, 3)),
               in_f64(fn, np.bool_), BOOL),
    ]
]
LOGIC = {"LogicalAnd": np.logical_and, "LogicalOr": np.logical_or}
LOGIC_CASES = [
    *(case for name, fn in LOGIC.items()
      for case in binary_cases(name, in_f64(fn, np.bool_), BOOL, [ANY] * 2, None, ())),
    *(OpCase(f"LogicalNot/{label}", "LogicalNot", P.LogicalNot, arrays(shape),
             lambda x: ~x, BOOL) for label, shape in [("matrix", (2, 3)), ("scalar", ()),
                                                      ("empty", (0, 2))]),
]

# -- unary elementwise ----------------------------------------------------------------------
#: name -> (reference in float64, dtypes, sampler, special values)
UNARY: dict[str, tuple[Callable[..., Any], tuple[type, ...], Sampler, list[float]]] = {
    "Neg": (np.negative, NUMBERS, ANY, [NAN, INF, -INF, 0]),
    "Square": (np.square, NUMBERS, ANY, [NAN, INF, -INF, 300]),
    "Abs": (np.abs, NUMBERS, away_from_zero(), [NAN, -INF, INF, -0.0]),
    "Sign": (np.sign, NUMBERS, away_from_zero(), [NAN, -INF, INF, -0.0, 0]),
    "Exp": (np.exp, FLOATS, ANY, [NAN, INF, -INF, 1000]),
    "Log": (np.log, FLOATS, uniform(0.5, 3), [NAN, INF, 0, -1]),
    "Sqrt": (np.sqrt, FLOATS, uniform(0.5, 3), [NAN, INF, 0, -1]),
    "Rsqrt": (lambda x: 1 / np.sqrt(x), FLOATS, uniform(0.5, 3), [NAN, INF, 0, -1]),
    "Reciprocal": (lambda x: 1 / x, FLOATS, away_from_zero(), [NAN, INF, -INF, 0, -0.0]),
}
UNARY_SHAPES = [("matrix", (2, 3)), ("scalar", ()), ("empty", (0,))]
UNARY_CASES = [
    case for name, (fn, dtypes, draw, special) in UNARY.items() for case in [
        *(OpCase(f"{name}/{label}", name, getattr(P, name), arrays(shape, draw=draw),
                 in_f64(fn), dtypes, (0,)) for label, shape in UNARY_SHAPES),
        OpCase(f"{name}/nan-inf", name, getattr(P, name), values(special), in_f64(fn), FLOATS),
    ]
]
LIKE_CASES = [
    OpCase(f"{name}/{label}", name, getattr(P, name), arrays(shape),
           lambda x, fill=fill: np.full(x.shape, fill, x.dtype), ALL, (0,))
    for name, fill in (("ZerosLike", 0), ("OnesLike", 1))
    for label, shape in (("matrix", (2, 3)), ("scalar", ()), ("empty", (2, 0, 3)))
]


def _select(cond: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.array([a if c else b for c, a, b in zip(cond.flat, x.flat, y.flat)],
                    x.dtype).reshape(x.shape)


def _select_inputs(shape: tuple[int, ...]) -> Callable[[np.random.Generator, type], tuple]:
    return lambda rng, dtype: (ANY(rng, shape, np.bool_), ANY(rng, shape, dtype),
                               ANY(rng, shape, dtype))


SELECT_CASES = [
    *(OpCase(f"Select/{label}", "Select", P.Select, _select_inputs(shape), _select, ALL, (1, 2))
      for label, shape in UNARY_SHAPES),
    OpCase("Select/nan-not-leaked", "Select", P.Select,
           lambda rng, dtype: (np.array([False, True, True]),
                               *values([NAN, 1, INF], [2, NAN, 0])(rng, dtype)),
           _select, FLOATS),
]

# SqrtGrad(y, dy) = dy / (2 y): the derivative of sqrt at x = y ** 2 times dy;
# ReciprocalGrad(y, dy) = -dy * y ** 2: the derivative of 1 / x at x = 1 / y times dy
SQRT_GRAD_CASES = [
    OpCase("SqrtGrad/2d", "SqrtGrad", math_ops.SqrtGrad,
           arrays((2, 3), (2, 3), draw=[uniform(0.5, 3), ANY]),
           lambda y, dy: (dy.astype(F64) / (2 * y.astype(F64))).astype(y.dtype), FLOATS),
    OpCase("ReciprocalGrad/2d", "ReciprocalGrad", math_ops.ReciprocalGrad, arrays((2, 3), (2, 3)),
           in_f64(lambda y, dy: -dy * y * y), FLOATS, (0, 1)),
]


def _routed(x_wins: Callable[..., Any], grad_x: bool = True, grad_y: bool = True
            ) -> Callable[..., tuple]:
    """MaximumGrad/MinimumGrad's documented rule: ``dout`` to x where ``x_wins(x, y)``, else to
    y (ties too), summed over broadcast axes; zeros for a gradient not asked for."""
    def reference(x: np.ndarray, y: np.ndarray, dout: np.ndarray) -> tuple:
        to_x = np.broadcast_to(x_wins(x.astype(F64), y.astype(F64)), dout.shape)
        d = dout.astype(F64)
        dx = np.where(to_x, d, 0).sum(axis=2, keepdims=True)
        dy = np.where(to_x, 0, d).sum(axis=(0, 1))
        return (rounded(dx if grad_x else 0 * dx, x.dtype),
                rounded(dy if grad_y else 0 * dy, y.dtype))
    return reference


# x of (2, 3, 1) and y of (4,) broadcast to dout of (2, 3, 4): FEW values make ties
SELECT_GRAD_CASES = [
    OpCase(f"{name}/broadcast-ties{label}", name, made(getattr(math_ops, name), *flags),
           lambda rng, dtype: (FEW(rng, (2, 3, 1), dtype), FEW(rng, (4,), dtype),
                               ANY(rng, (2, 3, 4), dtype)),
           _routed(wins, *flags), NUMBERS, (2,), tolerance=F16_SUMS)
    for name, wins in (("MaximumGrad", np.greater), ("MinimumGrad", np.less))
    for label, flags in (("", ()), ("/grad-y-only", (False, True)))
]

# -- casts, fills, sums of lists ------------------------------------------------------------
def cast_to(target: type, draw: Sampler = WIDE, shape: tuple[int, ...] = (2, 3)
            ) -> Callable[[np.random.Generator, type], tuple]:
    return lambda rng, dtype: (draw(rng, shape, dtype), mstype.from_numpy(target))


def _cast_reference(x: np.ndarray, dtype: mstype.Type) -> np.ndarray:
    return rounded(x.astype(F64), dtype.np_dtype)


CAST_CASES = [
    OpCase("Cast/to-int32", "Cast", P.Cast, cast_to(np.int32), _cast_reference, NUMBERS),
    OpCase("Cast/to-float32", "Cast", P.Cast, cast_to(np.float32), _cast_reference, ALL),
    OpCase("Cast/to-bool", "Cast", P.Cast, cast_to(np.bool_, uniform(-1, 1)), _cast_reference,
           ALL),
    OpCase("Cast/to-float16", "Cast", P.Cast, cast_to(np.float16), _cast_reference, ALL),
    OpCase("Cast/to-int64-empty", "Cast", P.Cast, cast_to(np.int64, shape=(0, 3)),
           _cast_reference, ALL),
    OpCase("Cast/to-float64-scalar", "Cast", P.Cast, cast_to(np.float64, shape=()),
           _cast_reference, FLOATS, (0,)),
    OpCase("Cast/to-float64", "Cast", P.Cast, cast_to(np.float64), _cast_reference, FLOATS,
           (0,)),
    OpCase("Cast/python-number", "Cast", P.Cast,
           lambda rng, dtype: (2.5, mstype.from_numpy(dtype)),
           lambda x, dtype: rounded(x, dtype.np_dtype), ALL),
    OpCase("Cast/nan-inf-to-float16", "Cast", P.Cast,
           lambda rng, dtype: (*values([NAN, INF, -INF, 1e5, -1e5])(rng, dtype),
                               mstype.float16), _cast_reference, (np.float32, np.float64)),
]


def fill(shape: Any, value: Any) -> Callable[[np.random.Generator, type], tuple]:
    return lambda rng, dtype: (mstype.from_numpy(dtype), shape, value)


def _fill_reference(dtype: mstype.Type, shape: Any, value: Any) -> np.ndarray:
    return rounded(np.full(tuple(shape), value, F64), dtype.np_dtype)


FILL_CASES = [
    OpCase(f"Fill/{label}", "Fill", P.Fill, fill(shape, value), _fill_reference, dtypes)
    for label, shape, value, dtypes in [
        ("matrix", (2, 3), 1.5, ALL),
        ("int-value", (4,), 7, ALL),
        ("bool-value", (2, 2), True, ALL),
        ("scalar", (), -2, ALL),
        ("empty", (0, 3), 1, ALL),
        ("list-shape", [2], 2.9, ALL),
        ("nan", (2,), NAN, FLOATS),
        ("inf", (2,), -INF, FLOATS),
    ]
]


def tuple_of(n: int, shape: tuple[int, ...]) -> Callable[[np.random.Generator, type], tuple]:
    """Inputs: one tuple of ``n`` random arrays (AddN's single argument)."""
    return lambda rng, dtype: (arrays(*[shape] * n)(rng, dtype),)


def _addn_reference(xs: tuple[np.ndarray, ...]) -> np.ndarray:
    with np.errstate(all="ignore"):
        return rounded(sum(x.astype(F64) for x in xs), xs[0].dtype)


ADDN_CASES = [
    *(OpCase(f"AddN/{label}", "AddN", P.AddN, tuple_of(n, shape), _addn_reference, NUMBERS,
             (0,)) for label, n, shape in [("three", 3, (2, 3)), ("one", 1, (4,)),
                                           ("scalars", 2, ()), ("empty", 2, (0, 2))]),
    OpCase("AccumulateNV2/three", "AccumulateNV2", P.AccumulateNV2, tuple_of(3, (2, 3)),
           _addn_reference, NUMBERS, (0,)),
    OpCase("AddN/nan-inf", "AddN", P.AddN,
           lambda rng, dtype: (values([INF, 1, NAN], [-INF, INF, 1])(rng, dtype),),
           _addn_reference, FLOATS),
]


# -- reductions -----------------------------------------------------------------------------
def _mean(x: np.ndarray, axis: Any = None, keepdims: bool = False) -> np.ndarray:
    count = x.size // max(np.sum(x, axis=axis, keepdims=keepdims).size, 1)
    with np.errstate(all="ignore"):
        return np.sum(x, axis=axis, keepdims=keepdims) / count


REDUCE: dict[str, Callable[..., Any]] = {
    "ReduceSum": np.sum, "ReduceMean": _mean, "ReduceMax": np.max, "ReduceMin": np.min}


def reduce_reference(fn: Callable[..., Any], keep_dims: bool) -> Callable[..., np.ndarray]:
    def reference(x: np.ndarray, axis: Any = ()) -> np.ndarray:
        return rounded(fn(x.astype(F64), axis=axes_of(axis), keepdims=keep_dims), x.dtype)
    return reference


def reduce_inputs(shape: tuple[int, ...], axis: Any
                  ) -> Callable[[np.random.Generator, type], tuple]:
    """A random ``x`` of ``shape``, then ``axis`` unless it is None (the default is used)."""
    return lambda rng, dtype: (ANY(rng, shape, dtype),) + (() if axis is None else (axis,))


def reduce_cases(name: str, fn: Callable[..., Any],
                 tolerance: dict[type, tuple[float, float]] = F16_SUMS) -> list[OpCase]:
    extreme = name in ("ReduceMax", "ReduceMin")
    rows = [
        # label, keep_dims, input shape, axis (None: not passed), dtypes
        ("default-axis", False, (2, 3, 4), None, NUMBERS),
        ("all-keep", True, (2, 3, 4), (), NUMBERS),
        ("axis0", False, (2, 3, 4), 0, NUMBERS),
        ("last-keep", True, (2, 3, 4), -1, NUMBERS),
        ("two-axes", False, (2, 3, 4), (0, 2), NUMBERS),
        ("list-axis", True, (2, 3, 4), [1], NUMBERS),
        ("scalar", False, (), (), NUMBERS),
        ("empty-kept-axis", False, (0, 3), 1, NUMBERS),
    ]
    if not extreme:  # a sum over nothing is 0; a mean 0 / 0
        rows.append(("empty-reduced-axis", False, (0, 3), 0, NUMBERS))
    cases = [OpCase(f"{name}/{label}", name, made(getattr(P, name), keep_dims),
                    reduce_inputs(shape, axis), reduce_reference(fn, keep_dims), dtypes, (0,),
                    tolerance)
             for label, keep_dims, shape, axis, dtypes in rows]
    cases.append(OpCase(f"{name}/nan-inf", name, made(getattr(P, name), False),
                        lambda rng, dtype: (*values([[NAN, 1], [INF, 1], [-INF, 2]])(
                            rng, dtype), 1),
                        reduce_reference(fn, False), FLOATS))
    return cases


REDUCE_CASES = [case for name, fn in REDUCE.items() for case in reduce_cases(name, fn)]


def _argmax_reference(axis: int, keep_dims: bool, dtype: type,
                      pick: Callable[..., Any] = max) -> Callable[..., Any]:
    """Index (first of ties) of the maximum (``pick=min``: minimum) along ``axis``, in
    ``dtype``."""
    def reference(x: np.ndarray) -> np.ndarray:
        moved = np.moveaxis(x, axis, -1)
        rows = moved.reshape(-1, x.shape[axis])
        index: np.ndarray = np.array([list(row).index(pick(row)) for row in rows],
                                     dtype).reshape(moved.shape[:-1])
        return np.expand_dims(index, axis) if keep_dims else index
    return reference


def _argmax_with_value_reference(axis: int, keep_dims: bool,
                                 pick: Callable[..., Any] = max) -> Callable[..., Any]:
    index_of = _argmax_reference(axis, keep_dims, np.int32, pick)
    extreme = np.max if pick is max else np.min
    return lambda x: (index_of(x), extreme(x, axis=axis, keepdims=keep_dims))


TIES = values([[1, 9, 9, 0], [7, 2, 5, 7], [3, 3, 3, 3]])
ARGMAX_CASES = [
    case for name, pick in (("max", max), ("min", min)) for case in [
        *(OpCase(f"Arg{name}/{label}", f"Arg{name}", made(getattr(P, f"Arg{name}"), axis, out),
                 inputs, _argmax_reference(axis, False, out.np_dtype.type, pick), NUMBERS, grad)
          for label, axis, out, inputs, grad in [
              ("default", -1, mstype.int32, arrays((3, 4)), (0,)),
              ("axis0-int64", 0, mstype.int64, arrays((3, 4)), ()),
              ("vector", -1, mstype.int32, arrays((5,)), ()),
              ("ties-first", -1, mstype.int32, TIES, ()),
              ("empty-other-axis", 1, mstype.int32, arrays((0, 3)), ()),
              ("rank8", 2, mstype.int32, arrays((2, 1, 3, 1, 2, 1, 2, 2)), ()),
          ]),
        *(OpCase(f"Arg{name.capitalize()}WithValue/{label}", f"Arg{name.capitalize()}WithValue",
                 made(getattr(P, f"Arg{name.capitalize()}WithValue"), axis, keep), inputs,
                 _argmax_with_value_reference(axis, keep, pick), NUMBERS, grad)
          for label, axis, keep, inputs, grad in [
              ("default", 0, False, arrays((3, 4)), (0,)),
              ("last-keep", -1, True, arrays((3, 4)), (0,)),
              ("vector", 0, False, arrays((5,)), (0,)),
              ("ties-first", 1, False, TIES, ()),
              ("rank8-keep", -4, True, arrays((2, 1, 2, 1, 3, 1, 2, 2)), ()),
          ]),
    ]
]


# -- matrix products ------------------------------------------------------------------------
def _matmul_reference(ta: bool, tb: bool) -> Callable[..., np.ndarray]:
    """Sums of products over the inner axis with broadcast batch axes, in float64."""
    def reference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        spec = ("...ji" if ta else "...ij") + "," + ("...kj" if tb else "...jk") + "->...ik"
        with np.errstate(all="ignore"):
            return rounded(np.einsum(spec, x.astype(F64), y.astype(F64)), x.dtype)
    return reference


MATMUL_DTYPES = FLOATS + (np.int32,)
MATMUL_CASES = [
    OpCase(f"{name}/{label}", name, made(getattr(P, name), ta, tb),
           arrays(xs, ys), _matmul_reference(ta, tb), dtypes, grad, F16_SUMS)
    for name, label, ta, tb, xs, ys, dtypes, grad in [
        ("MatMul", "plain", False, False, (3, 4), (4, 2), MATMUL_DTYPES, (0, 1)),
        ("MatMul", "transpose-a", True, False, (4, 3), (4, 2), MATMUL_DTYPES, (0, 1)),
        ("MatMul", "transpose-b", False, True, (3, 4), (2, 4), MATMUL_DTYPES, (0, 1)),
        ("MatMul", "transpose-both", True, True, (4, 3), (2, 4), MATMUL_DTYPES, (0, 1)),
        ("MatMul", "empty-inner", False, False, (2, 0), (0, 3), MATMUL_DTYPES, ()),
        ("MatMul", "empty-rows", False, False, (0, 3), (3, 2), MATMUL_DTYPES, ()),
        ("BatchMatMul", "batch", False, False, (2, 3, 4), (2, 4, 2), MATMUL_DTYPES, (0, 1)),
        ("BatchMatMul", "broadcast", False, False, (2, 1, 2, 3), (1, 2, 3, 2), MATMUL_DTYPES,
         (0, 1)),
        ("BatchMatMul", "transpose-a", True, False, (2, 4, 3), (1, 4, 2), MATMUL_DTYPES,
         (0, 1)),
        ("BatchMatMul", "transpose-b", False, True, (1, 3, 4), (2, 2, 4), MATMUL_DTYPES,
         (0, 1)),
        ("BatchMatMul", "empty-batch", False, False, (0, 2, 3), (1, 3, 1), MATMUL_DTYPES, ()),
    ]
] + [
    OpCase("MatMul/nan-inf", "MatMul", P.MatMul, values([[INF, 1], [1, 1]], [[0, 1], [1, NAN]]),
           _matmul_reference(False, False), FLOATS),
]

CASES: list[OpCase] = [
    *ARITH_CASES, *COMPARE_CASES, *LOGIC_CASES, *UNARY_CASES, *LIKE_CASES, *SELECT_CASES,
    *SQRT_GRAD_CASES, *SELECT_GRAD_CASES,
    *CAST_CASES, *FILL_CASES, *ADDN_CASES, *REDUCE_CASES, *ARGMAX_CASES, *MATMUL_CASES,
]
