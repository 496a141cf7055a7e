"""The executor in effect and the moves of tensor data between backends.

``state.eager`` is the PyNative executor of the current device_target, fetched from its plugin
once per change of device_target, mode or pynative_synchronize (``_plugins.context_committed``
clears it) and then called directly by every primitive: no pluggy call on the hot path. The
executors made are kept by those values (``state.made``), so that switching back to earlier
ones finds their executors, and the graphs compiled for them, again.

Tracing is per thread: ``state.tracer`` is the tracer of the calling thread. While any thread
traces, ``state.eager`` is None, so every primitive asks :func:`load_eager`, which answers the
calling thread's tracer, or the PyNative executor.
"""

from __future__ import annotations

import atexit
import contextlib
import sys
import threading
import warnings
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from ember.backend import MissingKernelError

if TYPE_CHECKING:
    from ember.common.tensor import Tensor


class _Local(threading.local):
    tracer: Any = None  # the Tracer while this thread traces a graph


class _State:
    __slots__ = ("eager", "executor", "fallbacks", "graph", "local", "made", "mode", "observe",
                 "tracing", "transfers")

    def __init__(self) -> None:
        self.eager: Any = None  # the PyNative executor while no thread traces, else None
        self.executor: Any = None  # the PyNative executor (observed while observing)
        self.graph: Any = None  # the Graph-mode executor
        #: (hook name, *the context's EXECUTOR_KEYS values) -> the executor made for them
        self.made: dict[tuple, Any] = {}
        self.mode: int | None = None  # the context's mode, read when first needed
        self.local = _Local()
        self.tracing = 0  # how many traces are under way, in all threads
        self.transfers = 0  # tensors moved between devices, for tests and benchmarks
        self.fallbacks: Counter[str] = Counter()  # calls run by fallback_device_target
        #: While the profiler or the dump observe: wraps a fetched PyNative executor so that
        #: its kernels report each run (``ember._instrument``); None otherwise.
        self.observe: Any = None

    @property
    def tracer(self) -> Any:
        """The Tracer of the calling thread while it traces a graph, else None."""
        return self.local.tracer


state = _State()
_LOCK = threading.Lock()


@contextlib.contextmanager
def tracing(tracer: Any) -> Iterator[None]:
    """Run the block with ``tracer`` as the calling thread's executor; other threads keep
    running their primitives eagerly."""
    local = state.local
    saved = local.tracer
    with _LOCK:
        state.tracing += 1
        state.eager = None  # every primitive asks load_eager, which knows the thread
    local.tracer = tracer
    try:
        yield
    finally:
        local.tracer = saved
        with _LOCK:
            state.tracing -= 1


def load_eager() -> Any:
    """The executor of the calling thread: its tracer, or the PyNative executor of the current
    device_target (fetched from its plugin when needed)."""
    tracer = state.local.tracer
    if tracer is not None:
        return tracer
    executor = state.executor
    if executor is None:
        executor = _load("ember_eager_executor")
        if state.observe is not None:
            executor = state.observe(executor)
        state.executor = executor
    with _LOCK:
        if not state.tracing:
            state.eager = executor
    return executor


def load_graph() -> Any:
    """Fetch the Graph-mode executor of the current device_target from its plugin."""
    if state.graph is None:
        state.graph = _load("ember_graph_executor")
    return state.graph


def _load(hook_name: str) -> Any:
    from ember import _plugins, context

    key = (hook_name, *(context.get_context(name) for name in _plugins.EXECUTOR_KEYS))
    if key not in state.made:
        state.made[key] = _load_for(context.get_context("device_target"), hook_name)
    return state.made[key]


def _load_for(target: str, hook_name: str) -> Any:
    from ember import _plugins, context

    _plugins.check_device_target(target)
    return _plugins.registry().executor(target, hook_name, context._current_values())


def forget_executors(*, made: bool = False) -> None:
    """Forget the executors in effect (the context changed); ``made``: also every executor made
    so far (what they were made for changed: the communicators)."""
    state.eager = state.executor = state.graph = state.mode = None
    if made:
        state.made.clear()


def graph_mode() -> bool:
    """Whether the context's mode is GRAPH_MODE (cached until the context changes)."""
    if state.mode is None:
        from ember import context

        state.mode = context.get_context("mode")
    return state.mode == 0


