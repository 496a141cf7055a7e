"""Optimizers, as ``mindspore.nn.optim``."""

from ember.nn.optim.momentum import Momentum
from ember.nn.optim.optimizer import Optimizer

__all__ = ["Momentum", "Optimizer"]
