"""Elementwise math MindSpore 1.6 added beside the classic functions: the inverse error
function, truncation toward zero, and the fused ``input + value * x1 op x2`` of Addcmul and
Addcdiv."""

from __future__ import annotations

import math
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import broadcast_shape
from ember.ops.operations.math_ops import (
    _FLOAT,
    _check,
    _FloatUnary,
    _Unary,
    div,
    exp,
    mul,
    neg,
    square,
    sum_to,
    zeros_like,
)
from ember.ops.primitive import Primitive, Spec, describe

__all__ = ["Addcdiv", "Addcmul", "Erfinv", "Trunc"]


class Erfinv(_FloatUnary):
    """The inverse error function on (-1, 1) (±inf at ±1, NaN outside):
    ``Erfinv()(input_x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        # d erfinv(x) / dx = sqrt(pi) / 2 * exp(erfinv(x) ** 2)
        return (mul(mul(dout, exp(square(out))), math.sqrt(math.pi) / 2),)


class Trunc(_Unary):
    """``input_x`` rounded toward zero; integers pass unchanged: ``Trunc()(input_x)``."""

    accepts = _FLOAT | frozenset((mstype.int8, mstype.int32, mstype.uint8))

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class _Fused(Primitive):
    """``input_data + value * (x1 op x2)``, all four tensors of one dtype, broadcast:
    ``<Op>()(input_data, x1, x2, value)``."""

    accepts: frozenset = _FLOAT
    _names = ("input_data", "x1", "x2", "value")

    def infer(self, *args: Any) -> Spec:
        if len(args) != 4:
            raise TypeError(f"{self.name} takes 4 inputs ({', '.join(self._names)}), but got "
                            f"{len(args)}")
        for name, arg in zip(self._names, args):
            _check(self.name, name, arg, self.accepts)
        if any(a.dtype is not args[0].dtype for a in args):
            raise TypeError(f"{self.name}: inputs must have one dtype, but got "
                            f"({describe(args)})")
        shape = ()
        for arg in args:
            shape = broadcast_shape(self.name, shape, arg.shape)
        return shape, args[0].dtype

    def _grads(self, args: tuple, dx1: Tensor, dx2: Tensor, dvalue: Tensor) -> tuple:
        dout = args[-1]
        input_data, x1, x2, value = args[:4]
        return (sum_to(dout, input_data.shape), sum_to(dx1, x1.shape), sum_to(dx2, x2.shape),
                sum_to(dvalue, value.shape))


class Addcmul(_Fused):
    """``input_data + value * x1 * x2``: ``Addcmul()(input_data, x1, x2, value)``."""

    accepts = _FLOAT | frozenset((mstype.int32,))

    def bprop(self, input_data: Tensor, x1: Tensor, x2: Tensor, value: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        scaled = mul(dout, value)
        return self._grads((input_data, x1, x2, value, dout), mul(scaled, x2), mul(scaled, x1),
                           mul(dout, mul(x1, x2)))


class Addcdiv(_Fused):
    """``input_data + value * x1 / x2``: ``Addcdiv()(input_data, x1, x2, value)``."""

    def bprop(self, input_data: Tensor, x1: Tensor, x2: Tensor, value: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        quotient = div(x1, x2)
        dx1 = div(mul(dout, value), x2)
        return self._grads((input_data, x1, x2, value, dout), dx1, neg(mul(dx1, quotient)),
                           mul(dout, quotient))
