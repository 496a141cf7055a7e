"""Tensors, parameters and dtypes (MindSpore's ``mindspore.common``).

The submodules are ``api``, ``dtype``, ``initializer``, ``parameter``, ``seed``, ``tensor`` and
``sparse_tensor``; their public names, and ``set_dump`` (of ``ember.dump``), are also reachable
here (``from ember.common import Tensor``), loaded on first use so that importing a submodule
stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "Tensor": "tensor", "Parameter": "parameter", "ParameterTuple": "parameter",
    "RowTensor": "sparse_tensor", "SparseTensor": "sparse_tensor",
    "CSRTensor": "sparse_tensor", "ms_function": "api", "ms_memory_recycle": "api",
    "set_seed": "seed", "get_seed": "seed", "initializer": "initializer",
    "set_dump": "ember.dump",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        dtype = importlib.import_module("ember.common.dtype")
        if isinstance(getattr(dtype, name, None), dtype.Type):
            return getattr(dtype, name)
        raise AttributeError(f"module 'ember.common' has no attribute '{name}'")
    return getattr(importlib.import_module(home if "." in home else f"ember.common.{home}"),
                   name)
