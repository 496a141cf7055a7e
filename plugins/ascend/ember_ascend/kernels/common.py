"""Kernels of one aclnn operator whose output has the input's (broadcast) shape, and flips."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, IntArray, Scalar, View


def _no_extra(dtype: np.dtype) -> tuple:
    return ()


def unary(op: str, out_dtype: Any = None, extra: Any = _no_extra) -> Any:
    """``op(x, *extra(x.dtype)) -> out`` (out of x's dtype unless ``out_dtype``); ``extra``
    gives the operator's attributes (scalars, flags) for a dtype."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, out_dtype or x.dtype)
            dev.aclnn(op, x, *extra(x.dtype), out)
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


def backward(op: str, *, output_first: bool, extra: Any = _no_extra) -> Any:
    """MindSpore's ``XGrad(y, dy)`` (or ``(dy, x)``) as aclnn's
    ``XBackward(gradOutput, y, *extra(dtype))``."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(a: DeviceArray, b: DeviceArray) -> DeviceArray:
            y, dy = (a, b) if output_first else (b, a)
            out = dev.empty(dy.shape, dy.dtype)
            dev.aclnn(op, dy, y, *extra(y.dtype), out)
            return out

        return kernel

    return factory


def flip(dev: AscendDevice, x: DeviceArray | View, dims: tuple[int, ...]) -> DeviceArray:
    """``x`` (an array or a view) reversed along ``dims``, in a new array."""
    out = dev.empty(x.shape, x.array.dtype if isinstance(x, View) else x.dtype)
    if out.size:
        dev.aclnn("Flip", x, IntArray(dims), out)
    return out
