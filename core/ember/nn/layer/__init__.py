"""Layers, as ``mindspore.nn.layer``."""

from ember.nn.layer.activation import (
    GELU,
    LogSoftmax,
    ReLU,
    ReLU6,
    Sigmoid,
    Softmax,
    Tanh,
    get_activation,
)
from ember.nn.layer.basic import Dense, Dropout, Flatten
from ember.nn.layer.container import CellList, SequentialCell
from ember.nn.layer.conv import Conv2d
from ember.nn.layer.normalization import BatchNorm2d
from ember.nn.layer.pooling import AvgPool2d, MaxPool2d

__all__ = [
    "AvgPool2d", "BatchNorm2d", "CellList", "Conv2d", "Dense", "Dropout", "Flatten", "GELU",
    "LogSoftmax", "MaxPool2d", "ReLU", "ReLU6", "SequentialCell", "Sigmoid", "Softmax", "Tanh",
    "get_activation",
]
