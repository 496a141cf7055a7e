"""Elementwise arithmetic, comparisons, reductions, matrix products and inverses: one aclnn call
each."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import (
    AscendDevice,
    DeviceArray,
    DType,
    IntArray,
    Scalar,
    transposed,
    view,
)
from ember_ascend.kernels.common import Arithmetic, binary, unary


def _squared_difference(prim: Any, dev: AscendDevice) -> Any:
    subtract = binary("Sub", alpha=1)(prim, dev)

    def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
        difference = subtract(x, y)
        out = dev.empty(difference.shape, difference.dtype)
        dev.aclnn("Square", difference, out)
        return out

    return kernel


def _guarded(dev: AscendDevice, op: str, x: DeviceArray, y: DeviceArray,
             at_zero: DeviceArray) -> DeviceArray:
    """``op(x, y)`` with y's zeros replaced by 1, then ``at_zero`` where y is 0 (aclnnEqTensor
    and aclnnSWhere around the operator)."""
    zero = dev.empty(y.shape, np.bool_)
    dev.aclnn("EqTensor", y, dev.constant(0, y.dtype), zero)
    safe = dev.empty(y.shape, y.dtype)
    dev.aclnn("SWhere", zero, dev.constant(1, y.dtype), y, safe)
    shape = np.broadcast_shapes(x.shape, y.shape)
    result, out = dev.empty(shape, x.dtype), dev.empty(shape, x.dtype)
    dev.aclnn(op, x, safe, result)
    dev.aclnn("SWhere", zero, at_zero, result, out)
    return out


def _saturation(dev: AscendDevice, x: DeviceArray) -> DeviceArray:
    """What MindSpore gives for x / 0 in integers: the dtype's max, min, or 0 for 0 / 0."""
    info = np.iinfo(x.dtype)
    signs = []
    for op in ("GtTensor", "LtTensor"):
        sign = dev.empty(x.shape, np.bool_)
        dev.aclnn(op, x, dev.constant(0, x.dtype), sign)
        signs.append(sign)
    below, out = dev.empty(x.shape, x.dtype), dev.empty(x.shape, x.dtype)
    dev.aclnn("SWhere", signs[1], dev.constant(info.min, x.dtype), dev.constant(0, x.dtype),
              below)
    dev.aclnn("SWhere", signs[0], dev.constant(info.max, x.dtype), below, out)
    return out


def _divide(op: str) -> Any:
    """Floats: aclnn ``op``. Integers: MindSpore's quotient (Div truncates toward zero,
    FloorDiv floors) with x / 0 saturated, composed since aclnn divides integers in floating
    point (Div) or leaves x / 0 undefined (FloorDivide)."""
    integer = "TruncateDiv" if op == "Div" else op

    def factory(prim: Any, dev: AscendDevice) -> Any:
        floats = binary(op)(prim, dev)

        def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
            if x.dtype.kind == "f":
                return floats(x, y)
            return _guarded(dev, integer, x, y, _saturation(dev, x))

        return kernel

    return factory


def _zero_where_y_is_zero(op: str) -> Any:
    """DivNoNan, MulNoNan: ``op(x, y)``, 0 where y is 0 (integers divide by TruncateDiv)."""
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, y: DeviceArray) -> DeviceArray:
            name = "TruncateDiv" if op == "Div" and x.dtype.kind in "iu" else op
            return _guarded(dev, name, x, y, dev.constant(0, x.dtype))

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


def _reduce_mean(prim: Any, dev: AscendDevice) -> Any:
    """aclnnMean for floats; integer means truncate toward zero (aclnnMean averages in floating
    point): aclnnReduceSum, then aclnnTruncateDiv by the count; the mean of nothing is the
    dtype's min (NaN converted, as on the CPU backend)."""
    floats, summed = _reduce("Mean", True)(prim, dev), _reduce("ReduceSum", True)(prim, dev)

    def kernel(x: DeviceArray, axis: Any) -> DeviceArray:
        if x.dtype.kind == "f":
            return floats(x, axis)
        total = summed(x, axis)
        out = dev.empty(total.shape, x.dtype)
        count = x.size // max(total.size, 1) if x.size else 0
        if not count:
            return _fill_with(dev, out, int(np.iinfo(x.dtype).min))
        dev.aclnn("TruncateDiv", total, dev.constant(count, x.dtype), out)
        return out

    return kernel


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


def _matrix_inverse(prim: Any, dev: AscendDevice) -> Any:
    """aclnnInverse of x, or of its transpose (a strided view) when ``adjoint``."""
    def kernel(x: DeviceArray) -> DeviceArray:
        out = dev.empty(x.shape, x.dtype)
        if out.size:
            dev.aclnn("Inverse", transposed(x) if prim.adjoint else x, out)
        return out

    return kernel


def _ger(prim: Any, dev: AscendDevice) -> Any:
    """aclnnMul of x1 as a column by x2 as a row."""
    def kernel(x1: DeviceArray, x2: DeviceArray) -> DeviceArray:
        out = dev.empty((x1.size, x2.size), x1.dtype)
        if out.size:
            dev.aclnn("Mul", view(x1, (x1.size, 1)), view(x2, (1, x2.size)), out)
        return out

    return kernel


def _select(prim: Any, dev: AscendDevice) -> Any:
    def kernel(condition: DeviceArray, x: DeviceArray, y: DeviceArray) -> DeviceArray:
        out = dev.empty(np.broadcast_shapes(condition.shape, x.shape, y.shape), x.dtype)
        dev.aclnn("SWhere", condition, x, y, out)
        return out

    return kernel


def _select_grad(prim: Any, dev: AscendDevice) -> Any:
    """MaximumGrad or MinimumGrad: aclnnGtTensor (LtTensor) of x and y, aclnnSWhere of
    ``dout`` and 0 for each input, summed back to its shape (aclnnReduceSum)."""
    test = "GtTensor" if prim.compare == "greater" else "LtTensor"

    def to_shape(a: Arithmetic, full: DeviceArray, shape: tuple[int, ...]) -> DeviceArray:
        lead = full.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                          if n == 1 and full.shape[lead + i] != 1)
        out = dev.empty(shape, full.dtype)
        a.sum(full, axes, True, view(out, (1,) * lead + shape))
        return out

    def kernel(x: DeviceArray, y: DeviceArray, dout: DeviceArray) -> tuple:
        a = Arithmetic(dev, dout.dtype)
        to_x = a.compare(test, x, y)
        return tuple(to_shape(a, a.where(to_x, *chosen), side.shape) if wanted
                     else dev.zero(dev.empty(side.shape, dout.dtype))
                     for wanted, side, chosen in ((prim.grad_x, x, (dout, 0)),
                                                  (prim.grad_y, y, (0, dout))))

    return kernel


def _reciprocal_grad(prim: Any, dev: AscendDevice) -> Any:
    def kernel(y: DeviceArray, dy: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, y.dtype)
        return a.mul(a.mul(y, y), a.mul(dy, -1))

    return kernel


KERNELS = {
    "Add": binary("Add", alpha=1),
    "Sub": binary("Sub", alpha=1),
    "Mul": binary("Mul"),
    "Div": _divide("Div"),
    "RealDiv": _divide("Div"),
    "Pow": binary("PowTensorTensor"),
    "Atan2": binary("Atan2"),
    "FloorDiv": _divide("FloorDivide"),
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
    "MaximumGrad": _select_grad,
    "MinimumGrad": _select_grad,
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
    "ReciprocalGrad": _reciprocal_grad,
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
    "ReduceMean": _reduce_mean,
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
    "MatrixInverse": _matrix_inverse,
    "Ger": _ger,
}
