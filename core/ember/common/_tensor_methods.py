"""Tensor operators and methods, each a primitive call (so they are differentiable)."""

from __future__ import annotations

import numbers
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops import operations as P


def _shape_args(shape: tuple) -> tuple:
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], tuple | list) else shape


def _axis(axis: Any) -> Any:
    return () if axis is None else axis


def _reduce(primitive: type) -> Any:
    def method(self: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
        return primitive(keep_dims=keepdims)(self, _axis(axis))

    method.__doc__ = f"{primitive.__name__} over ``axis`` (all axes when None)."
    return method


def astype(self: Tensor, dtype: Any, copy: bool = True) -> Tensor:
    """The tensor converted to ``dtype`` (an ember dtype, NumPy dtype or Python type)."""
    return F.cast(self, mstype.pytype_to_dtype(dtype))


def reshape(self: Tensor, *shape: Any) -> Tensor:
    return F.reshape(self, _shape_args(shape))


def transpose(self: Tensor, *axes: Any) -> Tensor:
    perm = _shape_args(axes) or tuple(reversed(range(self.ndim)))
    return F.transpose(self, perm)


def expand_dims(self: Tensor, axis: int) -> Tensor:
    return F.expand_dims(self, axis)


def squeeze(self: Tensor, axis: Any = None) -> Tensor:
    return F.squeeze(self, _axis(axis))


def view(self: Tensor, *shape: Any) -> Tensor:
    """The tensor reshaped to ``shape`` (sizes, or one tuple of them), as ``reshape``."""
    if not shape:
        raise ValueError("The shape variable should not be empty")
    if isinstance(shape[0], tuple) and len(shape) != 1:
        raise ValueError(f"Only one tuple is needed, but got {shape}")
    return F.reshape(self, _shape_args(shape))


def flatten(self: Tensor, order: str = "C") -> Tensor:
    """The tensor collapsed into one dimension, in row-major ('C') or column-major ('F')
    order."""
    if not isinstance(order, str):
        raise TypeError(f"The order variable should be a string, but got {type(order)}")
    if order not in ("C", "F"):
        raise ValueError(f"only `C` and `F` are supported as order, but got {order}")
    if order == "F":
        return F.reshape(F.transpose(self, tuple(reversed(range(self.ndim)))), (-1,))
    return F.reshape(self, (-1,))


def argmax(self: Tensor, axis: Any = None) -> Tensor:
    if axis is None:
        return P.Argmax(axis=0)(F.reshape(self, (-1,)))
    return P.Argmax(axis=axis)(self)


def copy(self: Tensor) -> Tensor:
    return Tensor(self.asnumpy(), self.dtype)


_COMPARABLE = (numbers.Number, Tensor)  # what == and != compare elementwise
_SEQUENCES = (tuple, list)  # beside a Tensor in an operator they are Tensors, as in MindSpore


def _binary(fn: Any, reflected: bool = False) -> Any:
    if reflected:
        return lambda self, other: fn(
            Tensor(other) if isinstance(other, _SEQUENCES) else other, self)
    return lambda self, other: fn(self, Tensor(other) if isinstance(other, _SEQUENCES) else other)


def _equality(fn: Any, unlike: bool) -> Any:
    """``==``/``!=`` as MindSpore's: elementwise against a Tensor or number (NumPy's scalars
    too); against anything else (a string, None, a sequence) the plain answer ``unlike``."""
    return lambda self, other: fn(self, other) if isinstance(other, _COMPARABLE) else unlike


def _unary(fn: Any) -> Any:
    return lambda self: fn(self)


def install() -> None:
    """Attach the operators and methods to ``Tensor``."""
    from ember.common._indexing import getitem, setitem
    from ember.common._tensor_numpy import TABLE

    table = {
        "__add__": _binary(F.add), "__radd__": _binary(F.add, True),
        "__sub__": _binary(F.sub), "__rsub__": _binary(F.sub, True),
        "__mul__": _binary(F.mul), "__rmul__": _binary(F.mul, True),
        "__truediv__": _binary(F.real_div), "__rtruediv__": _binary(F.real_div, True),
        "__floordiv__": _binary(F.floordiv), "__rfloordiv__": _binary(F.floordiv, True),
        "__mod__": _binary(F.floormod), "__rmod__": _binary(F.floormod, True),
        "__pow__": _binary(F.pow), "__rpow__": _binary(F.pow, True),
        "__matmul__": _binary(F.matmul), "__rmatmul__": _binary(F.matmul, True),
        "__eq__": _equality(F.equal, False), "__ne__": _equality(F.not_equal, True),
        "__lt__": _binary(F.less), "__le__": _binary(F.less_equal),
        "__gt__": _binary(F.greater), "__ge__": _binary(F.greater_equal),
        "__neg__": _unary(F.neg), "__pos__": lambda self: self, "__abs__": _unary(F.abs),
        "__invert__": _unary(F.logical_not),
        "__getitem__": getitem, "__setitem__": setitem,
        "abs": _unary(F.abs), "astype": astype, "reshape": reshape, "view": view,
        "transpose": transpose, "expand_dims": expand_dims, "squeeze": squeeze,
        "flatten": flatten, "ravel": flatten, "argmax": argmax, "copy": copy,
        "sum": _reduce(P.ReduceSum), "mean": _reduce(P.ReduceMean),
        "max": _reduce(P.ReduceMax), "min": _reduce(P.ReduceMin),
    }
    for name, fn in {**table, **TABLE}.items():
        setattr(Tensor, name, fn)
