"""Elementwise arithmetic, comparisons, reductions and matrix products."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from ember._autodiff import needs_grad
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import broadcast_shape, check_tensor, normalize_axis
from ember.ops.operations._paths import forwarding
from ember.ops.primitive import Primitive, Spec, describe

__all__ = [
    "Abs", "AccumulateNV2", "Add", "AddN", "ArgMax", "ArgMaxWithValue", "Argmax", "BatchMatMul",
    "Cast", "Div", "Equal", "Exp", "Fill", "Greater", "GreaterEqual", "Less", "LessEqual", "Log",
    "LogicalAnd", "LogicalNot", "LogicalOr", "MatMul", "Maximum", "Minimum", "Mul", "Neg",
    "NotEqual", "OnesLike", "Pow", "RealDiv", "Reciprocal", "ReduceMax", "ReduceMean", "ReduceMin",
    "ReduceSum", "Rsqrt", "Select", "Sign", "Sqrt", "Square", "Sub", "TensorAdd", "ZerosLike",
    "abs", "absolute", "add", "addn", "argmax", "argmax_with_value", "batch_matmul", "cast", "div",
    "equal", "exp", "fill", "greater", "greater_equal", "less", "less_equal", "log", "logical_and",
    "logical_not", "logical_or", "matmul", "maximum", "minimum", "mul", "neg", "neg_tensor",
    "not_equal", "ones_like", "pow", "pows", "real_div", "reciprocal", "reduce_max", "reduce_mean",
    "reduce_min", "reduce_sum", "rsqrt", "select", "sign", "sqrt", "square", "sub", "sum_to",
    "tensor_add", "tensor_div", "tensor_exp", "tensor_ge", "tensor_gt", "tensor_le", "tensor_lt",
    "tensor_mul", "tensor_pow", "tensor_sub", "zeros_like",
]

# MindSpore 1.6 defines these in ops.operations.math_ops too; ember in modules of their kind.
__getattr__ = forwarding(__name__, """
    ACos Acosh Addcdiv Addcmul ApproximateEqual Asin Asinh AssignAdd AssignSub Atan Atan2
    Atanh BitwiseAnd BitwiseOr BitwiseXor Ceil Cos Cosh CumProd CumSum DivNoNan Eps
    EqualCount Erf Erfc Erfinv Expm1 FloatStatus Floor FloorDiv FloorMod
    HistogramFixedWidth IndexAdd Inv Invert IsFinite IsInf IsNan Lerp LinSpace Log1p
    MatrixInverse Mod MulNoNan NMSWithMask ReduceAll ReduceAny ReduceProd Round Sin Sinh
    SquareSumAll SquaredDifference Tan Trunc TruncateDiv TruncateMod Xdivy Xlogy
    BesselI0 BesselI0e BesselI1 BesselI1e Cdist LpNorm
    Ger InplaceAdd InplaceSub
""")

_ALL = frozenset(mstype.all_types)
_NUMBER = frozenset(mstype.number_type)
_FLOAT = frozenset(mstype.float_type)
_INTEGER = frozenset((*mstype.int_type, *mstype.uint_type))
_BOOL = frozenset((mstype.bool_,))


def _ordered(dtypes: frozenset) -> tuple[mstype.Type, ...]:
    return tuple(t for t in mstype.all_types if t in dtypes)


def _check(op: str, name: str, value: Any, accepts: frozenset = _ALL) -> Tensor:
    """``value`` if it is a Tensor with a dtype in ``accepts``; TypeError naming them if not."""
    if not (isinstance(value, Tensor) and value._dtype in accepts):
        check_tensor(op, name, value, _ordered(accepts))  # raises, with the standard message
    return value


def sum_to(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Undo broadcasting: sum ``grad`` over the axes that broadcasting added or stretched."""
    if grad.shape == shape:
        return grad
    lead = len(grad.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1)
    summed = _sum_keep(grad, axes) if axes else grad
    return F.reshape(summed, shape)


