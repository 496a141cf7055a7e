"""``Momentum``: stochastic gradient descent with momentum."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.optim.optimizer import Optimizer, _check_bool, _non_negative
from ember.ops.operations.optim_ops import ApplyMomentum


class Momentum(Optimizer):
    """``Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
    use_nesterov=False)``: ``moments = momentum * moments + gradient``, then
    ``param -= lr * moments`` (Nesterov: ``param -= lr * (gradient + momentum * moments)``).

    The gradients are first given weight decay, centralized where asked, and divided by
    ``loss_scale`` (see :class:`Optimizer`)."""

    def __init__(self, params: Any, learning_rate: Any, momentum: float,
                 weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = type(self).__name__
        self.momentum = Parameter(Tensor(_non_negative(owner, "momentum", momentum),
                                         mstype.float32), name="momentum", requires_grad=False)
        self.use_nesterov = _check_bool(owner, "use_nesterov", use_nesterov)
        self.params = self.parameters
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.opt = ApplyMomentum(use_nesterov=use_nesterov)

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lrs = self._each_lr(self.get_lr())
        opt, momentum = self.opt, self.momentum  # looked up once, not once per parameter
        return tuple(opt(p, m, lr, g, momentum)
                     for p, m, lr, g in zip(self.parameters, self.moments, lrs, gradients))
