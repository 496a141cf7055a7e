"""Losses, as ``mindspore.nn.loss``."""

from ember.nn.loss import distance, probability, sampled
from ember.nn.loss.distance import *  # noqa: F403
from ember.nn.loss.loss import (
    BCEWithLogitsLoss,
    L1Loss,
    LossBase,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    SoftmaxCrossEntropyWithLogits,
)
from ember.nn.loss.probability import *  # noqa: F403
from ember.nn.loss.sampled import *  # noqa: F403

__all__ = ["BCEWithLogitsLoss", "L1Loss", "LossBase", "MSELoss", "NLLLoss", "SmoothL1Loss",
           "SoftMarginLoss", "SoftmaxCrossEntropyWithLogits", *distance.__all__,
           *probability.__all__, *sampled.__all__]
