"""Neural-network cells, as ``mindspore.nn``."""

from ember.nn.cell import Cell
from ember.nn.dynamic_lr import (
    cosine_decay_lr,
    exponential_decay_lr,
    inverse_decay_lr,
    natural_exp_decay_lr,
    piecewise_constant_lr,
    polynomial_decay_lr,
    warmup_lr,
)
from ember.nn.layer import *  # noqa: F403
from ember.nn.layer import __all__ as _layer_names
from ember.nn.learning_rate_schedule import (
    CosineDecayLR,
    ExponentialDecayLR,
    InverseDecayLR,
    LearningRateSchedule,
    NaturalExpDecayLR,
    PolynomialDecayLR,
    WarmUpLR,
)
from ember.nn.loss import (
    BCEWithLogitsLoss,
    L1Loss,
    LossBase,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)
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
from ember.nn.optim import SGD, Adam, AdamWeightDecay, Momentum, Optimizer
from ember.nn.wrap import (
    DistributedGradReducer,
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepCell,
    TrainOneStepWithLossScaleCell,
    WithEvalCell,
    WithLossCell,
)

__all__ = [
    "Accuracy", "Adam", "AdamWeightDecay", "BCEWithLogitsLoss", "Cell", "CosineDecayLR",
    "DistributedGradReducer", "DynamicLossScaleUpdateCell", "EvaluationBase", "ExponentialDecayLR",
    "FixedLossScaleUpdateCell", "InverseDecayLR", "L1Loss", "LearningRateSchedule", "Loss",
    "LossBase", "MSELoss", "Metric", "Momentum", "NLLLoss", "NaturalExpDecayLR", "Optimizer",
    "PolynomialDecayLR", "Precision", "Recall", "SGD", "SmoothL1Loss",
    "SoftmaxCrossEntropyWithLogits", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
    "TopKCategoricalAccuracy", "TrainOneStepCell", "TrainOneStepWithLossScaleCell", "WarmUpLR",
    "WithEvalCell", "WithLossCell", "cosine_decay_lr", "exponential_decay_lr", "get_metric_fn",
    "get_metrics", "inverse_decay_lr", "names", "natural_exp_decay_lr", "piecewise_constant_lr",
    "polynomial_decay_lr", "rearrange_inputs", "warmup_lr", *_layer_names,
]
