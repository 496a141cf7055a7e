"""``Adam`` and ``AdamWeightDecay``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.optim.optimizer import Optimizer, _check_bool
from ember.ops import functional as F
from ember.ops.operations.optim_ops import Adam as ApplyAdam
from ember.ops.operations.optim_ops import AdamWeightDecay as ApplyAdamWeightDecay
from ember.ops.operations.optim_ops import assign


def _check_betas(owner: str, beta1: Any, beta2: Any, eps: Any) -> None:
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if not isinstance(value, float):
            raise TypeError(f"{owner}: {name} must be a float, but got {type(value).__name__}")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"{owner}: {name} must be in (0.0, 1.0), but got {value}")
    if not eps > 0.0:
        raise ValueError(f"{owner}: eps must be > 0, but got {eps}")


class Adam(Optimizer):
    """``Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0)``: ``m = beta1 * m + (1 - beta1) *
    g``, ``v = beta2 * v + (1 - beta2) * g * g``, ``l = lr * sqrt(1 - beta2 ** t) / (1 - beta1
    ** t)``, ``param -= l * m / (sqrt(v) + eps)``.

    The state is ``moment1.<name>``, ``moment2.<name>`` and the powers ``beta1_power``,
    ``beta2_power`` (``beta ** t``). The gradients are first given weight decay, centralized
    where asked and divided by ``loss_scale`` (see :class:`Optimizer`)."""

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8, use_locking: bool = False,
                 use_nesterov: bool = False, weight_decay: float = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = type(self).__name__
        _check_betas(owner, beta1, beta2, eps)
        self.use_locking = _check_bool(owner, "use_locking", use_locking)
        self.use_nesterov = _check_bool(owner, "use_nesterov", use_nesterov)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.eps = Tensor(eps, mstype.float32)
        self.beta1_power = Parameter(Tensor(np.ones([1], np.float32)), name="beta1_power",
                                     requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.ones([1], np.float32)), name="beta2_power",
                                     requires_grad=False)
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")
        self.opt = ApplyAdam(use_locking, use_nesterov)

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lrs = self._each_lr(self.get_lr())
        beta1_power = F.mul(self.beta1_power, self.beta1)
        assign(self.beta1_power, beta1_power)
        beta2_power = F.mul(self.beta2_power, self.beta2)
        assign(self.beta2_power, beta2_power)
        return tuple(self.opt(p, m, v, beta1_power, beta2_power, lr, self.beta1, self.beta2,
                              self.eps, g)[0]
                     for p, m, v, lr, g in zip(self.parameters, self.moment1, self.moment2,
                                               lrs, gradients))


class AdamWeightDecay(Optimizer):
    """``AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
    weight_decay=0.0)``: Adam with decoupled weight decay and no bias correction:
    ``m = beta1 * m + (1 - beta1) * g``, ``v = beta2 * v + (1 - beta2) * g * g``,
    ``param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)``, the decay term only where
    weight decay applies (see :class:`Optimizer`). The state is ``adam_m.<name>`` and
    ``adam_v.<name>``."""

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-6, weight_decay: float = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(type(self).__name__, beta1, beta2, eps)
        self.beta1 = Tensor(np.array([beta1], np.float32))
        self.beta2 = Tensor(np.array([beta2], np.float32))
        self.eps = Tensor(np.array([eps], np.float32))
        self.moments1 = self.parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="adam_v", init="zeros")
        self.opt = ApplyAdamWeightDecay()

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.gradients_centralization(gradients)
        lrs = self._each_lr(self.get_lr())
        decays = self.weight_decay if self.is_group else (self.weight_decay,) * len(lrs)
        return tuple(self.opt(p, m, v, lr, self.beta1, self.beta2, self.eps,
                              decay if flag else 0.0, g)[0]
                     for p, m, v, lr, decay, flag, g in zip(
                         self.parameters, self.moments1, self.moments2, lrs, decays,
                         self.decay_flags, gradients))


class LazyAdam(Adam):
    """Adam that, for sparse (row) gradients, updates only the rows given; with the dense
    gradients ember computes it is Adam, state names included."""


class AdamOffload(Adam):
    """Adam whose update MindSpore runs on the host CPU to save device memory; ember runs
    every update where the parameters live, so it is Adam."""
