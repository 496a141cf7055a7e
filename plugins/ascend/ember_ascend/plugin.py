"""Entry point of the Ascend backend: declares it, creates its executors, applies the context.

Importing this module loads no CANN library: the availability check and the hooks that create
executors do, when device_target "Ascend" is first asked for.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

from ember._options import CONTEXT
from ember.backend import BackendSpec, hookimpl

DEVICE_TARGET = "Ascend"
DISTRIBUTION = "ember-ascend"
#: The context keys fixed when the device starts (aclInit and aclrtSetDevice run once).
FIXED_AT_START = ("device_id", "enable_dump", "save_dump_path")
#: profiling_options keys: the aclprof data-type bits they switch on.
PROFILING_SWITCHES = {"training_trace": "training_trace", "task_trace": "task_time",
                      "aicpu": "aicpu"}


def check_available() -> str | None:
    from ember_ascend.device import unavailable_reason

    return unavailable_reason()


def details() -> dict[str, str]:
    """What ``python -m ember info`` shows: where the backend runs (it says when a test double
    is in place of CANN), without loading CANN."""
    from importlib.metadata import version

    from ember_ascend import cann, driver

    loaded = driver.installed()
    if loaded is not None:
        where = loaded.describe()
    else:
        found = cann.find()
        where = f"CANN at {found.home} (not loaded yet)" if found else "no CANN found"
    return {"runs on": where, "ember-ascend": version(DISTRIBUTION)}


@hookimpl
def ember_backends() -> list[BackendSpec]:
    return [BackendSpec(DEVICE_TARGET, api_version="1.1", distribution=DISTRIBUTION,
                        priority=20, check_available=check_available, details=details)]


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


@hookimpl
def ember_communicator(device_target: str) -> Any:
    """HCCL for reductions, MPI (the CPU backend's communicator) for the rest."""
    if device_target != DEVICE_TARGET:
        return None
    from ember import context
    from ember_ascend import device
    from ember_ascend.communicator import world

    return world(device.start(context._current_values()))


_EXECUTORS: tuple[Any, Any, Any] | None = None


def _executors(context: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(eager, eager synchronized, graph) executors on the device, made once."""
    global _EXECUTORS
    if _EXECUTORS is None:
        from ember_ascend import device
        from ember_ascend.executor import AscendExecutor
        from ember_ascend.graph import GraphExecutor

        started = device.start(context)
        _EXECUTORS = (AscendExecutor(started), AscendExecutor(started, synchronize=True),
                      GraphExecutor(started))
    return _EXECUTORS


def profiling_request(options: str) -> dict[str, Any]:
    """``profiling_options`` (JSON the core has validated) as aclprof's AI Core metrics and
    data-type mask: API calls always, the switches that are "on", and the metrics."""
    from ember_ascend.driver import PROF_BITS, PROF_METRICS

    parsed = json.loads(options) if options else {}
    mask = PROF_BITS["acl_api"] | PROF_BITS["aicore_metrics"]
    for key, bit in PROFILING_SWITCHES.items():
        if parsed.get(key) == "on":
            mask |= PROF_BITS[bit]
    return {"metrics": PROF_METRICS[parsed.get("aic_metrics", "PipeUtilization")], "mask": mask}


@hookimpl
def ember_context_changed(device_target: str, changes: dict[str, Any]) -> None:
    """Check what can be checked without CANN; once the device runs, apply the rest (memory
    limits, enable_reduce_precision, profiling) and refuse changes of what aclInit and
    aclrtSetDevice fixed."""
    if device_target != DEVICE_TARGET:
        return
    pool = CONTEXT["mempool_block_size"].default
    if changes.get("mempool_block_size", pool) != pool:
        warnings.warn(f"set_context(mempool_block_size={changes['mempool_block_size']!r}) has "
                      "no effect on device_target 'Ascend': its pool allocates one block per "
                      "array and caches it; max_device_memory bounds the pool",
                      UserWarning, stacklevel=4)
    if changes.get("auto_tune_mode", "NO_TUNE") != "NO_TUNE":
        warnings.warn(f"set_context(auto_tune_mode={changes['auto_tune_mode']!r}) is stored, "
                      "but tuning needs CANN's tuning tools (AOE), which ember does not run: "
                      "aclnn operators use their built-in tiling", UserWarning, stacklevel=4)
    if changes.get("enable_graph_kernel"):
        warnings.warn("set_context(enable_graph_kernel=True) has no effect on device_target "
                      "'Ascend': graphs replay one aclnn operator per node, without fusion",
                      UserWarning, stacklevel=4)
    from ember_ascend import device

    started = device.current()
    if started is None:
        return
    for key in FIXED_AT_START:
        if key in changes and changes[key] != started.started_with[key]:
            raise RuntimeError(
                f"set_context({key}={changes[key]!r}): the Ascend backend started with {key}="
                f"{started.started_with[key]!r}, which aclInit/aclrtSetDevice fixed for this "
                "process; set it before the first Ascend operation, or start a new process")
    started.apply(changes)


@hookimpl
def ember_profiler_start(device_target: str, output_path: str) -> Any:
    if device_target != DEVICE_TARGET:
        return None
    from ember import context

    return AclProfile(_executors(context._current_values())[0].device, output_path,
                      context.get_context("profiling_options"))


class AclProfile:
    """A profiling session: the core times each op, waiting for the device after it
    (``synchronize``); aclprof records the device's side (API calls, task times, AI Core
    metrics, as profiling_options asks) under ``output_path``. ``stop()`` stops aclprof and
    returns the files it wrote."""

    def __init__(self, device: Any, output_path: str, options: str) -> None:
        from pathlib import Path

        request = profiling_request(options)
        self.device, self.output = device, Path(output_path)
        self.synchronize = device.synchronize
        self.before = set(self.output.rglob("*"))
        self.config = device.profile(output_path, request["metrics"], request["mask"])

    def stop(self) -> list[str]:
        self.device.synchronize()
        self.device.driver.prof_stop(self.config)
        return sorted(str(p) for p in set(self.output.rglob("*")) - self.before if p.is_file())
