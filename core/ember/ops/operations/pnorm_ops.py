"""p-norms: LpNorm of a tensor over axes, and Cdist, the p-norm distance between every pair of
rows of two sets. Both backward rules are written with elementwise primitives and sums."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import axes_of, check_tensor
from ember.ops.operations.array_ops import expand_dims
from ember.ops.operations.math_ops import (
    abs,
    add,
    cast,
    div,
    equal,
    greater,
    mul,
    neg,
    pow,
    reduce_sum,
    select,
    sign,
    sub,
    zeros_like,
)
from ember.ops.operations.nn_ops import _check_bool
from ember.ops.primitive import Primitive, Spec

__all__ = ["Cdist", "LpNorm"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _slope(diff: Tensor, norm: Tensor, p: float) -> Tensor:
    """d norm / d diff of the p-norm ``norm`` of the vector(s) ``diff`` (broadcast against
    each other): sign(diff) * (|diff| / norm) ** (p - 1), for p = inf the sign where |diff| is
    the largest; 0 where diff is 0 (and for p = 0, whose norm counts non-zeros)."""
    size = abs(diff)
    if p == 0:
        return zeros_like(diff)
    if p == math.inf:
        slope = mul(sign(diff), cast(equal(size, norm), diff.dtype))
    elif p == 1:
        slope = sign(diff)
    else:
        slope = mul(sign(diff), pow(div(size, norm), p - 1))
    return select(greater(size, 0), slope, zeros_like(diff))


class LpNorm(Primitive):
    """``sum(|input| ** p) ** (1 / p)`` over ``axis`` (an int or a tuple/list of ints; p = 0
    counts the non-zero elements): ``LpNorm(axis, p=2, keep_dims=False,
    epsilon=1e-12)(input)``. ``epsilon`` keeps the gradient's denominator away from 0."""

    def __init__(self, axis: Any, p: int = 2, keep_dims: bool = False,
                 epsilon: float = 1e-12) -> None:
        super().__init__()
        op = self.name
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"{op}: 'p' must be an int, but got {p!r}")
        if p < 0:
            raise ValueError(f"{op}: 'p' must be a non-negative int, but got {p}")
        axes = [axis] if isinstance(axis, int) and not isinstance(axis, bool) else axis
        if not isinstance(axes, tuple | list) or not all(
                isinstance(a, int) and not isinstance(a, bool) for a in axes):
            raise TypeError(f"{op}: 'axis' must be an int or a tuple or list of ints, but got "
                            f"{axis!r}")
        if not isinstance(epsilon, float):
            raise TypeError(f"{op}: 'epsilon' must be a float, but got {epsilon!r}")
        if epsilon < 0:
            raise ValueError(f"{op}: 'epsilon' must be a non-negative float, but got {epsilon}")
        self.axis, self.p, self.epsilon = list(axes), p, epsilon
        self.keep_dims = _check_bool(op, "keep_dims", keep_dims)

    def axes(self, ndim: int) -> tuple[int, ...]:
        """The reduced axes of an input of rank ``ndim``, non-negative and sorted."""
        if len(self.axis) > ndim:
            raise ValueError(f"{self.name}: 'axis' {self.axis} names more axes than the "
                             f"input's rank {ndim}")
        return tuple(sorted(set(axes_of(self.name, self.axis, ndim))))

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "input", x, _FLOATS)
        axes = self.axes(x.ndim)
        if self.keep_dims:
            return tuple(1 if i in axes else n for i, n in enumerate(x.shape)), x.dtype
        return tuple(n for i, n in enumerate(x.shape) if i not in axes), x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        if not self.keep_dims:
            for a in self.axes(x.ndim):
                out, dout = expand_dims(out, a), expand_dims(dout, a)
        return (mul(dout, _slope(x, add(out, self.epsilon), self.p)),)


class Cdist(Primitive):
    """The p-norm distance between each row of ``input_x`` (B, P, M) and each row of
    ``input_y`` (B, R, M) -> (B, P, R) (or 2-d, without B); p = 0 counts the differing
    coordinates, p = inf takes the largest difference: ``Cdist(p=2.0)(input_x, input_y)``."""

    def __init__(self, p: float = 2.0) -> None:
        super().__init__()
        if not isinstance(p, float):
            raise TypeError(f"Cdist: 'p' must be a float, but got {p!r}")
        if not p >= 0:
            raise ValueError(f"Cdist: 'p' must be a non-negative float, but got {p}")
        self.p = p

    def infer(self, x: Any, y: Any) -> Spec:
        check_tensor(self.name, "input_x", x, _FLOATS)
        check_tensor(self.name, "input_y", y, (x.dtype,))
        if x.ndim not in (2, 3) or y.ndim != x.ndim:
            raise ValueError(f"Cdist: input_x and input_y must both be 2-d or 3-d, but got "
                             f"shapes {list(x.shape)} and {list(y.shape)}")
        if x.shape[:-2] != y.shape[:-2] or x.shape[-1] != y.shape[-1]:
            raise ValueError(f"Cdist: input_x (B, P, M) and input_y (B, R, M) must agree in B "
                             f"and M, but got shapes {list(x.shape)} and {list(y.shape)}")
        return x.shape[:-1] + y.shape[-2:-1], x.dtype

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        diff = sub(expand_dims(x, -2), expand_dims(y, -3))  # (B, P, R, M)
        weighted = mul(expand_dims(dout, -1), _slope(diff, expand_dims(out, -1), self.p))
        return reduce_sum(weighted, -2), neg(reduce_sum(weighted, -3))
