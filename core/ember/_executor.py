"""The executor in effect and the moves of tensor data between backends.

``state.eager`` is the PyNative executor of the current device_target, fetched from its plugin
once per change of device_target or mode (``_plugins.context_committed`` clears it) and then
called directly by every primitive: no pluggy call on the hot path.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ember.common.tensor import Tensor


class _State:
    __slots__ = ("eager", "transfers")

    def __init__(self) -> None:
        self.eager: Any = None
        self.transfers = 0  # tensors moved between devices, for tests and benchmarks


state = _State()


def load_eager() -> Any:
    """Fetch the PyNative executor of the current device_target from its plugin."""
    from ember import _plugins, context

    target = context.get_context("device_target")
    _plugins.check_device_target(target)
    snapshot = context._current_values()
    executor = _plugins.registry().plugin_manager.hook.ember_eager_executor(
        device_target=target, context=snapshot)
    if executor is None:
        raise _plugins.BackendError(
            f"the backend for device_target '{target}' provides no PyNative executor "
            "(its plugin implements no ember_eager_executor hook)")
    if snapshot["mode"] == context.GRAPH_MODE:
        warnings.warn("GRAPH_MODE: ember does not compile graphs yet; cells and functions run "
                      "op by op as in PYNATIVE_MODE, with the same results", UserWarning,
                      stacklevel=4)
    state.eager = executor
    return executor


def forget_executors() -> None:
    state.eager = None


def to_host(tensor: Tensor) -> np.ndarray:
    """The tensor's values in host memory (no copy when they already are)."""
    device = tensor._device
    if device is None:
        return tensor._data
    return device.to_host(tensor._data)


def to_device(tensor: Tensor, device: Any) -> Any:
    """The tensor's data on ``device`` (None: host memory), moved through host memory."""
    state.transfers += 1
    host = to_host(tensor)
    return host if device is None else device.from_host(host)
