"""Helpers of MindSpore 1.6's ``ops._grad.grad_math_ops`` that registered rules use."""

from __future__ import annotations

from typing import Any

from ember.ops.operations.math_ops import sum_to


def binop_grad_common(x: Any, y: Any, dx: Any, dy: Any) -> tuple:
    """The gradients of a broadcasting binary op's inputs: ``dx`` and ``dy`` summed back to
    the shapes of ``x`` and ``y``."""
    return sum_to(dx, tuple(x.shape)), sum_to(dy, tuple(y.shape))
