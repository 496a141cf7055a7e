"""Optimizers, as ``mindspore.nn.optim``."""

from ember.nn.optim.adam import Adam, AdamWeightDecay
from ember.nn.optim.momentum import Momentum
from ember.nn.optim.optimizer import Optimizer
from ember.nn.optim.sgd import SGD

__all__ = ["SGD", "Adam", "AdamWeightDecay", "Momentum", "Optimizer"]
