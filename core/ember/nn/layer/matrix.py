"""Matrix layers: ``Tril``, ``Triu``, ``MatrixDiag``, ``MatrixDiagPart``, ``MatrixSetDiag``;
each works on the last two axes with a constant mask."""

from __future__ import annotations

import numpy as np

from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import check_input
from ember.ops import functional as F

__all__ = ["MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "Tril", "Triu"]


def _mask(x: Tensor, mask: np.ndarray) -> Tensor:
    return Tensor(mask.astype(x.dtype.np_dtype))


class Tril(Cell):
    """The lower triangle (on and below diagonal ``k``) of the last two axes; 0 above."""

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        check_input("Tril", x, 2)
        return F.mul(x, _mask(x, np.tri(*x.shape[-2:], k, bool)))


class Triu(Cell):
    """The upper triangle (on and above diagonal ``k``) of the last two axes; 0 below."""

    def construct(self, x: Tensor, k: int = 0) -> Tensor:
        check_input("Triu", x, 2)
        return F.mul(x, _mask(x, ~np.tri(*x.shape[-2:], k - 1, bool)))


class MatrixDiag(Cell):
    """Vectors (..., n) to diagonal matrices (..., n, n)."""

    def construct(self, x: Tensor) -> Tensor:
        check_input("MatrixDiag", x, 1)
        return F.mul(F.expand_dims(x, -1), _mask(x, np.eye(x.shape[-1])))


class MatrixDiagPart(Cell):
    """The main diagonals (..., min(m, n)) of matrices (..., m, n)."""

    def construct(self, x: Tensor) -> Tensor:
        check_input("MatrixDiagPart", x, 2)
        m, n = x.shape[-2:]
        rows = F.reduce_sum(F.mul(x, _mask(x, np.eye(m, n))), -1)
        return rows[..., :min(m, n)]


class MatrixSetDiag(Cell):
    """Matrices (..., m, n) with their main diagonal replaced by ``diagonal`` (..., min(m, n))."""

    def construct(self, x: Tensor, diagonal: Tensor) -> Tensor:
        check_input("MatrixSetDiag", x, 2)
        m, n = x.shape[-2:]
        k = min(m, n)
        if tuple(diagonal.shape) != (*x.shape[:-2], k):
            raise ValueError(f"MatrixSetDiag: diagonal must have shape "
                             f"{[*x.shape[:-2], k]}, but got {list(diagonal.shape)}")
        eye = np.eye(m, n)
        column = F.expand_dims(diagonal, -1)  # (..., k, 1)
        if m > k:
            column = F.concat((column, F.zeros_like(F.broadcast_to(
                column[..., :1, :], (*x.shape[:-2], m - k, 1)))), -2)
        return F.add(F.mul(x, _mask(x, 1 - eye)), F.mul(column, _mask(x, eye)))
