"""The CPU backend: its declaration, its executor and its kernel table's coverage."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import _plugins, ops
from ember.backend import MissingKernelError
from ember.ops.primitive import Primitive, primitive_classes


def test_declared_through_its_entry_point():
    spec = _plugins.registry().specs["CPU"]
    assert (spec.distribution, spec.api_version) == ("ember-cpu", "1.2")
    assert _plugins.registry().unavailable_reason("CPU") is None


def test_every_core_primitive_has_a_kernel():
    from ember.ops.operations.array_ops import _Static  # answered from shapes, no kernel
    from ember_cpu.kernels import KERNELS

    missing = [p.__name__ for p in primitive_classes()
               if p.__name__ not in KERNELS and not issubclass(p, _Static)]
    assert missing == []


def test_results_stay_in_host_memory_without_transfers():
    from ember._executor import state

    before = state.transfers
    x = ember.Tensor(np.ones((2, 2), np.float32))
    y = ops.add(ops.add(x, x), x)
    assert isinstance(y._data, np.ndarray) and y._device is None
    assert state.transfers == before


def test_missing_kernel_names_primitive_and_backend():
    class Frobnicate(Primitive):
        def infer(self, x):
            return x.shape, x.dtype

    with pytest.raises(MissingKernelError, match="CPU .*no kernel for primitive Frobnicate"):
        Frobnicate()(ember.Tensor(np.ones(2, np.float32)))
