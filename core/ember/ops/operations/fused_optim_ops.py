"""MindSpore's fused optimizer primitives (the updates its CPU and GPU optimizers call, in
``inner_ops`` and ``nn_ops``): ``FusedAdaFactor``, ``FusedCastAdamWeightDecay``,
``FusedWeightScaleApplyMomentum`` and ``AdamNoUpdateParam``.

As the primitives of ``apply_ops``, each writes its rule once, as ``update(xp, *inputs)``
returning the new values of the Parameters it changes, ``xp`` an array namespace (NumPy on
the CPU backend, ``tf.experimental.numpy`` on the GPU backend) on float32 arrays (the
hyperparameters at the positions ``hyper`` as 0-d arrays), as MindSpore's kernels compute;
the backends write its results into the Parameters at the positions ``written`` and return
the Parameters at the positions ``returned`` (a tuple where more than one), or, where
``returned`` is empty, the one value ``update`` returns after the new values.
"""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import check_tensor
from ember.ops.operations.optim_ops import (
    _check_bools,
    _check_like,
    _check_scalars,
    _check_states,
    _check_variable,
    _Update,
)
from ember.ops.primitive import Spec

__all__ = ["AdamNoUpdateParam", "FusedAdaFactor", "FusedCastAdamWeightDecay",
           "FusedWeightScaleApplyMomentum"]

#: the floor of MindSpore's FusedAdaFactor kernel under the second moments and their factors
_TINY = 1e-30


def _rms(xp: Any, x: Any) -> Any:
    return xp.sqrt(xp.mean(x * x))


