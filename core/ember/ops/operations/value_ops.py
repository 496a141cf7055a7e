"""Primitives answered in Python from constant inputs, as MindSpore 1.6 folds them while it
compiles: conversions of Python numbers and tuples to tensors and between types, type and
shape checks, ``Ones``/``Zeros`` (a ``Fill``), ``Depend`` and ``identity``.

They have no kernel of their own (``_Static``): a call returns a Python value, its input, or
the tensor another primitive makes, in either mode.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import _Static
from ember.ops.operations.math_ops import fill

__all__ = [
    "Depend", "IsInstance", "IsSubClass", "Ones", "SameTypeShape", "ScalarCast",
    "ScalarToArray", "ScalarToTensor", "TupleToArray", "Zeros", "depend", "identity",
    "isinstance_", "issubclass_", "same_type_shape", "scalar_cast", "scalar_to_array",
    "scalar_to_tensor", "tuple_to_array",
]


def _dtype(op: str, name: str, value: Any, accepts: tuple = mstype.all_types) -> mstype.Type:
    if not isinstance(value, mstype.Type):
        raise TypeError(f"{op}: '{name}' must be an ember dtype such as ember.float32, but got "
                        f"{value!r}")
    if value not in accepts:
        raise TypeError(f"{op}: '{name}' must be one of [{', '.join(map(str, accepts))}], but "
                        f"got {value}")
    return value


def _number(op: str, name: str, value: Any, kinds: tuple[type, ...] = (int, float)) -> Any:
    """``value`` if it is a Python number of ``kinds`` (a bool only where ``kinds`` has it)."""
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise TypeError(f"{op}: '{name}' must be {' or '.join(k.__name__ for k in kinds)}, "
                        f"but got {type(value).__name__}")
    return value


def _array(value: int | float) -> np.ndarray:
    """MindSpore's conversion of Python numbers: ints to Int32, floats to Float32."""
    return np.array(value, np.int32 if isinstance(value, int) else np.float32)


# -- creation -------------------------------------------------------------------------------
class _Filled(_Static):
    """A tensor of ``shape`` (an int or a tuple of positive ints) and dtype ``type`` filled
    with ``_value``: ``<Op>()(shape, type)``; the tensor is ``Fill``'s."""

    _value: int

    def __call__(self, shape: Any, type: Any) -> Tensor:  # noqa: A002  (MindSpore's name)
        dims = (shape,) if isinstance(shape, int) and not isinstance(shape, bool) else shape
        if not isinstance(dims, tuple) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in dims):
            raise TypeError(f"{self.name}: 'shape' must be an int or a tuple of ints, but got "
                            f"{shape!r}")
        if any(n <= 0 for n in dims):
            raise ValueError(f"{self.name}: 'shape' must hold positive ints, but got "
                             f"{list(dims)}")
        return fill(_dtype(self.name, "type", type), dims, self._value)


class Ones(_Filled):
    """A tensor of ones: ``Ones()((2, 2), ember.float32)``."""

    _value = 1


class Zeros(_Filled):
    """A tensor of zeros: ``Zeros()((2, 2), ember.float32)``."""

    _value = 0


class ScalarToArray(_Static):
    """A 0-d tensor of a Python number: Int32 for an int, Float32 for a float:
    ``ScalarToArray()(1.0)``."""

    def __call__(self, input_x: Any) -> Tensor:
        return Tensor(_array(_number(self.name, "input_x", input_x)))


class ScalarToTensor(_Static):
    """A 0-d tensor of a Python number in ``dtype`` (a number type, Float32 by default):
    ``ScalarToTensor()(1, ember.float32)``."""

    def __call__(self, input_x: Any, dtype: Any = mstype.float32) -> Tensor:
        value = _number(self.name, "input_x", input_x)
        dtype = _dtype(self.name, "dtype", dtype, mstype.number_type)
        return Tensor(np.array(value, dtype.np_dtype), dtype)


