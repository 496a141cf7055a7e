"""Elementwise arithmetic, comparisons, reductions and matrix products: one aclnn call each."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, DType, IntArray, Scalar, transposed
from ember_ascend.kernels.common import binary, floats_only, unary

_DIVIDE = floats_only(binary("Div"), "aclnnDiv divides in floating point")


def _squared_difference(prim: Any, dev: AscendDevice) -> Any:
    subtract = binary("Sub", alpha=1)(prim, dev)

    def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
        difference = subtract(x, y)
        out = dev.empty(difference.shape, difference.dtype)
        dev.aclnn("Square", difference, out)
        return out

    return kernel


def _zero_where_y_is_zero(op: str) -> Any:
    """``op(x, y')`` with y' = 1 where y is 0, then 0 there (DivNoNan, MulNoNan): aclnnEqTensor
    and aclnnSWhere around the operator. Integers divide by aclnnTruncateDiv (C's division)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
            name = "TruncateDiv" if op == "Div" and x.dtype.kind in "iu" else op
            zero = dev.empty(y.shape, np.bool_)
            dev.aclnn("EqTensor", y, dev.constant(0, y.dtype), zero)
            safe = dev.empty(y.shape, y.dtype)
            dev.aclnn("SWhere", zero, dev.constant(1, y.dtype), y, safe)
            shape = np.broadcast_shapes(x.shape, y.shape)
            result, out = dev.empty(shape, x.dtype), dev.empty(shape, x.dtype)
            dev.aclnn(name, x, safe, result)
            dev.aclnn("SWhere", zero, dev.constant(0, x.dtype), result, out)
            return out

        return kernel

    return factory


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


def _index_of(op: str, dev: AscendDevice, x: DeviceArray, axis: int, keep: bool,
              dtype: Any) -> DeviceArray:
    """aclnnArgMax/ArgMin (int64) over ``axis``, cast to ``dtype``."""
    axis %= x.ndim
    index = dev.empty(_reduced_shape(x, (axis,), keep), np.int64)
    dev.aclnn(op, x, axis, keep, index)
    if np.dtype(dtype) == index.dtype:
        return index
    out = dev.empty(index.shape, dtype)
    dev.aclnn("Cast", index, DType(out.dtype), out)
    return out


def _arg_index(op: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        axis, dtype = prim.axis, prim.output_type.np_dtype
        return lambda x: _index_of(op, dev, x, axis, False, dtype)

    return factory


def _arg_with_value(op: str, extreme: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        axis, keep = prim.axis, prim.keep_dims

        def kernel(x: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
            index = _index_of(op, dev, x, axis, keep, np.int32)
            values = dev.empty(index.shape, x.dtype)
            dev.aclnn(extreme, x, IntArray((axis % x.ndim,)), keep, values)
            return index, values

        return kernel

    return factory


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
    "Add": binary("Add", alpha=1),
    "Sub": binary("Sub", alpha=1),
    "Mul": binary("Mul"),
    "Div": _DIVIDE,
    "RealDiv": _DIVIDE,
    "Pow": binary("PowTensorTensor"),
    "Atan2": binary("Atan2"),
    "FloorDiv": binary("FloorDivide"),
    "FloorMod": binary("RemainderTensorTensor"),
    "TruncateMod": binary("FmodTensor"),
    "Mod": binary("FmodTensor"),
    "DivNoNan": _zero_where_y_is_zero("Div"),
    "MulNoNan": _zero_where_y_is_zero("Mul"),
    "TruncateDiv": binary("TruncateDiv"),
    "SquaredDifference": _squared_difference,
    "Xlogy": binary("XLogYTensor"),
    "BitwiseAnd": binary("BitwiseAndTensor"),
    "BitwiseOr": binary("BitwiseOrTensor"),
    "BitwiseXor": binary("BitwiseXorTensor"),
    "Maximum": binary("Maximum"),
    "Minimum": binary("Minimum"),
    "Equal": binary("EqTensor", out_dtype=np.bool_),
    "NotEqual": binary("NeTensor", out_dtype=np.bool_),
    "Greater": binary("GtTensor", out_dtype=np.bool_),
    "GreaterEqual": binary("GeTensor", out_dtype=np.bool_),
    "Less": binary("LtTensor", out_dtype=np.bool_),
    "LessEqual": binary("LeTensor", out_dtype=np.bool_),
    "LogicalAnd": binary("LogicalAnd"),
    "LogicalOr": binary("LogicalOr"),
    "LogicalNot": unary("LogicalNot"),
    "Select": _select,
    "Neg": unary("Neg"),
    "Square": unary("Square"),
    "Abs": unary("Abs"),
    "Sign": unary("Sign"),
    "Exp": unary("Exp"),
    "Log": unary("Log"),
    "Sqrt": unary("Sqrt"),
    "Rsqrt": unary("Rsqrt"),
    "Reciprocal": unary("Reciprocal"),
    "Inv": unary("Reciprocal"),
    "Expm1": unary("Expm1"),
    "Log1p": unary("Log1p"),
    "Sin": unary("Sin"),
    "Cos": unary("Cos"),
    "Tan": unary("Tan"),
    "Sinh": unary("Sinh"),
    "Cosh": unary("Cosh"),
    "Asin": unary("Asin"),
    "ACos": unary("Acos"),
    "Atan": unary("Atan"),
    "Asinh": unary("Asinh"),
    "Acosh": unary("Acosh"),
    "Atanh": unary("Atanh"),
    "Erf": unary("Erf"),
    "Erfc": unary("Erfc"),
    "Floor": unary("Floor"),
    "Ceil": unary("Ceil"),
    "Round": unary("Round"),
    "Rint": unary("Round"),
    "Invert": unary("BitwiseNot"),
    "IsFinite": unary("IsFinite", np.bool_),
    "IsInf": unary("IsInf", np.bool_),
    "ZerosLike": _fill(0),
    "OnesLike": _fill(1),
    "Fill": _fill_primitive,
    "Cast": _cast,
    "AddN": _add_n,
    "AccumulateNV2": _add_n,
    "ReduceSum": _reduce("ReduceSum", True),
    "ReduceMean": floats_only(_reduce("Mean", True), "aclnnMean averages in floating point"),
    "ReduceMax": _reduce("Amax", False),
    "ReduceMin": _reduce("Amin", False),
    "Argmax": _arg_index("ArgMax"),
    "Argmin": _arg_index("ArgMin"),
    "ArgMaxWithValue": _arg_with_value("ArgMax", "Amax"),
    "ArgMinWithValue": _arg_with_value("ArgMin", "Amin"),
    "ReduceAll": _reduce("All", False),
    "ReduceAny": _reduce("Any", False),
    "MatMul": _matmul("Matmul"),
    "BatchMatMul": _matmul("BatchMatMul"),
}
