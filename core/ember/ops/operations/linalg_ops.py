"""Matrix inverses, outer products and evenly spaced sequences."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops.operations.array_ops import expand_dims
from ember.ops.operations.math_ops import (
    _check,
    _product,
    mul,
    neg,
    reduce_sum,
    sub,
)
from ember.ops.primitive import Primitive, Spec, describe

__all__ = ["Ger", "LinSpace", "MatrixInverse", "linspace", "matrix_inverse"]

_REAL = frozenset((mstype.float32, mstype.float64))
_GER = frozenset((mstype.float16, mstype.float32, mstype.float64))


class MatrixInverse(Primitive):
    """The inverse of each square matrix in the last two axes of ``x`` (of its transpose when
    ``adjoint``): ``MatrixInverse(adjoint=False)(x)``."""

    def __init__(self, adjoint: bool = False) -> None:
        super().__init__()
        if not isinstance(adjoint, bool):
            raise TypeError(f"MatrixInverse: adjoint must be a bool, but got {adjoint!r}")
        self.adjoint = adjoint

    def infer(self, x: Any) -> Spec:
        _check(self.name, "x", x, _REAL)
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"MatrixInverse: input 'x' must hold square matrices in its last "
                             f"two axes, but got {describe((x,))}")
        return x.shape, x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        # d inv(A) = -inv(A) dA inv(A); with A = x (or x^T when adjoint)
        batched = x.ndim > 2
        if self.adjoint:  # -out @ dout^T @ out
            return (neg(_product(batched, False, False)(
                _product(batched, False, True)(out, dout), out)),)
        return (neg(_product(batched, False, True)(  # -out^T @ dout @ out^T
            _product(batched, True, False)(out, dout), out)),)


class Ger(Primitive):
    """The outer product of two 1-D float tensors of one dtype: ``Ger()(x1, x2)`` of shapes
    (m,) and (n,) -> (m, n), ``out[i, j] = x1[i] * x2[j]``."""

    def infer(self, x1: Any, x2: Any) -> Spec:
        _check(self.name, "x1", x1, _GER)
        _check(self.name, "x2", x2, frozenset((x1.dtype,)))
        if x1.ndim != 1 or x2.ndim != 1:
            raise ValueError(f"Ger: inputs 'x1' and 'x2' must be 1-D, but got "
                             f"{describe((x1, x2))}")
        return (x1.shape[0], x2.shape[0]), x1.dtype

    def bprop(self, x1: Tensor, x2: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (reduce_sum(mul(dout, expand_dims(x2, 0)), 1),
                reduce_sum(mul(dout, expand_dims(x1, 1)), 0))


class LinSpace(Primitive):
    """``num`` evenly spaced values from ``start`` to ``stop``, both included:
    ``LinSpace()(start, stop, num)``; ``start`` and ``stop`` are 0-d float tensors of one
    dtype, ``num`` a positive int."""

    def infer(self, start: Any, stop: Any, num: Any) -> Spec:
        for name, value in (("start", start), ("stop", stop)):
            _check(self.name, name, value, _REAL)
            if value.ndim != 0:
                raise ValueError(f"LinSpace: input '{name}' must be a 0-d tensor, but got "
                                 f"{describe((value,))}")
        if start.dtype is not stop.dtype:
            raise TypeError(f"LinSpace: inputs 'start' and 'stop' must have the same dtype, "
                            f"but got {start.dtype} and {stop.dtype}")
        if not isinstance(num, int) or isinstance(num, bool) or num <= 0:
            raise ValueError(f"LinSpace: num must be a positive int, but got {num!r}")
        return (num,), start.dtype

    def bprop(self, start: Tensor, stop: Tensor, num: int, out: Tensor, dout: Tensor) -> tuple:
        weights = Tensor(np.arange(num) / max(num - 1, 1), start.dtype)  # d out / d stop
        return (reduce_sum(mul(dout, sub(1, weights))), reduce_sum(mul(dout, weights)), None)


matrix_inverse = MatrixInverse()
linspace = LinSpace()
