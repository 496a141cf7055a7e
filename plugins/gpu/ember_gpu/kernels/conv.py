"""Convolution and pooling kernels on TensorFlow.

Ember's layouts are MindSpore's (images NCHW, weights OIHW); the kernels transpose to NHWC and
HWIO around TensorFlow's ops, which every device runs (the CPU's eager kernels have no NCHW), and
XLA folds the transposes into its own layout choice. Padding is always explicit, from the
primitive's ``geometry()``, so MindSpore's 'same', 'valid' and 'pad' cannot drift from TF's.

Two kernels run XLA-compiled even in PyNative mode: MaxPoolGrad, whose gradient must go to the
first maximum of each window (XLA's select-and-scatter does; cuDNN's pooling backward does not
promise it), and, on the CPU device, the convolution gradients with groups or dilation, which
TensorFlow's eager CPU kernels do not implement.
"""

from __future__ import annotations

import functools
import itertools
import math

from ember_gpu import device
from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops

TO_NHWC, TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)
OIHW_TO_HWIO, HWIO_TO_OIHW = (2, 3, 1, 0), (3, 2, 0, 1)


def _nhwc(x):
    return raw.Transpose(x=x, perm=TO_NHWC)


def _nchw(x):
    return raw.Transpose(x=x, perm=TO_NCHW)


def _to_nhwc_order(nchw):
    """An NCHW shape, or a (1, 1, h, w) stride, dilation or window, in NHWC order."""
    return [nchw[i] for i in TO_NHWC]


def _compiled(fn):
    """``fn`` compiled by XLA, also when called eagerly (inside a trace it is inlined)."""
    return tf.function(fn, jit_compile=True, autograph=False)


def _on_cpu() -> bool:
    started = device.current()
    return started.spec == "/CPU:0" if started else not tf.config.list_physical_devices("GPU")


# -- convolution ----------------------------------------------------------------------------
def _conv_args(prim):
    """A function of the input's (h, w) giving the keyword arguments of TF's conv ops."""
    common = {"strides": _to_nhwc_order(prim.stride),
              "dilations": _to_nhwc_order(prim.dilation), "padding": "EXPLICIT"}

    @functools.lru_cache(maxsize=16)
    def args(hw):
        top, bottom, left, right = prim.geometry(hw)[0]
        return {**common, "explicit_paddings": [0, 0, top, bottom, left, right, 0, 0]}

    return args


def _gradient_kernel(prim, kernel):
    """A convolution gradient's kernel, compiled where the eager op cannot run it."""
    eager_unsupported = prim.group > 1 or prim.dilation != (1, 1, 1, 1)
    return _compiled(kernel) if eager_unsupported and _on_cpu() else kernel


def _conv2d(prim):
    args = _conv_args(prim)

    def kernel(x, w):
        if x.shape[0] == 0:  # TF's float32 CPU kernel (oneDNN) returns an empty x as it is
            return tf.zeros((0, prim.out_channel, *prim.geometry(tuple(x.shape[2:]))[1]),
                            x.dtype)
        hwio = raw.Transpose(x=w, perm=OIHW_TO_HWIO)
        return _nchw(raw.Conv2D(input=_nhwc(x), filter=hwio, **args(tuple(x.shape[2:]))))

    return kernel


def _conv2d_backprop_input(prim):
    args = _conv_args(prim)

    def kernel(dout, w, input_size):
        dx = raw.Conv2DBackpropInput(input_sizes=_to_nhwc_order(input_size),
                                     filter=raw.Transpose(x=w, perm=OIHW_TO_HWIO),
                                     out_backprop=_nhwc(dout), **args(tuple(input_size[2:])))
        return _nchw(dx)

    return _gradient_kernel(prim, kernel)


def _conv2d_backprop_filter(prim):
    args = _conv_args(prim)

    def kernel(dout, x, filter_size):
        hwio = [filter_size[i] for i in OIHW_TO_HWIO]
        dw = raw.Conv2DBackpropFilter(input=_nhwc(x), filter_sizes=hwio,
                                      out_backprop=_nhwc(dout), **args(tuple(x.shape[2:])))
        return raw.Transpose(x=dw, perm=HWIO_TO_OIHW)

    return _gradient_kernel(prim, kernel)


