"""Primitive classes, as ``mindspore.ops.operations`` (imported as ``P``)."""

from ember.ops.operations.activation_ops import *  # noqa: F403
from ember.ops.operations.apply_ops import *  # noqa: F403
from ember.ops.operations.array_ops import *  # noqa: F403
from ember.ops.operations.conv_ops import *  # noqa: F403
from ember.ops.operations.ctc_ops import *  # noqa: F403
from ember.ops.operations.loss_ops import *  # noqa: F403
from ember.ops.operations.math_ops import *  # noqa: F403
from ember.ops.operations.nn_ops import *  # noqa: F403
from ember.ops.operations.norm_ops import *  # noqa: F403
from ember.ops.operations.optim_ops import *  # noqa: F403
from ember.ops.operations.roi_ops import *  # noqa: F403
from ember.ops.operations.spatial_ops import *  # noqa: F403
from ember.ops.operations.topk_ops import *  # noqa: F403
