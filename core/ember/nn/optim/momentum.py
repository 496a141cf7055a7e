"""``Momentum``: stochastic gradient descent with momentum."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.optim.optimizer import Optimizer, _non_negative
from ember.ops.operations.optim_ops import ApplyMomentum


class Momentum(Optimizer):
    """``Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
    use_nesterov=False)``: ``moment = momentum * moment + grad``; ``param -= lr * moment``."""

    def __init__(self, params: Iterable[Parameter], learning_rate: Any, momentum: float,
                 weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _non_negative("Momentum", "momentum", momentum)
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.apply_momentum = ApplyMomentum(use_nesterov=use_nesterov)

    def construct(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        gradients = self.prepare_gradients(gradients)
        lr = self.get_lr()
        return tuple(self.apply_momentum(p, m, lr, g, self.momentum)
                     for p, m, g in zip(self.parameters, self.moments, gradients))
