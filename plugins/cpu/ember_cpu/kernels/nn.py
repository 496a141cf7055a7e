"""Neural-network kernels on NumPy.

Convolutions run as im2col (a strided window view, copied once) and one batched matrix product;
their input gradient scatters the columns back with one strided add per kernel tap. Pools
combine one strided slice of the image per window tap.
"""

from __future__ import annotations

import functools
import math
import weakref

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ember.common import seed as _seed

_GELU_C = math.sqrt(2.0 / math.pi)
_GELU_A = 0.044715


# -- activations ----------------------------------------------------------------------------
# Masks multiply: ``np.where`` on a random mask is ten times slower.
def _relu_grad(dy, x):
    return dy * (x > 0)


def _relu6_grad(dy, x):
    return dy * ((x > 0) & (x < 6))


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


# -- windows: shared by convolutions and pools ----------------------------------------------
def _pad(x, pads, fill=0):
    """``x`` with (top, bottom, left, right) rows and columns of ``fill`` around each image."""
    if not any(pads):
        return x
    top, bottom, left, right = pads
    n, c, h, w = x.shape
    out = np.full((n, c, h + top + bottom, w + left + right), fill, dtype=x.dtype)
    out[:, :, top:top + h, left:left + w] = x
    return out


def _taps(kernel_hw, stride, dilation, out_hw):
    """For each kernel tap (i, j), row-major: the slices of the padded image that hold the
    element every output pixel's window has at that tap."""
    (kh, kw), (sh, sw), (dh, dw), (ho, wo) = kernel_hw, stride, dilation, out_hw
    return [(slice(i * dh, i * dh + (ho - 1) * sh + 1, sh),
             slice(j * dw, j * dw + (wo - 1) * sw + 1, sw))
            for i in range(kh) for j in range(kw)]


def _crop(xp, pads, hw):
    top, _, left, _ = pads
    return xp[:, :, top:top + hw[0], left:left + hw[1]]


# -- convolution ----------------------------------------------------------------------------
#: (id of the input, geometry) -> (weak reference to the input, its columns)
_RECENT_COLUMNS: dict = {}


