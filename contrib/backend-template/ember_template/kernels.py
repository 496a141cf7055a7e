"""The template's kernels: one table from primitive name to kernel factory.

``KERNELS[prim.name](prim)`` is called once per primitive instance and returns the function
that runs it; attributes (``keep_dims``, ``transpose_a``) are read there, not on every call. The
function takes NumPy arrays (the executor unwraps the device arrays) and the primitive's
non-tensor inputs as Python values (axes, shapes, ember dtypes), and returns an array, or a
tuple of arrays for a primitive with several outputs.

Two rules every kernel keeps, because the conformance kit checks them:

- The result has the dtype the primitive's ``infer`` gives, which is MindSpore's, not NumPy's:
  ``int32 / int32`` stays Int32 (truncated toward zero), sums of Int32 stay Int32 (NumPy's
  ``sum`` widens them to int64), and a mean of integers is an integer.
- inf and NaN are values, not errors. The executor runs every kernel under
  ``np.errstate(all="ignore")``, so none of NumPy's RuntimeWarnings escape.

Primitives missing from the table raise ``MissingKernelError`` (see ``executor.py``) and are
listed in ``tests/known_gaps.txt``. A kernel written for another device replaces the NumPy
call, the table stays the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Kernel = Callable[..., Any]
Factory = Callable[[Any], Kernel]


def plain(fn: Kernel) -> Factory:
    """The factory of a kernel that reads no attribute of its primitive."""
    return lambda prim: fn


# -- elementwise --------------------------------------------------------------------------
def _divide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Div``/``RealDiv``: floats as IEEE; integers truncate toward zero, and ``n / 0`` is
    the dtype's max for n > 0, its min for n < 0 and 0 for 0 (MindSpore's kernels)."""
    if x.dtype.kind == "f":
        return np.true_divide(x, y)
    safe = np.where(y == 0, 1, y).astype(y.dtype)
    quotient = (x - np.fmod(x, safe)) // safe  # exact: the numerator is a multiple of safe
    info = np.iinfo(x.dtype)
    by_zero = np.where(x > 0, info.max, np.where(x < 0, info.min, 0))
    return np.where(y == 0, by_zero, quotient).astype(x.dtype)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 + 0.5 * np.tanh(0.5 * x)  # no overflow for large |x|, unlike 1 / (1 + e^-x)


def _routed(prim: Any) -> Kernel:
    """MaximumGrad/MinimumGrad: ``dout`` to x where x wins (``np.<prim.compare>(x, y)``), else
    to y, each summed over the axes broadcasting added or stretched; zeros where the
    primitive's ``grad_x``/``grad_y`` is off."""
    wins = getattr(np, prim.compare)

    def back(a: np.ndarray, shape: tuple[int, ...], wanted: bool) -> np.ndarray:
        lead = a.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                          if n == 1 and a.shape[lead + i] != 1)
        return np.sum(a, axis=axes, dtype=a.dtype).reshape(shape) * wanted

    def kernel(x: np.ndarray, y: np.ndarray, dout: np.ndarray) -> tuple:
        to_x, zero = wins(x, y), np.zeros((), dout.dtype)
        return (back(np.where(to_x, dout, zero), x.shape, prim.grad_x),
                back(np.where(to_x, zero, dout), y.shape, prim.grad_y))

    return kernel


BINARY: dict[str, Factory] = {
    "Add": plain(np.add),  # Bool + Bool is their logical or, as in MindSpore and NumPy
    "Sub": plain(np.subtract),
    "Mul": plain(np.multiply),
    "Div": plain(_divide),
    "RealDiv": plain(_divide),
    "Maximum": plain(np.maximum),  # NaN propagates
    "Minimum": plain(np.minimum),
}

COMPARE: dict[str, Factory] = {
    "Equal": plain(np.equal),
    "NotEqual": plain(np.not_equal),
    "Greater": plain(np.greater),
    "GreaterEqual": plain(np.greater_equal),
    "Less": plain(np.less),
    "LessEqual": plain(np.less_equal),
    "LogicalAnd": plain(np.logical_and),
    "LogicalOr": plain(np.logical_or),
    "LogicalNot": plain(np.logical_not),
    "Select": plain(np.where),
}

UNARY: dict[str, Factory] = {
    "Neg": plain(np.negative),
    "Square": plain(np.square),
    "Abs": plain(np.abs),
    "Sign": plain(np.sign),
    "Exp": plain(np.exp),
    "Log": plain(np.log),
    "Sqrt": plain(np.sqrt),
    "Reciprocal": plain(np.reciprocal),
    "ReciprocalGrad": plain(lambda y, dy: -dy * y * y),
    "MaximumGrad": _routed,
    "MinimumGrad": _routed,
    "ZerosLike": plain(np.zeros_like),
    "OnesLike": plain(np.ones_like),
    "Cast": plain(lambda x, dtype: x.astype(dtype.np_dtype)),
}

