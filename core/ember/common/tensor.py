"""``Tensor``: an n-dimensional array held in the form of the backend that produced it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common._format import tensor_repr

_SCALAR_DTYPES = {bool: np.bool_, int: np.int64, float: np.float32}


def _host_array(data: Any, dtype: mstype.Type | None) -> np.ndarray:
    """User input (Tensor, ndarray, scalar, nested list) as a NumPy array of an ember dtype."""
    if isinstance(data, Tensor):
        data = data.asnumpy()
    if isinstance(data, np.ma.MaskedArray):
        raise TypeError("Tensor: input_data is a NumPy masked array, whose mask a Tensor "
                        "cannot keep; pass data.filled(value) or data.data")
    try:
        return _to_array(data, dtype)
    except OverflowError as exc:
        target = "Int64" if dtype is None else dtype
        raise ValueError(f"Tensor: input_data {data!r:.60} is out of the range of {target} "
                         f"({exc}); pass a dtype that holds it") from None
    except ValueError as exc:
        raise ValueError(f"Tensor: input_data {data!r:.60} is not an array of numbers: "
                         "nested lists must be rectangular (rows of equal length) and hold "
                         f"numbers or booleans ({exc})") from None


def _to_array(data: Any, dtype: mstype.Type | None) -> np.ndarray:
    if dtype is not None:
        return np.array(data, dtype=mstype.pytype_to_dtype(dtype).np_dtype)
    if isinstance(data, np.ndarray):
        array = data.copy()
    elif isinstance(data, bool | int | float):
        array = np.array(data, dtype=_SCALAR_DTYPES[type(data)] if type(data) in _SCALAR_DTYPES
                         else None)
    else:
        array = np.array(data)
        if array.dtype == np.float64 and not _has_numpy_floats(data):
            array = array.astype(np.float32)  # Python floats become Float32, as in MindSpore
    if array.dtype == np.dtype(object) or array.dtype.kind in "USV":
        raise TypeError(f"Tensor data must be numbers or booleans, but got {type(data).__name__}"
                        f" holding {array.dtype}")
    mstype.from_numpy(array.dtype)  # rejects dtypes ember does not have
    return array


def _has_numpy_floats(data: Any) -> bool:
    if isinstance(data, list | tuple):
        return any(_has_numpy_floats(item) for item in data)
    return isinstance(data, np.floating | np.ndarray)


class Tensor:
    """An immutable n-dimensional array, as ``mindspore.Tensor``.

    ``Tensor(input_data, dtype=None)`` accepts a NumPy array, a Python scalar, a (nested) list
    or tuple, or another Tensor. Python floats become Float32 and ints Int64 unless ``dtype``
    says otherwise.
    """

    __slots__ = ("_data", "_device", "_dtype", "_shape", "_node", "__weakref__")
    __array_priority__ = 100  # ``ndarray + Tensor`` defers to Tensor.__radd__

    def __init__(self, input_data: Any = None, dtype: mstype.Type | None = None,
                 shape: tuple[int, ...] | list[int] | int | None = None,
                 init: Any = None) -> None:
        if init is not None:
            if dtype is None or shape is None:
                raise ValueError("Tensor(init=...) needs both dtype and shape")
            from ember.common.initializer import initializer

            input_data = initializer(init, shape, dtype).asnumpy()
        elif input_data is None:
            raise TypeError("Tensor() needs input_data (an array, scalar, list or Tensor), "
                            "or init with dtype and shape")
        if dtype is not None and not isinstance(dtype, mstype.Type):
            raise TypeError(f"Tensor dtype must be an ember dtype such as ember.float32, "
                            f"but got {dtype!r}")
        array = _host_array(input_data, dtype)
        self._data = array
        self._device = None  # host memory
        self._dtype = mstype.from_numpy(array.dtype)
        self._shape = array.shape
        self._node = None

    @classmethod
    def _make(cls, data: Any, dtype: mstype.Type, shape: tuple[int, ...], device: Any) -> Tensor:
        """A tensor around a backend array; the core's fast constructor for op results."""
        tensor = object.__new__(cls)
        tensor._data = data
        tensor._device = device
        tensor._dtype = dtype
        tensor._shape = shape
        tensor._node = None
        return tensor

    # -- properties ------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> mstype.Type:
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return math.prod(self._shape)

    @property
    def itemsize(self) -> int:
        return self._dtype.np_dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def T(self) -> Tensor:  # noqa: N802 (MindSpore's name)
        return self.transpose()

    def asnumpy(self) -> np.ndarray:
        """The values as a NumPy array (a copy the caller may change)."""
        from ember import _executor

        return np.array(_executor.to_host(self), copy=True)

    def _scalar(self) -> bool | int | float:
        """The only element as a Python number (``int()``, ``float()``, ``bool()``)."""
        if self.size != 1:
            raise ValueError(f"only a tensor of one element converts to a Python scalar, but "
                             f"its shape is {list(self._shape)}")
        return self.asnumpy().item()

    def init_data(self) -> Tensor:
        """The tensor itself: ember creates data eagerly (MindSpore may defer it)."""
        return self

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of a 0-d Tensor")
        return self._shape[0]

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(f"The truth value of a Tensor with shape {list(self._shape)} is "
                             "ambiguous: use .any() or .all()")
        return bool(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def __float__(self) -> float:
        return float(self._scalar())

    def __index__(self) -> int:
        if self._dtype not in (*mstype.int_type, *mstype.uint_type, mstype.bool_):
            raise TypeError(f"only integer or bool tensors can be used as an index, not "
                            f"{self._dtype}")
        return int(self._scalar())

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        array = self.asnumpy()
        return array if dtype is None else array.astype(dtype)

    def __repr__(self) -> str:
        return tensor_repr(self.asnumpy(), self._dtype)

    def __str__(self) -> str:
        return str(self.asnumpy())

    def __hash__(self) -> int:
        return id(self)

    def __copy__(self) -> Tensor:
        return Tensor._make(self._data, self._dtype, self._shape, self._device)

    def __deepcopy__(self, memo: dict) -> Tensor:
        return Tensor(self.asnumpy(), self._dtype)
