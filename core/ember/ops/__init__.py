"""Operators, as ``mindspore.ops``: primitive classes, functional forms, composites."""

from ember.common import _tensor_methods
from ember.ops import composite, functional  # noqa: F401
from ember.ops.operations import *  # noqa: F403
from ember.ops.operations.debug_ops import HookBackward, InsertGradientOf, Print  # noqa: F401
from ember.ops.primitive import (  # noqa: F401
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_attr_register,
)

# isort: split
# The functional forms replace the primitive instances of the same name (``ops.softmax(x,
# axis)``), and the composites the functional forms (``ops.matmul`` is NumPy's, as MindSpore's).
from ember.ops.functional import *  # noqa: E402, F403

# isort: split
from ember.ops.composite import *  # noqa: E402, F403

_tensor_methods.install()  # Tensor operators and methods are made of these ops