# -- elementwise binary ---------------------------------------------------------------------
class _Binary(Primitive):
    """Two inputs, broadcast; a Python scalar takes the tensor's dtype; mixed dtypes promote.

    ``accepts`` holds the dtypes the promoted inputs may have. ``_Binary.infer`` is the PyNative
    hot path of Add and Mul, which accept every dtype, so it checks none; the other kinds
    override ``infer`` with ``_checked_shape``.
    """

    accepts = _ALL

    def prepare(self, args: tuple) -> tuple:
        try:
            x, y = args
        except ValueError:
            raise TypeError(f"{self.name} takes 2 inputs (x, y), but got {len(args)}") from None
        if isinstance(x, Tensor):
            if isinstance(y, Tensor):
                if x._dtype is y._dtype:
                    return args
                to = mstype.promote(x._dtype, y._dtype)
            else:
                y = self._operand(y, x)
                to = mstype.promote(x._dtype, y._dtype)
        elif isinstance(y, Tensor):
            x = self._operand(x, y)
            to = mstype.promote(x._dtype, y._dtype)
        else:
            raise TypeError(f"{self.name}: at least one input must be a Tensor, but got "
                            f"{type(x).__name__} and {type(y).__name__}")
        return (x if x._dtype is to else cast(x, to), y if y._dtype is to else cast(y, to))

    def _operand(self, value: Any, like: Tensor) -> Tensor:
        """The non-tensor input as a tensor: a number takes ``like``'s dtype unless a kind is
        lost (a float next to ints is Float32); a NumPy array keeps its own dtype."""
        if not isinstance(value, (bool, int, float)):  # a tuple: faster than a union here
            if isinstance(value, np.ndarray):
                return Tensor(value)
            if not isinstance(value, np.number | np.bool_):
                raise TypeError(f"{self.name}: the input beside a Tensor must be a Tensor or a "
                                f"number (bool, int, float), but got {type(value).__name__}")
            value = value.item()
        dtype = mstype.scalar_dtype(value, like._dtype)  # as_tensor, without Tensor.__init__
        return Tensor._make(np.array(value, dtype.np_dtype), dtype, (), None)

    def infer(self, x: Tensor, y: Tensor) -> Spec:
        shape = x._shape
        if shape != y._shape and y._shape:  # equal shapes or a 0-d ``y`` need no broadcasting
            shape = broadcast_shape(self.name, shape, y._shape)
        return shape, x._dtype

    def _checked_shape(self, x: Tensor, y: Tensor) -> tuple[int, ...]:
        if x._dtype not in self.accepts:
            accepted = ", ".join(map(str, _ordered(self.accepts)))
            raise TypeError(f"{self.name}: inputs must have dtype in [{accepted}], but got "
                            f"({describe((x, y))})")
        shape = x._shape
        if shape != y._shape and y._shape:
            shape = broadcast_shape(self.name, shape, y._shape)
        return shape


class _Arith(_Binary):
    """A binary op on numbers whose result has the inputs' (promoted) dtype."""

    accepts = _NUMBER

    def infer(self, x: Tensor, y: Tensor) -> Spec:
        return self._checked_shape(x, y), x._dtype


class Add(_Binary):
    """``x + y``, broadcast: ``Add()(x, y)``; Bool inputs give their logical or."""

    bprop_reads_inputs = bprop_reads_out = False  # shapes and dtypes only

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (sum_to(dout, x.shape) if needs_grad(x) else None,
                sum_to(dout, y.shape) if needs_grad(y) else None)


class Mul(_Binary):
    """``x * y``, broadcast: ``Mul()(x, y)``; Bool inputs give their logical and."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (sum_to(mul(dout, y), x.shape) if needs_grad(x) else None,
                sum_to(mul(dout, x), y.shape) if needs_grad(y) else None)


class Sub(_Arith):
    """``x - y``, broadcast: ``Sub()(x, y)``."""

    bprop_reads_inputs = bprop_reads_out = False  # shapes and dtypes only

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (sum_to(dout, x.shape) if needs_grad(x) else None,
                sum_to(neg(dout), y.shape) if needs_grad(y) else None)


class Div(_Arith):
    """``x / y``, broadcast: ``Div()(x, y)``. Integers divide truncating toward zero, and a
    division by zero gives the dtype's max or min (0 for 0 / 0), as MindSpore's kernels do."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        dx = div(dout, y)
        return sum_to(dx, x.shape), sum_to(neg(mul(dx, out)), y.shape)


