"""Functional forms beyond one primitive: ``stop_gradient``, ``jvp``/``vjp``, and
MindSpore 2.x's ``ops.grad``/``ops.value_and_grad``, ``ops.softmax(x, axis)``, ``ops.ones``."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ember import _autodiff
from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops.composite.grad import _kind
from ember.ops.composite.grad import value_and_grad as _value_and_grad
from ember.ops.operations import array_ops as A
from ember.ops.operations import math_ops as M
from ember.ops.operations import nn_ops as N

partial = functools.partial


def stop_gradient(x: Any) -> Any:
    """``x`` (a Tensor or a tuple of them) cut from the gradient: nothing flows back through
    it in either mode."""
    if isinstance(x, tuple | list):
        return type(x)(stop_gradient(t) for t in x)
    if not isinstance(x, Tensor):
        return x
    with _autodiff.paused():
        return A.Identity()(x)


def tuple_getitem(data: tuple, index: int) -> Any:
    return data[index]


list_getitem = tuple_getitem


def make_tuple(*elements: Any) -> tuple:
    return elements


def tuple_len(data: tuple) -> int:
    return len(data)


def make_range(*args: int) -> tuple[int, ...]:
    """``tuple(range(*args))``: ``make_range(stop)``, ``make_range(start, stop[, step])``, of
    ints, ``step`` not 0 (MindSpore's graph-mode range over shapes' lengths)."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"make_range takes 1 to 3 arguments (start, stop, step), but got "
                        f"{len(args)}")
    for value in args:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"make_range: arguments must be ints, but got {value!r}")
    if len(args) == 3 and args[2] == 0:
        raise ValueError("make_range: step must not be 0")
    return tuple(range(*args))


# -- MindSpore 1.6's functions of Python scalars, bools and strings (graph-mode constants) ----
scalar_add, scalar_sub, scalar_mul = operator.add, operator.sub, operator.mul
scalar_div, scalar_floordiv, scalar_mod = operator.truediv, operator.floordiv, operator.mod
scalar_pow, scalar_log = operator.pow, math.log
scalar_uadd, scalar_usub = operator.pos, operator.neg
scalar_gt, scalar_ge, scalar_lt = operator.gt, operator.ge, operator.lt
scalar_le, scalar_eq, scalar_ne = operator.le, operator.eq, operator.ne
bool_not, bool_and, bool_or = operator.not_, operator.and_, operator.or_
string_eq, string_concat = operator.eq, operator.add


# -- MindSpore 2.x functional forms ---------------------------------------------------------
def softmax(x: Tensor, axis: int | tuple[int, ...] = -1) -> Tensor:
    return N.Softmax(axis)(x)


def log_softmax(logits: Tensor, axis: int = -1) -> Tensor:
    return N.LogSoftmax(axis)(logits)


def _fill(value: float, shape: Any, dtype: mstype.Type | None) -> Tensor:
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return M.fill(dtype or mstype.float32, shape, value)


def ones(shape: Any, dtype: mstype.Type | None = None) -> Tensor:
    """A tensor of ``shape`` filled with 1 (Float32 unless ``dtype``)."""
    return _fill(1, shape, dtype)


def zeros(shape: Any, dtype: mstype.Type | None = None) -> Tensor:
    """A tensor of ``shape`` filled with 0 (Float32 unless ``dtype``)."""
    return _fill(0, shape, dtype)


def mean(x: Tensor, axis: Any = None, keep_dims: bool = False) -> Tensor:
    return M.ReduceMean(keep_dims)(x, () if axis is None else axis)


def flatten(input_x: Tensor) -> Tensor:
    """``input_x`` as (N, everything else)."""
    return A.reshape(input_x, (input_x.shape[0], -1) if input_x.ndim else (1, 1))


def unsqueeze(input_x: Tensor, dim: int) -> Tensor:
    return A.expand_dims(input_x, dim)


