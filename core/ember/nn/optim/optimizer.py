"""``Optimizer``: the base of the optimizers, as ``mindspore.nn.Optimizer``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F


def _non_negative(owner: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{owner}: {name} must be a float, but got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{owner}: {name} must be >= 0, but got {value}")
    return float(value)


class Optimizer(Cell):
    """Updates ``parameters`` from their gradients: ``optimizer(gradients)``.

    ``learning_rate`` is a float or a scalar Tensor. ``weight_decay`` adds
    ``weight_decay * parameter`` to the gradient of every parameter except BatchNorm's gamma
    and beta and biases (as MindSpore's default filter); ``loss_scale`` divides the gradients.
    """

    def __init__(self, learning_rate: Any, parameters: Iterable[Parameter],
                 weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        owner = type(self).__name__
        params = list(parameters)
        if not params:
            raise ValueError(f"{owner}: parameters is empty; pass net.trainable_params()")
        self.parameters = ParameterTuple(params)
        if isinstance(learning_rate, Tensor):
            if learning_rate.size != 1:
                raise ValueError(f"{owner}: learning_rate must be a scalar, but has shape "
                                 f"{list(learning_rate.shape)}")
            learning_rate = learning_rate.item()
        self.learning_rate = Parameter(
            Tensor(_non_negative(owner, "learning_rate", learning_rate), mstype.float32),
            name="learning_rate", requires_grad=False)
        self.weight_decay = _non_negative(owner, "weight_decay", weight_decay)
        self.loss_scale = _non_negative(owner, "loss_scale", loss_scale)
        if self.loss_scale == 0:
            raise ValueError(f"{owner}: loss_scale must be > 0, but got 0")
        self.decay_flags = tuple(
            not any(key in p.name for key in ("beta", "gamma", "bias")) for p in params)

    def get_lr(self) -> Parameter:
        """The learning rate in effect for this step."""
        return self.learning_rate

    def prepare_gradients(self, gradients: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        """Apply weight decay and undo loss scaling, as every optimizer does first."""
        if len(gradients) != len(self.parameters):
            raise ValueError(f"{type(self).__name__}: got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters")
        result = []
        for param, grad, decay in zip(self.parameters, gradients, self.decay_flags):
            if self.loss_scale != 1.0:
                grad = F.mul(grad, np.float32(1.0 / self.loss_scale).item())
            if self.weight_decay and decay:
                grad = F.add(grad, F.mul(param, self.weight_decay))
            result.append(grad)
        return tuple(result)
