"""Data types, printed and promoted as MindSpore prints and promotes them."""

from __future__ import annotations

import numpy as np


class Type:
    """A tensor element type such as ``ember.float32`` (printed ``Float32``)."""

    __slots__ = ("name", "np_dtype", "rank")

    def __init__(self, name: str, np_dtype: np.dtype, rank: int) -> None:
        self.name = name
        self.np_dtype = np.dtype(np_dtype)
        self.rank = rank  # position in the implicit-promotion order

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __copy__(self) -> Type:  # dtypes are singletons, compared with ``is``
        return self

    def __deepcopy__(self, memo: dict) -> Type:
        return self


bool_ = Type("Bool", np.bool_, 0)
uint8 = Type("UInt8", np.uint8, 1)
int8 = Type("Int8", np.int8, 2)
int16 = Type("Int16", np.int16, 3)
uint16 = Type("UInt16", np.uint16, 3)
int32 = Type("Int32", np.int32, 4)
uint32 = Type("UInt32", np.uint32, 4)
int64 = Type("Int64", np.int64, 5)
uint64 = Type("UInt64", np.uint64, 5)
float16 = Type("Float16", np.float16, 6)
float32 = Type("Float32", np.float32, 7)
float64 = Type("Float64", np.float64, 8)

int_ = intc = int32
uint = uintc = uint32
float_ = float32
half = float16
single = float32
double = float64
byte = int8
short = int16
intp = int64
ubyte = uint8
ushort = uint16
uintp = uint64

all_types = (bool_, uint8, int8, int16, uint16, int32, uint32, int64, uint64,
             float16, float32, float64)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64)
number_type = (*int_type, *uint_type, *float_type)
#: MindSpore's ``Number`` category as a group of dtypes: every number dtype, Bool included
#: (in MindSpore Bool is a Number), for ``IsSubClass()(dtype, number)``.
number = (bool_, *number_type)

_BY_NUMPY = {t.np_dtype: t for t in all_types}


def is_float(t: Type) -> bool:
    return t in float_type


def dtype_to_nptype(t: Type) -> type:
    """The NumPy scalar type of an ember dtype (``float32`` → ``numpy.float32``)."""
    return t.np_dtype.type


def dtype_to_pytype(t: Type) -> type:
    """The Python type of an ember dtype's scalars (``float32`` → ``float``)."""
    if t is bool_:
        return bool
    return float if is_float(t) else int


def get_py_obj_dtype(obj: object) -> Type | type:
    """The ember dtype of a Tensor or Python scalar, or the type of a Python type."""
    if isinstance(obj, type):
        return obj if not issubclass(obj, bool | int | float) else pytype_to_dtype(obj)
    dtype = getattr(obj, "dtype", None)
    if isinstance(dtype, Type):
        return dtype
    if isinstance(obj, bool | int | float):
        return pytype_to_dtype(type(obj))
    raise TypeError(f"get_py_obj_dtype: ember has no dtype for {type(obj).__name__}")


def tensor_type(element_type: Type) -> Type:
    """A tensor type of ``element_type``: ember's tensors carry their element dtype itself."""
    return element_type


def issubclass_(type_: Type, dtype: Type | tuple) -> bool:
    """Whether ``type_`` is ``dtype`` or one of the group ``dtype`` (such as ``float_type``)."""
    return type_ in dtype if isinstance(dtype, tuple) else type_ is dtype


def from_numpy(np_dtype: np.dtype | type) -> Type:
    """The ember dtype of a NumPy dtype; TypeError for one ember has no type for."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        accepted = ", ".join(str(t.np_dtype) for t in all_types)
        raise TypeError(f"ember has no dtype for NumPy dtype {np_dtype!r}; "
                        f"accepted: {accepted}") from None


def pytype_to_dtype(obj: type | Type | np.dtype) -> Type:
    """``bool``/``int``/``float``, NumPy dtypes and ember dtypes to an ember dtype."""
    if isinstance(obj, Type):
        return obj
    return {bool: bool_, int: int64, float: float64}.get(obj) or from_numpy(obj)


def promote(a: Type, b: Type) -> Type:
    """The dtype two tensors are implicitly converted to, as MindSpore does."""
    if a is b:
        return a
    if {a, b} == {int8, uint8}:
        return int16
    return a if a.rank >= b.rank else b


def scalar_dtype(value: bool | int | float, tensor_dtype: Type) -> Type:
    """The dtype of a Python scalar used with a tensor: the tensor's, unless a kind is lost."""
    if isinstance(value, float) and not is_float(tensor_dtype):
        return float32
    if isinstance(value, int) and not isinstance(value, bool) and tensor_dtype is bool_:
        return int64  # a Python int is Int64, as in MindSpore
    return tensor_dtype