# -- pooling --------------------------------------------------------------------------------
# MindSpore's pools have only 'VALID' and 'SAME', which TF's pools share: the same padding, split
# with less before, and with 'SAME' an average counts only the window's elements inside x.
def _pool_args(prim):
    return {"ksize": _to_nhwc_order(prim.kernel_size),
            "strides": _to_nhwc_order(prim.strides), "padding": prim.pad_mode}


def _max_pool(prim):
    """TF's eager MaxPool starts each window at the dtype's lowest finite value, not at -inf:
    a window of -inf only (or, alas, whose maximum is exactly that value) gives -inf here."""
    args = _pool_args(prim)

    def kernel(x):
        out = raw.MaxPool(input=_nhwc(x), **args)
        lowest, minus_inf = (tf.constant(v, x.dtype) for v in (x.dtype.min, -math.inf))
        return _nchw(raw.SelectV2(condition=raw.Equal(x=out, y=lowest), t=minus_inf, e=out))

    return kernel


def _max_pool_with_argmax(prim):
    """MaxPool, and each maximum's position h * W + w in its plane: the first tap (row-major)
    that holds the window's maximum, from one strided slice of the padded image per tap (TF's
    MaxPoolWithArgmax counts positions in NHWC and has no XLA kernel)."""
    (kh, kw), (sh, sw) = prim.kernel_size[2:], prim.strides[2:]

    def kernel(x):
        (top, bottom, left, right), (ho, wo) = prim.geometry(tuple(x.shape[2:]))
        height, width = x.shape[2:]
        xp = tf.pad(x, [[0, 0], [0, 0], [top, bottom], [left, right]],
                    constant_values=-math.inf)
        where = (tf.range(-top, height + bottom)[:, None] * width
                 + tf.range(-left, width + right)[None, :])
        out = argmax = None
        for i, j in itertools.product(range(kh), range(kw)):
            rows, cols = slice(i, i + (ho - 1) * sh + 1, sh), slice(j, j + (wo - 1) * sw + 1, sw)
            value, place = xp[:, :, rows, cols], where[rows, cols]
            if out is None:
                out, argmax = value, tf.broadcast_to(place, tf.shape(value))
                continue
            higher = value > out
            out = raw.SelectV2(condition=higher, t=value, e=out)
            argmax = raw.SelectV2(condition=higher, t=place, e=argmax)
        return out, argmax

    return kernel


def _scatter_to_planes(shape, grad, argmax):
    """A tensor of ``shape`` (NCHW): ``grad`` added up at the positions ``argmax`` (h * W + w)
    of each (n, c) plane."""
    planes, size = shape[0] * shape[1], shape[2] * shape[3]
    index = (tf.reshape(tf.cast(argmax, tf.int32), [planes, math.prod(argmax.shape[2:])])
             + tf.range(planes)[:, None] * size)
    summed = tf.math.unsorted_segment_sum(tf.reshape(grad, [-1]), tf.reshape(index, [-1]),
                                          planes * size)
    return tf.reshape(summed, shape)


def _gather_from_planes(grad, argmax):
    """``grad`` (NCHW) read at the positions ``argmax`` (h * W + w) of each (n, c) plane."""
    n, c = grad.shape[:2]
    picked = tf.gather(tf.reshape(grad, [n, c, math.prod(grad.shape[2:])]),
                       tf.reshape(argmax, [n, c, math.prod(argmax.shape[2:])]), batch_dims=2)
    return tf.reshape(picked, argmax.shape)


def _max_pool_grad_grad(prim):
    pool = _max_pool_with_argmax(prim)
    return lambda x, out, grad: _gather_from_planes(grad, pool(x)[1])


def _max_pool_grad(prim):
    args = _pool_args(prim)

    def kernel(x, out, grad):
        return _nchw(raw.MaxPoolGrad(orig_input=_nhwc(x), orig_output=_nhwc(out),
                                     grad=_nhwc(grad), **args))

    return _compiled(kernel)


def _avg_pool(prim):
    args = _pool_args(prim)
    return lambda x: _nchw(raw.AvgPool(value=_nhwc(x), **args))


def _avg_pool_grad(prim):
    args = _pool_args(prim)

    def kernel(x, out, grad):
        return _nchw(raw.AvgPoolGrad(orig_input_shape=_to_nhwc_order(x.shape), grad=_nhwc(grad),
                                     **args))

    return kernel


