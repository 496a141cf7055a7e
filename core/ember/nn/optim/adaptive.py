"""Adaptive optimizers written with primitives: ``Adagrad``, ``ProximalAdagrad``, ``RMSProp``,
``FTRL``. Each update computes the new state and parameters and assigns them in place."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.optim.optimizer import Optimizer, _check_bool, _non_negative
from ember.ops import functional as F
from ember.ops.operations.optim_ops import assign

__all__ = ["Adagrad", "FTRL", "ProximalAdagrad", "RMSProp"]


def _either(flag: Tensor, x: Any, y: Any) -> Any:
    """``x`` where the 0-d float ``flag`` is 1, else ``y`` (exactly: one of them is scaled by
    0 and the other by 1)."""
    return F.add(F.mul(flag, x), F.mul(F.sub(1.0, flag), y))


def _fp32(x: Tensor) -> Tensor:
    return x if x.dtype is mstype.float32 else F.cast(x, mstype.float32)


class _Rule(Optimizer):
    """An optimizer whose update of one parameter is ``_update(param, lr, grad, *state)``,
    after weight decay, gradient centralization and loss-scale division."""

    state_names: tuple[str, ...] = ()

    def _init_state(self, **inits: Any) -> None:
        for prefix, init in inits.items():
            setattr(self, prefix, self.parameters.clone(prefix=prefix, init=init))
        self.state_names = tuple(inits)

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(gradients)))
        lrs = self._each_lr(self.get_lr())
        states = [getattr(self, n) for n in self.state_names]
        return tuple(self._update(p, lr, g, *s)
                     for p, lr, g, *s in zip(self.parameters, lrs, gradients, *states))


class Adagrad(_Rule):
    """``accum += g²``; ``param -= lr * g / sqrt(accum)``; ``accum`` starts at ``accum``."""

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001,
                 update_slots: bool = True, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.update_slots = _check_bool("Adagrad", "update_slots", update_slots)
        self._init_state(accum=float(_non_negative("Adagrad", "accum", accum)))

    def _update(self, p: Tensor, lr: Any, g: Tensor, accum: Tensor) -> Tensor:
        new_accum = F.add(accum, F.square(g)) if self.update_slots else accum
        assign(accum, new_accum)
        return assign(p, F.sub(p, F.mul(lr, F.real_div(g, F.sqrt(new_accum)))))


class ProximalAdagrad(_Rule):
    """Adagrad followed by the proximal step of l1/l2 regularization:
    ``accum += g²``, ``v = param - lr * g / sqrt(accum)``,
    ``param = sign(v) * max(|v| - lr * l1, 0) / (1 + lr * l2)``."""

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False,
                 loss_scale: float = 1.0, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = "ProximalAdagrad"
        self.l1 = float(_non_negative(owner, "l1", l1))
        self.l2 = float(_non_negative(owner, "l2", l2))
        self.use_locking = _check_bool(owner, "use_locking", use_locking)
        self._init_state(accum=float(_non_negative(owner, "accum", accum)))

    def _update(self, p: Tensor, lr: Any, g: Tensor, accum: Tensor) -> Tensor:
        new_accum = F.add(accum, F.square(g))
        assign(accum, new_accum)
        v = F.sub(p, F.mul(lr, F.real_div(g, F.sqrt(new_accum))))
        shrunk = F.maximum(F.sub(F.abs(v), F.mul(lr, self.l1)), 0.0)
        return assign(p, F.real_div(F.mul(F.sign(v), shrunk), F.add(F.mul(lr, self.l2), 1.0)))


class RMSProp(_Rule):
    """``ms = decay * ms + (1 - decay) * g²``; ``mom = momentum * mom + lr * g / sqrt(ms +
    epsilon)`` (centered: ``sqrt(ms - mg² + epsilon)`` with ``mg`` the mean gradient);
    ``param -= mom``. The state is ``mean_square`` (from 1), ``moment`` and ``mean_grad``."""

    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9,
                 momentum: float = 0.0, epsilon: float = 1e-10, use_locking: bool = False,
                 centered: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = "RMSProp"
        for name, value in (("decay", decay), ("momentum", momentum), ("epsilon", epsilon)):
            if not isinstance(value, float):  # MindSpore takes floats only here
                raise TypeError(f"RMSProp: {name} must be a float, but got {value!r}")
        self.decay = _non_negative(owner, "decay", decay)
        self.momentum = _non_negative(owner, "momentum", momentum)
        self.epsilon = epsilon
        if not self.epsilon > 0:
            raise ValueError(f"RMSProp: epsilon must be > 0, but got {epsilon!r}")
        self.use_locking = _check_bool(owner, "use_locking", use_locking)
        self.centered = _check_bool(owner, "centered", centered)
        states = {"mean_square": "ones", "moment": "zeros"}
        self._init_state(**states, **({"mean_grad": "zeros"} if centered else {}))

    def _update(self, p: Tensor, lr: Any, g: Tensor, ms: Tensor, mom: Tensor,
                mg: Tensor | None = None) -> Tensor:
        new_ms = F.add(F.mul(ms, self.decay), F.mul(F.square(g), 1.0 - self.decay))
        assign(ms, new_ms)
        denominator = new_ms
        if mg is not None:
            new_mg = F.add(F.mul(mg, self.decay), F.mul(g, 1.0 - self.decay))
            assign(mg, new_mg)
            denominator = F.sub(new_ms, F.square(new_mg))
        step = F.real_div(F.mul(lr, g), F.sqrt(F.add(denominator, self.epsilon)))
        new_mom = F.add(F.mul(mom, self.momentum), step)
        assign(mom, new_mom)
        return assign(p, F.sub(p, new_mom))


class FTRL(_Rule):
    """Follow-the-regularized-leader: with ``n = accum + g²``, ``linear += g - (n^-lr_power -
    accum^-lr_power) / lr * param``; ``param = (sign(linear) * l1 - linear) / (n^-lr_power / lr
    + 2 * l2)`` where ``|linear| > l1``, else 0; ``accum = n``. The state is ``moments`` (the
    accumulators, from ``initial_accum``) and ``linear``."""

    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: Any = 0.001,
                 lr_power: float = -0.5, l1: float = 0.0, l2: float = 0.0,
                 use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = "FTRL"
        if isinstance(lr_power, bool) or not isinstance(lr_power, int | float) or lr_power > 0:
            raise ValueError(f"FTRL: lr_power must be a number <= 0, but got {lr_power!r}")
        self.lr_power = float(lr_power)
        self.l1 = float(_non_negative(owner, "l1", l1))
        self.l2 = float(_non_negative(owner, "l2", l2))
        self.use_locking = _check_bool(owner, "use_locking", use_locking)
        self._init_state(moments=float(_non_negative(owner, "initial_accum", initial_accum)),
                         linear="zeros")

    def _update(self, p: Tensor, lr: Any, g: Tensor, accum: Tensor, linear: Tensor) -> Tensor:
        new_accum = F.add(accum, F.square(g))
        power_new = F.pow(new_accum, -self.lr_power)
        sigma = F.real_div(F.sub(power_new, F.pow(accum, -self.lr_power)), lr)
        new_linear = F.sub(F.add(linear, g), F.mul(sigma, p))
        quadratic = F.add(F.real_div(power_new, lr), 2.0 * self.l2)
        value = F.real_div(F.sub(F.mul(F.sign(new_linear), self.l1), new_linear), quadratic)
        assign(accum, new_accum)
        assign(linear, new_linear)
        keep = F.greater(F.abs(new_linear), self.l1)
        return assign(p, F.select(keep, value, F.zeros_like(value)))
