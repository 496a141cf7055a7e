"""The GPU backend's PyNative executor: TensorFlow kernels looked up by primitive name.

Each kernel is a function of ``tf.Tensor`` s (and the primitive's non-tensor inputs as Python
values) built from TensorFlow ops, so the same function runs eagerly here, one primitive at a
time, and inside the ``tf.function`` that Graph mode compiles with XLA (``graph.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.backend import MissingKernelError
from ember_gpu.device import TfDevice
from ember_gpu.kernels import KERNELS

#: How MissingKernelError names this backend.
BACKEND = "GPU (ember-gpu)"


class TfExecutor:
    """Runs primitives one by one on the backend's TensorFlow device."""

    name = "GPU"
    primitives = frozenset(KERNELS)

    def __init__(self, device: TfDevice, synchronize: bool = False) -> None:
        self.device = device
        #: pynative_synchronize: each kernel waits for the device to finish, so an error is
        #: raised by the primitive (and the user's line) that caused it.
        self.synchronize = synchronize

    def kernel(self, prim: Any) -> Callable[..., Any]:
        """The function that runs ``prim`` on tf.Tensors."""
        try:
            factory = KERNELS[prim.name]
        except KeyError:
            raise MissingKernelError(prim.name, BACKEND) from None
        kernel = factory(prim)
        return _synchronized(kernel, self.device.tf) if self.synchronize else kernel

    def to_host(self, array: Any) -> np.ndarray:
        return self.device.to_host(array)

    def from_host(self, array: np.ndarray) -> Any:
        return self.device.from_host(array)


def _synchronized(kernel: Callable[..., Any], tf: Any) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        result = kernel(*args)
        tf.test.experimental.sync_devices()
        return result

    return run
