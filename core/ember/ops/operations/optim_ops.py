"""Primitives of optimizers and loss scaling: ``Assign``, ``AssignAdd``, the optimizers' fused
in-place updates (``ApplyMomentum``, ``SGD``, ``Adam``, ``AdamWeightDecay``), LARS' gradient
scaling ``LARSUpdate`` and the overflow check ``FloatStatus``.

The updates change their Parameter inputs in place (``pure = False``: graph passes never remove,
merge or precompute them) and return the updated Parameters. Hyperparameters (learning rate,
momentum, betas, epsilon, decay) are Python numbers or one-element Tensors, so a learning rate
that changes every step can be a tensor computed in the graph.
"""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import broadcast_shape, check_tensor
from ember.ops.primitive import Primitive, Spec

__all__ = ["Adam", "AdamWeightDecay", "ApplyMomentum", "Assign", "AssignAdd", "AssignSub",
           "FloatStatus", "LARSUpdate", "SGD", "assign", "assign_add", "assign_sub"]


def _check_variable(op: str, variable: Any, name: str = "variable") -> Parameter:
    if not isinstance(variable, Parameter):
        raise TypeError(f"{op}: {name} must be a Parameter (it is updated in place), but got "
                        f"{type(variable).__name__}")
    return variable


def _check_like(op: str, name: str, value: Any, variable: Parameter) -> None:
    """``value`` has the variable's shape (else ValueError) and dtype (else TypeError)."""
    check_tensor(op, name, value)
    if value.shape != variable.shape or value.dtype is not variable.dtype:
        error = ValueError if value.shape != variable.shape else TypeError
        raise error(f"{op}: {name} has shape {list(value.shape)} and dtype {value.dtype}, "
                    f"but variable {variable.name} has shape {list(variable.shape)} and "
                    f"dtype {variable.dtype}")


def _check_states(op: str, variable: Any, **states: Any) -> Parameter:
    """``variable`` and its optimizer states: Parameters of one shape and float dtype."""
    check_tensor(op, "variable", _check_variable(op, variable), mstype.float_type)
    for name, state in states.items():
        _check_like(op, name, _check_variable(op, state, name), variable)
    return variable


def _check_scalars(op: str, **scalars: Any) -> None:
    """Hyperparameters: real numbers, or float Tensors of one element."""
    for name, value in scalars.items():
        if isinstance(value, Tensor):
            check_tensor(op, name, value, mstype.float_type)
            if value.size != 1:
                raise ValueError(f"{op}: {name} must be a scalar (one element), but has shape "
                                 f"{list(value.shape)}")
        elif isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"{op}: {name} must be a float or a float Tensor of one element, "
                            f"but got {type(value).__name__}")


def _check_bools(op: str, **flags: Any) -> None:
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{op}: {name} must be a bool, but got {value!r}")