class RealDiv(Div):
    """``x / y``, broadcast: ``RealDiv()(x, y)``; the same computation as ``Div``."""


class Pow(_Arith):
    """``x ** y``, broadcast: ``Pow()(x, y)``. Integer powers are computed in double precision
    and converted back (so ``2 ** -1`` is 0), as MindSpore's kernels do."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        dx = mul(mul(dout, y), pow(x, sub(y, 1)))
        dy = mul(mul(dout, out), log(x))
        return sum_to(dx, x.shape), sum_to(dy, y.shape)


class Maximum(_Arith):
    """The larger of ``x`` and ``y``, broadcast: ``Maximum()(x, y)``; NaN propagates, and on
    ties the gradient goes to ``y``."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return self._derived(MaximumGrad)(x, y, dout)


class Minimum(_Arith):
    """The smaller of ``x`` and ``y``, broadcast: ``Minimum()(x, y)``; NaN propagates, and on
    ties the gradient goes to ``y``."""

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return self._derived(MinimumGrad)(x, y, dout)


class _SelectGrad(Primitive):
    """``dout`` (of x and y's broadcast shape) routed to ``x`` where ``x`` wins (``compare``,
    the NumPy/TensorFlow name of the elementwise test ``x`` passes against ``y``) and to ``y``
    elsewhere, ties included, each summed back to its input's shape:
    ``Grad(grad_x=True, grad_y=True)(x, y, dout)`` -> (dx, dy); a gradient not asked for is
    zeros."""

    compare = "greater"

    def __init__(self, grad_x: bool = True, grad_y: bool = True) -> None:
        super().__init__()
        for name, value in (("grad_x", grad_x), ("grad_y", grad_y)):
            if not isinstance(value, bool):
                raise TypeError(f"{self.name}: '{name}' must be a bool, but got {value!r}")
        self.grad_x, self.grad_y = grad_x, grad_y

    def infer(self, x: Any, y: Any, dout: Any) -> list[Spec]:
        for name, value in (("x", x), ("y", y), ("dout", dout)):
            _check(self.name, name, value, _NUMBER)
        if not x._dtype is y._dtype is dout._dtype:
            raise TypeError(f"{self.name}: 'x', 'y' and 'dout' must have one dtype, but got "
                            f"({describe((x, y, dout))})")
        shape = broadcast_shape(self.name, x._shape, y._shape)
        if dout._shape != shape:
            raise ValueError(f"{self.name}: 'dout' must have x and y's broadcast shape "
                             f"{list(shape)}, but got {list(dout._shape)}")
        return [(x._shape, x._dtype), (y._shape, y._dtype)]

    def bprop(self, x: Tensor, y: Tensor, dout: Tensor, out: tuple, grads: tuple) -> tuple:
        to_x = cast(greater(x, y) if self.compare == "greater" else less(x, y), dout.dtype)
        ddout = zeros_like(dout)
        if self.grad_x:
            ddout = add(ddout, mul(grads[0], to_x))
        if self.grad_y:
            ddout = add(ddout, mul(grads[1], sub(1, to_x)))
        return zeros_like(x), zeros_like(y), ddout


class MaximumGrad(_SelectGrad):
    """The gradients of Maximum: ``MaximumGrad(grad_x=True, grad_y=True)(x, y, dout)`` ->
    (dx, dy); ``dout`` goes to ``x`` where ``x > y``, else to ``y``."""


class MinimumGrad(_SelectGrad):
    """The gradients of Minimum: ``MinimumGrad(grad_x=True, grad_y=True)(x, y, dout)`` ->
    (dx, dy); ``dout`` goes to ``x`` where ``x < y``, else to ``y``."""

    compare = "less"


