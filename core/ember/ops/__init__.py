"""Operators, as ``mindspore.ops``: primitive classes, functional forms, composites."""

from ember.ops import functional
from ember.ops.composite import GradOperation
from ember.ops.functional import *  # noqa: F403
from ember.ops.operations import *  # noqa: F403
from ember.ops.operations.debug_ops import HookBackward, Print
from ember.ops.operations.optim_ops import ApplyMomentum, Assign, assign
from ember.ops.primitive import Primitive

from ember.common import _tensor_methods  # noqa: E402  (methods are made of the ops above)

_tensor_methods.install()
