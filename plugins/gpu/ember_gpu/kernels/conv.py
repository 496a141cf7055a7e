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


KERNELS = {
    "Conv2D": _conv2d,
    "Conv2DBackpropInput": _conv2d_backprop_input,
    "Conv2DTranspose": _conv2d_backprop_input,
    "Conv2DBackpropFilter": _conv2d_backprop_filter,
    "MaxPool": _max_pool,
    "MaxPoolGrad": _max_pool_grad,
    "AvgPool": _avg_pool,
    "AvgPoolGrad": _avg_pool_grad,
}