def where(condition: Tensor, x: Any, y: Any) -> Tensor:
    """Elements of ``x`` where ``condition`` holds, of ``y`` elsewhere (broadcasting)."""
    x = x if isinstance(x, Tensor) else Tensor(x)
    y = y if isinstance(y, Tensor) else Tensor(y)
    dtype = mstype.promote(x.dtype, y.dtype)
    shape = tuple(np.broadcast_shapes(condition.shape, x.shape, y.shape))
    return M.select(A.broadcast_to(condition, shape), A.broadcast_to(M.cast(x, dtype), shape),
                    A.broadcast_to(M.cast(y, dtype), shape))


def select(cond: Tensor, x: Any, y: Any) -> Tensor:
    """Elements of ``x`` where ``cond`` holds, of ``y`` elsewhere, as ``mindspore.ops.select``:
    one of ``x`` and ``y`` may be an int (the other then an int32 Tensor of cond's shape) or a
    float (the other a float32 Tensor)."""
    if not isinstance(cond, Tensor):
        raise TypeError(f"select: cond must be a Tensor, but got {type(cond).__name__}")
    x = _select_operand(cond, "x", x, "y", y)
    return M.select(cond, x, _select_operand(cond, "y", y, "x", x))


def _select_operand(cond: Tensor, name: str, value: Any, other_name: str, other: Any) -> Any:
    """``value`` as select's Tensor operand: a number filled to the other operand's shape."""
    if not isinstance(value, int | float):
        return value
    if not isinstance(other, Tensor):
        raise TypeError(f"select: {name} is a number, so {other_name} must be a Tensor, but got "
                        f"{type(other).__name__}")
    dtype = mstype.int32 if isinstance(value, int) else mstype.float32
    if other.dtype != dtype:
        raise TypeError(f"select: {name} is {type(value).__name__}, so {other_name} must be a "
                        f"Tensor of {dtype}, but got {other.dtype}")
    if other.shape != cond.shape:
        raise ValueError(f"select: {other_name} must have cond's shape {list(cond.shape)}, but "
                         f"got {list(other.shape)}")
    return M.fill(dtype, other.shape, value)


# -- differentiation ------------------------------------------------------------------------
def _inputs(what: str, inputs: Any) -> tuple:
    """``inputs`` (a Tensor, or a tuple of Tensors) as a tuple."""
    args = (inputs,) if isinstance(inputs, Tensor) else inputs
    if not isinstance(args, tuple) or not all(isinstance(x, Tensor) for x in args):
        raise TypeError(f"{what}: inputs must be a Tensor or a tuple of Tensors, but got "
                        f"{_kind(inputs)}")
    return args


def vjp(fn: Callable, inputs: Any, v: Any) -> tuple[Any, Any]:
    """``(fn(*inputs), vᵀ·J)``: the outputs and the vector-Jacobian product for every input
    (one Tensor when ``inputs`` is a single Tensor), as ``mindspore.ops.vjp``; ``v`` is shaped
    as the outputs (a Tensor, or a tuple of as many Tensors)."""
    args = _inputs("vjp", inputs)
    out, grads, _ = _value_and_grad(fn, args, (), v)
    return out, grads[0] if isinstance(inputs, Tensor) else grads


