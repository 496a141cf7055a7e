"""Elementwise arithmetic, comparisons, reductions and matrix products: one aclnn call each."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, DType, IntArray, Scalar, transposed


def _binary(op: str, alpha: int | None = None, out_dtype: Any = None) -> Any:
    """``op(x, y) -> out`` with NumPy broadcasting (Add and Sub take an alpha scalar)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
            out = dev.empty(np.broadcast_shapes(x.shape, y.shape), out_dtype or x.dtype)
            extra = () if alpha is None else (Scalar(alpha, x.dtype),)
            dev.aclnn(op, x, y, *extra, out)
            return out

        return kernel

    return factory


def _unary(op: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, x.dtype)
            dev.aclnn(op, x, out)
            return out

        return kernel

    return factory


def _integer_division(prim: Any, dev: AscendDevice) -> Any:
    divide = _binary("Div")(prim, dev)

    def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
        if x.dtype.kind != "f":
            raise TypeError(f"{prim.name} of {x.dtype}: aclnnDiv divides in floating point; "
                            "this backend runs it on float16, float32 and float64 only")
        return divide(x, y)

    return kernel


def _fill(value: int) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, x.dtype)
            return dev.zero(out) if value == 0 else _fill_with(dev, out, value)

        return kernel

    return factory


def _fill_with(dev: AscendDevice, out: DeviceArray, value: Any) -> DeviceArray:
    if out.size:
        dev.aclnn("InplaceFillScalar", out, Scalar(value, out.dtype))
    return out


def _fill_primitive(prim: Any, dev: AscendDevice) -> Any:
    def kernel(dtype: Any, shape: tuple[int, ...], value: Any) -> DeviceArray:
        out = dev.empty(shape, dtype.np_dtype)
        return _fill_with(dev, out, np.asarray(value, out.dtype).item())

    return kernel


def _cast(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray, dtype: Any) -> DeviceArray:
        out = dev.empty(x.shape, dtype.np_dtype)
        dev.aclnn("Cast", x, DType(out.dtype), out)
        return out

    return kernel


def _add_n(prim: Any, dev: AscendDevice) -> Any:
    def kernel(*xs: DeviceArray) -> DeviceArray:
        out = dev.empty(xs[0].shape, xs[0].dtype)
        dev.copy(out, xs[0])
        for x in xs[1:]:
            dev.aclnn("InplaceAdd", out, x, Scalar(1, out.dtype))
        return out

    return kernel


def _axes(x: DeviceArray, axis: Any) -> tuple[int, ...]:
    if axis == () or axis is None:
        return tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(a % x.ndim for a in axes))


def _reduced_shape(x: DeviceArray, axes: tuple[int, ...], keep: bool) -> tuple[int, ...]:
    return tuple(1 if i in axes else d for i, d in enumerate(x.shape) if keep or i not in axes)


def _reduce(op: str, with_dtype: bool) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        keep = prim.keep_dims

        def kernel(x: DeviceArray, axis: Any) -> DeviceArray:
            axes = _axes(x, axis) if x.ndim else ()
            out = dev.empty(_reduced_shape(x, axes, keep), x.dtype)
            if not axes:
                dev.copy(out, x)
                return out
            dtype = (DType(x.dtype),) if with_dtype else ()
            dev.aclnn(op, x, IntArray(axes), keep, *dtype, out)
            return out

        return kernel

    return factory


def _mean(prim: Any, dev: AscendDevice) -> Any:
    reduce = _reduce("Mean", True)(prim, dev)

    def kernel(x: DeviceArray, axis: Any) -> DeviceArray:
        if x.dtype.kind != "f":
            raise TypeError(f"ReduceMean of {x.dtype}: aclnnMean averages floating-point "
                            "tensors only")
        return reduce(x, axis)

    return kernel


def _argmax_to(dev: AscendDevice, x: DeviceArray, axis: int, keep: bool,
               dtype: Any) -> DeviceArray:
    axis %= x.ndim
    index = dev.empty(_reduced_shape(x, (axis,), keep), np.int64)
    dev.aclnn("ArgMax", x, axis, keep, index)
    if np.dtype(dtype) == index.dtype:
        return index
    out = dev.empty(index.shape, dtype)
    dev.aclnn("Cast", index, DType(out.dtype), out)
    return out


def _argmax(prim: Any, dev: AscendDevice) -> Any:
    axis, dtype = prim.axis, prim.output_type.np_dtype
    return lambda x: _argmax_to(dev, x, axis, False, dtype)


def _argmax_with_value(prim: Any, dev: AscendDevice) -> Any:
    axis, keep = prim.axis, prim.keep_dims

    def kernel(x: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
        index = _argmax_to(dev, x, axis, keep, np.int32)
        values = dev.empty(index.shape, x.dtype)
        dev.aclnn("Amax", x, IntArray((axis % x.ndim,)), keep, values)
        return index, values

    return kernel


def _matmul(op: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        ta, tb = prim.transpose_a, prim.transpose_b

        def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
            a, b = (transposed(x) if ta else x), (transposed(y) if tb else y)
            a_shape = a.shape
            b_shape = b.shape
            batch = np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
            out = dev.empty((*batch, a_shape[-2], b_shape[-1]), x.dtype)
            dev.aclnn(op, a, b, out, dev.cube)
            return out

        return kernel

    return factory


def _select(prim: Any, dev: AscendDevice) -> Any:
    def kernel(condition: DeviceArray, x: DeviceArray, y: DeviceArray) -> DeviceArray:
        out = dev.empty(np.broadcast_shapes(condition.shape, x.shape, y.shape), x.dtype)
        dev.aclnn("SWhere", condition, x, y, out)
        return out

    return kernel


KERNELS = {
    "Add": _binary("Add", alpha=1),
    "Sub": _binary("Sub", alpha=1),
    "Mul": _binary("Mul"),
    "Div": _integer_division,
    "RealDiv": _integer_division,
    "Pow": _binary("PowTensorTensor"),
    "Maximum": _binary("Maximum"),
    "Minimum": _binary("Minimum"),
    "Equal": _binary("EqTensor", out_dtype=np.bool_),
    "NotEqual": _binary("NeTensor", out_dtype=np.bool_),
    "Greater": _binary("GtTensor", out_dtype=np.bool_),
    "GreaterEqual": _binary("GeTensor", out_dtype=np.bool_),
    "Less": _binary("LtTensor", out_dtype=np.bool_),
    "LessEqual": _binary("LeTensor", out_dtype=np.bool_),
    "LogicalAnd": _binary("LogicalAnd"),
    "LogicalOr": _binary("LogicalOr"),
    "LogicalNot": _unary("LogicalNot"),
    "Select": _select,
    "Neg": _unary("Neg"),
    "Square": _unary("Square"),
    "Abs": _unary("Abs"),
    "Sign": _unary("Sign"),
    "Exp": _unary("Exp"),
    "Log": _unary("Log"),
    "Sqrt": _unary("Sqrt"),
    "Rsqrt": _unary("Rsqrt"),
    "Reciprocal": _unary("Reciprocal"),
    "ZerosLike": _fill(0),
    "OnesLike": _fill(1),
    "Fill": _fill_primitive,
    "Cast": _cast,
    "AddN": _add_n,
    "ReduceSum": _reduce("ReduceSum", True),
    "ReduceMean": _mean,
    "ReduceMax": _reduce("Amax", False),
    "ReduceMin": _reduce("Amin", False),
    "Argmax": _argmax,
    "ArgMaxWithValue": _argmax_with_value,
    "MatMul": _matmul("Matmul"),
    "BatchMatMul": _matmul("BatchMatMul"),
}
