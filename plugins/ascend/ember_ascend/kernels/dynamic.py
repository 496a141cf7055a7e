"""Value-shaped primitives (Range, MaskedSelect) and MaskedSelectGrad: the output's length is
read back to the host before the output is allocated."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, Scalar, View
from ember_ascend.kernels.common import Arithmetic, cast


def _range(prim: Any, dev: AscendDevice) -> Any:
    """aclnnArange of start, limit and delta read back to the host, as NumPy's arange counts:
    ceil((limit - start) / delta) numbers."""
    def kernel(start: DeviceArray, limit: DeviceArray, delta: DeviceArray) -> DeviceArray:
        first, last, step = (dev.to_host(v).item() for v in (start, limit, delta))
        out = dev.empty((max(int(np.ceil((last - first) / step)), 0),), start.dtype)
        if out.size:
            dev.aclnn("Arange", *(Scalar(v, start.dtype) for v in (first, last, step)), out)
        return out

    return kernel


def _masked_select(prim: Any, dev: AscendDevice) -> Any:
    """aclnnMaskedSelect writes the selected elements first in an output of the broadcast
    size; their count (the mask's True elements, times the times it is repeated) is read
    back, and that many are copied out."""
    def kernel(x: DeviceArray, mask: DeviceArray) -> DeviceArray:
        shape = np.broadcast_shapes(x.shape, mask.shape)
        size = int(np.prod(shape, dtype=np.int64))
        if not size:
            return dev.empty((0,), x.dtype)
        a = Arithmetic(dev, np.int64)
        trues = a.sum(cast(dev, mask, np.int64), tuple(range(mask.ndim)), False)
        count = int(dev.to_host(trues)) * (size // mask.size)
        full = dev.empty((size,), x.dtype)
        dev.aclnn("MaskedSelect", x, mask, full)
        out = dev.empty((count,), x.dtype)
        if count:
            dev.aclnn("InplaceCopy", out, View(full, (count,), (1,)))
        return out

    return kernel


def _masked_select_grad(prim: Any, dev: AscendDevice) -> Any:
    """``grad`` scattered in order to the mask's True positions of the broadcast shape
    (aclnnInplaceMaskedScatter into zeros), summed to x's shape."""
    def kernel(x: DeviceArray, mask: DeviceArray, grad: DeviceArray) -> DeviceArray:
        shape = np.broadcast_shapes(x.shape, mask.shape)
        spread = dev.zero(dev.empty(shape, grad.dtype))
        if grad.size:
            dev.aclnn("InplaceMaskedScatter", spread, mask, grad)
        lead = len(shape) - x.ndim
        axes = tuple(i for i, d in enumerate(shape) if i < lead or x.shape[i - lead] != d)
        if not axes:
            return spread
        summed = Arithmetic(dev, grad.dtype).sum(spread, axes, keep=True)
        out = dev.empty(x.shape, grad.dtype)
        dev.copy(out, summed)
        return out

    return kernel


KERNELS = {
    "Range": _range,
    "MaskedSelect": _masked_select,
    "MaskedSelectGrad": _masked_select_grad,
}
