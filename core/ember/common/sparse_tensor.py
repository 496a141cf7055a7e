"""``RowTensor``, ``SparseTensor`` and ``CSRTensor``: sparse values held as index and value
tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor


def _check(owner: str, indices: Any, values: Any, dense_shape: Any) -> tuple[int, ...]:
    if not isinstance(indices, Tensor) or indices.dtype not in (*mstype.int_type,):
        raise TypeError(f"{owner}: indices must be an integer Tensor, but got {indices!r}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{owner}: values must be a Tensor, but got {type(values).__name__}")
    if not isinstance(dense_shape, tuple) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in dense_shape):
        raise TypeError(f"{owner}: dense_shape must be a tuple of positive ints, but got "
                        f"{dense_shape!r}")
    return dense_shape


class RowTensor:
    """Rows ``values[i]`` of a dense tensor of ``dense_shape`` at row ``indices[i]`` (the
    gradient of a gather), as ``mindspore.RowTensor``."""

    def __init__(self, indices: Tensor, values: Tensor, dense_shape: tuple[int, ...]) -> None:
        self.dense_shape = _check("RowTensor", indices, values, dense_shape)
        if indices.ndim != 1 or values.shape[:1] != indices.shape or (
                tuple(values.shape[1:]) != dense_shape[1:]):
            raise ValueError(f"RowTensor: values of shape {list(values.shape)} must hold one row "
                             f"of dense_shape {list(dense_shape)} per index of the 1-D indices "
                             f"of shape {list(indices.shape)}")
        self.indices, self.values = indices, values

    def to_dense(self) -> Tensor:
        """The dense tensor; rows given twice add up."""
        from ember.ops import functional as F

        zeros = F.fill(self.values.dtype, self.dense_shape, 0)
        return F.tensor_scatter_add(zeros, F.expand_dims(self.indices, 1), self.values)


class SparseTensor:
    """A dense tensor of ``dense_shape`` that is zero except ``values[i]`` at the coordinates
    ``indices[i]`` (COO form), as ``mindspore.SparseTensor``."""

    def __init__(self, indices: Tensor, values: Tensor, dense_shape: tuple[int, ...]) -> None:
        self.dense_shape = _check("SparseTensor", indices, values, dense_shape)
        if indices.ndim != 2 or values.ndim != 1 or indices.shape[0] != values.shape[0] or (
                indices.shape[1] != len(dense_shape)):
            raise ValueError(f"SparseTensor: indices must be [N, {len(dense_shape)}] and values "
                             f"[N], but got {list(indices.shape)} and {list(values.shape)}")
        self.indices, self.values = indices, values

    def to_dense(self) -> Tensor:
        """The dense tensor; coordinates given twice add up."""
        from ember.ops import functional as F

        zeros = F.fill(self.values.dtype, self.dense_shape, 0)
        return F.tensor_scatter_add(zeros, self.indices, self.values)


class CSRTensor:
    """A 2-D tensor of ``shape`` in compressed sparse row form, as ``mindspore.CSRTensor``: the
    values of row ``r`` are ``values[indptr[r]:indptr[r + 1]]``, in the columns ``indices``
    of the same slice. ``CSRTensor(indptr, indices, values, shape)`` or
    ``CSRTensor(csr_tensor=other)``; ``csr * dense`` multiplies each value by the element
    of ``dense`` (broadcast to ``shape``) at its position."""

    def __init__(self, indptr: Tensor | None = None, indices: Tensor | None = None,
                 values: Tensor | None = None, shape: tuple[int, int] | None = None,
                 csr_tensor: CSRTensor | None = None) -> None:
        if indptr is None and indices is None and values is None and shape is None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"CSRTensor: with one argument, csr_tensor must be a CSRTensor, "
                                f"but got {type(csr_tensor).__name__}")
            indptr, indices, values, shape = csr_tensor.to_tuple()
        elif not (isinstance(indptr, Tensor) and isinstance(indices, Tensor)
                  and isinstance(values, Tensor) and isinstance(shape, tuple)):
            raise TypeError("CSRTensor: pass CSRTensor(indptr, indices, values, shape): three "
                            "Tensors and a tuple")
        for name, index in (("indptr", indptr), ("indices", indices)):
            if index.dtype not in (mstype.int16, mstype.int32, mstype.int64):
                raise TypeError(f"CSRTensor: {name} must be an int16, int32 or int64 Tensor, "
                                f"but got {index.dtype}")
        if len(shape) != 2 or shape[1] <= 0 or indptr.shape != (shape[0] + 1,):
            raise ValueError(f"CSRTensor: shape must be 2-D (rows, columns) with indptr of "
                             f"rows + 1 elements, but got shape {shape!r} and indptr of shape "
                             f"{list(indptr.shape)}")
        if indices.ndim != 1 or values.ndim != 1 or indices.shape != values.shape:
            raise ValueError(f"CSRTensor: indices and values must be 1-D of one length, but got "
                             f"shapes {list(indices.shape)} and {list(values.shape)}")
        self.indptr, self.indices, self.values, self.shape = indptr, indices, values, shape

    @property
    def dtype(self) -> mstype.Type:
        return self.values.dtype

    def to_tuple(self) -> tuple[Tensor, Tensor, Tensor, tuple[int, int]]:
        return self.indptr, self.indices, self.values, self.shape

    def __mul__(self, other: Any) -> CSRTensor:
        from ember.ops import functional as F

        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr.asnumpy()))
        coords = Tensor(np.stack([rows, self.indices.asnumpy()], axis=1).astype(np.int64))
        dense = F.broadcast_to(F.cast(other, self.dtype) if isinstance(other, Tensor)
                               else Tensor(other, self.dtype), self.shape)
        return CSRTensor(self.indptr, self.indices, self.values * F.gather_nd(dense, coords),
                         self.shape)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return (f"CSRTensor(shape={list(self.shape)}, dtype={self.dtype}, "
                f"indptr={self.indptr.asnumpy()}, indices={self.indices.asnumpy()}, "
                f"values={self.values.asnumpy()})")
