"""The Ascend backend's PyNative executor: one kernel (aclnn calls on the stream) per primitive.

Kernels return as soon as their operators are enqueued. With ``pynative_synchronize=True`` each
kernel waits for the stream, so a failing operator raises from the primitive (and the user's
line) that launched it, with the ACL error code and ``aclGetRecentErrMsg()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.backend import MissingKernelError
from ember_ascend.device import AscendDevice, DeviceArray
from ember_ascend.kernels import KERNELS

#: How MissingKernelError names this backend.
BACKEND = "Ascend (ember-ascend)"


class AscendExecutor:
    """Runs primitives one by one on the Ascend device's stream."""

    name = "Ascend"
    primitives = frozenset(KERNELS)

    def __init__(self, device: AscendDevice, synchronize: bool = False) -> None:
        self.device = device
        self.synchronize = synchronize

    def kernel(self, prim: Any) -> Callable[..., Any]:
        """The function that runs ``prim`` on DeviceArrays."""
        try:
            factory = KERNELS[prim.name]
        except KeyError:
            raise MissingKernelError(prim.name, BACKEND) from None
        kernel = factory(prim, self.device)
        return _synchronized(kernel, self.device) if self.synchronize else kernel

    def to_host(self, array: DeviceArray) -> np.ndarray:
        return self.device.to_host(array)

    def from_host(self, array: np.ndarray) -> DeviceArray:
        return self.device.from_host(array)


def _synchronized(kernel: Callable[..., Any], device: AscendDevice) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        result = kernel(*args)
        device.synchronize()
        return result

    return run
