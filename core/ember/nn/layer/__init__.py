"""Layers, as ``mindspore.nn.layer``."""

from ember.nn.layer import (
    activation,
    basic,
    combined,
    container,
    conv,
    embedding,
    image,
    math,
    matrix,
    normalization,
    padding,
    pooling,
    rnns,
    timedistributed,
)
from ember.nn.layer.activation import *  # noqa: F403
from ember.nn.layer.basic import *  # noqa: F403
from ember.nn.layer.combined import *  # noqa: F403
from ember.nn.layer.container import *  # noqa: F403
from ember.nn.layer.conv import *  # noqa: F403
from ember.nn.layer.embedding import *  # noqa: F403
from ember.nn.layer.image import *  # noqa: F403
from ember.nn.layer.math import *  # noqa: F403
from ember.nn.layer.matrix import *  # noqa: F403
from ember.nn.layer.normalization import *  # noqa: F403
from ember.nn.layer.padding import *  # noqa: F403
from ember.nn.layer.pooling import *  # noqa: F403
from ember.nn.layer.rnns import *  # noqa: F403
from ember.nn.layer.timedistributed import *  # noqa: F403

__all__ = [name for module in (activation, basic, combined, container, conv, embedding, image,
                               math, matrix, normalization, padding, pooling, rnns,
                               timedistributed)
           for name in module.__all__]
