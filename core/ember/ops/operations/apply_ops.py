"""The optimizer updates of MindSpore's ``nn_ops``: ``Apply*``, ``SparseApply*`` and
``FusedSparse*``, in place on their Parameter inputs.

Each primitive declares its inputs (the Parameters it updates first, then hyperparameters
and tensors) and writes its update once, as ``update(xp, *inputs)`` returning the new values
of its Parameters, with ``xp`` an array namespace (NumPy on the CPU backend,
``tf.experimental.numpy`` on the GPU backend): the backends apply that rule and write the
results into the Parameters. The sparse primitives update the rows ``indices`` names (their
gradients summed where an index repeats) with the rule of their dense sibling.
"""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import check_tensor
from ember.ops.operations.optim_ops import (
    _check_bools,
    _check_float,
    _check_like,
    _check_scalars,
    _check_states,
)
from ember.ops.operations.optim_ops import (
    _Update as _InPlace,
)
from ember.ops.primitive import Spec

__all__ = [
    "ApplyAdaMax", "ApplyAdadelta", "ApplyAdagrad", "ApplyAdagradV2", "ApplyAdamWithAmsgrad",
    "ApplyAdagradDA", "ApplyAddSign", "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyGradientDescent",
    "ApplyKerasMomentum", "ApplyPowerSign", "ApplyProximalAdagrad",
    "ApplyProximalGradientDescent", "ApplyRMSProp", "FusedSparseAdam", "FusedSparseFtrl",
    "FusedSparseLazyAdam", "FusedSparseProximalAdagrad", "SparseApplyAdadelta",
    "SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyAdam", "SparseApplyFtrl",
    "SparseApplyFtrlV2", "SparseApplyLazyAdam", "SparseApplyProximalAdagrad", "SparseApplyRMSProp",
]


class _Update(_InPlace):
    """An in-place update. ``_inputs`` names the inputs: the first ``_states`` are the
    Parameters it updates, those in ``_scalars`` hyperparameters (numbers or one-element
    tensors; integers for those also in ``_steps``), the rest tensors of the variable's shape.
    It returns the first ``_returns`` Parameters (a tuple where more than one)."""

    sparse = False  # whether the last input is the rows' ``indices``
    placeholders = False  # whether the outputs are placeholders, not the Parameters
    _inputs: tuple[str, ...]
    _states: int
    _scalars: tuple[str, ...] = ()
    _steps: tuple[str, ...] = ()
    _returns: int = 1

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, use_locking=use_locking)
        self.use_locking = use_locking

    def infer(self, *args: Any) -> Spec | list[Spec]:
        op = self.name
        if len(args) != len(self._inputs):
            raise TypeError(f"{op} takes {len(self._inputs)} inputs ({', '.join(self._inputs)})"
                            f", but got {len(args)}")
        named = dict(zip(self._inputs, args))
        names = self._inputs[:self._states]
        var = _check_states(op, args[0], **{n: named[n] for n in names[1:]})
        _check_scalars(op, **{n: named[n] for n in self._scalars if n not in self._steps})
        for name in self._steps:
            _check_step(op, name, named[name])
        for name in self._inputs[self._states:]:
            if name not in self._scalars:
                self.check_tensor(name, named[name], var)
        return self.outputs(var)

    def check_tensor(self, name: str, value: Any, var: Tensor) -> None:
        _check_like(self.name, name, value, var)

    def outputs(self, var: Tensor) -> Spec | list[Spec]:
        spec = (var.shape, var.dtype)
        return spec if self._returns == 1 else [spec] * self._returns


def _check_step(op: str, name: str, value: Any) -> None:
    """A step count: an int, or an int32 or int64 Tensor of one element."""
    if isinstance(value, Tensor):
        check_tensor(op, name, value, (mstype.int32, mstype.int64))
        if value.size != 1:
            raise ValueError(f"{op}: {name} must be a scalar (one element), but has shape "
                             f"{list(value.shape)}")
    elif isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{op}: {name} must be an int or an int32/int64 Tensor of one "
                        f"element, but got {type(value).__name__}")