def _check_float(op: str, name: str, value: Any, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{op}: {name} must be a float, but got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{op}: {name} must be >= {minimum}, but got {value}")
    return float(value)


class _Update(Primitive):
    """A primitive that changes its Parameter inputs in place."""

    pure = False
    updates_parameters = True


# -- assignment -----------------------------------------------------------------------------
class Assign(_Update):
    """Copy ``value`` into the Parameter ``variable``: ``Assign()(variable, value)``."""

    def prepare(self, args: tuple) -> tuple:
        variable, value = args  # as MindSpore: a number or a lower-ranked dtype converts to
        if isinstance(variable, Tensor) and isinstance(value, bool | int | float):
            value = Tensor(value, variable.dtype)  # the variable's dtype,
        if not (isinstance(variable, Tensor) and isinstance(value, Tensor)):
            return args
        if {variable.shape, value.shape} == {(), (1,)}:  # and shapes [] and [1] to its shape
            value = F.reshape(value, variable.shape)
        if (value.dtype is not variable.dtype
                and mstype.promote(value.dtype, variable.dtype) is variable.dtype):
            value = F.cast(value, variable.dtype)
        return variable, value

    def infer(self, variable: Any, value: Any) -> Spec:
        _check_like(self.name, "value", value, _check_variable(self.name, variable))
        return variable.shape, variable.dtype

    def bprop(self, variable: Any, value: Any, out: Any, dout: Any) -> tuple:
        return dout, F.zeros_like(value)  # as MindSpore 1.6: the value gets no gradient


class AssignAdd(_Update):
    """Add ``value`` to the Parameter ``variable`` in place: ``AssignAdd()(variable, value)``;
    ``value`` is a Tensor of the variable's dtype that broadcasts to its shape, or a number."""

    def prepare(self, args: tuple) -> tuple:
        variable, value = args
        if isinstance(variable, Tensor) and isinstance(value, bool | int | float):
            return variable, Tensor(value, variable.dtype)
        return args

    def infer(self, variable: Any, value: Any) -> Spec:
        check_tensor(self.name, "variable", _check_variable(self.name, variable),
                     mstype.number_type)
        check_tensor(self.name, "value", value, (variable.dtype,))
        if broadcast_shape(self.name, variable.shape, value.shape) != variable.shape:
            raise ValueError(f"{self.name}: value of shape {list(value.shape)} would change "
                             f"the shape {list(variable.shape)} of variable {variable.name}")
        return variable.shape, variable.dtype

    def bprop(self, variable: Any, value: Any, out: Any, dout: Any) -> tuple:
        return F.zeros_like(variable), F.zeros_like(value)  # as MindSpore 1.6: none


class AssignSub(AssignAdd):
    """Subtract ``value`` from the Parameter ``variable`` in place:
    ``AssignSub()(variable, value)``; ``value`` as for ``AssignAdd``."""


# -- optimizer updates ----------------------------------------------------------------------
class ApplyMomentum(_Update):
    """The Momentum update, in place: ``accumulation = momentum * accumulation + gradient``,
    then ``variable -= learning_rate * accumulation`` (Nesterov:
    ``variable -= learning_rate * (gradient + momentum * accumulation)``).

    ``ApplyMomentum(use_nesterov=False)(variable, accumulation, learning_rate, gradient,
    momentum)`` returns the updated variable."""

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False,
                 gradient_scale: float = 1.0) -> None:
        super().__init__()
        _check_bools(self.name, use_locking=use_locking, use_nesterov=use_nesterov)
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov
        self.gradient_scale = float(gradient_scale)

    def infer(self, variable: Any, accumulation: Any, learning_rate: Any, gradient: Any,
              momentum: Any) -> Spec:
        _check_states(self.name, variable, accumulation=accumulation)
        _check_like(self.name, "gradient", gradient, variable)
        _check_scalars(self.name, learning_rate=learning_rate, momentum=momentum)
        return variable.shape, variable.dtype


class SGD(_Update):
    """Stochastic gradient descent with optional momentum, in place, as PyTorch and MindSpore
    define it: ``g = gradient + weight_decay * parameters``; with ``momentum > 0``,
    ``accum = g`` on the first step (``stat > 0``, which clears ``stat``), else
    ``accum = momentum * accum + (1 - dampening) * g``, and ``g = accum`` (Nesterov:
    ``g += momentum * accum``); then ``parameters -= learning_rate * g``.

    ``SGD(dampening=0.0, weight_decay=0.0, nesterov=False)(parameters, gradient,
    learning_rate, accum, momentum, stat)`` returns the updated parameters."""

    def __init__(self, dampening: float = 0.0, weight_decay: float = 0.0,
                 nesterov: bool = False) -> None:
        super().__init__()
        self.dampening = _check_float(self.name, "dampening", dampening)
        self.weight_decay = _check_float(self.name, "weight_decay", weight_decay)
        _check_bools(self.name, nesterov=nesterov)
        if nesterov and self.dampening != 0.0:
            raise ValueError(f"SGD: nesterov needs dampening 0.0, but got {dampening}")
        self.nesterov = nesterov

    def infer(self, parameters: Any, gradient: Any, learning_rate: Any, accum: Any,
              momentum: Any, stat: Any) -> Spec:
        _check_states(self.name, parameters, accum=accum, stat=stat)
        _check_like(self.name, "gradient", gradient, parameters)
        _check_scalars(self.name, learning_rate=learning_rate, momentum=momentum)
        return parameters.shape, parameters.dtype


class Adam(_Update):
    """The Adam update, in place: ``m += (1 - beta1) * (gradient - m)``,
    ``v += (1 - beta2) * (gradient ** 2 - v)``,
    ``lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)`` and
    ``var -= lr_t * m / (sqrt(v) + epsilon)`` (Nesterov: ``m`` replaced by
    ``beta1 * m + (1 - beta1) * gradient``).

    ``Adam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power, beta2_power, lr,
    beta1, beta2, epsilon, gradient)`` returns the updated ``(var, m, v)``."""

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, use_locking=use_locking, use_nesterov=use_nesterov)
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov

    def infer(self, var: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any,
              beta1: Any, beta2: Any, epsilon: Any, gradient: Any) -> list[Spec]:
        _check_states(self.name, var, m=m, v=v)
        _check_like(self.name, "gradient", gradient, var)
        _check_scalars(self.name, beta1_power=beta1_power, beta2_power=beta2_power, lr=lr,
                       beta1=beta1, beta2=beta2, epsilon=epsilon)
        return [(var.shape, var.dtype)] * 3


