"""Math layers: ``ReduceLogSumExp``, ``Range``, ``MatMul``, ``Moments``, ``MatInverse``,
``MatDet``; the special functions ``LGamma``, ``DiGamma``, ``IGamma``, ``LBeta``, composed of
elementwise primitives as MindSpore 1.6 composes them (so they differentiate and run on every
backend in both modes)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.graph.control_flow import while_loop
from ember.nn.cell import Cell
from ember.nn.layer.basic import check_bool
from ember.ops import functional as F
from ember.ops import operations as P
from ember.ops.composite import matmul

__all__ = ["DiGamma", "IGamma", "LBeta", "LGamma", "MatDet", "MatInverse", "MatMul", "Moments",
           "Range", "ReduceLogSumExp"]

_FLOATS = (mstype.float16, mstype.float32)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, computed stably (the maximum taken out first)."""

    def __init__(self, axis: Any, keep_dims: bool = False) -> None:
        super().__init__()
        self.axis = axis
        self.keep_dims = check_bool("ReduceLogSumExp", "keep_dims", keep_dims)

    def construct(self, x: Tensor) -> Tensor:
        top = F.stop_gradient(P.ReduceMax(True)(x, self.axis))
        total = P.ReduceSum(self.keep_dims)(F.exp(F.sub(x, top)), self.axis)
        top = top if self.keep_dims else P.ReduceMax(False)(top, self.axis)
        return F.add(F.log(total), top)


class Range(Cell):
    """The constant ``[start, start + delta, ...)`` below ``limit`` (``Range(n)``: 0..n-1);
    Int32 when all bounds are ints, Float32 otherwise."""

    def __init__(self, start: float, limit: float | None = None, delta: float = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError("Range: delta cannot be 0")
        start, limit = (0, start) if limit is None else (start, limit)
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (start, limit, delta))
        self.output = Tensor(np.arange(start, limit, delta),
                             mstype.int32 if ints else mstype.float32)

    def construct(self) -> Tensor:
        return self.output


class MatMul(Cell):
    """``x1 @ x2`` with NumPy's rules (1-D operands, broadcast batches), each optionally
    transposed on its last two axes."""

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        self.transpose_x1 = check_bool("MatMul", "transpose_x1", transpose_x1)
        self.transpose_x2 = check_bool("MatMul", "transpose_x2", transpose_x2)

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        if self.transpose_x1 and x1.ndim > 1:
            x1 = x1.swapaxes(-1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = x2.swapaxes(-1, -2)
        return matmul(x1, x2)


class Moments(Cell):
    """``(mean, variance)`` of ``x`` over ``axis`` (all axes when None); float16 inputs are
    computed in float32 and returned as float16."""

    def __init__(self, axis: Any = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        self.axis = axis
        self.keep_dims = bool(keep_dims)

    def construct(self, x: Tensor) -> tuple[Tensor, Tensor]:
        axis = () if self.axis is None else self.axis
        wide = F.cast(x, mstype.float32) if x.dtype is mstype.float16 else x
        mean = P.ReduceMean(True)(wide, axis)
        variance = P.ReduceMean(self.keep_dims)(F.square(F.sub(wide, F.stop_gradient(mean))),
                                               axis)
        mean = mean if self.keep_dims else P.ReduceMean(False)(mean, axis)
        return F.cast(mean, x.dtype), F.cast(variance, x.dtype)


class MatInverse(Cell):
    """The inverse of each (positive-definite) matrix in the last two axes."""

    def __init__(self) -> None:
        super().__init__()
        self.inverse = P.MatrixInverse()

    def construct(self, a: Tensor) -> Tensor:
        return self.inverse(a)


class MatDet(Cell):
    """The determinant of each positive-definite Hermitian matrix in the last two axes: the
    product of the pivots of its Cholesky (LDL^T) elimination, the squared product of the
    Cholesky factor's diagonal. Unrolled over the (static) matrix size, so it differentiates
    like any composition of primitives."""

    def construct(self, a: Tensor) -> Tensor:
        _check_dtype(self.cls_name, "input_a", a, _FLOATS)
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ValueError(f"For '{self.cls_name}', 'input_a' should be square matrices in its "
                             f"last two axes, but got shape {list(a.shape)}.")
        det = a[..., 0, 0]
        rest = a
        for _ in range(a.shape[-1] - 1):
            pivot = F.expand_dims(F.expand_dims(rest[..., 0, 0], -1), -1)
            rest = F.sub(rest[..., 1:, 1:],
                         F.real_div(F.mul(rest[..., 1:, 0:1], rest[..., 0:1, 1:]), pivot))
            det = F.mul(det, rest[..., 0, 0])
        return det


# -- special functions --------------------------------------------------------------------------
def _check_dtype(layer: str, name: str, x: Any, valid: Any) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{layer}', the '{name}' should be a Tensor, but got "
                        f"{type(x).__name__}.")
    Validator.check_type_name(name, x.dtype, valid, layer)
    return x


def _same_dtype(layer: str, names: tuple[str, str], x: Tensor, y: Tensor) -> None:
    if x.dtype is not y.dtype:
        raise TypeError(f"For '{layer}', the '{names[1]}' should have the dtype of "
                        f"'{names[0]}' ({x.dtype}), but got {y.dtype}.")


def _widen(x: Tensor) -> Tensor:
    """float16 is computed in float32 (the series lose every digit in float16)."""
    return F.cast(x, mstype.float32) if x.dtype is mstype.float16 else x


# Lanczos' approximation with g = 7 and 9 terms (Godfrey's coefficients, as TensorFlow, XLA and
# MindSpore use): Gamma(z + 1) = sqrt(2 pi) t^(z + 1/2) e^-t A(z), t = z + g + 1/2,
# A(z) = c0 + sum_k c_k / (z + k).
_LANCZOS_G = 7.0
_LANCZOS_C0 = 0.99999999999980993227684700473478
_LANCZOS_C = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
              771.3234287776530788486528258894, -176.61502916214059906584551354,
              12.507343278686904814458936853, -0.13857109526572011689554707,
              9.984369578019570859563e-6, 1.50563273514931155834e-7)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _lanczos_t(z: Tensor) -> tuple[Tensor, Tensor]:
    """``t = z + g + 1/2`` and ``log t``, the logarithm taken as ``log1p`` for accuracy."""
    half_g = _LANCZOS_G + 0.5
    t = F.add(z, half_g)
    return t, F.add(F.log1p(F.real_div(z, half_g)), math.log(half_g))


