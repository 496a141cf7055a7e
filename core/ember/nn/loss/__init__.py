"""Losses, as ``mindspore.nn.loss``."""

from ember.nn.loss.loss import (
    BCEWithLogitsLoss,
    L1Loss,
    LossBase,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)

__all__ = ["BCEWithLogitsLoss", "L1Loss", "LossBase", "MSELoss", "NLLLoss", "SmoothL1Loss",
           "SoftmaxCrossEntropyWithLogits"]
