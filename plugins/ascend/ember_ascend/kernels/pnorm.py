"""LpNorm and Cdist composed of aclnn elementwise operators and reductions (aclnnReduceSum,
aclnnAmax), in float32 for float16 inputs."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, IntArray, view
from ember_ascend.kernels.common import Arithmetic, cast


def _wide(x: DeviceArray) -> np.dtype:
    return np.dtype(np.float32) if x.dtype == np.float16 else x.dtype


def _pnorm(dev: AscendDevice, v: DeviceArray, p: float, axes: tuple[int, ...],
           keep: bool) -> DeviceArray:
    """The p-norm of ``v`` over ``axes``: the count of non-zeros for p = 0, the largest size
    for p = inf."""
    a = Arithmetic(dev, v.dtype)
    size = a.op("Abs", v)
    if p == 0:
        return a.sum(cast(dev, a.compare("NeTensor", size, 0), v.dtype), axes, keep)
    if p == math.inf:
        out = dev.empty(tuple(1 if i in axes else d for i, d in enumerate(v.shape)
                              if keep or i not in axes), v.dtype)
        if v.size:
            dev.aclnn("Amax", size, IntArray(axes), keep, out)
        else:
            dev.zero(out)
        return out
    total = a.sum(a.op("PowTensorTensor", size, float(p)), axes, keep)
    return a.op("PowTensorTensor", total, 1 / p)


def _lp_norm(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> DeviceArray:
        norm = _pnorm(dev, cast(dev, x, _wide(x)), prim.p, prim.axes(x.ndim), prim.keep_dims)
        return cast(dev, norm, x.dtype)

    return kernel


def _cdist(prim: Any, dev: AscendDevice) -> Any:
    """The differences of every pair of rows, (B, P, 1, M) - (B, 1, R, M), normed over M."""
    def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
        wide = _wide(x)
        rows = view(cast(dev, x, wide), x.shape[:-1] + (1,) + x.shape[-1:])
        cols = view(cast(dev, y, wide), y.shape[:-2] + (1,) + y.shape[-2:])
        diff = Arithmetic(dev, wide).sub(rows, cols)
        return cast(dev, _pnorm(dev, diff, prim.p, (diff.ndim - 1,), False), x.dtype)

    return kernel


KERNELS = {
    "LpNorm": _lp_norm,
    "Cdist": _cdist,
}