def _shrink(xp: Any, prox: Any, lr: Any, l1: Any, l2: Any) -> Any:
    """The proximal step of l1 and l2 regularization: ``sign(prox) * max(|prox| - lr * l1, 0)
    / (1 + lr * l2)``."""
    return xp.sign(prox) * xp.maximum(xp.abs(prox) - lr * l1, 0) / (1 + lr * l2)


# -- dense updates --------------------------------------------------------------------------
class ApplyGradientDescent(_Update):
    """``var -= alpha * delta``: ``ApplyGradientDescent()(var, alpha, delta)``."""

    _inputs, _states, _scalars = ("var", "alpha", "delta"), 1, ("alpha",)

    def update(self, xp: Any, var: Any, alpha: Any, delta: Any) -> tuple:
        return (var - alpha * delta,)


class ApplyProximalGradientDescent(_Update):
    """Gradient descent followed by the proximal step of l1 and l2 regularization:
    ``ApplyProximalGradientDescent()(var, alpha, l1, l2, delta)``."""

    _inputs, _states, _scalars = ("var", "alpha", "l1", "l2", "delta"), 1, ("alpha", "l1", "l2")

    def update(self, xp: Any, var: Any, alpha: Any, l1: Any, l2: Any, delta: Any) -> tuple:
        return (_shrink(xp, var - alpha * delta, alpha, l1, l2),)


class ApplyAdagrad(_Update):
    """Adagrad: ``accum += grad ** 2`` (where ``update_slots``), then
    ``var -= lr * grad / sqrt(accum)``: ``ApplyAdagrad(update_slots=True)(var, accum, lr,
    grad)`` -> (var, accum)."""

    _inputs, _states, _scalars, _returns = ("var", "accum", "lr", "grad"), 2, ("lr",), 2

    def __init__(self, update_slots: bool = True, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        _check_bools(self.name, update_slots=update_slots)
        self.update_slots = update_slots

    def update(self, xp: Any, var: Any, accum: Any, lr: Any, grad: Any) -> tuple:
        if self.update_slots:
            accum = accum + grad * grad
        return var - lr * grad / self.root(xp, accum), accum

    def root(self, xp: Any, accum: Any) -> Any:
        return xp.sqrt(accum)


class ApplyAdagradV2(ApplyAdagrad):
    """Adagrad with ``epsilon``: ``var -= lr * grad / (sqrt(accum) + epsilon)``:
    ``ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr, grad)`` -> (var, accum)."""

    def __init__(self, epsilon: float, update_slots: bool = True,
                 use_locking: bool = False) -> None:
        super().__init__(update_slots, use_locking)
        self.epsilon = _check_float(self.name, "epsilon", epsilon)

    def root(self, xp: Any, accum: Any) -> Any:
        return xp.sqrt(accum) + self.epsilon


def _proximal_adagrad(xp: Any, var: Any, accum: Any, lr: Any, l1: Any, l2: Any,
                      grad: Any) -> tuple:
    accum = accum + grad * grad
    return _shrink(xp, var - lr * grad / xp.sqrt(accum), lr, l1, l2), accum


class ApplyProximalAdagrad(_Update):
    """Adagrad followed by the proximal step of l1 and l2 regularization:
    ``ApplyProximalAdagrad()(var, accum, lr, l1, l2, grad)`` -> (var, accum)."""

    _inputs = ("var", "accum", "lr", "l1", "l2", "grad")
    _states, _scalars, _returns = 2, ("lr", "l1", "l2"), 2

    def update(self, xp: Any, *inputs: Any) -> tuple:
        return _proximal_adagrad(xp, *inputs)


class ApplyAdagradDA(_Update):
    """Adagrad dual averaging: ``gradient_accumulator += grad``,
    ``gradient_squared_accumulator += grad ** 2``, then ``var = -lr * a / (l2 * global_step *
    lr + sqrt(gradient_squared_accumulator))``, ``a`` the gradient accumulator shrunk towards 0
    by ``l1 * global_step`` where ``l1 > 0``: ``ApplyAdagradDA()(var, gradient_accumulator,
    gradient_squared_accumulator, grad, lr, l1, l2, global_step)`` -> the three Parameters."""

    _inputs = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1",
               "l2", "global_step")
    _states, _scalars, _returns = 3, ("lr", "l1", "l2", "global_step"), 3
    _steps = ("global_step",)

    def update(self, xp: Any, var: Any, accum: Any, squared: Any, grad: Any, lr: Any, l1: Any,
               l2: Any, step: Any) -> tuple:
        accum = accum + grad
        squared = squared + grad * grad
        shrunk = xp.where(l1 > 0, xp.sign(accum) * xp.maximum(xp.abs(accum) - l1 * step, 0),
                          accum)
        return -lr * shrunk / (l2 * step * lr + xp.sqrt(squared)), accum, squared


