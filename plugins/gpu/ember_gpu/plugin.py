"""Entry point of the GPU backend: declares it and creates its executors.

Importing this module imports no TensorFlow: the availability check and the hooks that create
executors do, when device_target "GPU" is first asked for.
"""

from __future__ import annotations

import importlib.metadata
import warnings
from typing import Any

from ember._options import CONTEXT
from ember.backend import BackendSpec, hookimpl

DEVICE_TARGET = "GPU"
DISTRIBUTION = "ember-gpu"


def check_available() -> str | None:
    from ember_gpu.device import unavailable_reason

    return unavailable_reason()


def details() -> dict[str, str]:
    """Where the backend runs and TensorFlow's version, read without importing TensorFlow."""
    from ember_gpu.device import ON_CPU_ENV, on_cpu_requested

    where = (f"TensorFlow's CPU device ({ON_CPU_ENV}=1), not a GPU" if on_cpu_requested()
             else "GPU device_id of the context")
    return {"runs on": where, "tensorflow": importlib.metadata.version("tensorflow")}


@hookimpl
def ember_backends() -> list[BackendSpec]:
    return [BackendSpec(DEVICE_TARGET, api_version="1.1", distribution=DISTRIBUTION,
                        priority=10, check_available=check_available, details=details)]


@hookimpl
def ember_eager_executor(device_target: str, context: dict[str, Any]) -> Any:
    if device_target != DEVICE_TARGET:
        return None
    return _executors(context)[int(context["pynative_synchronize"])]


@hookimpl
def ember_graph_executor(device_target: str, context: dict[str, Any]) -> Any:
    if device_target != DEVICE_TARGET:
        return None
    return _executors(context)[2]


def _executors(context: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(eager, eager synchronized, graph) executors on the device: made once, so switching
    modes back and forth keeps the graphs compiled for this backend."""
    global _EXECUTORS
    if _EXECUTORS is None:
        from ember_gpu import device
        from ember_gpu.executor import TfExecutor
        from ember_gpu.graph import GraphExecutor

        started = device.start(context)
        _EXECUTORS = (TfExecutor(started), TfExecutor(started, synchronize=True),
                      GraphExecutor(started))
    return _EXECUTORS


_EXECUTORS: tuple[Any, Any, Any] | None = None


@hookimpl
def ember_context_changed(device_target: str, changes: dict[str, Any]) -> None:
    """Refuse a change of what TensorFlow fixed when the device started (device_id,
    max_device_memory); apply the switches it can flip at any time; warn that
    mempool_block_size has no effect. Before the device starts nothing is imported: it reads
    the context when it starts."""
    if device_target != DEVICE_TARGET:
        return
    pool = CONTEXT["mempool_block_size"].default  # the one value TensorFlow agrees with
    if changes.get("mempool_block_size", pool) != pool:
        warnings.warn(
            f"set_context(mempool_block_size={changes['mempool_block_size']!r}) has no effect "
            "on device_target 'GPU': TensorFlow's allocator grows its pool in sizes of its "
            "own; max_device_memory bounds the pool", UserWarning, stacklevel=4)
    from ember_gpu import device

    started = device.current()
    if started is None:
        return
    for key, value in started.started_with.items():
        if key in changes and changes[key] != value:
            raise RuntimeError(
                f"set_context({key}={changes[key]!r}): the GPU backend started on {key}="
                f"{value!r}, and TensorFlow cannot change its devices or their memory once "
                f"it has started; set {key} before the first GPU operation of the process, "
                "or start a new process")
    device.apply_switches(changes)


@hookimpl
def ember_profiler_start(device_target: str, output_path: str) -> Any:
    if device_target != DEVICE_TARGET:
        return None
    from ember_gpu.device import import_tensorflow
    from ember_gpu.profiler import TfProfile

    return TfProfile(import_tensorflow())
