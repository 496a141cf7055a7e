"""``ember.run_check()``: check that ember is installed and computes, as ``mindspore.run_check``."""

from __future__ import annotations

import numpy as np


def run_check() -> None:
    """Print the version, add two tensors on the current device and say whether it worked."""
    from ember import Tensor, context, ops
    from ember.version import __version__

    print(f"Ember version: {__version__}")
    target = context.get_context("device_target")
    x = np.array([1.0, 2.0, 3.0], np.float32)
    result = ops.add(Tensor(x), Tensor(x)).asnumpy()
    if not np.array_equal(result, 2 * x):
        raise RuntimeError(f"run_check: [1, 2, 3] + [1, 2, 3] on {target} gave {result}")
    print(f"The result of the addition on {target} is right: ember is installed successfully!")