class ApplyAdaMax(_Update):
    """AdaMax: ``m = beta1 * m + (1 - beta1) * grad``, ``v = max(beta2 * v, |grad|)``,
    ``var -= lr / (1 - beta1_power) * m / (v + epsilon)``:
    ``ApplyAdaMax()(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)`` ->
    (var, m, v)."""

    _inputs = ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad")
    _states, _returns = 3, 3
    _scalars = ("beta1_power", "lr", "beta1", "beta2", "epsilon")

    def update(self, xp: Any, var: Any, m: Any, v: Any, beta1_power: Any, lr: Any, beta1: Any,
               beta2: Any, epsilon: Any, grad: Any) -> tuple:
        m = beta1 * m + (1 - beta1) * grad
        v = xp.maximum(beta2 * v, xp.abs(grad))
        return var - lr / (1 - beta1_power) * m / (v + epsilon), m, v


class ApplyKerasMomentum(_Update):
    """Keras' momentum: ``accum = accum * momentum - grad * lr``, then ``var += accum``
    (Nesterov: ``var += accum * momentum - grad * lr``):
    ``ApplyKerasMomentum(use_locking=False, use_nesterov=False)(var, accum, lr, grad,
    momentum)`` -> (var, accum)."""

    _inputs = ("var", "accum", "lr", "grad", "momentum")
    _states, _scalars, _returns = 2, ("lr", "momentum"), 2

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__(use_locking)
        _check_bools(self.name, use_nesterov=use_nesterov)
        self.use_nesterov = use_nesterov

    def update(self, xp: Any, var: Any, accum: Any, lr: Any, grad: Any, momentum: Any) -> tuple:
        accum = accum * momentum - grad * lr
        return var + (accum * momentum - grad * lr if self.use_nesterov else accum), accum


class ApplyAdamWithAmsgrad(_Update):
    """Adam with AMSGrad's running maximum ``vhat`` of the second moment:
    ``m = beta1 * m + (1 - beta1) * grad``, ``v = beta2 * v + (1 - beta2) * grad ** 2``,
    ``vhat = max(vhat, v)``, ``var -= lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m /
    (sqrt(vhat) + epsilon)``: ``ApplyAdamWithAmsgrad(beta1, beta2, epsilon)(var, m, v, vhat,
    beta1_power, beta2_power, lr, grad)`` -> (var, m, v, vhat)."""

    _inputs = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "grad")
    _states, _scalars, _returns = 4, ("beta1_power", "beta2_power", "lr"), 4

    def __init__(self, beta1: float, beta2: float, epsilon: float,
                 use_locking: bool = False) -> None:
        super().__init__(use_locking)
        self.beta1 = _check_float(self.name, "beta1", beta1)
        self.beta2 = _check_float(self.name, "beta2", beta2)
        self.epsilon = _check_float(self.name, "epsilon", epsilon)

    def update(self, xp: Any, var: Any, m: Any, v: Any, vhat: Any, beta1_power: Any,
               beta2_power: Any, lr: Any, grad: Any) -> tuple:
        m = self.beta1 * m + (1 - self.beta1) * grad
        v = self.beta2 * v + (1 - self.beta2) * grad * grad
        vhat = xp.maximum(vhat, v)
        lr_t = lr * xp.sqrt(1 - beta2_power) / (1 - beta1_power)
        return var - lr_t * m / (xp.sqrt(vhat) + self.epsilon), m, v, vhat


