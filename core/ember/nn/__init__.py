"""Neural-network cells, as ``mindspore.nn``."""

from ember.nn.cell import Cell
from ember.nn.layer import *  # noqa: F403
from ember.nn.layer import __all__ as _layer_names
from ember.nn.loss import LossBase, SoftmaxCrossEntropyWithLogits
from ember.nn.optim import Momentum, Optimizer
from ember.nn.wrap import TrainOneStepCell, WithLossCell

__all__ = ["Cell", "LossBase", "Momentum", "Optimizer", "SoftmaxCrossEntropyWithLogits",
           "TrainOneStepCell", "WithLossCell", *_layer_names]
