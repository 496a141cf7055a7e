"""Sparse tensors given as COO ``(indices, values, shape)``: ``SparseToDense`` and
``SparseTensorDenseMatmul``."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import (
    _prim,
    _shape_of,
    gather,
    gather_nd,
    reshape,
    tensor_slice,
    transpose,
)
from ember.ops.primitive import Primitive, Spec

__all__ = ["SparseTensorDenseMatmul", "SparseToDense"]

_INDEX = (mstype.int32, mstype.int64)


def _check_coo(op: str, indices: Any, values: Any, shape: Any,
               dtypes: tuple = mstype.all_types) -> tuple[int, ...]:
    shape = _shape_of(op, "sparse_shape", shape)
    check_tensor(op, "indices", indices, _INDEX)
    check_tensor(op, "values", values, dtypes)
    if indices.ndim != 2 or indices.shape[1] != len(shape) or values.shape != indices.shape[:1]:
        raise ValueError(f"{op}: indices must have shape (N, {len(shape)}) (one row per value, "
                         f"one column per dimension of sparse_shape {list(shape)}) and values "
                         f"(N,), but got {list(indices.shape)} and {list(values.shape)}")
    return shape


class SparseToDense(Primitive):
    """The dense tensor of ``sparse_shape`` holding ``values`` at ``indices`` and zeros
    elsewhere: ``SparseToDense()(indices, values, sparse_shape)``."""

    def infer(self, indices: Any, values: Any, sparse_shape: Any) -> Spec:
        return _check_coo(self.name, indices, values, sparse_shape), values.dtype

    def bprop(self, indices: Tensor, values: Tensor, sparse_shape: Any, out: Tensor,
              dout: Tensor) -> tuple:
        return None, gather_nd(dout, indices), None


class SparseTensorDenseMatmul(Primitive):
    """The product of the 2-d sparse tensor ``(indices, values, sparse_shape)`` (transposed with
    ``adjoint_st``) and the dense ``dense`` (transposed with ``adjoint_dt``); repeated indices
    add up: ``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values,
    sparse_shape, dense)``."""

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        for name, value in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(value, bool):
                raise TypeError(f"SparseTensorDenseMatmul: {name} must be a bool, but got "
                                f"{value!r}")
        self.adjoint_st, self.adjoint_dt = adjoint_st, adjoint_dt

    def infer(self, indices: Any, values: Any, sparse_shape: Any, dense: Any) -> Spec:
        numbers = (mstype.float16, mstype.float32, mstype.float64, mstype.int32, mstype.int64)
        shape = _check_coo(self.name, indices, values, sparse_shape, numbers)
        check_tensor(self.name, "dense", dense, (values.dtype,))
        if len(shape) != 2 or dense.ndim != 2:
            raise ValueError(f"SparseTensorDenseMatmul: sparse_shape and dense must be 2-d, but "
                             f"got {list(shape)} and {list(dense.shape)}")
        rows, inner = shape[::-1] if self.adjoint_st else shape
        dense_inner, cols = dense.shape[::-1] if self.adjoint_dt else dense.shape
        if inner != dense_inner:
            raise ValueError(f"SparseTensorDenseMatmul: the sparse operand's columns ({inner}) "
                             f"must equal the dense operand's rows ({dense_inner})")
        return (rows, cols), values.dtype

    def bprop(self, indices: Tensor, values: Tensor, sparse_shape: Any, dense: Tensor,
              out: Tensor, dout: Tensor) -> tuple:
        # out = op(A) @ op(B): d op(B) = op(A)^T @ dout, and a value at (r, c) of A meets
        # dout's row r and op(B)'s row c (the other way round when A is transposed).
        d_op_b = _prim(SparseTensorDenseMatmul, not self.adjoint_st)(indices, values,
                                                                    sparse_shape, dout)
        d_dense = transpose(d_op_b, (1, 0)) if self.adjoint_dt else d_op_b
        op_b = transpose(dense, (1, 0)) if self.adjoint_dt else dense
        n = indices.shape[0]
        at_row, at_col = (reshape(tensor_slice(indices, (0, c), (n, 1)), (n,))
                          for c in ((1, 0) if self.adjoint_st else (0, 1)))
        d_values = F.reduce_sum(F.mul(gather(dout, at_row, 0), gather(op_b, at_col, 0)), 1)
        return None, d_values, None, d_dense
