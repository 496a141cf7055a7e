"""Neural-network cells, as ``mindspore.nn``."""

from ember.nn.cell import Cell
from ember.nn.layer import *  # noqa: F403
from ember.nn.layer import __all__ as _layer_names
from ember.nn.loss import LossBase, SoftmaxCrossEntropyWithLogits
from ember.nn.metrics import (
    Accuracy,
    EvaluationBase,
    Loss,
    Metric,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    get_metric_fn,
    get_metrics,
    names,
    rearrange_inputs,
)
from ember.nn.optim import Momentum, Optimizer
from ember.nn.wrap import TrainOneStepCell, WithLossCell

__all__ = ["Accuracy", "Cell", "EvaluationBase", "Loss", "LossBase", "Metric", "Momentum",
           "Optimizer", "Precision", "Recall", "SoftmaxCrossEntropyWithLogits",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy",
           "TrainOneStepCell", "WithLossCell", "get_metric_fn", "get_metrics", "names",
           "rearrange_inputs", *_layer_names]
