"""Comparisons and logic of ``mindspore.numpy``; results are Bool tensors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.numpy._utils import check_dtype, named, to_tensor, to_tensors
from ember.ops import functional as F
from ember.ops import operations as P


def _boolean(x: Tensor) -> Tensor:
    return x if x.dtype is mstype.bool_ else F.not_equal(x, F.zeros_like(x))


def _comparison(name: str, fn: Callable[[Tensor, Tensor], Tensor]) -> Callable[..., Tensor]:
    def compare(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
        x1, x2 = to_tensors(name, x1, x2)
        out = fn(x1, x2)
        dtype = check_dtype(name, dtype)
        return out if dtype is None else F.cast(out, dtype)

    return named(compare, name, f"``numpy.{name}`` element-wise with broadcasting (Bool).")


COMPARISONS = {
    "equal": F.equal, "not_equal": F.not_equal, "less": F.less, "less_equal": F.less_equal,
    "greater": F.greater, "greater_equal": F.greater_equal,
    "logical_and": lambda a, b: F.logical_and(_boolean(a), _boolean(b)),
    "logical_or": lambda a, b: F.logical_or(_boolean(a), _boolean(b)),
    "logical_xor": lambda a, b: F.not_equal(_boolean(a), _boolean(b)),
}
globals().update({name: _comparison(name, fn) for name, fn in COMPARISONS.items()})


def _predicate(name: str, fn: Callable[[Tensor], Tensor]) -> Callable[..., Tensor]:
    def test(x: Any, dtype: Any = None) -> Tensor:
        out = fn(to_tensor(name, "x", x))
        dtype = check_dtype(name, dtype)
        return out if dtype is None else F.cast(out, dtype)

    return named(test, name, f"``numpy.{name}`` element-wise (Bool).")


def _float_test(fn: Callable[[Tensor], Tensor], integers: bool) -> Callable[[Tensor], Tensor]:
    return lambda x: fn(x) if mstype.is_float(x.dtype) else F.fill(
        mstype.bool_, x.shape, integers)


PREDICATES = {
    "isnan": _float_test(F.isnan, False), "isinf": _float_test(F.isinf, False),
    "isfinite": _float_test(F.isfinite, True),
    "isposinf": _float_test(lambda x: F.logical_and(F.isinf(x), F.greater(x, 0.0)), False),
    "isneginf": _float_test(lambda x: F.logical_and(F.isinf(x), F.less(x, 0.0)), False),
    "signbit": lambda x: F.less(x, F.zeros_like(x)),
    "logical_not": lambda x: F.logical_not(_boolean(x)),
}
globals().update({name: _predicate(name, fn) for name, fn in PREDICATES.items()})


def isscalar(element: Any) -> bool:
    """Whether ``element`` is a Python or NumPy scalar (a Tensor never is)."""
    return isinstance(element, int | float | bool | complex | str | bytes | np.generic)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """Where ``|a - b| <= atol + rtol * |b|`` (NaNs equal when ``equal_nan``)."""
    a, b = to_tensors("isclose", a, b)
    if not mstype.is_float(a.dtype):
        return F.equal(a, b)
    close = F.less_equal(F.abs(F.sub(a, b)), F.add(F.mul(F.abs(b), rtol), atol))
    close = F.logical_or(close, F.equal(a, b))  # equal infinities
    if equal_nan:
        close = F.logical_or(close, F.logical_and(F.isnan(a), F.isnan(b)))
    return close


def in1d(ar1: Any, ar2: Any, invert: bool = False) -> Tensor:
    """For each element of the flattened ``ar1``, whether it is in ``ar2``."""
    ar1, ar2 = to_tensors("in1d", ar1, ar2)
    return isin(F.reshape(ar1, (-1,)), ar2, invert=invert)


def isin(element: Any, test_elements: Any, invert: bool = False) -> Tensor:
    """For each element, whether it is in ``test_elements`` (shaped like ``element``)."""
    element, test_elements = to_tensors("isin", element, test_elements)
    hits = F.equal(F.expand_dims(element, -1), F.reshape(test_elements, (-1,)))
    found = P.ReduceAny()(hits, -1)
    return F.logical_not(found) if invert else found


def sometrue(a: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """Whether any element along ``axis`` is nonzero."""
    a = to_tensor("sometrue", "a", a)
    return a.any(axis, keepdims)


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Tensor:
    """Whether the two inputs have the same shape and elements."""
    a1, a2 = to_tensors("array_equal", a1, a2)
    if a1.shape != a2.shape:
        return Tensor(False)
    same = F.equal(a1, a2)
    if equal_nan and mstype.is_float(a1.dtype):
        same = F.logical_or(same, F.logical_and(F.isnan(a1), F.isnan(a2)))
    return P.ReduceAll()(same, ())


def array_equiv(a1: Any, a2: Any) -> Tensor:
    """Whether the two inputs are equal after broadcasting."""
    a1, a2 = to_tensors("array_equiv", a1, a2)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return Tensor(False)
    return P.ReduceAll()(F.equal(a1, a2), ())


__all__ = sorted([*COMPARISONS, *PREDICATES, "isscalar", "isclose", "in1d", "isin", "sometrue",
                  "array_equal", "array_equiv"])
