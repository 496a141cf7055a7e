"""LpNorm and Cdist on TensorFlow, in float32 for float16 inputs."""

from __future__ import annotations

import math

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


def _pnorm(v, p, axis, keepdims=False):
    """The p-norm of ``v`` over ``axis``: the count of non-zeros for p = 0, the largest size
    for p = inf."""
    size = tf.abs(v)
    if p == 0:
        return tf.reduce_sum(tf.cast(size != 0, v.dtype), axis, keepdims)
    if p == math.inf:
        return tf.reduce_max(size, axis, keepdims) if size.shape.num_elements() else \
            tf.reduce_sum(size, axis, keepdims)
    return tf.reduce_sum(size ** p, axis, keepdims) ** (1 / p)


def _wide(x):
    return tf.cast(x, tf.float32) if x.dtype == tf.float16 else x


def _lp_norm(prim):
    def kernel(x):
        return tf.cast(_pnorm(_wide(x), prim.p, prim.axes(x.shape.rank), prim.keep_dims),
                       x.dtype)

    return kernel


def _cdist(prim):
    def kernel(x, y):
        diff = _wide(x)[..., :, None, :] - _wide(y)[..., None, :, :]
        return tf.cast(_pnorm(diff, prim.p, -1), x.dtype)

    return kernel


KERNELS = {
    "LpNorm": _lp_norm,
    "Cdist": _cdist,
}