# -- 3-D: explicit padding from the primitive's geometry, then TF's 'VALID' ops --------------
TO_NDHWC, TO_NCDHW = (0, 2, 3, 4, 1), (0, 4, 1, 2, 3)
OIDHW_TO_DHWIO, DHWIO_TO_OIDHW = (2, 3, 4, 1, 0), (4, 3, 0, 1, 2)


def _pad3d(x, pads, fill=0):
    pairs = [[0, 0], [0, 0], *([pads[i], pads[i + 1]] for i in range(0, 6, 2))]
    return tf.pad(x, pairs, constant_values=fill) if any(pads) else x


def _crop3d(x, pads, dhw):
    return x[:, :, pads[0]:pads[0] + dhw[0], pads[2]:pads[2] + dhw[1], pads[4]:pads[4] + dhw[2]]


def _padded3d(shape, pads):
    return [*shape[:2], *(n + pads[2 * i] + pads[2 * i + 1] for i, n in enumerate(shape[2:]))]


def _conv3d_args(prim):
    return {"strides": [1, *prim.stride[2:], 1], "dilations": [1, *prim.dilation[2:], 1],
            "padding": "VALID"}


def _per_group(prim, fn, *parts):
    """``fn`` on each group's slice of ``parts`` (each (tensor, axis)), joined on axis 1."""
    g = prim.group
    if g == 1:
        return fn(*(t for t, _ in parts))
    pieces = [tf.split(t, g, axis=axis) for t, axis in parts]
    return tf.concat([fn(*group) for group in zip(*pieces)], axis=1)


def _eager_or_compiled(prim, kernel):
    """TF's eager CPU 3-D convolutions have no dilation: compiled there."""
    return _compiled(kernel) if prim.dilation[2:] != (1, 1, 1) and _on_cpu() else kernel


def _conv3d(prim):
    args = _conv3d_args(prim)

    def one(x, w):
        hwio = raw.Transpose(x=w, perm=OIDHW_TO_DHWIO)
        return raw.Transpose(x=raw.Conv3D(input=raw.Transpose(x=x, perm=TO_NDHWC),
                                          filter=hwio, **args), perm=TO_NCDHW)

    def kernel(x, w):
        pads, _ = prim.geometry(tuple(x.shape[2:]))
        return _per_group(prim, one, (_pad3d(x, pads), 1), (w, 0))

    return _eager_or_compiled(prim, kernel)


def _conv3d_backprop_input(prim):
    args = _conv3d_args(prim)

    def kernel(w, dout, input_size):
        pads, _ = prim.geometry(tuple(input_size[2:]))
        padded = _padded3d(input_size, pads)

        def one(w, dout):
            size = [padded[0], *padded[2:], w.shape[1]]
            dx = raw.Conv3DBackpropInputV2(
                input_sizes=size, filter=raw.Transpose(x=w, perm=OIDHW_TO_DHWIO),
                out_backprop=raw.Transpose(x=dout, perm=TO_NDHWC), **args)
            return raw.Transpose(x=dx, perm=TO_NCDHW)

        return _crop3d(_per_group(prim, one, (w, 0), (dout, 1)), pads, input_size[2:])

    return _eager_or_compiled(prim, kernel)


def _conv3d_backprop_filter(prim):
    args = _conv3d_args(prim)

    def kernel(x, dout, filter_size):
        pads, _ = prim.geometry(tuple(x.shape[2:]))

        def one(x, dout):
            sizes = [*filter_size[2:], filter_size[1], dout.shape[1]]
            dw = raw.Conv3DBackpropFilterV2(
                input=raw.Transpose(x=x, perm=TO_NDHWC), filter_sizes=sizes,
                out_backprop=raw.Transpose(x=dout, perm=TO_NDHWC), **args)
            return raw.Transpose(x=dw, perm=DHWIO_TO_OIDHW)

        dw = _per_group(prim, lambda *a: tf.transpose(one(*a), (1, 0, 2, 3, 4)),
                        (_pad3d(x, pads), 1), (dout, 1))
        return tf.transpose(dw, (1, 0, 2, 3, 4))  # groups joined along the output channels

    return _eager_or_compiled(prim, kernel)


