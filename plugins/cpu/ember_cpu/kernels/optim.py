"""In-place updates of Parameters on NumPy."""

from __future__ import annotations

import numpy as np


def _assign(prim):
    def kernel(variable, value):
        np.copyto(variable, value)
        return variable

    return kernel


def _apply_momentum(prim):
    nesterov, scale = prim.use_nesterov, prim.gradient_scale

    def kernel(variable, accumulation, learning_rate, gradient, momentum):
        if scale != 1.0:
            gradient = gradient * scale
        accumulation *= momentum
        accumulation += gradient
        step = gradient + momentum * accumulation if nesterov else accumulation
        variable -= np.asarray(learning_rate, variable.dtype) * step
        return variable

    return kernel


KERNELS = {"Assign": _assign, "ApplyMomentum": _apply_momentum}
