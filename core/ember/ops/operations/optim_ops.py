"""Primitives that update Parameters in place: ``Assign`` and the optimizers' fused updates."""

from __future__ import annotations

from typing import Any

from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops._rules import check_tensor
from ember.ops.primitive import Primitive, Spec

__all__ = ["ApplyMomentum", "Assign", "assign"]


def _check_variable(op: str, variable: Any) -> Parameter:
    if not isinstance(variable, Parameter):
        raise TypeError(f"{op}: variable must be a Parameter (it is updated in place), but got "
                        f"{type(variable).__name__}")
    return variable


def _check_like(op: str, name: str, value: Any, variable: Parameter) -> None:
    check_tensor(op, name, value)
    if value.shape != variable.shape or value.dtype is not variable.dtype:
        raise ValueError(f"{op}: {name} has shape {list(value.shape)} and dtype {value.dtype}, "
                         f"but variable {variable.name} has shape {list(variable.shape)} and "
                         f"dtype {variable.dtype}")


class Assign(Primitive):
    """Copy ``value`` into the Parameter ``variable``: ``Assign()(variable, value)``."""

    pure = False

    def infer(self, variable: Any, value: Any) -> Spec:
        _check_like(self.name, "value", value, _check_variable(self.name, variable))
        return variable.shape, variable.dtype


class ApplyMomentum(Primitive):
    """The Momentum update, in place: ``accumulation = momentum * accumulation + gradient``,
    then ``variable -= learning_rate * accumulation`` (Nesterov:
    ``variable -= learning_rate * (gradient + momentum * accumulation)``).

    ``ApplyMomentum(use_nesterov=False)(variable, accumulation, learning_rate, gradient,
    momentum)`` returns the updated variable."""

    pure = False

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False,
                 gradient_scale: float = 1.0) -> None:
        super().__init__()
        for key, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(value, bool):
                raise TypeError(f"ApplyMomentum: {key} must be a bool, but got {value!r}")
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov
        self.gradient_scale = float(gradient_scale)

    def infer(self, variable: Any, accumulation: Any, learning_rate: Any, gradient: Any,
              momentum: Any) -> Spec:
        _check_variable(self.name, variable)
        _check_like(self.name, "accumulation", _check_variable(self.name, accumulation),
                    variable)
        _check_like(self.name, "gradient", gradient, variable)
        for name, scalar in (("learning_rate", learning_rate), ("momentum", momentum)):
            if isinstance(scalar, Tensor) and scalar.size != 1:
                raise ValueError(f"ApplyMomentum: {name} must be a scalar, but has shape "
                                 f"{list(scalar.shape)}")
        return variable.shape, variable.dtype


assign = Assign()
