"""Optimizers, as ``mindspore.nn.optim``."""

from ember.nn.optim.adafactor import AdaFactor
from ember.nn.optim.adam import Adam, AdamOffload, AdamWeightDecay, LazyAdam
from ember.nn.optim.adaptive import FTRL, Adagrad, ProximalAdagrad, RMSProp
from ember.nn.optim.asgd import ASGD
from ember.nn.optim.lamb import LARS, Lamb
from ember.nn.optim.momentum import Momentum
from ember.nn.optim.optimizer import Optimizer
from ember.nn.optim.rprop import Rprop
from ember.nn.optim.sgd import SGD

__all__ = ["ASGD", "FTRL", "LARS", "SGD", "AdaFactor", "Adagrad", "Adam", "AdamOffload",
           "AdamWeightDecay", "Lamb", "LazyAdam", "Momentum", "Optimizer", "ProximalAdagrad",
           "RMSProp", "Rprop"]