def _reflected(x: Tensor) -> tuple[Tensor, Tensor]:
    """``x < 0.5`` (where the reflection formula serves) and the Lanczos argument ``z`` with
    ``z + 1`` >= 0.5: ``-x`` there, ``x - 1`` elsewhere."""
    reflect = F.less(x, 0.5)
    return reflect, F.select(reflect, F.neg(x), F.sub(x, 1.0))


def _log_gamma(x: Tensor) -> Tensor:
    """``log |Gamma(x)|`` of a float32/float64 tensor; +inf at the poles and at +-inf."""
    infinite = F.isinf(x)
    x = F.select(infinite, F.ones_like(x), x)  # its result is set below; no inf - inf on the way
    reflect, z = _reflected(x)
    series = F.fill(x.dtype, x.shape, _LANCZOS_C0) if x.shape else Tensor(_LANCZOS_C0, x.dtype)
    for k, c in enumerate(_LANCZOS_C, 1):
        series = F.add(series, F.real_div(c, F.add(z, float(k))))
    t, log_t = _lanczos_t(z)
    log_y = F.add(F.add(F.log(series), F.sub(F.mul(F.add(z, 0.5), log_t), t)), _LOG_SQRT_2PI)
    # reflection: lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x), with sin taken of the
    # distance of x to its nearest integer; 0.5 where unused, so no gradient meets log(0)
    abs_x = F.abs(x)
    frac = F.sub(abs_x, F.floor(abs_x))
    pole = F.logical_and(F.less_equal(x, 0.0), F.equal(frac, 0.0))
    reduced = F.select(F.greater(frac, 0.5), F.sub(1.0, frac), frac)
    safe = F.logical_and(reflect, F.logical_not(pole))
    reduced = F.select(safe, reduced, F.fill(x.dtype, x.shape, 0.5) if x.shape else
                       Tensor(0.5, x.dtype))
    reflection = F.sub(F.sub(math.log(math.pi), F.log(F.sin(F.mul(reduced, math.pi)))), log_y)
    result = F.select(reflect, reflection, log_y)
    inf = F.fill(x.dtype, x.shape, math.inf) if x.shape else Tensor(math.inf, x.dtype)
    return F.select(F.logical_or(pole, infinite), inf, result)


class LGamma(Cell):
    """``log |Gamma(x)|`` elementwise, by Lanczos' approximation (Euler's reflection formula
    below 0.5): +inf at the non-positive integers and at +-inf. float16 or float32."""

    def construct(self, x: Tensor) -> Tensor:
        _check_dtype(self.cls_name, "x", x, _FLOATS)
        return F.cast(_log_gamma(_widen(x)), x.dtype)


