"""Math layers: ``ReduceLogSumExp``, ``Range``, ``MatMul``, ``Moments``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import check_bool
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops.composite import matmul

__all__ = ["MatInverse", "MatMul", "Moments", "Range", "ReduceLogSumExp"]


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, computed stably (the maximum taken out first)."""

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis = axis
        self.keep_dims = check_bool("ReduceLogSumExp", "keep_dims", keep_dims)

    def construct(self, x: Tensor) -> Tensor:
        top = F.stop_gradient(P.ReduceMax(True)(x, self.axis))
        total = P.ReduceSum(self.keep_dims)(F.exp(F.sub(x, top)), self.axis)
        top = top if self.keep_dims else P.ReduceMax(False)(top, self.axis)
        return F.add(F.log(total), top)


class Range(Cell):
    """The constant ``[start, start + delta, ...)`` below ``limit`` (``Range(n)``: 0..n-1);
    Int32 when all bounds are ints, Float32 otherwise."""

    def __init__(self, start: float, limit: float | None = None, delta: float = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError("Range: delta cannot be 0")
        start, limit = (0, start) if limit is None else (start, limit)
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, limit, delta))
        self.output = Tensor(np.arange(start, limit, delta),
                             mstype.int32 if ints else mstype.float32)

    def construct(self) -> Tensor:
        return self.output


class MatMul(Cell):
    """``x1 @ x2`` with NumPy's rules (1-D operands, broadcast batches), each optionally
    transposed on its last two axes."""

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        self.transpose_x1 = check_bool("MatMul", "transpose_x1", transpose_x1)
        self.transpose_x2 = check_bool("MatMul", "transpose_x2", transpose_x2)

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        if self.transpose_x1 and x1.ndim > 1:
            x1 = x1.swapaxes(-1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = x2.swapaxes(-1, -2)
        return matmul(x1, x2)


class Moments(Cell):
    """``(mean, variance)`` of ``x`` over ``axis`` (all axes when None); float16 inputs are
    computed in float32 and returned as float16."""

    def __init__(self, axis: Any = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        self.axis = axis
        self.keep_dims = bool(keep_dims)

    def construct(self, x: Tensor) -> tuple[Tensor, Tensor]:
        axis = () if self.axis is None else self.axis
        wide = F.cast(x, mstype.float32) if x.dtype is mstype.float16 else x
        mean = P.ReduceMean(True)(wide, axis)
        variance = P.ReduceMean(self.keep_dims)(F.square(F.sub(wide, F.stop_gradient(mean))),
                                               axis)
        mean = mean if self.keep_dims else P.ReduceMean(False)(mean, axis)
        return F.cast(mean, x.dtype), F.cast(variance, x.dtype)


class MatInverse(Cell):
    """The inverse of each (positive-definite) matrix in the last two axes."""

    def __init__(self) -> None:
        super().__init__()
        self.inverse = P.MatrixInverse()

    def construct(self, a: Tensor) -> Tensor:
        return self.inverse(a)
