"""The template's "device": where its arrays live, and the moves to and from host memory.

A real accelerator backend keeps tensor data in device buffers (a ``tf.Tensor``, an ACL device
pointer) that Python cannot read directly. The template keeps its data in host memory, but
behind :class:`DeviceArray`, a wrapper that NumPy cannot see through (it has no
``__array__``). So every path by which ember moves data (``from_host`` when a host tensor meets
a Template kernel, ``to_host`` for ``asnumpy()``, printing, checkpoints, a switch of
device_target, ``fallback_device_target``) runs here exactly as it would with real hardware, and
code that forgets a move fails loudly instead of working by accident.

Replace this module with your device's buffers and copies; keep the one-object identity:
``DEVICE`` is shared by the PyNative and the Graph executor, so a tensor made by one is used by
the other without a move.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class DeviceArray:
    """One array in the template's device memory. Kernels never see it: the executor unwraps
    it before a kernel runs and wraps the kernel's result (see ``executor.launch``)."""

    __slots__ = ("buffer",)

    def __init__(self, buffer: np.ndarray) -> None:
        self.buffer = buffer

    @property
    def shape(self) -> tuple[int, ...]:
        return self.buffer.shape

    @property
    def dtype(self) -> np.dtype:
        return self.buffer.dtype

    def __repr__(self) -> str:
        return f"DeviceArray(shape={list(self.shape)}, dtype={self.dtype}) on {DEVICE.name}"


class TemplateDevice:
    """The device every Template tensor lives on: the ``device`` attribute of both executors.

    ``to_host`` and ``from_host`` are the two copies a real backend makes over the bus (here,
    NumPy copies), so neither side can change the other's data afterwards.
    """

    name = "Template"

    def from_host(self, array: np.ndarray) -> DeviceArray:
        """Copy a host array to the device."""
        return DeviceArray(np.array(array, copy=True))

    def to_host(self, array: DeviceArray) -> np.ndarray:
        """Copy a device array back to host memory."""
        if not isinstance(array, DeviceArray):
            raise TypeError(f"{self.name}.to_host expects a DeviceArray, but got "
                            f"{type(array).__name__}: the array is not on the {self.name} device")
        return array.buffer.copy()

    def __repr__(self) -> str:
        return f"<{self.name} device>"


#: The one device of this backend.
DEVICE = TemplateDevice()


def unwrap(value: Any) -> Any:
    """A kernel input as the kernel sees it: device arrays as their NumPy buffers (also inside
    tuples and lists), other inputs (axes, shapes, dtypes) as they are."""
    if type(value) is DeviceArray:
        return value.buffer
    if type(value) in (tuple, list):
        return type(value)(map(unwrap, value))
    return value


def wrap(result: Any) -> Any:
    """A kernel's result (an array, a NumPy scalar, or a tuple of them) on the device."""
    if type(result) is tuple:
        return tuple(DeviceArray(np.asarray(r)) for r in result)
    return DeviceArray(np.asarray(result))
