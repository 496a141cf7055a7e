"""Operators, as ``mindspore.ops``: primitive classes, functional forms, composites."""

from ember.common import _tensor_methods
from ember.ops import composite, functional  # noqa: F401
from ember.ops.operations import *  # noqa: F403
from ember.ops.functional import *  # noqa: F403  (functional forms over the primitive instances)
from ember.ops.composite import *  # noqa: F403  (``ops.matmul`` is NumPy's, as in MindSpore)
from ember.ops.operations.debug_ops import HookBackward, Print  # noqa: F401
from ember.ops.primitive import (  # noqa: F401
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_attr_register,
)

_tensor_methods.install()  # Tensor operators and methods are made of these ops