def symbolic(value: Any) -> bool:
    """Whether ``value`` is a tensor of a graph being traced (its values unknown)."""
    tracer = state.tracer
    return tracer is not None and type(getattr(value, "_device", None)) is type(tracer)


def to_host(tensor: Tensor) -> np.ndarray:
    """The tensor's values in host memory (no copy when they already are)."""
    device = tensor._device
    if device is None:
        return tensor._data
    return device.to_host(tensor._data)


def to_device(tensor: Tensor, device: Any) -> Any:
    """Move the tensor's data to ``device`` (None: host memory) through host memory, and keep
    it there: the tensor now lives on ``device``, so using it again there moves nothing (a
    Tensor is immutable; a Parameter is the one copy its in-place updates change). While
    tracing, return the graph value that stands for the tensor instead."""
    if device is state.tracer is not None:
        return device.capture(tensor)
    state.transfers += 1
    host = to_host(tensor)
    from ember.common.parameter import Parameter

    if device is None:
        data = np.require(host, requirements="W")  # in-place kernels write to Parameters
    elif isinstance(tensor, Parameter):
        data = getattr(device, "parameter_from_host", device.from_host)(host)
    else:
        data = device.from_host(host)
    tensor._data, tensor._device = data, device
    return data


# -- fallback_device_target ------------------------------------------------------------------
def resolve_kernel(executor: Any, prim: Any) -> Any:
    """``executor.kernel(prim)``; when the backend has none and the context names a
    ``fallback_device_target``, that backend's kernel, with the data moved across."""
    try:
        return executor.kernel(prim)
    except MissingKernelError as missing:
        from ember import context

        target = context.get_context("fallback_device_target")
        if not target or target == context.get_context("device_target"):
            raise
        if prim.updates_parameters:
            raise MissingKernelError(
                prim.name, missing.backend,
                f"it updates Parameters in place, so fallback_device_target {target!r} cannot "
                "run it: the update would not reach the Parameters on this backend") from None
    fallback = _FALLBACK_EXECUTORS.get(target)
    if fallback is None:
        fallback = _FALLBACK_EXECUTORS[target] = _load_for(target, "ember_eager_executor")
    return FallbackKernel(prim.name, fallback.kernel(prim), executor, fallback, target)


_FALLBACK_EXECUTORS: dict[str, Any] = {}


class FallbackKernel:
    """Runs one primitive on another backend: inputs go there through host memory, results
    come back; each call is counted, and the first one warns."""

    def __init__(self, name: str, kernel: Any, home: Any, fallback: Any, target: str) -> None:
        self.name, self.kernel, self.home, self.fallback = name, kernel, home, fallback
        self.target = target

    def __call__(self, *arrays: Any) -> Any:
        if self.name not in state.fallbacks:
            warnings.warn(f"{self.name} has no kernel on {getattr(self.home, 'name', 'this')} "
                          f"backend: it runs on fallback_device_target {self.target!r}, moving "
                          "its data through host memory", UserWarning, stacklevel=4)
            atexit.unregister(_report_once)
            atexit.register(_report_once)
        state.fallbacks[self.name] += 1
        moved = [self._move(a, self.home, self.fallback) for a in arrays]
        result = self.kernel(*moved)
        if isinstance(result, tuple):
            return tuple(self._move(r, self.fallback, self.home) for r in result)
        return self._move(result, self.fallback, self.home)

    @staticmethod
    def _move(value: Any, source: Any, destination: Any) -> Any:
        if source.device is destination.device or isinstance(
                value, bool | int | float | str | tuple | list | type(None)):
            return value
        state.transfers += 1
        host = value if source.device is None else source.to_host(value)
        return host if destination.device is None else destination.from_host(host)


def fallback_report() -> dict[str, int]:
    """How many calls of each primitive ran on fallback_device_target in this process."""
    return dict(state.fallbacks)


def _report_once() -> None:
    if state.fallbacks:
        counts = ", ".join(f"{name} x{n}" for name, n in state.fallbacks.most_common())
        sys.stderr.write(f"ember: primitives run by fallback_device_target this run: "
                         f"{counts}\n")