class TupleToArray(_Static):
    """A 1-D tensor of a non-empty tuple (or range) of numbers of one type: Int32 for ints,
    Float32 for floats: ``TupleToArray()((1, 2, 3))``."""

    def __call__(self, input_x: Any) -> Tensor:
        values = tuple(input_x) if isinstance(input_x, range) else input_x
        if not isinstance(values, tuple):
            raise TypeError(f"{self.name}: 'input_x' must be a tuple, but got "
                            f"{type(input_x).__name__}")
        if not values:
            raise ValueError(f"{self.name}: 'input_x' must not be empty")
        for i, item in enumerate(values):
            _number(self.name, f"input_x[{i}]", item)
        if any(type(item) is not type(values[0]) for item in values):
            raise TypeError(f"{self.name}: the elements of 'input_x' must have one type, but "
                            f"got {input_x!r}")
        return Tensor(np.array(values, _array(values[0]).dtype))


class ScalarCast(_Static):
    """A Python number converted to the Python type of ``input_y`` (bool, int or float):
    ``ScalarCast()(255.0, ember.int32)`` is 255."""

    def __call__(self, input_x: Any, input_y: Any) -> bool | int | float:
        value = _number(self.name, "input_x", input_x, (bool, int, float))
        return mstype.dtype_to_pytype(_dtype(self.name, "input_y", input_y))(value)


# -- checks ---------------------------------------------------------------------------------
class SameTypeShape(_Static):
    """``input_x``, after checking that ``input_y`` has its dtype (TypeError if not) and its
    shape (ValueError if not): ``SameTypeShape()(input_x, input_y)``."""

    def __call__(self, input_x: Any, input_y: Any) -> Tensor:
        check_tensor(self.name, "input_x", input_x)
        check_tensor(self.name, "input_y", input_y)
        if input_x.dtype is not input_y.dtype:
            raise TypeError(f"{self.name}: 'input_x' and 'input_y' must have the same dtype, but "
                            f"got {input_x.dtype} and {input_y.dtype}")
        if input_x.shape != input_y.shape:
            raise ValueError(f"{self.name}: 'input_x' and 'input_y' must have the same shape, "
                             f"but got {list(input_x.shape)} and {list(input_y.shape)}")
        return input_x


class IsSubClass(_Static):
    """Whether dtype ``sub_type`` is ``type_`` (or in the group ``type_``, such as
    ``ember.common.dtype.float_type``): ``IsSubClass()(ember.int32, ember.intc)``."""

    def __call__(self, sub_type: Any, type_: Any) -> bool:
        _type_arg(self.name, "type_", type_)
        return mstype.issubclass_(_dtype(self.name, "sub_type", sub_type), type_)


class IsInstance(_Static):
    """Whether the Python number ``inst`` has dtype ``type_`` (or one in the group ``type_``):
    a bool is Bool, an int Int64, a float Float32, as MindSpore types constants; a Tensor is
    an instance of no number type: ``IsInstance()(1, ember.int32)`` is False."""

    def __call__(self, inst: Any, type_: Any) -> bool:
        _type_arg(self.name, "type_", type_)
        if isinstance(inst, Tensor) or not isinstance(inst, bool | int | float):
            return False
        kind = mstype.bool_ if isinstance(inst, bool) else (
            mstype.int64 if isinstance(inst, int) else mstype.float32)
        return mstype.issubclass_(kind, type_)


def _type_arg(op: str, name: str, value: Any) -> None:
    """A dtype or a tuple of dtypes (a group such as ``number_type``)."""
    group = value if isinstance(value, tuple) else (value,)
    for item in group:
        _dtype(op, name, item)


# -- order and identity ---------------------------------------------------------------------
class Depend(_Static):
    """``value``, once ``expr`` has been computed: ``Depend()(value, expr)``. Ember runs
    operations in program order in either mode, so ``value`` is returned as it is."""

    def __call__(self, value: Any, expr: Any) -> Any:
        return value


class identity(_Static):  # noqa: N801  (MindSpore's name)
    """Its input, unchanged (the same object): ``identity()(x)``; ``Identity`` makes a
    tensor of its own."""

    def __call__(self, x: Any) -> Any:
        return x


depend = Depend()
same_type_shape = SameTypeShape()
isinstance_ = IsInstance()
issubclass_ = IsSubClass()
scalar_cast = ScalarCast()
scalar_to_array = ScalarToArray()
scalar_to_tensor = ScalarToTensor()
tuple_to_array = TupleToArray()
