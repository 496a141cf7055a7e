"""Operators, as ``mindspore.ops``: primitive classes, functional forms, composites."""

from ember.ops import functional  # noqa: F401
from ember.ops.composite import GradOperation  # noqa: F401
from ember.ops.functional import *  # noqa: F403
from ember.ops.operations import *  # noqa: F403
from ember.ops.operations.debug_ops import HookBackward, Print  # noqa: F401
from ember.ops.operations.optim_ops import ApplyMomentum, Assign, assign  # noqa: F401
from ember.ops.primitive import Primitive  # noqa: F401

from ember.common import _tensor_methods  # noqa: E402, I001  (methods are made of the ops above)

_tensor_methods.install()