class FusedAdaFactor(_Update):
    """One Adafactor step of ``param`` (Shazeer and Stern, 2018), in place:
    ``FusedAdaFactor(enable_scale_parameter=False, enable_first_moment=False,
    enable_weight_decay=False)(epsilon, clip_threshold, beta1, beta2t, weight_decay,
    learning_rate, grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)``.

    With ``u = grad ** 2 + epsilon[0]``: a parameter of rank >= 2 keeps the moving means of
    ``u`` over its last axis (``exp_avg_sq_row``, shape ``param.shape[:-1]``) and over its
    second-to-last (``exp_avg_sq_col``), and ``update = grad / (sqrt(row / mean(row)) *
    sqrt(col))``; a vector keeps the moving mean of ``u`` itself (``exp_avg_sq``) and
    ``update = grad / sqrt(exp_avg_sq)`` (moving means with weight ``beta2t`` on the old
    value). The learning rate is scaled by ``max(epsilon[1], rms(param))`` where
    ``enable_scale_parameter``; ``update *= lr / max(1, rms(update) / clip_threshold)``;
    with ``enable_first_moment`` it is averaged into ``exp_avg`` (weight ``beta1``), and
    ``param -= update`` (``+ weight_decay * lr * param`` where ``enable_weight_decay``).
    The states a parameter does not use are placeholders left as they are. Returns the
    updated ``param``."""

    hyper, written, returned = (1, 2, 3, 4, 5), (7, 8, 9, 10, 11), (7,)

    def __init__(self, enable_scale_parameter: bool = False, enable_first_moment: bool = False,
                 enable_weight_decay: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, enable_scale_parameter=enable_scale_parameter,
                     enable_first_moment=enable_first_moment,
                     enable_weight_decay=enable_weight_decay)
        self.enable_scale_parameter = enable_scale_parameter
        self.enable_first_moment = enable_first_moment
        self.enable_weight_decay = enable_weight_decay

    def prepare(self, args: tuple) -> tuple:
        epsilon = args[0]  # as MindSpore, the pair may be a tuple or list of two numbers
        if isinstance(epsilon, tuple | list) and all(
                isinstance(e, int | float) and not isinstance(e, bool) for e in epsilon):
            return (Tensor(epsilon, mstype.float32), *args[1:])
        return args

    def infer(self, epsilon: Any, clip_threshold: Any, beta1: Any, beta2t: Any,
              weight_decay: Any, learning_rate: Any, grad: Any, param: Any, exp_avg: Any,
              exp_avg_sq_row: Any, exp_avg_sq_col: Any, exp_avg_sq: Any) -> Spec:
        op = self.name
        check_tensor(op, "epsilon", epsilon, mstype.float_type)
        if epsilon.size != 2:
            raise ValueError(f"{op}: epsilon must hold 2 values (eps1, eps2), but has shape "
                             f"{list(epsilon.shape)}")
        _check_scalars(op, clip_threshold=clip_threshold, beta1=beta1, beta2t=beta2t,
                       weight_decay=weight_decay, learning_rate=learning_rate)
        check_tensor(op, "param", _check_variable(op, param, "param"), mstype.float_type)
        _check_like(op, "grad", grad, param)
        shape = param.shape
        factored = len(shape) >= 2
        used = {"exp_avg": shape if self.enable_first_moment else None,
                "exp_avg_sq_row": shape[:-1] if factored else None,
                "exp_avg_sq_col": shape[:-2] + shape[-1:] if factored else None,
                "exp_avg_sq": None if factored else shape}
        for name, state in zip(used, (exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)):
            check_tensor(op, name, _check_variable(op, state, name), mstype.float_type)
            if used[name] is not None and state.shape != used[name]:
                raise ValueError(f"{op}: {name} must have shape {list(used[name])} for param "
                                 f"of shape {list(shape)}, but got {list(state.shape)}")
        return shape, param.dtype

    def update(self, xp: Any, epsilon: Any, clip_threshold: Any, beta1: Any, beta2t: Any,
               weight_decay: Any, lr: Any, grad: Any, param: Any, exp_avg: Any, row: Any,
               col: Any, sq: Any) -> tuple:
        """The new (param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq), from float32
        arrays and 0-d hyperparameters (``epsilon`` a pair)."""
        eps1, eps2 = epsilon[0], epsilon[1]
        u = grad * grad + eps1
        if param.ndim >= 2:
            row = row * beta2t + xp.mean(u, axis=-1) * (1 - beta2t)
            mean_row = xp.maximum(xp.mean(row, axis=-1, keepdims=True), _TINY)
            col = xp.maximum(col * beta2t + xp.mean(u, axis=-2) * (1 - beta2t), _TINY)
            norm = xp.sqrt(row / mean_row)[..., :, None] * xp.sqrt(col)[..., None, :]
            step = grad / xp.maximum(norm, _TINY)
        else:
            sq = xp.maximum(sq * beta2t + u * (1 - beta2t), _TINY)
            step = grad / xp.sqrt(sq)
        if self.enable_scale_parameter:
            lr = lr * xp.maximum(eps2, _rms(xp, param))
        step = step * (lr / xp.maximum(_rms(xp, step) / clip_threshold, 1.0))
        if self.enable_first_moment:
            exp_avg = exp_avg * beta1 + step * (1 - beta1)
            step = exp_avg
        new_param = param - step
        if self.enable_weight_decay:
            new_param = new_param - param * weight_decay * lr
        return new_param, exp_avg, row, col, sq


#: FusedCastAdamWeightDecay divides the gradient by ``global_norm`` unless it is below this
_MIN_GLOBAL_NORM = 1e-10


class FusedCastAdamWeightDecay(_Update):
    """AdamWeightDecay on a float16 gradient divided by ``global_norm`` (by 1 where
    ``global_norm < 1e-10``), computed in float32 and written back into ``var`` (float16 or
    float32): ``g = gradient / global_norm``, ``m = beta1 * m + (1 - beta1) * g``,
    ``v = beta2 * v + (1 - beta2) * g ** 2``, ``var -= lr * (m / (sqrt(v) + epsilon) + decay *
    var)``. ``FusedCastAdamWeightDecay()(var, m, v, lr, beta1, beta2, epsilon, decay,
    gradient, global_norm)`` returns the updated ``(var, m, v)``."""

    hyper, written, returned = (3, 4, 5, 6, 7, 9), (0, 1, 2), (0, 1, 2)

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, use_locking=use_locking)
        self.use_locking = use_locking

    def infer(self, var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any,
              decay: Any, gradient: Any, global_norm: Any) -> list[Spec]:
        op = self.name
        check_tensor(op, "var", _check_variable(op, var, "var"), (mstype.float16, mstype.float32))
        for name, state in (("m", m), ("v", v)):
            check_tensor(op, name, _check_variable(op, state, name), (mstype.float32,))
        check_tensor(op, "gradient", gradient, (mstype.float16,))
        for name, value in (("m", m), ("v", v), ("gradient", gradient)):
            if value.shape != var.shape:
                raise ValueError(f"{op}: {name} must have the shape {list(var.shape)} of var, "
                                 f"but got {list(value.shape)}")
        _check_scalars(op, lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon, decay=decay,
                       global_norm=global_norm)
        return [(var.shape, var.dtype), (m.shape, m.dtype), (v.shape, v.dtype)]

    def update(self, xp: Any, var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any,
               epsilon: Any, decay: Any, gradient: Any, global_norm: Any) -> tuple:
        g = gradient / xp.where(global_norm < _MIN_GLOBAL_NORM, 1.0, global_norm)
        m = m + (g - m) * (1 - beta1)
        v = v + (g * g - v) * (1 - beta2)
        return var - lr * (m / (xp.sqrt(v) + epsilon) + decay * var), m, v


