"""Elementwise math MindSpore 1.6 added beside the classic functions: the inverse error
function, the modified Bessel functions I0 and I1 (and their exponentially scaled forms),
truncation toward zero, and the fused ``input + value * x1 op x2`` of Addcmul and Addcdiv."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import broadcast_shape
from ember.ops.operations.math_ops import (
    _FLOAT,
    _check,
    _FloatUnary,
    _Unary,
    add,
    div,
    equal,
    exp,
    mul,
    neg,
    ones_like,
    reciprocal,
    select,
    sign,
    square,
    sub,
    sum_to,
    zeros_like,
)
from ember.ops.primitive import Primitive, Spec, describe

__all__ = ["Addcdiv", "Addcmul", "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "Erfinv",
           "Trunc"]


class Erfinv(_FloatUnary):
    """The inverse error function on (-1, 1) (±inf at ±1, NaN outside):
    ``Erfinv()(input_x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        # d erfinv(x) / dx = sqrt(pi) / 2 * exp(erfinv(x) ** 2)
        return (mul(mul(dout, exp(square(out))), math.sqrt(math.pi) / 2),)


def _at_zero(x: Tensor, value: float, slope: Callable[[Tensor], Tensor]) -> Tensor:
    """``slope(x)``, a rule dividing by x, with its limit ``value`` where x is 0 (the rule
    sees 1 there, so that no inf or NaN is made)."""
    zero = equal(x, 0)
    return select(zero, add(zeros_like(x), value), slope(select(zero, ones_like(x), x)))


class BesselI0(_FloatUnary):
    """The modified Bessel function of the first kind of order 0: ``BesselI0()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (mul(dout, bessel_i1(x)),)


class BesselI1(_FloatUnary):
    """The modified Bessel function of the first kind of order 1: ``BesselI1()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        # I1'(x) = I0(x) - I1(x) / x, 1/2 at 0 (MindSpore 1.6's rule gives 1 there)
        return (mul(dout, _at_zero(x, 0.5, lambda x: sub(bessel_i0(x), div(bessel_i1(x), x)))),)


class BesselI0e(_FloatUnary):
    """``exp(-|x|) * I0(x)``, I0 scaled so that it stays finite for large x:
    ``BesselI0e()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (mul(dout, sub(bessel_i1e(x), mul(sign(x), out))),)


class BesselI1e(_FloatUnary):
    """``exp(-|x|) * I1(x)``: ``BesselI1e()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        def slope(x: Tensor) -> Tensor:
            return sub(bessel_i0e(x), mul(bessel_i1e(x), add(sign(x), reciprocal(x))))

        return (mul(dout, _at_zero(x, 0.5, slope)),)


bessel_i0, bessel_i1 = BesselI0(), BesselI1()
bessel_i0e, bessel_i1e = BesselI0e(), BesselI1e()


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
