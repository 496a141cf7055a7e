"""The template's PyNative executor: the object ``ember_eager_executor`` returns.

The core fetches it once per change of device_target or mode and then calls it directly, with
no hook in between: ``kernel(prim)`` once per primitive instance, then the returned function on
every call of that primitive. Its protocol (see ``ember.hookspecs.ember_eager_executor``):

- ``kernel(prim)``: a function of device arrays (and non-tensor inputs as Python values)
  returning a device array, or a tuple for several outputs; ``MissingKernelError`` for a
  primitive this backend does not run;
- ``device``: where its arrays live (None would mean NumPy arrays in host memory);
- ``to_host(array)`` and ``from_host(ndarray)``: the moves, used by the core when a tensor
  crosses between host memory and this backend;
- ``name`` and ``primitives``, for messages and ``python -m ember info --ops``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ember.backend import MissingKernelError

from ember_template.device import DEVICE, DeviceArray, unwrap, wrap
from ember_template.kernels import KERNELS, Kernel

#: How MissingKernelError names this backend: its device_target and its distribution.
BACKEND = "Template (ember-template)"


def launch(kernel: Kernel) -> Kernel:
    """``kernel`` (a function of NumPy arrays) as a function of device arrays.

    On an accelerator this is where a kernel is enqueued on the device's stream; here the
    inputs are unwrapped, the kernel runs with NumPy's floating-point warnings off, and the
    result is wrapped as a device array.
    """

    def run(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return wrap(kernel(*map(unwrap, args)))

    return run


class TemplateExecutor:
    """Runs one primitive at a time on the Template device."""

    name = "Template"
    device = DEVICE
    primitives = frozenset(KERNELS)

    def kernel(self, prim: Any) -> Kernel:
        """The function that runs ``prim`` on device arrays."""
        try:
            factory = KERNELS[prim.name]
        except KeyError:
            raise MissingKernelError(prim.name, BACKEND) from None
        return launch(factory(prim))

    def to_host(self, array: DeviceArray) -> np.ndarray:
        return DEVICE.to_host(array)

    def from_host(self, array: np.ndarray) -> DeviceArray:
        return DEVICE.from_host(array)