class ApplyAdadelta(_Update):
    """Adadelta: ``accum = rho * accum + (1 - rho) * grad ** 2``, ``update = sqrt(
    accum_update + epsilon) / sqrt(accum + epsilon) * grad``, ``accum_update = rho *
    accum_update + (1 - rho) * update ** 2``, ``var -= lr * update``:
    ``ApplyAdadelta()(var, accum, accum_update, lr, rho, epsilon, grad)`` ->
    (var, accum, accum_update)."""

    _inputs = ("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad")
    _states, _scalars, _returns = 3, ("lr", "rho", "epsilon"), 3

    def update(self, xp: Any, var: Any, accum: Any, accum_update: Any, lr: Any, rho: Any,
               epsilon: Any, grad: Any) -> tuple:
        accum = rho * accum + (1 - rho) * grad * grad
        step = xp.sqrt(accum_update + epsilon) / xp.sqrt(accum + epsilon) * grad
        accum_update = rho * accum_update + (1 - rho) * step * step
        return var - lr * step, accum, accum_update


class ApplyRMSProp(_Update):
    """RMSProp: ``mean_square = decay * mean_square + (1 - decay) * grad ** 2``,
    ``moment = momentum * moment + learning_rate * grad / sqrt(mean_square + epsilon)``,
    ``var -= moment``: ``ApplyRMSProp()(var, mean_square, moment, learning_rate, grad, decay,
    momentum, epsilon)``."""

    _inputs = ("var", "mean_square", "moment", "learning_rate", "grad", "decay", "momentum",
               "epsilon")
    _states, _scalars = 3, ("learning_rate", "decay", "momentum", "epsilon")

    def update(self, xp: Any, var: Any, mean_square: Any, moment: Any, lr: Any, grad: Any,
               decay: Any, momentum: Any, epsilon: Any) -> tuple:
        mean_square = decay * mean_square + (1 - decay) * grad * grad
        moment = momentum * moment + lr * grad / xp.sqrt(mean_square + epsilon)
        return var - moment, mean_square, moment


class ApplyCenteredRMSProp(_Update):
    """Centered RMSProp: as ApplyRMSProp, with the variance ``mean_square - mean_grad ** 2``
    in place of ``mean_square``, ``mean_grad`` the moving mean of the gradient:
    ``ApplyCenteredRMSProp()(var, mean_grad, mean_square, moment, grad, learning_rate, decay,
    momentum, epsilon)``."""

    _inputs = ("var", "mean_grad", "mean_square", "moment", "grad", "learning_rate", "decay",
               "momentum", "epsilon")
    _states, _scalars = 4, ("learning_rate", "decay", "momentum", "epsilon")

    def update(self, xp: Any, var: Any, mean_grad: Any, mean_square: Any, moment: Any,
               grad: Any, lr: Any, decay: Any, momentum: Any, epsilon: Any) -> tuple:
        mean_grad = decay * mean_grad + (1 - decay) * grad
        mean_square = decay * mean_square + (1 - decay) * grad * grad
        variance = mean_square - mean_grad * mean_grad
        moment = momentum * moment + lr * grad / xp.sqrt(variance + epsilon)
        return var - moment, mean_grad, mean_square, moment


def _ftrl(xp: Any, var: Any, accum: Any, linear: Any, grad: Any, lr: Any, l1: Any, l2: Any,
          lr_power: Any, l2_shrinkage: float = 0.0) -> tuple:
    """FTRL-proximal: the new (var, accum, linear); ``l2_shrinkage`` adds
    ``2 * l2_shrinkage * var`` to the gradient in ``linear`` (not in ``accum``)."""
    new_accum = accum + grad * grad
    shrunk = grad + 2 * l2_shrinkage * var if l2_shrinkage else grad
    linear = linear + shrunk - (new_accum ** -lr_power - accum ** -lr_power) / lr * var
    quadratic = new_accum ** -lr_power / lr + 2 * l2
    var = xp.where(xp.abs(linear) > l1, (xp.sign(linear) * l1 - linear) / quadratic, 0 * var)
    return var, new_accum, linear