# -- comparisons and logic ------------------------------------------------------------------
class _Compare(_Binary):
    """An elementwise comparison or logical op: a broadcast Bool result, gradient zero."""

    def infer(self, x: Tensor, y: Tensor) -> Spec:
        return self._checked_shape(x, y), mstype.bool_

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return zeros_like(x), zeros_like(y)


class Equal(_Compare):
    """``x == y``, broadcast, as Bool: ``Equal()(x, y)``."""


class NotEqual(_Compare):
    """``x != y``, broadcast, as Bool: ``NotEqual()(x, y)``."""


class Greater(_Compare):
    """``x > y``, broadcast, as Bool: ``Greater()(x, y)``."""


class GreaterEqual(_Compare):
    """``x >= y``, broadcast, as Bool: ``GreaterEqual()(x, y)``."""


class Less(_Compare):
    """``x < y``, broadcast, as Bool: ``Less()(x, y)``."""


class LessEqual(_Compare):
    """``x <= y``, broadcast, as Bool: ``LessEqual()(x, y)``."""


class LogicalAnd(_Compare):
    """``x and y`` of Bool tensors, broadcast: ``LogicalAnd()(x, y)``."""

    accepts = _BOOL


class LogicalOr(_Compare):
    """``x or y`` of Bool tensors, broadcast: ``LogicalOr()(x, y)``."""

    accepts = _BOOL


class Select(Primitive):
    """``x`` where ``cond`` holds, else ``y``: ``Select()(cond, x, y)``; all three of one shape,
    ``cond`` Bool, ``x`` and ``y`` of one dtype."""

    def infer(self, cond: Any, x: Any, y: Any) -> Spec:
        _check(self.name, "cond", cond, _BOOL)
        _check(self.name, "x", x)
        _check(self.name, "y", y)
        if x._dtype is not y._dtype:
            raise TypeError(f"Select: inputs 'x' and 'y' must have the same dtype, but got "
                            f"({describe((cond, x, y))})")
        if not cond._shape == x._shape == y._shape:
            raise ValueError(f"Select: inputs 'cond', 'x' and 'y' must have the same shape, "
                             f"but got ({describe((cond, x, y))})")
        return x._shape, x._dtype

    def bprop(self, cond: Tensor, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        zeros = zeros_like(dout)
        return None, select(cond, dout, zeros), select(cond, zeros, dout)


# -- elementwise unary ----------------------------------------------------------------------
class _Unary(Primitive):
    """One tensor input; the result has its shape and dtype."""

    accepts = _ALL

    def infer(self, x: Any) -> Spec:
        if not (isinstance(x, Tensor) and x._dtype in self.accepts):  # ``_check``, inlined
            _check(self.name, "x", x, self.accepts)
        return x._shape, x._dtype


class _NumberUnary(_Unary):
    accepts = _NUMBER


class _FloatUnary(_Unary):
    accepts = _FLOAT


class _PromotingUnary(_Unary):
    """A float function that takes integer tensors as MindSpore 1.6 does in PyNative mode (where
    it computes them with NumPy): cast first to NumPy's float for them (Float16 for 8-bit,
    Float32 for 16-bit, Float64 for wider integers)."""

    accepts = _NUMBER  # as named in errors; integers are cast before ``infer``

    def prepare(self, args: tuple) -> tuple:
        x = args[0] if len(args) == 1 else None
        if isinstance(x, Tensor) and x._dtype in _INTEGER:
            float_type = mstype.from_numpy(np.result_type(x._dtype.np_dtype, np.float16))
            return (cast(x, float_type),)
        return args


class Neg(_NumberUnary):
    """``-x``: ``Neg()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (neg(dout),)


class Square(_NumberUnary):
    """``x * x``: ``Square()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (mul(dout, mul(x, 2)),)


class Abs(_NumberUnary):
    """``|x|``: ``Abs()(x)``; the gradient at 0 is 0."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (mul(dout, sign(x)),)


class Sign(_NumberUnary):
    """-1, 0 or 1 by the sign of ``x``: ``Sign()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class Exp(_PromotingUnary):
    """``e ** x``: ``Exp()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (mul(dout, out),)


class Log(_FloatUnary):
    """Natural logarithm: ``Log()(x)``; -inf at 0, NaN below."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (div(dout, x),)


class Sqrt(_PromotingUnary):
    """Square root: ``Sqrt()(x)``; NaN below 0."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (div(dout, mul(out, 2)),)


class SqrtGrad(Primitive):
    """The gradient of Sqrt from its output ``y``: ``dy / (2 * y)``: ``SqrtGrad()(y, dy)``."""

    def infer(self, y: Any, dy: Any) -> Spec:
        _check(self.name, "y", y, _FLOAT)
        _check(self.name, "dy", dy, frozenset((y.dtype,)))
        if dy.shape != y.shape:
            raise ValueError(f"SqrtGrad: dy must have y's shape {list(y.shape)}, but got "
                             f"{list(dy.shape)}")
        return y.shape, y.dtype


class Rsqrt(_FloatUnary):
    """``1 / sqrt(x)``: ``Rsqrt()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (mul(dout, mul(pow(out, 3), -0.5)),)


class Reciprocal(_FloatUnary):
    """``1 / x``: ``Reciprocal()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (self._derived(ReciprocalGrad)(out, dout),)


class ReciprocalGrad(Primitive):
    """The gradient of Reciprocal from its output ``y``: ``-dy * y ** 2``:
    ``ReciprocalGrad()(y, dy)``."""

    def infer(self, y: Any, dy: Any) -> Spec:
        _check(self.name, "y", y, _FLOAT)
        _check(self.name, "dy", dy, frozenset((y.dtype,)))
        if dy.shape != y.shape:
            raise ValueError(f"ReciprocalGrad: 'dy' must have y's shape {list(y.shape)}, but "
                             f"got {list(dy.shape)}")
        return y.shape, y.dtype

    def bprop(self, y: Tensor, dy: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return mul(mul(dout, dy), mul(y, -2)), self(y, dout)


class LogicalNot(_Unary):
    """``not x`` of a Bool tensor: ``LogicalNot()(x)``."""

    accepts = _BOOL

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class ZerosLike(_Unary):
    """A tensor of zeros with the shape and dtype of ``x``: ``ZerosLike()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class OnesLike(_Unary):
    """A tensor of ones with the shape and dtype of ``x``: ``OnesLike()(x)``."""

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


# -- casts, fills, sums of lists ------------------------------------------------------------
def _dtype_arg(op: str, dtype: Any) -> mstype.Type:
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"{op}: dtype must be an ember dtype such as ember.float32, "
                        f"but got {dtype!r}")
    return dtype


