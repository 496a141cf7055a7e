"""The inverse error function, truncation and Addcmul/Addcdiv on TensorFlow."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


def _erfinv(x):
    """TensorFlow's Erfinv runs eagerly on float32 and float64 only: float16 goes through
    float32."""
    if x.dtype == tf.float16:
        return tf.cast(tf.math.erfinv(tf.cast(x, tf.float32)), tf.float16)
    return tf.math.erfinv(x)


def _trunc(x):
    if not x.dtype.is_floating:
        return tf.identity(x)
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


KERNELS = {
    "Erfinv": lambda p: _erfinv,
    "Trunc": lambda p: _trunc,
    "Addcmul": lambda p: lambda data, x1, x2, value: data + value * (x1 * x2),
    "Addcdiv": lambda p: lambda data, x1, x2, value: data + value * (x1 / x2),
}
