"""Products and norms of ``mindspore.numpy``, built on ember's NumPy-style composites
(``ops.composite`` ``tensor_dot``, ``dot``, ``matmul``)."""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.numpy._utils import cast_to, check_axes, check_dtype, check_int, float_of, to_tensors
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops.composite import math as C


def dot(a: Any, b: Any) -> Tensor:
    """``numpy.dot``: a product of scalars, inner product of vectors, matrix product."""
    a, b = to_tensors("dot", a, b)
    return F.mul(a, b) if a.ndim == 0 or b.ndim == 0 else C.dot(a, b)


def inner(a: Any, b: Any) -> Tensor:
    """Sum of products over the last axes of ``a`` and ``b``."""
    a, b = to_tensors("inner", a, b)
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    return C.tensor_dot(a, b, ([a.ndim - 1], [b.ndim - 1]))


def outer(a: Any, b: Any) -> Tensor:
    """``a`` and ``b`` flattened; ``out[i, j] = a[i] * b[j]``."""
    a, b = to_tensors("outer", a, b)
    return F.mul(F.reshape(a, (-1, 1)), F.reshape(b, (1, -1)))


def tensordot(a: Any, b: Any, axes: Any = 2) -> Tensor:
    """Sum of products over ``axes`` (an int: the last of ``a`` with the first of ``b``)."""
    a, b = to_tensors("tensordot", a, b)
    return C.tensor_dot(a, b, axes)


def matmul(x1: Any, x2: Any, dtype: Any = None) -> Tensor:
    """``numpy.matmul``: matrix product with broadcast batch axes."""
    x1, x2 = to_tensors("matmul", x1, x2)
    return cast_to(C.matmul(x1, x2), check_dtype("matmul", dtype))


def multi_dot(arrays: Any) -> Tensor:
    """``dot`` of two or more tensors in order (first may be 1-D, last may be 1-D)."""
    if not isinstance(arrays, tuple | list) or len(arrays) < 2:
        raise ValueError("multi_dot: arrays must be a list of at least two tensors")
    items = to_tensors("multi_dot", *arrays)
    out = items[0]
    for t in items[1:]:
        out = dot(out, t)
    return out


def kron(a: Any, b: Any) -> Tensor:
    """The Kronecker product: blocks of ``b`` scaled by each element of ``a``."""
    a, b = to_tensors("kron", a, b)
    rank = max(a.ndim, b.ndim)
    a = F.reshape(a, (1,) * (rank - a.ndim) + a.shape)
    b = F.reshape(b, (1,) * (rank - b.ndim) + b.shape)
    spread_a = F.reshape(a, tuple(s for n in a.shape for s in (n, 1)))
    spread_b = F.reshape(b, tuple(s for n in b.shape for s in (1, n)))
    return F.reshape(F.mul(spread_a, spread_b), tuple(m * n for m, n in zip(a.shape, b.shape)))


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Tensor:
    """Cross product of 3-vectors (2-vectors get a zero third component) along the axes."""
    a, b = to_tensors("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = F.transpose(a, _last(a.ndim, check_axes("cross", axisa, a.ndim)[0]))
    b = F.transpose(b, _last(b.ndim, check_axes("cross", axisb, b.ndim)[0]))
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(f"cross: the vector axes must have length 2 or 3, but got "
                         f"{a.shape[-1]} and {b.shape[-1]}")
    a0, a1, a2 = _components(a)
    b0, b1, b2 = _components(b)
    out = F.stack((F.sub(F.mul(a1, b2), F.mul(a2, b1)), F.sub(F.mul(a2, b0), F.mul(a0, b2)),
                   F.sub(F.mul(a0, b1), F.mul(a1, b0))), -1)
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return out[..., 2]
    return F.transpose(out, _place(out.ndim, check_axes("cross", axisc, out.ndim)[0]))


def _last(ndim: int, axis: int) -> tuple[int, ...]:
    return tuple(x for x in range(ndim) if x != axis) + (axis,)


def _place(ndim: int, axis: int) -> tuple[int, ...]:
    order = list(range(ndim - 1))
    order.insert(axis, ndim - 1)
    return tuple(order)


def _components(v: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    parts = [v[..., i] for i in range(v.shape[-1])]
    return parts[0], parts[1], parts[2] if len(parts) == 3 else F.zeros_like(parts[0])


def matrix_power(a: Any, n: int) -> Tensor:
    """The square matrix ``a`` (or a stack of them) raised to the integer power ``n``."""
    (a,) = to_tensors("matrix_power", a)
    n = check_int("matrix_power", "n", n)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"matrix_power: a must be square in its last two axes, but got shape "
                         f"{a.shape}")
    if n < 0:
        a, n = F.matrix_inverse(float_of(a)), -n
    result = F.broadcast_to(P.Eye()(a.shape[-1], a.shape[-1], a.dtype), a.shape)
    base = a
    while n:
        if n & 1:
            result = C.matmul(result, base)
        n >>= 1
        if n:
            base = C.matmul(base, base)
    return result


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """Vector norms (ord None/2, inf, -inf, 0, p) and matrix norms (None/'fro', 1, -1, inf,
    -inf) over ``axis``."""
    (x,) = to_tensors("norm", x)
    x = float_of(x)
    axes = check_axes("norm", axis, x.ndim)
    if axis is None and ord is not None and x.ndim > 2:
        raise ValueError("norm: give axis for an ord other than None on rank > 2")
    magnitude = F.abs(x)
    if len(axes) == 1:
        reduce = {float("inf"): P.ReduceMax, float("-inf"): P.ReduceMin}.get(ord)
        if reduce is not None:
            return reduce(keepdims)(magnitude, axes)
        if ord == 0:
            return P.ReduceSum(keepdims)(F.cast(F.not_equal(x, 0.0), x.dtype), axes)
        p = 2 if ord is None else ord
        if not isinstance(p, int | float) or isinstance(p, bool):
            raise ValueError(f"norm: invalid ord {ord!r} for a vector norm")
        return F.pow(P.ReduceSum(keepdims)(F.pow(magnitude, float(p)), axes), 1.0 / p)
    if len(axes) != 2:
        raise ValueError(f"norm: axis must name one or two axes, but got {axis!r}")
    if ord in (None, "fro"):
        return F.sqrt(P.ReduceSum(keepdims)(F.square(x), axes))
    rows, cols = axes
    table = {1: (rows, P.ReduceMax), -1: (rows, P.ReduceMin),
             float("inf"): (cols, P.ReduceMax), float("-inf"): (cols, P.ReduceMin)}
    if ord not in table:
        raise ValueError(f"norm: ember supports matrix ord None, 'fro', 1, -1, inf, -inf, but "
                         f"got {ord!r} (2, -2 and 'nuc' need singular values)")
    summed_axis, reduce = table[ord]
    sums = P.ReduceSum(True)(magnitude, summed_axis)
    out = reduce(True)(sums, axes)
    return out if keepdims else F.squeeze(out, axes)
