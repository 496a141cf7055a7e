"""Ember: MindSpore 1.6's Python API on pluggable device backends."""

import os as _os

from ember import context, dump, nn, ops, profiler
from ember.common import dtype
from ember.common.dtype import (
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.seed import get_seed, set_seed
from ember.common.tensor import Tensor
from ember.context import GRAPH_MODE, PYNATIVE_MODE, ParallelMode, get_context, set_context
from ember.graph import jit, ms_function
from ember.profiler import Profiler
from ember.train import (
    DynamicLossScaleManager,
    FixedLossScaleManager,
    LossScaleManager,
    Model,
    load_checkpoint,
    load_param_into_net,
    save_checkpoint,
)
from ember.train.export import export
from ember.train.mindir import load
from ember.train.serialization import parse_print
from ember.version import __version__

__all__ = [
    "GRAPH_MODE", "PYNATIVE_MODE", "DynamicLossScaleManager", "FixedLossScaleManager",
    "LossScaleManager", "Model", "ParallelMode", "Parameter", "ParameterTuple", "Profiler",
    "Tensor", "__version__", "bool_", "context", "dtype", "export", "float16", "float32",
    "float64", "get_context", "get_seed", "int8", "int16", "int32", "int64", "jit",
    "load", "load_checkpoint", "load_param_into_net", "ms_function", "nn", "ops", "parse_print",
    "profiler", "save_checkpoint", "set_context", "set_seed", "uint8", "uint16", "uint32",
    "uint64",
]

if _os.environ.get(dump.ENV):  # MindSpore reads its dump configuration when it starts
    dump.start()