class ApplyFtrl(_Update):
    """FTRL-proximal: ``ApplyFtrl()(var, accum, linear, grad, lr, l1, l2, lr_power)`` with
    ``lr_power <= 0`` (-0.5 gives Adagrad's learning rate)."""

    _inputs = ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power")
    _states, _scalars = 3, ("lr", "l1", "l2", "lr_power")

    def update(self, xp: Any, *inputs: Any) -> tuple:
        return _ftrl(xp, *inputs)


class ApplyPowerSign(_Update):
    """PowerSign: ``m = beta * m + (1 - beta) * grad``, ``var -= lr * exp(logbase *
    sign_decay * sign(grad) * sign(m)) * grad``: ``ApplyPowerSign()(var, m, lr, logbase,
    sign_decay, beta, grad)`` -> (var, m)."""

    _inputs = ("var", "m", "lr", "logbase", "sign_decay", "beta", "grad")
    _states, _scalars, _returns = 2, ("lr", "logbase", "sign_decay", "beta"), 2

    def update(self, xp: Any, var: Any, m: Any, lr: Any, logbase: Any, sign_decay: Any,
               beta: Any, grad: Any) -> tuple:
        m = beta * m + (1 - beta) * grad
        return var - lr * xp.exp(logbase * sign_decay * xp.sign(grad) * xp.sign(m)) * grad, m


class ApplyAddSign(_Update):
    """AddSign: ``m = beta * m + (1 - beta) * grad``, ``var -= lr * (alpha + sign_decay *
    sign(grad) * sign(m)) * grad``: ``ApplyAddSign()(var, m, lr, alpha, sign_decay, beta,
    grad)`` -> (var, m)."""

    _inputs = ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad")
    _states, _scalars, _returns = 2, ("lr", "alpha", "sign_decay", "beta"), 2

    def update(self, xp: Any, var: Any, m: Any, lr: Any, alpha: Any, sign_decay: Any,
               beta: Any, grad: Any) -> tuple:
        m = beta * m + (1 - beta) * grad
        return var - lr * (alpha + sign_decay * xp.sign(grad) * xp.sign(m)) * grad, m


# -- sparse updates -------------------------------------------------------------------------
class _SparseUpdate(_Update):
    """The update of the rows ``indices`` (a 1-D int32 or int64 tensor, the last input) of
    the Parameters, ``grad`` holding one row per index. ``lazy`` is False where every row of
    the states moves (FusedSparseAdam: the gradient is zero on the other rows)."""

    sparse, lazy = True, True

    def check_tensor(self, name: str, value: Any, var: Tensor) -> None:
        op = self.name
        if name == "indices":
            check_tensor(op, "indices", value, (mstype.int32, mstype.int64))
            if value.ndim != 1:
                raise ValueError(f"{op}: 'indices' must be 1-D, but got shape "
                                 f"{list(value.shape)}")
            return
        check_tensor(op, name, value, (var.dtype,))
        if var.ndim == 0 or value.shape[1:] != var.shape[1:]:
            raise ValueError(f"{op}: '{name}' must hold rows of var of shape "
                             f"{list(var.shape)}, but got shape {list(value.shape)}")

    def infer(self, *args: Any) -> Spec | list[Spec]:
        result = super().infer(*args)
        grad, indices = args[self._inputs.index("grad")], args[-1]
        if grad.shape[0] != indices.shape[0]:
            raise ValueError(f"{self.name}: 'grad' must have one row per index ("
                             f"{indices.shape[0]}), but got shape {list(grad.shape)}")
        return result


