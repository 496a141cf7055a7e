"""``mindspore.parallel._utils``: helpers of MindSpore's parallel tests and training code."""

from __future__ import annotations

__all__ = ["_reset_op_id"]


def _reset_op_id() -> None:
    """Number the operators of the next compiled graph from 0 (their scope names end in
    ``-op0``, ``-op1``...). Ember numbers the operators of every graph it traces from 0, so
    this holds without a counter to reset."""
