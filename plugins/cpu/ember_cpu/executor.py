"""The CPU backend's PyNative executor: NumPy kernels looked up by primitive name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.backend import MissingKernelError
from ember_cpu.kernels import KERNELS


class NumpyExecutor:
    """Runs primitives on host memory; arrays are NumPy arrays, so ``device`` is None."""

    device = None
    name = "CPU"
    primitives = frozenset(KERNELS)  # what ``python -m ember info --ops`` lists

    def kernel(self, prim: Any) -> Callable[..., Any]:
        """The function that runs ``prim`` on NumPy arrays."""
        try:
            factory = KERNELS[prim.name]
        except KeyError:
            raise MissingKernelError(prim.name, "CPU (ember-cpu)") from None
        return factory(prim)

    @staticmethod
    def to_host(array: np.ndarray) -> np.ndarray:
        return array

    @staticmethod
    def from_host(array: np.ndarray) -> np.ndarray:
        return array
