"""Primitive classes, as ``mindspore.ops.operations`` (imported as ``P``)."""

from ember.ops.operations.array_ops import *  # noqa: F403
from ember.ops.operations.comm_ops import *  # noqa: F403
from ember.ops.operations.math_ops import *  # noqa: F403
from ember.ops.operations.nn_ops import *  # noqa: F403
from ember.ops.operations.optim_ops import *  # noqa: F403