class Cast(Primitive):
    """``x`` (a tensor or a number) converted to ``dtype``: ``Cast()(x, ember.float16)``."""

    def prepare(self, args: tuple) -> tuple:
        x, dtype = args
        if isinstance(x, bool | int | float):
            return Tensor(x), dtype
        return args

    def infer(self, x: Any, dtype: Any) -> Spec:
        _check(self.name, "x", x)
        return x._shape, _dtype_arg(self.name, dtype)

    def bprop(self, x: Tensor, dtype: mstype.Type, out: Tensor, dout: Tensor) -> tuple:
        return cast(dout, x.dtype), None


class Fill(Primitive):
    """A tensor of ``shape`` filled with ``value``: ``Fill()(dtype, shape, value)``."""

    def infer(self, dtype: Any, shape: Any, value: Any) -> Spec:
        dtype = _dtype_arg(self.name, dtype)
        if not isinstance(shape, tuple | list) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
            raise TypeError(f"Fill: shape must be a tuple of non-negative ints, but got "
                            f"{shape!r}")
        if not isinstance(value, bool | int | float):
            raise TypeError(f"Fill: value must be a number (bool, int, float), but got "
                            f"{type(value).__name__}")
        return tuple(shape), dtype


class AddN(Primitive):
    """The sum of a tuple or list of tensors of one shape and dtype: ``AddN()((x, y, z))``."""

    def __call__(self, inputs: Any) -> Any:
        if not isinstance(inputs, tuple | list) or not inputs:
            kind = type(inputs).__name__
            got = f"an empty {kind}" if isinstance(inputs, tuple | list) else kind
            raise TypeError(f"{self.name}: inputs must be a non-empty tuple or list of Tensors, "
                            f"but got {got}")
        return super().__call__(*inputs)

    def infer(self, *xs: Any) -> Spec:
        for i, x in enumerate(xs):
            _check(self.name, f"inputs[{i}]", x, _NUMBER)
        first = xs[0]
        if any(x._shape != first._shape or x._dtype is not first._dtype for x in xs):
            raise ValueError(f"{self.name}: inputs must all have the same shape and dtype, but "
                             f"got ({describe(xs)})")
        return first._shape, first._dtype

    def bprop(self, *args: Any) -> tuple:
        dout = args[-1]
        return (dout,) * (len(args) - 2)