class SparseApplyAdagrad(_SparseUpdate):
    """ApplyAdagrad on the rows ``indices``, learning rate ``lr`` an attribute:
    ``SparseApplyAdagrad(lr, update_slots=True)(var, accum, grad, indices)`` -> (var, accum)."""

    _inputs, _states, _returns = ("var", "accum", "grad", "indices"), 2, 2

    def __init__(self, lr: float, update_slots: bool = True, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        self.lr = _check_float(self.name, "lr", lr)
        _check_bools(self.name, update_slots=update_slots)
        self.update_slots = update_slots
        self._dense = ApplyAdagrad(update_slots)

    def update(self, xp: Any, var: Any, accum: Any, grad: Any) -> tuple:
        return self._dense.update(xp, var, accum, self.lr, grad)


class SparseApplyAdagradV2(SparseApplyAdagrad):
    """ApplyAdagradV2 on the rows ``indices``: ``SparseApplyAdagradV2(lr, epsilon,
    use_locking=False, update_slots=True)(var, accum, grad, indices)`` -> (var, accum)."""

    def __init__(self, lr: float, epsilon: float, use_locking: bool = False,
                 update_slots: bool = True) -> None:
        super().__init__(lr, update_slots, use_locking)
        self.epsilon = _check_float(self.name, "epsilon", epsilon)
        self._dense = ApplyAdagradV2(self.epsilon, update_slots)


class SparseApplyProximalAdagrad(_SparseUpdate):
    """ApplyProximalAdagrad on the rows ``indices``:
    ``SparseApplyProximalAdagrad()(var, accum, lr, l1, l2, grad, indices)`` -> (var, accum)."""

    _inputs = ("var", "accum", "lr", "l1", "l2", "grad", "indices")
    _states, _scalars, _returns = 2, ("lr", "l1", "l2"), 2

    def update(self, xp: Any, *inputs: Any) -> tuple:
        return _proximal_adagrad(xp, *inputs)


class SparseApplyFtrl(_SparseUpdate):
    """ApplyFtrl on the rows ``indices``, its hyperparameters attributes:
    ``SparseApplyFtrl(lr, l1, l2, lr_power)(var, accum, linear, grad, indices)`` ->
    (var, accum, linear)."""

    _inputs, _states, _returns = ("var", "accum", "linear", "grad", "indices"), 3, 3

    def __init__(self, lr: float, l1: float, l2: float, lr_power: float,
                 use_locking: bool = False) -> None:
        super().__init__(use_locking)
        self.lr = _check_float(self.name, "lr", lr)
        self.l1 = _check_float(self.name, "l1", l1)
        self.l2 = _check_float(self.name, "l2", l2)
        self.lr_power = _check_float(self.name, "lr_power", lr_power, minimum=-float("inf"))
        if self.lr <= 0 or self.lr_power > 0:
            raise ValueError(f"{self.name}: 'lr' must be > 0 and 'lr_power' <= 0, but got "
                             f"{lr} and {lr_power}")

    def update(self, xp: Any, var: Any, accum: Any, linear: Any, grad: Any) -> tuple:
        return _ftrl(xp, var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power)


class SparseApplyFtrlV2(SparseApplyFtrl):
    """SparseApplyFtrl with L2 shrinkage (see ``_ftrl``):
    ``SparseApplyFtrlV2(lr, l1, l2, l2_shrinkage, lr_power)(var, accum, linear, grad,
    indices)`` -> (var, accum, linear)."""

    def __init__(self, lr: float, l1: float, l2: float, l2_shrinkage: float, lr_power: float,
                 use_locking: bool = False) -> None:
        super().__init__(lr, l1, l2, lr_power, use_locking)
        self.l2_shrinkage = _check_float(self.name, "l2_shrinkage", l2_shrinkage,
                                         minimum=-float("inf"))

    def update(self, xp: Any, var: Any, accum: Any, linear: Any, grad: Any) -> tuple:
        return _ftrl(xp, var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power,
                     self.l2_shrinkage)


class SparseApplyRMSProp(_SparseUpdate):
    """ApplyRMSProp on the rows ``indices``, ``rho`` (the decay), ``momentum`` and
    ``epsilon`` attributes: ``SparseApplyRMSProp(rho, momentum, epsilon)(var, ms, mom, lr,
    grad, indices)`` -> (var, ms, mom)."""

    _inputs = ("var", "ms", "mom", "lr", "grad", "indices")
    _states, _scalars, _returns = 3, ("lr",), 3

    def __init__(self, rho: float, momentum: float, epsilon: float,
                 use_locking: bool = False) -> None:
        super().__init__(use_locking)
        self.rho = _check_float(self.name, "rho", rho)
        self.momentum = _check_float(self.name, "momentum", momentum)
        self.epsilon = _check_float(self.name, "epsilon", epsilon)
        if self.rho > 1.0 or self.epsilon <= 0.0:
            raise ValueError(f"{self.name}: 'rho' must be in [0.0, 1.0] and 'epsilon' > 0, "
                             f"but got {rho} and {epsilon}")

    def update(self, xp: Any, var: Any, ms: Any, mom: Any, lr: Any, grad: Any) -> tuple:
        return ApplyRMSProp().update(xp, var, ms, mom, lr, grad, self.rho, self.momentum,
                                     self.epsilon)


class SparseApplyAdadelta(_SparseUpdate):
    """ApplyAdadelta on the rows ``indices``, ``epsilon`` an attribute:
    ``SparseApplyAdadelta(epsilon)(var, accum, accum_update, lr, rho, grad, indices)`` ->
    (var, accum, accum_update)."""

    _inputs = ("var", "accum", "accum_update", "lr", "rho", "grad", "indices")
    _states, _scalars, _returns = 3, ("lr", "rho"), 3

    def __init__(self, epsilon: float, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        self.epsilon = _check_float(self.name, "epsilon", epsilon)

    def update(self, xp: Any, var: Any, accum: Any, accum_update: Any, lr: Any, rho: Any,
               grad: Any) -> tuple:
        return ApplyAdadelta().update(xp, var, accum, accum_update, lr, rho, self.epsilon,
                                      grad)


class _FusedSparse(_SparseUpdate):
    """MindSpore's CPU fused sparse updates: the Parameters change in place and the outputs
    are placeholders of shape (1,), one per updated Parameter."""

    placeholders = True

    def outputs(self, var: Tensor) -> Spec | list[Spec]:
        return [((1,), var.dtype)] * self._returns


class SparseApplyAdam(_SparseUpdate):
    """Adam (as ``Adam``) with a gradient given for the rows ``indices`` only (zero on the
    others, whose moments decay too; a repeated index's rows are summed):
    ``SparseApplyAdam(use_locking=False, use_nesterov=False)(var, m, v, beta1_power,
    beta2_power, lr, beta1, beta2, epsilon, grad, indices)`` -> (var, m, v)."""

    _inputs = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
               "epsilon", "grad", "indices")
    _states, _returns = 3, 3
    _scalars = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")
    lazy = False

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__(use_locking)
        _check_bools(self.name, use_nesterov=use_nesterov)
        self.use_nesterov = use_nesterov

    def update(self, xp: Any, var: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any,
               lr: Any, beta1: Any, beta2: Any, epsilon: Any, grad: Any) -> tuple:
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        step = beta1 * m + (1 - beta1) * grad if self.use_nesterov else m
        lr_t = lr * xp.sqrt(1 - beta2_power) / (1 - beta1_power)
        return var - lr_t * step / (xp.sqrt(v) + epsilon), m, v


class SparseApplyLazyAdam(SparseApplyAdam):
    """SparseApplyAdam on the rows ``indices`` only: the other rows of var, m and v stay as
    they are."""

    lazy = True


class FusedSparseAdam(SparseApplyAdam, _FusedSparse):
    """SparseApplyAdam with placeholder outputs: ``FusedSparseAdam(use_locking=False,
    use_nesterov=False)(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
    indices)``."""


class FusedSparseLazyAdam(SparseApplyLazyAdam, _FusedSparse):
    """SparseApplyLazyAdam with placeholder outputs."""


class FusedSparseFtrl(SparseApplyFtrl, _FusedSparse):
    """SparseApplyFtrl with placeholder outputs: ``FusedSparseFtrl(lr, l1, l2, lr_power)(var,
    accum, linear, grad, indices)``."""


class FusedSparseProximalAdagrad(SparseApplyProximalAdagrad, _FusedSparse):
    """SparseApplyProximalAdagrad with placeholder outputs:
    ``FusedSparseProximalAdagrad()(var, accum, lr, l1, l2, grad, indices)``."""
