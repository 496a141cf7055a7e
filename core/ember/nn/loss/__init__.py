"""Losses, as ``mindspore.nn.loss``."""

from ember.nn.loss.loss import LossBase, SoftmaxCrossEntropyWithLogits

__all__ = ["LossBase", "SoftmaxCrossEntropyWithLogits"]