class AccumulateNV2(AddN):
    """The sum of a tuple or list of tensors of one shape and dtype, as ``AddN``:
    ``AccumulateNV2()((x, y, z))``."""


# -- reductions -----------------------------------------------------------------------------
class _Reduce(Primitive):
    """Reduce over ``axis`` (an int, a tuple or list, or () for every axis), keeping the
    reduced dims as 1 if ``keep_dims``. ``needs_elements``: reducing an empty axis is an error.
    """

    accepts = _NUMBER
    needs_elements = False

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"{self.name}: keep_dims must be a bool, but got {keep_dims!r}")
        self.keep_dims = keep_dims

    def __call__(self, x: Any, axis: Any = ()) -> Any:
        return super().__call__(x, axis)

    def prepare(self, args: tuple) -> tuple:
        x, axis = args
        if isinstance(axis, tuple | list) and len(axis) > 1 and isinstance(x, Tensor):
            return x, normalize_axis(self.name, axis, x.ndim)  # kernels get each axis once
        return (x, tuple(axis)) if isinstance(axis, list) else args

    def infer(self, x: Any, axis: Any) -> Spec:
        _check(self.name, "x", x, self.accepts)
        axes = normalize_axis(self.name, axis, x.ndim)
        if self.needs_elements and any(x._shape[a] == 0 for a in axes if a < x.ndim):
            raise ValueError(f"{self.name}: cannot reduce an empty axis (axis {axis!r} of "
                             f"{describe((x,))}); the reduction has no identity")
        if self.keep_dims:
            shape = tuple(1 if i in axes else n for i, n in enumerate(x._shape))
        else:
            shape = tuple(n for i, n in enumerate(x._shape) if i not in axes)
        return shape, x._dtype

    def _keep_shape(self, x: Tensor, axis: Any) -> tuple[int, ...]:
        axes = normalize_axis(self.name, axis, x.ndim)
        return tuple(1 if i in axes else n for i, n in enumerate(x.shape))

    def _spread(self, x: Tensor, axis: Any, dout: Tensor) -> Tensor:
        """``dout`` broadcast back over the reduced axes of ``x``."""
        return F.broadcast_to(F.reshape(dout, self._keep_shape(x, axis)), x.shape)


class ReduceSum(_Reduce):
    """Sum over ``axis``: ``ReduceSum(keep_dims=False)(x, axis=())``."""

    def bprop(self, x: Tensor, axis: Any, out: Tensor, dout: Tensor) -> tuple:
        return self._spread(x, axis, dout), None


class ReduceMean(_Reduce):
    """Mean over ``axis`` in the dtype of ``x``: ``ReduceMean(keep_dims=False)(x, axis=())``."""

    def bprop(self, x: Tensor, axis: Any, out: Tensor, dout: Tensor) -> tuple:
        count = math.prod(x.shape[a] for a in normalize_axis(self.name, axis, x.ndim)
                          if a < x.ndim)
        return div(self._spread(x, axis, dout), count), None


