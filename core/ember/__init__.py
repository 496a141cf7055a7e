"""Ember: MindSpore 1.6's Python API on pluggable device backends."""

import os as _os

from ember import common, context, dump, log, nn, ops, profiler
from ember.common import dtype
from ember.common.api import jit, ms_function, ms_memory_recycle
from ember.common.dtype import (
    Type,
    bool_,
    byte,
    double,
    dtype_to_nptype,
    dtype_to_pytype,
    float16,
    float32,
    float64,
    float_,
    get_py_obj_dtype,
    half,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    intp,
    issubclass_,
    pytype_to_dtype,
    short,
    single,
    tensor_type,
    ubyte,
    uint,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ushort,
)
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.seed import get_seed, set_seed
from ember.common.sparse_tensor import CSRTensor, RowTensor, SparseTensor
from ember.common.tensor import Tensor
from ember.context import (
    GRAPH_MODE,
    PYNATIVE_MODE,
    ParallelMode,
    get_auto_parallel_context,
    get_context,
    get_ps_context,
    reset_auto_parallel_context,
    reset_ps_context,
    set_auto_parallel_context,
    set_context,
    set_ps_context,
)
from ember.dump import set_dump
from ember.log import get_level, get_log_config
from ember.ops.function import grad, value_and_grad
from ember.profiler import Profiler
from ember.run_check import run_check
from ember.train import (
    DynamicLossScaleManager,
    FixedLossScaleManager,
    LossScaleManager,
    Model,
    amp,
    build_searched_strategy,
    build_train_network,
    export,
    load,
    load_checkpoint,
    load_param_into_net,
    merge_sliced_parameter,
    parse_print,
    save_checkpoint,
)
from ember.version import __version__

__all__ = [
    "GRAPH_MODE", "PYNATIVE_MODE", "DynamicLossScaleManager", "FixedLossScaleManager",
    "LossScaleManager", "Model", "ParallelMode", "Parameter", "ParameterTuple", "Profiler",
    "CSRTensor", "RowTensor", "SparseTensor", "Tensor", "Type", "__version__", "amp", "bool_",
    "build_searched_strategy", "build_train_network", "byte", "common", "context", "double",
    "dtype", "dtype_to_nptype", "dtype_to_pytype", "export", "float16", "float32", "float64",
    "float_",
    "get_auto_parallel_context", "get_context", "get_level", "get_log_config", "get_ps_context",
    "get_py_obj_dtype", "get_seed", "grad", "half", "int8", "int16", "int32", "int64", "int_",
    "intc", "intp", "issubclass_", "jit", "load", "load_checkpoint", "load_param_into_net",
    "log", "merge_sliced_parameter", "ms_function", "ms_memory_recycle", "nn", "ops",
    "parse_print", "profiler", "pytype_to_dtype",
    "reset_auto_parallel_context", "reset_ps_context", "run_check", "save_checkpoint",
    "set_auto_parallel_context", "set_context", "set_dump", "set_ps_context", "set_seed",
    "short", "single",
    "tensor_type", "ubyte", "uint", "uint8", "uint16", "uint32", "uint64", "uintc", "uintp",
    "ushort", "value_and_grad",
]

if _os.environ.get(dump.ENV):  # MindSpore reads its dump configuration when it starts
    dump.start()
