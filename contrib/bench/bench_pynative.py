"""PyNative dispatch on the CPU backend against bare NumPy."""

from __future__ import annotations

import numpy as np
from run import Benchmark

from ember import Tensor, context, ops

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")

_a = np.random.default_rng(0).standard_normal((3, 3)).astype(np.float32)
_b = np.random.default_rng(1).standard_normal((3, 3)).astype(np.float32)
_x, _y = Tensor(_a), Tensor(_b)

BENCHMARKS = [
    Benchmark("pynative ops.add 3x3 float32", lambda: ops.add(_x, _y),
              lambda: np.add(_a, _b), "np.add", "<= 3 us and <= 5x np.add"),
    Benchmark("pynative Tensor + Tensor 3x3 float32", lambda: _x + _y,
              lambda: _a + _b, "ndarray +", "close to ops.add"),
]
