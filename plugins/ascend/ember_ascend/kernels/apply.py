"""The dense Apply* updates of ``apply_ops`` on the device: each primitive's own ``update``
rule, written with operators and an array namespace ``xp``, runs here on :class:`Operand`\\ s
whose arithmetic enqueues aclnn operators, so one definition of each rule serves every
backend; the new states are copied into the Parameters (aclnnInplaceCopy)."""

from __future__ import annotations

from typing import Any

from ember_ascend.device import AscendDevice, DeviceArray
from ember_ascend.kernels.common import Arithmetic, cast


class Operand:
    """An array on the device in an expression: Python's operators call aclnn operators."""

    __slots__ = ("a", "array")

    def __init__(self, a: Arithmetic, array: DeviceArray) -> None:
        self.a, self.array = a, array

    def _of(self, other: Any) -> Any:
        return other.array if isinstance(other, Operand) else other

    def _new(self, array: DeviceArray) -> Operand:
        return Operand(self.a, array)

    def __add__(self, other: Any) -> Operand:
        return self._new(self.a.add(self.array, self._of(other)))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Operand:
        return self._new(self.a.sub(self.array, self._of(other)))

    def __rsub__(self, other: Any) -> Operand:
        return self._new(self.a.sub(self._of(other), self.array))

    def __mul__(self, other: Any) -> Operand:
        return self._new(self.a.mul(self.array, self._of(other)))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Operand:
        return self._new(self.a.div(self.array, self._of(other)))

    def __rtruediv__(self, other: Any) -> Operand:
        return self._new(self.a.div(self._of(other), self.array))

    def __neg__(self) -> Operand:
        return self._new(self.a.op("Neg", self.array))

    def __pow__(self, other: Any) -> Operand:
        return self._new(self.a.op("PowTensorTensor", self.array, self._of(other)))

    def __gt__(self, other: Any) -> Operand:
        return self._new(self.a.compare("GtTensor", self.array, self._of(other)))

    def __lt__(self, other: Any) -> Operand:
        return self._new(self.a.compare("LtTensor", self.array, self._of(other)))


class Namespace:
    """The part of NumPy's namespace the update rules use, on :class:`Operand`\\ s."""

    def __init__(self, a: Arithmetic) -> None:
        self.a = a

    def _unary(self, op: str, x: Operand) -> Operand:
        return Operand(self.a, self.a.op(op, x.array))

    def sqrt(self, x: Operand) -> Operand:
        return self._unary("Sqrt", x)

    def sign(self, x: Operand) -> Operand:
        return self._unary("Sign", x)

    def abs(self, x: Operand) -> Operand:
        return self._unary("Abs", x)

    def exp(self, x: Operand) -> Operand:
        return self._unary("Exp", x)

    def maximum(self, x: Any, y: Any) -> Operand:
        return Operand(self.a, self.a.op("Maximum", *(_array(v) for v in (x, y))))

    def where(self, condition: Operand, x: Any, y: Any) -> Operand:
        return Operand(self.a, self.a.where(*(_array(v) for v in (condition, x, y))))


def _array(value: Any) -> Any:
    return value.array if isinstance(value, Operand) else value


def _apply(prim: Any, dev: AscendDevice) -> Any:
    states = prim._states

    def kernel(*args: Any) -> Any:
        variables, dtype = args[:states], args[0].dtype
        a = Arithmetic(dev, dtype)
        operands = [Operand(a, cast(dev, x, dtype)) if isinstance(x, DeviceArray) else x
                    for x in args]
        for variable, value in zip(variables, prim.update(Namespace(a), *operands)):
            dev.aclnn("InplaceCopy", variable, _array(value))
        if prim.placeholders:
            return tuple(dev.zero(dev.empty((1,), dtype)) for _ in range(prim._returns))
        return variables[0] if prim._returns == 1 else variables[:prim._returns]

    return kernel


KERNELS = {name: _apply for name in (
    "ApplyGradientDescent", "ApplyProximalGradientDescent", "ApplyAdagrad", "ApplyAdagradV2",
    "ApplyProximalAdagrad", "ApplyAdaMax", "ApplyAdadelta", "ApplyRMSProp",
    "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyAddSign", "ApplyPowerSign")}