ACTIVATIONS: dict[str, Factory] = {
    "ReLU": plain(lambda x: np.maximum(x, 0)),  # NaN stays NaN
    "ReluGrad": plain(lambda dy, x: np.where(x > 0, dy, np.zeros_like(dy))),
    "Sigmoid": plain(_sigmoid),
    "SigmoidGrad": plain(lambda y, dy: dy * y * (1 - y)),
    "Tanh": plain(np.tanh),
    "TanhGrad": plain(lambda y, dy: dy * (1 - y * y)),
}


# -- reductions ---------------------------------------------------------------------------
def _mean(x: np.ndarray, axis: Any, keepdims: bool) -> np.ndarray:
    """The mean in float64, then in the dtype of ``x`` (an integer mean truncates)."""
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.float64)
    count = x.size // max(total.size, 1)
    return np.true_divide(total, count)


def _reduction(fn: Callable[..., Any]) -> Factory:
    """``ReduceSum(keep_dims)(x, axis)`` and its kind: ``axis`` is an int, a tuple, or ()
    for every axis; the result keeps the dtype of ``x``."""

    def factory(prim: Any) -> Kernel:
        keep_dims = prim.keep_dims

        def kernel(x: np.ndarray, axis: Any) -> np.ndarray:
            axes = None if axis == () or x.ndim == 0 else axis
            result = np.asarray(fn(x, axis=axes, keepdims=keep_dims))
            if x.dtype.kind in "iu" and result.dtype.kind == "f":
                result = np.trunc(result)
            return result.astype(x.dtype, copy=False)

        return kernel

    return factory


REDUCE: dict[str, Factory] = {
    "ReduceSum": _reduction(np.sum),
    "ReduceMean": _reduction(_mean),
    "ReduceMax": _reduction(np.max),
    "ReduceMin": _reduction(np.min),
}


# -- matrices and layout ------------------------------------------------------------------
def _matmul(prim: Any) -> Kernel:
    ta, tb = prim.transpose_a, prim.transpose_b
    return lambda x, y: np.matmul(x.T if ta else x, y.T if tb else y)


def _broadcast_to(prim: Any) -> Kernel:
    shape = prim.shape

    def kernel(x: np.ndarray) -> np.ndarray:
        lead = len(shape) - x.ndim
        return np.broadcast_to(x, [x.shape[i - lead] if n == -1 else n
                                   for i, n in enumerate(shape)])

    return kernel


LAYOUT: dict[str, Factory] = {
    "MatMul": _matmul,
    "Reshape": plain(np.reshape),
    "FlattenGrad": plain(np.reshape),
    "Transpose": plain(np.transpose),
    "ExpandDims": plain(np.expand_dims),
    "Identity": plain(np.copy),  # a copy: the in-place kernels below change Parameters
    "BroadcastTo": _broadcast_to,
}


# -- in-place updates of Parameters ---------------------------------------------------------
# The first input is the Parameter's own device buffer (``DeviceArray.buffer``): the kernel
# changes it in place and returns it, so the update reaches the Parameter. Hyperparameters
# arrive as Python numbers or one-element arrays.
def _updating(update: Callable[..., None]) -> Factory:
    def kernel(variable: np.ndarray, *inputs: Any) -> np.ndarray:
        update(variable, *inputs)
        return variable

    return plain(kernel)


def _apply_momentum(prim: Any) -> Kernel:
    """``accumulation = momentum * accumulation + gradient``; ``variable -= learning_rate *
    accumulation`` (Nesterov: ``* (gradient + momentum * accumulation)``)."""
    nesterov, scale = prim.use_nesterov, prim.gradient_scale

    def update(variable: np.ndarray, accumulation: np.ndarray, learning_rate: Any,
               gradient: np.ndarray, momentum: Any) -> None:
        lr, m = (np.asarray(v, variable.dtype).reshape(()) for v in (learning_rate, momentum))
        gradient = gradient * np.asarray(scale, variable.dtype)
        accumulation *= m
        accumulation += gradient
        variable -= lr * (gradient + m * accumulation if nesterov else accumulation)

    return _updating(update)(prim)


UPDATES: dict[str, Factory] = {
    "Assign": _updating(np.copyto),
    "AssignAdd": _updating(lambda variable, value: np.add(variable, value, out=variable)),
    "AssignSub": _updating(lambda variable, value: np.subtract(variable, value, out=variable)),
    "ApplyMomentum": _apply_momentum,
}

#: Every kernel of the backend. A variant overrides entries: ``{**KERNELS, "Exp": fast_exp}``.
KERNELS: dict[str, Factory] = {**BINARY, **COMPARE, **UNARY, **ACTIVATIONS, **REDUCE, **LAYOUT,
                               **UPDATES}
