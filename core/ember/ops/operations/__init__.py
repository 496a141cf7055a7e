"""Primitive classes, as ``mindspore.ops.operations`` (imported as ``P``)."""

from ember.ops.operations.activation_ops import *  # noqa: F403
from ember.ops.operations.apply_ops import *  # noqa: F403
from ember.ops.operations.array_ops import *  # noqa: F403
from ember.ops.operations.cache_ops import *  # noqa: F403
from ember.ops.operations.comm_ops import *  # noqa: F403
from ember.ops.operations.conv_ops import *  # noqa: F403
from ember.ops.operations.ctc_ops import *  # noqa: F403
from ember.ops.operations.debug_ops import (  # noqa: F401
    Assert, HookBackward, InsertGradientOf, Print, PyFunc)
from ember.ops.operations.dropout_ops import *  # noqa: F403
from ember.ops.operations.dynamic_ops import *  # noqa: F403
from ember.ops.operations.elementwise_ops import *  # noqa: F403
from ember.ops.operations.fold_ops import *  # noqa: F403
from ember.ops.operations.fused_optim_ops import *  # noqa: F403
from ember.ops.operations.image_ops import *  # noqa: F403
from ember.ops.operations.index_add_ops import *  # noqa: F403
from ember.ops.operations.index_ops import *  # noqa: F403
from ember.ops.operations.inplace_ops import *  # noqa: F403
from ember.ops.operations.layout_ops import *  # noqa: F403
from ember.ops.operations.linalg_ops import *  # noqa: F403
from ember.ops.operations.loss_ops import *  # noqa: F403
from ember.ops.operations.math_ops import *  # noqa: F403
from ember.ops.operations.nn_ops import *  # noqa: F403
from ember.ops.operations.norm_ops import *  # noqa: F403
from ember.ops.operations.optim_ops import *  # noqa: F403
from ember.ops.operations.pnorm_ops import *  # noqa: F403
from ember.ops.operations.quant_ops import *  # noqa: F403
from ember.ops.operations.random_ops import *  # noqa: F403
from ember.ops.operations.reduce_ops import *  # noqa: F403
from ember.ops.operations.rnn_ops import *  # noqa: F403
from ember.ops.operations.roi_ops import *  # noqa: F403
from ember.ops.operations.scatter_ops import *  # noqa: F403
from ember.ops.operations.search_ops import *  # noqa: F403
from ember.ops.operations.sequence_ops import *  # noqa: F403
from ember.ops.operations.sparse_ops import *  # noqa: F403
from ember.ops.operations.spatial_ops import *  # noqa: F403
from ember.ops.operations.special_ops import *  # noqa: F403
from ember.ops.operations.summary_ops import *  # noqa: F403
from ember.ops.operations.topk_ops import *  # noqa: F403
from ember.ops.operations.value_ops import *  # noqa: F403

# MindSpore 1.x's deprecated names of primitives, kept by 1.6 beside the new ones.
Pack = Stack  # noqa: F405
Gelu = GeLU  # noqa: F405
FastGelu = FastGeLU  # noqa: F405
GatherV2 = Gather  # noqa: F405

from ember.ops.operations import _inner_ops, _quant_ops  # noqa: E402, F401  (1.6's modules)
