"""Neural-network kernels on NumPy.

Convolutions and pools are in ``conv.py``.
"""

from __future__ import annotations

import math

import numpy as np

from ember.common import seed as _seed

_GELU_C = math.sqrt(2.0 / math.pi)
_GELU_A = 0.044715


# -- per-image operands ---------------------------------------------------------------------
# NumPy's SIMD loops run when both operands advance through memory: ``np.maximum(x, 0)`` or a
# product by a (C, 1, 1) column of per-channel factors takes 1.5-2.5x as long as the same op
# with a whole image of those numbers, broadcast over the batch only.
def _spread(v, x):
    """``v`` (a scalar, or one number per channel of ``x``) as a (C, *spatial) image of
    ``x``'s dtype, which broadcasts on ``x`` over its batch axis."""
    v = np.asarray(v, dtype=x.dtype)
    if v.ndim:
        v = v.reshape(x.shape[1], *(1,) * (x.ndim - 2))
    return np.broadcast_to(v, x.shape[1:]).copy()


# -- activations ----------------------------------------------------------------------------
# Masks multiply: ``np.where`` on a random mask is ten times slower.
def _relu_grad(dy, x):
    return dy * (x > 0)


def _relu6_grad(dy, x):
    return dy * ((x > 0) & (x <= 6))


def _sigmoid(x):
    return 0.5 + 0.5 * np.tanh(0.5 * x)  # no overflow for large |x|


def _gelu_tanh(x):
    """``x`` in at least float32 (float16's x**3 overflows past 40) and the tanh of GeLU."""
    x = x.astype(np.promote_types(x.dtype, np.float32), copy=False)
    return x, np.tanh(_GELU_C * (x + _GELU_A * x * x * x))


@np.errstate(all="ignore")  # inf - inf inside the tanh form: NaN, as MindSpore, silently
def _gelu(x):
    wide, t = _gelu_tanh(x)
    return (0.5 * wide * (1 + t)).astype(x.dtype, copy=False)


def _gelu_grad(dy, x, y):
    x, t = _gelu_tanh(x)
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _GELU_C * (1 + 3 * _GELU_A * x * x)
    return (dy * slope).astype(dy.dtype, copy=False)


# -- softmax and losses ---------------------------------------------------------------------
def _shifted(x, axis):
    """``x`` minus its maximum over ``axis`` (kept), so that ``exp`` cannot overflow."""
    return x - np.max(x, axis=axis, keepdims=True, initial=-np.inf)


def _softmax(prim):
    axis = prim.axis

    def kernel(x):
        e = np.exp(_shifted(x, axis))
        e /= np.sum(e, axis=axis, keepdims=True)
        return e

    return kernel


def _log_softmax_of(x, axis):
    s = _shifted(x, axis)
    if s.size:  # (an empty axis would take the log of an empty sum)
        s -= np.log(np.sum(np.exp(s), axis=axis, keepdims=True))
    return s


def _log_softmax(prim):
    axis = prim.axis
    return lambda x: _log_softmax_of(x, axis)


def _softmax_ce(prim):
    def kernel(logits, labels):
        logp = _log_softmax_of(logits, 1)
        return -np.sum(labels * logp, axis=1), np.exp(logp) - labels

    return kernel


def _sparse_softmax_ce(prim):
    is_grad = prim.is_grad

    def kernel(logits, labels):
        n, classes = logits.shape
        if n and (labels.min() < 0 or labels.max() >= classes):
            raise ValueError(f"labels must be class indices in [0, {classes}), but they range "
                             f"over [{labels.min()}, {labels.max()}]")
        logp = _log_softmax_of(logits, 1)
        rows = np.arange(n)
        if is_grad:
            grad = np.exp(logp)
            grad[rows, labels] -= 1
            grad /= max(n, 1)
            return grad
        loss = -np.sum(logp[rows, labels]) / n if n else np.nan  # the mean of no rows
        return np.asarray(loss, dtype=logits.dtype)

    return kernel


# -- bias -----------------------------------------------------------------------------------
def _bias_add(prim):
    last = prim.data_format == "NHWC"

    def kernel(x, bias):
        return x + (bias if last else bias.reshape((-1,) + (1,) * (x.ndim - 2)))

    return kernel


# -- selection ------------------------------------------------------------------------------
def _top_k(prim):
    def kernel(x, k):
        order = np.argsort(-x, axis=-1, kind="stable")[..., :k]  # ties: the lower index first
        if not prim.sorted:
            order = np.sort(order, axis=-1)
        return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)

    return kernel


def _in_top_k(prim):
    def kernel(x1, x2):
        n, classes = x1.shape
        if n and (x2.min() < 0 or x2.max() >= classes):
            raise ValueError(f"x2 must hold class indices in [0, {classes}), but they range "
                             f"over [{x2.min()}, {x2.max()}]")
        target = x1[np.arange(n), x2][:, None]
        above = np.sum(x1 > target, axis=1)
        return (above < prim.k) & np.isfinite(target[:, 0])

    return kernel


