"""Operators, as ``mindspore.ops``: primitive classes, functional forms, composites."""

from ember.common import _tensor_methods
from ember.ops import functional  # noqa: F401
from ember.ops.composite import GradOperation  # noqa: F401
from ember.ops.functional import *  # noqa: F403
from ember.ops.operations import *  # noqa: F403
from ember.ops.operations.debug_ops import HookBackward, Print  # noqa: F401
from ember.ops.primitive import Primitive  # noqa: F401

_tensor_methods.install()  # Tensor operators and methods are made of these ops