class _ConvPlan:
    """A convolution's numbers for one input size: padding, output size, matrix shapes."""

    def __init__(self, prim, x_shape):
        n, c, h, w = x_shape
        self.pads, self.out_hw = prim.geometry((h, w))
        self.kernel_hw = prim.kernel_size
        self.stride, self.dilation = prim.stride[2:], prim.dilation[2:]
        self.group = prim.group
        self.x_shape = tuple(x_shape)
        self.padded_shape = (n, c, h + self.pads[0] + self.pads[1], w + self.pads[2] + self.pads[3])
        taps = self.kernel_hw[0] * self.kernel_hw[1]
        # columns: (N, group, C / group * kh * kw, Ho * Wo); weight: (group, O / group, same)
        self.cols_shape = (n, self.group, c // self.group * taps, self.out_hw[0] * self.out_hw[1])
        self.w_shape = (self.group, prim.out_channel // self.group, self.cols_shape[2])
        self.dout_shape = (n, self.group, self.w_shape[1], self.cols_shape[3])
        self.out_shape = (n, prim.out_channel, *self.out_hw)
        self.taps = _taps(self.kernel_hw, self.stride, self.dilation, self.out_hw)

    def columns(self, x):
        """im2col: every output pixel's window, as (N, group, C / group * kh * kw, Ho * Wo).

        The forward pass and the filter gradient of a training step ask for the same columns:
        the most recent ones are kept while their input array lives, and computed once."""
        key = (id(x), self.cols_shape, self.kernel_hw, self.stride, self.dilation, self.pads)
        recent = _RECENT_COLUMNS.get(key)
        if recent is not None and recent[0]() is x:
            return recent[1]
        cols = self._columns(x)
        _RECENT_COLUMNS[key] = (weakref.ref(x), cols)
        while len(_RECENT_COLUMNS) > 8:
            del _RECENT_COLUMNS[next(iter(_RECENT_COLUMNS))]
        return cols

    def _columns(self, x):
        (kh, kw), (sh, sw), (dh, dw), (ho, wo) = (self.kernel_hw, self.stride, self.dilation,
                                                  self.out_hw)
        view = sliding_window_view(_pad(x, self.pads), ((kh - 1) * dh + 1, (kw - 1) * dw + 1),
                                   axis=(2, 3))
        view = view[:, :, :(ho - 1) * sh + 1:sh, :(wo - 1) * sw + 1:sw, ::dh, ::dw]
        return view.transpose(0, 1, 4, 5, 2, 3).reshape(self.cols_shape)

    def image(self, cols):
        """col2im: the columns summed back into an image of the input's shape."""
        n, c = self.x_shape[:2]
        cols = cols.reshape(n, c, self.kernel_hw[0] * self.kernel_hw[1], *self.out_hw)
        xp = np.zeros(self.padded_shape, dtype=cols.dtype)
        for k, (rows, columns) in enumerate(self.taps):
            xp[:, :, rows, columns] += cols[:, :, k]
        return _crop(xp, self.pads, self.x_shape[2:])


def _plans(prim):
    """The convolution's plan for an input shape, made once per shape."""
    return functools.lru_cache(maxsize=16)(lambda x_shape: _ConvPlan(prim, x_shape))


def _conv2d(prim):
    plan = _plans(prim)

    def kernel(x, w):
        p = plan(x.shape)
        return np.matmul(w.reshape(p.w_shape), p.columns(x)).reshape(p.out_shape)

    return kernel


def _conv2d_backprop_input(prim):
    plan = _plans(prim)

    def kernel(dout, w, input_size):
        p = plan(tuple(input_size))
        return p.image(np.matmul(w.reshape(p.w_shape).transpose(0, 2, 1),
                                 dout.reshape(p.dout_shape)))

    return kernel


def _conv2d_backprop_filter(prim):
    plan = _plans(prim)

    def kernel(dout, x, filter_size):
        p = plan(x.shape)
        dw = np.matmul(dout.reshape(p.dout_shape), p.columns(x).transpose(0, 1, 3, 2)).sum(axis=0)
        return dw.reshape(filter_size)

    return kernel


# -- pooling --------------------------------------------------------------------------------
# Every pool combines one strided slice of the (padded) image per window tap. For windows that
# tile the image this is as fast as reshaping it into tiles, and far faster than reducing the
# tiles with ``max(axis=(3, 5))`` (NumPy reduces short axes slowly: 35x slower for LeNet's).
def _pool_plan(prim):
    """(pads, output size, taps, elements of the image in each window), made once per input
    (height, width)."""
    kernel_hw, stride = prim.kernel_size[2:], prim.strides[2:]

    @functools.lru_cache(maxsize=16)
    def plan(hw):
        pads, out_hw = prim.geometry(hw)
        counts = []
        for lo, size, k, s, out in zip(pads[::2], hw, kernel_hw, stride, out_hw, strict=True):
            start = np.arange(out) * s - lo
            counts.append(np.minimum(start + k, size) - np.maximum(start, 0))
        return pads, out_hw, _taps(kernel_hw, stride, (1, 1), out_hw), np.outer(*counts)

    return plan


def _max_pool(prim):
    plan = _pool_plan(prim)

    def kernel(x):
        pads, _, taps, _ = plan(x.shape[2:])
        xp = _pad(x, pads, -np.inf)
        out = xp[:, :, taps[0][0], taps[0][1]].copy()
        for rows, columns in taps[1:]:
            np.maximum(out, xp[:, :, rows, columns], out=out)
        return out

    return kernel


def _max_pool_grad(prim):
    plan = _pool_plan(prim)

    def kernel(x, out, grad):
        pads, _, taps, _ = plan(x.shape[2:])
        xp = _pad(x, pads, -np.inf)
        dxp = np.zeros(xp.shape, dtype=x.dtype)
        open_ = np.ones(out.shape, dtype=bool)  # windows whose maximum has no gradient yet
        for rows, columns in taps:  # row-major, so the first maximum of a window takes it
            hit = xp[:, :, rows, columns] == out
            hit &= open_
            open_ &= ~hit
            dxp[:, :, rows, columns] += grad * hit
        return _crop(dxp, pads, x.shape[2:])

    return kernel


def _avg_pool(prim):
    plan = _pool_plan(prim)

    def kernel(x):
        pads, _, taps, counts = plan(x.shape[2:])
        xp = _pad(x, pads)
        total = xp[:, :, taps[0][0], taps[0][1]].copy()
        for rows, columns in taps[1:]:
            total += xp[:, :, rows, columns]
        total /= counts
        return total

    return kernel


def _avg_pool_grad(prim):
    plan = _pool_plan(prim)

    def kernel(x, out, grad):
        pads, _, taps, counts = plan(x.shape[2:])
        share = (grad / counts).astype(x.dtype, copy=False)
        n, c, h, w = x.shape
        dxp = np.zeros((n, c, h + pads[0] + pads[1], w + pads[2] + pads[3]), dtype=x.dtype)
        for rows, columns in taps:
            dxp[:, :, rows, columns] += share
        return _crop(dxp, pads, (h, w))

    return kernel


# -- batch normalization --------------------------------------------------------------------
def _channels(x):
    """The axes BatchNorm reduces over and the shape that broadcasts a (C,) vector on ``x``."""
    return (0, *range(2, x.ndim)), (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _batch_norm(prim):
    epsilon, training = prim.epsilon, prim.is_training

    def kernel(x, scale, bias, mean, variance):
        axes, column = _channels(x)
        stats = scale.dtype
        if training:
            at = np.result_type(x, scale)
            mean, variance = np.mean(x, axis=axes, dtype=at), np.var(x, axis=axes, dtype=at)
        gain = scale / np.sqrt(variance + epsilon)
        y = (x * gain.reshape(column) + (bias - mean * gain).reshape(column)).astype(x.dtype,
                                                                                   copy=False)
        mean, variance = mean.astype(stats, copy=False), variance.astype(stats, copy=False)
        if not training:
            return y, mean, variance, mean, variance
        n = x.size // x.shape[1]
        return y, mean, variance * (n / max(n - 1, 1)), mean, variance

    return kernel


def _batch_norm_grad(prim):
    epsilon, training = prim.epsilon, prim.is_training

    def kernel(dy, x, scale, mean, variance):
        axes, column = _channels(x)
        inv_std = 1 / np.sqrt(variance + epsilon)
        x_hat = (x - mean.reshape(column)) * inv_std.reshape(column)
        dbias = np.sum(dy, axis=axes, dtype=scale.dtype)
        dscale = np.sum(dy * x_hat, axis=axes, dtype=scale.dtype)
        gain = (scale * inv_std).reshape(column)
        if training:
            n = x.size // x.shape[1]
            dx = gain * (dy - (dbias.reshape(column) + x_hat * dscale.reshape(column)) / n)
        else:
            dx = dy * gain
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
    "ReLU": lambda p: lambda x: np.maximum(x, 0),
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
    "Conv2D": _conv2d,
    "Conv2DBackpropInput": _conv2d_backprop_input,
    "Conv2DTranspose": _conv2d_backprop_input,
    "Conv2DBackpropFilter": _conv2d_backprop_filter,
    "MaxPool": _max_pool,
    "MaxPoolGrad": _max_pool_grad,
    "AvgPool": _avg_pool,
    "AvgPoolGrad": _avg_pool_grad,
    "BatchNorm": _batch_norm,
    "BatchNormGrad": _batch_norm_grad,
    "Dropout": _dropout,
    "DropoutGrad": _dropout_grad,
}