class DiGamma(Cell):
    """The digamma function ``d/dx log Gamma(x)`` elementwise, from the derivative of Lanczos'
    approximation (reflection ``digamma(1 - x) - pi cot(pi x)`` below 0.5); NaN at the negative
    integers. float16 or float32."""

    def construct(self, x: Tensor) -> Tensor:
        _check_dtype(self.cls_name, "x", x, _FLOATS)
        wide = _widen(x)
        reflect, z = _reflected(wide)
        num = F.zeros_like(z)
        denom = F.add(F.zeros_like(z), _LANCZOS_C0)
        for k, c in enumerate(_LANCZOS_C, 1):
            shifted = F.add(z, float(k))
            num = F.sub(num, F.real_div(c, F.mul(shifted, shifted)))
            denom = F.add(denom, F.real_div(c, shifted))
        t, log_t = _lanczos_t(z)
        y = F.sub(F.add(log_t, F.real_div(num, denom)), F.real_div(_LANCZOS_G, t))
        # cot(pi x) has period 1: shift x by an integer towards 0 before taking it
        reduced = F.mul(F.add(wide, F.abs(F.floor(F.add(wide, 0.5)))), math.pi)
        reflection = F.sub(y, F.real_div(F.mul(F.cos(reduced), math.pi), F.sin(reduced)))
        result = F.select(reflect, reflection, y)
        pole = F.logical_and(F.less(wide, 0.0), F.equal(wide, F.floor(wide)))
        result = F.select(pole, F.fill(wide.dtype, wide.shape, math.nan), result)
        return F.cast(result, x.dtype)


_EPS32 = float(np.finfo(np.float32).eps)


def _igamma_series(ax: Tensor, x: Tensor, a: Tensor, enabled: Tensor) -> Tensor:
    """``P(a, x)`` by its power series ``ax / a * sum_n x^n / ((a + 1) ... (a + n))``, summed
    where ``enabled`` until a term adds less than float32's epsilon."""

    def more(enabled: Tensor, r: Tensor, c: Tensor, ans: Tensor) -> Tensor:
        return F.reduce_any(enabled)

    def step(enabled: Tensor, r: Tensor, c: Tensor, ans: Tensor) -> tuple[Tensor, ...]:
        r_next = F.add(r, 1.0)
        c_next = F.mul(c, F.real_div(x, r_next))
        ans_next = F.add(ans, c_next)
        still = F.logical_and(enabled, F.greater(F.real_div(c_next, ans_next), _EPS32))
        return (still, F.select(enabled, r_next, r), F.select(enabled, c_next, c),
                F.select(enabled, ans_next, ans))

    ones = F.ones_like(a)
    _, _, _, ans = while_loop(more, step, (enabled, a, ones, ones))
    return F.real_div(F.mul(ans, ax), a)