class _ReduceExtreme(_Reduce):
    """ReduceMax/ReduceMin: the gradient goes to the extreme elements, shared among ties."""

    accepts = _ALL
    needs_elements = True

    def bprop(self, x: Tensor, axis: Any, out: Tensor, dout: Tensor) -> tuple:
        keep = self._keep_shape(x, axis)
        hits = cast(equal(x, F.reshape(out, keep)), dout.dtype)
        share = div(hits, _sum_keep(hits, axis))
        return mul(share, F.reshape(dout, keep)), None


class ReduceMax(_ReduceExtreme):
    """Maximum over ``axis``: ``ReduceMax(keep_dims=False)(x, axis=())``."""


class ReduceMin(_ReduceExtreme):
    """Minimum over ``axis``: ``ReduceMin(keep_dims=False)(x, axis=())``."""


class _ArgReduce(Primitive):
    """Index of the ``extreme`` (maximum or minimum) along the attribute ``axis`` of a tensor
    of rank >= 1."""

    extreme = "maximum"

    def __init__(self, axis: int) -> None:
        super().__init__()
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"{self.name}: axis must be an int, but got {axis!r}")
        self.axis = axis

    def _reduced_shape(self, x: Any, keep_dims: bool) -> tuple[int, ...]:
        _check(self.name, "x", x, _NUMBER)
        if x.ndim == 0:
            raise ValueError(f"{self.name}: input 'x' must have rank >= 1, but got "
                             f"{describe((x,))}")
        (axis,) = normalize_axis(self.name, self.axis, x.ndim)
        if x._shape[axis] == 0:
            raise ValueError(f"{self.name}: axis {self.axis} of {describe((x,))} is empty; "
                             f"it has no {self.extreme}")
        shape = list(x._shape)
        if keep_dims:
            shape[axis] = 1
        else:
            del shape[axis]
        return tuple(shape)


class Argmax(_ArgReduce):
    """Index of the maximum along ``axis``: ``Argmax(axis=-1, output_type=ember.int32)(x)``."""

    def __init__(self, axis: int = -1, output_type: mstype.Type = mstype.int32) -> None:
        super().__init__(axis)
        if output_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"{self.name}: output_type must be ember.int32 or ember.int64, "
                            f"but got {output_type!r}")
        self.output_type = output_type

    def infer(self, x: Any) -> Spec:
        return self._reduced_shape(x, False), self.output_type

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (zeros_like(x),)


class ArgMaxWithValue(_ArgReduce):
    """``(index, value)`` of the maximum along ``axis``, index Int32:
    ``ArgMaxWithValue(axis=0, keep_dims=False)(x)``."""

    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        super().__init__(axis)
        if not isinstance(keep_dims, bool):
            raise TypeError(f"{self.name}: keep_dims must be a bool, but got {keep_dims!r}")
        self.keep_dims = keep_dims

    def infer(self, x: Any) -> list[Spec]:
        shape = self._reduced_shape(x, self.keep_dims)
        return [(shape, mstype.int32), (shape, x._dtype)]

    def bprop(self, x: Tensor, out: tuple, dout: tuple) -> tuple:
        (axis,) = normalize_axis(self.name, self.axis, x.ndim)
        keep = x.shape[:axis] + (1,) + x.shape[axis + 1:]
        positions = (1,) * axis + (x.shape[axis],) + (1,) * (x.ndim - axis - 1)
        iota = Tensor(np.arange(x.shape[axis], dtype=np.int32).reshape(positions))
        hit = cast(equal(F.reshape(out[0], keep), iota), dout[1].dtype)
        return (mul(hit, F.reshape(dout[1], keep)),)


