"""Cases for ``ember.ops.operations.sparse_ops``: references build the dense matrix one
value at a time and multiply with NumPy."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import FLOATS, INTS, OpCase
from ember.testing.cases.array import ANY, index, sample


def _dense(indices: np.ndarray, values: np.ndarray, shape: tuple) -> np.ndarray:
    out = np.zeros(shape, values.dtype)
    for row, value in zip(indices, values):
        out[tuple(row)] += value
    return out


def _matmul(adjoint_st: bool, adjoint_dt: bool) -> Callable[..., np.ndarray]:
    def reference(indices, values, shape, dense):
        a = _dense(indices, values, shape)
        a, b = (a.T if adjoint_st else a), (dense.T if adjoint_dt else dense)
        return (a.astype(np.float64) @ b.astype(np.float64)).astype(values.dtype)

    return reference


_AT = index([0, 1], [2, 3], [1, 0], [2, 1])


def _matmul_case(adjoint_st: bool, adjoint_dt: bool, indices: np.ndarray,
                 dense_shape: tuple) -> OpCase:
    label = f"adjoint-st-{adjoint_st}-dt-{adjoint_dt}".lower()
    return OpCase(f"SparseTensorDenseMatmul/{label}", "SparseTensorDenseMatmul",
                  lambda: P.SparseTensorDenseMatmul(adjoint_st, adjoint_dt),
                  lambda rng, dt: (indices, sample(rng, dt, len(indices)), (3, 4),
                                   sample(rng, dt, *dense_shape)),
                  _matmul(adjoint_st, adjoint_dt), FLOATS + INTS, grad=(1, 3),
                  tolerance={np.float16: (1e-2, 1e-2)})


CASES: list[OpCase] = [
    OpCase("SparseToDense/2d", "SparseToDense", P.SparseToDense,
           lambda rng, dt: (_AT, sample(rng, dt, 4), (3, 4)), _dense, ANY, grad=(1,)),
    OpCase("SparseToDense/3d-int64-indices", "SparseToDense", P.SparseToDense,
           lambda rng, dt: (index([0, 1, 1], [1, 0, 2], dtype=np.int64), sample(rng, dt, 2),
                            (2, 2, 3)), _dense, ANY, grad=(1,)),
    _matmul_case(False, False, _AT, (4, 2)),
    _matmul_case(True, False, _AT, (3, 2)),
    _matmul_case(False, True, index([0, 1], [2, 3], [0, 1]), (2, 4)),
    _matmul_case(True, True, _AT, (2, 3)),
]
