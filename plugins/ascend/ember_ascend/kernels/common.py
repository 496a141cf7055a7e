"""Kernels of one aclnn operator whose output has the input's (broadcast) shape."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, Scalar


def unary(op: str, out_dtype: Any = None) -> Any:
    """``op(x) -> out`` (out of x's dtype unless ``out_dtype``)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, out_dtype or x.dtype)
            dev.aclnn(op, x, out)
            return out

        return kernel

    return factory


def binary(op: str, alpha: int | None = None, out_dtype: Any = None) -> Any:
    """``op(x, y) -> out`` with NumPy broadcasting (Add and Sub take an alpha scalar)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
            out = dev.empty(np.broadcast_shapes(x.shape, y.shape), out_dtype or x.dtype)
            extra = () if alpha is None else (Scalar(alpha, x.dtype),)
            dev.aclnn(op, x, y, *extra, out)
            return out

        return kernel

    return factory


def backward(op: str, *, output_first: bool) -> Any:
    """MindSpore's ``XGrad(y, dy)`` (or ``(dy, x)``) as aclnn's ``XBackward(gradOutput, y)``."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(a: DeviceArray, b: DeviceArray) -> DeviceArray:
            y, dy = (a, b) if output_first else (b, a)
            out = dev.empty(dy.shape, dy.dtype)
            dev.aclnn(op, dy, y, out)
            return out

        return kernel

    return factory
