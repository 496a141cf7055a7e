"""The executor in effect and the moves of tensor data between backends.

``state.eager`` is the PyNative executor of the current device_target, fetched from its plugin
once per change of device_target or mode (``_plugins.context_committed`` clears it) and then
called directly by every primitive: no pluggy call on the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ember.common.tensor import Tensor


class _State:
    __slots__ = ("eager", "graph", "mode", "tracer", "transfers")

    def __init__(self) -> None:
        self.eager: Any = None  # the PyNative executor, or the tracer while tracing
        self.graph: Any = None  # the Graph-mode executor
        self.mode: int | None = None  # the context's mode, read when first needed
        self.tracer: Any = None  # the Tracer while a graph is being traced
        self.transfers = 0  # tensors moved between devices, for tests and benchmarks


state = _State()


def load_eager() -> Any:
    """Fetch the PyNative executor of the current device_target from its plugin."""
    state.eager = _load("ember_eager_executor", "a PyNative executor")
    return state.eager


def load_graph() -> Any:
    """Fetch the Graph-mode executor of the current device_target from its plugin."""
    if state.graph is None:
        state.graph = _load("ember_graph_executor", "a graph executor")
    return state.graph


def _load(hook_name: str, what: str) -> Any:
    from ember import _plugins, context

    target = context.get_context("device_target")
    _plugins.check_device_target(target)
    hook = getattr(_plugins.registry().plugin_manager.hook, hook_name)
    executor = hook(device_target=target, context=context._current_values())
    if executor is None:
        raise _plugins.BackendError(
            f"the backend for device_target '{target}' provides no {what} (its plugin "
            f"implements no {hook_name} hook)")
    return executor


def forget_executors() -> None:
    state.eager = state.graph = state.mode = None


def graph_mode() -> bool:
    """Whether the context's mode is GRAPH_MODE (cached until the context changes)."""
    if state.mode is None:
        from ember import context

        state.mode = context.get_context("mode")
    return state.mode == 0


def to_host(tensor: Tensor) -> np.ndarray:
    """The tensor's values in host memory (no copy when they already are)."""
    device = tensor._device
    if device is None:
        return tensor._data
    return device.to_host(tensor._data)


def to_device(tensor: Tensor, device: Any) -> Any:
    """The tensor's data on ``device`` (None: host memory), moved through host memory; while
    tracing, the graph value that stands for it."""
    if device is state.tracer is not None:
        return device.capture(tensor)
    state.transfers += 1
    host = to_host(tensor)
    return host if device is None else device.from_host(host)
