"""Functional forms of the primitives (``ops.add(x, y)``), as ``mindspore.ops.functional``."""

from ember.ops.operations.array_ops import broadcast_to, reshape  # noqa: F401
from ember.ops.operations.math_ops import (  # noqa: F401
    add,
    cast,
    mul,
    neg,
    ones_like,
    real_div,
    reduce_sum,
    sub,
    sum_to,
    zeros_like,
)
