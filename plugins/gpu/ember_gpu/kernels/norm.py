"""Kernels of LayerNorm and L2Normalize and their gradients, on TensorFlow; statistics in at
least float32."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
tnp = tf.experimental.numpy


def _wide(x):
    return tf.cast(x, tf.float64 if x.dtype == tf.float64 else tf.float32)


def _norm_axes(prim, x):
    rank = len(x.shape)
    return list(range(prim.begin_norm_axis % max(rank, 1), rank))


def _layer_norm(prim):
    epsilon = prim.epsilon

    def kernel(x, gamma, beta):
        xw = _wide(x)
        mean, variance = tf.nn.moments(xw, _norm_axes(prim, x), keepdims=True)
        y = (xw - mean) * tf.math.rsqrt(variance + epsilon) * _wide(gamma) + _wide(beta)
        return tuple(tf.cast(a, x.dtype) for a in (y, mean, variance))

    return kernel


def _layer_norm_grad(prim):
    epsilon = prim.epsilon

    def kernel(x, dy, variance, mean, gamma):
        norm = _norm_axes(prim, x)
        outer = list(range(len(x.shape) - len(gamma.shape)))
        rstd = tf.math.rsqrt(_wide(variance) + epsilon)
        x_hat = (_wide(x) - _wide(mean)) * rstd
        dyw = _wide(dy)
        g = dyw * _wide(gamma)
        dx = rstd * (g - tf.reduce_mean(g, norm, keepdims=True)
                     - x_hat * tf.reduce_mean(g * x_hat, norm, keepdims=True))
        return (tf.cast(dx, x.dtype), tf.cast(tf.reduce_sum(dyw * x_hat, outer), gamma.dtype),
                tf.cast(tf.reduce_sum(dyw, outer), gamma.dtype))

    return kernel


def _layer_norm_grad_grad(prim):
    def kernel(x, dy, variance, mean, gamma, *grads):
        outs = prim.backward(tnp, *(_wide(a) for a in (x, dy, variance, mean, gamma, *grads)))
        return tuple(tf.cast(o, t.dtype) for o, t in zip(outs, (x, dy, gamma)))

    return kernel


def _l2_norm(x, axis, epsilon):
    squares = tf.reduce_sum(tf.square(_wide(x)), axis, keepdims=True)
    return squares, tf.sqrt(tf.maximum(squares, epsilon))


def _l2_normalize(prim):
    axis, epsilon = list(prim.axis), prim.epsilon
    return lambda x: tf.cast(_wide(x) / _l2_norm(x, axis, epsilon)[1], x.dtype)


def _l2_normalize_grad(prim):
    axis, epsilon = list(prim.axis), prim.epsilon

    def kernel(x, out, dout):
        squares, norm = _l2_norm(x, axis, epsilon)
        xw, dw = _wide(x), _wide(dout)
        inner = tf.reduce_sum(xw * dw, axis, keepdims=True) * tf.cast(squares >= epsilon,
                                                                        xw.dtype)
        return tf.cast((dw - xw * inner / (norm * norm)) / norm, x.dtype)

    return kernel


def _lrn(prim):
    return lambda x: tf.cast(prim.forward(tnp, _wide(x)), x.dtype)


def _lrn_grad(prim):
    return lambda grads, x, y: tf.cast(prim.backward(tnp, _wide(grads), _wide(x)), x.dtype)


KERNELS = {
    "LayerNorm": _layer_norm,
    "LayerNormGrad": _layer_norm_grad,
    "LayerNormGradGrad": _layer_norm_grad_grad,
    "L2Normalize": _l2_normalize,
    "L2NormalizeGrad": _l2_normalize_grad,
    "LRN": _lrn,
    "LRNGrad": _lrn_grad,
}
