"""Ember: MindSpore 1.6's Python API on pluggable device backends."""

from ember import context
from ember.context import GRAPH_MODE, PYNATIVE_MODE, ParallelMode, get_context, set_context
from ember.version import __version__

__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "ParallelMode",
    "__version__",
    "context",
    "get_context",
    "set_context",
]