class AdamWeightDecay(_Update):
    """Adam with decoupled weight decay (AdamW without bias correction), in place:
    ``m = beta1 * m + (1 - beta1) * gradient``, ``v = beta2 * v + (1 - beta2) * gradient ** 2``,
    ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)``.

    ``AdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2, epsilon, decay,
    gradient)`` returns the updated ``(var, m, v)``."""

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, use_locking=use_locking)
        self.use_locking = use_locking

    def infer(self, var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any,
              decay: Any, gradient: Any) -> list[Spec]:
        _check_states(self.name, var, m=m, v=v)
        _check_like(self.name, "gradient", gradient, var)
        _check_scalars(self.name, lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon,
                       decay=decay)
        return [(var.shape, var.dtype)] * 3


class LARSUpdate(Primitive):
    """LARS' scaled gradient (layer-wise adaptive rate scaling), from the sums of squares of
    the weight and of the gradient: ``coeff = hyperpara * sqrt(norm_weight) /
    (sqrt(norm_gradient) + weight_decay * sqrt(norm_weight) + epsilon)`` (with ``use_clip``,
    ``clip(coeff / learning_rate, 0, 1)``), returns ``coeff * (gradient + weight_decay *
    weight)``: ``LARSUpdate(epsilon=1e-05, hyperpara=0.001, use_clip=False)(weight, gradient,
    norm_weight, norm_gradient, weight_decay, learning_rate)``."""

    def __init__(self, epsilon: float = 1e-05, hyperpara: float = 0.001,
                 use_clip: bool = False) -> None:
        super().__init__()
        for name, value in (("epsilon", epsilon), ("hyperpara", hyperpara)):
            if not isinstance(value, float):
                raise TypeError(f"{self.name}: {name} must be a float, but got "
                                f"{type(value).__name__}")
        _check_bools(self.name, use_clip=use_clip)
        self.epsilon, self.hyperpara, self.use_clip = epsilon, hyperpara, use_clip

    def infer(self, weight: Any, gradient: Any, norm_weight: Any, norm_gradient: Any,
              weight_decay: Any, learning_rate: Any) -> Spec:
        op = self.name
        check_tensor(op, "weight", weight, (mstype.float16, mstype.float32))
        check_tensor(op, "gradient", gradient, (weight.dtype,))
        if gradient.shape != weight.shape:
            raise ValueError(f"{op}: gradient must have the shape {list(weight.shape)} of "
                             f"weight, but got {list(gradient.shape)}")
        for name, norm in (("norm_weight", norm_weight), ("norm_gradient", norm_gradient)):
            check_tensor(op, name, norm, (weight.dtype,))
        _check_scalars(op, norm_weight=norm_weight, norm_gradient=norm_gradient,
                       weight_decay=weight_decay, learning_rate=learning_rate)
        return weight.shape, weight.dtype

    def forward(self, xp: Any, weight: Any, gradient: Any, norm_weight: Any,
                norm_gradient: Any, weight_decay: Any, learning_rate: Any) -> Any:
        """The scaled gradient, the four scalars as 0-d arrays."""
        w_norm = xp.sqrt(norm_weight)
        coeff = self.hyperpara * w_norm / (xp.sqrt(norm_gradient) + weight_decay * w_norm
                                           + self.epsilon)
        if self.use_clip:
            coeff = xp.clip(coeff / learning_rate, 0.0, 1.0)
        return coeff * (gradient + weight_decay * weight)


# -- overflow check -------------------------------------------------------------------------
class FloatStatus(Primitive):
    """Whether ``x`` holds an infinity or NaN: a tensor of shape (1,) and ``x``'s dtype, 1 if it
    does and 0 if not: ``FloatStatus()(x)``. Loss scaling sums it over the gradients."""

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x, mstype.float_type)
        return (1,), x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (F.zeros_like(x),)


assign = Assign()
assign_add = AssignAdd()
assign_sub = AssignSub()
