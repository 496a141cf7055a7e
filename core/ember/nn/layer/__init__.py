"""Layers, as ``mindspore.nn.layer``."""

from ember.nn.layer import activation, basic, container, conv, normalization, pooling
from ember.nn.layer.activation import *  # noqa: F403
from ember.nn.layer.basic import *  # noqa: F403
from ember.nn.layer.container import *  # noqa: F403
from ember.nn.layer.conv import *  # noqa: F403
from ember.nn.layer.normalization import *  # noqa: F403
from ember.nn.layer.pooling import *  # noqa: F403

__all__ = [*activation.__all__, *basic.__all__, *container.__all__, *conv.__all__,
           *normalization.__all__, *pooling.__all__]
