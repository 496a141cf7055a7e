"""Helpers of the distributions and bijectors: turning user parameters into tensors, checking
their values at construction, the errors MindSpore 1.6 raises, and elementwise functions that
stay finite where the plain formula overflows."""
from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops import functional as F

_INTS = mstype.int_type + mstype.uint_type


def cast_to_tensor(t: Any, hint_type: mstype.Type = mstype.float32) -> Tensor:
    """``t`` (int, float, list, ndarray, Tensor) as a Tensor of ``hint_type``; a Parameter is
    kept as it is, so that it stays trainable."""
    if t is None:
        raise ValueError("Input cannot be None in cast_to_tensor")
    if isinstance(t, Parameter):
        return t
    if isinstance(t, bool):
        raise TypeError("Input cannot be Type Bool")
    if isinstance(t, Tensor):
        return F.cast(t, hint_type) if t.dtype is not hint_type else t
    if isinstance(t, (np.ndarray, list, int, float)):
        return Tensor(np.asarray(t), dtype=hint_type)
    raise TypeError(f"Unable to convert input of type {type(t)} to a Tensor of type {hint_type}")


def set_param_type(args: dict, hint_type: mstype.Type | None) -> mstype.Type:
    """The float dtype the parameters compute in: the common dtype of the Tensor arguments
    (float32 for integer or float64 ones), else ``hint_type`` (float32 for an integer one)."""
    if hint_type in _INTS or hint_type is None:
        hint_type = mstype.float32
    common = None
    for name, arg in args.items():
        if not hasattr(arg, "dtype"):
            continue
        dtype = mstype.pytype_to_dtype(arg.dtype) if isinstance(arg, np.ndarray) else arg.dtype
        if common is None:
            common = dtype
        elif dtype != common:
            raise TypeError(f"{name} should have the same dtype as other arguments.")
    if common in _INTS or common == mstype.float64:
        return mstype.float32
    return hint_type if common is None else common


def _host(value: Tensor) -> np.ndarray | None:
    """The values of a parameter for a construction-time check (None: not checkable)."""
    if isinstance(value, Parameter) and not isinstance(value.data, Tensor):
        return None
    return value.asnumpy()


def check_greater_zero(value: Tensor, name: str) -> None:
    if value is None:
        raise ValueError("input value cannot be None in check_greater_zero")
    host = _host(value)
    if host is not None and not np.all(host > 0):
        raise ValueError(f"{name} should be greater than zero.")


def check_greater_equal_zero(value: Tensor, name: str) -> None:
    host = _host(value)
    if host is not None and np.any(host < 0):
        raise ValueError(f"{name} should be greater than or equal to zero.")


def check_greater(a: Tensor, b: Tensor, name_a: str, name_b: str) -> None:
    """Every element of ``a`` is below ``b``."""
    if a is None or b is None:
        raise ValueError("input value cannot be None in check_greater")
    if isinstance(a, Parameter) or isinstance(b, Parameter):
        return
    if not np.all(a.asnumpy() < b.asnumpy()):
        raise ValueError(f"{name_a} should be less than {name_b}")


def check_prob(p: Tensor) -> None:
    """``0 < p < 1`` elementwise."""
    if p is None:
        raise ValueError("input value cannot be None in check_prob")
    host = _host(p)
    if host is None:
        return
    if not np.all(host > 0):
        raise ValueError("Probabilities should be greater than zero")
    if not np.all(host < 1):
        raise ValueError("Probabilities should be less than one")


def check_rank(probs: Tensor) -> None:
    host = _host(probs)
    if host is not None and host.ndim == 0:
        raise ValueError("probs for Categorical distribution must have rank >= 1.")


def check_sum_equal_one(probs: Any) -> None:
    host = probs.asnumpy() if isinstance(probs, Tensor) else np.asarray(probs, np.float32)
    total = np.sum(host, axis=-1)
    eps = np.finfo(total.dtype).eps
    if not np.allclose(total, 1.0, rtol=eps * 10, atol=eps):
        raise ValueError("Probabilities for each category should sum to one for Categorical "
                         "distribution.")


def check_tensor(value: Any, name: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"For {name}, input type should be a Tensor or Parameter.")
    return value


def check_tuple(value: Any, name: str) -> tuple:
    if not isinstance(value, tuple):
        raise TypeError(f"For {name}, input type should be a tuple.")
    return value


def check_distribution_name(name: Any, expected: str) -> None:
    if name is None:
        raise ValueError("Input dist should be a constant which is not None.")
    if name != expected:
        raise ValueError(f"Expected dist input is {expected}, but got {name}.")


def raise_none_error(name: str) -> NoReturn:
    raise TypeError(f"the type {name} should be subclass of Tensor. It should not be None "
                    "since it is not specified during initialization.")


def raise_not_implemented(func_name: str, dist_name: str) -> NoReturn:
    raise NotImplementedError(f"{func_name} is not implemented for {dist_name} distribution.")


def raise_not_defined(func_name: str, dist_name: str) -> NoReturn:
    raise ValueError(f"{func_name} is undefined for {dist_name} distribution.")


def broadcast_all(*tensors: Tensor) -> tuple[Tensor, ...]:
    """``tensors`` broadcast to their common shape (ValueError naming the shapes where they
    do not broadcast)."""
    shapes = [tuple(t.shape) for t in tensors]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"Shapes {shapes} are not broadcastable.") from None
    return tuple(t if tuple(t.shape) == shape else F.broadcast_to(t, shape) for t in tensors)


def where(cond: Tensor, x: Any, y: Any) -> Tensor:
    """``Select`` with its operands broadcast; ``x`` or ``y`` may be a Python number."""
    tensors = [v for v in (cond, x, y) if isinstance(v, Tensor)]
    shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    dtype = (x if isinstance(x, Tensor) else y).dtype

    def full(v: Any) -> Tensor:
        if not isinstance(v, Tensor):
            return F.fill(dtype, shape, v)
        return v if tuple(v.shape) == shape else F.broadcast_to(v, shape)
    return F.select(full(cond), full(x), full(y))


def to_float(x: Tensor) -> Tensor:
    """``x`` as float32 when it is not a float tensor (log and exp of counts)."""
    return x if mstype.is_float(x.dtype) else F.cast(x, mstype.float32)


def exp_generic(x: Tensor) -> Tensor:
    return F.exp(to_float(x))


def log_generic(x: Tensor) -> Tensor:
    """``log(x)``: -inf at 0 and NaN below."""
    return F.log(to_float(x))


def softplus(x: Tensor) -> Tensor:
    """``log(1 + exp(x))`` without overflow: ``max(x, 0) + log1p(exp(-|x|))``."""
    return F.add(F.maximum(x, 0.0), F.log1p(F.exp(F.neg(F.abs(x)))))


def clamp_probs(probs: Tensor) -> Tensor:
    eps = float(np.finfo(mstype.dtype_to_nptype(probs.dtype)).eps)
    return F.minimum(F.maximum(probs, eps), 1.0 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    clamped = clamp_probs(probs)
    if is_binary:
        return F.sub(F.log(clamped), F.log1p(F.neg(clamped)))
    return F.log(clamped)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    return F.sigmoid(logits) if is_binary else F.softmax(logits, -1)
