"""Layer-wise adaptive optimizers: ``Lamb`` and the ``LARS`` wrapper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.optim.adam import _check_betas
from ember.nn.optim.optimizer import Optimizer, _check_bool
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops.operations.optim_ops import assign

__all__ = ["LARS", "Lamb"]


def _norm(x: Tensor) -> Tensor:
    return F.sqrt(P.ReduceSum()(F.square(x), ()))


def _ratio(numerator: Tensor, denominator: Tensor, w_norm: Tensor, g_norm: Tensor) -> Tensor:
    """``numerator / denominator`` where both norms are positive, else 1."""
    ones = F.ones_like(w_norm)
    both = F.logical_and(F.greater(w_norm, 0.0), F.greater(g_norm, 0.0))
    return F.select(both, F.real_div(numerator, F.select(both, denominator, ones)), ones)


class Lamb(Optimizer):
    """LAMB: Adam's bias-corrected step ``u = m̂ / (sqrt(v̂) + eps)`` (plus
    ``weight_decay * param`` where weight decay applies), scaled per parameter by the trust
    ratio ``||param|| / ||u||`` (1 where a norm is 0; clipped to [0, 10]):
    ``param -= lr * ratio * u``. The state is ``lamb_m.<name>``, ``lamb_v.<name>`` and the
    powers ``beta1_power``, ``beta2_power``."""

    def __init__(self, params: Any, learning_rate: Any, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_betas("Lamb", beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self.parameters.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="lamb_v", init="zeros")
        self.beta1_power = Parameter(Tensor(np.ones([1], np.float32)), "beta1_power",
                                     requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.ones([1], np.float32)), "beta2_power",
                                     requires_grad=False)

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.gradients_centralization(gradients)
        lrs = self._each_lr(self.get_lr())
        b1_power = assign(self.beta1_power, F.mul(self.beta1_power, self.beta1))
        b2_power = assign(self.beta2_power, F.mul(self.beta2_power, self.beta2))
        decays = self.weight_decay if self.is_group else (self.weight_decay,) * len(lrs)
        out = []
        for p, m, v, lr, g, decay, flag in zip(self.parameters, self.moments1, self.moments2,
                                               lrs, gradients, decays, self.decay_flags):
            new_m = assign(m, F.add(F.mul(m, self.beta1), F.mul(g, 1.0 - self.beta1)))
            new_v = assign(v, F.add(F.mul(v, self.beta2), F.mul(F.square(g), 1.0 - self.beta2)))
            m_hat = F.real_div(new_m, F.sub(1.0, b1_power))
            v_hat = F.real_div(new_v, F.sub(1.0, b2_power))
            update = F.real_div(m_hat, F.add(F.sqrt(v_hat), self.eps))
            if flag and decay:
                update = F.add(update, F.mul(p, decay))
            w_norm, u_norm = _norm(p), _norm(update)
            ratio = F.minimum(F.maximum(_ratio(w_norm, u_norm, w_norm, _norm(g)), 0.0), 10.0)
            out.append(assign(p, F.sub(p, F.mul(F.mul(lr, ratio), update))))
        return tuple(out)


class LARS(Optimizer):
    """Layer-wise adaptive rate scaling around ``optimizer``, with ``LARSUpdate`` as MindSpore
    1.6: the gradient of each parameter that ``lars_filter`` keeps becomes
    ``ratio * (g + weight_decay * param)`` with ``ratio = coefficient * ||param|| / (||g|| +
    weight_decay * ||param|| + epsilon)`` (with ``use_clip``, ``clip(ratio / lr, 0, 1)``), the
    others are left as they are; then ``optimizer`` updates. LARS takes over the weight decay
    and the loss-scale division of ``optimizer``."""

    def __init__(self, optimizer: Optimizer, epsilon: float = 1e-05, coefficient: float = 0.001,
                 use_clip: bool = False,
                 lars_filter: Callable[[Parameter], bool] = lambda x: (
                     "LayerNorm" not in x.name and "bias" not in x.name)) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"LARS: optimizer must be an Optimizer, but got "
                            f"{type(optimizer).__name__}")
        for name, value in (("epsilon", epsilon), ("coefficient", coefficient)):
            if not isinstance(value, float):
                raise TypeError(f"LARS: {name} must be a float, but got {type(value).__name__}")
        super().__init__(0.0, optimizer.parameters)
        self.opt = optimizer
        self.use_clip = _check_bool("LARS", "use_clip", use_clip)
        self.lars = P.LARSUpdate(epsilon, coefficient, use_clip)
        self.square_sum = P.SquareSumAll()
        self.lars_flags = tuple(bool(lars_filter(p)) for p in self.parameters)
        decays = (optimizer.weight_decay if optimizer.is_group
                  else (optimizer.weight_decay,) * len(self.parameters))
        self.decays = tuple(d / optimizer.loss_scale if flag else 0.0
                            for d, flag in zip(decays, optimizer.decay_flags))
        self.reciprocal_scale, self.need_scale = optimizer.reciprocal_scale, optimizer.need_scale
        optimizer.exec_weight_decay = False  # LARS applies the decay
        optimizer.reciprocal_scale, optimizer.need_scale = 1.0, False  # and the loss scale

    def construct(self, gradients: tuple[Tensor, ...]) -> Any:
        if self.need_scale:
            gradients = tuple(F.mul(g, self.reciprocal_scale) for g in gradients)
        lrs = self.opt._each_lr(self.opt.get_lr() if self.opt.dynamic_lr
                                else self.opt.learning_rate)
        scaled = []
        for p, g, lr, decay, flag in zip(self.parameters, gradients, lrs, self.decays,
                                         self.lars_flags):
            if flag:
                w_square_sum, g_square_sum = self.square_sum(p, g)
                g = self.lars(p, g, w_square_sum, g_square_sum, decay, lr)
            scaled.append(g)
        return self.opt(tuple(scaled))
