"""Entry point of the CPU backend: declares it and creates its executors."""

from __future__ import annotations

from ember.backend import BackendSpec, hookimpl

DEVICE_TARGET = "CPU"


@hookimpl
def ember_backends() -> list[BackendSpec]:
    return [BackendSpec(DEVICE_TARGET, api_version="1.2", distribution="ember-cpu", priority=0,
                        details=lambda: {"runs on": "the host CPU, with NumPy"})]



@hookimpl
def ember_eager_executor(device_target: str, context: dict) -> object | None:
    if device_target != DEVICE_TARGET:
        return None
    from ember_cpu.executor import NumpyExecutor
    from ember_cpu.memory import keep_freed_memory
    from ember_cpu.threads import hold_blas

    keep_freed_memory()
    hold_blas()
    return NumpyExecutor()


@hookimpl
def ember_graph_executor(device_target: str, context: dict) -> object | None:
    if device_target != DEVICE_TARGET:
        return None
    from ember_cpu.graph import GraphExecutor
    from ember_cpu.memory import keep_freed_memory
    from ember_cpu.threads import hold_blas

    keep_freed_memory()
    hold_blas()
    return GraphExecutor()


@hookimpl
def ember_profiler_start(device_target: str, output_path: str) -> object | None:
    if device_target != DEVICE_TARGET:
        return None
    from ember_cpu.profiler import HostProfile

    return HostProfile()


@hookimpl
def ember_communicator(device_target: str) -> object | None:
    if device_target != DEVICE_TARGET:
        return None
    from ember_cpu.communicator import world

    return world()
