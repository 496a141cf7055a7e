"""Sparse layers: ``SparseToDense`` and ``SparseTensorDenseMatmul``."""

from __future__ import annotations

from ember.common.sparse_tensor import SparseTensor
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import operations as P


class SparseToDense(Cell):
    """The dense tensor of a ``SparseTensor``."""

    def construct(self, sparse_tensor: SparseTensor) -> Tensor:
        if not isinstance(sparse_tensor, SparseTensor):
            raise TypeError(f"SparseToDense: expects a SparseTensor, but got "
                            f"{type(sparse_tensor).__name__}")
        return sparse_tensor.to_dense()


class SparseTensorDenseMatmul(Cell):
    """``A @ B`` for a sparse 2-D ``A`` given as (indices, values, sparse_shape) and a dense
    ``B``; ``adjoint_st``/``adjoint_dt`` transpose them first."""

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        for name, value in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(value, bool):
                raise TypeError(f"SparseTensorDenseMatmul: {name} must be a bool, but got "
                                f"{value!r}")
        self.adjoint_st, self.adjoint_dt = adjoint_st, adjoint_dt

    def construct(self, indices: Tensor, values: Tensor, sparse_shape: tuple,
                  dense: Tensor) -> Tensor:
        sparse = SparseTensor(indices, values, tuple(sparse_shape)).to_dense()
        return P.MatMul(self.adjoint_st, self.adjoint_dt)(sparse, dense)
