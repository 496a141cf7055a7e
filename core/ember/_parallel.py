"""What the auto-parallel context asks of training: which modes ember runs, the data-parallel
degree, and where each process writes its files."""

from __future__ import annotations

import os
from typing import Any

#: The parallel modes ember runs; the others raise at the first compile or train.
SUPPORTED_MODES = ("stand_alone", "data_parallel", "hybrid_parallel")


def _get(key: str) -> object:
    from ember import context

    return context.get_auto_parallel_context(key)


def check_supported(api: str) -> None:
    """RuntimeError naming the setting when the context asks for parallelism ember lacks."""
    mode = _get("parallel_mode")
    if mode not in SUPPORTED_MODES:
        raise RuntimeError(
            f"{api}: parallel_mode={mode!r} is not supported by ember: it runs parallel_mode "
            f"{', '.join(map(repr, SUPPORTED_MODES))} (data parallel: gradients all-reduced "
            "across the processes of an MPI launch; model parallelism written by hand with "
            "the collective primitives of ember.ops)")
    for key, default in (("pipeline_stages", 1), ("enable_parallel_optimizer", False)):
        value = _get(key)
        if value != default:
            raise RuntimeError(f"{api}: {key}={value!r} is not supported by ember; it runs "
                               f"only {key}={default!r}")


def data_parallel() -> bool:
    """Whether the context asks for gradients all-reduced across processes."""
    return _get("parallel_mode") in SUPPORTED_MODES[1:]


def broadcast_parameters(cell: Any) -> None:
    """With parameter_broadcast, give every process rank 0's values of ``cell``'s parameters
    (before the first step, so that all start from the same ones)."""
    if not _get("parameter_broadcast"):
        return
    from ember.ops.operations.comm_ops import Broadcast

    params = tuple(cell.get_parameters())
    for param, value in zip(params, Broadcast(0)(params)):
        param.set_data(value)


def rank_label() -> str:
    """``rank_<id>`` when several processes train together, else empty."""
    return f"rank_{_get('global_rank')}" if _get("device_num") > 1 else ""  # type: ignore


def rank_directory(directory: str) -> str:
    """``directory/rank_<id>`` when several processes train together: one directory each."""
    label = rank_label()
    return os.path.join(directory, label) if label else directory
