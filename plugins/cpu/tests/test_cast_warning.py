"""Cast of NaN, inf or out-of-range floats to an integer dtype warns (once per process)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ember import Tensor, ops
from ember.common import dtype as mstype
from ember_cpu.kernels import math as cpu_math


def test_cast_of_nan_inf_or_out_of_range_floats_to_int_warns_once(monkeypatch):
    monkeypatch.setattr(cpu_math, "_CAST_WARNED", [])
    x = Tensor(np.array([np.nan, np.inf, -np.inf, 3e10, 1.5], np.float32))
    with pytest.warns(UserWarning, match=r"Cast: .*NaN, inf or out-of-range.*Float32.*Int32"):
        out = ops.cast(x, mstype.int32).asnumpy()
    assert out[-1] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ops.cast(x, mstype.int32)  # once
        ops.cast(Tensor(np.array([1.5, -2.5], np.float32)), mstype.int8)