class FusedWeightScaleApplyMomentum(_Update):
    """Momentum on the gradient given weight decay and scaled (MindSpore's GPU fusion of
    loss-scale division, weight decay and ApplyMomentum): ``g = (gradient + weight_decay *
    variable) * loss_scale``, ``accumulation = momentum * accumulation + g``,
    ``variable -= learning_rate * accumulation``. ``FusedWeightScaleApplyMomentum()(
    weight_decay, loss_scale, variable, accumulation, learning_rate, gradient, momentum)``
    returns the updated variable."""

    hyper, written, returned = (0, 1, 4, 6), (2, 3), (2,)

    def infer(self, weight_decay: Any, loss_scale: Any, variable: Any, accumulation: Any,
              learning_rate: Any, gradient: Any, momentum: Any) -> Spec:
        op = self.name
        _check_states(op, variable, accumulation=accumulation)
        _check_like(op, "gradient", gradient, variable)
        _check_scalars(op, weight_decay=weight_decay, loss_scale=loss_scale,
                       learning_rate=learning_rate, momentum=momentum)
        return variable.shape, variable.dtype

    def update(self, xp: Any, weight_decay: Any, loss_scale: Any, variable: Any,
               accumulation: Any, lr: Any, gradient: Any, momentum: Any) -> tuple:
        accumulation = momentum * accumulation + (gradient + weight_decay * variable) * loss_scale
        return variable - lr * accumulation, accumulation


class AdamNoUpdateParam(_Update):
    """Adam's step without the parameter: updates ``m`` and ``v`` as ``Adam`` does and returns
    the change of the parameter, ``-lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m /
    (sqrt(v) + epsilon)`` (Nesterov: ``m`` replaced by ``beta1 * m + (1 - beta1) *
    gradient``), all float32: ``AdamNoUpdateParam(use_locking=False, use_nesterov=False)(m, v,
    beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)``."""

    hyper, written, returned = (2, 3, 4, 5, 6, 7), (0, 1), ()

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, use_locking=use_locking, use_nesterov=use_nesterov)
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov

    def infer(self, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any, beta1: Any,
              beta2: Any, epsilon: Any, gradient: Any) -> Spec:
        op = self.name
        check_tensor(op, "m", _check_variable(op, m, "m"), (mstype.float32,))
        _check_like(op, "v", _check_variable(op, v, "v"), m)
        _check_like(op, "gradient", gradient, m)
        scalars = {"beta1_power": beta1_power, "beta2_power": beta2_power, "lr": lr,
                   "beta1": beta1, "beta2": beta2, "epsilon": epsilon}
        _check_scalars(op, **scalars)
        for name, value in scalars.items():
            if isinstance(value, Tensor):
                check_tensor(op, name, value, (mstype.float32,))
        return gradient.shape, gradient.dtype

    def update(self, xp: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any,
               beta1: Any, beta2: Any, epsilon: Any, gradient: Any) -> tuple:
        m = m * beta1 + (1 - beta1) * gradient
        v = v * beta2 + (1 - beta2) * gradient * gradient
        step = m * beta1 + (1 - beta1) * gradient if self.use_nesterov else m
        lr_t = lr * xp.sqrt(1 - beta2_power) / (1 - beta1_power)
        return m, v, -lr_t * step / (xp.sqrt(v) + epsilon)
