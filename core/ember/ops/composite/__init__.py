"""Composite operations, as ``mindspore.ops.composite`` (imported as ``C``)."""

from ember.ops.composite.base import HyperMap, Map, MultitypeFuncGraph, add_flags, core
from ember.ops.composite.grad import GradOperation
from ember.ops.composite.math import (
    batch_dot,
    clip_by_global_norm,
    clip_by_value,
    count_nonzero,
    dot,
    matmul,
    repeat_elements,
    sequence_mask,
    tensor_dot,
)

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "add_flags",
           "batch_dot", "clip_by_global_norm", "clip_by_value", "core", "count_nonzero", "dot",
           "matmul", "repeat_elements", "sequence_mask", "tensor_dot"]