# -- batch normalization --------------------------------------------------------------------
# Statistics in one read of ``x`` each (``einsum`` sums over the batch and spatial axes in memory
# order, whatever the layout), and the output written by in-place passes over one new array.
def _channels(x):
    """The einsum subscripts of ``x`` and of a per-channel vector, and the elements per
    channel."""
    axes = "nc" + "hwdxyz"[:x.ndim - 2]
    return f"{axes},{axes}->c", f"{axes}->c", x.size // max(x.shape[1], 1)


def _batch_norm(prim):
    epsilon, training = prim.epsilon, prim.is_training

    def kernel(x, scale, bias, mean, variance):
        dot, total, n = _channels(x)
        stats = scale.dtype
        if training:  # sums in float32 at least, the moments from them in float64
            at = np.result_type(x, scale)
            mean = np.einsum(total, x, dtype=at).astype(np.float64) / max(n, 1)
            variance = np.maximum(
                np.einsum(dot, x, x, dtype=at).astype(np.float64) / max(n, 1) - mean * mean, 0)
        gain = scale / np.sqrt(variance + epsilon)
        y = x * _spread(gain, x)
        y += _spread(bias - mean * gain, x)
        mean, variance = mean.astype(stats, copy=False), variance.astype(stats, copy=False)
        if not training:
            return y, mean, variance, mean, variance
        return y, mean, variance * (n / max(n - 1, 1)), mean, variance

    return kernel


def _batch_norm_grad(prim):
    epsilon, training = prim.epsilon, prim.is_training

    def kernel(dy, x, scale, mean, variance):
        dot, total, n = _channels(x)
        inv_std = 1 / np.sqrt(variance + epsilon)
        at = np.result_type(dy, scale)
        dbias = np.einsum(total, dy, dtype=at).astype(scale.dtype, copy=False)
        # sum(dy * (x - mean)) without the centred array
        dscale = ((np.einsum(dot, dy, x, dtype=at) - mean * dbias) * inv_std).astype(
            scale.dtype, copy=False)
        gain = scale * inv_std
        dx = dy * _spread(gain, dy)
        if training:  # dx = gain * (dy - (dbias + x_hat * dscale) / n), as a*dy + b*x + c
            b = -gain * inv_std * dscale / max(n, 1)
            dx += x * _spread(b, x)
            dx += _spread(-gain * dbias / max(n, 1) - b * mean, x)
        return dx.astype(x.dtype, copy=False), dscale, dbias

    return kernel


# -- dropout --------------------------------------------------------------------------------
class _OpGenerator:
    """The random generator of one primitive, made from its seeds (and the global seed) on
    first use and made again after each ``ember.set_seed``, so that seeded runs repeat."""

    def __init__(self, seed0, seed1):
        self.seeds = seed0, seed1
        self.made_under = None  # the global generator when this one was made

    def __call__(self):
        if self.made_under is not _seed.generator():
            self.made_under = _seed.generator()
            self.rng = _seed.op_generator(*self.seeds)
        return self.rng


def _dropout(prim):
    keep, generator = prim.keep_prob, _OpGenerator(prim.seed0, prim.seed1)

    def kernel(x):
        mask = (generator().random(x.shape, dtype=np.float32) < keep).astype(x.dtype)
        out = x * mask
        out *= 1 / keep
        return out, mask

    return kernel


def _dropout_grad(prim):
    scale = 1 / prim.keep_prob

    def kernel(dy, mask):
        dx = dy * mask
        dx *= scale
        return dx

    return kernel


KERNELS = {
    "ReLU": lambda p: lambda x: np.maximum(x, _spread(0, x)),
    "ReluGrad": lambda p: _relu_grad,
    "ReLU6": lambda p: lambda x: np.clip(x, 0, 6),
    "ReLU6Grad": lambda p: _relu6_grad,
    "Sigmoid": lambda p: _sigmoid,
    "SigmoidGrad": lambda p: lambda y, dy: dy * y * (1 - y),
    "Tanh": lambda p: np.tanh,
    "TanhGrad": lambda p: lambda y, dy: dy * (1 - y * y),
    "GeLU": lambda p: _gelu,
    "GeLUGrad": lambda p: _gelu_grad,
    "Softmax": _softmax,
    "LogSoftmax": _log_softmax,
    "SoftmaxCrossEntropyWithLogits": _softmax_ce,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_softmax_ce,
    "BiasAdd": _bias_add,
    "TopK": _top_k,
    "InTopK": _in_top_k,
    "BiasAddGrad": lambda p: lambda dout: np.sum(dout, axis=p.axes(dout.ndim), dtype=dout.dtype),
    "Flatten": lambda p: lambda x: x.reshape(x.shape[0], math.prod(x.shape[1:])),
    "BatchNorm": _batch_norm,
    "BatchNormGrad": _batch_norm_grad,
    "Dropout": _dropout,
    "DropoutGrad": _dropout_grad,
}
