"""Primitive classes, as ``mindspore.ops.operations`` (imported as ``P``)."""

from ember.ops.operations.activation_ops import *  # noqa: F403
from ember.ops.operations.array_ops import *  # noqa: F403
from ember.ops.operations.dynamic_ops import *  # noqa: F403
from ember.ops.operations.elementwise_ops import *  # noqa: F403
from ember.ops.operations.index_ops import *  # noqa: F403
from ember.ops.operations.math_ops import *  # noqa: F403
from ember.ops.operations.nn_ops import *  # noqa: F403
from ember.ops.operations.norm_ops import *  # noqa: F403
from ember.ops.operations.optim_ops import *  # noqa: F403
from ember.ops.operations.reduce_ops import *  # noqa: F403
from ember.ops.operations.scatter_ops import *  # noqa: F403
from ember.ops.operations.spatial_ops import *  # noqa: F403