# TF's 3-D pools lack float16 and float64 on the CPU device (MaxPool3D even under XLA): each
# pool combines one strided slice of the padded image per window tap, and the gradients put
# each tap's share back with StridedSliceGrad.
def _pool3d_taps(prim, spatial, pads):
    """(begin, end, strides) of each tap's strided slice of the padded image, row-major."""
    _, out = prim.geometry(spatial)
    kernel, stride = prim.kernel_size[2:], prim.strides[2:]
    taps = []
    for tap in itertools.product(*(range(k) for k in kernel)):
        taps.append(([0, 0, *tap], [0, 0, *(t + (o - 1) * s + 1 for t, o, s in
                                             zip(tap, out, stride))], [1, 1, *stride]))
    return taps


def _slice(x, tap):
    begin, end, strides = tap
    return raw.StridedSlice(input=x, begin=begin, end=end, strides=strides, begin_mask=3,
                            end_mask=3)


def _unslice(shape, tap, dy):
    begin, end, strides = tap
    return raw.StridedSliceGrad(shape=shape, begin=begin, end=end, strides=strides, dy=dy,
                                begin_mask=3, end_mask=3)


def _pool3d_plan(prim, x):
    spatial = tuple(x.shape[2:])
    pads, _ = prim.geometry(spatial)
    return pads, _pool3d_taps(prim, spatial, pads)


def _window_sums(x, pads, taps):
    xp = _pad3d(x, pads)
    return functools.reduce(tf.add, (_slice(xp, tap) for tap in taps))


def _divisor3d(prim, x):
    """What each window's sum is divided by: the primitive's ``divisor()``, a constant."""
    return tf.constant(prim.divisor(tuple(x.shape[2:])), x.dtype)


def _max_pool3d(prim):
    def kernel(x):
        pads, taps = _pool3d_plan(prim, x)
        xp = _pad3d(x, pads, -math.inf)
        return functools.reduce(tf.maximum, (_slice(xp, tap) for tap in taps))

    return kernel


def _max_pool3d_grad(prim):
    def kernel(x, out, grad):
        pads, taps = _pool3d_plan(prim, x)
        xp = _pad3d(x, pads, -math.inf)
        shape = _padded3d(x.shape, pads)
        dxp, open_ = tf.zeros(shape, x.dtype), tf.ones(out.shape, tf.bool)
        for tap in taps:  # row-major, so the first maximum of a window takes its gradient
            hit = (_slice(xp, tap) == out) & open_
            open_ = open_ & ~hit
            dxp += _unslice(shape, tap, grad * tf.cast(hit, x.dtype))
        return _crop3d(dxp, pads, x.shape[2:])

    return kernel


def _avg_pool3d(prim):
    def kernel(x):
        pads, taps = _pool3d_plan(prim, x)
        return _window_sums(x, pads, taps) / _divisor3d(prim, x)

    return kernel


def _avg_pool3d_grad(prim):
    def kernel(x, out, grad):
        pads, taps = _pool3d_plan(prim, x)
        share = grad / _divisor3d(prim, x)
        shape = _padded3d(x.shape, pads)
        dxp = functools.reduce(tf.add, (_unslice(shape, tap, share) for tap in taps))
        return _crop3d(dxp, pads, x.shape[2:])

    return kernel


KERNELS = {
    "Conv2D": _conv2d,
    "Conv2DBackpropInput": _conv2d_backprop_input,
    "Conv2DTranspose": _conv2d_backprop_input,
    "Conv2DBackpropFilter": _conv2d_backprop_filter,
    "MaxPool": _max_pool,
    "MaxPoolGrad": _max_pool_grad,
    "MaxPoolWithArgmax": _max_pool_with_argmax,
    "MaxPoolGradGrad": _max_pool_grad_grad,
    "MaxPoolGradWithArgmax": lambda p: lambda x, grad, argmax: _scatter_to_planes(
        tuple(x.shape), grad, argmax),
    "MaxPoolGradGradWithArgmax": lambda p: lambda x, grad, argmax: _gather_from_planes(
        grad, argmax),
    "AvgPool": _avg_pool,
    "AvgPoolGrad": _avg_pool_grad,
    "Conv3D": _conv3d,
    "Conv3DBackpropInput": _conv3d_backprop_input,
    "Conv3DTranspose": lambda p: _conv3d_backprop_input(p.as_backprop_input()),
    "Conv3DBackpropFilter": _conv3d_backprop_filter,
    "MaxPool3D": _max_pool3d,
    "MaxPool3DGrad": _max_pool3d_grad,
    "AvgPool3D": _avg_pool3d,
    "AvgPool3DGrad": _avg_pool3d_grad,
}
