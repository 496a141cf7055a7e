"""``RowTensor`` and ``SparseTensor``: sparse values held as index and value tensors."""

from __future__ import annotations

from typing import Any

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