def _igammac_fraction(ax: Tensor, x: Tensor, a: Tensor, enabled: Tensor) -> Tensor:
    """``Q(a, x) = 1 - P(a, x)`` by its continued fraction (Cephes' ``igamc``), iterated where
    ``enabled`` until the convergent moves less than float32's epsilon (2000 steps at most)."""
    big = 1.0 / _EPS32

    def more(enabled: Tensor, *_: Tensor) -> Tensor:
        return F.reduce_any(enabled)

    def step(enabled: Tensor, ans: Tensor, y: Tensor, z: Tensor, c: Tensor, pkm1: Tensor,
             qkm1: Tensor, pkm2: Tensor, qkm2: Tensor) -> tuple[Tensor, ...]:
        c_n, y_n, z_n = F.add(c, 1.0), F.add(y, 1.0), F.add(z, 2.0)
        yc = F.mul(y_n, c_n)
        pk = F.sub(F.mul(pkm1, z_n), F.mul(pkm2, yc))
        qk = F.sub(F.mul(qkm1, z_n), F.mul(qkm2, yc))
        nonzero = F.not_equal(qk, 0.0)
        r = F.real_div(pk, F.select(nonzero, qk, F.ones_like(qk)))
        moved = F.select(nonzero, F.abs(F.real_div(F.sub(ans, r), r)), F.ones_like(r))
        ans_n = F.select(nonzero, r, ans)
        rescale = F.greater(F.abs(pk), big)
        scaled = [F.select(rescale, F.mul(v, _EPS32), v) for v in (pk, qk, pkm1, qkm1)]
        still = F.logical_and(enabled, F.logical_and(F.greater(moved, _EPS32),
                                                      F.less(c_n, 2000.0)))
        new = (ans_n, y_n, z_n, c_n, *scaled)
        old = (ans, y, z, c, pkm1, qkm1, pkm2, qkm2)
        return (still, *(F.select(enabled, n, o) for n, o in zip(new, old)))

    y = F.sub(1.0, a)
    z = F.add(F.add(x, y), 1.0)
    pkm1, qkm1 = F.add(x, 1.0), F.mul(z, x)
    init = (enabled, F.real_div(pkm1, qkm1), y, z, F.zeros_like(x), pkm1, qkm1, F.ones_like(x), x)
    ans = while_loop(more, step, init)[1]
    return F.mul(ans, ax)


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x) = gamma(a, x) / Gamma(a)``
    elementwise (``a`` and ``x`` float32, broadcast): its power series where ``x <= max(1, a)``,
    one minus the continued fraction of ``Q(a, x)`` elsewhere; 0 at ``x = 0``, NaN where ``a`` or
    ``x`` is negative."""

    def construct(self, a: Tensor, x: Tensor) -> Tensor:
        _check_dtype(self.cls_name, "a", a, (mstype.float32,))
        _check_dtype(self.cls_name, "x", x, (mstype.float32,))
        shape = np.broadcast_shapes(tuple(a.shape), tuple(x.shape))
        a, x = F.broadcast_to(a, shape), F.broadcast_to(x, shape)
        domain_error = F.logical_or(F.less(x, 0.0), F.less(a, 0.0))
        x_is_zero = F.equal(x, 0.0)
        use_fraction = F.logical_and(F.greater(x, 1.0), F.greater(x, a))
        log_ax = F.sub(F.sub(F.mul(a, F.log(x)), x), _log_gamma(a))
        underflow = F.less(log_ax, -float(np.log(np.finfo(np.float32).max)))
        ax = F.exp(log_ax)
        enabled = F.logical_not(F.logical_or(F.logical_or(x_is_zero, domain_error), underflow))
        # where neither sum runs, it runs on (1, 1): its result is replaced or scaled by ax = 0
        ones = F.ones_like(x)
        a, x = F.select(enabled, a, ones), F.select(enabled, x, ones)
        fraction = _igammac_fraction(ax, x, a, F.logical_and(enabled, use_fraction))
        series = _igamma_series(ax, x, a,
                                F.logical_and(enabled, F.logical_not(use_fraction)))
        out = F.select(use_fraction, F.sub(1.0, fraction), series)
        out = F.select(x_is_zero, F.zeros_like(out), out)
        return F.select(domain_error, F.fill(out.dtype, out.shape, math.nan), out)


# The minimax polynomial of log Gamma(x) less its Stirling approximation, in 1/x (x >= 8), as
# TensorFlow's ``lbeta`` and MindSpore's ``LBeta`` use it.
_STIRLING_CORRECTION = (-0.165322962780713e-02, 0.837308034031215e-03, -0.595202931351870e-03,
                        0.793650666825390e-03, -0.277777777760991e-02, 0.833333333333333e-01)


def _log_gamma_correction(x: Tensor) -> Tensor:
    inverse = F.reciprocal(x)
    inverse_sq = F.mul(inverse, inverse)
    accum = F.zeros_like(x)
    for c in _STIRLING_CORRECTION:
        accum = F.add(F.mul(accum, inverse_sq), c)
    return F.mul(accum, inverse)


class LBeta(Cell):
    """``log |B(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)`` elementwise (broadcast), with
    the large terms of Stirling's series cancelled analytically where an argument is >= 8, so
    the result keeps its digits there. float16 or float32, ``y`` of ``x``'s dtype."""

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        _check_dtype(self.cls_name, "x", x, _FLOATS)
        _check_dtype(self.cls_name, "y", y, _FLOATS)
        _same_dtype(self.cls_name, ("x", "y"), x, y)
        dtype = x.dtype
        shape = np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
        x, y = F.broadcast_to(_widen(x), shape), F.broadcast_to(_widen(y), shape)
        small, large = F.minimum(x, y), F.maximum(x, y)
        total = F.add(small, large)
        corr_small = _log_gamma_correction(small)
        corr_large = _log_gamma_correction(large)
        corr_total = _log_gamma_correction(total)
        log1p_ratio = F.log1p(F.real_div(small, large))
        # both >= 8: Stirling's series for all three, the big terms cancelled
        two_large = F.add(F.sub(F.add(F.sub(F.add(corr_small, corr_large), corr_total),
                                      0.5 * math.log(2 * math.pi)),
                                F.mul(F.log(large), 0.5)),
                          F.sub(F.mul(F.sub(small, 0.5), F.log(F.real_div(small, total))),
                                F.mul(large, log1p_ratio)))
        # only the larger >= 8: lgamma(large) - lgamma(total) by the same cancellation
        cancelled = F.add(F.sub(F.neg(F.mul(F.sub(total, 0.5), log1p_ratio)),
                                F.mul(small, F.log(large))), small)
        one_large = F.add(_log_gamma(small), F.add(F.sub(corr_large, corr_total), cancelled))
        both_small = F.sub(F.add(_log_gamma(small), _log_gamma(large)), _log_gamma(total))
        out = F.select(F.less(large, 8.0), both_small, one_large)
        out = F.select(F.less(small, 8.0), out, two_large)
        return F.cast(out, dtype)
