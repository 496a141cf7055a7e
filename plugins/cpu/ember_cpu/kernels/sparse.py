"""Sparse (COO) kernels on NumPy."""

from __future__ import annotations

import numpy as np


def _sparse_to_dense(indices, values, shape):
    out = np.zeros(shape, values.dtype)
    out[tuple(indices.T)] = values
    return out


def _sparse_dense_matmul(prim):
    adjoint_st, adjoint_dt = prim.adjoint_st, prim.adjoint_dt

    def kernel(indices, values, shape, dense):
        rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_st else (indices[:, 0],
                                                                         indices[:, 1])
        dense = dense.T if adjoint_dt else dense
        out = np.zeros((shape[1] if adjoint_st else shape[0], dense.shape[1]), values.dtype)
        np.add.at(out, rows, values[:, None] * dense[cols])
        return out

    return kernel


KERNELS = {
    "SparseToDense": lambda p: _sparse_to_dense,
    "SparseTensorDenseMatmul": _sparse_dense_matmul,
}
