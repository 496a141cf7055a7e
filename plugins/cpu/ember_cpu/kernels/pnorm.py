"""LpNorm and Cdist on NumPy, in float64 for float16 and float32 inputs."""

from __future__ import annotations

import numpy as np


def _pnorm(v, p, axis, keepdims=False):
    """The p-norm of ``v`` over ``axis``: the count of non-zeros for p = 0, the largest size
    for p = inf."""
    size = np.abs(v.astype(np.float64, copy=False))
    if p == 0:
        return np.sum(size != 0, axis=axis, keepdims=keepdims).astype(np.float64)
    if p == np.inf:
        return np.max(size, axis=axis, keepdims=keepdims, initial=0.0)
    return np.sum(size ** p, axis=axis, keepdims=keepdims) ** (1 / p)


def _lp_norm(prim):
    def kernel(x):
        return _pnorm(x, prim.p, prim.axes(x.ndim), prim.keep_dims).astype(x.dtype)

    return kernel


def _cdist(prim):
    def kernel(x, y):
        diff = x.astype(np.float64)[..., :, None, :] - y.astype(np.float64)[..., None, :, :]
        return _pnorm(diff, prim.p, -1).astype(x.dtype)

    return kernel


KERNELS = {
    "LpNorm": _lp_norm,
    "Cdist": _cdist,
}
