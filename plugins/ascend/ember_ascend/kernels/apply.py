"""The Apply*, SparseApply* and FusedSparse* updates of ``apply_ops`` on the device: each
primitive's own ``update`` rule, written with operators and an array namespace ``xp``, runs
here on :class:`Operand`\\ s whose arithmetic enqueues aclnn operators, so one definition of
each rule serves every backend; the new states are copied into the Parameters
(aclnnInplaceCopy)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, Scalar, View
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
    """``prim.update`` on the device; a sparse primitive's gradient rows are first added into
    a dense gradient (aclnnIndexAdd: a repeated index sums), and a lazy one keeps the new
    values only on the rows its indices name (the others keep their old values)."""
    states = prim._states
    at_grad = prim._inputs.index("grad") if prim.sparse else -1

    def kernel(*args: Any) -> Any:
        variables, dtype = args[:states], args[0].dtype
        a = Arithmetic(dev, dtype)
        inputs = list(args)
        if prim.sparse:
            indices = inputs.pop()
            inputs[at_grad] = _rows_added(dev, indices, inputs[at_grad], variables[0].shape)
        operands = [Operand(a, cast(dev, x, dtype)) if isinstance(x, DeviceArray) else x
                    for x in inputs]
        new = [_array(value) for value in prim.update(Namespace(a), *operands)]
        if prim.sparse and prim.lazy:
            named = _named_rows(dev, indices, variables[0])
            new = [a.where(named, value, old) for value, old in zip(new, variables)]
        for variable, value in zip(variables, new):
            dev.aclnn("InplaceCopy", variable, value)
        if prim.placeholders:
            return tuple(dev.zero(dev.empty((1,), dtype)) for _ in range(prim._returns))
        return variables[0] if prim._returns == 1 else variables[:prim._returns]

    return kernel


def _rows_added(dev: AscendDevice, indices: DeviceArray, rows: DeviceArray,
                shape: tuple[int, ...]) -> DeviceArray:
    """Zeros of ``shape`` with ``rows[i]`` added at row ``indices[i]``."""
    dense = dev.zero(dev.empty(shape, rows.dtype))
    if rows.size:
        dev.aclnn("IndexAdd", dense, 0, indices, rows, Scalar(1, rows.dtype), dense)
    return dense


def _named_rows(dev: AscendDevice, indices: DeviceArray, like: DeviceArray) -> View:
    """True on the rows of ``like`` that ``indices`` names, as a view broadcast to its
    shape."""
    ones = dev.constant(np.ones(indices.shape, like.dtype), like.dtype)
    counts = _rows_added(dev, indices, ones, (like.shape[0],))
    named = Arithmetic(dev, like.dtype).positive(counts)
    rest = like.ndim - 1
    return View(named, (like.shape[0], *(1,) * rest), (1, *(0,) * rest))


KERNELS = {name: _apply for name in (
    "ApplyGradientDescent", "ApplyProximalGradientDescent", "ApplyAdagrad", "ApplyAdagradV2",
    "ApplyProximalAdagrad", "ApplyAdaMax", "ApplyAdadelta", "ApplyRMSProp",
    "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyAddSign", "ApplyPowerSign",
    "ApplyKerasMomentum", "ApplyAdamWithAmsgrad", "SparseApplyRMSProp", "SparseApplyAdadelta",
    "SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyProximalAdagrad",
    "SparseApplyFtrl", "SparseApplyFtrlV2", "ApplyAdagradDA", "SparseApplyAdam",
    "SparseApplyLazyAdam", "FusedSparseAdam", "FusedSparseLazyAdam", "FusedSparseFtrl",
    "FusedSparseProximalAdagrad")}
