"""Kernels of one aclnn operator whose output has the input's (broadcast) shape, flips, and
:class:`Arithmetic` for kernels composed of several elementwise operators."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, DType, IntArray, Scalar, View


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


def cast(dev: AscendDevice, x: DeviceArray, dtype: Any) -> DeviceArray:
    """``x`` in ``dtype`` (aclnnCast), or ``x`` itself when it has that dtype."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
    out = dev.empty(x.shape, dtype)
    dev.aclnn("Cast", x, DType(dtype), out)
    return out


class Arithmetic:
    """Elementwise expressions of arrays and views on the device in one dtype, one aclnn call
    each; numbers become cached device constants."""

    def __init__(self, dev: AscendDevice, dtype: np.dtype) -> None:
        self.dev, self.dtype = dev, np.dtype(dtype)

    def _operand(self, a: Any) -> Any:
        """A number as a device constant; anything else (arrays, views, Scalar, DType) as it
        is."""
        number = isinstance(a, int | float | np.generic) and not isinstance(a, bool)
        return self.dev.constant(a, self.dtype) if number else a

    def op(self, name: str, *args: Any, out_dtype: Any = None) -> DeviceArray:
        """aclnn ``name`` of ``args`` (numbers become constants) into a new array of the
        arrays' broadcast shape."""
        args = tuple(self._operand(a) for a in args)
        shape = np.broadcast_shapes(*(a.shape for a in args if isinstance(a, DeviceArray | View)))
        out = self.dev.empty(shape, out_dtype or self.dtype)
        if out.size:
            self.dev.aclnn(name, *args, out)
        return out

    def add(self, a: Any, b: Any, alpha: float = 1) -> DeviceArray:
        return self.op("Add", a, b, Scalar(alpha, self.dtype))

    def sub(self, a: Any, b: Any) -> DeviceArray:
        return self.add(a, b, -1)

    def mul(self, a: Any, b: Any) -> DeviceArray:
        return self.op("Mul", a, b)

    def div(self, a: Any, b: Any) -> DeviceArray:
        return self.op("Div", a, b)

    def sqrt(self, a: Any) -> DeviceArray:
        return self.op("Sqrt", a)

    def where(self, condition: Any, a: Any, b: Any) -> DeviceArray:
        return self.op("SWhere", condition, a, b)

    def compare(self, name: str, a: Any, b: Any) -> DeviceArray:
        return self.op(name, a, b, out_dtype=np.bool_)

    def positive(self, a: Any) -> DeviceArray:
        return self.compare("GtTensor", a, 0)

    def sum(self, x: Any, axes: tuple[int, ...], keep: bool, out: Any = None) -> Any:
        """The sum over ``axes`` (aclnnReduceSum), into ``out`` when given."""
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape)
                      if keep or i not in axes)
        out = self.dev.empty(shape, self.dtype) if out is None else out
        if not axes:
            self.dev.aclnn("InplaceCopy", out, x)
        elif x.size:
            self.dev.aclnn("ReduceSum", x, IntArray(axes), keep, DType(self.dtype), out)
        else:
            self.dev.zero(out.array if isinstance(out, View) else out)
        return out
