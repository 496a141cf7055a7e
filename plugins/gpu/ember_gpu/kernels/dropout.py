"""Dropout2D/3D and the packed-mask DropoutGenMask/DropoutDoMask on TensorFlow, drawn from one
``tf.random.Generator`` per primitive (``_OpGenerator``) as Dropout draws. Outputs are computed
in float64 and cast back, as the CPU backend does."""

from __future__ import annotations

import math

from ember.ops.operations.dropout_ops import mask_bytes
from ember_gpu.device import import_tensorflow
from ember_gpu.kernels.nn import _OpGenerator

tf = import_tensorflow()


def _masked(x, bits, keep_prob):
    """x where ``bits`` (of x's shape) is set, times 1 / keep_prob (0 when keep_prob is 0)."""
    keep = tf.cast(keep_prob, tf.float64)
    scale = tf.where(keep > 0, 1 / keep, tf.zeros_like(keep))
    return tf.cast(tf.cast(x, tf.float64) * tf.cast(bits, tf.float64) * scale, x.dtype)


def _channel_dropout(prim):
    keep, generator = prim.keep_prob, _OpGenerator(*prim.seeds)

    def kernel(x):
        kept = generator().uniform(tuple(x.shape[:2])) < keep
        mask = tf.broadcast_to(tf.reshape(kept, tuple(x.shape[:2]) + (1,) * (x.ndim - 2)),
                               x.shape)
        return _masked(x, mask, keep), mask

    return kernel


_BIT_VALUES = tuple(1 << b for b in range(8))


def _gen_mask(prim):
    generator = _OpGenerator(*prim.seeds)

    def kernel(shape, keep_prob):
        nbytes = mask_bytes(math.prod(shape))
        bits = generator().uniform((nbytes, 8)) < tf.cast(keep_prob, tf.float32)
        packed = tf.reduce_sum(tf.cast(bits, tf.int32) * _BIT_VALUES, axis=1)
        return tf.cast(packed, tf.uint8)

    return kernel


def _do_mask(x, mask, keep_prob):
    wide = tf.cast(mask, tf.int32)[:, None]
    bits = tf.bitwise.bitwise_and(tf.bitwise.right_shift(wide, tf.range(8)), 1)
    bits = tf.reshape(tf.reshape(bits, (-1,))[:math.prod(x.shape)], x.shape)
    return _masked(x, bits, keep_prob)


KERNELS = {
    "Dropout2D": _channel_dropout,
    "Dropout3D": _channel_dropout,
    "DropoutGenMask": _gen_mask,
    "DropoutDoMask": lambda p: _do_mask,
}
