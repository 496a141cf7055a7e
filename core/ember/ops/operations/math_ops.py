"""Elementwise arithmetic, comparisons, reductions and matrix products."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import as_tensor, broadcast_shape, check_tensor, normalize_axis
from ember.ops.primitive import Primitive, Spec


def sum_to(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Undo broadcasting: sum ``grad`` over the axes that broadcasting added or stretched."""
    if grad.shape == shape:
        return grad
    lead = len(grad.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1)
    summed = ReduceSum(keep_dims=True)(grad, axes) if axes else grad
    return F.reshape(summed, shape)


# -- elementwise binary ---------------------------------------------------------------------
class _Binary(Primitive):
    """Two inputs, broadcast; a Python scalar takes the tensor's dtype; mixed dtypes promote."""

    def prepare(self, args: tuple) -> tuple:
        x, y = args
        if isinstance(x, Tensor):
            if isinstance(y, Tensor):
                if x._dtype is y._dtype:
                    return args
                to = mstype.promote(x._dtype, y._dtype)
            else:
                y = as_tensor(y, x)
                to = y._dtype
        elif isinstance(y, Tensor):
            x = as_tensor(x, y)
            to = x._dtype
        else:
            raise TypeError(f"{self.name}: at least one input must be a Tensor, but got "
                            f"{type(x).__name__} and {type(y).__name__}")
        return (x if x._dtype is to else cast(x, to), y if y._dtype is to else cast(y, to))

    def infer(self, x: Tensor, y: Tensor) -> Spec:
        return broadcast_shape(self.name, x._shape, y._shape), x._dtype


class Add(_Binary):
    """``x + y``, broadcast."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return sum_to(dout, x.shape), sum_to(dout, y.shape)


class Sub(_Binary):
    """``x - y``, broadcast."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return sum_to(dout, x.shape), sum_to(neg(dout), y.shape)


class Mul(_Binary):
    """``x * y``, broadcast."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return sum_to(mul(dout, y), x.shape), sum_to(mul(dout, x), y.shape)


class RealDiv(_Binary):
    """``x / y``, broadcast."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        dx = real_div(dout, y)
        return sum_to(dx, x.shape), sum_to(neg(mul(dx, out)), y.shape)


# -- elementwise unary ----------------------------------------------------------------------
class _Unary(Primitive):
    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x)
        return x._shape, x._dtype


class Neg(_Unary):
    """``-x``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (neg(dout),)


class ZerosLike(_Unary):
    """A tensor of zeros with the shape and dtype of ``x``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class OnesLike(_Unary):
    """A tensor of ones with the shape and dtype of ``x``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class Cast(Primitive):
    """``x`` converted to ``dtype``: ``Cast()(x, ember.float16)``."""

    def infer(self, x: Any, dtype: Any) -> Spec:
        check_tensor(self.name, "x", x)
        if not isinstance(dtype, mstype.Type):
            raise TypeError(f"Cast: dtype must be an ember dtype such as ember.float32, "
                            f"but got {dtype!r}")
        return x._shape, dtype

    def bprop(self, x: Tensor, dtype: mstype.Type, out: Tensor, dout: Tensor) -> tuple:
        return cast(dout, x.dtype), None


# -- reductions -----------------------------------------------------------------------------
class _Reduce(Primitive):
    """Reduce over ``axis`` (an int, a tuple, or () for every axis), keeping dims if asked."""

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"{self.name}: keep_dims must be a bool, but got {keep_dims!r}")
        self.keep_dims = keep_dims

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        return super().__call__(x, axis)

    def infer(self, x: Any, axis: Any) -> Spec:
        check_tensor(self.name, "x", x)
        axes = normalize_axis(self.name, axis, x.ndim)
        if self.keep_dims:
            shape = tuple(1 if i in axes else n for i, n in enumerate(x._shape))
        else:
            shape = tuple(n for i, n in enumerate(x._shape) if i not in axes)
        return shape, x._dtype

    def _keep_shape(self, x: Tensor, axis: Any) -> tuple[int, ...]:
        axes = normalize_axis(self.name, axis, x.ndim)
        return tuple(1 if i in axes else n for i, n in enumerate(x.shape))


class ReduceSum(_Reduce):
    """Sum over ``axis``."""

    def bprop(self, x: Tensor, axis: Any, out: Tensor, dout: Tensor) -> tuple:
        return F.broadcast_to(F.reshape(dout, self._keep_shape(x, axis)), x.shape), None


add = Add()
sub = Sub()
mul = Mul()
real_div = RealDiv()
neg = Neg()
zeros_like = ZerosLike()
ones_like = OnesLike()
cast = Cast()
reduce_sum = ReduceSum()