# -- matrix products ------------------------------------------------------------------------
class _MatMul(Primitive):
    """``x @ y`` over the last two axes, each transposed first if asked. ``batched``: inputs of
    one rank >= 3 whose batch axes broadcast; otherwise matrices (rank 2)."""

    bprop_reads_out = False

    batched = False

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__()
        for name, value in (("transpose_a", transpose_a), ("transpose_b", transpose_b)):
            if not isinstance(value, bool):
                raise TypeError(f"{self.name}: {name} must be a bool, but got {value!r}")
        self.transpose_a = transpose_a
        self.transpose_b = transpose_b

    def infer(self, x: Any, y: Any) -> Spec:
        _check(self.name, "x", x, _NUMBER)
        _check(self.name, "y", y, _NUMBER)
        if x._dtype is not y._dtype:
            raise TypeError(f"{self.name}: inputs must have the same dtype, but got "
                            f"({describe((x, y))})")
        if not self.batched and (x.ndim != 2 or y.ndim != 2):
            raise ValueError(f"MatMul: inputs must be 2-D, but got ({describe((x, y))}); "
                             "use BatchMatMul for batches")
        if self.batched and (x.ndim != y.ndim or x.ndim < 3):
            raise ValueError(f"BatchMatMul: inputs must have the same rank, at least 3, but "
                             f"got ({describe((x, y))})")
        batch = broadcast_shape(self.name, x._shape[:-2], y._shape[:-2])
        n, kx = x._shape[-2:][::-1] if self.transpose_a else x._shape[-2:]
        ky, m = y._shape[-2:][::-1] if self.transpose_b else y._shape[-2:]
        if kx != ky:
            raise ValueError(f"{self.name}: the inner dimensions must be equal, but got {kx} "
                             f"and {ky} (inputs {describe((x, y))}, transpose_a="
                             f"{self.transpose_a}, transpose_b={self.transpose_b})")
        return (*batch, n, m), x._dtype

    def bprop(self, x: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        ta, tb, batched = self.transpose_a, self.transpose_b, self.batched
        dx = dy = None
        if needs_grad(x):
            dx = sum_to(_product(batched, tb, True)(y, dout) if ta else
                        _product(batched, False, not tb)(dout, y), x.shape)
        if needs_grad(y):
            dy = sum_to(_product(batched, True, ta)(dout, x) if tb else
                        _product(batched, not ta, False)(x, dout), y.shape)
        return dx, dy


@functools.cache
def _product(batched: bool, transpose_a: bool, transpose_b: bool) -> _MatMul:
    """One shared MatMul or BatchMatMul per transposition, for backward rules."""
    return (BatchMatMul if batched else MatMul)(transpose_a, transpose_b)


class MatMul(_MatMul):
    """The product of two matrices: ``MatMul(transpose_a=False, transpose_b=False)(x, y)``."""


class BatchMatMul(_MatMul):
    """Matrix products over broadcast batch axes, both inputs of one rank >= 3:
    ``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``."""

    batched = True


add = tensor_add = Add()
TensorAdd = Add  # MindSpore 1.x's older name of Add
sub = tensor_sub = Sub()
mul = tensor_mul = Mul()
div = Div()
real_div = tensor_div = RealDiv()
pow = tensor_pow = pows = Pow()  # MindSpore's names; shadows the builtin in this module
maximum = Maximum()
minimum = Minimum()
equal = Equal()
not_equal = NotEqual()
greater = tensor_gt = Greater()
greater_equal = tensor_ge = GreaterEqual()
less = tensor_lt = Less()
less_equal = tensor_le = LessEqual()
logical_and = LogicalAnd()
logical_or = LogicalOr()
logical_not = LogicalNot()
select = Select()
neg = neg_tensor = Neg()
square = Square()
abs = absolute = Abs()  # shadows the builtin in this module, as in MindSpore
sign = Sign()
exp = tensor_exp = Exp()
log = Log()
sqrt = Sqrt()
rsqrt = Rsqrt()
reciprocal = Reciprocal()
zeros_like = ZerosLike()
ones_like = OnesLike()
cast = Cast()
fill = Fill()
addn = AddN()
reduce_sum = ReduceSum()
_sum_keep = ReduceSum(keep_dims=True)
reduce_mean = ReduceMean()
reduce_max = ReduceMax()
reduce_min = ReduceMin()
argmax = Argmax()
ArgMax = Argmax  # the spelling of later MindSpore versions
argmax_with_value = ArgMaxWithValue()
matmul = MatMul()
batch_matmul = BatchMatMul()