def jvp(fn: Callable, inputs: Any, v: Any) -> tuple[Any, Any]:
    """``(fn(*inputs), J·v)``: the outputs and the Jacobian-vector product, as
    ``mindspore.ops.jvp``; ``v`` is shaped as ``inputs``. Computed as the derivative of a
    vector-Jacobian product with respect to its vector (reverse mode applied twice)."""
    args = _inputs("jvp", inputs)
    tangents = (v,) if isinstance(inputs, Tensor) else v
    if not (isinstance(tangents, tuple) and len(tangents) == len(args)
            and all(isinstance(t, Tensor) for t in tangents)):
        shape = "a Tensor" if isinstance(inputs, Tensor) else f"a tuple of {len(args)} Tensors"
        raise TypeError(f"jvp: inputs are {shape}, so v must be {shape} too, but got "
                        f"{_kind(v)}")
    with _autodiff.paused():
        out = fn(*args)
    outs = out if isinstance(out, tuple) else (out,)

    def pullback(*u: Tensor) -> tuple:
        sens = u if isinstance(out, tuple) else u[0]
        return _value_and_grad(fn, args, (), sens)[1]

    units = tuple(M.zeros_like(o) for o in outs)
    _, products, _ = _value_and_grad(pullback, units, (), tangents)
    return out, products if isinstance(out, tuple) else products[0]


def _positions(grad_position: Any, args: tuple) -> tuple[int, ...]:
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in positions:
        if not isinstance(p, int) or not 0 <= p < len(args) or not isinstance(args[p], Tensor):
            raise ValueError(f"grad: grad_position {p!r} must name a Tensor input, and there "
                             f"are {len(args)} inputs")
    return positions


def value_and_grad(fn: Callable, grad_position: Any = 0, weights: Any = None,
                   has_aux: bool = False) -> Callable:
    """MindSpore 2.x's ``value_and_grad``: a function returning ``(fn(*args), grads)``, the
    gradients with respect to the inputs at ``grad_position`` (an int, a tuple, or None for
    none) and, when given, the Parameters ``weights`` (then ``grads`` is a pair). With
    ``has_aux`` only the first output of ``fn`` is differentiated."""
    if not callable(fn):
        raise TypeError(f"value_and_grad: fn must be callable, but got {type(fn).__name__}")
    if grad_position is None and weights is None:
        raise ValueError("value_and_grad: grad_position and weights cannot both be None")
    params = [weights] if isinstance(weights, Parameter) else list(weights or ())

    def run(*args: Any) -> tuple[Any, Any]:
        aux: list[Any] = []

        def first(*xs: Any) -> Any:
            out = fn(*xs)
            if not has_aux:
                return out
            if not isinstance(out, tuple) or len(out) < 2:
                raise TypeError("value_and_grad(has_aux=True): fn must return a tuple of the "
                                "value and auxiliary outputs")
            aux.extend(out[1:])
            return out[0]

        out, input_grads, param_grads = _value_and_grad(first, args, params)
        tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        picked = None
        if grad_position is not None:
            chosen = tuple(input_grads[tensors.index(p)] for p in _positions(grad_position, args))
            picked = chosen[0] if isinstance(grad_position, int) else chosen
        grads = picked if weights is None else (
            param_grads if grad_position is None else (picked, param_grads))
        value = (out, *(stop_gradient(a) for a in aux)) if has_aux else out
        return value, grads

    return run


def grad(fn: Callable, grad_position: Any = 0, weights: Any = None,
         has_aux: bool = False) -> Callable:
    """MindSpore 2.x's ``grad``: like :func:`value_and_grad`, returning only the gradients
    (and the auxiliary outputs with ``has_aux``)."""
    both = value_and_grad(fn, grad_position, weights, has_aux)

    def run(*args: Any) -> Any:
        value, grads = both(*args)
        return (grads, value[1:]) if has_aux else grads

    return run


__all__ = ["flatten", "grad", "jvp", "list_getitem", "log_softmax", "make_range", "make_tuple",
           "mean", "ones", "partial", "select", "softmax", "stop_gradient", "tuple_getitem",
           "tuple_len", "unsqueeze", "value_and_grad", "vjp", "where", "zeros",
           "scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv",
           "scalar_mod", "scalar_pow", "scalar_log", "scalar_uadd", "scalar_usub", "scalar_gt",
           "scalar_ge", "scalar_lt", "scalar_le", "scalar_eq", "scalar_ne", "bool_not",
           "bool_and", "bool_or", "string_eq", "string_concat"]
